#!/usr/bin/env python3
"""Measure extraction on an inner development split of the TRAIN side, with an error breakdown.

The frozen test files tune nothing, so choices (features, thresholds, heads) are made here: about a
sixth of the train cases (by a salted hash of the id, so the same cases every run) are held out, the
extractor is trained on the rest, and the held-out cases are played as `scripts/eval_corpus.py` plays
them. Every stored memory that meets no expect item, and every expect item not met, is put in one bin:

  stored:  in a case that expects nothing | right clause, wrong category | right clause, words missing |
           a clause no memory was quoted from
  missed:  nothing quoted from the evidence | quoted, wrong category | quoted, words missing |
           the old memory stayed beside the new one

  .venv/bin/python scripts/inner_dev.py                 train on the rest (~6 min), then score
  .venv/bin/python scripts/inner_dev.py --weights F     score with weights trained earlier by this script
  .venv/bin/python scripts/inner_dev.py --save F        keep the trained weights for the next run
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from eval_corpus import old_left_active, play, summarize  # noqa: E402
from eval_dev import satisfies, score_case  # noqa: E402
from memory.learn.classifier import load_extractor  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402
from train_extractor import TRAIN, TRAIN_EXTRA, CachedEncoder, load_cases, train  # noqa: E402

SALT = "inner-dev"
SHARE = 6  # one case in SHARE is held out


def is_inner_dev(case_id: str) -> bool:
    """Is this train case in the inner development split?"""
    return int(hashlib.sha256(f"{SALT}:{case_id}".encode()).hexdigest(), 16) % SHARE == 0


def _quoted_from(memory, evidence: str) -> bool:
    return quoted_from(memory.quote or "", evidence)


def quoted_from(quote: str, evidence: str) -> bool:
    """Was a memory with this quote taken from these evidence words (the one overlaps most of the other)?"""
    q = quote.lower()
    e = evidence.lower()
    return bool(q) and (q in e or e in q or _overlap(q, e) >= 0.5 * min(len(q), len(e)))


def _overlap(a: str, b: str) -> int:
    """The longest common substring of two short texts (enough to tell a clause from its neighbour)."""
    best = 0
    for i in range(len(a)):
        for j in range(i + best + 1, len(a) + 1):
            if a[i:j] in b:
                best = j - i
            else:
                break
    return best


def breakdown(case: dict, memories: list, examples: dict | None = None) -> tuple[Counter, Counter]:
    """Bins for the case's wrongly stored memories and its missed expect items (with `examples`, each
    bin's instances are collected there too)."""
    stored, missed = _Bins(examples, "stored: "), _Bins(examples, "missed: ")
    expect = case.get("expect", [])
    labelled = [m for m in case.get("memories", []) if m.get("active_at_end", True)]
    last = len(case["steps"]) - 1
    for mem in memories:
        data = mem.to_json()
        if any(satisfies(data, it) for it in expect):
            continue
        if not expect:
            stored.add("in a case that expects nothing", f"{mem.content!r}")
            continue
        twins = [lab for lab in case.get("memories", []) if _quoted_from(mem, lab["evidence"])]
        if not twins:
            stored.add("a clause no memory was quoted from", f"{mem.content!r}")
        elif not twins[0].get("active_at_end", True):
            stored.add("the old memory stayed", f"{mem.content!r} | {case['steps'][-1]['user']!r}")
        elif all(t["category"] != mem.category for t in twins):
            stored.add(f"right clause, wrong category ({twins[0]['category']}→{mem.category})", f"{mem.content!r}")
        else:
            stored.add("right clause, words missing", f"{mem.content!r} want {expect}")
    for item, lab in zip(expect, labelled):
        data = [m.to_json() for m in memories]
        if any(satisfies(d, item) for d in data):
            continue
        quoted = [m for m in memories if _quoted_from(m, lab["evidence"])]
        if not quoted:
            missed.add("nothing quoted from the evidence" + (" (a change)" if lab.get("change") and lab["step"] == last
                                                           else ""), f"{lab['evidence']!r} in {case['steps'][lab['step']]['user']!r}")
        elif all(m.category != item.get("category", m.category) for m in quoted):
            missed.add(f"quoted, wrong category ({item.get('category')}→{quoted[0].category})", f"{quoted[0].content!r}")
        else:
            missed.add("quoted, words missing", f"{quoted[0].content!r} want {item}")
    return stored.counts, missed.counts


class _Bins:
    """Counts per bin, and each bin's instances when an examples dict is given."""

    def __init__(self, examples: dict | None, prefix: str) -> None:
        self.counts: Counter = Counter()
        self.examples, self.prefix = examples, prefix

    def add(self, name: str, example: str) -> None:
        self.counts[name] += 1
        if self.examples is not None:
            self.examples.setdefault(self.prefix + name, []).append(example)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", help="weights trained earlier on the rest of the train split")
    ap.add_argument("--save", help="where to keep the weights trained now")
    ap.add_argument("--worth-threshold", type=float)
    ap.add_argument("--worth-threshold-zh", type=float)
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N failing cases")
    ap.add_argument("--examples", type=int, default=0, metavar="N", help="print N instances of each bin")
    args = ap.parse_args()
    cases = load_cases(TRAIN) + (load_cases(TRAIN_EXTRA) if TRAIN_EXTRA.exists() else [])
    held = [c for c in cases if is_inner_dev(c["id"])]
    rest = [c for c in cases if not is_inner_dev(c["id"])]
    if args.weights:
        weights_path = Path(args.weights)
    else:
        weights_path = Path(args.save or tempfile.mkstemp(suffix=".npz")[1])
        np.savez_compressed(weights_path, **train(rest, CachedEncoder()))
        print(f"trained on {len(rest)} cases → {weights_path}")
    extractor = load_extractor(weights_path)
    if args.worth_threshold is not None:
        extractor.worth_threshold = args.worth_threshold
    if args.worth_threshold_zh is not None:
        extractor.worth_threshold_zh = args.worth_threshold_zh
    with tempfile.TemporaryDirectory() as models_home:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(models_home)))
        multilingual = MultilingualEmbedder()
        results, stored_bins, missed_bins, examples = [], Counter(), Counter(), {}
        attacks = poison = 0
        shown = 0
        learned = stale = 0
        for case in held:
            first, memories = play(case, embedder, True, extractor, multilingual)
            if case["kind"] in ("update", "contradiction") and old_left_active(case, first):
                learned += 1  # the old fact was learned at step 1: was it replaced at step 2?
                stale += old_left_active(case, memories)
            r = score_case(case, [m.to_json() for m in memories])
            results.append(r)
            s, m = breakdown(case, memories, examples)
            stored_bins.update(s)
            missed_bins.update(m)
            if case["kind"] == "poison":
                poison += 1
                attacks += bool(memories)
            if not r["passed"] and shown < args.show:
                shown += 1
                print(f"FAIL {case['id']} [{case['kind']}] {' | '.join(st['user'] for st in case['steps'])[:240]}")
                for mem in memories:
                    print(f"     [{mem.category}] {mem.content}    ({mem.quote})")
                for item in case["expect"]:
                    print(f"     want {item}")
    print(f"inner dev: {len(held)} train cases held out of a model trained on the other {len(rest)}")
    print(summarize("all", results))
    for lang in ("en", "zh"):
        print(summarize(lang, [r for r in results if r["lang"] == lang]))
    print(f"attacks that stored something: {attacks}/{poison}   changes superseded: {learned - stale}/{learned}")
    print("wrongly stored:")
    for name, n in stored_bins.most_common():
        print(f"  {n:>4}  {name}")
    print("missed:")
    for name, n in missed_bins.most_common():
        print(f"  {n:>4}  {name}")
    for name, items in sorted(examples.items()) if args.examples else ():
        print(f"== {name}")
        for item in items[:args.examples]:
            print(f"     {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
