"""A new state said without the old value retires the old memory through its topic slot, through the real CLI.

"two months into Denver life" names no Austin; "went fully plant-based" names no vegetarian. What links them is the
slot both fill, one value at a time (a city, a diet, an employer, a partner, a form of address), read by the slot
head from each text (memory/learn/supersede.py). The phrasings were written for this test, not taken from the corpus.
"""
from __future__ import annotations

import pytest


def _active(cli, today):
    return cli.json("memory", "list", "--json", today=today)


@pytest.mark.parametrize("before,after,old_word,new_word", [
    ("I live in Austin", "two months into Denver life now, still not used to the altitude", "Austin", "Denver"),
    ("I've been vegetarian since college", "went fully vegan in the spring, not even cheese anymore", "vegetarian",
     "vegan"),
    ("I'm a cashier at a supermarket", "finally quit the supermarket, I'm at a law firm now as a paralegal",
     "cashier", None),
    ("我在杭州住了三年了", "搬到成都快两个月了 天天吃火锅", "杭州", "成都"),
    ("叫我小鱼就行", "小鱼这个叫法正式退休了，以后叫我鱼姐", "小鱼", "鱼姐"),
    # the end of a relationship names no partner: the status slot links it (memory/learn/reconcile.py `_in_its_slot`)
    ("跟男朋友在一起四年了 他叫陈默 是个厨师，做饭超好吃", "我们分了。别问了 这事以后也别再提了", "陈默", None),
])
def test_a_new_value_in_the_same_slot_retires_the_old_one(cli, before, after, old_word, new_word):
    cli.json("memory", "extract", before, "--json", today="2026-09-01")
    old = [m for m in _active(cli, "2026-09-01") if old_word in m["content"]]
    assert old, "the first state is learned"
    cli.json("memory", "extract", after, "--json", today="2026-11-20")
    active = _active(cli, "2026-11-20")
    assert new_word is None or any(new_word in m["content"] for m in active), active
    assert not any(m["id"] == old[0]["id"] for m in active), active
    retired = cli.json("memory", "list", "--status", "superseded", "--json", today="2026-11-20")
    gone = next(m for m in retired if m["id"] == old[0]["id"])
    assert gone["superseded_by"] in {m["id"] for m in active}
    history = cli.json("memory", "history", gone["id"], "--json")
    assert any("superseded by" in (h.get("why") or h.get("reason") or "") for h in history), history


@pytest.mark.parametrize("before,after,kept_word", [
    # another slot: a new hobby, a new pet, a sister's move leave the user's city standing
    ("I live in Austin", "just started learning the cello, my fingers hurt", "Austin"),
    # news of another person never replaces who the user is, though it names a city or a job
    ("I live in Austin", "my sister moved to Denver last month, I miss her already", "Austin"),
    ("I'm a cashier at a supermarket", "my husband Dan just started at a law firm downtown", "cashier"),
    ("我在杭州住了三年了", "最近开始学游泳 每周去两次", "杭州"),
    ("I'm a cashier at a supermarket", "we adopted a rescue greyhound called Pip", "cashier"),
    ("my boyfriend Sam is a nurse", "we got engaged on the beach last night!!", "Sam"),  # the partner is still Sam
])
def test_a_new_fact_in_another_slot_leaves_the_old_one_standing(cli, before, after, kept_word):
    cli.json("memory", "extract", before, "--json", today="2026-09-01")
    assert any(kept_word in m["content"] for m in _active(cli, "2026-09-01"))
    cli.json("memory", "extract", after, "--json", today="2026-11-20")
    assert any(kept_word in m["content"] for m in _active(cli, "2026-11-20"))
