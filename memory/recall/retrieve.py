"""Choosing what to remember for one reply: relevant, always-on and upcoming memories within a budget."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Callable

from memory.recall.hybrid import Hit, QueryVectors, Weights, search, search_text
from memory.records import Memory
from memory.storage.store import MemoryStore

TokenCounter = Callable[[str], int]
UPCOMING_DAYS = 14
PER_TOPIC = 2
_ALWAYS = ("profile", "feedback")
_CJK = re.compile(r"[\u3400-\u9fff]")


def rough_tokens(text: str) -> int:
    """A tokenizer-free estimate: ~4 characters per token for Latin text, ~1 per Chinese character."""
    cjk = len(_CJK.findall(text))
    return cjk + (len(text) - cjk) // 4 + 1


@dataclass(frozen=True)
class RetrievalSettings:
    """Tunable knobs of retrieval (from the app's settings)."""

    weights: Weights = Weights()
    relevance_floor: float = 0.35
    budget_tokens: int = 1500


def select(store: MemoryStore, query: str, today: date, settings: RetrievalSettings = RetrievalSettings(),
           count_tokens: TokenCounter = rough_tokens, embedded: QueryVectors | None = None) -> list[Memory]:
    """The memories to inject for this message, most important first, within the token budget.

    `embedded`: this query's vectors computed ahead (`query_vectors`, e.g. while the message was typed); used
    only when they are of exactly this text."""
    given = embedded if embedded is not None and embedded.text == search_text(query) else None
    hits = [h for h in search(store, query, k=20, weights=settings.weights, include_disabled=False,
                              query_vector=given.main if given else None,
                              multilingual_vector=given.multilingual if given else None)
            if h.relevance >= settings.relevance_floor]
    always = store.usable(always=_ALWAYS)
    upcoming = [m for m in store.list(category="event") if not m.disabled and _is_upcoming(m, today)]
    ordered = _order(hits, always, upcoming)
    return _within_budget(_cap_per_topic(ordered), settings.budget_tokens, count_tokens)


def _is_upcoming(m: Memory, today: date) -> bool:
    try:
        when = date.fromisoformat(m.event_date) if m.event_date else None
    except ValueError:
        return False
    return when is not None and today <= when <= today + timedelta(days=UPCOMING_DAYS)


def _order(hits: list[Hit], always: list[Memory], upcoming: list[Memory]) -> list[Memory]:
    """Profile and feedback first, then pinned and upcoming, then the rest by score; no repeats."""
    seen: set[str] = set()
    out: list[Memory] = []
    relevant_always = [h.memory for h in hits if h.memory.category in _ALWAYS]
    first = relevant_always + [m for m in always if m.category in _ALWAYS]
    second = [m for m in always if m.pinned] + upcoming + [h.memory for h in hits]
    for m in first + second:
        if m.id not in seen:
            seen.add(m.id)
            out.append(m)
    return out


def _cap_per_topic(memories: list[Memory]) -> list[Memory]:
    counts: dict[str, int] = {}
    out = []
    for m in memories:
        key = m.topic or m.id
        if counts.get(key, 0) >= PER_TOPIC:
            continue
        counts[key] = counts.get(key, 0) + 1
        out.append(m)
    return out


def _within_budget(memories: list[Memory], budget: int, count_tokens: TokenCounter) -> list[Memory]:
    out, used = [], 0
    for m in memories:
        cost = count_tokens(m.content) + 6
        if used + cost > budget:
            continue
        out.append(m)
        used += cost
    return out
