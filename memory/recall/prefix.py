"""The session-stable memory prefix: what the companion always knows, placed right after the fixed prompt.

llama.cpp reuses the evaluated tokens of the longest prompt prefix it saw on the previous call, so this
block must come out identical turn after turn. It is chosen and rendered once and kept until something it
shows changes: a memory in it is edited, superseded, forgotten, disabled or unpinned, or the date moves.
Reinforcement (strength, use counts, last use) does not rebuild it. Memories learned after it was built
reach a reply through per-turn retrieval, and join the prefix when a new session finds the set changed.

It holds what every reply may need (profile, feedback, pinned, upcoming events, key people), each line in the words a
note uses, and nothing else: every token of it is attended to by every token after it, on every turn, so it makes
every first word slower (~4.5 ms per 100 SmolLM2 tokens on this 2-core machine). The rest comes when a message calls
for it, through per-turn retrieval.

Which memories a prefix holds (their ids, never their words) is kept in meta 'memory_prefix' with the session it was
built for, so that after a restart the same session gets the same prefix back while it is still true: the engine's
saved prompt state is of that prefix, and a prefix that took in what was learned since would miss it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from memory.recall.index import ranked_for_index
from memory.recall.inject import memory_block, note_line
from memory.recall.retrieve import TokenCounter, _is_upcoming, rough_tokens
from memory.records import Memory
from memory.storage.store import MemoryStore
from memory.storage.vectors import _meta, _set_meta  # the one pair of key/value helpers for the meta table

KEY_PEOPLE = 8
LAYOUT_KEY = "memory_prefix"
NOTES_KEY = "session_notes"  # the last session's per-turn notes (app/session_notes.py): ids only
_ALWAYS = ("profile", "feedback")


@dataclass(frozen=True)
class MemoryPrefix:
    """A rendered prefix block and what it was made from."""

    text: str
    ids: frozenset[str]  # memories whose full line or index line is in the text
    shown: frozenset[tuple]  # the part of each of those memories that the text depends on
    everything: frozenset[tuple]  # the same for every usable memory when it was built
    today: date
    budget: int
    full: tuple[str, ...] = ()  # ids of the memories shown, in order


def shown_part(m: Memory) -> tuple:
    """What a rendered line of `m` depends on: when any of it changes, the line no longer says what is true."""
    return (m.id, m.category, m.content, m.event_date, m.pinned)


def _usable(store: MemoryStore) -> list[Memory]:
    return [m for m in store.list() if not m.disabled]


def build_prefix(store: MemoryStore, today: date, budget: int,
                 count_tokens: TokenCounter = rough_tokens) -> MemoryPrefix:
    """Profile, feedback, pinned, upcoming events and key people, as many as the budget holds."""
    usable = _usable(store)
    ranked = ranked_for_index(usable)
    always = [m for m in ranked if m.pinned or m.category in _ALWAYS]
    upcoming = sorted((m for m in usable if m.category == "event" and _is_upcoming(m, today)),
                      key=lambda m: m.event_date or "")
    people = [m for m in ranked if m.category == "relationship"][:KEY_PEOPLE]
    chosen, used, seen = [], 0, set()
    for m in always + upcoming + people:
        cost = count_tokens(note_line(m)) + 1
        if m.id in seen or used + cost > budget:
            continue
        chosen.append(m)
        seen.add(m.id)
        used += cost
    return _rendered(chosen, usable, today, budget)


def _rendered(shown: list[Memory], usable: list[Memory], today: date, budget: int) -> MemoryPrefix:
    return MemoryPrefix(memory_block(shown, today), frozenset(m.id for m in shown),
                        frozenset(shown_part(m) for m in shown), frozenset(shown_part(m) for m in usable), today,
                        budget, tuple(m.id for m in shown))


def save_layout(store: MemoryStore, prefix: MemoryPrefix, session_id: str) -> None:
    """Keep which memories `prefix` shows, for `restored_prefix` after a restart."""
    layout = {"session": session_id, "today": prefix.today.isoformat(), "budget": prefix.budget,
              "full": list(prefix.full)}
    with store.db.transaction() as conn:
        _set_meta(conn, LAYOUT_KEY, json.dumps(layout))


def restored_prefix(store: MemoryStore, session_id: str, today: date, budget: int) -> MemoryPrefix | None:
    """The prefix this session had before a restart, rendered from its memories as they are now; None when it was
    kept for another session, day or budget, or when one of its memories is gone, disabled or superseded."""
    with store.db.lock:
        saved = _meta(store.db.conn, LAYOUT_KEY)
    try:
        layout = json.loads(saved) if saved else {}
        if (layout.get("session"), layout.get("today"), layout.get("budget")) != (session_id, today.isoformat(), budget):
            return None
        full = [str(i) for i in layout["full"]]
    except (ValueError, KeyError, TypeError):
        return None
    if layout.get("lines"):  # kept by a version whose prefix had index lines: that prefix is not rendered any more
        return None
    by_id = {m.id: m for m in store.usable(ids=full)}  # those alone: after a restart this is on the first word's path
    if any(i not in by_id for i in full):
        return None
    shown = [by_id[i] for i in full]  # what was usable when it was built is not known: a new session rebuilds
    return _rendered(shown, shown, today, budget)


def prefix_is_current(prefix: MemoryPrefix, store: MemoryStore, today: date, budget: int,
                      new_session: bool = False) -> bool:
    """Whether `prefix` still says only what is true; at a new session, also whether nothing was added."""
    if prefix.today != today or prefix.budget != budget:
        return False
    if new_session:
        return frozenset(shown_part(m) for m in _usable(store)) == prefix.everything
    return prefix.shown <= frozenset(shown_part(m) for m in store.usable(ids=prefix.ids))


def save_notes_layout(store: MemoryStore, session_id: str, today: date, notes: list[tuple[str, list[str]]]) -> None:
    """Keep which memories (ids) each per-turn note of a session shows and the message it goes before, for
    `notes_layout` after a restart; one session at a time. Forgetting deletes it with the prefix's layout."""
    layout = {"session": session_id, "today": today.isoformat(), "notes": [[b, list(ids)] for b, ids in notes]}
    with store.db.transaction() as conn:
        _set_meta(conn, NOTES_KEY, json.dumps(layout))


def notes_layout(store: MemoryStore, session_id: str, today: date) -> list[tuple[str, list[str]]]:
    """What `save_notes_layout` kept for this session and day (message id, memory ids), else []."""
    with store.db.lock:
        saved = _meta(store.db.conn, NOTES_KEY)
    try:
        layout = json.loads(saved) if saved else {}
        if (layout.get("session"), layout.get("today")) != (session_id, today.isoformat()):
            return []
        return [(str(before), [str(i) for i in ids]) for before, ids in layout["notes"]]
    except (ValueError, KeyError, TypeError):
        return []
