"""Hybrid search over memories: vector KNN in two spaces + BM25 full-text, blended with importance, recency,
confidence.

The main space is the chosen embedding model (the bundled MiniLM reads English only: every Chinese text
looks alike to it); the multilingual space (USE-multilingual) reads both languages. Which one speaks for
a pair depends on the languages of the query and the memory: MiniLM only when both are free of Chinese
(blended with the multilingual cosine there), the multilingual space alone when the query is Chinese,
and the multilingual cosine at half weight for an English query against a Chinese memory, where it is
less sure. Without a multilingual space the main model speaks for every pair, as before.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from memory.recall.fulltext import bm25_hits
from memory.records import Memory
from memory.storage import vectors
from memory.storage.store import MemoryStore
from memory.text import clean, has_cjk

MAX_QUERY_CHARS = 2000
CANDIDATES = 20
# Cosines are rescaled so that an unrelated pair sits near 0 and a close paraphrase near 1: MiniLM's
# unrelated English pairs lie around 0-0.2 and paraphrases above 0.5; the centered multilingual
# vectors' unrelated pairs lie around 0.05-0.15 (90th percentile) and matches from 0.25 up.
MAIN_RANGE = (0.15, 0.75)
MULTILINGUAL_RANGE = (0.10, 0.50)
MAIN_SHARE = 0.6      # of the semantic part, when both texts are English and both spaces speak
CROSS_LINGUAL = 0.5   # weight of the multilingual cosine for an English query and a Chinese memory


@dataclass(frozen=True)
class Weights:
    """How the final score blends its parts (docs/architecture.md: 0.5 / 0.2 / 0.2 / 0.1)."""

    relevance: float = 0.5
    importance: float = 0.2
    recency: float = 0.2
    confidence: float = 0.1
    recency_days: float = 30.0


@dataclass
class Hit:
    """One search result with its score and the parts it was made of."""

    memory: Memory
    score: float
    relevance: float
    parts: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        data = self.memory.to_json()
        data["score"] = round(self.score, 4)
        return data


def search(store: MemoryStore, query: str, k: int = 10, weights: Weights = Weights(),
           statuses: tuple[str, ...] = ("active",), include_disabled: bool = True,
           query_vector: list[float] | None = None, multilingual_vector: list[float] | None = None,
           exhaustive: bool = False) -> list[Hit]:
    """The k best memories for a free-text query; any text is a valid query (empty gives []).

    `query_vector` / `multilingual_vector`: the query already embedded by the store's embedders (a batch
    of queries is embedded at once); embedded here when not given. `exhaustive` scores every memory
    instead of the nearest neighbours and best full-text matches (slow; it measures what they miss).
    """
    query = " ".join(clean(query or "").split())[:MAX_QUERY_CHARS]
    if not query or k <= 0:
        return []
    chinese = has_cjk(query)
    with store.db.lock:
        multilingual = store.multilingual is not None and vectors.table_exists(store.db.conn, vectors.MULTILINGUAL)
    if multilingual and multilingual_vector is None and store.multilingual is not None:
        multilingual_vector = store.multilingual.embed([query])[0]
    use_main = not (chinese and multilingual)  # MiniLM's cosines say nothing about a Chinese query
    if use_main and query_vector is None:
        query_vector = store.embedder.embed([query])[0]
    pool = max(CANDIDATES, k * 3)
    with store.db.lock:
        conn = store.db.conn
        if exhaustive:
            main, multi, bm25 = {}, {}, bm25_hits(conn, query, -1, capped=False)
            rids = {r for (r,) in conn.execute("SELECT rid FROM memories").fetchall()}
        else:
            main = dict(vectors.knn(conn, query_vector, pool)) if use_main and query_vector is not None else {}
            multi = (dict(vectors.knn(conn, multilingual_vector, pool, vectors.MULTILINGUAL))
                     if multilingual and multilingual_vector is not None else {})
            bm25 = bm25_hits(conn, query, pool)
            rids = set(main) | set(multi) | set(bm25)
        if use_main and query_vector is not None:
            main.update(vectors.similarity(conn, query_vector, [r for r in rids if r not in main]))
        if multilingual and multilingual_vector is not None:
            multi.update(vectors.similarity(conn, multilingual_vector, [r for r in rids if r not in multi],
                                            vectors.MULTILINGUAL))
    memories = store.by_rids(rids)
    now = store.db.clock()
    hits = []
    for rid, m in memories.items():
        if m.status not in statuses or (m.disabled and not include_disabled):
            continue
        semantic = _semantic(chinese, has_cjk(m.content), main.get(rid), multi.get(rid) if multilingual else None)
        hits.append(_score(m, _relevance(semantic, bm25.get(rid, 0.0)), now, weights))
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits[:k]


def _rescaled(cosine: float, bounds: tuple[float, float]) -> float:
    low, high = bounds
    return max(0.0, min(1.0, (cosine - low) / (high - low)))


def _semantic(query_chinese: bool, memory_chinese: bool, main: float | None, multi: float | None) -> float:
    """How close in meaning, 0..1, from whichever spaces can judge this pair of languages."""
    main_part = _rescaled(main, MAIN_RANGE) if main is not None else None
    if multi is None:  # no multilingual space (its model is not installed): the main model alone
        return main_part or 0.0
    multi_part = _rescaled(multi, MULTILINGUAL_RANGE)
    if query_chinese:
        return multi_part
    if memory_chinese:
        return CROSS_LINGUAL * multi_part
    if main_part is None:
        return multi_part
    return MAIN_SHARE * main_part + (1 - MAIN_SHARE) * multi_part


def _relevance(semantic: float, bm25: float) -> float:
    """The semantic closeness, lifted by an exact word match."""
    return min(1.0, 0.75 * semantic + 0.35 * bm25)


def recency(m: Memory, now: datetime, days_scale: float) -> float:
    """exp(-days since last use or update / scale)."""
    stamp = m.last_used_at or m.updated_at or m.created_at
    try:
        days = max(0.0, (now - datetime.fromisoformat(stamp)).total_seconds() / 86400)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0
    return math.exp(-days / days_scale)


def _score(m: Memory, rel: float, now: datetime, w: Weights) -> Hit:
    rec = recency(m, now, w.recency_days)
    score = w.relevance * rel + w.importance * m.importance + w.recency * rec + w.confidence * m.confidence
    return Hit(m, score, rel, {"relevance": rel, "importance": m.importance, "recency": rec,
                               "confidence": m.confidence})
