"""The sqlite-vec tables of memory embeddings, each tied to one embedding model at a time.

Two vector spaces: the main one (the chosen embedding model: the bundled MiniLM reads English) and the
multilingual one (USE-multilingual, so Chinese memories are found by meaning too). Each has its own
vec0 table and its own model id and dimension in `meta`; `ensure_model` builds or rebuilds one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import sqlite_vec

from memory.protocols import Embedder
from memory.storage import vector_index

ProgressFn = Callable[[int, int], None]
_BATCH = 64


@dataclass(frozen=True)
class Space:
    """One vec0 table and the prefix of its meta keys (`<prefix>_model`, `<prefix>_dim`)."""

    table: str
    meta: str


MAIN = Space("memory_vectors", "embedding")
MULTILINGUAL = Space("memory_vectors_multilingual", "multilingual")
SPACES = (MAIN, MULTILINGUAL)


def _meta(conn, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _set_meta(conn, key: str, value: str) -> None:
    conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (key, value))


def stored_model(conn, space: Space = MAIN) -> tuple[str | None, int | None]:
    """The embedding model id and dimension the stored vectors of a space were made with."""
    model, dim = _meta(conn, f"{space.meta}_model"), _meta(conn, f"{space.meta}_dim")
    return model, int(dim) if dim else None


def ensure_model(conn, embedder: Embedder, progress: ProgressFn | None = None, space: Space = MAIN) -> int:
    """Make a space's vector table match `embedder`; (re-)embed every memory if the model changed or the
    table is new (an existing database meeting the multilingual space for the first time fills it here).

    Returns how many memories were (re-)embedded. Vectors of two models are never mixed: on a change
    the table is dropped and rebuilt in one transaction.
    """
    model, dim = stored_model(conn, space)
    if model == embedder.model_id and dim == embedder.dim and table_exists(conn, space):
        return 0
    rows = conn.execute("SELECT rid, content FROM memories ORDER BY rid").fetchall()
    vectors = _embed_all(embedder, [r[1] for r in rows], progress)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"DROP TABLE IF EXISTS {space.table}")
        conn.execute(f"CREATE VIRTUAL TABLE {space.table} USING vec0(embedding float[{int(embedder.dim)}])")
        for (rid, _), vec in zip(rows, vectors):
            conn.execute(f"INSERT INTO {space.table}(rowid, embedding) VALUES (?, ?)",
                         (rid, sqlite_vec.serialize_float32(vec)))
        _set_meta(conn, f"{space.meta}_model", embedder.model_id)
        _set_meta(conn, f"{space.meta}_dim", str(embedder.dim))
        vector_index.bump_generation(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    finally:
        vector_index.forget_loaded(conn)
    return len(rows)


def table_exists(conn, space: Space = MAIN) -> bool:
    """Whether the space's vector table has been created (by `ensure_model`)."""
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (space.table,)).fetchone()
    return row is not None


def _embed_all(embedder: Embedder, texts: Sequence[str], progress: ProgressFn | None) -> list[list[float]]:
    out: list[list[float]] = []
    for start in range(0, len(texts), _BATCH):
        out.extend(embedder.embed(list(texts[start:start + _BATCH])))
        if progress:
            progress(min(start + _BATCH, len(texts)), len(texts))
    return out


def put(conn, rid: int, vector: Sequence[float], space: Space = MAIN) -> None:
    """Insert or replace the vector of one memory (inside the caller's transaction)."""
    before = vector_index.generation(conn)
    conn.execute(f"DELETE FROM {space.table} WHERE rowid = ?", (rid,))
    conn.execute(f"INSERT INTO {space.table}(rowid, embedding) VALUES (?, ?)",
                 (rid, sqlite_vec.serialize_float32(list(vector))))
    vector_index.changed(conn, space.table, before, vector_index.bump_generation(conn), rid, vector)


def delete(conn, rid: int, spaces: Sequence[Space] = SPACES) -> None:
    """Remove the vectors of one memory (from every space that has a table, unless told which)."""
    for space in spaces:
        if space is MAIN or table_exists(conn, space):
            before = vector_index.generation(conn)
            conn.execute(f"DELETE FROM {space.table} WHERE rowid = ?", (rid,))
            vector_index.changed(conn, space.table, before, vector_index.bump_generation(conn), rid)


def stored_rids(conn, space: Space = MAIN) -> set[int]:
    """The memories that have a vector in this space."""
    return {r[0] for r in conn.execute(f"SELECT rowid FROM {space.table}").fetchall()}


def knn(conn, query: Sequence[float], k: int, space: Space = MAIN,
        rank: vector_index.Rank | None = None, exact: bool = False) -> list[tuple[int, float]]:
    """The k nearest memories as (rid, cosine similarity), best first (vectors are unit length), or the k
    best by `rank(rids, cosines)` among the nearest.

    Read from the in-memory copy of the table (`vector_index`): a coarse pass over sign bits, then exact
    cosines of the best rows (`exact`: of every row)."""
    q = np.asarray(query, dtype=np.float32)
    return vector_index.loaded(conn, space.table, len(q)).nearest(q, int(k), rank, exact)


def exact_knn(conn, query: Sequence[float], k: int, space: Space = MAIN) -> list[tuple[int, float]]:
    """The k nearest memories by sqlite-vec's brute-force KNN over every float vector (the reference)."""
    rows = conn.execute(
        f"SELECT rowid, distance FROM {space.table} WHERE embedding MATCH ? AND k = ? ORDER BY distance",
        (sqlite_vec.serialize_float32(list(query)), int(k)),
    ).fetchall()
    # Vectors are normalized, so L2 distance d relates to cosine as cos = 1 - d^2 / 2.
    return [(rid, 1.0 - (dist * dist) / 2.0) for rid, dist in rows]


def similarity(conn, query: Sequence[float], rids: Sequence[int], space: Space = MAIN) -> dict[int, float]:
    """Cosine similarity of the query to the given memories' vectors (from the in-memory copy)."""
    if not rids:
        return {}
    q = np.asarray(query, dtype=np.float32)
    return vector_index.loaded(conn, space.table, len(q)).similarity(q, rids)


def stored(conn, rids: Sequence[int], space: Space = MAIN) -> dict[int, np.ndarray]:
    """The exact stored (float32) vectors of these memories, those that have one.

    One `rowid = ?` lookup per memory, which vec0 answers from its rowid index: the work follows len(rids), not
    the table (`rowid IN (...)` scans the whole table once per statement, see `vector_index`), and nothing is
    loaded for it (a consolidation run from the command line does not read the whole table into memory)."""
    out: dict[int, np.ndarray] = {}
    sql = f"SELECT embedding FROM {space.table} WHERE rowid = ?"
    for rid in rids:
        row = conn.execute(sql, (rid,)).fetchone()
        if row is not None:
            out[rid] = np.frombuffer(row[0], dtype=np.float32)
    return out


def dump(conn, rid: int, space: Space = MAIN) -> str | None:
    """The stored vector as JSON text (for checks), or None."""
    row = conn.execute(f"SELECT vec_to_json(embedding) FROM {space.table} WHERE rowid = ?", (rid,)).fetchone()
    return row[0] if row else None


def to_json(vec: Sequence[float]) -> str:
    return json.dumps([float(x) for x in vec])
