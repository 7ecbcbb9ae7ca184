"""What a new statement replaces, through the real CLI: the trained pair model, not a phrasing table.

The phrasings here were written for this test, not taken from the corpus the model is trained on.
"""
from __future__ import annotations

import pytest


def _active(cli, today):
    return cli.json("memory", "list", "--json", today=today)


@pytest.mark.parametrize("before,after,old_word", [
    ("I'm a barista at a little cafe downtown", "quit the cafe gig, I'm a paralegal at a law firm now", "barista"),
    ("周末我基本都窝在家里打原神 一打一整天", "原神退坑了 号都送朋友了", "窝在家里"),
    ("我在老家的县医院当护士", "辞职了 现在在上海一家药企做医药代表", "护士"),
])
def test_a_change_said_in_new_words_retires_the_old_memory(cli, before, after, old_word):
    cli.json("memory", "extract", before, "--json", today="2026-09-01")
    assert any(old_word in m["content"] for m in _active(cli, "2026-09-01"))
    out = cli.json("memory", "extract", after, "--json", today="2026-11-20")
    assert out["written"], "the new state is learned"
    assert not any(old_word in m["content"] for m in _active(cli, "2026-11-20"))
    retired = cli.json("memory", "list", "--status", "superseded", "--json", today="2026-11-20")
    assert any(old_word in m["content"] and m["valid_to"] == "2026-11-20" for m in retired)


@pytest.mark.parametrize("before,after,kept_word", [
    ("I love hiking in the Alps every summer", "my sister just adopted a beagle called Biscuit", "hiking"),
    ("我特别喜欢吃火锅", "我最近在学吉他 每天练一个小时", "火锅"),
])
def test_an_unrelated_new_fact_leaves_the_old_one_standing(cli, before, after, kept_word):
    cli.json("memory", "extract", before, "--json", today="2026-09-01")
    cli.json("memory", "extract", after, "--json", today="2026-11-20")
    assert any(kept_word in m["content"] for m in _active(cli, "2026-11-20"))
