"""Where memories came from: every conversation (and message, and the user's words there) a memory was learned
or heard again in. A memory's own row names its first source; `memory_sources` holds them all, so forgetting a
conversation can tell the memories it alone supports from those another conversation also supports."""
from __future__ import annotations

from typing import Iterable

from memory.storage.database import Database


def record(db: Database, session_id: str, message_id: str | None, learned: Iterable[tuple[str, str | None]]) -> None:
    """Note that these (memory id, quote) were learned or heard again from this message of this conversation."""
    rows = [(memory_id, session_id, message_id, quote, db.now()) for memory_id, quote in learned]
    if not rows:
        return
    with db.transaction() as conn:
        conn.executemany("INSERT OR IGNORE INTO memory_sources(memory_id, session_id, message_id, quote, at) "
                         "VALUES (?, ?, ?, ?, ?)", rows)


def learned_in(db: Database, session_id: str) -> list[str]:
    """The ids of the memories (of any status) this conversation taught or confirmed, oldest first."""
    rows = db.read("SELECT id FROM memories WHERE session_id = ?1 OR id IN "
                   "(SELECT memory_id FROM memory_sources WHERE session_id = ?1) ORDER BY rid", (session_id,))
    return [r[0] for r in rows]


def supporting_sessions(db: Database, memory_id: str) -> set[str]:
    """Every conversation a memory was learned or heard again in (its own row's first source included)."""
    rows = db.read("SELECT session_id FROM memory_sources WHERE memory_id = ?1 UNION "
                   "SELECT session_id FROM memories WHERE id = ?1 AND session_id IS NOT NULL", (memory_id,))
    return {r[0] for r in rows}


def quotes_from(db: Database, session_id: str, memory_id: str) -> set[str]:
    """The user's words in this conversation that a memory was learned or heard again from."""
    rows = db.read("SELECT quote FROM memory_sources WHERE session_id = ?1 AND memory_id = ?2 AND quote IS NOT NULL "
                   "UNION SELECT quote FROM memories WHERE id = ?2 AND session_id = ?1 AND quote IS NOT NULL",
                   (session_id, memory_id))
    return {r[0] for r in rows}


def leave(conn, session_id: str, memory_ids: Iterable[str]) -> None:
    """These memories lose this conversation as a source (inside the caller's transaction): a memory whose row
    named it as its first source now names the next one, with that one's words; every source row of the
    conversation goes."""
    for memory_id in memory_ids:
        first = conn.execute("SELECT session_id FROM memories WHERE id = ?", (memory_id,)).fetchone()
        if first is None or first[0] != session_id:
            continue
        other = conn.execute("SELECT session_id, message_id, quote FROM memory_sources WHERE memory_id = ? "
                             "AND session_id != ? ORDER BY rid LIMIT 1", (memory_id, session_id)).fetchone()
        conn.execute("UPDATE memories SET session_id = ?, message_id = ?, quote = ? WHERE id = ?",
                     (*(other or (None, None, None)), memory_id))
    conn.execute("DELETE FROM memory_sources WHERE session_id = ?", (session_id,))
