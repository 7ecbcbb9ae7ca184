#!/usr/bin/env python3
"""The rule registry with each rule's measured precision: how often the train split's reference memories kept what
the rule proposed, counted over the out-of-fold candidates the decision model was trained on (scripts/train_decision.py
writes the counts into memory/learn/decision.npz beside the trees) — the number the decision model reads for it.

  .venv/bin/python scripts/rules_registry.py            every rule, least precise first
  .venv/bin/python scripts/rules_registry.py --unseen   only the rules no train case proposed with (kept for a phrasing
                                                        test of what the user sees, or for the shared development set)

Columns: id, language, category slot, priority, kept/seen on train, the precision the decision model reads (shrunk
toward the rules' mean, memory/learn/decision.py RulePrecision) and the raw share.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from memory.learn.decision import shipped_decision  # noqa: E402
from memory.learn.rules.candidates import RULES  # noqa: E402


def table(unseen_only: bool = False) -> list[str]:
    measured = shipped_decision().rules
    lines = []
    for rule in sorted(RULES, key=lambda r: (measured.seen.get(r.id, 0) > 0,
                                             measured.kept.get(r.id, 0) / max(1, measured.seen.get(r.id, 0)), r.id)):
        seen, kept = measured.seen.get(rule.id, 0), measured.kept.get(rule.id, 0)
        if unseen_only and seen:
            continue
        shrunk, _ = measured.of(rule.id)
        share = f"{kept / seen:.2f}" if seen else "  - "
        lines.append(f"{rule.id:<40} {rule.lang}  {rule.slot:<12} {rule.priority:>6}  {int(kept):>4}/{int(seen):<4}"
                     f"  read {shrunk:.2f}  raw {share}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--unseen", action="store_true")
    args = ap.parse_args()
    lines = table(args.unseen)
    measured = shipped_decision().rules
    seen = sum(1 for r in RULES if measured.seen.get(r.id, 0))
    print(f"{len(RULES)} rules; {seen} proposed on the train split (mean kept share {measured.mean:.3f}), "
          f"{len(RULES) - seen} never")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
