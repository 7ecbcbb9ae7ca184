"""What the trained extractor sees of a clause: one definition for training and for use.

Character n-grams inside word boundaries read English and Chinese alike (Chinese has no spaces, so
its n-grams are character runs), survive typos and slang, and need no tokenizer or model download.
"""
from __future__ import annotations

import re

import numpy as np

from memory.learn.clauses import Clause
from memory.learn.rules.explicit import without_triggers

VECTORIZER_OPTIONS = {
    "analyzer": "char_wb",
    "ngram_range": (1, 4),
    "min_df": 2,
    "sublinear_tf": True,
    "lowercase": True,
}
# How much the clause's sentence vector and its whole message's weigh beside the n-grams (unit vectors
# beside an L2-normalised TF-IDF row); chosen by grouped cross-validation on the train split.
CLAUSE_VECTOR_WEIGHT = 1.0
MESSAGE_VECTOR_WEIGHT = 0.5
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Fold the spellings that do not change meaning: curly apostrophes, repeated spaces."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    return _SPACES.sub(" ", text).strip()


def clause_feature_text(clauses: list[Clause], k: int) -> str:
    """The text scored for clause k of a message."""
    return normalize(clauses[k].text)


def vector_columns(clause_vectors: np.ndarray, message_vectors: np.ndarray) -> np.ndarray:
    """The sentence-vector columns of clause rows: the clause's vector, then its message's, weighted."""
    return np.hstack([CLAUSE_VECTOR_WEIGHT * np.asarray(clause_vectors, dtype=np.float32),
                      MESSAGE_VECTOR_WEIGHT * np.asarray(message_vectors, dtype=np.float32)])


# How much a whole message's sentence vector weighs beside its n-grams in the attack head. Chosen by grouped
# 5-fold cross-validation on the train split (vector weight 0 / 0.5 / 1 at C 1 / 4 / 16): at C 4, attack
# P/R .958/.948 with n-grams only, .979/.966 at 0.5, .972/.969 at 1.
ATTACK_VECTOR_WEIGHT = 0.5


def attack_text(message: str) -> str:
    """What the attack head reads of a whole message: normalized, its remember-triggers taken out (what is
    asked to be remembered decides, not the asking: memory/learn/rules/explicit.py)."""
    return normalize(without_triggers(message))
