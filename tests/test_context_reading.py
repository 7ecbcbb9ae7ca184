"""The second reading of a message's clauses (memory/learn/context.py): neighbour votes by meaning and
the shipped stacked heads, on messages written for these tests (not from the corpus)."""
from __future__ import annotations

import numpy as np
import pytest

from memory.learn.classifier import shipped_extractor
from memory.learn.context import CATEGORY_ORDER, Neighbours, worth_features


def test_neighbours_vote_with_the_training_clauses_nearest_in_meaning():
    rng = np.random.default_rng(7)
    memory_like, chatter_like = rng.normal(size=64), rng.normal(size=64)
    base = np.vstack([memory_like + 0.1 * rng.normal(size=64) for _ in range(12)]
                     + [chatter_like + 0.1 * rng.normal(size=64) for _ in range(12)])
    worth = np.array([1] * 12 + [0] * 12)
    category = np.array([CATEGORY_ORDER.index("profile")] * 12 + [-1] * 12)
    neighbours = Neighbours(Neighbours.pack(base), worth, category)
    votes = neighbours.vote(np.vstack([memory_like, chatter_like]))
    assert votes.worth[0] > 0.9 and votes.worth[1] < 0.1
    assert votes.category[0].argmax() == CATEGORY_ORDER.index("profile")
    assert votes.nearest[0] > 0.5
    # a training clause never votes for its own case
    own = np.zeros((1, len(base)), dtype=bool)
    own[0, :12] = True
    assert neighbours.vote(memory_like[None, :], exclude=own).worth[0] < 0.5


def test_a_clause_is_read_beside_the_other_clauses_of_its_message():
    votes = Neighbours(Neighbours.pack(np.eye(4)), np.array([1, 0, 1, 0]), np.array([3, -1, 2, -1])).vote(np.eye(4)[:2])
    rows = worth_features(np.array([0.9, 0.6]), np.full((2, 5), 0.2), ["I'm a nurse", "lol"], votes)
    assert rows.shape[0] == 2
    assert rows[0, 3] == 1.0 and rows[1, 3] == 0.0   # the first is the message's best clause, the second is not
    assert rows[1, 2] < 0                             # and the second knows how far below the best it is


@pytest.fixture(scope="module")
def reader():
    from models.multilingual import MultilingualEmbedder

    return shipped_extractor().with_encoder(MultilingualEmbedder())


def test_the_shipped_extractor_carries_the_second_reading(reader):
    assert reader.context is not None


@pytest.mark.parametrize("text, fact, chatter", [
    ("ugh mondays. anyway my sister Dana just got engaged!!", "Dana", "ugh mondays"),
    ("下雨了 好烦 对了我下个月要搬去杭州了", "杭州", "下雨了"),
])
def test_the_chatter_beside_a_fact_is_not_kept(reader, text, fact, chatter):
    scores = {s.text: s for s in reader.score_message(text)}
    kept = [t for t, s in scores.items() if s.worth >= reader.worth_threshold]
    assert any(fact in t for t in kept), scores
    assert not any(chatter in t for t in kept), scores
