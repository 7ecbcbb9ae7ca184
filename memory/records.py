"""Records of the memory subsystem: plain dataclasses with their JSON shapes."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

CATEGORIES = ("profile", "preference", "relationship", "event", "feedback")
STATUSES = ("active", "superseded", "expired", "deleted")
SOURCES = ("explicit", "stated", "inferred")


@dataclass
class Memory:
    """One atomic, declarative sentence about the user, with its bookkeeping."""

    id: str
    category: str
    content: str
    status: str = "active"
    confidence: float = 0.8
    importance: float = 0.5
    strength: float = 1.0
    source: str = "stated"
    event_date: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    last_used_at: str | None = None
    hit_count: int = 0
    pinned: bool = False
    disabled: bool = False
    superseded_by: str | None = None
    topic: str | None = None
    quote: str | None = None
    session_id: str | None = None
    message_id: str | None = None

    JSON_FIELDS = (
        "id", "category", "content", "status", "confidence", "importance", "strength", "source",
        "event_date", "valid_from", "valid_to", "created_at", "updated_at", "last_used_at",
        "hit_count", "pinned", "disabled", "superseded_by",
    )

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of docs/architecture.md (extra provenance fields excluded)."""
        return {k: getattr(self, k) for k in self.JSON_FIELDS}


@dataclass
class Candidate:
    """A memory proposed by a rule or the model, before validation and reconciliation.

    `topic` is the reconciliation key: two memories with the same topic talk about the same
    thing (e.g. "profile:name", "profile:job", "profile:city", "preference:taylor swift",
    "relationship:priya"), so a new value supersedes the old one. `polarity` is +1 for a like /
    positive state and -1 for a dislike / negation / ending.
    """

    category: str
    content: str
    quote: str
    source: str = "stated"
    confidence: float = 0.8
    importance: float = 0.5
    origin: str = "rule"
    event_date: date | None = None
    topic: str | None = None
    polarity: int = 1
    change: float = 0.0  # how sure the trained extractor is that this states a change ("no longer", 调到)
    valid_from: date | None = None  # the day a state began when the user said it ("quit coffee last week")
    context: str = ""  # the whole message, for a change whose old value is named in another clause
    said: str = ""  # the user's own words, when the quote is a short answer read with the companion's question
    keep: float | None = None  # the decision model's probability that it is worth keeping (memory/learn/decision.py)
    also: tuple[str, ...] = ()  # more of the user's words it speaks for, said apart from its quote ("…叫我诺诺")


def about(topic: str | None) -> str:
    """Whom a topic key is about: the named person of a relationship topic ("relationship:sister" → "sister"),
    else the user (slots such as "relationship:status" and topic words "relationship:~…" are the user's)."""
    kind, _, rest = (topic or "").partition(":")
    named = kind == "relationship" and rest and not rest.startswith(("~", "status", "mood"))
    return rest if named else "user"


@dataclass
class Rejection:
    """A candidate that did not pass a validator, and why."""

    content: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class HistoryEntry:
    """One change to one memory: what happened, before/after, when and why."""

    memory_id: str
    action: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    at: str
    reason: str = ""


@dataclass
class Message:
    """One chat message in a session."""

    id: str
    session_id: str
    role: str
    content: str
    created_at: str
    memories_used: list[str] = field(default_factory=list)


@dataclass
class Session:
    """One chat session."""

    id: str
    title: str
    created_at: str
    updated_at: str
    message_count: int = 0
