#!/usr/bin/env python3
"""Score the memory pipeline on a corpus split, in process: precision and recall per language, attacks
stored, changes superseded. Each case runs in a fresh encrypted database, as `memory extract` would.

  .venv/bin/python scripts/eval_corpus.py --split test            the frozen test split
  .venv/bin/python scripts/eval_corpus.py --split train --rules-only   without the trained extractor
  .venv/bin/python scripts/eval_corpus.py --set ../shared/eval/dev.jsonl
  .venv/bin/python scripts/eval_corpus.py --split test --completed corpus/completion/test_blind.jsonl
                                                  the frozen test split, its labels completed by a blind reading

Scoring follows ../shared/eval/README.md (the same functions as scripts/eval_dev.py).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from corpus_completion import complete_all  # noqa: E402
from eval_dev import score_case  # noqa: E402
from memory.learn import MemoryPipeline  # noqa: E402
from memory.learn.classifier import WEIGHTS, load_extractor  # noqa: E402
from memory.storage import vectors  # noqa: E402
from memory.storage.database import Database  # noqa: E402
from memory.storage.sqlcipher import DbKey  # noqa: E402
from memory.storage.store import MemoryStore  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402


def play(case: dict, embedder, use_trained: bool, extractor=None, multilingual=None, decision=None) -> tuple[list, list]:
    """Feed the case's steps through a fresh pipeline; the active memories after the first and the last step.
    `decision`: another decision model (or a recorder of the decision's inputs, scripts/train_decision.py)."""
    with tempfile.TemporaryDirectory() as home:
        db = Database(Path(home) / "eval.db", DbKey("e" * 64, "raw"), datetime.now)
        try:
            with db.lock:
                vectors.ensure_model(db.conn, embedder)
                if multilingual is not None:
                    vectors.ensure_model(db.conn, multilingual, space=vectors.MULTILINGUAL)
            pipeline = MemoryPipeline(MemoryStore(db, embedder, multilingual), None, use_trained=use_trained,
                                      extractor=extractor, decision=decision)
            after_first = []
            for i, step in enumerate(case["steps"]):
                pipeline.process(step["user"], step.get("assistant"), date.fromisoformat(step["today"]))
                if i == 0:
                    after_first = pipeline.store.list(status="active")
            return after_first, pipeline.store.list(status="active")
        finally:
            db.close()


def old_left_active(case: dict, memories: list) -> bool:
    """Does a memory quoting what step 0 said (and step 1 changed) stay active?"""
    first = case["steps"][0]["user"]
    olds = [m["evidence"] for m in case.get("memories", []) if m.get("step") == 0 and not m.get("active_at_end", True)]
    return any(m.quote and m.quote in first and any(o in m.quote or m.quote in o for o in olds) for m in memories)


def summarize(name: str, results: list[dict]) -> str:
    stored = sum(r["stored"] for r in results)
    useful = sum(r["useful"] for r in results)
    expect = sum(r["expect"] for r in results)
    met = sum(r["met"] for r in results)
    return (f"{name:<8} cases {len(results):>4}  passed {sum(r['passed'] for r in results):>4}  "
            f"P {useful / stored if stored else 1:.3f} ({useful}/{stored})  R {met / expect if expect else 1:.3f} "
            f"({met}/{expect})  forbid {sum(len(r['violations']) for r in results)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("train", "test", "test_wave2", "test_wave3", "test_wave4", "test_wave5", "test_wave6"))
    ap.add_argument("--set")
    ap.add_argument("--rules-only", action="store_true")
    ap.add_argument("--show-fails", type=int, default=0, metavar="N")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--weights", help="another weights file (tuning inside the train split)")
    ap.add_argument("--worth-threshold", type=float)
    ap.add_argument("--ids", help="a file of case ids to keep (one a line)")
    ap.add_argument("--completed", metavar="FILE", help="score against labels completed with a blind reading of the "
                    "cases (corpus/completion/: the facts said that the writers did not list)")
    args = ap.parse_args()
    path = Path(args.set) if args.set else ROOT / "corpus" / f"{args.split or 'test'}.jsonl"
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.ids:
        keep = set(Path(args.ids).read_text().split())
        cases = [c for c in cases if c["id"] in keep]
    if args.limit:
        cases = cases[:args.limit]
    if args.completed:
        cases, seen = complete_all(cases, Path(args.completed))
        print(f"labels completed from {args.completed}: {dict(seen)}", file=sys.stderr)
    extractor = load_extractor(Path(args.weights)) if args.weights else None
    if args.worth_threshold is not None:
        extractor = extractor or load_extractor(WEIGHTS)
        extractor.worth_threshold = args.worth_threshold
    with tempfile.TemporaryDirectory() as models_home:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(models_home)))
        multilingual = MultilingualEmbedder()  # as the app's store has it: the trained heads read its vectors
        results, stale, changes, attacks, poison, learned_first = [], 0, 0, 0, 0, 0
        for case in cases:
            first, memories = play(case, embedder, not args.rules_only, extractor, multilingual)
            r = score_case(case, [m.to_json() for m in memories])
            results.append(r)
            if case["kind"] in ("update", "contradiction") and old_left_active(case, first):
                learned_first += 1  # the old fact was learned at step 1; was it replaced at step 2?
                stale += old_left_active(case, memories)
            changes += case["kind"] in ("update", "contradiction")
            if case["kind"] == "poison":
                poison += 1
                attacks += bool(memories)
    print(f"{path.name} ({'rules only' if args.rules_only else 'rules + trained extractor'})")
    print(summarize("all", results))
    for lang in ("en", "zh"):
        print(summarize(lang, [r for r in results if r["lang"] == lang]))
    print(f"attacks that stored something: {attacks}/{poison}   changes superseded: {learned_first - stale}/"
          f"{learned_first} ({(learned_first - stale) / max(1, learned_first):.1%}) (the change cases whose old fact "
          f"was learned at step 1: {learned_first} of {changes})")
    kinds = defaultdict(list)
    for r in results:
        kinds[f"{r['lang']}:{r['kind']}"].append(r["passed"])
    print("  ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(kinds.items())))
    shown = 0
    for case, r in zip(cases, results):
        if not r["passed"] and shown < args.show_fails:
            shown += 1
            print(f"FAIL {r['id']} [{r['kind']}] {' | '.join(s['user'] for s in case['steps'])[:200]}")
            for m in r["memories"]:
                print(f"     [{m['category']}] {m['content']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
