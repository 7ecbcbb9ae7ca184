"""Clause memories: what the trained extractor keeps when no precise rule spoke for a clause.

The clause is stored in the user's own words as a neutral note (English: third person, fillers
dropped; Chinese: 我 and particles dropped), with the classifier's category and a topic key so that
reconciliation can find what it replaces: a slot ("profile:job", "relationship:status") for
attributes a person has one of, else the clause's topic words ("preference:~sushi").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

from memory.dates import find_dates
from memory.learn.classifier import ClauseScore, TrainedExtractor
from memory.learn.clauses import overlap, too_long_for_a_fact
from memory.learn.joiner import POINTS_BACK, Joiner, shipped_joiner, zh_someone
from memory.learn.thresholds import CHANGE_CONFIDENCE, CHANGE_ONLY_WORTH, SLOT_CONFIDENCE
from memory.records import Candidate
from memory.learn.rules.common import drop_fillers, third_person, uncaps, zh_clean
from memory.text import has_cjk, tokens

TOPIC_WORDS_MARK = "~"
IMPORTANCE = {"profile": 0.7, "feedback": 0.8, "event": 0.7, "relationship": 0.6, "preference": 0.5}
_LEXICON = Path(__file__).with_name("lexicon")
_I_FORMS = {"i": "I", "im": "I'm", "i'm": "I'm", "ive": "I've", "i've": "I've", "id": "I'd", "i'd": "I'd",
            "ill": "I'll", "i'll": "I'll"}
_SHORTHAND_I = re.compile(r"\b(?:i|im|i'm|ive|i've|i'd|i'll)\b|\bid(?=\s+(?:rather|love|like|never))|\bill(?=\s+(?:be|never|try))")
# What a clause opens on for the conversation's sake, not the fact's: a linking word, an interjection ("Yeah", "Wait"),
# or a frame around the news ("I never told you", "did I mention"). A note leaves them out, one after another
# ("oh yeah so I never told you…").
_LEAD_EN = re.compile(r"^(?:and|but|so|also|though|plus|anyways?|well|oh|ok|okay|like|tbh|honestly|btw|fyi|lol|yeah|yea|"
                      r"yep|yup|yes|wait|hey|hmm+|um+|uh+|ah+|guess what|fun fact|update|no(?=\s*,)|"
                      r"(?:i\s+)?(?:never|forgot\s+to|didn't)\s+(?:told|tell|mention(?:ed)?)(?:\s+(?:to\s+)?you)?(?:\s+(?:that|this))?(?:\s+but)?|"
                      r"did\s+i\s+(?:ever\s+)?(?:tell|mention)(?:\s+(?:to\s+)?you)?(?:\s+that)?|just\s+so\s+you\s+know|"
                      r"confession(?:\s+time)?|correction|don'?t\s+laugh(?:\s+but)?)\b[\s,.!:-]*",
                      re.I)


@dataclass(frozen=True)
class ClauseGroup:
    """Adjacent kept clauses that say one thing, with their combined verdict."""

    start: int
    end: int
    scores: tuple[ClauseScore, ...]

    @property
    def worth(self) -> float:
        return max(s.worth for s in self.scores)

    @property
    def lead(self) -> ClauseScore:
        """The clause the group's category, slot and polarity come from: the surest one that is not a modifier of
        the clause before it ("since 1987" reads as a profile on its own; it says when the crossword habit began)."""
        heads = [s for s in self.scores if not modifies_the_clause_before(s.text)] or list(self.scores)
        return max(heads, key=lambda s: s.worth * s.category_p)


@lru_cache(maxsize=2)
def stopwords(lang: str) -> frozenset[str]:
    """The lexicon of words that never name a topic, for "en" or "zh"."""
    text = (_LEXICON / f"stopwords_{lang}.txt").read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines() if not line.startswith("#") for w in line.split())


def topic_words(text: str) -> list[str]:
    """The words of a clause that can name what it is about, in order."""
    stop = stopwords("en") | stopwords("zh")
    return [t for t in tokens(text) if t not in stop and not t.isdigit() and (len(t) > 2 or has_cjk(t))]


def group_clauses(text: str, scores: list[ClauseScore], threshold: float | Callable[[str], float],
                  taken: Sequence[tuple[int, int]] = (), below: Callable[[str], float] | None = None,
                  joiner: Joiner | None = None) -> list[ClauseGroup]:
    """The kept clauses of a message, each with the neighbours that say the same fact. A Chinese message's facts are
    the runs of clauses the seam model joins (memory/learn/joiner.py) that hold a clause kept at `threshold` and,
    with `below`, none kept at that higher bar; an English message's are its kept clauses, two neighbours joined
    where the seam model joins them (`_kept_and_joined`). A clause a rule candidate quotes (`taken` spans) is the
    rule's: it is in no group."""
    if has_cjk(text):
        return _joined_runs(text, scores, threshold, taken, below, joiner or shipped_joiner())
    if below is not None:
        scores = [s for s in scores if s.worth < below(s.text)]
    return _kept_and_joined(text, scores, threshold, taken, joiner or shipped_joiner())


def _joined_runs(text: str, scores: list[ClauseScore], threshold: float | Callable[[str], float],
                 taken: Sequence[tuple[int, int]], below: Callable[[str], float] | None,
                 joiner: Joiner) -> list[ClauseGroup]:
    bar = threshold if callable(threshold) else (lambda _: threshold)
    runs: list[list[ClauseScore]] = []
    for s in scores:
        if s.clause is None or _taken(s.clause.start, s.clause.end, taken):
            runs.append([])
            continue
        last = runs[-1][-1] if runs and runs[-1] else None
        if last is not None and joiner.joins(text, last, s):
            runs[-1].append(s)
        else:
            runs.append([s])
    return [ClauseGroup(run[0].clause.start, run[-1].clause.end, tuple(run))  # type: ignore[union-attr]
            for run in runs if any(s.worth >= bar(s.text) for s in run)
            and (below is None or all(s.worth < below(s.text) for s in run))]


def _kept_and_joined(text: str, scores: list[ClauseScore], threshold: float | Callable[[str], float],
                     taken: Sequence[tuple[int, int]], joiner: Joiner) -> list[ClauseGroup]:
    """English: the kept clauses, two kept neighbours joined where the seam model joins them, a clause that only
    finishes the one before (a preposition's phrase) or too short to say what it is about taken in. Only kept
    clauses: runs of every clause the model joins take in remarks on a fact in English, as the people's bounds do
    (their note then drops them) — frozen wave 3 stored 27 forbidden details that way, 9 like this."""
    groups: list[list[ClauseScore]] = []
    last_index = -2
    bar = threshold if callable(threshold) else (lambda text: threshold)
    trail: list[ClauseScore] = []  # modifiers not kept on their own, right after the last group
    for i, s in enumerate(scores):
        if s.clause is None or _taken(s.clause.start, s.clause.end, taken):
            trail = []
            continue
        if groups and last_index + len(trail) == i - 1 and modifies_the_clause_before(s.text):
            if s.worth >= bar(s.text):  # "…crossword every week, in pen, since 1987": one fact
                groups[-1].extend(trail + [s])
                trail, last_index = [], i
            else:
                trail.append(s)
            continue
        trail = []
        if s.worth < bar(s.text):
            continue
        prev = groups[-1][-1] if groups else None
        # a change of mind joins only a neighbour of its own kind ("quit the cafe!! doing admin at a law firm now"),
        # so it stays a note that can retire the old one ("haven't journaled in weeks" beside a new habit)
        joins = (prev is not None and last_index == i - 1
                 and (max(prev.change, s.change) < CHANGE_CONFIDENCE or prev.category == s.category)
                 and joiner.joins(text, prev, s))
        if joins:
            groups[-1].append(s)
        else:
            groups.append([s])
        last_index = i
    groups = [_with_neighbour(g, scores, taken) for g in groups]
    spans = [(g[0].clause.start, g[-1].clause.end) for g in groups]  # type: ignore[union-attr]
    # a group that took in the clause before it holds that clause's own group: one note, not the clause twice
    # ("I'm not a line cook anymore! they made me sous chef": the second clause points back to the first)
    inside = {i for i, (a, b) in enumerate(spans) for j, (c, d) in enumerate(spans)
              if i != j and c <= a and b <= d and (c, d) != (a, b)}
    return [ClauseGroup(*spans[i], tuple(g)) for i, g in enumerate(groups) if i not in inside]


# An English clause that opens on a preposition and names no one who does something ("in pen, since 1987", "with
# oat milk", "for my sister's wedding") is the rest of the clause before it, whatever kind of fact the heads read it
# as on its own: it joins that clause's group. One with a subject of its own ("at work I'm the quiet one") does not.
_MODIFIER_OPENING = re.compile(r"(?:in|on|at|since|for|with|from|to|of|by|until|after|before|during|without|near|"
                               r"about|like)\b", re.I)
_SUBJECT = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|we|we're|you|he|she|they|it's|there's|my\s+\w+\s+(?:is|are|was|has))\b",
                      re.I)


def modifies_the_clause_before(text: str) -> bool:
    """Is this English clause a modifier of the one before it (a preposition's phrase with no subject of its own)?"""
    text = text.strip(" ,.;:-")
    return not has_cjk(text) and bool(_MODIFIER_OPENING.match(text)) and not _SUBJECT.search(text)


# A Chinese clause that opens on its verb has no subject of its own: it goes on about whoever the clause before it
# is about. When that is someone else ("她叫林夏 是个护士", "我妈退休了 在老年大学学画画"), the clause is more of that
# person's fact, not a fact about the user ("是个护士" was kept as the user's job).
_ZH_PREDICATE_OPENING = re.compile(r"(?:也|还|一直|现在|目前|以前|之前)?(?:是|在|做|当|干|读|学|开)")


def goes_on_about_someone_else(before: str, text: str) -> bool:
    """Is this Chinese clause, with no subject of its own, more of what the clause before it says of another person
    (one that clause opens on: "他叫王磊", "我弟今年高考"; not "昨天跟她吵架了", where the user is the subject)?"""
    text = text.strip()
    return (has_cjk(text) and bool(_ZH_PREDICATE_OPENING.match(text)) and "我" not in text[:2]
            and bool(zh_someone().match(before.strip())))


SLIGHT_CHARS = 6


def _with_neighbour(group: list[ClauseScore], scores: list[ClauseScore],
                    taken: Sequence[tuple[int, int]]) -> list[ClauseScore]:
    """A kept clause too short to say what it is about ("Meds at 8", "三十年了") takes in the clause before
    it, where its subject usually is (the one after, when it opens the message), and so does one that opens
    on a pronoun pointing back ("it's on aug 8", "她下个月结婚"), unless a rule quotes that clause: then the
    fragment adds to the rule's fact and is left to the validators."""
    at = scores.index(group[0])
    if at > 0 and POINTS_BACK.match(group[0].text):
        k = at - 1
    elif sum(len(s.text) for s in group) > SLIGHT_CHARS * (1 if has_cjk(group[0].text) else 2):
        return group
    else:
        k = at - 1 if at > 0 else scores.index(group[-1]) + 1
    if k >= len(scores):
        return group
    clause = scores[k].clause
    if clause is None or _taken(clause.start, clause.end, taken):
        return group
    return [scores[k], *group] if k < at else [*group, scores[k]]


def _taken(start: int, end: int, taken: Sequence[tuple[int, int]]) -> bool:
    return any(overlap((start, end), span) > 0 for span in taken)


def render(quote: str) -> str:
    """The note a clause becomes: the user's words, made neutral."""
    if has_cjk(quote) and not re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{3,}\s+[A-Za-z]{3,}", quote):
        return zh_clean(quote)
    text = without_lead(drop_fillers(uncaps(quote)).strip(" ,.;:-"))
    text = third_person(_SHORTHAND_I.sub(lambda m: _I_FORMS[m.group(0).lower()], text))
    return text[:1].upper() + text[1:] if text else text


def without_lead(text: str) -> str:
    """An English clause without what it opens on for the conversation's sake ("Wait I never told you", "oh yeah so");
    empty when that is all it says ("oh I never told you —" before the news, split off as a clause of its own)."""
    while text and (bare := _LEAD_EN.sub("", text, count=1).strip(" ,.;:-—–")) != text:
        text = bare
    return text


def topic_for(group: ClauseGroup, category: str, quote: str) -> str | None:
    """A slot key when the slot head is sure and agrees on the category, else the topic words."""
    lead = group.lead
    if lead.slot != "other" and lead.slot_p >= SLOT_CONFIDENCE and lead.slot.startswith(category + ":"):
        return lead.slot
    return topic_key(category, quote)


def topic_key(category: str, quote: str) -> str | None:
    """The topic of a clause memory with no slot: its category and first topic words ("preference:~sushi")."""
    words = topic_words(quote)
    return f"{category}:{TOPIC_WORDS_MARK}{' '.join(words[:4])}" if words else None


CHANGE_ONLY = "classifier-change"


def clause_candidates(model: TrainedExtractor, text: str, today: date,
                      taken: list[tuple[int, int]], change_only: bool = False,
                      scores: list[ClauseScore] | None = None) -> list[Candidate]:
    """Candidates from kept clauses not already covered by a rule candidate (`taken` spans); with
    `change_only`, the weaker clauses, marked to be kept only if they replace something. `scores` are the
    message's clause scores when the caller already has them."""
    scores = model.score_message(text) if scores is None else scores
    out: list[Candidate] = []
    groups = (group_clauses(text, scores, CHANGE_ONLY_WORTH, taken, below=model.threshold_for) if change_only
              else group_clauses(text, scores, model.threshold_for, taken))
    for group in groups:
        quote = text[group.start:group.end]
        if too_long_for_a_fact(quote):
            continue
        lead = group.lead
        category = lead.category
        when = None
        if category == "event":
            dates = find_dates(quote, today, with_holidays=True) or find_dates(text, today, with_holidays=True)
            when = dates[0].date if len(dates) >= 1 else None
        content = render(quote)
        if not content:
            continue
        polarity = -1 if lead.polarity == "negative" else 1
        out.append(Candidate(category=category, content=content, quote=quote, source="stated",
                             confidence=round(0.55 + 0.45 * group.worth, 3), importance=IMPORTANCE[category],
                             origin=f"{CHANGE_ONLY if change_only else 'classifier'}:worth={group.worth:.2f},{category}={lead.category_p:.2f},"
                                    f"polarity={lead.polarity}:{lead.polarity_p:.2f},change={lead.change:.2f}",
                             event_date=when, topic=topic_for(group, category, quote), polarity=polarity,
                             change=lead.change, context=text))
    return out
