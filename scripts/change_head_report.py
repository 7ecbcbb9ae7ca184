#!/usr/bin/env python3
"""Does the change head tell a change from news? Its readings on a corpus split's two-step cases, per language.

A stated change (the change head's probability >= CHANGE_CONFIDENCE) is what lets a new clause retire a memory it
shares no word with, and weighs in the pair model (memory/learn/supersede.py). So the head must read high on a
change and low on news of something that stays true. Two populations, from the cases with a later message:

  changes   cases of kind "update" / "contradiction": the highest reading among the later message's clauses that
            hold the evidence of a memory marked as a change ("im a receptionist at a dental office now");
  news      cases of kind "none" / "single" (the fact said first stands): the highest reading among all the
            later message's clauses ("pretzel just barked at his own reflection for ten minutes");

each read as the pipeline reads them (`TrainedExtractor.score_message`, the clauses in their message). It prints,
per language, the share of each population at or above a few bars, and the chance that a change reads higher than
a piece of news (the area under the ROC curve: 0.5 is no better than a coin).

  .venv/bin/python scripts/change_head_report.py --split test_wave5
  .venv/bin/python scripts/change_head_report.py --split test_wave5 --weights other.npz
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sklearn.metrics import roc_auc_score  # noqa: E402

from memory.learn.classifier import TrainedExtractor, load_extractor, shipped_extractor  # noqa: E402
from memory.learn.clauses import overlap  # noqa: E402
from memory.learn.thresholds import CHANGE_CONFIDENCE  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402

SPLITS = ("train", "test", "test_wave2", "test_wave3", "test_wave4", "test_wave5", "wave5/train")
CHANGE_KINDS = ("update", "contradiction")
NEWS_KINDS = ("none", "single")
BARS = (0.3, CHANGE_CONFIDENCE, 0.7)


def readings(case: dict, model: TrainedExtractor) -> tuple[str, float] | None:
    """("changes" | "news", the reading) for a two-step case of a kind this report reads, else None."""
    if len(case.get("steps", [])) < 2 or case.get("kind") not in CHANGE_KINDS + NEWS_KINDS:
        return None
    later = case["steps"][1]["user"]
    scores = [s for s in model.score_message(later) if s.clause is not None]
    if not scores:
        return None
    if case["kind"] in NEWS_KINDS:
        return "news", max(s.change for s in scores)
    spans = [(at, at + len(m["evidence"])) for m in case.get("memories", [])
             if m.get("step", 0) == 1 and m.get("change") and (at := later.find(m["evidence"])) >= 0]
    held = [s.change for s in scores for span in spans
            if overlap((s.clause.start, s.clause.end), span) > 0]  # type: ignore[union-attr]
    return ("changes", max(held)) if held else None


def auc(high: list[float], low: list[float]) -> float:
    """The chance that a reading from `high` is above one from `low` (ties count half)."""
    if not high or not low:
        return float("nan")
    return float(roc_auc_score([1] * len(high) + [0] * len(low), high + low))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="test_wave5", choices=SPLITS)
    ap.add_argument("--weights", help="another extractor weights file (default: the shipped one)")
    args = ap.parse_args()
    path = ROOT / "corpus" / f"{args.split}.jsonl"
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    base = load_extractor(Path(args.weights)) if args.weights else shipped_extractor()
    model = base.with_encoder(MultilingualEmbedder())
    found: dict[tuple[str, str], list[float]] = {}
    for case in cases:
        read = readings(case, model)
        if read is not None:
            for lang in (case["lang"], "all"):
                found.setdefault((lang, read[0]), []).append(read[1])
    print(f"{args.split}: {len(cases)} cases; the change head of {args.weights or 'the shipped weights'}")
    for lang in ("all", "en", "zh"):
        changes, news = found.get((lang, "changes"), []), found.get((lang, "news"), [])
        cells = [f">= {bar:.2f}: changes {sum(x >= bar for x in changes) / max(1, len(changes)):.0%}, "
                 f"news {sum(x >= bar for x in news) / max(1, len(news)):.0%}" for bar in BARS]
        print(f"{lang:<4} changes {len(changes):>3}  news {len(news):>3}  AUC {auc(changes, news):.2f}  " + "  |  ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
