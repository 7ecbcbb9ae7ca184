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
from typing import Callable

import numpy as np

from memory.recall.fulltext import bm25_hits
from memory.records import Memory
from memory.storage import standing, vector_index, vectors
from memory.storage.store import MemoryStore
from memory.text import clean, has_cjk

MAX_QUERY_CHARS = 2000
# The nearest memories taken from each space, ranked by the whole score; they are also the rows a query of common
# words is matched against (fulltext). 20 -> 60: recall@10 against exact scoring at 10,000 memories .650 -> .725
# (bench_search), time within the machine's noise.
CANDIDATES = 60
LEXICAL_POOL = 100  # full-text matches ranked by standing too: a word match lifts a score a lot
SPARE = 10  # rows read beyond k: the in-memory standing ranks them, the rows themselves decide
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


@dataclass(frozen=True)
class QueryVectors:
    """A query embedded in the spaces `search` reads for it (None where a space does not speak for it)."""

    text: str
    main: list[float] | None
    multilingual: list[float] | None


def search_text(query: str | None) -> str:
    """The text `search` embeds and matches for a query: cleaned, spaces folded, capped."""
    return " ".join(clean(query or "").split())[:MAX_QUERY_CHARS]


def query_vectors(store: MemoryStore, query: str) -> QueryVectors:
    """Embed a query the way `search` would: the multilingual space when the store has it, the main space
    unless the query is Chinese and the multilingual space speaks for it. Both can be given to `search`."""
    text = search_text(query)
    if not text:
        return QueryVectors(text, None, None)
    multilingual = _has_multilingual(store)
    multi = store.multilingual.embed([text])[0] if multilingual and store.multilingual is not None else None
    main = store.embedder.embed([text])[0] if not (has_cjk(text) and multilingual) else None
    return QueryVectors(text, main, multi)


def _has_multilingual(store: MemoryStore) -> bool:
    with store.db.lock:
        return store.multilingual is not None and vectors.table_exists(store.db.conn, vectors.MULTILINGUAL)


def search(store: MemoryStore, query: str, k: int = 10, weights: Weights = Weights(),
           statuses: tuple[str, ...] = ("active",), include_disabled: bool = True,
           query_vector: list[float] | None = None, multilingual_vector: list[float] | None = None,
           exhaustive: bool = False, exact_knn: bool = False) -> list[Hit]:
    """The k best memories for a free-text query; any text is a valid query (empty gives []).

    `query_vector` / `multilingual_vector`: the query already embedded by the store's embedders (a batch
    of queries is embedded at once); embedded here when not given. `exhaustive` scores every memory
    instead of the nearest neighbours and best full-text matches (slow; it measures what they miss);
    `exact_knn` finds the nearest neighbours by every vector's cosine instead of the sign-bit pre-filter
    (it measures what the pre-filter misses).
    """
    query = search_text(query)
    if not query or k <= 0:
        return []
    chinese = has_cjk(query)
    multilingual = _has_multilingual(store)
    use_main = not (chinese and multilingual)  # MiniLM's cosines say nothing about a Chinese query (query_vectors)
    if multilingual and multilingual_vector is None and store.multilingual is not None:
        multilingual_vector = store.multilingual.embed([query])[0]
    if use_main and query_vector is None:
        query_vector = store.embedder.embed([query])[0]
    pool = max(CANDIDATES, k * 3)
    now = store.db.clock()
    with store.db.lock, vector_index.one_blas_thread():  # every product of this search on one BLAS thread
        conn = store.db.conn
        if exhaustive:
            main, multi, bm25 = {}, {}, bm25_hits(conn, query, -1, capped=False)
            rids = {r for (r,) in conn.execute("SELECT rid FROM memories").fetchall()}
        else:
            known = standing.current(conn)
            main = (dict(vectors.knn(conn, query_vector, pool, rank=_ranker(known, now, weights, statuses,
                                                                            include_disabled, MAIN_RANGE),
                                     exact=exact_knn))
                    if use_main and query_vector is not None else {})
            multi = (dict(vectors.knn(conn, multilingual_vector, pool, vectors.MULTILINGUAL,
                                      rank=_ranker(known, now, weights, statuses, include_disabled,
                                                   MULTILINGUAL_RANGE), exact=exact_knn))
                     if multilingual and multilingual_vector is not None else {})
            near = set(main) | set(multi)
            bm25 = bm25_hits(conn, query, LEXICAL_POOL, candidates=near)
            rids = near | set(bm25)
        if use_main and query_vector is not None:
            main.update(vectors.similarity(conn, query_vector, [r for r in rids if r not in main]))
        if multilingual and multilingual_vector is not None:
            multi.update(vectors.similarity(conn, multilingual_vector, [r for r in rids if r not in multi],
                                            vectors.MULTILINGUAL))
    if not exhaustive:  # read only the rows that can make the k best (their final scores come from the rows)
        rids = _likely_best(known, rids, k + SPARE, chinese, main, multi if multilingual else None, bm25, now,
                            weights, statuses, include_disabled)
    memories = store.by_rids(rids)
    hits = []
    for rid, m in memories.items():
        if m.status not in statuses or (m.disabled and not include_disabled):
            continue
        semantic = _semantic(chinese, has_cjk(m.content), main.get(rid), multi.get(rid) if multilingual else None)
        hits.append(_score(m, _relevance(semantic, bm25.get(rid, 0.0)), now, weights))
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits[:k]


def _standing_part(known: standing.Standing, rids: np.ndarray, now: datetime, w: Weights) -> np.ndarray:
    """Importance, recency and confidence as `_score` weighs them, from the in-memory standing."""
    at = known.index(rids)
    recent = np.exp(-known.days_since_use(at, now) / w.recency_days)
    return w.importance * known.importance[at] + w.recency * recent + w.confidence * known.confidence[at]


def _ranker(known: standing.Standing, now: datetime, w: Weights, statuses: tuple[str, ...],
            include_disabled: bool, bounds: tuple[float, float]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Orders one space's nearest rows by the whole score they would reach if this space's cosine spoke for
    their meaning; rows the search must not return rank -inf."""
    def rank(rids: np.ndarray, cosines: np.ndarray) -> np.ndarray:
        score = w.relevance * 0.75 * _rescaled_array(cosines, bounds) + _standing_part(known, rids, now, w)
        return np.where(known.eligible(rids, statuses, include_disabled), score, -np.inf)
    return rank


def _likely_best(known: standing.Standing, rids: set[int], keep: int, query_chinese: bool,
                 main: dict[int, float], multi: dict[int, float] | None, bm25: dict[int, float], now: datetime,
                 w: Weights, statuses: tuple[str, ...], include_disabled: bool) -> set[int]:
    """The `keep` candidates with the best scores by the same formula as `_score`, from the in-memory standing."""
    if len(rids) <= keep:
        return rids
    ids = np.fromiter(rids, dtype=np.int64, count=len(rids))
    nan = float("nan")
    main_part = _rescaled_array(np.array([main.get(r, nan) for r in ids.tolist()]), MAIN_RANGE)
    if multi is None:
        semantic = np.nan_to_num(main_part)
    else:
        multi_part = _rescaled_array(np.array([multi.get(r, nan) for r in ids.tolist()]), MULTILINGUAL_RANGE)
        chinese = known.chinese[known.index(ids)]
        blended = np.where(np.isnan(main_part), multi_part, MAIN_SHARE * main_part + (1 - MAIN_SHARE) * multi_part)
        semantic = multi_part if query_chinese else np.where(chinese, CROSS_LINGUAL * multi_part, blended)
        semantic = np.where(np.isnan(multi_part), np.nan_to_num(main_part), semantic)
    lexical = np.array([bm25.get(r, 0.0) for r in ids.tolist()])
    relevance = np.minimum(1.0, 0.75 * semantic + 0.35 * lexical)
    score = w.relevance * relevance + _standing_part(known, ids, now, w)
    score = np.where(known.eligible(ids, statuses, include_disabled), score, -np.inf)
    best = np.argsort(-score, kind="stable")[:keep]
    return set(ids[best[np.isfinite(score[best])]].tolist())


def _rescaled_array(cosines: np.ndarray, bounds: tuple[float, float]) -> np.ndarray:
    low, high = bounds
    return np.clip((cosines - low) / (high - low), 0.0, 1.0)  # nan stays nan: no vector in that space


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
