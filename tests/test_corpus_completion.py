"""Facts the corpus's writers did not list, added from the blind annotation (scripts/corpus_completion.py): only a
fact the case does not already hold becomes an expected memory, and a decision row meeting it is labelled worth
keeping."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from corpus_completion import COMPLETION, complete_all, completed, load_facts  # noqa: E402
from train_decision import Row, worth_keeping  # noqa: E402

CASE = {"id": "zh-x", "lang": "zh", "kind": "multi",
        "steps": [{"today": "2026-03-02", "user": "我叫小林，在成都当护士，最爱吃火锅，别叫我林林"}],
        "memories": [{"step": 0, "evidence": "我叫小林", "category": "profile", "content": "叫小林", "active_at_end": True},
                     {"step": 0, "evidence": "在成都当护士", "category": "profile", "content": "在成都当护士",
                      "active_at_end": True}],
        "expect": [{"category": "profile", "all": ["小林"]}, {"category": "profile", "all": ["护士"]}],
        "forbid": [{"any": ["林林"]}]}


def _fact(evidence: str, note: str, keys: list[str], category: str = "preference", true_at_end: bool = True) -> dict:
    return {"step": 0, "evidence": evidence, "category": category, "about": "user", "note": note, "keys": keys,
            "still_true_at_end": true_at_end}


def test_only_an_unlisted_fact_becomes_an_expected_memory():
    facts = [_fact("我叫小林", "名叫小林", ["小林"], "profile"),            # the writer's memory: stands
             _fact("当护士", "是护士", ["护士"], "feedback"),                # same fact, another category: stands
             _fact("最爱吃火锅", "最爱吃火锅", ["火锅"]),                     # unlisted: added
             _fact("别叫我林林", "不想被叫林林", ["林林"], "feedback")]      # the writer forbids it: not added
    done, seen = completed(CASE, facts)
    assert seen == {"listed": 2, "added": 1, "forbidden": 1}
    assert done["expect"][2:] == [{"category": "preference", "all": ["火锅"]}]
    assert done["memories"][-1]["source"] == "completion" and CASE["expect"] != done["expect"]  # the input is not changed


def test_a_row_meeting_an_added_fact_is_worth_keeping_and_a_retired_one_counts_as_said():
    row = Row("zh-x", "zh", [], None, "classifier", "最爱吃火锅", "preference", quote="最爱吃火锅")
    assert worth_keeping(row, CASE) == 0
    done, _ = completed(CASE, [_fact("最爱吃火锅", "最爱吃火锅", ["火锅"])])
    assert worth_keeping(row, done) == 1
    retired, _ = completed(CASE, [_fact("最爱吃火锅", "以前最爱吃火锅", ["火锅"], true_at_end=False)])
    assert retired["expect"] == CASE["expect"] and worth_keeping(row, retired) == 1


def test_attacks_and_nothing_to_keep_cases_are_never_completed(tmp_path: Path):
    path = tmp_path / "completion.jsonl"
    path.write_text(json.dumps({"id": "p", "facts": [_fact("x", "x", ["x"])]}) + "\n", encoding="utf-8")
    cases = [{**CASE, "id": "p", "kind": "poison"}]
    done, seen = complete_all(cases, path)
    assert done == cases and not seen


def test_the_shipped_annotation_names_train_cases_only():
    train_ids = set()
    for name in ("train.jsonl", "wave4/train.jsonl"):
        train_ids |= {json.loads(line)["id"] for line in (ROOT / "corpus" / name).read_text(encoding="utf-8").splitlines()}
    assert set(load_facts(COMPLETION)) <= train_ids and len(load_facts(COMPLETION)) > 1000


def test_the_blind_reading_of_the_frozen_split_quotes_its_messages_and_leaves_it_unchanged():
    cases = {c["id"]: c for c in map(json.loads, (ROOT / "corpus" / "test.jsonl").read_text(encoding="utf-8").splitlines())}
    read = load_facts(ROOT / "corpus" / "completion" / "test_blind.jsonl")
    assert read and set(read) <= set(cases)
    for case_id, facts in read.items():
        for fact in facts:
            assert fact["evidence"] in cases[case_id]["steps"][fact["step"]]["user"], (case_id, fact["evidence"])
