"""A correction of one value said before replaces the remembered fact with the fact said right (issue 36, items 4-5):
"不是豆豆 是朵朵", "biochem not bio", "i said the 20th before, it's actually the 22nd". Through the real CLI and an
encrypted store: the old memory is superseded, the new one keeps its category, and the correcting words are not
stored as a fact of their own."""
from __future__ import annotations

import pytest

from memory.learn.corrections import corrections


@pytest.mark.parametrize("text, wrong, right", [
    ("不是李浩 是李皓 白字旁那个皓", "李浩", "李皓"),
    ("不是二年级啦 三年级了 去年九月就升了", "二年级", "三年级"),
    ("口误 是李皓不是李浩", "李浩", "李皓"),
    ("biochem not bio! it matters to me ok", "bio", "biochem"),
    ("quick correction, it's tree nuts not peanuts. peanuts are fine", "peanuts", "tree nuts"),
    ("not leeds, leicester lol", "leeds", "leicester"),
    ("i told you ohio and i meant indiana.", "ohio", "indiana"),
    ("oh wait i typed katie but it's kady with a y", "katie", "kady"),
])
def test_a_correction_names_the_wrong_value_and_the_right_one(text, wrong, right):
    found = corrections(text)
    assert found and wrong in found[0].wrong and found[0].right == right


@pytest.mark.parametrize("text", ["it's not that bad, honestly", "not gonna lie, i loved it", "这不是我的错",
                                  "i'm not sure, maybe", "I love it, not gonna lie"])
def test_saying_not_is_no_correction(text):
    assert corrections(text) == []


def _active(cli):
    return {m["content"]: m for m in cli.json("memory", "list", "--json")}


@pytest.mark.parametrize("first, correction, before, after", [
    ("女儿叫豆豆 下个月满三岁", "哎不是豆豆 是朵朵 输入法给我联想错了", "豆豆", "朵朵"),
    ("doing my masters in biology at mcgill, the winters are no joke", "biochem not bio! it matters to me ok", "biology",
     "biochem"),
])
def test_the_corrected_fact_replaces_the_wrong_one(cli, first, correction, before, after):
    cli.json("memory", "extract", first, "--json", today="2026-03-01")
    held = [m for m in _active(cli).values() if before in m["content"]]
    assert held, "the first fact is remembered"
    written = cli.json("memory", "extract", correction, "--json", today="2026-03-10")["written"]
    fixed = [w for w in written if w["origin"].startswith("correction:")]
    assert fixed and fixed[0]["action"] == "superseded" and after in fixed[0]["content"]
    assert fixed[0]["category"] == held[0]["category"]
    active = _active(cli)
    assert not any(before in c for c in active), "the wrong value is remembered nowhere"
    assert sum(after in c for c in active) == 1, "the correcting words are not a second memory"


def test_a_corrected_date_moves_the_event(cli):
    cli.json("memory", "extract", "my interview at spotify is on the 20th, i'm so nervous", "--json", today="2026-04-01")
    written = cli.json("memory", "extract", "ugh sorry i said the 20th before, it's actually the 22nd", "--json",
                       today="2026-04-03")["written"]
    events = [m for m in _active(cli).values() if m["category"] == "event"]
    assert [e["event_date"] for e in events] == ["2026-04-22"]
    assert any(w["origin"].startswith("correction:") for w in written)


def test_correcting_the_companion_changes_nothing_remembered_right(cli):
    cli.json("memory", "extract", "my sister Niamh just got into vet school in Glasgow!!", "--json", today="2026-05-01")
    before = _active(cli)
    cli.json("memory", "extract", "glasgow not edinburgh haha. she's terrified", "--assistant",
             "Edinburgh is such a beautiful city! How's Niamh feeling about it?", "--json", today="2026-05-02")
    after = _active(cli)
    assert not any("edinburgh" in c.lower() for c in after)
    assert sum("glasgow" in c.lower() for c in after) == sum("glasgow" in c.lower() for c in before) == 1
