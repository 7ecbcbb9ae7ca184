"""Other readings of a clause: the same words as each category the heads also find likely.

The category head is often torn between two ("my sister lives in Leeds": relationship or profile; "I'm a
morning person": profile or preference). A clause candidate is therefore proposed once per category the heads
give at least READING_FLOOR, and the decision model (memory/learn/decision.py) keeps the reading it finds the
surest. Events are left out both ways: an event is a dated note, made by the date stage, not a relabelled clause.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from memory.learn.classifier import ClauseScore
from memory.learn.clause_memory import IMPORTANCE, render, topic_key
from memory.learn.clauses import overlap
from memory.learn.decision import OWN_WORDS, READING, quoted_clauses
from memory.learn.thresholds import READING_FLOOR
from memory.records import CATEGORIES, Candidate

_RELABELLED = tuple(c for c in CATEGORIES if c != "event")
NAME_SLOT = "profile:name"


def other_readings(c: Candidate, scores: Sequence[ClauseScore], text: str) -> list[Candidate]:
    """The candidate read as each other category (not event) the heads give at least READING_FLOOR on its clauses."""
    if c.category == "event" or not c.quote:
        return []
    covered = quoted_clauses(c, scores, text)
    if not covered:
        return []
    out = []
    for category in _RELABELLED:
        p = sum(s.category_probability(category) for s in covered) / len(covered)
        if category != c.category and p >= READING_FLOOR:
            out.append(replace(c, category=category, topic=topic_key(category, c.quote), importance=IMPORTANCE[category],
                               origin=c.origin + READING + category))
    return out


def in_own_words(c: Candidate, others: Sequence[Candidate], text: str) -> list[Candidate]:
    """A rule's note said instead in the user's own words (made neutral), with the rule's category and topic: a
    template can lose what the fact was about ("职业是程序员" for "我是个程序员 做安卓开发的"), and the decision
    model keeps whichever of the two it finds surer. Events keep the rule's words, which carry the date; what
    the user asked to be remembered keeps the rule's note; and words another candidate also quotes are that
    one's fact ("my name is Alice and I live in Zqxburg"): forgetting it must leave no trace in this note. A name
    is the rule's to say: "Name is Gwen", not the user's "I'm Gwen" made "They are Gwen"."""
    if (c.category == "event" or c.source == "explicit" or not c.quote or c.topic == NAME_SLOT
            or _shares_words(c, others, text)):
        return []
    own = render(c.quote)
    if not own or own.casefold() == c.content.casefold():
        return []
    return [replace(c, content=own, origin=c.origin + OWN_WORDS)]


def _shares_words(c: Candidate, others: Sequence[Candidate], text: str) -> bool:
    """Does another candidate quote words of the message that this one quotes too?"""
    at = text.find(c.quote)
    for o in others:
        if o is c or not o.quote:
            continue
        theirs = text.find(o.quote)
        if o.quote in c.quote or c.quote in o.quote or (
                at >= 0 and theirs >= 0 and overlap((at, at + len(c.quote)), (theirs, theirs + len(o.quote))) > 0):
            return True
    return False
