#!/usr/bin/env python3
"""Facts the corpus's writers said but did not list, added from blind annotation (corpus/completion/).

The writers listed the facts their cases were written for; a message often says more ("我叫小林，在成都当护士，
最爱吃火锅" lists the name and the job). A candidate meeting such a fact was labelled "not worth keeping", and the
decision model learned the gap. Readers who saw only the messages and `corpus/completion/BRIEF.md` wrote down every
fact a friend would keep; a fact the case does not already hold is added to it here:

- already listed: its evidence overlaps the evidence of one of the case's memories of the same step, or its keys are
  all in such a memory's note, or its note meets one of the case's expected memories, or an expected memory's
  words are all in its note: nothing added
  (the writer's wording and category stand);
- against the writer: its note holds a word the case forbids: nothing added (the writer said it is not kept);
- otherwise: a reference memory (`source: "completion"`) and, when still true at the end, an expected memory
  {category, all: its keys}.

  .venv/bin/python scripts/corpus_completion.py corpus/train.jsonl        what the annotation adds to the train split
  .venv/bin/python scripts/corpus_completion.py corpus/test.jsonl corpus/completion/test_blind.jsonl --ceiling \
      --write /tmp/test_completed.jsonl      the blind readers scored like the pipeline on the frozen test cases, and
                                             those cases with the facts their writers did not list (for --set)
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from eval_dev import satisfies, score_case  # noqa: E402
from memory.text import STOPWORDS, has_cjk, tokens  # noqa: E402

COMPLETION = ROOT / "corpus" / "completion" / "train.jsonl"


def load_facts(path: Path = COMPLETION) -> dict[str, list[dict]]:
    """The annotators' facts by case id ({} when the file is absent)."""
    if not path.exists():
        return {}
    return {line["id"]: line["facts"] for line in map(json.loads, path.read_text(encoding="utf-8").splitlines())
            if line}


def _words(text: str) -> set[str]:
    """The words that carry meaning: no stop words, no lone Chinese character (我, 叫, 的)."""
    return {t for t in tokens(text) if t not in STOPWORDS and not (len(t) == 1 and has_cjk(t))}


def overlapping(quote: str, evidence: str) -> bool:
    """Two quotes of one message say the same thing: one holds the other, or most of the shorter one's meaningful
    words are the other's. Stricter than train_decision's `_overlapping` (all tokens), under which "别叫我林林" and
    "我叫小林" share 我 and 叫; that one is left as it is, since the shipped decision model was labelled by it."""
    if not quote or not evidence:
        return False
    a, b = _words(quote), _words(evidence)
    return quote in evidence or evidence in quote or (bool(a and b) and len(a & b) >= 0.6 * min(len(a), len(b)))


def verdict(case: dict, fact: dict) -> str:
    """'listed', 'forbidden' or 'added' (see the module docstring)."""
    note = {"content": fact["note"], "category": fact["category"]}
    for m in case.get("memories", []):
        if m.get("step", 0) == fact["step"] and (overlapping(fact["evidence"], m.get("evidence", ""))
                                                 or all(k.lower() in m.get("content", "").lower() for k in fact["keys"])):
            return "listed"
    if any(satisfies(note, item) or satisfies(note, {**item, "category": None}) for item in case.get("expect", [])):
        return "listed"
    if any(word.lower() in fact["note"].lower() for f in case.get("forbid", []) for word in f.get("any", [])):
        return "forbidden"
    return "added"


def completed(case: dict, facts: list[dict]) -> tuple[dict, Counter]:
    """The case with the facts it does not already hold added, and what became of each fact."""
    if case.get("kind") in ("poison", "none") or not facts:
        return case, Counter()
    seen: Counter = Counter()
    memories, expect = list(case.get("memories", [])), list(case.get("expect", []))
    for fact in facts:
        outcome = verdict(case, fact)
        seen[outcome] += 1
        if outcome != "added":
            continue
        memories.append({"step": fact["step"], "evidence": fact["evidence"], "category": fact["category"],
                         "about": fact.get("about", "user"), "content": fact["note"],
                         "active_at_end": fact["still_true_at_end"], "source": "completion"})
        if fact["still_true_at_end"]:
            expect.append({"category": fact["category"], "all": list(fact["keys"])})
    return {**case, "memories": memories, "expect": expect}, seen


def complete_all(cases: list[dict], path: Path = COMPLETION) -> tuple[list[dict], Counter]:
    facts = load_facts(path)
    total: Counter = Counter()
    out = []
    for case in cases:
        done, seen = completed(case, facts.get(case["id"], []))
        total.update(seen)
        out.append(done)
    return out, total


def ceiling(cases: list[dict], facts: dict[str, list[dict]]) -> None:
    """The annotator's notes (those still true at the end) scored as the pipeline's memories are, against the
    writers' labels of the cases they read: the most a reader who works blind scores on this yardstick."""
    totals: dict[str, Counter] = {}
    for case in cases:
        if case["id"] not in facts:
            continue
        notes = [{"content": f["note"], "category": f["category"]} for f in facts[case["id"]] if f["still_true_at_end"]]
        scored = score_case(case, notes)
        n = totals.setdefault(case["lang"], Counter())
        for key in ("stored", "useful", "expect", "met"):
            n[key] += scored[key]
        n["cases"] += 1
        n["forbidden"] += bool(scored["violations"])
    for lang, n in sorted(totals.items()):
        print(f"{lang}: {n['cases']} cases, the reader's notes P {n['useful'] / max(1, n['stored']):.3f} "
              f"R {n['met'] / max(1, n['expect']):.3f} ({n['stored']} notes, {n['expect']} expected memories, "
              f"cases with a forbidden detail {n['forbidden']})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", type=Path)
    ap.add_argument("annotation", type=Path, nargs="?", default=COMPLETION)
    ap.add_argument("--ceiling", action="store_true", help="score the annotator's notes against the cases' labels")
    ap.add_argument("--write", type=Path, metavar="FILE", help="write the annotated cases, completed, as a corpus file")
    args = ap.parse_args()
    cases = [json.loads(line) for line in args.cases.read_text(encoding="utf-8").splitlines() if line]
    if args.ceiling:
        ceiling(cases, load_facts(args.annotation))
    done, total = complete_all(cases, args.annotation)
    by_lang: Counter = Counter()
    for before, after in zip(cases, done):
        by_lang[before["lang"]] += len(after.get("expect", [])) - len(before.get("expect", []))
    print(f"{len(cases)} cases; annotated facts: {dict(total)}; expected memories added by language: {dict(by_lang)}")
    if args.write:
        annotated = load_facts(args.annotation)
        args.write.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in done if c["id"] in annotated),
                              encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
