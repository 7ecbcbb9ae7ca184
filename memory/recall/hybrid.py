"""Hybrid search over memories: vector KNN + BM25 full-text, blended with importance, recency, confidence."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from memory.records import Memory
from memory.storage import vectors
from memory.storage.sqlcipher import OperationalError
from memory.storage.store import MemoryStore
from memory.text import clean, fts_query

MAX_QUERY_CHARS = 2000
CANDIDATES = 20


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
           query_vector: list[float] | None = None) -> list[Hit]:
    """The k best memories for a free-text query; any text is a valid query (empty gives [])."""
    query = " ".join(clean(query or "").split())[:MAX_QUERY_CHARS]
    if not query or k <= 0:
        return []
    qvec = query_vector if query_vector is not None else store.embedder.embed([query])[0]
    pool = max(CANDIDATES, k * 3)
    with store.db.lock:
        knn = dict(vectors.knn(store.db.conn, qvec, pool))
        bm25 = _fts(store, query, pool)
        rids = set(knn) | set(bm25)
        missing = [r for r in rids if r not in knn]
        knn.update(vectors.similarity(store.db.conn, qvec, missing))
    memories = store.by_rids(rids)
    now = store.db.clock()
    hits = []
    for rid, m in memories.items():
        if m.status not in statuses or (m.disabled and not include_disabled):
            continue
        rel = _relevance(knn.get(rid, 0.0), bm25.get(rid, 0.0))
        hits.append(_score(m, rel, now, weights))
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits[:k]


def _fts(store: MemoryStore, query: str, limit: int) -> dict[int, float]:
    """BM25 hits normalized to 0..1 (best = 1)."""
    match = fts_query(query)
    if match is None:
        return {}
    try:
        rows = store.db.conn.execute(
            "SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?",
            (match, limit),
        ).fetchall()
    except OperationalError:
        return {}
    if not rows:
        return {}
    best = min(score for _, score in rows) or -1.0  # bm25() is negative: lower is better
    return {rid: score / best for rid, score in rows}


def _relevance(cosine: float, bm25: float) -> float:
    # MiniLM cosines of unrelated sentences sit around 0–0.2 and paraphrases above 0.5; rescale so that
    # 0.15 → 0 and 0.75 → 1, then let an exact word match lift it.
    semantic = max(0.0, min(1.0, (cosine - 0.15) / 0.6))
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
