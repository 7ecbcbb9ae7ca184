#!/usr/bin/env python3
"""Extractor weights trained out of fold, for the decision model's training rows (scripts/train_decision.py).

The decision model reads the heads' scores. On the cases the heads were trained on those scores are near-certain,
so its rows come from cases the heads never saw: the train split is cut in FOLDS parts by a salted hash of the
case id, and for each part an extractor is trained on the others (scripts/train_extractor.py's `train`). Each
fold's weights are kept under the training cache, keyed by the shipped weights' hash: a retrain is deterministic
and checked against the shipped file (tests/test_trained_extractor.py), so while that file stands the folds
trained beside it stand too.

  .venv/bin/python scripts/decision_folds.py          train the missing folds (~6 min each on this machine)
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from train_extractor import TRAIN, TRAIN_EXTRA, CachedEncoder, load_cases, train  # noqa: E402
from memory.learn.classifier import WEIGHTS  # noqa: E402
from vector_cache import cache_dir  # noqa: E402

FOLDS = 3
SALT = "decision"


def fold_of(case_id: str) -> int:
    """The part of the train split a case belongs to."""
    return int(hashlib.sha256(f"{SALT}:{case_id}".encode()).hexdigest(), 16) % FOLDS


def train_cases() -> list[dict]:
    """The train split with its train-only additions, as the shipped extractor is trained on."""
    cases = load_cases(TRAIN)
    if TRAIN_EXTRA.exists():
        cases += load_cases(TRAIN_EXTRA)
    return cases


def fold_path(k: int) -> Path:
    """Where fold k's weights are kept for the current training inputs."""
    shipped = hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()[:24]
    return cache_dir() / "decision-folds" / f"{shipped}-{SALT}-{k}of{FOLDS}.npz"


def ensure_folds(cases: list[dict]) -> list[Path]:
    """Every fold's weights, training those not kept yet."""
    paths = []
    encoder = None
    for k in range(FOLDS):
        path = fold_path(k)
        if not path.exists():
            encoder = encoder or CachedEncoder()
            rest = [c for c in cases if fold_of(c["id"]) != k]
            print(f"fold {k}: training on {len(rest)} cases", flush=True)
            weights = train(rest, encoder)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez_compressed(tmp, **weights)
            tmp.replace(path)
        paths.append(path)
    return paths


def main() -> int:
    for path in ensure_folds(train_cases()):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
