"""The raw layer: chat sessions and their messages, searchable ("what did we talk about last time?")."""
from __future__ import annotations

import json
import secrets

from memory.errors import NotFound
from memory.records import Message, Session
from memory.storage.database import Database
from memory.storage.sqlcipher import OperationalError
from memory.text import clean, fts_query, index_text

_MSG = "SELECT id, session_id, role, content, created_at, memories_used FROM messages"


def _message(row) -> Message:
    return Message(row[0], row[1], row[2], row[3], row[4], json.loads(row[5] or "[]"))


class Transcript:
    """Sessions and messages in the encrypted database."""

    def __init__(self, db: Database):
        self.db = db

    def create_session(self, title: str = "New chat") -> Session:
        """Start a new session."""
        now = self.db.now()
        sid = "s_" + secrets.token_hex(6)
        with self.db.transaction() as conn:
            conn.execute("INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                         (sid, clean(title)[:200] or "New chat", now, now))
        return Session(sid, title, now, now, 0)

    def get_session(self, session_id: str) -> Session:
        """One session, or NotFound."""
        rows = self.db.read(
            "SELECT s.id, s.title, s.created_at, s.updated_at, count(m.rid) FROM sessions s "
            "LEFT JOIN messages m ON m.session_id = s.id WHERE s.id = ? GROUP BY s.id", (session_id,))
        if not rows:
            raise NotFound(f"No chat session has the id {session_id!r}.")
        return Session(*rows[0])

    def sessions(self) -> list[Session]:
        """All sessions, most recently updated first."""
        rows = self.db.read(
            "SELECT s.id, s.title, s.created_at, s.updated_at, count(m.rid) FROM sessions s "
            "LEFT JOIN messages m ON m.session_id = s.id GROUP BY s.id ORDER BY s.updated_at DESC, s.rowid DESC")
        return [Session(*r) for r in rows]

    def rename(self, session_id: str, title: str) -> None:
        """Give a session a new title."""
        self.get_session(session_id)
        with self.db.transaction() as conn:
            conn.execute("UPDATE sessions SET title = ? WHERE id = ?", (clean(title)[:200] or "New chat", session_id))

    def add_message(self, session_id: str, role: str, content: str, memories_used: list[str] | None = None) -> Message:
        """Append a message to a session (also indexed for search)."""
        now = self.db.now()
        mid = "msg_" + secrets.token_hex(6)
        content = clean(content)
        with self.db.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO messages(id, session_id, role, content, created_at, memories_used) VALUES (?, ?, ?, ?, ?, ?)",
                (mid, session_id, role, content, now, json.dumps(memories_used or [])))
            conn.execute("INSERT INTO messages_fts(rowid, text) VALUES (?, ?)", (cur.lastrowid, index_text(content)))
            conn.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))
        return Message(mid, session_id, role, content, now, memories_used or [])

    def set_memories_used(self, message_id: str, memory_ids: list[str]) -> None:
        """Record which memories shaped a reply."""
        with self.db.transaction() as conn:
            conn.execute("UPDATE messages SET memories_used = ? WHERE id = ?", (json.dumps(memory_ids), message_id))

    def messages(self, session_id: str, limit: int | None = None) -> list[Message]:
        """A session's messages in order (the last `limit` if given)."""
        rows = self.db.read(_MSG + " WHERE session_id = ? ORDER BY rid", (session_id,))
        msgs = [_message(r) for r in rows]
        return msgs[-limit:] if limit else msgs

    def delete_session(self, session_id: str) -> int:
        """Delete a session and all its messages (FTS rows too); returns how many messages went."""
        self.get_session(session_id)
        with self.db.transaction() as conn:
            rids = [r[0] for r in conn.execute("SELECT rid FROM messages WHERE session_id = ?", (session_id,))]
            conn.executemany("DELETE FROM messages_fts WHERE rowid = ?", [(r,) for r in rids])
            conn.execute("DELETE FROM messages WHERE session_id = ?", (session_id,))
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        self.db.checkpoint()
        return len(rids)

    def search(self, query: str, limit: int = 20, exclude_session: str | None = None) -> list[Message]:
        """Messages matching the query's words, best first."""
        match = fts_query(query)
        if match is None:
            return []
        try:
            rows = self.db.read(
                "SELECT m.id, m.session_id, m.role, m.content, m.created_at, m.memories_used FROM messages_fts f "
                "JOIN messages m ON m.rid = f.rowid WHERE messages_fts MATCH ? AND m.session_id IS NOT ? "
                "ORDER BY f.rank LIMIT ?", (match, exclude_session, limit))
        except OperationalError:
            return []
        return [_message(r) for r in rows]

    def previous_session(self, current: str | None) -> Session | None:
        """The most recent session other than the current one that has messages."""
        for s in self.sessions():
            if s.id != current and s.message_count:
                return s
        return None
