#!/usr/bin/env python3
"""Measure: how many unrelated memories a conversation wrongly retires, in a memory that is not empty.

  .venv/bin/python scripts/eval_bystanders.py [--split inner|test|test_wave2|test_wave3] [--per-case 40] [--weights F]
                                              [--show N] [--set FILE]

The corpus cases start from an empty memory, so a change can only ever replace the case's own facts. A
user's real memory holds hundreds of facts beside them. Here each case is played on a store that already
holds `--per-case` bystanders: the reference memories (`content`, `category`) that the corpus writers wrote
for *other* cases — from train cases outside the inner development split, in the case's language, picked by a
fixed seed. After the case's steps, a bystander that is no longer active was retired by something the case
said. When the case's own labelled facts carry the bystander's corpus topic (both "job", both "city"), the
replacement may be right (a new job replaces an old one) and is counted apart; every other one is a memory
lost for nothing.

`--split inner` plays the inner development split with weights from `scripts/inner_dev.py --save` (give them
with `--weights`); `test`/`test_wave2`/`test_wave3` play a frozen split with the shipped weights: report only.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from inner_dev import is_inner_dev  # noqa: E402
from memory.learn.classifier import load_extractor, shipped_extractor  # noqa: E402
from memory.learn.pipeline import MemoryPipeline  # noqa: E402
from memory.records import Memory  # noqa: E402
from memory.storage import vectors  # noqa: E402
from memory.storage.database import Database  # noqa: E402
from memory.storage.sqlcipher import DbKey  # noqa: E402
from memory.storage.store import MemoryStore, new_id  # noqa: E402
from memory.text import has_cjk  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402
from train_extractor import TRAIN, load_cases  # noqa: E402

SEED = 5


def bystander_pool(lang: str) -> list[dict]:
    """Reference memories about the user from train cases outside the inner split, in one language (no events:
    they are dated and never replaced)."""
    out = []
    for case in load_cases(TRAIN):
        if is_inner_dev(case["id"]) or case["kind"] == "poison":
            continue
        for m in case.get("memories", []):
            if (m.get("about", "user") == "user" and m.get("category") != "event" and m.get("content")
                    and m.get("active_at_end", True) and has_cjk(m["content"]) == (lang == "zh")):
                out.append({"case": case["id"], "category": m["category"], "content": m["content"],
                            "topic": (m.get("topic") or "").lower()})
    return out


def play_with_bystanders(case: dict, bystanders: list[dict], embedder, multilingual, extractor) -> list[dict]:
    """The bystanders the case's steps retired."""
    with tempfile.TemporaryDirectory() as home:
        db = Database(Path(home) / "bystanders.db", DbKey("b" * 64, "raw"), datetime.now)
        try:
            with db.lock:
                vectors.ensure_model(db.conn, embedder)
                vectors.ensure_model(db.conn, multilingual, space=vectors.MULTILINGUAL)
            store = MemoryStore(db, embedder, multilingual)
            texts = [b["content"] for b in bystanders]
            main, multi = embedder.embed(texts), multilingual.embed(texts)
            ids = {}
            with db.transaction():
                for b, v, mv in zip(bystanders, main, multi):
                    m = store.add(Memory(new_id(), b["category"], b["content"], quote=b["content"]), vector=v,
                                  multilingual_vector=mv)
                    ids[m.id] = b
            pipeline = MemoryPipeline(store, None, use_trained=True, extractor=extractor)
            for step in case["steps"]:
                pipeline.process(step["user"], step.get("assistant"), date.fromisoformat(step["today"]))
            return [b for memory_id, b in ids.items() if store.get(memory_id).status != "active"]
        finally:
            db.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("inner", "test", "test_wave2", "test_wave3"), default="inner")
    ap.add_argument("--set", type=Path, help="play this corpus file instead (shipped weights unless --weights)")
    ap.add_argument("--per-case", type=int, default=40)
    ap.add_argument("--weights", help="weights file (for --split inner: from scripts/inner_dev.py --save)")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N retired bystanders")
    args = ap.parse_args()
    if args.set:
        cases = load_cases(args.set)
    elif args.split == "inner":
        if not args.weights:
            ap.error("--split inner needs --weights from scripts/inner_dev.py --save (the shipped ones saw it)")
        cases = [c for c in load_cases(TRAIN) if is_inner_dev(c["id"])]
    else:
        path = ROOT / "corpus" / f"{args.split}.jsonl"
        cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    extractor = load_extractor(Path(args.weights)) if args.weights else shipped_extractor()
    pools = {lang: bystander_pool(lang) for lang in ("en", "zh")}
    rng = random.Random(SEED)
    seeded = wrong = same_topic = hit_cases = 0
    shown = []
    with tempfile.TemporaryDirectory() as models_home:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(models_home)))
        multilingual = MultilingualEmbedder()
        for case in cases:
            pool = pools[case["lang"]]
            bystanders = rng.sample(pool, min(args.per_case, len(pool)))
            topics = {(m.get("topic") or "").lower() for m in case.get("memories", [])} - {""}
            gone = play_with_bystanders(case, bystanders, embedder, multilingual, extractor)
            seeded += len(bystanders)
            hit_cases += bool(gone)
            for b in gone:
                if b["topic"] in topics:
                    same_topic += 1
                else:
                    wrong += 1
                    shown.append(f"{case['id']}: {' || '.join(s['user'] for s in case['steps'])[:140]!r} "
                                 f"retired {b['content']!r}")
    print(f"{args.set or args.split}: {len(cases)} cases, {args.per_case} bystanders each ({seeded} in all)")
    print(f"bystanders retired for nothing: {wrong} ({wrong / max(1, seeded):.2%});  on the case's own topic "
          f"(may be right): {same_topic};  cases that retired any: {hit_cases}/{len(cases)}")
    for line in shown[:args.show]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
