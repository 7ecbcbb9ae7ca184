#!/usr/bin/env python3
"""How much the decision model moves when its train rows move a little: retrain noise, measured.

  .venv/bin/python scripts/decision_stability.py [--bags 1 16] [--drop 0.05] [--draws 3]

The decision model (scripts/train_decision.py) is fit several times on the train rows with a share of the train
cases dropped at random (a different draw each time), and each fit scores the candidates that the frozen splits'
cases propose (played with the shipped extractor; their labels are not read). Printed per number of averaged
ensembles: the share of those candidates whose keep decision flips at the bar between two fits, the mean absolute
change of P(keep), and the wall time. A change to the decision's features or rows is told from retrain noise only
when it moves the frozen splits by more than this does. Rows are cached as the trainer caches them.
"""
from __future__ import annotations

import argparse
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

import train_decision as trainer  # noqa: E402
from memory.learn.decision import RulePrecision  # noqa: E402
from train_extractor import load_cases  # noqa: E402

FROZEN = ("test", "test_wave2", "test_wave3", "test_wave5", "test_wave6")
BAR = 0.45


def frozen_rows(rows: list[trainer.Row]) -> np.ndarray:
    """The feature rows of the candidates the frozen splits' cases propose, each rule's precision from all train rows."""
    played = [r for split in FROZEN for r in trainer.collect_fold(load_cases(ROOT / "corpus" / f"{split}.jsonl"), -1,
                                                                  trainer.EXTRACTOR_WEIGHTS)]
    total, _, mean = trainer.rule_counts(rows)
    rules = RulePrecision({k: v[0] for k, v in total.items()}, {k: v[1] for k, v in total.items()}, mean)
    x = np.array([r.x for r in played], dtype=np.float64)
    for i, r in enumerate(played):
        if r.rule:
            x[i, trainer.PRECISION_AT], x[i, trainer.SEEN_AT] = rules.of(r.rule)
    return x


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bags", type=int, nargs="+", default=[1, trainer.BAGS], help="numbers of averaged ensembles")
    ap.add_argument("--drop", type=float, default=0.05, help="share of the train cases left out of each fit")
    ap.add_argument("--draws", type=int, default=3, help="fits per setting (compared pairwise)")
    args = ap.parse_args()
    rows = trainer.collect(trainer.train_cases())
    x, y = trainer.with_rule_precision(rows), np.array([r.label for r in rows])
    groups = np.array([r.case for r in rows])
    cases = np.unique(groups)
    held = frozen_rows(rows)
    print(f"{len(rows)} train rows, {len(held)} frozen-split candidates, bar {BAR}, {args.drop:.0%} of the cases "
          f"dropped per fit, {args.draws} fits per setting")
    for bags in args.bags:
        started = time.monotonic()
        scores = []
        for draw in range(args.draws):
            dropped = np.random.default_rng(100 + draw).choice(cases, int(args.drop * len(cases)), replace=False)
            fit_on = ~np.isin(groups, dropped)
            scores.append(trainer.probability(trainer.fit(x[fit_on], y[fit_on], groups[fit_on], bags), held))
        pairs = list(combinations(scores, 2))
        flipped = np.mean([np.mean((a >= BAR) != (b >= BAR)) for a, b in pairs])
        moved = np.mean([np.mean(np.abs(a - b)) for a, b in pairs])
        print(f"  {bags:>3} ensembles: decisions flipped {flipped:.2%}, mean |change of P(keep)| {moved:.4f} "
              f"({time.monotonic() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
