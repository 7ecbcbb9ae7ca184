"""A private conversation ("无痕对话"): its messages live in this process's memory only.

`ChatService(companion, private=True)` chats through a `PrivateTranscript` instead of the database's: the
messages are never written to the database, the turn is never learned from, the memories it uses are not marked
used, and the engine is given no stable head, so it never writes the prompt cache (models/prompt_cache.py) during
it. Memories are still read for the replies. Dropping the transcript (closing the conversation) is the end of it.
"""
from __future__ import annotations

import secrets

from memory import Message, NotFound, Session, clean
from memory.storage import Transcript

PRIVATE_PREFIX = "private_"  # a private session's id: never the id of a stored session ("s_…")


class PrivateTranscript:
    """Sessions and messages kept in memory, with the part of `Transcript`'s interface a chat turn uses; the
    stored conversations are still read through it ("what did we talk about last time?")."""

    def __init__(self, saved: Transcript):
        self.saved = saved
        self._sessions: dict[str, Session] = {}
        self._messages: dict[str, list[Message]] = {}

    def create_session(self, title: str = "New chat") -> Session:
        """Start a private session (in memory)."""
        now = self.saved.db.now()  # the app clock; reading it writes nothing
        session = Session(PRIVATE_PREFIX + secrets.token_hex(6), clean(title)[:200] or "New chat", now, now, 0)
        self._sessions[session.id] = session
        self._messages[session.id] = []
        return session

    def get_session(self, session_id: str) -> Session:
        """One private session, or NotFound (a stored session cannot be continued privately)."""
        if session_id not in self._sessions:
            raise NotFound(f"No private conversation has the id {session_id!r}; a private conversation is gone "
                           "once it is closed, and a saved one cannot be continued privately.")
        return self._sessions[session_id]

    def messages(self, session_id: str, limit: int | None = None) -> list[Message]:
        """A private session's messages in order (the last `limit` if given)."""
        msgs = list(self._messages.get(session_id, []))
        return msgs[-limit:] if limit else msgs

    def add_message(self, session_id: str, role: str, content: str, memories_used: list[str] | None = None) -> Message:
        """Append a message to a private session (in memory only)."""
        self.get_session(session_id)
        message = Message("msg_" + secrets.token_hex(6), session_id, role, clean(content), self.saved.db.now(),
                          memories_used or [])
        self._messages[session_id].append(message)
        self._sessions[session_id].message_count += 1
        return message

    def close(self, session_id: str | None = None) -> None:
        """Drop one private session (None: every one): its messages are gone."""
        for sid in [session_id] if session_id else list(self._sessions):
            self._sessions.pop(sid, None)
            self._messages.pop(sid, None)

    def previous_session(self, current: str | None) -> Session | None:
        """The most recent stored session with messages (a private one is never "last time")."""
        return self.saved.previous_session(current)
