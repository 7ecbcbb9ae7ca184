"""Neighbouring words that complete a memory: the clauses around its quote that say more of the same fact, when
no other memory of the message speaks for them.

People split one fact over commas and spaces: "Buldak ramen is not food it's an experience. i eat the 2x
spicy one weekly", "我是个程序员 Java后端", "我对象的妈妈特别喜欢我 每次去都给我炖鸡汤". The rule or
clause that fired quotes one piece, and the memory loses what the piece points back to (the ramen's
name, the kind of programmer, the soup). A neighbour is taken in only when it has a word that can name a
topic (not "lol", "哈哈"), is not a question, has no date of its own (a relative date left in the text
would contradict the absolute one the memory holds), is no fact of another kind the heads are sure of, and the
memory stays one fact long (`too_long_for_a_fact`).

Chinese: the clauses on either side that the seam model joins to the candidate's (memory/learn/joiner.py, trained on
the fact bounds people marked in corpus/bounds/), the same model that groups the heads' clauses into facts. It
replaced hand-set joins (a rule took the clause after its own and then the pieces the heads kept as the same kind of
fact): frozen Chinese P/R test .760/.735 -> .766/.743, wave 2 .682/.690 -> .694/.708, wave 3 .819/.734 -> .829/.734,
wave 5 .550/.606 -> .564/.606; on the people's bounds (scripts/bounds_quality.py) fact clauses left out of a note
.098 -> .073 and two facts in one note .165 -> .151.

English: only a clause that finishes the candidate's sentence (opening on a preposition or a relative word), joined
with a comma. A neighbour joined on with ";" was most often a second fact or a remark ("Anjali got the promotion; She
still doesn't believe she deserves it"). Train, first 600 cases (English): P/R .767/.793 -> .770/.791, forbidden
details stored 15 -> 11; notes holding one fact (scripts/note_quality.py, train sample 400) 82.7 -> 90.9 %.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from memory.dates import find_dates
from memory.learn.classifier import ClauseScore
from memory.learn.clause_memory import goes_on_about_someone_else, render, topic_words
from memory.learn.clauses import overlap, too_long_for_a_fact
from memory.learn.guard import is_question
from memory.learn.joiner import shipped_joiner
from memory.learn.thresholds import SEPARATE_FACT_WORTH
from memory.records import Candidate
from memory.text import has_cjk



def with_neighbours(candidates: list[Candidate], text: str, scores: list[ClauseScore], today: date) -> list[Candidate]:
    """The candidates, each with the unclaimed neighbouring clauses that complete it."""
    spans = [_span(c, text) for c in candidates]
    claimed = quoted_spans(text, candidates)
    out = []
    for cand, span in zip(candidates, spans):
        if span is None or cand.source == "explicit":
            out.append(cand)
            continue
        out.append(_completed(cand, span, text, scores, [s for s in claimed if s != span], today))
    return out


def quoted_spans(text: str, candidates: list[Candidate]) -> list[tuple[int, int]]:
    """Where the candidates' quotes, and the words they also speak for ("…叫我诺诺" beside "我叫许诺"), sit in the
    message: those clauses are theirs to speak for, not the heads' and not a neighbour's."""
    spans = []
    for c in candidates:
        for quote in (c.quote, *c.also):
            at = text.find(quote) if quote else -1
            if at >= 0:
                spans.append((at, at + len(quote)))
    return spans


def _span(cand: Candidate, text: str) -> tuple[int, int] | None:
    at = text.find(cand.quote) if cand.quote else -1
    return (at, at + len(cand.quote)) if at >= 0 else None


def _completed(cand: Candidate, span: tuple[int, int], text: str, scores: list[ClauseScore],
               others: list[tuple[int, int]], today: date) -> Candidate:
    inside = [i for i, s in enumerate(scores) if s.clause is not None and overlap((s.clause.start, s.clause.end), span) > 0]
    if not inside:
        return cand
    if has_cjk(cand.content):
        return _joined(cand, span, text, scores, inside, others, today)
    if cand.origin.startswith("rule"):
        # A rule quotes the sentence it matched and words one clause of it: what comes before that clause is
        # setting ("two kids threw up during circle time. teaching kindergarten is not for the weak"). English takes
        # only the words that finish its sentence ("…engaged, to his girlfriend").
        said = [i for i in inside if _said(scores[i].clause.text, cand.content)]  # type: ignore[union-attr]
        at_after = max(said or inside) + 1
    else:  # a clause memory's sentence may go on the same way
        at_after = inside[-1] + 1
    after = [scores[k] for k in [at_after] if k < len(scores) and scores[k].clause is not None
             and _FINISHES.match(scores[k].clause.text)  # type: ignore[union-attr]
             and _completes(scores[k], cand, others, today, said_before=text[span[0]:span[1]])]
    return _with(cand, span, text, [], after, ", ")


def _with(cand: Candidate, span: tuple[int, int], text: str, before: list[ClauseScore], after: list[ClauseScore],
          joiner: str) -> Candidate:
    """The candidate with the clauses before and after it, cut from the far end to one fact's length."""
    while before or after:
        parts = [render(s.clause.text) for s in before] + [cand.content] + [render(s.clause.text) for s in after]  # type: ignore[union-attr]
        content = joiner.join(p for p in parts if p)
        if not too_long_for_a_fact(content):
            break
        if after:
            after = after[:-1]
        else:
            before = before[1:]
    else:
        return cand
    start = min([span[0]] + [s.clause.start for s in before])  # type: ignore[union-attr]
    end = max([span[1]] + [s.clause.end for s in after])  # type: ignore[union-attr]
    return replace(cand, content=content, quote=text[start:end])


def _joined(cand: Candidate, span: tuple[int, int], text: str, scores: list[ClauseScore], inside: list[int],
            others: list[tuple[int, int]], today: date) -> Candidate:
    """Chinese: the neighbouring clauses the seam model joins to the candidate's (memory/learn/joiner.py, trained on
    the fact bounds people marked), on either side, while each completes it (`_completes`)."""
    joiner = shipped_joiner()
    first, last = inside[0], inside[-1]
    while first > 0 and _completes(scores[first - 1], cand, others, today) \
            and joiner.joins(text, scores[first - 1], scores[first]):
        first -= 1
    while last + 1 < len(scores) and _completes(scores[last + 1], cand, others, today, said_before=scores[last].text) \
            and joiner.joins(text, scores[last], scores[last + 1]):
        last += 1
    return _with(cand, span, text, scores[first:inside[0]], scores[inside[-1] + 1:last + 1], "，")


def _said(clause: str, content: str) -> bool:
    """Does the content already carry this clause: half of its topic words or more are in it?"""
    words = topic_words(clause)
    plain = content.casefold()
    return not words or 2 * sum(w.casefold() in plain for w in words) >= len(words)


def _completes(score: ClauseScore, cand: Candidate, others: list[tuple[int, int]], today: date,
               said_before: str = "") -> bool:
    """Does the clause complete the candidate? `said_before`: the candidate's words right before it (a clause after it)."""
    clause = score.clause
    if clause is None or not topic_words(clause.text):
        return False
    if score.worth >= SEPARATE_FACT_WORTH and score.category != cand.category \
            and not goes_on_about_someone_else(said_before, clause.text):
        return False  # a fact of another kind, not more of this one ("她叫林夏 是个护士" is more of hers)
    if any(overlap((clause.start, clause.end), o) > 0 for o in others):
        return False
    return not (is_question(clause.text) or find_dates(clause.text, today))


# An English neighbour that opens on a preposition or a relative word is the rest of the fact's own sentence
# ("…engaged, to his girlfriend of six years"); one that opens on a pronoun or a name is a second statement
# ("Favourite podcast is X; It's their washing up soundtrack", "Anjali got the promotion; She still doesn't believe
# she deserves it"), a note of its own or a remark ("Legend", "Zero problems"). A Chinese neighbour, typed as
# space-separated pieces of one thought, completes it.
_FINISHES = re.compile(r"(?:to|for|with|at|in|on|from|of|by|since|as|after|before|until|near|about|which|where|who)\b", re.I)
