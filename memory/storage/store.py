"""The memory store: add, get, list, update, reinforce, supersede and history, with vectors and FTS in step."""
from __future__ import annotations

import builtins
import json
import secrets
from dataclasses import replace
from typing import Any, Iterable

from memory.errors import InvalidInput, NotFound
from memory.protocols import Embedder
from memory.records import CATEGORIES, SOURCES, HistoryEntry, Memory
from memory.storage import vectors
from memory.storage.database import Database
from memory.text import clean, index_text

MAX_CONTENT = 2000
_COLUMNS = (
    "id", "category", "content", "status", "confidence", "importance", "strength", "source", "event_date",
    "valid_from", "valid_to", "created_at", "updated_at", "last_used_at", "hit_count", "pinned", "disabled",
    "superseded_by", "topic", "quote", "session_id", "message_id",
)
_SELECT = "SELECT rid, " + ", ".join(_COLUMNS) + " FROM memories"
EDITABLE = frozenset({"content", "category", "importance", "confidence", "pinned", "disabled", "event_date",
                      "status", "valid_to", "valid_from", "superseded_by", "strength", "topic"})


def new_id() -> str:
    """A short random memory id."""
    return "m_" + secrets.token_hex(6)


def _row_to_memory(row) -> Memory:
    values = dict(zip(_COLUMNS, row[1:]))
    values["pinned"] = bool(values["pinned"])
    values["disabled"] = bool(values["disabled"])
    return Memory(**values)


def snapshot(m: Memory) -> dict[str, Any]:
    """What a history row records of a memory."""
    data = m.to_json()
    data.update(topic=m.topic, quote=m.quote)
    return data


class MemoryStore:
    """Memories with their vectors, full-text index and history, changed only in transactions."""

    def __init__(self, db: Database, embedder: Embedder, multilingual: Embedder | None = None):
        self.db = db
        self.embedder = embedder
        # The second vector space (Chinese and English by meaning); None where its model is not installed:
        # then edits drop a memory's multilingual vector rather than leave a stale one, and the start-up
        # repair embeds what is missing once the model is back.
        self.multilingual = multilingual

    # -- reading -------------------------------------------------------------------------------
    def get(self, memory_id: str) -> Memory:
        """The memory with this id, or NotFound."""
        rows = self.db.read(_SELECT + " WHERE id = ?", (memory_id,))
        if not rows:
            raise NotFound(f"No memory has the id {memory_id!r}.")
        return _row_to_memory(rows[0])

    def rid_of(self, memory_id: str) -> int:
        """The internal row id of a memory."""
        rows = self.db.read("SELECT rid FROM memories WHERE id = ?", (memory_id,))
        if not rows:
            raise NotFound(f"No memory has the id {memory_id!r}.")
        return rows[0][0]

    def by_rids(self, rids: Iterable[int]) -> dict[int, Memory]:
        """Memories by internal row id."""
        rids = list(rids)
        if not rids:
            return {}
        rows = self.db.read(_SELECT + f" WHERE rid IN ({','.join('?' * len(rids))})", tuple(rids))
        return {row[0]: _row_to_memory(row) for row in rows}

    def list(self, category: str | None = None, status: str = "active") -> list[Memory]:
        """Memories filtered by category and status ('all' for every status), oldest first."""
        where, params = [], []
        if category:
            _check_category(category)
            where.append("category = ?")
            params.append(category)
        if status != "all":
            where.append("status = ?")
            params.append(status)
        sql = _SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY rid"
        return [_row_to_memory(r) for r in self.db.read(sql, tuple(params))]

    def usable(self, ids: Iterable[str] | None = None, always: tuple[str, ...] | None = None) -> builtins.list[Memory]:
        """Active memories that are not disabled, oldest first: those with these ids, or pinned or in one of the
        `always` categories, or (neither given) all of them. The filter runs in SQL, so a turn that needs a few
        memories does not build every one."""
        where, params = ["status = 'active'", "disabled = 0"], []
        if ids is not None:
            ids = builtins.list(ids)
            where.append(f"id IN ({','.join('?' * len(ids))})")
            params.extend(ids)
        if always is not None:
            where.append(f"(pinned = 1 OR category IN ({','.join('?' * len(always))}))")
            params.extend(always)
        sql = _SELECT + " WHERE " + " AND ".join(where) + " ORDER BY rid"
        return [_row_to_memory(r) for r in self.db.read(sql, tuple(params))]

    def by_topic(self, topic: str) -> builtins.list[Memory]:  # `list` here is the method above
        """Active memories that share a reconciliation topic."""
        rows = self.db.read(_SELECT + " WHERE topic = ? AND status = 'active' ORDER BY rid", (topic,))
        return [_row_to_memory(r) for r in rows]

    def history(self, memory_id: str) -> builtins.list[HistoryEntry]:
        """Every recorded change of one memory, oldest first."""
        rows = self.db.read(
            "SELECT memory_id, action, before, after, at, reason FROM memory_history WHERE memory_id = ? ORDER BY rid",
            (memory_id,),
        )
        if not rows:
            self.get(memory_id)
        return [HistoryEntry(r[0], r[1], _loads(r[2]), _loads(r[3]), r[4], r[5]) for r in rows]

    def count(self, status: str = "active") -> int:
        """How many memories have this status."""
        return self.db.read("SELECT count(*) FROM memories WHERE status = ?", (status,))[0][0]

    # -- writing -------------------------------------------------------------------------------
    def add(self, memory: Memory, reason: str = "added", vector: builtins.list[float] | None = None,
            multilingual_vector: builtins.list[float] | None = None) -> Memory:
        """Store a new memory (its id kept if free) with its vectors, FTS row and a history row."""
        memory = self._normalized(memory)
        vec = vector if vector is not None else self.embedder.embed([memory.content])[0]
        mvec = multilingual_vector if multilingual_vector is not None else self._multilingual_vector(memory.content)
        with self.db.transaction() as conn:
            if conn.execute("SELECT 1 FROM memories WHERE id = ?", (memory.id,)).fetchone():
                memory = replace(memory, id=new_id())
            values = [getattr(memory, c) for c in _COLUMNS]
            cur = conn.execute(
                f"INSERT INTO memories({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})", values
            )
            rid = cur.lastrowid
            conn.execute("INSERT INTO memories_fts(rowid, text) VALUES (?, ?)", (rid, index_text(memory.content)))
            self._put_vectors(conn, rid, vec, mvec)
            self._record(conn, memory.id, "add", None, memory, reason)
        return memory

    def update(self, memory_id: str, reason: str = "edited", **changes: Any) -> Memory:
        """Change fields of a memory; content changes re-embed and re-index it."""
        unknown = set(changes) - EDITABLE
        if unknown:
            raise InvalidInput(f"These fields cannot be edited: {', '.join(sorted(unknown))}.")
        # Embed outside the write lock, but read the row inside it: a copy read before the lock could be
        # stale (another thread or process wrote meanwhile) and writing it back would undo that change.
        new_text = _content(changes["content"]) if isinstance(changes.get("content"), str) else None
        fits = new_text and len(new_text) <= MAX_CONTENT
        vec = self.embedder.embed([new_text])[0] if fits and new_text else None
        mvec = self._multilingual_vector(new_text) if fits and new_text else None
        with self.db.transaction() as conn:
            before = self.get(memory_id)
            after = self._normalized(replace(before, **changes, updated_at=self.db.now()))
            if after.content == before.content:
                vec = None
            elif vec is None or after.content != new_text:
                vec = self.embedder.embed([after.content])[0]
                mvec = self._multilingual_vector(after.content)
            rid = conn.execute("SELECT rid FROM memories WHERE id = ?", (memory_id,)).fetchone()[0]
            sets = ", ".join(f"{c} = ?" for c in _COLUMNS if c != "id")
            conn.execute(f"UPDATE memories SET {sets} WHERE id = ?",
                         [getattr(after, c) for c in _COLUMNS if c != "id"] + [memory_id])
            if vec is not None:
                conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rid,))
                conn.execute("INSERT INTO memories_fts(rowid, text) VALUES (?, ?)", (rid, index_text(after.content)))
                self._put_vectors(conn, rid, vec, mvec)
            self._record(conn, memory_id, "update", before, after, reason)
        return after

    def reinforce(self, memory_id: str, reason: str = "said again", quote: str | None = None) -> Memory:
        """A memory heard again: more hits, full strength, last seen now."""
        with self.db.transaction():  # read and write under one lock, so two reinforcements both count
            m = self.get(memory_id)
            return self.update(memory_id, reason=reason, strength=1.0, confidence=min(1.0, m.confidence + 0.05))

    def supersede(self, old_id: str, new: Memory, reason: str) -> Memory:
        """Replace an active memory by a new one that states the change; the old one leaves the active set."""
        with self.db.transaction():
            added = self.add(replace(new, valid_from=new.valid_from or self.db.now()[:10]), reason=reason)
            self.update(old_id, reason=f"superseded: {reason}", status="superseded",
                        valid_to=self.db.now()[:10], superseded_by=added.id)
        return added

    def mark_used(self, memory_ids: Iterable[str]) -> None:
        """Memories that shaped a reply: count the use, refresh last_used_at and strength (no history row)."""
        ids = list(memory_ids)
        if not ids:
            return
        now = self.db.now()
        with self.db.transaction() as conn:
            conn.executemany(
                "UPDATE memories SET hit_count = hit_count + 1, last_used_at = ?, strength = min(1.0, strength + 0.1) "
                "WHERE id = ?", [(now, i) for i in ids])

    def _multilingual_vector(self, text: str) -> builtins.list[float] | None:
        return self.multilingual.embed([text])[0] if self.multilingual is not None else None

    def _put_vectors(self, conn, rid: int, vec: builtins.list[float], mvec: builtins.list[float] | None) -> None:
        vectors.put(conn, rid, vec)
        if vectors.table_exists(conn, vectors.MULTILINGUAL):
            if mvec is not None:
                vectors.put(conn, rid, mvec, vectors.MULTILINGUAL)
            else:
                vectors.delete(conn, rid, [vectors.MULTILINGUAL])

    def _normalized(self, m: Memory) -> Memory:
        content = _content(m.content)
        if not content:
            raise InvalidInput("A memory needs some text.")
        if len(content) > MAX_CONTENT:
            raise InvalidInput(f"A memory is at most {MAX_CONTENT} characters; this one has {len(content)}.")
        _check_category(m.category)
        if m.source not in SOURCES:
            raise InvalidInput(f"Unknown source {m.source!r}; use one of {', '.join(SOURCES)}.")
        now = self.db.now()
        return replace(m, content=content, created_at=m.created_at or now, updated_at=m.updated_at or now,
                       confidence=_unit(m.confidence), importance=_unit(m.importance), strength=_unit(m.strength),
                       quote=clean(m.quote)[:MAX_CONTENT] if m.quote else None)

    def _record(self, conn, memory_id: str, action: str, before: Memory | None, after: Memory | None,
                reason: str) -> None:
        conn.execute(
            "INSERT INTO memory_history(memory_id, action, before, after, at, reason) VALUES (?, ?, ?, ?, ?, ?)",
            (memory_id, action, _dumps(before), _dumps(after), self.db.now(), reason),
        )


def _content(text: str) -> str:
    """A memory's text as stored: control characters dropped, whitespace collapsed."""
    return " ".join(clean(text).split())


def _check_category(category: str) -> None:
    if category not in CATEGORIES:
        raise InvalidInput(f"Unknown category {category!r}; use one of {', '.join(CATEGORIES)}.")


def _unit(x: float) -> float:
    return max(0.0, min(1.0, float(x)))


def _dumps(m: Memory | None) -> str | None:
    return json.dumps(snapshot(m), ensure_ascii=False) if m else None


def _loads(s: str | None) -> dict | None:
    return json.loads(s) if s else None
