"""The precise half of extraction: bilingual rules that turn a user message into memory candidates.

`extract_candidates` runs every `Rule` of the languages in the message in priority order (tables `en`,
`en_work`, `en_feedback`, `en_social`, `en_life`, `zh`, `zh_likes`, `zh_social`, `events` beside this module;
word lists in `memory/learn/lexicon/`), upgrades facts the user asked to be remembered ("remember that…",
"记住…") to `source="explicit"`, merges facts that belong together (a new name and the old one it
replaces, a night job and the sleep schedule it explains) and keeps one candidate per topic.
Only the user's words are read: the assistant's message is context and never a source of facts.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import Sequence

from memory.dates import find_dates
from memory.learn.clauses import overlap, split_clauses
from memory.learn.rules import en as rules_en
from memory.learn.rules import en_feedback as rules_en_feedback
from memory.learn.rules import en_life as rules_en_life
from memory.learn.rules import en_social as rules_en_social
from memory.learn.rules import en_work as rules_en_work
from memory.learn.rules import events as rules_events
from memory.learn.rules import zh as rules_zh
from memory.learn.rules import zh_likes as rules_zh_likes
from memory.learn.rules import zh_social as rules_zh_social
from memory.learn.rules.common import candidate, norm_object, third_person, zh_clean
from memory.learn.rules.explicit import explicit_bodies
from memory.learn.rules.registry import Rule, check
from memory.learn.thresholds import EXPLICIT_CONFIDENCE
from memory.records import Candidate
from memory.text import has_cjk

# Every rule of every table, in the order of their priorities (checked: ids and priorities unique).
RULES: list[Rule] = check(
    rules_en.PROFILE_RULES + rules_en_work.WORK_RULES + rules_en_feedback.FEEDBACK_RULES + rules_en_social.PREFERENCE_RULES
    + rules_en_social.PEOPLE_RULES + rules_en_social.MOOD_RULES + rules_en_life.ROUTINE_RULES + rules_en_life.LIFE_RULES + rules_en_life.PEOPLE_RULES
    + rules_en_life.MORE_PROFILE_RULES + rules_en_life.HOME_RULES + rules_en_life.PERSON_EVENT_RULES + rules_en_life.SCAN_RULES
    + rules_zh.PROFILE_RULES + rules_zh_likes.PREFERENCE_RULES + rules_zh_social.PEOPLE_RULES + rules_zh_social.MOOD_RULES
    + rules_zh_social.SCAN_RULES + rules_events.SCAN_RULES)
# A remembered fact no rule recognised is kept by the "remember that…" trigger itself, named like a rule.
EXPLICIT_ORIGIN = {"en": "rule:en.explicit.remember", "zh": "rule:zh.explicit.remember"}


def extract_candidates(user_text: str, assistant_text: str | None, today: date) -> list[Candidate]:
    """Candidates from the user's own words (English and Chinese rules); `assistant_text` is context only."""
    text = user_text or ""
    if not text.strip():
        return []
    found = _run_rules(text, today)
    found = _mark_explicit(text, today, found)
    found = _merge(text, found)
    return _one_per_topic(found)


def _run_rules(text: str, today: date) -> list[Candidate]:
    """Every rule of the languages present in the text, in priority order."""
    langs = {"en"} if re.search(r"[A-Za-z]{2}", text) else set()
    if has_cjk(text):
        langs.add("zh")
    out: list[Candidate] = []
    for rule in RULES:
        if rule.lang in langs:
            out.extend(rule.candidates(text, today))
    return out


def _mark_explicit(text: str, today: date, found: list[Candidate]) -> list[Candidate]:
    """Facts the user asked to be remembered: upgraded to explicit, or kept as a fallback note."""
    out = list(found)
    for start, end in explicit_bodies(text):
        body = text[start:end]
        hits = [i for i, c in enumerate(out) if c.quote and _overlaps(text, c.quote, start, end)]
        for i in hits:
            c = out[i]
            out[i] = replace(c, source="explicit", confidence=max(c.confidence, EXPLICIT_CONFIDENCE),
                             importance=min(1.0, c.importance + 0.1))
        if not hits:
            out.append(_fallback(body.strip(), today))
    return out


def _overlaps(text: str, quote: str, start: int, end: int) -> bool:
    pos = text.find(quote)
    return pos >= 0 and pos < end and pos + len(quote) > start


def _fallback(body: str, today: date) -> Candidate:
    """A remembered fact no rule recognised: kept in the user's words, in a sensible category."""
    if has_cjk(body):
        content = zh_clean(body)
    else:
        content = _en_third_person(body)
    future = [d for d in find_dates(body, today) if d.date >= today]
    category = ("event" if future else
                "feedback" if re.search(r"\bcall(?:ed|ing)?\s+me\b|\bbeing\s+called\b|叫我", body, re.I) else
                "preference" if re.search(r"\b(?:love|like|hate|enjoy|favou?rite)|喜欢|讨厌|爱", body, re.I) else
                "relationship" if re.search(rules_en.RELATIONS + r"|" + rules_zh.RELS, body, re.I) else "profile")
    c = candidate(category, content, body, f"{category}:{norm_object(content)[:40]}")
    return replace(c, source="explicit", confidence=EXPLICIT_CONFIDENCE, importance=min(1.0, c.importance + 0.1),
                   origin=EXPLICIT_ORIGIN["zh" if has_cjk(body) else "en"])


def _en_third_person(body: str) -> str:
    body = re.sub(r"^(?:that\s+)", "", body.strip(), flags=re.I)
    lead = re.match(r"^(?:I'm|I\s+am)\s+", body, re.I)
    if lead:
        return "Is " + third_person(body[lead.end():])
    verb = re.match(r"^I\s+(?P<v>\w+)\s+", body)
    if verb:
        v = verb["v"].lower()
        v = {"have": "has", "do": "does", "go": "goes"}.get(v, v + ("es" if v.endswith(("sh", "ch", "s")) else "s"))
        return v + " " + third_person(body[verb.end():])
    return third_person(re.sub(r"^my\s+", "", body, flags=re.I))


# ---------------------------------------------------------------- merging facts that belong together

def _merge(text: str, found: list[Candidate]) -> list[Candidate]:
    """Combine candidates of one message that describe one fact from two angles."""
    found = _merge_names(text, found)
    found = _merge_jobs(found)
    found = _attach(found, "profile:routine:sleep", "profile:job", r"night|shift|evening|overnight", "({})")
    found = _attach(found, "profile:hometown", "profile:city", r".", "({})")
    found = _merge_moods(text, found)
    found = _merge_plans(text, found)
    return _drop_echoes(found)


def _merge_plans(text: str, found: list[Candidate]) -> list[Candidate]:
    """What the user is preparing for leads the dated step of it ("在准备考研，12月19号初试")."""
    events = [c for c in found if c.category == "event" and c.quote in text]
    out = list(found)
    for plan in [c for c in found if (c.topic or "").startswith("profile:plan:")]:
        p_end = text.find(plan.quote) + len(plan.quote)
        after = [e for e in events if 0 <= text.find(plan.quote) < text.find(e.quote)
                 and not re.search(r"[。！？!?\n]", text[p_end:text.find(e.quote)])]
        if plan.quote in text and after:
            event = after[0]
            sep = "，" if has_cjk(event.content) else "; "
            merged = replace(event, content=plan.content + sep + event.content,
                             quote=text[text.find(plan.quote):text.find(event.quote) + len(event.quote)])
            out = [merged if c is event else c for c in out if c is not plan]
    return out


def _merge_names(text: str, found: list[Candidate]) -> list[Candidate]:
    names = [c for c in found if c.topic == "profile:name"]
    if not names:
        return found
    first, rest = names[0], names[1:]
    content = first.content
    for c in rest:
        if c.content != content:
            content += ("，" if has_cjk(content) else "; ") + (c.content if has_cjk(c.content) else c.content[0].lower() + c.content[1:])
    old = [c for c in found if c.topic == "feedback:address" and _names_a_person(c.content)]
    for c in old:
        dropped = re.sub(r"^(?:不希望被叫|Does not want to be called )", "", c.content).strip("'“”")
        content += f"（不再叫{dropped}）" if has_cjk(content) else f" (not {dropped})"
    # Named far apart ("我叫许诺 …other facts… 叫我诺诺"): the note quotes the first name's words, not the stretch
    # between, which holds facts of their own.
    # It still speaks for the other names' words: the heads do not keep "叫我诺诺" as a note of its own beside it.
    together = _side_by_side(text, found, first, *rest, *old)
    quote = _span_quote(text, first, *rest, *old) if together else first.quote
    also = () if together else tuple(c.quote for c in (*rest, *old) if c.quote and c.quote != first.quote)
    merged = replace(first, content=content, quote=quote, also=also)
    skip = set(map(id, names + old))
    return [merged if c is first else c for c in found if c is first or id(c) not in skip]


def _names_a_person(content: str) -> bool:
    """True when a "don't call me X" is about a name (Ben, 晓晓) rather than a pet name (buddy, 亲爱的)."""
    word = re.sub(r"^(?:不希望被叫|Does not want to be called )", "", content).strip("'“”")
    return word not in rules_zh.ENDEARMENTS and word.lower() not in rules_en.ENDEARMENTS and (
        has_cjk(word) or word[:1].isupper())


def _side_by_side(text: str, found: list[Candidate], *cands: Candidate) -> bool:
    """Are the candidates' quotes said in one breath: at most one clause of other words between them ("别叫我晓晓了，
    感觉太幼稚，叫我阿晓吧"), and no other candidate's quote there?"""
    spans = _quote_spans(text, cands)
    if not spans:
        return True
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    between = [k for k in split_clauses(text[start:end])
               if not any(overlap((start + k.start, start + k.end), s) > 0 for s in spans)]
    theirs = _quote_spans(text, [c for c in found if all(c is not x for x in cands)])
    return len(between) <= 1 and not any(start <= s and e <= end for s, e in theirs)


def _span_quote(text: str, *cands: Candidate) -> str:
    """The stretch of the user's text that covers the quotes of all the given candidates."""
    spans = _quote_spans(text, cands)
    if not spans:
        return cands[0].quote
    return text[min(s for s, _ in spans):max(e for _, e in spans)]


def _quote_spans(text: str, cands: Sequence[Candidate]) -> list[tuple[int, int]]:
    """Where each candidate's quote stands in the text (those found there)."""
    spans = [(text.find(c.quote), len(c.quote)) for c in cands if c.quote]
    return [(at, at + n) for at, n in spans if at >= 0]


def _merge_jobs(found: list[Candidate]) -> list[Candidate]:
    jobs = [c for c in found if c.topic == "profile:job"]
    pos = [c for c in jobs if c.polarity > 0]
    neg = [c for c in jobs if c.polarity < 0]
    if not (pos and neg):
        return found
    old = re.sub(r"^No longer works as (?:a|an) ", "", neg[0].content)
    new = replace(pos[0], content=pos[0].content.replace("(promoted)", f"(promoted from {old})"))
    return [new if c is pos[0] else c for c in found if c not in neg]


def _attach(found: list[Candidate], part: str, whole: str, when: str, fmt: str) -> list[Candidate]:
    """Fold the `part` candidate into the `whole` one as a parenthesis (e.g. hometown into city)."""
    parts = [c for c in found if c.topic == part]
    wholes = [c for c in found if c.topic == whole and re.search(when, c.content, re.I)]
    if not (parts and wholes):
        return found
    target = wholes[0]
    note = parts[0].content
    note = note if has_cjk(note) else note[0].lower() + note[1:]
    fmt = "（{}）" if has_cjk(target.content) else " " + fmt
    merged = replace(target, content=target.content + fmt.format(note))
    return [merged if c is target else c for c in found if c is not parts[0]]


def _merge_moods(text: str, found: list[Candidate]) -> list[Candidate]:
    """A feeling said right after news about someone belongs to that news ("吵了一架，心里堵得慌")."""
    out = list(found)
    for mood in [c for c in found if c.topic == "relationship:mood"]:
        m_pos = text.find(mood.quote)
        for i, rel in enumerate(out):
            if rel.category != "relationship" or rel is mood or rel.topic == "relationship:mood":
                continue
            r_end = text.find(rel.quote) + len(rel.quote)
            gap = text[r_end:m_pos] if r_end <= m_pos else "x"
            if text.find(rel.quote) >= 0 and re.fullmatch(r"[\s,，、]*(?:and\s+)?", gap):
                sep = "，" if has_cjk(rel.content) else "; "
                note = mood.content if has_cjk(mood.content) else mood.content[0].lower() + mood.content[1:]
                out[i] = replace(rel, content=rel.content + sep + note, quote=text[text.find(rel.quote):m_pos + len(mood.quote)])
                out = [c for c in out if c is not mood]
                break
    return out


def _drop_echoes(found: list[Candidate]) -> list[Candidate]:
    """Drop a candidate that only repeats another one: an event said as news about someone, or the
    cause inside a mood ("lonely since my roommate moved out")."""
    events = {c.content for c in found if c.category == "event"}
    moods = " ".join(c.content.lower() for c in found if c.topic == "relationship:mood")
    out = []
    for c in found:
        if c.category != "event" and c.content in events:
            continue
        key = (c.topic or "").split(":", 1)[-1]
        if c.category == "relationship" and c.topic != "relationship:mood" and key and key in moods:
            continue
        out.append(c)
    return out


def _one_per_topic(found: list[Candidate]) -> list[Candidate]:
    """Keep the first candidate of each topic (rules run by priority, the most specific first)."""
    seen: set[str] = set()
    out = []
    for c in found:
        key = c.topic or c.content.casefold()
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
    return out

