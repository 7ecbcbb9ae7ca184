#!/usr/bin/env python3
"""Benchmark: query-embedding time and hybrid search time at 1k and 10k memories, measured in one run.

  .venv/bin/python scripts/bench_search.py [--queries 50]

Builds throw-away encrypted stores in a temp dir with the bundled embedding model, fills them with
generated memories (English and Chinese), and times `memory.recall.hybrid` with a precomputed query
vector (search only) and the embedding of the query on its own. Prints medians and ratios, and at 10k
the app's page cache against SQLite's default, interleaved on two connections to one file.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.recall.hybrid import search  # noqa: E402
from memory.records import Memory  # noqa: E402
from memory.storage import vectors  # noqa: E402
from memory.storage.database import Database  # noqa: E402
from memory.storage.sqlcipher import PAGE_CACHE_KIB, DbKey  # noqa: E402
from memory.storage.store import MemoryStore, new_id  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402

SUBJECTS = ["hiking", "jazz", "sushi", "chess", "yoga", "painting", "coffee", "running", "baking", "poetry",
            "猫", "羽毛球", "火锅", "钢琴", "摄影", "咖啡", "旅行", "书法", "篮球", "电影"]
TEMPLATES = ["Likes {s} on weekends", "Started learning {s} this year", "Dislikes {s} since last spring",
             "Friend Sam also enjoys {s}", "喜欢{s}", "最近迷上了{s}", "不太喜欢{s}", "周末常常去{s}"]
QUERIES = ["what do I do on weekends", "do I like coffee", "我喜欢什么运动", "music", "我最近在学什么",
           "hobbies with friends", "food I dislike", "周末做什么"]


def fill(store: MemoryStore, n: int, rng: random.Random) -> None:
    texts = [rng.choice(TEMPLATES).format(s=rng.choice(SUBJECTS)) + f" #{i}" for i in range(n)]
    vecs = store.embedder.embed(texts)
    with store.db.transaction():
        for text, vec in zip(texts, vecs):
            store.add(Memory(new_id(), "preference", text), vector=vec)


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def compare_page_cache(path: Path, store: MemoryStore, qvecs, repeat: int) -> float:
    """Search time with SQLite's default page cache / with the app's, queries interleaved (noise hits both)."""
    small_db = Database(path, DbKey("b" * 64, "raw"), datetime.now)
    small_db.conn.execute("PRAGMA cache_size = -2000")
    small = MemoryStore(small_db, store.embedder)
    times: dict[int, list[float]] = {0: [], 1: []}
    for q in range(repeat):
        pair = [(0, small), (1, store)] if q % 2 else [(1, store), (0, small)]
        for which, s in pair:
            start = time.perf_counter()
            search(s, QUERIES[q % len(QUERIES)], k=10, query_vector=qvecs[q % len(qvecs)])
            times[which].append((time.perf_counter() - start) * 1000)
    small_db.close()
    return statistics.median(times[0]) / statistics.median(times[1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=50)
    args = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(tmp)))
        embedder.embed(["warm up"])
        qvecs = embedder.embed(QUERIES)
        embed_ms = median_ms(lambda: embedder.embed([rng.choice(QUERIES)]), args.queries)
        results = {}
        for n in (1_000, 10_000):
            db = Database(Path(tmp) / f"bench{n}.db", DbKey("b" * 64, "raw"), datetime.now)
            store = MemoryStore(db, embedder)
            vectors.ensure_model(db.conn, embedder)
            t0 = time.perf_counter()
            fill(store, n, rng)
            fill_s = time.perf_counter() - t0
            i = iter(range(10**9))
            results[n] = median_ms(lambda: search(store, QUERIES[next(i) % len(QUERIES)], k=10,
                                                  query_vector=qvecs[next(i) % len(qvecs)]), args.queries)
            print(f"{n:>6} memories: filled in {fill_s:.1f} s; hybrid search median {results[n]:.2f} ms")
            if n == 10_000:
                cache_ratio = compare_page_cache(Path(tmp) / f"bench{n}.db", store, qvecs, args.queries)
            db.close()
    print(f"query embedding median: {embed_ms:.2f} ms")
    print(f"search 10k / 1k ratio: {results[10_000] / results[1_000]:.2f}x")
    print(f"page cache at 10k: SQLite's default 2 MB is {cache_ratio:.2f}x slower than the app's "
          f"{PAGE_CACHE_KIB // 1024} MB (interleaved on two connections to one file)")
    print(f"embedding / search(1k) ratio: {embed_ms / results[1_000]:.2f}x; "
          f"embedding + search(10k) per query: {embed_ms + results[10_000]:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
