"""Per-turn memories that stay where they were first shown in a session, so their evaluated tokens are reused.

A memory retrieved for one message (and not in the session's memory prefix) is shown as a short note just before
that message. On later turns of the same session the note stays at that spot, worded the same, instead of moving
after the newest message, where llama.cpp would evaluate it again on every turn; a memory a note holds is not
offered in the per-turn tail again. A note loses a memory as soon as that memory is edited, superseded, disabled or
forgotten, or joins a rebuilt prefix, and every note goes when the date changes: a note never shows what is no longer
true. Notes live in memory for the last few sessions; the last session's also in meta 'session_notes' (which message
each note goes before and its memories' ids, never words; forgetting deletes it), so that after a restart that
conversation's prompt comes out as before and the engine's saved state of it is reused (models/prompt_state.py).
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import date

from memory import Memory
from memory.recall import memory_tail, notes_layout, save_notes_layout, shown_part
from memory.storage import MemoryStore

_SESSIONS_KEPT = 8


@dataclass(frozen=True)
class Note:
    """A rendered note and what it shows; it sits just before the user message `before`."""

    before: str
    memories: tuple[Memory, ...]
    text: str


class SessionNotes:
    """The notes of the last few sessions, each in the order the messages they precede came."""

    def __init__(self, keep: MemoryStore | None = None) -> None:
        """keep: the store whose meta holds the last session's notes across restarts (None: in memory only)."""
        self._sessions: OrderedDict[str, list[Note]] = OrderedDict()
        self._today: date | None = None
        self._keep = keep

    def current(self, session_id: str, store: MemoryStore, today: date, prefix_ids: frozenset[str]) -> list[Note]:
        """This session's notes, without what is no longer true or is now in the prefix."""
        if today != self._today:
            self._sessions.clear()
            self._today = today
        notes = self._sessions.get(session_id)
        if notes is None and self._keep is not None:
            notes = self._sessions[session_id] = self._restored(session_id, today)
        if not notes:
            return []
        self._sessions.move_to_end(session_id)
        live = {shown_part(m) for m in store.usable(ids={m.id for n in notes for m in n.memories})}
        kept = []
        for note in notes:
            still = tuple(m for m in note.memories if shown_part(m) in live and m.id not in prefix_ids)
            if still == note.memories:
                kept.append(note)
            elif still:
                kept.append(Note(note.before, still, memory_tail(list(still))))
        self._sessions[session_id] = kept
        if kept != notes:
            self._save(session_id)
        return kept

    def drop(self, session_id: str, before: set[str]) -> None:
        """Forget the notes of these messages (cut from the front of a long conversation)."""
        if session_id in self._sessions:
            self._sessions[session_id] = [n for n in self._sessions[session_id] if n.before not in before]
            self._save(session_id)

    def add(self, session_id: str, before: str, memories: list[Memory], today: date) -> Note | None:
        """A note of these memories before message `before`, kept for the session's later turns."""
        if not memories:
            return None
        if today != self._today:
            self._sessions.clear()
            self._today = today
        note = Note(before, tuple(memories), memory_tail(memories))
        notes = self._sessions.setdefault(session_id, [])
        notes[:] = [n for n in notes if n.before != before] + [note]  # a message prepared again replaces its note
        self._sessions.move_to_end(session_id)
        while len(self._sessions) > _SESSIONS_KEPT:
            self._sessions.popitem(last=False)
        self._save(session_id)
        return note

    def _save(self, session_id: str) -> None:
        if self._keep is not None and self._today is not None:
            save_notes_layout(self._keep, session_id, self._today,
                              [(n.before, [m.id for m in n.memories]) for n in self._sessions.get(session_id, [])])

    def _restored(self, session_id: str, today: date) -> list[Note]:
        """The notes this session had before a restart, from its memories as they are now ([] if none or another
        session's or day's)."""
        assert self._keep is not None
        wanted = notes_layout(self._keep, session_id, today)
        by_id = {m.id: m for m in self._keep.usable(ids={i for _, ids in wanted for i in ids})}
        notes = []
        for before, ids in wanted:
            memories = tuple(by_id[i] for i in ids if i in by_id)
            if memories:
                notes.append(Note(before, memories, memory_tail(list(memories))))
        return notes
