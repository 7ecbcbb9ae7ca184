#!/usr/bin/env python3
"""How the stored notes sit against the fact bounds people marked (corpus/bounds/): each marked message is played
alone through a fresh pipeline (as scripts/eval_corpus.py plays a step), and each stored note's quote is read as the
clauses it covers.

- remarks taken in: of the clauses inside stored notes' quotes, the share the people marked as part of no fact
  ("钱白花了", "激动", "it was chaos");
- two facts in one note: the share of notes whose quote covers clauses of two facts or more;
- facts with a note: the share of marked facts that some stored note's quote reaches;
- fact clauses left out: of the clauses of facts that have a note, the share no note covers (a detail cut off).

  .venv/bin/python scripts/bounds_quality.py                  the 160 frozen messages (corpus/bounds/test.jsonl)
  .venv/bin/python scripts/bounds_quality.py --set F [--show N]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from eval_corpus import play  # noqa: E402
from train_extractor import load_cases  # noqa: E402
from memory.learn.classifier import shipped_extractor  # noqa: E402
from memory.learn.clauses import overlap, split_clauses  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402

BOUNDS = ROOT / "corpus" / "bounds" / "test.jsonl"
SPLITS = [ROOT / "corpus" / n for n in ("test.jsonl", "train.jsonl")]


def covered(quote: str, message: str) -> set[int]:
    """The clauses of the message a note's quote overlaps (none when the quote is not in the message)."""
    at = message.find(quote)
    if not quote or at < 0:
        return set()
    return {k for k, c in enumerate(split_clauses(message)) if overlap((c.start, c.end), (at, at + len(quote))) > 0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", type=Path, default=BOUNDS)
    ap.add_argument("--show", type=int, default=0, metavar="N", help="list N notes that took in a remark or two facts")
    args = ap.parse_args()
    records = [json.loads(line) for line in args.set.read_text(encoding="utf-8").splitlines() if line.strip()]
    steps = {(c["id"], i): s for split in SPLITS for c in load_cases(split) for i, s in enumerate(c["steps"])}
    embedder = FastEmbedEmbedder(resolve_embedding_model(Path(tempfile.mkdtemp())))
    multilingual, extractor = MultilingualEmbedder(), shipped_extractor()
    n: dict[str, defaultdict[str, int]] = {lang: defaultdict(int) for lang in ("en", "zh")}
    shown = 0
    for r in records:
        step = steps[(r["id"], r["step"])]
        case = {"id": r["id"], "steps": [{"user": r["message"], "assistant": step.get("assistant"), "today": step["today"]}]}
        _, memories = play(case, embedder, True, extractor, multilingual)
        fact_of = {k: f for f, fact in enumerate(r["facts"]) for k in fact["clauses"]}
        reached: set[int] = set()
        in_notes: set[int] = set()
        t = n[r["lang"]]
        for m in memories:
            clauses = covered(m.quote or "", r["message"])
            if not clauses:
                continue
            remarks = {k for k in clauses if k not in fact_of}
            facts = {fact_of[k] for k in clauses if k in fact_of}
            t["notes"] += 1
            t["note_clauses"] += len(clauses)
            t["remark_clauses"] += len(remarks)
            t["two_facts"] += len(facts) >= 2
            reached |= facts
            in_notes |= clauses
            if (remarks or len(facts) >= 2) and shown < args.show:
                shown += 1
                print(f"{r['id']}: {m.content}\n    remarks: {[r['clauses'][k] for k in sorted(remarks)]}; facts: {len(facts)}")
        t["facts"] += len(r["facts"])
        t["facts_reached"] += len(reached)
        fact_clauses = {k for f in reached for k in r["facts"][f]["clauses"]}
        t["fact_clauses"] += len(fact_clauses)
        t["fact_clauses_left_out"] += len(fact_clauses - in_notes)
    for lang, t in n.items():
        print(f"{lang}: {t['notes']} notes; remarks taken in {t['remark_clauses'] / max(1, t['note_clauses']):.3f} "
              f"({t['remark_clauses']}/{t['note_clauses']} clauses); two facts in one note "
              f"{t['two_facts'] / max(1, t['notes']):.3f} ({t['two_facts']}); facts with a note "
              f"{t['facts_reached'] / max(1, t['facts']):.3f} ({t['facts_reached']}/{t['facts']}); fact clauses left out "
              f"{t['fact_clauses_left_out'] / max(1, t['fact_clauses']):.3f} ({t['fact_clauses_left_out']}/{t['fact_clauses']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
