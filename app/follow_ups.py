"""Follow-ups: a conversation may open with one short message about a remembered event (issue 34, item 1).

- an event 1–7 days ago: "Last time you mentioned your driving test on Friday. How did it go?";
- an event today or tomorrow: good luck;
- someone's birthday today or tomorrow (every year, from the month and day): a reminder.

The sentence is built from the memory by fixed templates in the conversation's language, so it is right
with any chat model (none is asked). Each (event, kind, day) is brought up once: the follow-up is saved
as the companion's first message of a new conversation, with the memory it came from as that message's
"used" memory, and recorded in the `follow_ups` table in the same transaction. Because it is the
companion's previous message, the user's answer is read by extraction with it as context.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from app.companion import Companion
from app.persona_language import message_language, ui_language
from memory import Memory
from memory.storage import FollowUpLog

ASK_DAYS = range(1, 8)  # an event this many days ago, never followed up, is asked about
LUCK_DAYS = (0, 1)  # today, tomorrow
_BIRTHDAY = re.compile(r"\bbirthday\b|生日|生辰", re.IGNORECASE)
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
# Words that tie a note to its date, left dangling once the date is taken out ("is on", "在", "是").
_EN_TAIL = re.compile(r"(?:[\s,;:(]|\b(?:is|was|are|were|on|at|in|for|due|flying|scheduled)\b)+$", re.IGNORECASE)
_EN_LEAD = re.compile(r"^(?:remember that\s+|(?:they|the user)\s+(?:have|has|had|got)\s+|(?:has|have|had)\s+)",
                      re.IGNORECASE)
_EN_OWNER = re.compile(r"^(?:their|my|the user's|user's|a|an)\s+", re.IGNORECASE)
_DOING = re.compile(r"^\w+ing\s+(?:to|the|a|an|my|their|back|home|out|with|for|at|in|on|over)\b", re.IGNORECASE)
_ZH_TAIL = re.compile(r"[\s，,：:（(是在于的]+$")
_ZH_LEAD = re.compile(r"^(?:记住|记得|我的|我)")
_EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ZH_WEEKDAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


@dataclass(frozen=True)
class FollowUp:
    """One follow-up due: the memory, its kind, the day it is about, and the sentence."""

    memory: Memory
    kind: str  # "ask", "luck" or "birthday"
    occasion: date
    text: str


@dataclass(frozen=True)
class Opening:
    """A follow-up that opened a conversation: where it was saved."""

    follow_up: FollowUp
    session_id: str
    message_id: str


def due(memories: list[Memory], made: set[tuple[str, str, str]], today: date, language: str) -> list[FollowUp]:
    """The follow-ups that could be made now, best first: pinned, then the nearest day, then the most important."""
    found = [f for m in memories for f in _candidates(m, today, language)
             if (m.id, f.kind, f.occasion.isoformat()) not in made]
    found.sort(key=lambda f: (not f.memory.pinned, abs((f.occasion - today).days), f.occasion < today,
                              -f.memory.importance, f.memory.created_at or ""))
    return found


def _candidates(m: Memory, today: date, language: str) -> list[FollowUp]:
    try:
        day = date.fromisoformat(m.event_date or "")
    except ValueError:
        return []
    if m.category not in ("event", "relationship"):
        return []
    if _BIRTHDAY.search(m.content):
        out = []
        for year in (today.year, today.year + 1):
            try:
                when = day.replace(year=year)
            except ValueError:  # 29 February in a year without one
                continue
            if (when - today).days in LUCK_DAYS:
                out.append(FollowUp(m, "birthday", when, render(m, "birthday", when, today, language)))
        return out
    ahead = (day - today).days
    if ahead in LUCK_DAYS:
        return [FollowUp(m, "luck", day, render(m, "luck", day, today, language))]
    told_after = (m.created_at or "")[:10] > day.isoformat()  # said after it happened: a report, not a plan
    if -ahead in ASK_DAYS and not told_after:
        return [FollowUp(m, "ask", day, render(m, "ask", day, today, language))]
    return []


def render(m: Memory, kind: str, day: date, today: date, language: str) -> str:
    """The follow-up's sentence in 'en' or 'zh', from fixed templates."""
    what = event_phrase(m.content, language)
    offset = (day - today).days
    if language == "zh":
        when = {0: "今天", 1: "明天", -1: "昨天"}.get(offset) or (("上" if offset <= -7 else "") + _ZH_WEEKDAYS[day.weekday()])
        if kind == "ask":
            return f"你之前说{when}{what}，结果怎么样？"
        if kind == "luck":
            return f"{when}{what}，祝你顺利！"
        return f"提醒一下：{when}是{what}。"
    when = {0: "today", 1: "tomorrow", -1: "yesterday"}.get(offset) or (
        ("last " if offset <= -7 else "on ") + _EN_WEEKDAYS[day.weekday()])
    if kind == "ask":
        return f"Last time you mentioned {what} {when}. How did it go?"
    if kind == "luck":
        return f"Good luck with {what} {when}!"
    return f"Just a reminder: it's {what} today." if offset == 0 else f"Just a reminder: {what} is tomorrow."


def event_phrase(content: str, language: str) -> str:
    """What the event is, without its date, as the template's language says it ("your driving test", "考驾照");
    quoted when the note is in the other language."""
    text = " ".join(_ISO.sub(" ", content).split())
    if message_language(content) == "zh":
        text = _ZH_LEAD.sub("", _ZH_TAIL.sub("", text.replace(" ", "")))
        return text if language == "zh" else f"“{text}”"
    text = _EN_TAIL.sub("", _EN_LEAD.sub("", text)).strip()
    owned = _EN_OWNER.match(text)
    if owned or language == "zh":
        rest = _lower_first(text[owned.end():] if owned else text)
        return f"“{rest}”" if language == "zh" else f"your {rest}"
    if re.match(r"^\S+'s\b", text):  # "Lily's wedding"
        return text
    if _DOING.match(text):  # "Going to Paris" → "going to Paris"
        return _lower_first(text)
    return "your " + _lower_first(text)


def _lower_first(text: str) -> str:
    """"Driving test" → "driving test"; a name or an acronym ("Google interview", "SAT exam") stays."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def conversation_language(companion: Companion) -> str:
    """A new conversation's language: the UI's, as the persona's is until the user has written (app/persona_language.py)."""
    return ui_language(companion.settings.language)


def open_conversation(companion: Companion, language: str | None = None) -> Opening | None:
    """At the start of a conversation: the follow-up due, saved as the first message of a new conversation and
    recorded, or None (follow-ups or memory turned off, or nothing due). The memory is read inside the same
    transaction that records it, so one forgotten meanwhile is never brought up."""
    s = companion.settings
    if not (s.follow_ups and s.memory_enabled):
        return None
    language = language or conversation_language(companion)
    today = companion.clock.today()
    log = FollowUpLog(companion.db)
    with companion.db.transaction():
        memories = [m for category in ("event", "relationship") for m in companion.store.list(category)
                    if m.event_date and not m.disabled]  # active ones: list() reads only those by default
        found = due(memories, log.made([m.id for m in memories]), today, language)
        if not found:
            return None
        chosen = found[0]
        t = companion.transcript
        session = t.create_session(chosen.text)
        message = t.add_message(session.id, "assistant", chosen.text, [chosen.memory.id])
        # Two notes of one event (the same sentence about the same day) are one event: neither comes up again.
        for f in found:
            if f.text == chosen.text:
                log.record(f.memory.id, f.kind, f.occasion.isoformat(), session.id, message.id)
    companion.store.mark_used([chosen.memory.id])
    return Opening(chosen, session.id, message.id)

