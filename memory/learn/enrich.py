"""Neighbouring words that complete a memory: the clause before or after its quote, when it says more
about the same thing and no other memory of the message speaks for it.

People split one fact over commas and spaces: "Buldak ramen is not food it's an experience. i eat the 2x
spicy one weekly", "我是个程序员 Java后端", "我对象的妈妈特别喜欢我 每次去都给我炖鸡汤". The rule or
clause that fired quotes one piece, and the memory loses what the piece points back to (the ramen's
name, the kind of programmer, the soup). A neighbour is taken in when it has a word that can name a
topic (not "lol", "哈哈"), it is not a question, has no date of its own (a relative date left in the text
would contradict the absolute one the memory holds) and the memory stays one fact long
(`too_long_for_a_fact`). A rule candidate takes only the clause after the one its words come from; a
clause memory takes either side. A Chinese rule quotes only the space-separated piece it matched
(memory/learn/rules/common.py), so its fact goes on through the pieces after it that the heads keep as the
same kind of fact ("还有二十天放寒假 票订好了 回哈尔滨"), up to the first that is not; the pipeline completes a
rule's fact before the heads speak for the rest, so they do not claim those pieces as facts of their own.

Chosen on the inner development split (scripts/inner_dev.py, P/R 0.647/0.702 without this): either side
for every candidate 0.662/0.721 but the development set's setting clauses came along; after-only for rules
0.658/0.711; with the clause inside a rule's quote that its words left out, as shipped, 0.667/0.723.
A bar on the neighbour's worth (0.2: 0.653/0.711) or on its sentence-vector closeness to the quote (0.12:
0.657/0.709) did not help: the words that complete a fact seldom read as a fact themselves.
An English neighbour joined on with ";" was most often a second fact or a remark ("Anjali got the promotion; She
still doesn't believe she deserves it"): English takes only a clause that finishes its sentence (opening on a
preposition or a relative word), joined with a comma. Train, first 600 cases (English): P/R .767/.793 -> .770/.791,
forbidden details stored 15 -> 11; notes holding one fact (scripts/note_quality.py, train sample 400) 82.7 -> 90.9 %.
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
from memory.learn.thresholds import SEPARATE_FACT_WORTH
from memory.records import Candidate
from memory.text import has_cjk



def with_neighbours(candidates: list[Candidate], text: str, scores: list[ClauseScore], today: date) -> list[Candidate]:
    """The candidates, each with the unclaimed neighbouring clauses that complete it."""
    spans = [_span(c, text) for c in candidates]
    claimed = [s for s in spans if s is not None]
    out = []
    for cand, span in zip(candidates, spans):
        if span is None or cand.source == "explicit":
            out.append(cand)
            continue
        out.append(_completed(cand, span, text, scores, [s for s in claimed if s != span], today))
    return out


def _span(cand: Candidate, text: str) -> tuple[int, int] | None:
    at = text.find(cand.quote) if cand.quote else -1
    return (at, at + len(cand.quote)) if at >= 0 else None


def _completed(cand: Candidate, span: tuple[int, int], text: str, scores: list[ClauseScore],
               others: list[tuple[int, int]], today: date) -> Candidate:
    inside = [i for i, s in enumerate(scores) if s.clause is not None and overlap((s.clause.start, s.clause.end), span) > 0]
    if not inside:
        return cand
    if cand.origin.startswith("rule"):
        # A rule quotes the sentence it matched and words one clause of it: what comes before that clause is
        # setting ("two kids threw up during circle time. teaching kindergarten is not for the weak"), the
        # clause after it often adds to the fact ("我在杭州做设计 主要给电商画海报").
        said = [i for i in inside if _said(scores[i].clause.text, cand.content)]  # type: ignore[union-attr]
        at_before, at_after = [], [max(said or inside) + 1]
    else:  # a clause memory often points back as well ("Buldak ramen is an experience. i eat the 2x spicy one weekly")
        at_before, at_after = [inside[0] - 1], [inside[-1] + 1]
    if not has_cjk(cand.content):  # English: only the words that finish its sentence ("…engaged, to his girlfriend")
        at_before, at_after = [], [k for k in at_after if 0 <= k < len(scores) and scores[k].clause is not None
                                   and _FINISHES.match(scores[k].clause.text)]  # type: ignore[union-attr]
    before = [scores[k] for k in at_before if 0 <= k < len(scores) and _completes(scores[k], cand, others, today)]
    after = [scores[k] for k in at_after if 0 <= k < len(scores)
             and _completes(scores[k], cand, others, today, said_before=text[span[0]:span[1]])]
    if after and cand.origin.startswith("rule") and has_cjk(cand.content):
        after += _more_of_it(scores, at_after[0] + 1, cand, others, today)
    joiner = "，" if has_cjk(cand.content) else ", "
    while before or after:
        parts = [render(s.clause.text) for s in before] + [cand.content] + [render(s.clause.text) for s in after]  # type: ignore[union-attr]
        content = joiner.join(p for p in parts if p)
        if not too_long_for_a_fact(content):
            break
        if len(after) < 2:
            return cand
        after = after[:-1]  # the run of pieces that go on with a fact, cut to one fact's length
    else:
        return cand
    start = min([span[0]] + [s.clause.start for s in before])  # type: ignore[union-attr]
    end = max([span[1]] + [s.clause.end for s in after])  # type: ignore[union-attr]
    return replace(cand, content=content, quote=text[start:end])


def _more_of_it(scores: list[ClauseScore], k: int, cand: Candidate, others: list[tuple[int, int]],
                today: date) -> list[ClauseScore]:
    """The Chinese pieces after a rule's completed fact that go on with it: each one the heads keep as the same
    kind of fact ("6月7号高考 我是监考老师", "还有二十天放寒假 票订好了 回哈尔滨"), up to the first that is not."""
    out: list[ClauseScore] = []
    while k < len(scores) and _completes(scores[k], cand, others, today, said_before=scores[k - 1].text) and (
            (scores[k].category == cand.category and scores[k].worth >= SEPARATE_FACT_WORTH)
            or goes_on_about_someone_else(scores[k - 1].text, scores[k].text)):
        out.append(scores[k])
        k += 1
    return out


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
