"""Development harness: play an eval set through `extract_candidates` + `validate` only (no store, no model).

Reconciliation is approximated by keeping the latest candidate per topic. Scoring follows
../shared/eval/README.md: case-insensitive substring tests on the active memories after the last
step; precision = memories that satisfy some expect item / all memories; recall = expect items
satisfied / expect items.

    .venv/bin/python scripts/eval_rules.py [--file PATH] [--verbose] [--only ID-SUBSTRING]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.learn.rules.candidates import extract_candidates  # noqa: E402
from memory.learn.validate import validate  # noqa: E402
from memory.records import Candidate, Rejection  # noqa: E402

DEFAULT_SET = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev.jsonl"


@dataclass
class CaseResult:
    """What one case stored, what it rejected and how it scored."""

    case: dict
    memories: list[Candidate]
    rejected: list[Rejection] = field(default_factory=list)
    satisfied: int = 0
    useful: int = 0
    forbid_hits: list[str] = field(default_factory=list)
    count_errors: list[str] = field(default_factory=list)
    missing: list[dict] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.missing and not self.forbid_hits and not self.count_errors


def play(case: dict) -> CaseResult:
    """Run every step of a case; a new candidate replaces an older one with the same topic."""
    active: list[Candidate] = []
    rejected: list[Rejection] = []
    for step in case["steps"]:
        today = date.fromisoformat(step["today"])
        cands = extract_candidates(step["user"], step.get("assistant"), today)
        kept, rej = validate(cands, step["user"], step.get("assistant"), today)
        rejected += rej
        for c in kept:
            active = [m for m in active if not (c.topic and m.topic == c.topic and m.category == c.category)]
            active.append(c)
    return CaseResult(case, active, rejected)


def _meets(item: dict, mem: Candidate) -> bool:
    text = mem.content.lower()
    if item.get("category") and item["category"] != mem.category:
        return False
    if not all(s.lower() in text for s in item.get("all", [])):
        return False
    if item.get("any") and not any(s.lower() in text for s in item["any"]):
        return False
    return not any(s.lower() in text for s in item.get("none", []))


def score(result: CaseResult) -> CaseResult:
    """Fill in the expect / forbid / count checks of one played case."""
    case, mems = result.case, result.memories
    for item in case.get("expect", []):
        if any(_meets(item, m) for m in mems):
            result.satisfied += 1
        else:
            result.missing.append(item)
    result.useful = sum(any(_meets(item, m) for item in case.get("expect", [])) for m in mems)
    for item in case.get("forbid", []):
        result.forbid_hits += [f"{w!r} in {m.content!r}" for m in mems for w in item["any"] if w.lower() in m.content.lower()]
    for word, n in (case.get("expect_count") or {}).items():
        got = sum(word.lower() in m.content.lower() for m in mems)
        if got != n:
            result.count_errors.append(f"{word!r}: {got} memories, expected {n}")
    return result


def report(results: list[CaseResult], verbose: bool) -> None:
    """Print the summary numbers and the failing cases."""
    stored = sum(len(r.memories) for r in results)
    useful = sum(r.useful for r in results)
    expects = sum(len(r.case.get("expect", [])) for r in results)
    satisfied = sum(r.satisfied for r in results)
    forbid = sum(len(r.forbid_hits) for r in results)
    print(f"cases: {len(results)}  memories: {stored}")
    print(f"precision: {useful}/{stored} = {useful / stored if stored else 1:.3f}")
    print(f"recall:    {satisfied}/{expects} = {satisfied / expects if expects else 1:.3f}")
    print(f"forbid violations: {forbid}")
    kinds: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        kinds[f"{r.case['kind']}/{r.case['lang']}"].append(r.passed)
    print("per kind:  " + "  ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(kinds.items())))
    print(f"passed:    {sum(r.passed for r in results)}/{len(results)}")
    for r in results:
        if r.passed and not verbose:
            continue
        print(f"\n{'PASS' if r.passed else 'FAIL'} {r.case['id']}")
        for step in r.case["steps"]:
            print(f"   user: {step['user']}")
        for m in r.memories:
            print(f"   + [{m.category}] {m.content}   (topic={m.topic}, date={m.event_date})")
        for j in r.rejected:
            print(f"   - {j.content!r}: {j.reason}")
        for item in r.missing:
            print(f"   missing: {json.dumps(item, ensure_ascii=False)}")
        for f in r.forbid_hits + r.count_errors:
            print(f"   violation: {f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=DEFAULT_SET)
    parser.add_argument("--verbose", action="store_true", help="also show the passing cases")
    parser.add_argument("--only", default="", help="only cases whose id contains this")
    args = parser.parse_args(argv)
    cases = [json.loads(line) for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    results = [score(play(c)) for c in cases if args.only in c["id"]]
    report(results, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
