"""The sqlite-vec table of memory embeddings, tied to one embedding model at a time."""
from __future__ import annotations

import json
from typing import Callable, Sequence

import sqlite_vec

from memory.protocols import Embedder

ProgressFn = Callable[[int, int], None]
_BATCH = 64


def _meta(conn, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _set_meta(conn, key: str, value: str) -> None:
    conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (key, value))


def stored_model(conn) -> tuple[str | None, int | None]:
    """The embedding model id and dimension the stored vectors were made with."""
    model, dim = _meta(conn, "embedding_model"), _meta(conn, "embedding_dim")
    return model, int(dim) if dim else None


def ensure_model(conn, embedder: Embedder, progress: ProgressFn | None = None) -> int:
    """Make the vector table match `embedder`; re-embed every memory if the model changed.

    Returns how many memories were (re-)embedded. Vectors of two models are never mixed: on a change
    the table is dropped and rebuilt in one transaction.
    """
    model, dim = stored_model(conn)
    if model == embedder.model_id and dim == embedder.dim and _table_exists(conn):
        return 0
    rows = conn.execute("SELECT rid, content FROM memories ORDER BY rid").fetchall()
    vectors = _embed_all(embedder, [r[1] for r in rows], progress)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DROP TABLE IF EXISTS memory_vectors")
        conn.execute(f"CREATE VIRTUAL TABLE memory_vectors USING vec0(embedding float[{int(embedder.dim)}])")
        for (rid, _), vec in zip(rows, vectors):
            conn.execute("INSERT INTO memory_vectors(rowid, embedding) VALUES (?, ?)",
                         (rid, sqlite_vec.serialize_float32(vec)))
        _set_meta(conn, "embedding_model", embedder.model_id)
        _set_meta(conn, "embedding_dim", str(embedder.dim))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(rows)


def _table_exists(conn) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_vectors'").fetchone()
    return row is not None


def _embed_all(embedder: Embedder, texts: Sequence[str], progress: ProgressFn | None) -> list[list[float]]:
    out: list[list[float]] = []
    for start in range(0, len(texts), _BATCH):
        out.extend(embedder.embed(list(texts[start:start + _BATCH])))
        if progress:
            progress(min(start + _BATCH, len(texts)), len(texts))
    return out


def put(conn, rid: int, vector: Sequence[float]) -> None:
    """Insert or replace the vector of one memory (inside the caller's transaction)."""
    conn.execute("DELETE FROM memory_vectors WHERE rowid = ?", (rid,))
    conn.execute("INSERT INTO memory_vectors(rowid, embedding) VALUES (?, ?)",
                 (rid, sqlite_vec.serialize_float32(list(vector))))


def delete(conn, rid: int) -> None:
    """Remove the vector of one memory."""
    conn.execute("DELETE FROM memory_vectors WHERE rowid = ?", (rid,))


def knn(conn, query: Sequence[float], k: int) -> list[tuple[int, float]]:
    """The k nearest memories as (rid, cosine similarity), best first."""
    rows = conn.execute(
        "SELECT rowid, distance FROM memory_vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance",
        (sqlite_vec.serialize_float32(list(query)), int(k)),
    ).fetchall()
    # Vectors are normalized, so L2 distance d relates to cosine as cos = 1 - d^2 / 2.
    return [(rid, 1.0 - (dist * dist) / 2.0) for rid, dist in rows]


def similarity(conn, query: Sequence[float], rids: Sequence[int]) -> dict[int, float]:
    """Cosine similarity of the query to the given memories' vectors."""
    if not rids:
        return {}
    marks = ",".join("?" * len(rids))
    rows = conn.execute(
        f"SELECT rowid, vec_distance_cosine(embedding, ?) FROM memory_vectors WHERE rowid IN ({marks})",
        (sqlite_vec.serialize_float32(list(query)), *rids),
    ).fetchall()
    return {rid: 1.0 - dist for rid, dist in rows}


def dump(conn, rid: int) -> str | None:
    """The stored vector as JSON text (for checks), or None."""
    row = conn.execute("SELECT vec_to_json(embedding) FROM memory_vectors WHERE rowid = ?", (rid,)).fetchone()
    return row[0] if row else None


def to_json(vec: Sequence[float]) -> str:
    return json.dumps([float(x) for x in vec])
