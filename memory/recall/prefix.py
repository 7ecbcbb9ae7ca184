"""The session-stable memory prefix: what the companion always knows, placed right after the fixed prompt.

llama.cpp reuses the evaluated tokens of the longest prompt prefix it saw on the previous call, so this
block must come out identical turn after turn. It is chosen and rendered once and kept until something it
shows changes: a memory in it is edited, superseded, forgotten, disabled or unpinned, or the date moves.
Reinforcement (strength, use counts, last use) does not rebuild it. Memories learned after it was built
reach a reply through per-turn retrieval, and join the prefix when a new session finds the set changed.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from memory.recall.index import line_for, ranked_for_index
from memory.recall.inject import memory_block
from memory.recall.retrieve import TokenCounter, _is_upcoming, rough_tokens
from memory.records import Memory
from memory.storage.store import MemoryStore

KEY_PEOPLE = 8
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


def shown_part(m: Memory) -> tuple:
    """What a rendered line of `m` depends on: when any of it changes, the line no longer says what is true."""
    return (m.id, m.category, m.content, m.event_date, m.pinned)


def _usable(store: MemoryStore) -> list[Memory]:
    return [m for m in store.list() if not m.disabled]


def build_prefix(store: MemoryStore, today: date, budget: int,
                 count_tokens: TokenCounter = rough_tokens) -> MemoryPrefix:
    """Profile, feedback, pinned, upcoming events and key people in full, then index lines of the rest."""
    usable = _usable(store)
    ranked = ranked_for_index(usable)
    always = [m for m in ranked if m.pinned or m.category in _ALWAYS]
    upcoming = sorted((m for m in usable if m.category == "event" and _is_upcoming(m, today)),
                      key=lambda m: m.event_date or "")
    people = [m for m in ranked if m.category == "relationship"][:KEY_PEOPLE]
    chosen, used, seen = [], 0, set()
    for m in always + upcoming + people:
        cost = count_tokens(m.content) + 6
        if m.id in seen or used + cost > budget:
            continue
        chosen.append(m)
        seen.add(m.id)
        used += cost
    rest, rest_budget = [], (budget - used) // 2
    for m in ranked:
        if m.id in seen:
            continue
        cost = count_tokens(line_for(m)) + 2
        if cost > rest_budget:
            break
        rest.append(m)
        rest_budget -= cost
    text = memory_block(chosen, today, [line_for(m) for m in rest])
    shown = chosen + rest
    return MemoryPrefix(text, frozenset(m.id for m in shown), frozenset(shown_part(m) for m in shown),
                        frozenset(shown_part(m) for m in usable), today, budget)


def prefix_is_current(prefix: MemoryPrefix, store: MemoryStore, today: date, budget: int,
                      new_session: bool = False) -> bool:
    """Whether `prefix` still says only what is true; at a new session, also whether nothing was added."""
    if prefix.today != today or prefix.budget != budget:
        return False
    if new_session:
        return frozenset(shown_part(m) for m in _usable(store)) == prefix.everything
    return prefix.shown <= frozenset(shown_part(m) for m in store.usable(ids=prefix.ids))
