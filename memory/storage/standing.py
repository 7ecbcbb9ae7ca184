"""What search needs of every memory besides its vectors, as arrays indexed by row id, kept current cheaply.

A search ranks memories by meaning *and* by their standing: importance, confidence, how recently each was
used, whether it is active and enabled. Taking the nearest vectors first and reading their rows afterwards
missed the memories that win on standing (recall@10 against scoring every memory was 0.29 at 10,000
memories), and reading every row each query grows with the store. Here those few columns live in memory
per connection, so candidates are ranked by the whole score before any row is read.

The copy follows every change through `memory_changes`, a log of row ids that triggers on `memories` fill
(migration m003; ids only, never text): a search reads the log's last sequence number, and when it moved,
reloads just the rows logged since. The log keeps its last 10,000 entries; a copy older than that reloads
everything. A copy can therefore never be staler than the last committed write, and the final scores of a
search are still computed from the rows themselves (memory.recall.hybrid), so this only decides which
memories are worth reading.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np

from memory.storage.vector_index import drop_closed
from memory.text import has_cjk

STATUSES = ("active", "superseded", "expired", "deleted")
NO_MEMORY = -1
_COLUMNS = ("SELECT rid, status, disabled, importance, confidence, "
            "julianday(coalesce(last_used_at, updated_at, created_at)), content FROM memories")
_CHUNK = 500


@dataclass
class Standing:
    """Per row id: status code (index in STATUSES, NO_MEMORY for none), disabled, importance, confidence,
    the julian day of last use (or update, or creation), and whether the content holds Chinese."""

    seq: int
    status: np.ndarray      # int8
    disabled: np.ndarray    # bool
    importance: np.ndarray  # float32
    confidence: np.ndarray  # float32
    stamp: np.ndarray       # float64, julian day; -inf when unreadable
    chinese: np.ndarray     # bool

    def _fit(self, rid: int) -> None:
        size = len(self.status)
        if rid < size:
            return
        extra = max(rid + 1 - size, size, 64)
        self.status = np.concatenate([self.status, np.full(extra, NO_MEMORY, dtype=np.int8)])
        for name in ("disabled", "importance", "confidence", "stamp", "chinese"):
            array = getattr(self, name)
            setattr(self, name, np.concatenate([array, np.zeros(extra, dtype=array.dtype)]))

    def _set(self, row) -> None:
        rid, status, disabled, importance, confidence, stamp, content = row
        self._fit(rid)
        self.status[rid] = STATUSES.index(status) if status in STATUSES else NO_MEMORY
        self.disabled[rid] = bool(disabled)
        self.importance[rid], self.confidence[rid] = importance, confidence
        self.stamp[rid] = -np.inf if stamp is None else stamp
        self.chinese[rid] = has_cjk(content or "")

    def _clear(self, rid: int) -> None:
        if rid < len(self.status):
            self.status[rid] = NO_MEMORY

    def index(self, rids: np.ndarray) -> np.ndarray:
        """The row ids as indexes into the arrays (an id past the end reads row 0; `eligible` says it is none)."""
        size = len(self.status)
        return rids if not len(rids) or int(rids.max()) < size else np.where(rids < size, rids, 0)

    def eligible(self, rids: np.ndarray, statuses: tuple[str, ...], include_disabled: bool) -> np.ndarray:
        """Which of these row ids are memories with one of these statuses (and enabled, unless disabled count)."""
        at = self.index(rids)
        codes = [STATUSES.index(s) for s in statuses if s in STATUSES]
        ok = self.status[at] == codes[0] if len(codes) == 1 else np.isin(self.status[at], codes)
        if at is not rids:
            ok &= rids < len(self.status)
        if not include_disabled:
            ok &= ~self.disabled[at]
        return ok

    def days_since_use(self, at: np.ndarray, now: datetime) -> np.ndarray:
        """Days from the last use of the memories at these indexes to `now` (never negative; inf when unknown)."""
        return np.maximum(julian_day(now) - self.stamp[at], 0.0)


def julian_day(moment: datetime) -> float:
    """The julian day of a moment as SQLite's julianday() reads the same ISO text (a naive time as UTC)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
    return aware.timestamp() / 86400.0 + 2440587.5


# id(connection) → (the connection, its copy), as in vector_index: the connection is held so its id is not reused.
_copies: dict[int, tuple[object, Standing]] = {}


def current(conn) -> Standing:
    """This connection's up-to-date copy (read whole the first time, then only what the log says changed)."""
    entry = _copies.get(id(conn))
    copy = entry[1] if entry is not None and entry[0] is conn else None
    last = _last_seq(conn)
    if copy is None or not _catch_up(conn, copy, last):
        copy = _load(conn, last)
        _copies[id(conn)] = (conn, copy)
    return copy


def _last_seq(conn) -> int:
    row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'memory_changes'").fetchone()
    return int(row[0]) if row else 0


def _catch_up(conn, copy: Standing, last: int) -> bool:
    """Apply the changes logged since the copy was made; False when the log no longer reaches back that far."""
    if last == copy.seq:
        return True
    oldest = conn.execute("SELECT min(seq) FROM memory_changes").fetchone()[0]
    if last < copy.seq or oldest is None or oldest > copy.seq + 1:
        return False
    rids = [r for (r,) in conn.execute("SELECT DISTINCT rid FROM memory_changes WHERE seq > ?", (copy.seq,))]
    for start in range(0, len(rids), _CHUNK):
        chunk = rids[start:start + _CHUNK]
        for rid in chunk:
            copy._clear(rid)
        for row in conn.execute(_COLUMNS + f" WHERE rid IN ({','.join('?' * len(chunk))})", chunk):
            copy._set(row)
    copy.seq = last
    return True


def _load(conn, last: int) -> Standing:
    rows = conn.execute(_COLUMNS).fetchall()
    size = max((r[0] for r in rows), default=0) + 1
    copy = Standing(last, np.full(size, NO_MEMORY, dtype=np.int8), np.zeros(size, dtype=bool),
                    np.zeros(size, dtype=np.float32), np.zeros(size, dtype=np.float32),
                    np.full(size, -np.inf), np.zeros(size, dtype=bool))
    for row in rows:
        copy._set(row)
    drop_closed(_copies)
    return copy

