"""Forgetting a conversation: its transcript, the memories it alone taught, and its words on the memories other
conversations also support; then proof, like forgetting a memory (memory/storage/forgetting.py)."""
from __future__ import annotations

from dataclasses import dataclass, field

from memory.errors import NotFound
from memory.storage import sources
from memory.storage.forgetting import ForgetReceipt, forget, table_contains, wal_place
from memory.storage.store import MemoryStore
from memory.storage.transcript import Transcript
from memory.text import index_text

# A message this short ("ok", "谢谢") is in many places by chance: searching for it would prove nothing either way.
MIN_SEARCHED_BYTES = 8
RESTORED = "restored: the conversation that replaced it was forgotten"


@dataclass
class ConversationReceipt(ForgetReceipt):
    """A memory receipt (the memories it alone taught) plus the conversation's own part."""

    session: str = ""
    messages: int = 0
    kept: list[str] = field(default_factory=list)  # also supported elsewhere: they lost this conversation as a source
    restored: list[str] = field(default_factory=list)  # replaced by a memory only it taught: active again
    unsearched: int = 0  # texts too short to search for, or still said elsewhere (another conversation, a kept memory)

    def to_json(self) -> dict:
        return {"session": self.session, "messages": self.messages, **super().to_json(), "kept": self.kept,
                "restored": self.restored, "unsearched": self.unsearched}


def forget_session(store: MemoryStore, transcript: Transcript, session_id: str) -> ConversationReceipt:
    """Forget a conversation everywhere and return the receipt; NotFound if there is no such conversation."""
    try:
        session = transcript.get_session(session_id)
    except NotFound:
        raise NotFound(f"No conversation has the id {session_id!r}; it may have been forgotten or deleted "
                       "already (`companion sessions list` shows the ones there are).") from None
    messages = transcript.messages(session_id)
    said = {m.content for m in messages if m.role == "user"} | {session.title}  # the user's own words
    replies = {m.content for m in messages if m.role == "assistant"}
    linked = sources.learned_in(store.db, session_id)
    alone = [i for i in linked if sources.supporting_sessions(store.db, i) <= {session_id}]
    kept = [i for i in linked if i not in alone]
    with store.db.transaction() as conn:
        for memory_id in kept:
            said |= _drop_words(conn, store, session_id, memory_id)
        sources.leave(conn, session_id, kept)
        restored = _restore_replaced(store, alone)
        # The session prefix's layout names the conversation it was built for.
        conn.execute("DELETE FROM meta WHERE key = 'memory_prefix' AND json_extract(value, '$.session') = ?",
                     (session_id,))
    receipt = forget(store, alone)  # the memories only it taught: everywhere, checkpointed, verified
    n = transcript.delete_session(session_id)  # last: until then the conversation can be forgotten again
    wal, held = wal_place(store.db.checkpoint())
    found_in = [p for p in receipt.found_in if not p.startswith("write-ahead log")] + ([held] if held else [])
    out = ConversationReceipt(receipt.forgotten, not found_in, [], found_in,
                              [s for s in receipt.mentioned_in_sessions if s != session_id],
                              session=session_id, messages=n, kept=kept, restored=restored)
    _verify_transcript(store, out, said, replies)
    out.checked.append(wal)
    return out


def _drop_words(conn, store: MemoryStore, session_id: str, memory_id: str) -> set[str]:
    """Take this conversation's words off the history of a memory that stays; returns those words."""
    words = sources.quotes_from(store.db, session_id, memory_id)
    for quote in words:
        for column in ("before", "after"):
            conn.execute(f"UPDATE memory_history SET {column} = json_set({column}, '$.quote', NULL) WHERE memory_id = ? "
                         f"AND json_extract({column}, '$.quote') = ?", (memory_id, quote))
    return words


def _restore_replaced(store: MemoryStore, alone: list[str]) -> list[str]:
    """Memories that a memory only this conversation taught had replaced are active again, as if it was never said."""
    if not alone:
        return []
    marks = ",".join("?" * len(alone))
    rows = store.db.read(f"SELECT id FROM memories WHERE status = 'superseded' AND superseded_by IN ({marks}) "
                         f"AND id NOT IN ({marks}) ORDER BY rid", (*alone, *alone))
    for (memory_id,) in rows:
        store.update(memory_id, reason=RESTORED, status="active", valid_to=None, superseded_by=None)
    return [r[0] for r in rows]


def _verify_transcript(store: MemoryStore, receipt: ConversationReceipt, said: set[str], replies: set[str]) -> None:
    """Search every table, the transcript's included, for the conversation's words that should be nowhere now: each
    text as written and as the full-text index stores it. The conversations that still hold the user's own words
    are named in the receipt."""
    needles: list[bytes] = []
    for text in said | replies:
        if len(text.encode("utf-8")) < MIN_SEARCHED_BYTES:
            receipt.unsearched += 1
            continue
        elsewhere = _still_said_in(store, text)
        if elsewhere or _in_kept_memory(store, text):
            receipt.unsearched += 1
            if text in said:
                receipt.mentioned_in_sessions = sorted(set(receipt.mentioned_in_sessions) | elsewhere)
            continue
        forms = {text.encode("utf-8"), index_text(text).encode("utf-8")}
        needles += [form for form in forms if len(form) >= MIN_SEARCHED_BYTES]
    for (table,) in store.db.read("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        receipt.checked.append(table)
        if needles and table_contains(store, table, needles) and table not in receipt.found_in:
            receipt.found_in.append(table)
            receipt.verified = False


def _still_said_in(store: MemoryStore, text: str) -> set[str]:
    """The other conversations whose messages or titles hold these words too."""
    rows = store.db.read("SELECT DISTINCT session_id FROM messages WHERE instr(content, ?1) > 0 "
                         "UNION SELECT id FROM sessions WHERE instr(title, ?1) > 0", (text,))
    return {r[0] for r in rows}


def _in_kept_memory(store: MemoryStore, text: str) -> bool:
    """Whether a memory that stays holds these words, in its note or in the words of any of its sources."""
    return bool(store.db.read("SELECT 1 FROM memories WHERE instr(content, ?1) > 0 OR instr(quote, ?1) > 0 UNION "
                              "SELECT 1 FROM memory_sources WHERE instr(quote, ?1) > 0 LIMIT 1", (text,)))
