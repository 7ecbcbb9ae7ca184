"""How a remembered event went: the user's answer to the companion asking about it.

When the companion followed up on an event ("Last time you mentioned your driving test on Friday. How did it
go?"), the user's next message answers for that event, whatever words it takes ("passed!!", "failed it :(",
"过了！", "没过，下个月再考"). A short answer that says something becomes the event's outcome: a note made of the
event's own words, its date and the user's answer ("Driving test (2026-12-04): passed"), which replaces the plan
it followed up. An answer that says nothing ("haha", "嗯", a question back) leaves the event as it was, and a long
message is read as a message of its own.
"""
from __future__ import annotations

import re
from datetime import date

from memory.learn.rules.common import drop_fillers, third_person, tidy, zh_clean
from memory.records import Candidate, Memory
from memory.text import has_cjk

MAX_OUTCOME_WORDS = 25
MAX_OUTCOME_CHARS_ZH = 40
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_EN_DATE_WORDS = re.compile(r"\s*\b(?:is|was|are|were)?\s*(?:on|for|at)?\s*(?:the\s+(?:morning|afternoon|evening)\s+of\s+)?"
                            r"\d{4}-\d{2}-\d{2}\b", re.IGNORECASE)
_SAYS_NOTHING = re.compile(r"^(?:[\W_]|ha+|he+|lol|lmao|idk|hmm+|ok(?:ay)?|yeah|yep|嗯+|哈+|呵+|啊+|好的?|还行吧?)*$",
                           re.IGNORECASE)


def event_subject(event: Memory) -> str:
    """The event's note without its date ("Driving test on 2026-12-04" → "Driving test")."""
    if has_cjk(event.content):
        text = _ISO.sub("", event.content)
        text = re.sub(r"（\s*）|\(\s*\)", "", text).strip(" ，,。：:（(")
        return re.sub(r"^(?:在|于)", "", text)
    return tidy(_EN_DATE_WORDS.sub("", event.content))


def outcome_candidate(event: Memory, answer: str) -> Candidate | None:
    """The event's outcome as the user gave it, or None when the answer says nothing or is a message of its own."""
    said = " ".join(answer.split())
    chinese = has_cjk(said)
    if not said or _SAYS_NOTHING.match(said) or said.rstrip().endswith(("?", "？")):
        return None
    if (len(said) > MAX_OUTCOME_CHARS_ZH) if chinese else (len(said.split()) > MAX_OUTCOME_WORDS):
        return None
    how = zh_clean(said) if chinese else tidy(third_person(drop_fillers(said)))
    if not re.search(r"\w", how):
        return None
    subject, day = event_subject(event), event.event_date
    if chinese or has_cjk(subject):
        content = f"{subject}（{day}）：{how}" if day else f"{subject}：{how}"
    else:
        content = f"{subject} ({day}): {how[:1].lower() + how[1:] if how[1:2].islower() else how}" if day \
            else f"{subject}: {how}"
    return Candidate(category="event", content=content, quote=said, source="stated", confidence=0.9,
                     importance=max(event.importance, 0.5), origin=f"follow-up:{event.id}", topic=event.topic,
                     event_date=date.fromisoformat(day) if day else None)
