"""The trained half of extraction: linear classifiers over character n-grams, shipped as arrays.

Heads: is a clause worth remembering, which category, which polarity, does it state a change
("no longer", "switched to", 离婚, 调到), and is a whole message an instruction aimed at the
companion. The weights are built by `scripts/train_extractor.py` from the corpus's train split and
shipped as `extractor.npz`; scoring needs scikit-learn's analyzer only, not a fitted estimator.

The clause heads also read sentence vectors (the store's multilingual embedder, which reads Chinese
and English alike): the clause's own and, at half weight, its whole message's. N-grams see the words;
the vectors see what the words mean, so a phrasing the corpus never had still lands near its kind.
An extractor with no encoder bound (`with_encoder`) reads n-grams only: the vector part of each
score is then zero, which the heads were not trained for, so the app and the evaluation bind one.
"""
from __future__ import annotations

import copy
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import numpy as np
from scipy import sparse

from memory.learn.clauses import Clause, split_clauses
from memory.learn.context import CATEGORY_ORDER, ContextReader, class_probabilities
from memory.learn.features import ATTACK_VECTOR_WEIGHT, VECTORIZER_OPTIONS, attack_text, clause_feature_text, normalize, vector_columns
from memory.learn.thresholds import ATTACK_THRESHOLD, WORTH_THRESHOLD, WORTH_THRESHOLD_ZH
from memory.protocols import Embedder

WEIGHTS = Path(__file__).with_name("extractor.npz")
HEADS = ("worth", "category", "polarity", "change", "slot", "attack")
CLAUSE_HEADS = HEADS[:-1]
_VECTOR_CACHE_SIZE = 512
_HAN = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class ClauseScore:
    """The heads' verdict on one clause."""

    text: str
    worth: float
    category: str
    category_p: float
    polarity: str
    polarity_p: float
    change: float
    slot: str = "other"
    slot_p: float = 0.0
    clause: Clause | None = None
    categories: tuple[tuple[str, float], ...] = ()  # every category with its probability

    def category_probability(self, category: str) -> float:
        """The heads' probability that the clause is of this category (its lead's when only that is known)."""
        return dict(self.categories).get(category, self.category_p if category == self.category else 0.0)


@dataclass(frozen=True)
class _Head:
    coef_t: np.ndarray  # (features, classes or 1), contiguous for the sparse product
    intercept: np.ndarray
    classes: tuple[str, ...]

    def probabilities(self, x: sparse.csr_matrix, dense: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities for rows of n-gram features, with their sentence-vector columns (`dense`)
        when the head was trained with them."""
        width = x.shape[1]
        z = np.asarray(x @ self.coef_t[:width]) + self.intercept
        if dense is not None and self.coef_t.shape[0] > width:
            z = z + dense @ self.coef_t[width:]
        return class_probabilities(z)


class TrainedExtractor:
    """Scores clauses and messages with the shipped weights."""

    worth_threshold = WORTH_THRESHOLD
    worth_threshold_zh = WORTH_THRESHOLD_ZH

    def threshold_for(self, text: str) -> float:
        """The worth a clause needs to be kept: Chinese clauses have their own bar (see WORTH_THRESHOLD_ZH)."""
        return self.worth_threshold_zh if _HAN.search(text) else self.worth_threshold
    attack_threshold = ATTACK_THRESHOLD

    def __init__(self, arrays: Mapping[str, np.ndarray], encoder: Embedder | None = None) -> None:
        self.encoder = encoder
        # The width of the sentence vectors the clause heads were trained with (0: n-grams only).
        self.vector_dim = int(np.asarray(arrays["vector_dim"]).ravel()[0]) if "vector_dim" in arrays else 0
        self._vectors: dict[str, np.ndarray] = {}
        vocab = [str(v) for v in arrays["vocabulary"]]
        self._index = {gram: i for i, gram in enumerate(vocab)}
        self._idf = np.asarray(arrays["idf"], dtype=np.float32)
        from sklearn.feature_extraction.text import TfidfVectorizer  # here: importing scikit-learn costs ~1 s

        self._analyze = TfidfVectorizer(**VECTORIZER_OPTIONS).build_analyzer()
        self._heads = {h: _Head(np.ascontiguousarray(np.asarray(arrays[f"{h}_coef"], dtype=np.float32).T),
                                np.asarray(arrays[f"{h}_intercept"], dtype=np.float32),
                                tuple(str(c) for c in arrays[f"{h}_classes"])) for h in HEADS}
        # The second reading (memory/learn/context.py) and the supersede pair model (memory/learn/supersede.py)
        # ship in the same file.
        self.context = ContextReader(arrays) if ContextReader.available(arrays) else None
        if self.context is not None and self._heads["category"].classes != CATEGORY_ORDER:
            raise ValueError(f"category classes {self._heads['category'].classes} are not {CATEGORY_ORDER}")
        self.supersede_weights = ((np.asarray(arrays["supersede_coef"], dtype=np.float64),
                                   float(np.asarray(arrays["supersede_intercept"]).ravel()[0]))
                                  if "supersede_coef" in arrays else None)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], encoder: Embedder | None = None) -> TrainedExtractor:
        """A model from arrays in memory (training and cross-validation)."""
        return cls(arrays, encoder)

    def with_encoder(self, encoder: Embedder | None) -> TrainedExtractor:
        """The same weights reading sentence vectors from `encoder` (a shallow copy; arrays are shared)."""
        if encoder is self.encoder:
            return self
        bound = copy.copy(self)
        bound.encoder = encoder
        bound._vectors = {}
        return bound

    def sentence_vectors(self, texts: list[str]) -> np.ndarray:
        """One row per text from the bound encoder (zeros without one or when the heads use none);
        the last few hundred texts are remembered, since a turn reads its message more than once (the
        cache is emptied before it would pass its size, so a batch larger than that still fits once)."""
        out = np.zeros((len(texts), self.vector_dim), dtype=np.float32)
        if self.encoder is None or not self.vector_dim or not texts:
            return out
        unique = list(dict.fromkeys(texts))
        missing = [t for t in unique if t not in self._vectors]
        if missing:
            if len(self._vectors) + len(missing) > _VECTOR_CACHE_SIZE:
                self._vectors.clear()
                missing = unique  # the texts that were cached went with the rest
            for t, v in zip(missing, self.encoder.embed(missing)):
                self._vectors[t] = np.asarray(v, dtype=np.float32)
        for i, t in enumerate(texts):
            out[i] = self._vectors[t]
        return out

    def prefetch(self, texts: list[str]) -> None:
        """Embed in one batch the texts about to be scored (a call costs more than a text in it)."""
        self.sentence_vectors(texts)

    def message_texts(self, text: str) -> list[str]:
        """The texts `score_message` embeds: each clause's and the whole message's."""
        clauses = split_clauses(text)
        return [clause_feature_text(clauses, k) for k in range(len(clauses))] + [normalize(text)]

    def clause_vectors(self, texts: list[str], messages: list[str]) -> np.ndarray | None:
        """The sentence-vector columns of clause rows: the clause's vector, then its message's."""
        if not self.vector_dim:
            return None
        both = self.sentence_vectors(texts + messages)
        return vector_columns(both[:len(texts)], both[len(texts):])

    def features(self, texts: list[str]) -> sparse.csr_matrix:
        """Sublinear TF-IDF rows, L2-normalised: what scikit-learn's TfidfVectorizer computes."""
        data: list[float] = []
        cols: list[int] = []
        indptr = [0]
        for text in texts:
            counts = Counter(g for g in self._analyze(text) if g in self._index)
            row = {self._index[g]: (1.0 + math.log(n)) * float(self._idf[self._index[g]]) for g, n in counts.items()}
            norm = math.sqrt(sum(v * v for v in row.values())) or 1.0
            cols.extend(row)
            data.extend(v / norm for v in row.values())
            indptr.append(len(cols))
        return sparse.csr_matrix((np.array(data, dtype=np.float32), np.array(cols, dtype=np.int64), indptr),
                                 shape=(len(texts), len(self._idf)))

    def score_texts(self, texts: list[str], clauses: list[Clause] | None = None,
                    messages: list[str] | None = None) -> list[ClauseScore]:
        """Every head on each clause text; `messages` are the messages they come from (each text is its
        own message when not given: a rule's quote, a stored memory)."""
        if not texts:
            return []
        return self._scores(texts, self._head_probabilities(texts, messages or texts), clauses)

    def _head_probabilities(self, texts: list[str], messages: list[str]) -> dict[str, np.ndarray]:
        x = self.features(texts)
        dense = self.clause_vectors(texts, messages)
        return {h: self._heads[h].probabilities(x, dense) for h in CLAUSE_HEADS}

    def _scores(self, texts: list[str], probs: dict[str, np.ndarray], clauses: list[Clause] | None) -> list[ClauseScore]:
        worth, cat, pol = probs["worth"][:, 1], probs["category"], probs["polarity"]
        change, slot = probs["change"][:, 1], probs["slot"]
        cats, pols, slots = (self._heads[h].classes for h in ("category", "polarity", "slot"))
        out = []
        for i, text in enumerate(texts):
            c, p, s = int(cat[i].argmax()), int(pol[i].argmax()), int(slot[i].argmax())
            out.append(ClauseScore(text, float(worth[i]), cats[c], float(cat[i, c]), pols[p], float(pol[i, p]),
                                   float(change[i]), slots[s], float(slot[i, s]), clauses[i] if clauses else None,
                                   tuple((name, float(v)) for name, v in zip(cats, cat[i]))))
        return out

    def score_message(self, text: str) -> list[ClauseScore]:
        """Every clause of a message, scored; with the second reading (memory/learn/context.py), worth and
        category are read in the light of the message's other clauses and the corpus's look-alikes."""
        clauses = split_clauses(text)
        if not clauses:
            return []
        texts = [clause_feature_text(clauses, k) for k in range(len(clauses))]
        probs = self._head_probabilities(texts, [normalize(text)] * len(clauses))
        if self.context is not None and self.encoder is not None and self.vector_dim:
            worth, categories = self.context.read(probs["worth"][:, 1], probs["category"], texts,
                                                  self.sentence_vectors(texts))
            probs = {**probs, "worth": np.stack([1.0 - worth, worth], axis=1), "category": categories}
        return self._scores(texts, probs, clauses)

    @property
    def width(self) -> int:
        """How many n-gram features a row has."""
        return len(self._idf)

    @property
    def slots(self) -> frozenset[str]:
        """The one-at-a-time attributes the slot head tells apart ("profile:job", "relationship:status"), not "other"."""
        return frozenset(self._heads["slot"].classes) - {"other"}

    def attack_score(self, text: str) -> float:
        """How likely a whole message is an instruction or identity claim aimed at the companion."""
        message = attack_text(text)
        dense = ATTACK_VECTOR_WEIGHT * self.sentence_vectors([message]) if self.vector_dim else None
        return float(self._heads["attack"].probabilities(self.features([message]), dense)[0, 1])


def load_extractor(path: Path) -> TrainedExtractor:
    """An extractor from a weights file written by scripts/train_extractor.py."""
    with np.load(path, allow_pickle=False) as data:
        return TrainedExtractor({k: data[k] for k in data.files})


@lru_cache(maxsize=1)
def shipped_extractor() -> TrainedExtractor:
    """The extractor built from the shipped weights (loaded once)."""
    return load_extractor(WEIGHTS)
