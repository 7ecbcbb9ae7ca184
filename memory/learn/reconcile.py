"""Reconciliation: a validated candidate against what is stored → reinforce, supersede, or add."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from memory.learn.clause_memory import CHANGE_ONLY, SLOT_CONFIDENCE, TOPIC_WORDS_MARK, topic_words
from memory.learn.supersede import MAX_REPLACED, Replacements
from memory.learn.thresholds import CHANGE_CONFIDENCE, CHANGE_ONLY_PROBABILITY, DUPLICATE_COSINE, MEANING_FLOOR, MEANING_LINK
from memory.records import Candidate, Memory, about
from memory.storage import vectors
from memory.storage.store import MemoryStore, new_id
from memory.text import has_cjk, has_negation

_RANK = {"inferred": 0, "stated": 1, "explicit": 2}


@dataclass
class Decision:
    """What reconciliation will do with one candidate."""

    action: str  # "added" | "reinforced" | "superseded" | "rejected"
    memory: Memory
    replaces: list[Memory]
    reason: str = ""


def decide(store: MemoryStore, cand: Candidate, today: date, vector: list[float],
           fresh: frozenset[str] = frozenset(), replacements: Replacements | None = None,
           active: list[Memory] | None = None) -> Decision:
    """Compare a candidate with the active memories and decide, without writing anything.

    `fresh` are the memories written from the same message: a message never replaces what it just said
    by a looser match than the exact topic key. With `replacements` (the trained pair model), what a
    candidate replaces beyond its exact topic key is the model's call; without it (rules only), only the exact
    topic key replaces. `active`: the active memories, when the
    caller read them once for a whole message (else they are read here)."""
    new = memory_from(cand, today)
    duplicate = _near_duplicate(store, cand, vector, active)
    if duplicate is not None:
        return Decision("reinforced", duplicate, [])
    same_topic = [m for m in store.by_topic(cand.topic) if m.category == cand.category] if cand.topic else []
    change_only = cand.origin.startswith(CHANGE_ONLY)
    if not same_topic and replacements is not None:
        stored = [m for m in (store.list(status="active") if active is None else active) if m.id not in fresh]
        same_topic = _naming_its_topic(cand, stored) or ([] if change_only else _in_its_slot(cand, stored, replacements))
    if not same_topic and replacements is not None and replacements.available:
        stored = [m for m in (store.list(status="active") if active is None else active) if m.id not in fresh]
        found = replacements.replaced(cand, stored, CHANGE_ONLY_PROBABILITY if change_only else None)
        same_topic = [m for m in found if not _restates(cand, m, replacements)
                      and _kept_link(store, cand, m, replacements, change_only)]
    if not same_topic and change_only:
        why = "a weak clause" if cand.keep is None else f"the decision model does not keep it on its own (p {cand.keep:.2f}):"
        return Decision("rejected", new, [], f"{why} kept only when it changes something remembered")
    if not same_topic:
        return Decision("added", new, [])
    stronger = [m for m in same_topic if _RANK.get(m.source, 1) > _RANK.get(cand.source, 1)]
    if stronger:
        return Decision("rejected", new, [], f"conflicts with a {stronger[0].source} memory ({stronger[0].id})")
    if cand.polarity < 0 or cand.change >= CHANGE_CONFIDENCE:
        new.content = _with_since(new.content, cand.valid_from or today)  # the day said, else the day told
    return Decision("superseded", new, same_topic, f"changed on {today.isoformat()}")


def apply(store: MemoryStore, decision: Decision, vector: list[float], why: str) -> Memory:
    """Carry out a decision in one transaction (with history rows)."""
    with store.db.transaction():
        if decision.action == "reinforced":
            return store.reinforce(decision.memory.id, reason=f"said again: {why}")
        if decision.action == "added":
            return store.add(decision.memory, reason=why, vector=vector)
        added = store.add(decision.memory, reason=f"{why}; replaces {', '.join(m.id for m in decision.replaces)}",
                          vector=vector)
        for old in decision.replaces:
            # it ended when the new state began (the day the user said, else today), never before it began itself
            ended = max(decision.memory.valid_from or "", old.valid_from or "") or None
            store.update(old.id, reason=f"superseded by {added.id}: {decision.reason}", status="superseded",
                         valid_to=ended, superseded_by=added.id)
        return added


def memory_from(cand: Candidate, today: date) -> Memory:
    return Memory(
        id=new_id(), category=cand.category, content=cand.content, confidence=cand.confidence,
        importance=cand.importance, source=cand.source,
        event_date=cand.event_date.isoformat() if cand.event_date else None,
        valid_from=(cand.valid_from or today).isoformat(), topic=cand.topic, quote=cand.said or cand.quote,
    )


def _shares_topic_words(cand: Candidate, old: Memory, with_message: bool = True) -> bool:
    """Does the clause (or, `with_message`, its message) name something the memory names?"""
    words = set(topic_words(cand.quote or cand.content)) | set(topic_words(cand.context or "") if with_message else ())
    return bool(words & set(topic_words(old.quote or old.content)))


def _linked(cand: Candidate, old: Memory, replacements: Replacements, change_only: bool) -> bool:
    """Is there more than the pair model's say-so between a clause and a memory it would replace? A shared word
    always counts; a clause kept only as a change needs one. Otherwise a stated change, a turned polarity ("loves
    sushi" / "raw fish isn't my thing"), or the same one-at-a-time slot (a new job, a new partner) does. Without
    any, a clause about something else ("don't joke about my dad's illness") replaced what sat nearest to it
    ("wants a casual tone") in a full memory: scripts/eval_bystanders.py counts those."""
    if _shares_topic_words(cand, old):
        return True
    if change_only:
        return False
    if cand.change >= CHANGE_CONFIDENCE or has_negation(old.content) != (cand.polarity < 0):
        return True
    return _same_slot(cand, old, replacements)


def _kept_link(store: MemoryStore, cand: Candidate, old: Memory, replacements: Replacements, change_only: bool) -> bool:
    """The pair model's replacement stands on a shared word, or on closeness in meaning, or on a weaker link (a stated
    change, a turned polarity, the same slot) together with some closeness."""
    if _shares_topic_words(cand, old):
        return True
    close = _closeness(store, cand, old, replacements)
    if close is None:
        return _linked(cand, old, replacements, change_only)
    return close >= MEANING_LINK or (close >= MEANING_FLOOR and _linked(cand, old, replacements, change_only))


def _closeness(store: MemoryStore, cand: Candidate, old: Memory, replacements: Replacements) -> float | None:
    """How close in meaning the clause, or the message it came in, is to the memory: the larger multilingual cosine
    (both languages, and across them); None without a multilingual space. The texts are embedded through the
    trained extractor when it reads the same space: it has most of them from this turn already, and keeps them for
    the next memory asked about (the pair model proposes one to three, and only when no word links them)."""
    if store.multilingual is None:
        return None
    texts = [t for t in (cand.quote or cand.content, cand.context) if t]
    with store.db.lock:
        conn = store.db.conn
        if not vectors.table_exists(conn, vectors.MULTILINGUAL):
            return None
        rid = store.rid_of(old.id)
    reader = replacements.extractor
    query = reader.sentence_vectors(texts) if reader.encoder is store.multilingual else store.multilingual.embed(texts)
    with store.db.lock:
        close = [vectors.similarity(store.db.conn, q, [rid], vectors.MULTILINGUAL).get(rid, 0.0) for q in query]
    return max(close, default=0.0)


def _naming_its_topic(cand: Candidate, stored: list[Memory]) -> list[Memory]:
    """The memories of the candidate's category whose words name the thing its topic key names, when the candidate
    states a change of it: "原神退坑了" (preference:原神) retires "周末基本都窝在家里打原神" though the clause memory's
    key is its first topic words. A slot ("profile:job") or topic words ("~…") name no thing; news of another person
    is not a change of the user's own."""
    kind, _, thing = (cand.topic or "").partition(":")
    if (not thing or TOPIC_WORDS_MARK in thing or ":" in thing or about(cand.topic) != "user"
            or cand.change < CHANGE_CONFIDENCE or len(thing) < (2 if has_cjk(thing) else 3)):
        return []
    named = [m for m in stored if m.category == cand.category == kind and _names(m.quote or m.content, thing)]
    return named[:MAX_REPLACED]


def _in_its_slot(cand: Candidate, stored: list[Memory], replacements: Replacements) -> list[Memory]:
    """The memories holding the old value of the one-at-a-time attribute a stated change gives a new value of, when
    the new one is said without the old ("裸辞了" after "在一家硬件公司当测试", "two months into Denver life"): the
    candidate's topic is that slot ("profile:job") and the slot head reads the memory as the same slot. A relationship
    status changes this way only when it ends ("我们分了" retires "跟男朋友在一起三年啦 他叫周航"); news of an engagement
    or a wedding keeps who the partner is. Not for a clause kept only as a change (the caller's): a weak clause needs a
    shared word to replace anything (bystanders retired for nothing on the inner split, 20 each: 128 with, 125 without,
    changes superseded 67/79 either way)."""
    slot = cand.topic or ""
    if (not replacements.available or slot not in replacements.extractor.slots or cand.change < CHANGE_CONFIDENCE
            or (slot == "relationship:status" and cand.polarity >= 0)):
        return []
    return [m for m in stored if m.category == cand.category
            and (read := replacements.slot_of(m))[0] == slot and read[1] >= SLOT_CONFIDENCE][:MAX_REPLACED]


def _names(text: str, thing: str) -> bool:
    """Does the text name the thing (a Chinese name inside it, else a word of it)?"""
    if has_cjk(thing):
        return thing in text
    return thing.casefold() in {w.casefold() for w in topic_words(text)}


def _restates(cand: Candidate, old: Memory, replacements: Replacements) -> bool:
    """A fact that speaks of what a stored fact already says, with nothing changed: both about the user or their
    people (tastes turn without a change word: "how did I ever hate these"), no change stated, no negation in
    either, and the memory's own words in it ("Works as a nurse at a hospital" / "had a long day at the
    hospital"). It is news of the same thing, not a new value of it, so it replaces nothing. Unless both fill the
    same one-at-a-time slot: then it is the slot's new value, said without a change word ("我老家其实是赣州旁边的梅州"
    after "老家是江西赣州的", a correction of the user's own words)."""
    facts = ("profile", "relationship")
    if cand.category not in facts or old.category not in facts or cand.change >= CHANGE_CONFIDENCE:
        return False
    if cand.polarity < 0 or has_negation(cand.quote or cand.content) or has_negation(old.content):
        return False
    return _shares_topic_words(cand, old, with_message=False) and not _same_slot(cand, old, replacements)


def _same_slot(cand: Candidate, old: Memory, replacements: Replacements) -> bool:
    """Is the candidate's topic a one-at-a-time slot ("profile:city") that the slot head reads the memory as too?"""
    slot = cand.topic or ""
    if not slot or TOPIC_WORDS_MARK in slot or ":" not in slot:
        return False
    old_slot, old_p = replacements.slot_of(old)
    return old_slot == slot and old_p >= SLOT_CONFIDENCE


def _near_duplicate(store: MemoryStore, cand: Candidate, vector: list[float],
                    active: list[Memory] | None = None) -> Memory | None:
    with store.db.lock:
        near = vectors.knn(store.db.conn, vector, 5)
    found = store.by_rids([rid for rid, cos in near if cos >= DUPLICATE_COSINE])
    for m in found.values():
        same_event = cand.category != "event" or m.event_date == (cand.event_date.isoformat() if cand.event_date else None)
        same_polarity = has_negation(m.content) == has_negation(cand.content)
        if m.status == "active" and m.category == cand.category and same_event and same_polarity:
            return m
    pool = store.list(category=cand.category) if active is None else [m for m in active if m.category == cand.category]
    exact = [m for m in pool if m.content.casefold() == cand.content.casefold()]
    return exact[0] if exact else None


def _with_since(content: str, today: date) -> str:
    stamp = today.isoformat()
    if stamp in content:
        return content
    return f"{content}（自{stamp}起）" if has_cjk(content) else f"{content} (since {stamp})"
