"""The second reading of a message's clauses: each clause's worth and category in the light of the rest.

The first heads (classifier.py) score a clause on its own words. Most wrong clause memories are the
second and third clauses of a message whose first clause was the fact ("600 quid. on tiny plastic men.
Kai is obsessed with warhammer"), and most wrong categories are clauses whose nearest look-alikes in
the corpus were filed otherwise. So a small stacked model reads, per clause: the first heads' scores,
how the clause ranks among its message's clauses, its shape (length, a question, first or second
person, digits), and how the corpus's clauses most like it in meaning were labelled (a vote of the
nearest training clauses by sentence vector, compared as sign bits). It is trained by
`scripts/train_extractor.py` on out-of-fold first-head scores, so it learns how far to trust them on
text they never saw, and ships as a few arrays in `extractor.npz`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

CATEGORY_ORDER = ("event", "feedback", "preference", "profile", "relationship")
NEIGHBOURS = 10
_FIRST = re.compile(r"\b(?:i|i'm|im|my|me|mine|myself|i've|ive|i'd|i'll|we|our|us)\b|我", re.I)
_SECOND = re.compile(r"\b(?:you|your|u|ur)\b|你|您", re.I)
_QUESTION = re.compile(r"[?？]\s*$|[吗呢]$")
_CJK = re.compile(r"[\u3400-\u9fff]")


def logit(p: np.ndarray) -> np.ndarray:
    """log(p / (1 - p)), clipped so a certain head does not dominate."""
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


@dataclass(frozen=True)
class Votes:
    """How the nearest training clauses of each clause were labelled."""

    worth: np.ndarray      # (n,) similarity-weighted share of neighbours that carried a memory
    nearest: np.ndarray    # (n,) similarity of the nearest one
    category: np.ndarray   # (n, 5) similarity-weighted category shares among neighbours that carried one

    def take(self, rows) -> Votes:
        """The votes of some rows (indices or a mask)."""
        return Votes(self.worth[rows], self.nearest[rows], self.category[rows])


class Neighbours:
    """The training clauses' sentence vectors as sign bits, with their labels: a vote by meaning."""

    def __init__(self, bits: np.ndarray, worth: np.ndarray, category: np.ndarray) -> None:
        packed = np.ascontiguousarray(np.asarray(bits, dtype=np.uint8))
        self._bits = packed.view(np.uint64) if packed.shape[1] % 8 == 0 else packed
        self._dim = packed.shape[1] * 8
        self._worth = np.asarray(worth, dtype=np.float64)
        self._category = np.asarray(category, dtype=np.int64)  # index into CATEGORY_ORDER, -1 for no memory
        self._onehot = np.zeros((len(self._category), len(CATEGORY_ORDER)))
        has = self._category >= 0
        self._onehot[np.where(has)[0], self._category[has]] = 1.0

    @staticmethod
    def pack(vectors: np.ndarray) -> np.ndarray:
        """Sign bits of vectors, packed eight to a byte (what ships)."""
        return np.packbits(np.asarray(vectors) > 0, axis=1)

    def vote(self, vectors: np.ndarray, exclude: np.ndarray | None = None) -> Votes:
        """The votes for each row of `vectors`; `exclude[i, j]` drops training clause j for row i
        (training: a clause never votes for its own case)."""
        n = len(vectors)
        if n == 0:
            return Votes(np.zeros(0), np.zeros(0), np.zeros((0, len(CATEGORY_ORDER))))
        query = np.ascontiguousarray(self.pack(vectors))
        query = query.view(self._bits.dtype)
        # Sign agreement from the Hamming distance of the packed bits: 660 KB read per message, not a float matrix.
        distance = np.bitwise_count(query[:, None, :] ^ self._bits[None, :, :]).sum(axis=2, dtype=np.int64)
        # Ties (similarities are multiples of 2/dim) go to the earlier training clause, so the same
        # neighbours are chosen whatever selection kernel numpy dispatches to on this CPU.
        count = distance.shape[1]
        keys = (self._dim - distance) * count + (count - 1 - np.arange(count))
        if exclude is not None:
            keys[exclude] = -1
        k = min(NEIGHBOURS, count - 1)
        idx = np.argpartition(-keys, k, axis=1)[:, :k]
        top = 1.0 - 2.0 * np.take_along_axis(distance, idx, axis=1) / self._dim
        w = np.maximum(top, 0.0)
        worth = (self._worth[idx] * w).sum(1) / np.maximum(w.sum(1), 1e-6)
        cw = w * (self._category[idx] >= 0)
        category = (self._onehot[idx] * cw[:, :, None]).sum(1) / np.maximum(cw.sum(1), 1e-6)[:, None]
        return Votes(worth, top.max(1), category)


def shape_features(text: str) -> list[float]:
    """What a clause looks like: length, Chinese, first and second person, a question, digits."""
    return [math.log1p(len(text)), float(bool(_CJK.search(text))), float(bool(_FIRST.search(text))),
            float(bool(_SECOND.search(text))), float(bool(_QUESTION.search(text.strip()))),
            float(any(ch.isdigit() for ch in text))]


def worth_features(worth: np.ndarray, categories: np.ndarray, texts: Sequence[str], votes: Votes) -> np.ndarray:
    """Rows for the second worth reading of ONE message's clauses (first-head worth and category
    probabilities in CATEGORY_ORDER, the clause texts, their neighbour votes)."""
    z = logit(np.asarray(worth))
    n = len(z)
    rows = []
    for i in range(n):
        others = np.delete(z, i)
        best_other = float(others.max()) if len(others) else -6.0
        rank = int((others > z[i]).sum())
        rows.append([z[i], best_other, z[i] - max(best_other, z[i]), float(rank == 0), float(rank >= 2),
                     math.log1p(n), i / (n - 1) if n > 1 else 0.0, *categories[i], float(categories[i].max()),
                     *shape_features(texts[i]), votes.worth[i], votes.nearest[i]])
    return np.asarray(rows, dtype=np.float64).reshape(n, -1)


def category_features(categories: np.ndarray, texts: Sequence[str], votes: Votes) -> np.ndarray:
    """Rows for the second category reading: the first head's log-probabilities, the neighbours'
    category shares, the clause's shape and its neighbours' worth vote."""
    rows = [[*np.log(np.clip(categories[i], 1e-4, 1.0)), *votes.category[i], *shape_features(texts[i]),
             votes.worth[i], votes.nearest[i]] for i in range(len(texts))]
    return np.asarray(rows, dtype=np.float64).reshape(len(texts), -1)


@dataclass(frozen=True)
class _Linear:
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray       # (classes or 1, features)
    intercept: np.ndarray

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        return class_probabilities(((x - self.mean) / self.scale) @ self.coef.T + self.intercept)


def class_probabilities(z: np.ndarray) -> np.ndarray:
    """Rows of class probabilities from a linear model's scores: one column (binary) or one a class."""
    if z.shape[1] == 1:
        p = 1.0 / (1.0 + np.exp(-z[:, 0]))
        return np.stack([1.0 - p, p], axis=1)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class ContextReader:
    """The shipped second reading: worth and category of a message's clauses, given the first heads'."""

    def __init__(self, arrays: Mapping[str, np.ndarray]) -> None:
        self.neighbours = Neighbours(arrays["context_bits"], arrays["context_bits_worth"],
                                     arrays["context_bits_category"])
        self._worth = _linear(arrays, "context_worth")
        self._category = _linear(arrays, "context_category")

    @staticmethod
    def available(arrays: Mapping[str, np.ndarray]) -> bool:
        """Do these arrays carry a second reading?"""
        return "context_bits" in arrays

    def read(self, worth: np.ndarray, categories: np.ndarray, texts: Sequence[str],
             vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(worth, category probabilities in CATEGORY_ORDER) of one message's clauses."""
        votes = self.neighbours.vote(vectors)
        w = self._worth.probabilities(worth_features(worth, categories, texts, votes))[:, 1]
        return w, self._category.probabilities(category_features(categories, texts, votes))


def _linear(arrays: Mapping[str, np.ndarray], name: str) -> _Linear:
    return _Linear(*(np.asarray(arrays[f"{name}_{part}"], dtype=np.float64)
                     for part in ("mean", "scale", "coef", "intercept")))
