"""Rules as data: every rule is a record with an id, a language, a slot and an explicit priority."""
from __future__ import annotations

import re
from datetime import date

import pytest

from memory.learn.rules import lexicon
from memory.learn.rules.candidates import RULES, extract_candidates
from memory.learn.rules.lexicon import LexiconError
from memory.learn.rules.registry import LANGS, SLOTS, Rule, RuleError, check, compile_all


def _b_name(m, text):
    from memory.learn.rules.common import candidate
    return candidate("profile", f"Name is {m['name']}", m.group(0), "profile:name")


def test_every_rule_has_a_unique_id_a_language_a_slot_and_a_priority():
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids)) > 120
    for r in RULES:
        assert r.lang in LANGS and r.slot in SLOTS and isinstance(r.priority, int), r
        assert r.id.startswith(f"{r.lang}.{r.slot}.") or r.slot == "mood", r.id
    assert [r.priority for r in RULES] == sorted({r.priority for r in RULES})


def test_every_pattern_compiles():
    compile_all(RULES)


def test_warming_the_pipeline_up_compiles_every_pattern_ahead_of_the_first_message():
    from memory.learn import warm_up
    for r in RULES:
        vars(r).pop("compiled", None)  # as in a fresh process, whatever ran before
    warm_up()  # what the app runs at start (app/companion.py), so extracting the first messages compiles nothing
    assert all("compiled" in vars(r) for r in RULES if r.pattern is not None)


def test_the_registry_runs_rules_by_priority_not_by_table_order():
    early = Rule("en.profile.name.early", "en", "profile", 1, r"\bI'm\s+(?P<name>[A-Z][a-z]+)", _b_name)
    late = Rule("en.profile.name.late", "en", "profile", 2, r"\bI'm\s+(?P<name>\w+)", _b_name)
    assert [r.id for r in check([late, early])] == ["en.profile.name.early", "en.profile.name.late"]
    found = [c for r in check([late, early]) for c in r.candidates("I’m Alice", date(2026, 1, 1))]
    assert [c.content for c in found] == ["Name is Alice", "Name is Alice"]  # English rules read a curly apostrophe


def test_a_pattern_that_does_not_compile_fails_loudly_naming_its_rule():
    bad = Rule("en.profile.broken", "en", "profile", 5, r"\bmy\s+name\s+is\s+(?P<name>[A-Z", _b_name)
    with pytest.raises(RuleError, match=r"en\.profile\.broken.*does not compile"):
        list(bad.candidates("my name is Alice", date(2026, 1, 1)))


def test_duplicate_ids_priorities_and_malformed_records_are_refused():
    a = Rule("zh.profile.name", "zh", "profile", 10, r"我叫(?P<name>\w+)", _b_name)
    with pytest.raises(RuleError, match="used twice"):
        check([a, Rule("zh.profile.name", "zh", "profile", 11, r"叫我(?P<name>\w+)", _b_name)])
    with pytest.raises(RuleError, match="share priority 10"):
        check([a, Rule("zh.profile.name.2", "zh", "profile", 10, r"叫我(?P<name>\w+)", _b_name)])
    with pytest.raises(RuleError, match="bad language or slot"):
        check([Rule("fr.profile.nom", "fr", "profile", 1, r"je suis (?P<name>\w+)", _b_name)])
    with pytest.raises(RuleError, match="either a pattern"):
        check([Rule("en.profile.none", "en", "profile", 1, None, None)])


def test_the_table_rules_still_find_what_they_found():
    found = extract_candidates("My name is Alice and I work as a nurse. 我叫小林", None, date(2026, 11, 1))
    assert {c.topic for c in found} >= {"profile:name", "profile:job"}


def test_lexicon_words_are_literal_in_the_patterns_they_join(tmp_path):
    (tmp_path / "odd.txt").write_text("# words with regex characters\nc++\nfianc[ée]e?  # a comment\nnurse\nnurse practitioner\n",
                                      encoding="utf-8")
    ws = lexicon.words("odd", tmp_path)
    assert ws == ("c++", "fianc[ée]e?", "nurse", "nurse practitioner")
    alt = "|".join(re.escape(w) for w in sorted(ws, key=len, reverse=True))
    rule = Rule("en.profile.job.odd", "en", "profile", 7, r"\bI'm\s+a\s+(?P<name>" + alt + r")(?=\s|$)", _b_name)
    assert rule.compiled.search("I'm a nurse practitioner")["name"] == "nurse practitioner"
    assert rule.compiled.search("I'm a fianc[ée]e? lol") and not rule.compiled.search("I'm a fiancee")
    spaced = lexicon.alternation("en_sports_and_games", space=r"\s+")
    assert re.fullmatch(f"(?:{spaced})", "table \t tennis") and re.fullmatch(f"(?:{spaced})", "d&d")


def test_a_missing_empty_or_malformed_lexicon_fails_loudly_naming_it(tmp_path):
    with pytest.raises(LexiconError, match="lexicon nowhere"):
        lexicon.words("nowhere", tmp_path)
    (tmp_path / "empty.txt").write_text("# only a comment\n\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="lexicon empty: no words"):
        lexicon.words("empty", tmp_path)
    (tmp_path / "tabs.txt").write_text("nurse\tteacher\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="lexicon tabs, line 1"):
        lexicon.words("tabs", tmp_path)


def test_every_shipped_lexicon_loads():
    names = [p.stem for p in lexicon.LEXICON_DIR.glob("*.txt") if not p.stem.startswith("stopwords_")]
    assert len(names) >= 20
    for name in names:
        assert lexicon.words(name)


def test_each_rule_candidate_names_its_rule_and_priority():
    found = extract_candidates("My name is Alice. remember that the spare key is under the mat", None, date(2026, 11, 1))
    origins = {c.content: c.origin for c in found}
    by_id = {r.id: r for r in RULES}
    name = origins["Name is Alice"]
    assert name == f"rule:en.profile.name,priority={by_id['en.profile.name'].priority}"
    assert origins["The spare key is under the mat"] == "rule:en.explicit.remember"


def test_memory_extract_json_names_the_rule_or_the_classifier_with_scores(cli):
    """`companion memory extract --json`: a rule candidate names its rule id and priority; a clause only
    the trained classifier catches names the classifier with its scores."""
    def written(text):
        return cli.json("memory", "extract", text, "--json", "--dry-run", "--no-model", today="2026-11-02")["written"]
    rule = written("My name is Alice")
    # the rule's note, or the same in the user's words when the decision model is surer of those
    assert [w["origin"].removesuffix(",own-words") for w in rule] == ["rule:en.profile.name,priority=1000"]
    assert rule[0]["content"] in ("Name is Alice", "Their name is Alice")
    assert {"id", "category", "action", "status"} <= set(rule[0])
    learned = written("living way out in rural Montana these days")
    assert learned and all(w["origin"].startswith("classifier:worth=") and "polarity=" in w["origin"] for w in learned)


def test_the_registry_script_prints_every_rule_with_its_measured_precision():
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, str(root / "scripts" / "rules_registry.py")], capture_output=True, text=True,
                         check=True, cwd=root).stdout.splitlines()
    assert out[0].startswith(f"{len(RULES)} rules; ")
    rows = {line.split()[0]: line for line in out[1:]}
    assert set(rows) == {r.id for r in RULES}
    for line in rows.values():
        kept, seen = map(int, re.search(r"(\d+)/(\d+)", line).groups())  # type: ignore[union-attr]
        assert kept <= seen and ("raw   -" in line) == (seen == 0), line
