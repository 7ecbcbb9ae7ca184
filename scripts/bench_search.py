#!/usr/bin/env python3
"""Benchmark: hybrid search time per query as memory grows, and how much of the exact top 10 it finds.

  .venv/bin/python scripts/bench_search.py [--sizes 100,1000,10000,100000] [--queries 40] [--exact-up-to 10000]

Builds throw-away encrypted stores in a temp dir and fills them with generated memories (English and
Chinese, 7 statuses/flags mixes, varied words). Embedding 100,000 texts with the real models would take
too long here, so the vectors are the real embeddings (both spaces: the bundled MiniLM and the
multilingual USE) of a few hundred distinct texts, and each memory takes one of them plus Gaussian noise
(cosine ≈ 0.9 to its source), renormalized; its text is that source text plus a varying tail. The queries
are embedded for real.

Prints, for each size: the median time of `memory.recall.hybrid.search` with the query vectors given
(search only; the query embedding is timed once on its own; the sizes are timed interleaved, query by
query, so a loaded machine slows them alike), and recall@10: the share of the exact top 10
(every memory scored by the same formula: every vector compared, every full-text match ranked) that the
search returns. Beside it, the same for the search with exact nearest neighbours (every vector's cosine
instead of the sign-bit pre-filter: the candidate pools are the same, so the gap between the two columns is
what the pre-filter loses, the rest is what taking the 60 nearest per space loses), its time, and the share
of its top 10 the fast search returns. Then the ratios 10k/100 and 100k/1k.
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

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.recall import hybrid  # noqa: E402
from memory.records import Memory  # noqa: E402
from memory.storage import vectors  # noqa: E402
from memory.storage.database import Database  # noqa: E402
from memory.storage.sqlcipher import DbKey  # noqa: E402
from memory.storage.store import MemoryStore, new_id  # noqa: E402
from models.embedder import FastEmbedEmbedder  # noqa: E402
from models.multilingual import MultilingualEmbedder  # noqa: E402
from models.resolve import resolve_embedding_model  # noqa: E402

SUBJECTS = ["hiking", "jazz", "sushi", "chess", "yoga", "painting", "coffee", "running", "baking", "poetry",
            "the cello", "rock climbing", "board games", "gardening", "photography", "Korean dramas",
            "猫", "羽毛球", "火锅", "钢琴", "摄影", "咖啡", "旅行", "书法", "篮球", "电影", "爬山", "烘焙"]
PEOPLE = ["Sam", "Lily", "Jake", "Emma", "Tom", "Karen", "小雨", "阿杰", "妈妈", "哥哥"]
TEMPLATES = ["Likes {s} on weekends", "Started learning {s} this year", "Dislikes {s} since last spring",
             "Friend {p} also enjoys {s}", "{p} gave me a book about {s}", "Wants to try {s} with {p}",
             "喜欢{s}", "最近迷上了{s}", "不太喜欢{s}", "周末常常和{p}去{s}", "{p}送了我一本关于{s}的书"]
TAILS = ["", " again", " a lot", " in the evening", " with friends", "，很开心", "，有点累", " every month"]
QUERIES = ["what do I do on weekends", "do I like coffee", "我喜欢什么运动", "music", "我最近在学什么",
           "hobbies with friends", "food I dislike", "周末做什么", "who gave me a book", "我和谁一起去爬山",
           "what am I learning", "things I stopped liking"]
NOISE_COS = 0.9


def base_texts(rng: random.Random, n: int) -> list[str]:
    seen: dict[str, None] = {}
    while len(seen) < n:
        seen[rng.choice(TEMPLATES).format(s=rng.choice(SUBJECTS), p=rng.choice(PEOPLE))] = None
    return list(seen)


def noisy(base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Unit vectors at cosine ≈ NOISE_COS to their rows of `base`."""
    noise = rng.standard_normal(base.shape).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    out = NOISE_COS * base + np.sqrt(1 - NOISE_COS ** 2) * noise
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def fill(store: MemoryStore, n: int, texts: list[str], main: np.ndarray, multi: np.ndarray, seed: int) -> None:
    rng, nrng = random.Random(seed), np.random.default_rng(seed)
    picks = [rng.randrange(len(texts)) for _ in range(n)]
    main_v, multi_v = noisy(main[picks], nrng), noisy(multi[picks], nrng)
    with store.db.transaction():
        for i, pick in enumerate(picks):
            roll = rng.random()
            status = "superseded" if roll < 0.1 else "expired" if roll < 0.15 else "active"
            m = Memory(new_id(), "preference", texts[pick] + rng.choice(TAILS), status=status,
                       importance=rng.random(), confidence=0.6 + 0.4 * rng.random(), disabled=rng.random() < 0.03)
            store.add(m, vector=main_v[i].tolist(), multilingual_vector=multi_v[i].tolist())


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def exact_top(store: MemoryStore, query: str, qvec, mvec) -> list[str]:
    """The same scoring over every memory."""
    return [h.memory.id for h in hybrid.search(store, query, 10, query_vector=qvec, multilingual_vector=mvec,
                                               exhaustive=True)]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,1000,10000,100000")
    ap.add_argument("--queries", type=int, default=40, help="timed searches per size")
    ap.add_argument("--exact-up-to", type=int, default=10_000, help="largest size whose recall@10 is measured")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        embedder = FastEmbedEmbedder(resolve_embedding_model(Path(tmp)))
        multilingual = MultilingualEmbedder()
        texts = base_texts(rng, 300)
        main_base = np.asarray(embedder.embed(texts), dtype=np.float32)
        multi_base = np.asarray(multilingual.embed(texts), dtype=np.float32)
        qvecs, mvecs = embedder.embed(QUERIES), multilingual.embed(QUERIES)
        embed_ms = statistics.median(timed(lambda: (embedder.embed([q]), multilingual.embed([q])))
                                     for q in QUERIES * 2)
        stores: dict[int, MemoryStore] = {}
        print(f"{'memories':>9} {'fill s':>7}")
        for n in sizes:
            db = Database(Path(tmp) / f"bench{n}.db", DbKey("b" * 64, "raw"), datetime.now)
            store = stores[n] = MemoryStore(db, embedder, multilingual)
            vectors.ensure_model(db.conn, embedder)
            vectors.ensure_model(db.conn, multilingual, space=vectors.MULTILINGUAL)
            t0 = time.perf_counter()
            fill(store, n, texts, main_base, multi_base, seed=n)
            print(f"{n:>9} {time.perf_counter() - t0:>7.1f}", flush=True)
            for q in range(len(QUERIES)):  # warm the page cache (and load the vectors)
                hybrid.search(store, QUERIES[q], 10, query_vector=qvecs[q], multilingual_vector=mvecs[q])
        # Sizes interleaved query by query, so the load of a shared machine weighs on all of them alike.
        times: dict[int, list[float]] = {n: [] for n in sizes}
        for q in range(args.queries):
            i = q % len(QUERIES)
            for n in (sizes if q % 2 else sizes[::-1]):
                times[n].append(timed(lambda s=stores[n]: hybrid.search(s, QUERIES[i], 10, query_vector=qvecs[i],
                                                                        multilingual_vector=mvecs[i])))
        results = {n: statistics.median(t) for n, t in times.items()}
        print(f"{'memories':>9} {'search ms':>10} {'recall@10':>10} {'exact-knn ms':>13} {'its recall':>11} "
              f"{'fast/exact-knn':>15}")
        for n, store in stores.items():
            recall = knn_recall = agree = "-"
            if n <= args.exact_up_to:
                found, knn_found, same, knn_ms = [], [], [], []
                for q, query in enumerate(QUERIES):
                    fast = {h.memory.id for h in hybrid.search(store, query, 10, query_vector=qvecs[q],
                                                               multilingual_vector=mvecs[q])}
                    start = time.perf_counter()
                    knn = {h.memory.id for h in hybrid.search(store, query, 10, query_vector=qvecs[q],
                                                              multilingual_vector=mvecs[q], exact_knn=True)}
                    knn_ms.append((time.perf_counter() - start) * 1000)
                    exact = set(exact_top(store, query, qvecs[q], mvecs[q]))
                    found.append(len(fast & exact) / max(1, len(exact)))
                    knn_found.append(len(knn & exact) / max(1, len(exact)))
                    same.append(len(fast & knn) / max(1, len(knn)))
                recall, knn_recall = f"{statistics.mean(found):.3f}", f"{statistics.mean(knn_found):.3f}"
                agree, knn_time = f"{statistics.mean(same):.3f}", f"{statistics.median(knn_ms):.2f}"
            else:
                knn_time = "-"
            print(f"{n:>9} {results[n]:>10.2f} {recall:>10} {knn_time:>13} {knn_recall:>11} {agree:>15}", flush=True)
            store.db.close()
    print(f"query embedding (both models) median: {embed_ms:.2f} ms")
    if 100 in results and 10_000 in results:
        print(f"search 10k / 100 ratio: {results[10_000] / results[100]:.2f}x (target <= 1.5)")
    if 1_000 in results and 100_000 in results:
        print(f"search 100k / 1k ratio: {results[100_000] / results[1_000]:.2f}x (target < 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
