#!/usr/bin/env python3
"""Time one message through the extraction pipeline, rules only and rules + trained extractor, interleaved.

  .venv/bin/python scripts/bench_extract.py [--messages 200]

Messages come from the corpus's test split (English and Chinese). Each is run through
`MemoryPipeline.process(..., dry_run=True)` on a real encrypted store holding 300 memories, once
with the trained extractor and once without, alternating, so both see the same machine load. Prints the
median and 90th percentile per message and their ratio. Embedding the candidates is included (it is
part of extraction), and so is the multilingual sentence encoder the trained heads read (the store has
it, as in the app); model extraction is off (the bundled chat model is too weak for it).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memory.learn import MemoryPipeline, warm_up  # noqa: E402
from memory.records import Memory  # noqa: E402
from memory.storage import vectors  # noqa: E402
from memory.storage.database import Database  # noqa: E402
from memory.storage.sqlcipher import DbKey  # noqa: E402
from memory.storage.store import MemoryStore, new_id  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=200)
    args = ap.parse_args()
    cases = [json.loads(x) for x in (ROOT / "corpus" / "test.jsonl").read_text(encoding="utf-8").splitlines() if x]
    messages = [s["user"] for c in cases for s in c["steps"]]
    messages = messages[:: max(1, len(messages) // args.messages)][: args.messages]
    with tempfile.TemporaryDirectory() as home:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(home)))
        db = Database(Path(home) / "bench.db", DbKey("b" * 64, "raw"), datetime.now)
        multilingual = MultilingualEmbedder()
        with db.lock:
            vectors.ensure_model(db.conn, embedder)
            vectors.ensure_model(db.conn, multilingual, space=vectors.MULTILINGUAL)
        store = MemoryStore(db, embedder, multilingual)
        for i, text in enumerate(messages[:300] * 2):
            if i >= 300:
                break
            content = f"Note {i}: {text[:80]}"
            store.add(Memory(id=new_id(), category="preference", content=content, valid_from="2026-01-01"),
                      reason="bench", vector=embedder.embed([content])[0])  # the store adds its multilingual vector
        pipelines = {"rules only": MemoryPipeline(store, None, use_trained=False),
                     "rules + trained": MemoryPipeline(store, None, use_trained=True)}
        times: dict[str, list[float]] = {k: [] for k in pipelines}
        warm_up()  # rule patterns and weights, as the app does at start (app/companion.py)
        for text in messages[:5]:  # warm-up: imports, caches
            for p in pipelines.values():
                p.process(text, None, date(2026, 11, 2), dry_run=True)
        for text in messages:
            for name, pipeline in pipelines.items():
                started = time.perf_counter()
                pipeline.process(text, None, date(2026, 11, 2), dry_run=True)
                times[name].append((time.perf_counter() - started) * 1000)
        db.close()
    print(f"{len(messages)} messages, 300 memories stored, interleaved")
    for name, t in times.items():
        t.sort()
        print(f"  {name:<16} median {statistics.median(t):6.1f} ms   p90 {t[int(0.9 * len(t))]:6.1f} ms")
    ratio = statistics.median(times["rules + trained"]) / statistics.median(times["rules only"])
    print(f"  ratio (trained / rules only): {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
