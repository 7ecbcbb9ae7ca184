#!/usr/bin/env python3
"""Check the raw corpus, drop near-duplicates, and write the train/test split (run once; test is frozen).

  .venv/bin/python scripts/corpus_split.py            check corpus/raw/*.jsonl, write train.jsonl + test.jsonl
  .venv/bin/python scripts/corpus_split.py --check    only check and count

A case goes to test when the SHA-256 of its id is 0 mod 4 (about 25 %), decided per id so that adding
cases never moves an old one; the share per (lang, kind) stratum is printed to check the balance. Near-duplicates (character-trigram
Jaccard ≥ 0.7 between user messages) are dropped before splitting, so a test case has no twin in train.
Once `corpus/test.jsonl` exists this script refuses to rewrite it unless told `--refreeze`: the test
split must not move after anything has been measured on it. Cases written later (a second wave of
writers) are split by the same rule: their train side joins train.jsonl, their test side is frozen as a
file of its own (`--freeze-new test_wave2.jsonl`), so the first test split never changes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RAW = ROOT / "corpus" / "raw"
CATEGORIES = {"profile", "preference", "relationship", "event", "feedback"}
KINDS = {"single", "multi", "none", "third_party", "date", "update", "contradiction", "poison"}
NEAR_DUPLICATE = 0.7
# Test files, each frozen when it was written: the first wave's split, then the later waves' test cases
# (written by new writers after the first measurements; the same id rule decides their side).
FROZEN = ("test.jsonl", "test_wave2.jsonl", "test_wave3.jsonl")


def problems(case: dict) -> list[str]:
    """What is wrong with one case (empty when it is usable)."""
    out = []
    if case.get("lang") not in ("en", "zh") or case.get("kind") not in KINDS:
        out.append("bad lang or kind")
    steps = case.get("steps") or []
    if not steps or not all(isinstance(s.get("user"), str) and s["user"].strip() for s in steps):
        out.append("no user text")
    for s in steps:
        try:
            date.fromisoformat(s.get("today", ""))
        except ValueError:
            out.append(f"bad today {s.get('today')!r}")
    for m in case.get("memories", []):
        i = m.get("step", 0)
        if not (0 <= i < len(steps)) or m.get("evidence", "\0") not in steps[i]["user"]:
            out.append(f"evidence not in step {i}: {m.get('evidence')!r}")
        if m.get("category") not in CATEGORIES:
            out.append(f"bad category {m.get('category')!r}")
    for item in case.get("expect", []):
        if item.get("category") and item["category"] not in CATEGORIES:
            out.append("bad expect category")
    return out


def trigrams(text: str) -> set[str]:
    t = re.sub(r"\s+", " ", text.casefold())
    return {t[i:i + 3] for i in range(max(1, len(t) - 2))}


def drop_near_duplicates(cases: list[dict]) -> tuple[list[dict], list[str]]:
    """Keep the first of any two cases whose user text is nearly the same."""
    kept, dropped, grams = [], [], []
    index: dict[str, list[int]] = defaultdict(list)
    for case in cases:
        g = trigrams(" ".join(s["user"] for s in case["steps"]))
        near = Counter(j for t in g for j in index[t])
        if any(n / len(g | grams[j]) >= NEAR_DUPLICATE for j, n in near.items()):
            dropped.append(case["id"])
            continue
        for t in g:
            index[t].append(len(kept))
        grams.append(g)
        kept.append(case)
    return kept, dropped


def in_test(case_id: str) -> bool:
    """A case's side of the split, from its id alone, so adding cases never moves an old one."""
    return int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 4 == 0


def split(cases: list[dict]) -> tuple[list[dict], list[dict]]:
    """About a quarter to test, decided per id; the per-(lang, kind) shares are printed to check the strata."""
    train = [c for c in cases if not in_test(c["id"])]
    test = [c for c in cases if in_test(c["id"])]
    groups: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for c in cases:
        groups[(c["lang"], c["kind"])][in_test(c["id"])] += 1
    print("test share per stratum:", ", ".join(f"{lang}:{kind} {t}/{t + n}" for (lang, kind), (n, t) in sorted(groups.items())))
    return sorted(train, key=lambda c: c["id"]), sorted(test, key=lambda c: c["id"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--refreeze", action="store_true")
    ap.add_argument("--freeze-new", metavar="NAME", help="freeze new test-side cases as corpus/NAME (one of FROZEN)")
    ap.add_argument("--train-only", metavar="FILE", help="write only the would-be train cases to FILE (for tuning)")
    args = ap.parse_args()
    cases, bad = [], 0
    for path in sorted(RAW.glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                case = json.loads(line)
            except json.JSONDecodeError as exc:
                print(f"{path.name}:{n}: not JSON ({exc})")
                bad += 1
                continue
            if issues := problems(case):
                print(f"{path.name}:{n} {case.get('id')}: {'; '.join(issues)}")
                bad += 1
                continue
            cases.append(case)
    known = {c["id"] for name in ("train.jsonl", *FROZEN) if (ROOT / "corpus" / name).exists()
             for c in load(ROOT / "corpus" / name)}
    cases.sort(key=lambda c: c["id"] not in known)  # a later wave never pushes out an earlier case
    cases, dropped = drop_near_duplicates(cases)
    steps = Counter(c["lang"] for c in cases for _ in c["steps"])
    print(f"usable cases {len(cases)} (unusable {bad}, near-duplicates dropped {len(dropped)}); "
          f"user messages: {sum(steps.values())} ({dict(steps)})")
    print("kinds:", dict(Counter(f"{c['lang']}:{c['kind']}" for c in cases)))
    if args.check:
        return 0
    train, test = split(cases)
    if args.train_only:
        write(Path(args.train_only), train)
        return 0
    frozen = {c["id"] for name in FROZEN if (ROOT / "corpus" / name).exists() for c in load(ROOT / "corpus" / name)}
    if not frozen or args.refreeze:
        write(ROOT / "corpus" / "test.jsonl", test)
    else:
        new_test = [c for c in test if c["id"] not in frozen]
        if new_test and not args.freeze_new:
            print(f"{len(new_test)} new test cases and the test files are frozen: pass --freeze-new "
                  f"{FROZEN[-1]} to freeze them as a new test file")
            return 1
        if new_test:
            target = ROOT / "corpus" / args.freeze_new
            if target.exists() or args.freeze_new not in FROZEN:
                print(f"{args.freeze_new} exists or is not listed in FROZEN: frozen files are never rewritten")
                return 1
            write(target, new_test)
    write(ROOT / "corpus" / "train.jsonl", train)
    return 0


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write(path: Path, cases: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"{path.name}: {len(cases)} cases, {sum(len(c['steps']) for c in cases)} user messages")


if __name__ == "__main__":
    sys.exit(main())
