#!/usr/bin/env python3
"""Apply a category relabelling (corpus/audits/profile_preference_rule.jsonl) to every corpus file that holds the case.

Each line of the decisions file names a memory (`key`: case id#memory index), the category the writers gave it
(`gold`) and the one the written rule gives it (`label`, read blind by a reader who saw neither the gold nor the
code). Where they differ and the reader was sure, the memory's category changes, and so does the one expected
memory (`expect`) that stands for it: the expect item of the old category whose words the memory's note or evidence
holds. An expect item that also stands for a memory that keeps the old category, or one of two such items, is left
alone and reported; a memory no such item stands for (expected by its words alone, or retired by a later step) only
changes itself. The same change is made in every file holding the case (raw, train, test, waves).

  .venv/bin/python corpus/audits/apply_rule.py corpus/audits/profile_preference_rule.jsonl [--dry-run]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(CORPUS.parent / "scripts"))
from eval_dev import satisfies  # noqa: E402  the scoring's own matching of a memory to an expect item
FILES = sorted(CORPUS.glob("*.jsonl")) + sorted(CORPUS.glob("raw/*.jsonl")) + sorted(CORPUS.glob("wave*/train.jsonl")) \
    + sorted(CORPUS.glob("answers/*.jsonl"))


def _holds(item: dict, memory: dict) -> bool:
    """Would the memory's reference note or its evidence meet the expect item (in the item's own category)?"""
    return any(satisfies({"content": text, "category": item["category"]}, item)
               for text in (memory["content"], memory["evidence"]))


def relabel(case: dict, moves: dict[int, str], report: list[str]) -> bool:
    """Move the named memories (index -> new category) and their expect items; True when anything changed."""
    changed = False
    mems = case.get("memories", [])
    for i, new in sorted(moves.items()):
        m = mems[i]
        old = m["category"]
        if old == new:
            continue
        m["category"] = new
        changed = True
        items = [e for e in case.get("expect", []) if e.get("category") == old and _holds(e, m)]
        if len(items) > 1:
            report.append(f"{case['id']}#{i}: {len(items)} expect items of {old} hold {m['content']!r}; left {old}")
            continue
        if not items:  # a memory the case expects by words alone, or one a later step retires
            continue
        # the item must not also stand for a memory that stays in the old category
        others = [o for j, o in enumerate(mems) if j != i and o["category"] == old
                  and _holds(items[0], o)]
        if others:
            report.append(f"{case['id']}#{i}: its expect item also holds {others[0]['content']!r}; left {old}")
            continue
        items[0]["category"] = new
    return changed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("decisions")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    moves: dict[str, dict[int, str]] = {}
    for line in Path(args.decisions).read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["sure"] and d["label"] in ("profile", "preference") and d["label"] != d["gold"]:
            case_id, index = d["key"].rsplit("#", 1)
            moves.setdefault(case_id, {})[int(index)] = d["label"]
    for path in FILES:
        report: list[str] = []
        lines = path.read_text(encoding="utf-8").splitlines()
        out, moved = [], 0
        for line in lines:
            case = json.loads(line)
            if case.get("id") in moves and relabel(case, moves[case["id"]], report):
                moved += 1
                line = json.dumps(case, ensure_ascii=False)
            out.append(line)
        if moved:
            print(f"{path.relative_to(CORPUS)}: {moved} cases relabelled")
            for r in report:
                print("   ", r)
            if not args.dry_run:
                path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
