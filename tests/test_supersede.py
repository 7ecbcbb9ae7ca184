"""What a new statement replaces, through the real CLI: the trained pair model, not a phrasing table.

The phrasings here were written for this test, not taken from the corpus the model is trained on.
"""
from __future__ import annotations

import pytest


def _active(cli, today):
    return cli.json("memory", "list", "--json", today=today)


@pytest.mark.parametrize("before,after,old_word", [
    ("I'm a barista at a little cafe downtown", "quit the cafe gig, I'm a paralegal at a law firm now", "barista"),
    pytest.param("周末我基本都窝在家里打原神 一打一整天", "原神退坑了 号都送朋友了", "窝在家里", marks=pytest.mark.xfail(
        strict=True, reason="issue 36, open: since the profile/preference relabel '原神退坑了' is kept as a profile clause "
                            "keyed by its topic words ('profile:~原神 退坑 号 送', no named thing), so reconcile.py's "
                            "_naming_its_topic finds nothing, and the pair model gives 0.45 < 0.6")),
    ("我在老家的县医院当护士", "辞职了 现在在上海一家药企做医药代表", "护士"),
    # No word in common: linked by closeness in meaning (memory/learn/reconcile.py MEANING_LINK).
    ("I take the bus to work every day", "bought a bike last month, cycling to the office every day now", "bus"),
    ("I love horror movies", "after that last one I had nightmares for a week, no more scary films for me", "horror"),
    ("I do the school run every morning", "the kids take the bus by themselves now, so my mornings are mine",
     "school run"),
    # The learner files the two under different categories (a pet / a taste): the pair model is trained on the
    # learner's categories, so their disagreement no longer outweighs a stated change on the same pet.
    ("we have a cat called Pepper, she's 14", "we had to put Pepper down on Sunday, the house is so quiet", "cat"),
    # No word in common and under the gate's meaning likeness: the stored memory nearest in meaning to a stated
    # change is weighed too (memory/learn/supersede.py _nearest_in_meaning).
    ("I've been keto for a year, no carbs at all", "bagels every morning now honestly, carbs are back on the menu",
     "keto"),
    ("我以前从来不跑步", "现在每天早上跑五公里 风雨无阻", "不跑步"),
    ("我以前从来不化妆", "现在每天出门前都要画半小时的妆", "不化妆"),
])
# Not here any more: "we use Android in this house" → "caved and got an iphone 17". Nothing links the two but a stated
# change (no word, n-gram cosine 0.14, sentence meaning 0.11); the pair model that retired it on that alone also
# retired unrelated memories beside any message read as a change (scripts/eval_bystanders.py), so it now scores
# 0.48 and both stay.
def test_a_change_said_in_new_words_retires_the_old_memory(cli, before, after, old_word):
    cli.json("memory", "extract", before, "--json", today="2026-09-01")
    assert any(old_word in m["content"] for m in _active(cli, "2026-09-01"))
    out = cli.json("memory", "extract", after, "--json", today="2026-11-20")
    assert out["written"], "the new state is learned"
    assert not any(old_word in m["content"] for m in _active(cli, "2026-11-20"))
    retired = cli.json("memory", "list", "--status", "superseded", "--json", today="2026-11-20")
    # it ended the day the change happened: the day said ("last month"), else the day it was told
    ended = "2026-10-20" if "last month" in after else "2026-11-20"
    assert any(old_word in m["content"] and m["valid_to"] == ended for m in retired), retired


@pytest.mark.parametrize("before,after,kept_word", [
    ("I love hiking in the Alps every summer", "my sister just adopted a beagle called Biscuit", "hiking"),
    ("我特别喜欢吃火锅", "我最近在学吉他 每天练一个小时", "火锅"),
])
def test_an_unrelated_new_fact_leaves_the_old_one_standing(cli, before, after, kept_word):
    cli.json("memory", "extract", before, "--json", today="2026-09-01")
    cli.json("memory", "extract", after, "--json", today="2026-11-20")
    assert any(kept_word in m["content"] for m in _active(cli, "2026-11-20"))


def related(row: list[float]) -> bool:
    """The gate read from a full feature row: the same slot, a topic word, or some n-gram or meaning likeness."""
    from memory.learn.supersede import PAIR_FEATURES, RELATED_COSINE, RELATED_JACCARD, RELATED_MEANING

    at = {name: i for i, name in enumerate(PAIR_FEATURES)}
    return (row[at["same_slot"]] > 0 or row[at["words_message"]] > 0 or row[at["words_clause"]] > 0
            or max(row[at["cos_clause"]], row[at["cos_message"]]) >= RELATED_COSINE
            or row[at["bigram_jaccard"]] >= RELATED_JACCARD
            or max(row[at["meaning_clause"]], row[at["meaning_message"]]) >= RELATED_MEANING)


def test_the_cheap_gate_agrees_with_the_pair_rows_it_skips():
    from memory.learn.classifier import shipped_extractor
    from memory.learn.supersede import _cosines, pair_features, row_dicts, shares_something, side

    from models.multilingual import MultilingualEmbedder

    model = shipped_extractor().with_encoder(MultilingualEmbedder())
    texts = ["I'm a barista at a little cafe downtown", "quit the cafe gig, paralegal now", "我在老家的县医院当护士",
             "辞职了 现在在上海做医药代表", "my sister adopted a beagle", "I love hiking in the Alps", "原神退坑了",
             "周末窝在家里打原神", "call me Bex from now on", "喜欢吃火锅"]
    rows, scores, meanings = row_dicts(model.features(texts)), model.score_texts(texts), model.sentence_vectors(texts)
    sides = [side(r, t, s.change, s.slot, s.slot_p, s.category, v) for r, t, s, v in zip(rows, texts, scores, meanings)]
    cos = _cosines(sides, sides, model.width)
    verdicts = []
    for i, old in enumerate(sides):
        for j, new in enumerate(sides):
            msg = sides[(j + 1) % len(sides)]
            k = (j + 1) % len(sides)
            full = related(pair_features(old, new, msg, (float(cos[i, j]), float(cos[i, k]))))
            assert shares_something(old, new, msg, max(float(cos[i, j]), float(cos[i, k]))) == full, (texts[i], texts[j])
            verdicts.append(full)
    assert any(verdicts) and not all(verdicts)


def test_news_of_the_day_retires_nothing_in_a_full_memory(cli):
    """A memory that already holds things: talk about the day (no change of anything) must leave all of it."""
    seeded = [("Works as a nurse at a hospital in Chengdu", "profile"), ("Started gardening this spring", "preference"),
              ("Loves mint choc chip ice cream", "preference"), ("Sister Lily lives in Toronto", "relationship"),
              ("在成都租房住", "profile"), ("不喜欢吃香菜", "preference")]
    for text, category in seeded:
        cli.json("memory", "add", text, "--category", category, "--json", today="2026-09-01")
    for message in ("I had a long day at the hospital, the night shift was rough.",
                    "ugh why is everything so expensive, paid $9 for a smoothie this morning",
                    "今天又加班到十点 累死了 外卖都凉了"):
        cli.json("memory", "extract", message, "--json", today="2026-11-20")
    active = {m["content"] for m in _active(cli, "2026-11-20")}
    assert {text for text, _ in seeded} <= active


def test_a_change_dated_by_its_sentence_says_that_day_in_its_note(cli):
    cli.json("memory", "extract", "I take the bus to work every day", "--json", today="2026-09-01")
    cli.json("memory", "extract", "bought a bike last month, cycling to the office every day now", "--json",
             today="2026-11-20")
    now = [m for m in _active(cli, "2026-11-20") if "ycling" in m["content"]]
    assert now and now[0]["valid_from"] == "2026-10-20" and "2026-11-20" not in now[0]["content"], now
