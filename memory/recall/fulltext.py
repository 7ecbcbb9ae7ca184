"""BM25 over the memories' full-text index, with the work per query capped as memory grows.

FTS5 ranks by computing bm25() for every row that matches any query term before it can sort, so one
common word ("likes", "喜欢") made a query cost a share of the whole store. Here each term's document
count is read first (counted up to a cap): only terms
that occur in at most `RARE_ROWS` memories are ranked over all their rows. If the query has no such term,
the memories the caller already holds as candidates (hybrid search: the nearest in meaning, ranked by their
standing) are scored by the rarity of the query terms each one holds, read from their indexed text; with no
candidates, the `CAPPED_ROWS` newest matching memories are. A common term adds little to BM25 anyway (its
inverse document frequency is small), and taking only the newest matches missed the older ones that are
close in meaning too: at 10,000 generated memories, 6 of the exact top 10 on average (bench_search).
"""
from __future__ import annotations

import math
from typing import Collection

from memory.storage import OperationalError
from memory.text import STOPWORDS, tokens

RARE_ROWS = 300
CAPPED_ROWS = 300
MAX_TERMS = 32


def query_terms(text: str) -> list[str]:
    """The distinct search terms of a text (the same ones `memory.text.fts_query` ORs together)."""
    out: list[str] = []
    for tok in tokens(text):
        if tok not in STOPWORDS and tok not in out:
            out.append(tok)
            if len(out) >= MAX_TERMS:
                break
    return out


def _match(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def bm25_hits(conn, text: str, limit: int, capped: bool = True, candidates: Collection[int] = ()) -> dict[int, float]:
    """The best `limit` full-text matches as rid → BM25 normalized to 0..1 (best = 1); `capped=False`
    ranks every match of every term (limit -1: all of them). `candidates`: the memories to score when
    every term is common (else the newest matches are)."""
    terms = query_terms(text)
    if not terms:
        return {}
    try:
        if not capped:
            return _ranked(conn, _match(terms), limit)
        counts = _document_counts(conn, terms)
        found = [t for t in terms if counts.get(t)]
        rare = [t for t in found if counts[t] <= RARE_ROWS]
        if rare:
            return _ranked(conn, _match(rare), limit)
        if not found:
            return {}
        if candidates:
            return _candidates_ranked(conn, found, counts, candidates, limit)
        return _newest_ranked(conn, found, counts, limit)
    except OperationalError:
        return {}


def _rarity(terms: list[str], counts: dict[str, int]) -> dict[str, float]:
    return {t: 1.0 / math.log(2 + counts[t]) for t in terms}


def _candidates_ranked(conn, terms: list[str], counts: dict[str, int], candidates: Collection[int],
                       limit: int) -> dict[int, float]:
    """Every term is common: the candidates that hold any of them, scored by the rarity of the terms each holds.

    Which terms a row holds is read from its indexed text (`memory.text.index_text`: the same tokens the query
    terms are made of, joined by spaces) in FTS5's content table, one primary-key lookup per candidate;
    `rowid IN (...)` on the FTS table itself scans every match of the term."""
    ids = list(candidates)
    rows = conn.execute(f"SELECT id, c0 FROM memories_fts_content WHERE id IN ({','.join('?' * len(ids))})",
                        ids).fetchall()
    weight = _rarity(terms, counts)
    scored = []
    for rid, text in rows:
        held = set((text or "").split())
        score = -sum(w for t, w in weight.items() if t in held)
        if score:
            scored.append((rid, score))
    scored.sort(key=lambda r: (r[1], -r[0]))  # equal scores: the newer first
    return _normalized(scored[:limit] if limit >= 0 else scored)


def _newest_ranked(conn, terms: list[str], counts: dict[str, int], limit: int) -> dict[int, float]:
    """Every term is common: the newest matches, scored by the rarity of the terms each one holds
    (bm25() itself would read every term's whole list of rows to count them).

    Which terms a row holds comes from the index too (one term's matches among those newest rows), not from
    reading and splitting each row's text in Python; with one term every row holds it."""
    rids = [r for (r,) in conn.execute(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT ?",
        (_match(terms), CAPPED_ROWS)).fetchall()]
    if not rids:
        return {}
    weight = _rarity(terms, counts)
    score = dict.fromkeys(rids, 0.0)  # newest first, so equal scores keep that order
    for term in terms:
        held = rids if len(terms) == 1 else [r for (r,) in conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid >= ?", (_match([term]), rids[-1]))]
        for rid in held:
            if rid in score:
                score[rid] -= weight[term]
    scored = sorted(score.items(), key=lambda r: r[1])
    return _normalized(scored[:limit] if limit >= 0 else scored)


def _ranked(conn, match: str, limit: int) -> dict[int, float]:
    rows = conn.execute(
        "SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?",
        (match, limit)).fetchall()
    return _normalized(rows)


def _normalized(rows) -> dict[int, float]:
    if not rows:
        return {}
    best = min(score for _, score in rows) or -1.0  # bm25() is negative: lower is better
    return {rid: score / best for rid, score in rows}


def _document_counts(conn, terms: list[str]) -> dict[str, int]:
    """How many memories hold each term, counted up to RARE_ROWS + 1 (so a common term costs no more
    than a rare one; fts5vocab would walk its whole list of rows)."""
    out = {}
    for term in terms:
        (out[term],) = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)",
            (_match([term]), RARE_ROWS + 1)).fetchone()
    return out
