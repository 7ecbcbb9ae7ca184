"""The record of follow-ups: which remembered event was brought up, how, about which day, and in which message.

One row per (memory, kind, occasion): the same event is never asked about twice, and a birthday is
reminded once per year. Forgetting a memory deletes its rows (memory/storage/forgetting.py).
"""
from __future__ import annotations

from memory.storage.database import Database


class FollowUpLog:
    """Follow-ups made, in the encrypted database."""

    def __init__(self, db: Database):
        self.db = db

    def made(self, memory_ids: list[str]) -> set[tuple[str, str, str]]:
        """(memory id, kind, occasion) of every follow-up already made about these memories."""
        if not memory_ids:
            return set()
        rows = self.db.read(f"SELECT memory_id, kind, occasion FROM follow_ups WHERE memory_id IN "
                            f"({','.join('?' * len(memory_ids))})", tuple(memory_ids))
        return {(r[0], r[1], r[2]) for r in rows}

    def record(self, memory_id: str, kind: str, occasion: str, session_id: str | None = None,
               message_id: str | None = None) -> bool:
        """Record a follow-up; False (nothing written) when the same one was already made."""
        with self.db.transaction() as conn:
            cur = conn.execute("INSERT OR IGNORE INTO follow_ups(memory_id, kind, occasion, asked_at, session_id, "
                               "message_id) VALUES (?, ?, ?, ?, ?, ?)",
                               (memory_id, kind, occasion, self.db.now(), session_id, message_id))
            return cur.rowcount == 1


    def asked_about(self, message_id: str) -> str | None:
        """The memory a "how did it go?" follow-up in this message asked about (None: the message asked nothing)."""
        rows = self.db.read("SELECT memory_id FROM follow_ups WHERE message_id = ? AND kind = 'ask'", (message_id,))
        return rows[0][0] if rows else None
