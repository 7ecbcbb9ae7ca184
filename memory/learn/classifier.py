"""The trained half of extraction: linear classifiers over character n-grams, shipped as arrays.

Heads: is a clause worth remembering, which category, which polarity, does it state a change
("no longer", "switched to", 离婚, 调到), and is a whole message an instruction aimed at the
companion. The weights are built by `scripts/train_extractor.py` from the corpus's train split and
shipped as `extractor.npz`; scoring needs scikit-learn's analyzer only, not a fitted estimator.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import numpy as np
from scipy import sparse

from memory.learn.clauses import Clause, split_clauses
from memory.learn.features import VECTORIZER_OPTIONS, clause_feature_text, normalize

WEIGHTS = Path(__file__).with_name("extractor.npz")
HEADS = ("worth", "category", "polarity", "change", "slot", "attack")
WORTH_THRESHOLD = 0.5
ATTACK_THRESHOLD = 0.5


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


@dataclass(frozen=True)
class _Head:
    coef_t: np.ndarray  # (features, classes or 1), contiguous for the sparse product
    intercept: np.ndarray
    classes: tuple[str, ...]

    def probabilities(self, x: sparse.csr_matrix) -> np.ndarray:
        """Class probabilities for rows of dense features."""
        z = np.asarray(x @ self.coef_t) + self.intercept
        if len(self.classes) == 2:
            p = 1.0 / (1.0 + np.exp(-z[:, 0]))
            return np.stack([1.0 - p, p], axis=1)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


class TrainedExtractor:
    """Scores clauses and messages with the shipped weights."""

    worth_threshold = WORTH_THRESHOLD
    attack_threshold = ATTACK_THRESHOLD

    def __init__(self, arrays: Mapping[str, np.ndarray]) -> None:
        vocab = [str(v) for v in arrays["vocabulary"]]
        self._index = {gram: i for i, gram in enumerate(vocab)}
        self._idf = np.asarray(arrays["idf"], dtype=np.float32)
        from sklearn.feature_extraction.text import TfidfVectorizer  # here: importing scikit-learn costs ~1 s

        self._analyze = TfidfVectorizer(**VECTORIZER_OPTIONS).build_analyzer()
        self._heads = {h: _Head(np.ascontiguousarray(np.asarray(arrays[f"{h}_coef"], dtype=np.float32).T),
                                np.asarray(arrays[f"{h}_intercept"], dtype=np.float32),
                                tuple(str(c) for c in arrays[f"{h}_classes"])) for h in HEADS}
        # The supersede pair model (memory/learn/supersede.py) ships in the same file.
        self.supersede_weights = ((np.asarray(arrays["supersede_coef"], dtype=np.float64),
                                   float(np.asarray(arrays["supersede_intercept"]).ravel()[0]))
                                  if "supersede_coef" in arrays else None)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> TrainedExtractor:
        """A model from arrays in memory (training and cross-validation)."""
        return cls(arrays)

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

    def score_texts(self, texts: list[str], clauses: list[Clause] | None = None) -> list[ClauseScore]:
        """Every head on each clause text."""
        if not texts:
            return []
        x = self.features(texts)
        worth = self._heads["worth"].probabilities(x)[:, 1]
        cat = self._heads["category"].probabilities(x)
        pol = self._heads["polarity"].probabilities(x)
        change = self._heads["change"].probabilities(x)[:, 1]
        slot = self._heads["slot"].probabilities(x)
        cats, pols, slots = (self._heads[h].classes for h in ("category", "polarity", "slot"))
        out = []
        for i, text in enumerate(texts):
            c, p, s = int(cat[i].argmax()), int(pol[i].argmax()), int(slot[i].argmax())
            out.append(ClauseScore(text, float(worth[i]), cats[c], float(cat[i, c]), pols[p], float(pol[i, p]),
                                   float(change[i]), slots[s], float(slot[i, s]), clauses[i] if clauses else None))
        return out

    def score_message(self, text: str) -> list[ClauseScore]:
        """Every clause of a message, scored."""
        clauses = split_clauses(text)
        return self.score_texts([clause_feature_text(clauses, k) for k in range(len(clauses))], clauses)

    @property
    def width(self) -> int:
        """How many n-gram features a row has."""
        return len(self._idf)

    def attack_score(self, text: str) -> float:
        """How likely a whole message is an instruction or identity claim aimed at the companion."""
        return float(self._heads["attack"].probabilities(self.features([normalize(text)]))[0, 1])


def load_extractor(path: Path) -> TrainedExtractor:
    """An extractor from a weights file written by scripts/train_extractor.py."""
    with np.load(path, allow_pickle=False) as data:
        return TrainedExtractor({k: data[k] for k in data.files})


@lru_cache(maxsize=1)
def shipped_extractor() -> TrainedExtractor:
    """The extractor built from the shipped weights (loaded once)."""
    return load_extractor(WEIGHTS)
