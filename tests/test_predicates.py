"""The predicate and value of a memory's structure, from its category, topic key, polarity and change."""
from datetime import date

import pytest

from memory.learn.predicates import PREDICATES, predicate, value

TODAY = date(2026, 12, 6)


@pytest.mark.parametrize("category, topic, polarity, change, when, expected", [
    ("profile", "profile:city", 1, 0.0, None, "lives in"),
    ("profile", "profile:city", -1, 0.9, None, "no longer lives in"),   # a slot keeps its own verb through a change
    ("preference", "preference:~tonkotsu ramen", 1, 0.1, None, "likes"),
    ("preference", "preference:~coffee", -1, 0.8, None, "stopped"),      # "gave up coffee"
    ("preference", "preference:~bouldering", 1, 0.8, None, "started"),
    ("relationship", "relationship:sister", 1, 0.0, None, "has"),
    ("relationship", "relationship:status", -1, 0.7, None, "broke up with"),
    ("event", "event:~dentist", 1, 0.0, date(2026, 12, 14), "plans on"),
    ("event", "event:~dentist", 1, 0.0, date(2026, 12, 1), "happened on"),
    ("feedback", "feedback:~emoji", -1, 0.0, None, "asks the companion not to"),
    ("profile", None, 1, 0.0, None, "is"),
])
def test_predicate(category, topic, polarity, change, when, expected):
    assert predicate(category, topic, polarity, change, when, TODAY) == expected
    assert expected in PREDICATES


def test_value_is_the_topic_past_its_category_and_none_for_a_slot():
    assert value("preference:~tonkotsu ramen") == "tonkotsu ramen"
    assert value("relationship:小鱼") == "小鱼"
    assert value("profile:job") is None and value(None) is None
