"""Does a new statement replace a stored memory? A trained pair model, not a list of phrasings.

A change of job, city, partner, habit or taste is said in endless new words ("finally quit the bakery,
I'm at a law firm now", "原神退坑了", "抖音删了"). Instead of rules per phrasing, a small logistic model
reads a pair — the stored memory's words and the new clause with its message — through features that
hold in both languages: how alike the two are in character n-grams, topic words and meaning (the
multilingual sentence vectors, which see that a beagle is a dog and an iPhone is not Android), how strongly the
new clause states a change (the change head), whether the polarity turned, whether both fill the
same slot (job, city, partner status…), and whether the categories the learner gave them agree. It is trained by
`scripts/train_extractor.py` (pairs from scripts/supersede_pairs.py) on the corpus's change cases
(the old fact against the new one) and on facts that stand: look-alike and random facts of other cases.
A pair that shares nothing (no slot, topic word, n-gram or meaning likeness) is never a replacement, except the one
stored memory nearest in meaning to a stated change, which the model is asked about too.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from memory.learn.classifier import TrainedExtractor
from memory.learn.clause_memory import topic_words
from memory.learn.thresholds import (CHANGE_CONFIDENCE, NEAREST_MEANING, RELATED_COSINE, RELATED_JACCARD, RELATED_MEANING,
                                     REPLACE_PROBABILITY, SHARED_SLOT_P)
from memory.records import Candidate, Memory, about
from memory.text import has_cjk, has_negation

MAX_REPLACED = 2
_SIDE_CACHE_SIZE = 4096

PAIR_FEATURES = (
    "cos_clause", "cos_message", "words_clause", "words_message", "bigram_jaccard",
    "change_clause", "words_x_change", "polarity_turned", "same_slot", "both_open_slot", "same_category",
    "kin_category", "change_x_cos", "slot_x_change", "meaning_clause", "meaning_message", "change_x_meaning",
)
_KIN = {frozenset({"preference", "profile"}), frozenset({"profile", "relationship"})}


@dataclass(frozen=True)
class Side:
    """What the pair model needs of one text: its n-gram row, topic words, bigrams, head readings."""

    row: dict[int, float]  # the L2-normalised TF-IDF row: n-gram index → weight
    words: frozenset[str]
    bigrams: frozenset[str]
    negated: bool
    change: float
    slot: str
    slot_p: float
    category: str
    plain: str = ""  # the text, lower case: Chinese words are looked for inside it
    meaning: np.ndarray = field(default_factory=lambda: np.zeros(0))  # unit sentence vector (empty: none)
    cols: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # the row as arrays
    vals: np.ndarray = field(default_factory=lambda: np.zeros(0))
    # The Chinese words of two or more characters, which `shared_words` also looks for inside the other text (a
    # turn compares one clause with every stored memory: testing each word for Chinese there was a tenth of it).
    cjk_words: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cjk_words", frozenset(w for w in self.words if len(w) >= 2 and has_cjk(w)))


def bigrams(text: str) -> frozenset[str]:
    """Character bigrams of the letters and Chinese characters (spaces and marks out)."""
    s = "".join(ch.lower() for ch in text if ch.isalnum())
    return frozenset(s[i:i + 2] for i in range(len(s) - 1))


def pair_features(old: Side, new: Side, message: Side, cosines: tuple[float, float] | None = None) -> list[float]:
    """The feature row of (stored memory, new clause within its message), in PAIR_FEATURES order;
    `cosines` (old·new, old·message) when they were computed for many pairs at once."""
    cos_clause, cos_message = cosines if cosines is not None else (dot(old.row, new.row), dot(old.row, message.row))
    words_clause = min(3, shared_words(old, new)) / 3
    words_message = min(3, shared_words(old, message)) / 3
    union = old.bigrams | message.bigrams
    jaccard = len(old.bigrams & message.bigrams) / len(union) if union else 0.0
    same_slot = float(old.slot != "other" and old.slot == new.slot and min(old.slot_p, new.slot_p) >= 0.4)
    both_open = float(old.slot == "other" and new.slot == "other")
    same_category = float(old.category == new.category)
    kin = float(same_category or frozenset({old.category, new.category}) in _KIN)
    turned = float(old.negated != new.negated)
    change_message = max(new.change, message.change)
    meaning_clause, meaning_message = alike(old, new), alike(old, message)
    # A stated change counts only through what it is related to (words, n-grams, slot, meaning): alone, "the night
    # shift was rough" read as a change made every memory beside it look replaced.
    return [cos_clause, cos_message, words_clause, words_message, jaccard, new.change,
            change_message * max(words_clause, words_message), turned,
            same_slot, both_open, same_category, kin, new.change * max(cos_clause, cos_message),
            same_slot * change_message, meaning_clause, meaning_message,
            change_message * max(meaning_clause, meaning_message)]


def alike(a: Side, b: Side) -> float:
    """The cosine of two sides' sentence vectors (0 when either has none)."""
    if not len(a.meaning) or len(a.meaning) != len(b.meaning):
        return 0.0
    return float(a.meaning @ b.meaning)


def shared_words(a: Side, b: Side) -> int:
    """Topic words the two texts share. Chinese has no spaces, so a Chinese word of one found inside the
    other's text counts too: "追与凤行" and "与凤行弃了" share 凤行 though the tokens differ (凤行 / 凤行弃)."""
    common = len(a.words & b.words)
    if not (a.cjk_words or b.cjk_words):
        return common
    return (common + sum(1 for w in a.cjk_words - b.words if w in b.plain)
            + sum(1 for w in b.cjk_words - a.words if w in a.plain))


def dot(a: dict[int, float], b: dict[int, float]) -> float:
    """The dot product of two sparse rows."""
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())


def row_dicts(rows) -> list[dict[int, float]]:
    """The rows of a CSR matrix as dicts."""
    return [dict(zip(rows.indices[rows.indptr[i]:rows.indptr[i + 1]].tolist(),
                     rows.data[rows.indptr[i]:rows.indptr[i + 1]].tolist())) for i in range(rows.shape[0])]


def _cosines(olds: list[Side], news: list[Side], width: int) -> np.ndarray:
    """Every old row against every new row in one sparse product: (len(olds), len(news)); `width` is
    the number of n-gram features."""

    def matrix(sides: list[Side]) -> sparse.csr_matrix:
        indptr = np.cumsum([0] + [len(x.cols) for x in sides])
        cols = np.concatenate([x.cols for x in sides]) if sides else np.zeros(0, dtype=np.int64)
        vals = np.concatenate([x.vals for x in sides]) if sides else np.zeros(0)
        return sparse.csr_matrix((vals, cols, indptr), shape=(len(sides), width))

    return np.asarray((matrix(olds) @ matrix(news).T).todense())


def shares_something(old: Side, new: Side, message: Side, cosine: float) -> bool:
    """Do the two sides share anything: the same slot, a topic word, some n-gram or meaning likeness? (Read from the
    sides, not from `pair_features`' row: most of a large memory fails it and never gets a row.)"""
    if cosine >= RELATED_COSINE or shared_words(old, new) or shared_words(old, message):
        return True
    if max(alike(old, new), alike(old, message)) >= RELATED_MEANING:
        return True
    if old.slot != "other" and old.slot == new.slot and min(old.slot_p, new.slot_p) >= SHARED_SLOT_P:
        return True
    common = len(old.bigrams & message.bigrams)
    union = len(old.bigrams) + len(message.bigrams) - common
    return bool(union) and common / union >= RELATED_JACCARD


def _nearest_in_meaning(olds: list[Side], new: Side, message: Side) -> int | None:
    """The stored memory nearest in meaning to a stated change, when it is near enough (NEAREST_MEANING) though
    under the gate's RELATED_MEANING: a new state said in other words ("gave up coffee completely" / "only drink oat
    flat whites", "爱上爬山了" / "最讨厌运动") shares no word with the old one, and in a full memory the old state is
    still the fact nearest to it. Only the nearest one: the pair model then decides as for any pair."""
    dim = len(new.meaning)
    if max(new.change, message.change) < CHANGE_CONFIDENCE or not dim or len(message.meaning) != dim:
        return None
    have = [i for i, old in enumerate(olds) if len(old.meaning) == dim]
    if not have:
        return None
    close = np.stack([olds[i].meaning for i in have]) @ np.stack([new.meaning, message.meaning]).T
    best = int(close.max(axis=1).argmax())
    return have[best] if float(close[best].max()) >= NEAREST_MEANING else None


def side(row: dict[int, float], text: str, change: float, slot: str, slot_p: float, category: str,
         vector: np.ndarray | None = None) -> Side:
    """A Side from a text, the heads' readings of it and its sentence vector."""
    meaning = np.zeros(0) if vector is None or not len(vector) else np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(meaning)) if len(meaning) else 0.0
    return Side(row, frozenset(topic_words(text)), bigrams(text), has_negation(text), change, slot, slot_p, category,
                text.lower(), meaning / norm if norm else np.zeros(0), np.fromiter(row.keys(), dtype=np.int64, count=len(row)),
                np.fromiter(row.values(), dtype=np.float64, count=len(row)))


@dataclass(frozen=True)
class PairModel:
    """Logistic weights over PAIR_FEATURES."""

    coef: np.ndarray
    intercept: float

    def probability(self, rows: list[list[float]]) -> np.ndarray:
        """P(the new clause replaces the stored memory) for each feature row."""
        if not rows:
            return np.zeros(0)
        z = np.asarray(rows, dtype=np.float64) @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))


class Replacements:
    """Finds the stored memories a candidate replaces, with the pair model shipped beside the heads.

    The readings of stored memories are cached by (id, words), so a turn costs one scoring of the new
    clause and its message plus a dot product per stored memory."""

    def __init__(self, extractor: TrainedExtractor) -> None:
        self.extractor = extractor
        coef, intercept = extractor.supersede_weights or (np.zeros(len(PAIR_FEATURES)), -1e9)
        self.model = PairModel(coef, intercept)
        self._sides: OrderedDict[tuple, Side] = OrderedDict()

    @property
    def available(self) -> bool:
        return self.extractor.supersede_weights is not None

    def _text_sides(self, texts: list[str], categories: list[str], changes: list[float] | None = None) -> list[Side]:
        rows = row_dicts(self.extractor.features(texts))
        scores = self.extractor.score_texts(texts)
        meanings = self.extractor.sentence_vectors(texts)
        return [side(rows[i], t, changes[i] if changes else s.change, s.slot, s.slot_p, c, meanings[i])
                for i, (t, s, c) in enumerate(zip(texts, scores, categories))]

    def _stored_sides(self, memories: list[Memory]) -> list[Side]:
        keys = [(m.id, m.quote or m.content, m.category) for m in memories]
        missing = [k for k in keys if k not in self._sides]
        for k, s in zip(missing, self._text_sides([k[1] for k in missing], [k[2] for k in missing])):
            self._sides[k] = s
        for k in keys:
            self._sides.move_to_end(k)
        while len(self._sides) > _SIDE_CACHE_SIZE:
            self._sides.popitem(last=False)
        return [self._sides[k] for k in keys]

    def slot_of(self, memory: Memory) -> tuple[str, float]:
        """The slot head's reading of a stored memory (slot, probability), from the cache `scored` filled."""
        found = self._stored_sides([memory])[0]
        return found.slot, found.slot_p

    def _message_side(self, text: str) -> Side:
        key = ("message", text, "")
        if key not in self._sides:
            change = max((s.change for s in self.extractor.score_message(text)), default=0.0)
            self._sides[key] = side(row_dicts(self.extractor.features([text]))[0], text, change, "other", 0.0, "",
                                    self.extractor.sentence_vectors([text])[0])
        return self._sides[key]

    def scored(self, cand: Candidate, stored: list[Memory]) -> list[tuple[Memory, float]]:
        """Each stored memory with the probability that the candidate replaces it."""
        if not stored or not self.available:
            return []
        new = self._text_sides([cand.quote or cand.content], [cand.category], [cand.change])[0]
        message = self._message_side(cand.context) if cand.context else new
        olds = self._stored_sides(stored)
        cosines = _cosines(olds, [new, message], self.extractor.width)
        # A change replaces what it is about: a pair that shares no slot, word or n-gram is never one, so
        # only the pairs that pass that gate get a feature row (most of a large memory does not).
        near = [i for i, (old, c) in enumerate(zip(olds, cosines)) if shares_something(old, new, message, max(c))]
        nearest = _nearest_in_meaning(olds, new, message)
        if nearest is not None and nearest not in near:
            near.append(nearest)
        rows = [pair_features(olds[i], new, message, (float(cosines[i][0]), float(cosines[i][1]))) for i in near]
        p = self.model.probability(rows)
        chance = dict(zip(near, (float(q) for q in p)))
        return [(m, chance.get(i, 0.0)) for i, m in enumerate(stored)]

    def replaced(self, cand: Candidate, stored: list[Memory], threshold: float | None = None) -> list[Memory]:
        """The (at most two) stored memories the candidate most likely replaces, above the threshold.
        Any category but events can be replaced: a change of mind is filed as a taste, a fact or a wish
        depending on how it was said ("call me Bex" / "can you start using Rebecca?"). News of another person never
        replaces who the user is: "my sister moved to Denver" leaves "Lives in Austin" (the same city slot)."""
        if cand.category == "event":
            return []
        pool = [m for m in stored if m.category != "event" and (m.category != "profile" or about(cand.topic) == "user")]
        bar = REPLACE_PROBABILITY if threshold is None else threshold
        hits = sorted((x for x in self.scored(cand, pool) if x[1] >= bar), key=lambda x: -x[1])
        return [m for m, _ in hits[:MAX_REPLACED]]
