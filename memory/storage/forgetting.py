"""Forgetting: remove a memory's text from every place it lives, then prove it is gone."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from memory.storage import vectors
from memory.storage.sqlcipher import OperationalError
from memory.storage.store import MemoryStore

# Tables that hold the raw chat transcript: forgetting a memory does not rewrite what was said;
# deleting the session does. The receipt names sessions that still mention the text. A session's
# title is the start of its first message, so it is the user's words too.
_TRANSCRIPT_TABLES = ("messages", "messages_fts", "sessions")


@dataclass
class ForgetReceipt:
    """What was forgotten, which places were checked afterwards, and whether the text was found anywhere."""

    forgotten: list[str]
    verified: bool
    checked: list[str]
    found_in: list[str] = field(default_factory=list)
    mentioned_in_sessions: list[str] = field(default_factory=list)

    def add_place(self, place: str, clean: bool) -> None:
        """Record one more place checked outside the database (a file the caller owns): clean, or the text may be there."""
        self.checked.append(place)
        if not clean:
            self.found_in.append(place)
            self.verified = False

    def to_json(self) -> dict:
        return {"forgotten": self.forgotten, "verified": self.verified, "checked": self.checked,
                "found_in": self.found_in, "mentioned_in_sessions": self.mentioned_in_sessions}


def forget(store: MemoryStore, memory_ids: list[str]) -> ForgetReceipt:
    """Delete memories everywhere (row, history, FTS, vector, logs), checkpoint the WAL, verify, return a receipt."""
    memories = [store.get(i) for i in memory_ids]
    texts = {t for m in memories for t in (m.content, m.quote) if t}
    with store.db.transaction() as conn:
        for m in memories:
            rid = conn.execute("SELECT rid FROM memories WHERE id = ?", (m.id,)).fetchone()[0]
            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (rid,))
            vectors.delete(conn, rid)  # every vector space
            conn.execute("DELETE FROM memory_history WHERE memory_id = ?", (m.id,))
            conn.execute("DELETE FROM follow_ups WHERE memory_id = ?", (m.id,))
            conn.execute("DELETE FROM memory_sources WHERE memory_id = ?", (m.id,))
            conn.execute("DELETE FROM memories WHERE rid = ?", (rid,))
            # A memory that this one had superseded points at nothing now.
            conn.execute("UPDATE memories SET superseded_by = NULL WHERE superseded_by = ?", (m.id,))
        _scrub_shared_quotes(conn, [m.quote for m in memories if m.quote])
        _scrub_logs(conn, {m.id for m in memories}, texts)
        # The index holds memories' words; the session prefix's layout (memory/recall/prefix.py) and the last
        # session's notes (app/session_notes.py) their ids.
        conn.execute("DELETE FROM meta WHERE key IN ('memory_index', 'memory_prefix', 'session_notes')")
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')")
    wal_clean = store.db.checkpoint()
    return _verify(store, [m.id for m in memories], texts, wal_clean)


def forget_all(store: MemoryStore) -> ForgetReceipt:
    """Forget every memory, whatever its status."""
    ids = [m.id for m in store.list(status="all")]
    return forget(store, ids)


def _scrub_shared_quotes(conn, quotes: list[str]) -> None:
    """Memories drawn from the same words keep their content but lose a quote that overlaps a forgotten one.

    One message can yield several memories whose quotes repeat each other ("My name is Alice and I live
    in Paris"); forgetting where the user lives must not leave it in the name memory's quote or history.
    """
    if not quotes:
        return
    for rid, quote in conn.execute("SELECT rid, quote FROM memory_sources WHERE quote IS NOT NULL").fetchall():
        if _overlaps(quote, quotes):
            conn.execute("UPDATE memory_sources SET quote = NULL WHERE rid = ?", (rid,))
    for memory_id, quote in conn.execute("SELECT id, quote FROM memories WHERE quote IS NOT NULL").fetchall():
        if _overlaps(quote, quotes):
            conn.execute("UPDATE memories SET quote = NULL WHERE id = ?", (memory_id,))
            for column in ("before", "after"):
                conn.execute(f"UPDATE memory_history SET {column} = json_set({column}, '$.quote', NULL) "
                             f"WHERE memory_id = ? AND {column} IS NOT NULL", (memory_id,))


def _overlaps(quote: str, quotes: list[str]) -> bool:
    return any(quote in q or q in quote for q in quotes)


def _scrub_logs(conn, ids: set[str], texts: set[str]) -> None:
    rows = conn.execute("SELECT rid, details FROM consolidation_log").fetchall()
    for rid, details in rows:
        try:
            items = json.loads(details)
        except ValueError:
            items = []
        kept = [item for item in items if not _mentions(item, ids, texts)]
        if len(kept) != len(items):
            conn.execute("UPDATE consolidation_log SET details = ? WHERE rid = ?", (json.dumps(kept), rid))


def _mentions(item, ids: set[str], texts: set[str]) -> bool:
    blob = json.dumps(item, ensure_ascii=False)
    return any(i in blob for i in ids) or any(t in blob for t in texts)


def _verify(store: MemoryStore, ids: list[str], texts: set[str], wal_clean: bool) -> ForgetReceipt:
    needles = [t.encode("utf-8") for t in texts]
    checked, found_in = [], []
    tables = [r[0] for r in store.db.read("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for table in tables:
        if table in _TRANSCRIPT_TABLES or table.startswith("messages_fts_"):
            continue
        checked.append(table)
        if table_contains(store, table, needles):
            found_in.append(table)
    sessions = _sessions_mentioning(store, texts)
    wal, held = wal_place(wal_clean)
    checked.append(wal)
    found_in.extend([held] if held else [])
    return ForgetReceipt(forgotten=ids, verified=not found_in, checked=checked, found_in=found_in,
                         mentioned_in_sessions=sessions)


def wal_place(wal_clean: bool) -> tuple[str, str | None]:
    """The write-ahead log as a place checked, and as a place the text may still be when it was not checkpointed
    (a reader pinned older pages there; they go when it closes and the WAL is checkpointed)."""
    if wal_clean:
        return "write-ahead log (checkpointed)", None
    return "write-ahead log", "write-ahead log (another connection is still reading it)"


def table_contains(store: MemoryStore, table: str, needles: list[bytes]) -> bool:
    """Whether any value in the table holds one of the needles (a table SQL cannot scan counts as clean)."""
    try:
        rows = store.db.read(f'SELECT * FROM "{table}"')
    except OperationalError:  # virtual tables that cannot be scanned directly are covered by their shadow tables
        return False
    values = [value.encode("utf-8") if isinstance(value, str) else value
              for row in rows for value in row if isinstance(value, (str, bytes)) and value]
    # The values joined by a NUL byte, which stored text never holds (clean() drops control characters), so no needle
    # matches across two values: each needle is one search of the table instead of one per value (forgetting a
    # conversation of 100 messages in a profile of 50 conversations and 2,000 memories: 5.7 s -> 1.1 s, one run each).
    blob = b"\0".join(values)
    return any(n in blob if b"\0" not in n else any(n in v for v in values) for n in needles)


def _sessions_mentioning(store: MemoryStore, texts: set[str]) -> list[str]:
    found: set[str] = set()
    for text in texts:
        rows = store.db.read("SELECT DISTINCT session_id FROM messages WHERE instr(content, ?) > 0", (text,))
        found.update(r[0] for r in rows)
    return sorted(found)
