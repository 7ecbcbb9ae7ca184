"""The in-memory copy of one vector table that nearest-neighbour search and similarity read.

sqlite-vec's vec0 KNN compares the query with every stored float vector inside SQLite, and a
`rowid IN (...)` lookup on a vec0 table scans the whole table too, so both grew with the number of
memories (3.5 ms at 100, 13.8 ms at 10,000 before this, with one space). Here the vectors of a space are read once into
memory, as a matrix searched in two steps:

1. a coarse pass over the sign bits of each vector (after the mean of all stored vectors is taken off,
   so the bits split the space evenly): Hamming distances to the query's bits by XOR and popcount,
   32 times less memory to read than the floats, and the best `oversample × k` rows kept;
2. the exact cosine of those rows from float32 copies, and the k best returned.

The copies are float32 (about 3.7 KB per memory for both spaces: 37 MB at 10,000 memories, 370 MB at 100,000):
float16 halved that, but turning the gathered rows back into float32 for the product cost 5-8x the product
itself (0.3-1.4 ms per space and query here), which made the re-scoring step the largest part of a search.

A space of at most `EXACT_BELOW` vectors is searched exactly in one matrix product.

The products run on one BLAS thread: they are small (at most ~1,000 x 512), and OpenBLAS splits a product that size
over its threads, so on a busy machine (the engine's llama.cpp threads, the embedders) a search waited for a worker
thread to be scheduled — 1,000 memories measured slower than 10,000.

The copy follows every write: `vectors.put`/`delete`/`ensure_model` set a new generation token in `meta`
inside the writer's transaction. The writing connection updates its own copy in place; any other
connection (another process) sees the new token and reads the table again before its next search.
"""
from __future__ import annotations

import secrets
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np
from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

GENERATION_KEY = "vectors_generation"
EXACT_BELOW = 1024
OVERSAMPLE = 10
MIN_COARSE = 500
Rank = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (rids, cosines) -> score per row


_blas: ThreadpoolController | None = None
_blas_lock = threading.Lock()
_blas_users = 0
_blas_limit = None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """A context in which numpy's BLAS uses one thread. Nested or concurrent uses share one limit, set by the first
    and lifted by the last (setting it costs ~30 us, so a search sets it once for all its products); the
    controller is built once: it lists the loaded libraries."""
    global _blas, _blas_users, _blas_limit
    with _blas_lock:
        if _blas_users == 0:
            if _blas is None:
                _blas = ThreadpoolController()
            _blas_limit = _blas.limit(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0 and _blas_limit is not None:
                _blas_limit.restore_original_limits()
                _blas_limit = None


@dataclass
class LoadedSpace:
    """One space's vectors as arrays: row i < n belongs to memory rids[i] (arrays may hold spare rows)."""

    generation: str | None
    n: int
    rids: np.ndarray           # int64, (capacity,)
    vectors: np.ndarray        # float32, (capacity, dim): the stored values, gathered and multiplied as they are
    bits: np.ndarray           # uint64, (words, capacity): sign bits of (vector - mean), a word's column contiguous
    mean: np.ndarray           # float32, (dim,)
    row_of: dict[int, int]
    mean_rows: int = 0         # how many rows the mean was taken over

    def _recenter(self) -> None:
        """Take the mean again and redo the sign bits (amortized: whenever the rows have doubled since)."""
        n = self.n
        matrix = self.vectors[:n]
        self.mean = matrix.mean(axis=0) if n else np.zeros(self.vectors.shape[1], dtype=np.float32)
        if n:
            self.bits[:, :n] = _sign_bits(matrix - self.mean).T
        self.mean_rows = n

    def nearest(self, query: np.ndarray, k: int, rank: Rank | None = None, exact: bool = False) -> list[tuple[int, float]]:
        """The k rows closest to the (unit) query as (rid, cosine), best first.

        `rank(rids, cosines)` orders the rows the coarse pass kept by another score instead of the cosine
        (-inf: never returned), e.g. the whole search score, so that memories that win on more than meaning
        are among the k. `exact`: every row's cosine, no coarse pass (what the coarse pass misses)."""
        n = self.n
        if n == 0 or k <= 0:
            return []
        coarse = max(MIN_COARSE, OVERSAMPLE * k)
        if exact or n <= max(EXACT_BELOW, coarse):
            rows = np.arange(n)
        else:
            qbits = _sign_bits((query - self.mean)[None, :])[0]
            hamming = np.bitwise_count(self.bits[:, :n] ^ qbits[:, None]).sum(axis=0, dtype=np.uint16)
            rows = _smallest(hamming, coarse)
        with one_blas_thread():
            cosines = (self.vectors[:n] if len(rows) == n else self.vectors[rows]) @ query
        if rank is None:
            best = np.argsort(-cosines)[:k]
        else:
            order = rank(self.rids[rows], cosines)
            best = np.argsort(-order)[:k]
            best = best[np.isfinite(order[best])]
        return [(int(self.rids[rows[i]]), float(cosines[i])) for i in best]

    def similarity(self, query: np.ndarray, rids) -> dict[int, float]:
        """Cosine of the query to the given memories' vectors (those that have one)."""
        found = [(rid, self.row_of[rid]) for rid in rids if rid in self.row_of]
        if not found:
            return {}
        with one_blas_thread():
            cosines = self.vectors[[row for _, row in found]] @ query
        return {rid: float(c) for (rid, _), c in zip(found, cosines)}

    def put(self, rid: int, vector: np.ndarray) -> None:
        """Insert or replace one row in place (the mean stays what it was at loading)."""
        row = self.row_of.get(rid)
        if row is None:
            if self.n == len(self.rids):
                self._grow()
            row, self.n = self.n, self.n + 1
            self.row_of[rid] = row
            self.rids[row] = rid
        self.vectors[row] = vector
        self.bits[:, row] = _sign_bits((vector - self.mean)[None, :])[0]
        if self.n > 2 * self.mean_rows and self.n > EXACT_BELOW:  # a store that grew since it was loaded
            self._recenter()

    def delete(self, rid: int) -> None:
        """Remove one row in place (the last row moves into its place)."""
        row = self.row_of.pop(rid, None)
        if row is None:
            return
        last = self.n - 1
        if row != last:
            moved = int(self.rids[last])
            self.rids[row], self.vectors[row], self.bits[:, row] = moved, self.vectors[last], self.bits[:, last]
            self.row_of[moved] = row
        self.vectors[last], self.bits[:, last] = 0, 0  # a forgotten memory's vector leaves memory too
        self.n = last

    def _grow(self) -> None:
        extra = max(64, len(self.rids))
        self.rids = np.concatenate([self.rids, np.zeros(extra, dtype=np.int64)])
        self.vectors = np.concatenate([self.vectors, np.zeros((extra, self.vectors.shape[1]), dtype=np.float32)])
        self.bits = np.concatenate([self.bits, np.zeros((self.bits.shape[0], extra), dtype=np.uint64)], axis=1)


def _smallest(distances: np.ndarray, k: int) -> np.ndarray:
    """The rows of the k smallest of these small whole-number distances (ties taken in row order).

    A count of each distance finds the cut-off, then two scans take the rows: about 4x faster than argpartition
    over 100,000 rows, which made the coarse pass the largest cost of a search there."""
    cut = int(np.searchsorted(np.cumsum(np.bincount(distances)), k))  # the smallest d with >= k rows at <= d
    below = np.flatnonzero(distances < cut)
    return np.concatenate([below, np.flatnonzero(distances == cut)[:k - len(below)]])


def _sign_bits(matrix: np.ndarray) -> np.ndarray:
    packed = np.packbits(matrix > 0, axis=1)
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return np.ascontiguousarray(packed).view(np.uint64)


# id(connection) → (the connection, {table: copy}); the connection is held so that its id is not reused
# while the entry lives, and entries of closed connections are dropped at the next load.
_loaded: dict[int, tuple[object, dict[str, LoadedSpace]]] = {}


def _spaces(conn) -> dict[str, LoadedSpace]:
    entry = _loaded.get(id(conn))
    return entry[1] if entry is not None and entry[0] is conn else {}


def generation(conn) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (GENERATION_KEY,)).fetchone()
    return row[0] if row else None


def bump_generation(conn) -> str:
    """Mark every other copy of the vectors stale (inside the transaction that changes a vector table).

    The new generation is a random token, not a count: after a rolled-back write the table is back at the
    old token, and a later write by another connection can never land on the token this copy holds.
    """
    token = secrets.token_hex(8)
    conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (GENERATION_KEY, token))
    return token


def changed(conn, table: str, before: str | None, after: str, rid: int, vector=None) -> None:
    """This connection wrote (vector) or deleted (None) one row of `table`: keep its loaded copy current in place,
    if that copy was current before the write; otherwise it reloads at the next search. The generation token is
    one for all tables, so the copies of the other tables that were current stay current: they move to the new
    token too (else every write to one space reloaded the other one whole at the next search)."""
    for name, space in _spaces(conn).items():
        if space.generation != before:
            continue
        if name == table:
            if vector is None:
                space.delete(rid)
            else:
                space.put(rid, np.asarray(vector, dtype=np.float32))
        space.generation = after


def forget_loaded(conn) -> None:
    """Drop this connection's copies (a table was rebuilt)."""
    _loaded.pop(id(conn), None)


def loaded(conn, table: str, dim: int) -> LoadedSpace:
    """The up-to-date in-memory copy of a vector table (read again only after another connection wrote)."""
    now = generation(conn)
    space = _spaces(conn).get(table)
    if space is None or space.generation != now or space.vectors.shape[1] != dim:
        space = _load(conn, table, dim, now)
        if id(conn) not in _loaded or _loaded[id(conn)][0] is not conn:
            drop_closed(_loaded)
            _loaded[id(conn)] = (conn, {})
        _loaded[id(conn)][1][table] = space
    return space


def drop_closed(cache: dict) -> None:
    """Drop the entries of closed connections from a cache keyed by id(connection) → (connection, value)."""
    for key, (conn, _) in list(cache.items()):
        try:
            conn.total_changes  # raises once the connection is closed
        except Exception:
            del cache[key]


def _load(conn, table: str, dim: int, gen: str | None) -> LoadedSpace:
    rows = conn.execute(f"SELECT rowid, embedding FROM {table}").fetchall()
    rids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
    mean = matrix.mean(axis=0) if len(rows) else np.zeros(dim, dtype=np.float32)
    words = (dim + 63) // 64
    bits = np.ascontiguousarray(_sign_bits(matrix - mean).T) if len(rows) else np.zeros((words, 0), dtype=np.uint64)
    return LoadedSpace(gen, len(rows), rids, matrix.copy(), bits, mean.astype(np.float32),
                       {int(r): i for i, r in enumerate(rids)}, len(rows))
