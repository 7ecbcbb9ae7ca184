"""What a memory says of its topic: the predicate of its structure ("likes", "works as", "lives in", "stopped",
"plans on"), and the value it gives the topic.

A memory's structure (docs: ARCHITECTURE.md, "Each memory is one fact, stored as its structure") is its topic key,
predicate, value, polarity and whom it is about. The topic key and polarity come from the proposer (a rule's slot,
the heads' topic words and polarity head); the predicate follows from them: a slot names its own predicate (a job is
worked, a city lived in), a taste is liked or disliked, a stated change started or stopped, an event is on its date.
The value is what the topic key holds past its slot ("preference:~tonkotsu ramen" → "tonkotsu ramen"); a slot's
value is left to the note, which says it in the user's words.
"""
from __future__ import annotations

from datetime import date

from memory.learn.thresholds import CHANGE_CONFIDENCE

# A slot's own predicate, positive and negative ("not vegetarian any more" is a diet too).
SLOT_PREDICATES = {
    "profile:name": ("is named", "is not named"),
    "profile:age": ("is aged", "is aged"),
    "profile:job": ("works as", "no longer works as"),
    "profile:study": ("studies", "no longer studies"),
    "profile:city": ("lives in", "no longer lives in"),
    "profile:hometown": ("comes from", "does not come from"),
    "profile:diet": ("eats", "does not eat"),
    "profile:allergy": ("is allergic to", "is not allergic to"),
    "profile:routine": ("does regularly", "no longer does"),
    "profile:plan": ("plans to", "no longer plans to"),
    "profile:household": ("lives with", "no longer lives with"),
    "relationship:status": ("is with", "broke up with"),
    "relationship:mood": ("feels", "feels"),
    "feedback:address": ("wants to be called", "does not want to be called"),
}
PREDICATES = tuple(sorted({p for pair in SLOT_PREDICATES.values() for p in pair} | {
    "likes", "dislikes", "started", "stopped", "is", "is not", "has", "no longer has", "plans on", "happened on",
    "asks the companion to", "asks the companion not to"}))


def predicate(category: str, topic: str | None, polarity: int, change: float = 0.0,
              event_date: date | None = None, today: date | None = None) -> str:
    """The predicate of a memory with this category, topic key, polarity (+1 / -1) and change probability; an event
    `plans on` its date (`happened on` once it is before `today`)."""
    negative = polarity < 0
    if category == "event":
        return "happened on" if event_date is not None and today is not None and event_date < today else "plans on"
    if category == "feedback":
        slot = SLOT_PREDICATES.get(topic or "")
        return slot[negative] if slot else ("asks the companion not to" if negative else "asks the companion to")
    slot = SLOT_PREDICATES.get(topic or "")
    if slot is not None:
        return slot[negative]
    if change >= CHANGE_CONFIDENCE:
        return "stopped" if negative else "started"
    if category == "preference":
        return "dislikes" if negative else "likes"
    if category == "relationship":
        return "no longer has" if negative else "has"
    return "is not" if negative else "is"


def value(topic: str | None) -> str | None:
    """What a topic key names past its category ("preference:~tonkotsu ramen" → "tonkotsu ramen",
    "relationship:sister" → "sister"); None for a slot ("profile:job"), whose value the note says."""
    kind, _, rest = (topic or "").partition(":")
    if not rest or f"{kind}:{rest}" in SLOT_PREDICATES:
        return None
    return rest.lstrip("~") or None
