"""Which neighbouring clauses say one fact: a trained model over the seam between two clauses.

A message is cut into clauses at every comma, space between Chinese characters, sentence mark and contrast word
(`memory.learn.clauses`), which cuts many facts in two ("I do the crossword every week, in pen, since 1987",
"还没对象 我妈天天催") and leaves others whole. Whether two neighbours belong in one note is read here from the seam:
the mark between them, how long each is, the words the second opens on and the first ends on, and a few plain
marks (a pronoun pointing back, a preposition's phrase with no subject, a subject of its own, a verb going on
about someone else). The model is a logistic regression trained by `scripts/train_joiner.py` on the seams of 1,200
train messages people marked fact bounds on (corpus/bounds/): one fact holding both clauses is a join, a fact beside
another fact or beside nothing to keep is a cut. Its coefficients ship in `joiner.npz`. It groups a Chinese
message's clauses, and joins an English message's kept clauses (memory/learn/clause_memory.py); on the 160 frozen
messages two people marked, it agrees with the first on .757 of Chinese seams and .720 of English ones (the hand-set
joins it replaced: .509 / .381; the two people: .951 / .906).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from memory.learn.classifier import ClauseScore
from memory.learn.rules.lexicon import alternation
from memory.text import EMOJI, has_cjk

WEIGHTS = Path(__file__).with_name("joiner.npz")

# A clause that opens on a pronoun or a word going on with the one before ("it's on aug 8", "like 3 flat whites a
# day", "它特别喜欢趴在键盘上睡觉"). Chinese 这/那 are left out: 这学期, 那边 name their own subject more often than they
# point back.
POINTS_BACK = re.compile(r"(?:it|it's|its|that|that's|this|these|those|she|he|her|his|him|they|them|their|the one|"
                          r"there|like|as in|especially|mostly|mainly)\b|(?:它|她|他)", re.I)
# An English clause opening on a preposition: the rest of the clause before it ("in pen", "since 1987").
_PREPOSITION = re.compile(r"(?:in|on|at|since|for|with|from|to|of|by|until|after|before|during|without|near|about)\b",
                          re.I)
_SUBJECT_EN = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|we|we're|you|he|she|they|my)\b", re.I)
# A Chinese clause that opens on its verb has no subject of its own.
_ZH_PREDICATE = re.compile(r"(?:也|还|一直|现在|目前|以前|之前|都|就|又|才)?(?:是|在|做|当|干|读|学|开|有|没|不|叫|住|养|喜欢|爱)")
_CONTRAST = re.compile(r"(?:but|although|though|except|whereas)\b|但是|不过|可是|然而|只是", re.I)
_QUESTION = re.compile(r"[?？]|[吗呢]$")
_WORD = re.compile(r"[a-z0-9']+")
_STOPS = re.compile(r"[。！？!?；;…]|(?<!\d)[.](?!\d)")


@lru_cache(maxsize=1)
def zh_someone() -> re.Pattern[str]:
    """A Chinese clause that opens on another person: 他/她, a family word, a relation."""
    return re.compile(r"(?:我的|我家|我们家|我)?(?:[他她]|" + alternation("zh_family", longest_first=True) + "|"
                      + alternation("zh_relations", longest_first=True) + ")")


def _seam(between: str) -> str:
    """What separates two clauses: a sentence mark, a line break, an emoji, a dash, a comma or only a space."""
    if "\n" in between:
        return "line"
    if _STOPS.search(between):
        return "stop"
    if re.search(f"[{EMOJI}]", between):
        return "emoji"
    if re.search(r"[-–—~～]", between):
        return "dash"
    if re.search(r"[，,、]", between):
        return "comma"
    return "space" if between.strip() == "" and between else "none"


def _size(text: str, zh: bool) -> str:
    """How long a clause is, in buckets of characters (Chinese) or words (English)."""
    n = len(re.sub(r"\s", "", text)) if zh else len(text.split())
    bounds = (2, 4, 6, 9, 14, 20) if zh else (1, 2, 3, 5, 8, 12)
    return next((f"<={b}" for b in bounds if n <= b), f">{bounds[-1]}")


def _bin(p: float) -> str:
    return f"{min(4, int(p * 5)) / 5:.1f}"


def seam_features(text: str, sa: ClauseScore, sb: ClauseScore) -> list[str]:
    """The named features of the seam between a clause and the one right after it in `text`, with the heads'
    verdicts on each read alone."""
    a, b = sa.clause, sb.clause
    assert a is not None and b is not None
    zh = has_cjk(a.text) or has_cjk(b.text)
    lang = "zh" if zh else "en"
    seam = _seam(text[a.end:b.start])
    out = [f"lang={lang}", f"{lang}:seam={seam}", f"{lang}:a={_size(a.text, zh)}", f"{lang}:b={_size(b.text, zh)}",
           f"{lang}:seam={seam}:b={_size(b.text, zh)}", f"{lang}:seam={seam}:a={_size(a.text, zh)}",
           f"{lang}:a_worth={_bin(sa.worth)}", f"{lang}:b_worth={_bin(sb.worth)}",
           f"{lang}:b={_size(b.text, zh)}:b_worth={_bin(sb.worth)}", f"{lang}:a={_size(a.text, zh)}:a_worth={_bin(sa.worth)}",
           f"{lang}:b_category={sb.category}", f"{lang}:categories={sa.category}>{sb.category}"]
    if zh:
        out += [f"zh:b1={b.text[:1]}", f"zh:b2={b.text[:2]}", f"zh:a_last={a.text[-1:]}"]
        if _ZH_PREDICATE.match(b.text) and not b.text.startswith("我"):
            out.append("zh:b_opens_on_verb")
            if zh_someone().match(a.text.strip()):
                out.append("zh:b_goes_on_about_someone_else")
        if b.text.startswith("我"):
            out.append("zh:b_says_i")
    else:
        words_a, words_b = _WORD.findall(a.text.lower()), _WORD.findall(b.text.lower())
        out += [f"en:b1={words_b[0] if words_b else ''}", f"en:a_last={words_a[-1] if words_a else ''}",
                f"en:b12={' '.join(words_b[:2])}"]
        if _PREPOSITION.match(b.text) and not _SUBJECT_EN.search(b.text):
            out.append("en:b_is_a_preposition_phrase")
        if _SUBJECT_EN.search(b.text):
            out.append("en:b_has_a_subject")
    if POINTS_BACK.match(b.text):
        out.append(f"{lang}:b_points_back")
    if _CONTRAST.match(b.text):
        out.append(f"{lang}:b_contrasts")
    if any(ch.isdigit() for ch in b.text) and len(b.text) <= 12:
        out.append(f"{lang}:b_short_with_a_number")
    if _QUESTION.search(a.text) or _QUESTION.search(text[a.end:b.start]):
        out.append(f"{lang}:a_asks")
    return out


class Joiner:
    """The shipped seam model: the probability that two neighbouring clauses are one fact."""

    def __init__(self, names: Iterable[str], coef: np.ndarray, intercept: float, bars: dict[str, float]):
        self.index = {name: i for i, name in enumerate(names)}
        self.coef = coef
        self.intercept = intercept
        self.bars = bars  # per language, the probability from which two clauses are one note (chosen in training)

    def probability(self, text: str, a: ClauseScore, b: ClauseScore) -> float:
        z = self.intercept + sum(self.coef[self.index[f]] for f in seam_features(text, a, b) if f in self.index)
        return 1.0 / (1.0 + math.exp(-z))

    def joins(self, text: str, a: ClauseScore, b: ClauseScore) -> bool:
        zh = has_cjk(a.text) or has_cjk(b.text)
        return self.probability(text, a, b) >= self.bars["zh" if zh else "en"]


def load_joiner(path: Path) -> Joiner:
    with np.load(path, allow_pickle=False) as z:
        return Joiner([str(n) for n in z["names"]], z["coef"].astype(float), float(z["intercept"]),
                      {"en": float(z["bar_en"]), "zh": float(z["bar_zh"])})


@lru_cache(maxsize=1)
def shipped_joiner() -> Joiner:
    return load_joiner(WEIGHTS)
