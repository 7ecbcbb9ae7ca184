"""A correction of one value said before replaces the remembered fact with the fact said right (issue 36, items 4-5):
"不是豆豆 是朵朵", "biochem not bio", "i said the 20th before, it's actually the 22nd". Through the real CLI and an
encrypted store: the old memory is superseded, the new one keeps its category, and the correcting words are not
stored as a fact of their own."""
from __future__ import annotations

from datetime import date

import pytest

from memory.learn.corrections import corrections, reply_corrections, with_corrections
from memory.records import Memory


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


@pytest.mark.parametrize("text, assistant, wrong, right", [
    ("the 2nd!! and no 😭 panic stations", "Have you sorted your outfit for the wedding on the 12th?", "on the 12th",
     "the 2nd"),
    ("15th, the monday. and he has NO idea", "Is Oscar excited about starting on the 16th?", "on the 16th", "the 15th"),
    ("94! and no, nan passed a few years back", "Imagine being 84 and that sharp — does he do it with your nan?", "84",
     "94"),
    ("SEVEN lol. and absolutely not", "Ha, 8 going on 18 😄 does Maisie still let you pick her outfits?", "8", "7"),
    ("York! and they're feral but cute", "How's the coding camp in Durham going?", "Durham", "York"),
    ("Seoul 😄 and obviously", "So excited for you! Does she land from Tokyo in the morning?", "Tokyo", "Seoul"),
    ("三遍！！最喜欢宝总", "你说繁花看了两遍 哈哈 最喜欢里面哪个角色？", "两遍", "三遍"),
    ("六岁六岁 还在幼儿园大班呢", "七岁就会骑车挺厉害啦！她上一年级了吗？", "七岁", "六岁"),
    ("林悦 喜悦的悦😂 和好了", "和林月和好了吗？别太往心里去哈", "林月", "林悦"),
    ("小黑！都活蹦乱跳的", "小白和大黄还好吗？换水了没", "小白", "小黑"),
    ("612 是侄子啦 我哥家的", "外甥考了621真不错！志愿填好了吗？", "621", "612"),
])
def test_a_value_said_back_corrects_the_one_the_companion_said(text, assistant, wrong, right):
    found = reply_corrections(text, assistant, date(2026, 4, 17))
    assert [(c.wrong[0], c.right) for c in found] == [(wrong, right)]


@pytest.mark.parametrize("text, assistant", [
    ("还行 就是有点累", "还好吗？"),  # a word like the companion's, not a value
    ("好的！明天见", "那明天见好吗？"),
    ("two, both rescues", "Any pets?"),
    ("york is lovely this time of year", "How's the coding camp in Durham going?"),  # no emphasis: a new subject
    ("7 lol", "Ha, 6 going on 8?"),  # two numbers as near: which one is corrected is not said
    ("yes please", "Want me to remind you on the 3rd?"),
    ("Seoul 😄 and obviously", "Are you meeting Anya at the airport when she lands from Tokyo?"),  # which name: not said
])
def test_an_answer_that_does_not_say_a_value_back_corrects_nothing(text, assistant):
    assert reply_corrections(text, assistant, date(2026, 4, 17)) == []


def test_a_question_whose_value_the_user_corrects_is_not_answered(cli):
    cli.json("memory", "extract", "best mate's wedding in Goa on the 2nd of may, can't wait!!", "--json",
             today="2026-04-15")
    before = _active(cli)
    cli.json("memory", "extract", "the 2nd!! and no 😭 panic stations", "--assistant",
             "Eee so exciting! Have you sorted your outfit for the wedding on the 12th?", "--json", today="2026-04-17")
    after = _active(cli)
    assert after.keys() == before.keys(), "the slip changes nothing, and the question's premise is not stored"
    assert [m["event_date"] for m in after.values() if m["category"] == "event"] == ["2026-05-02"]


@pytest.mark.parametrize("text", ["律所…不是会计所 最近在跟一个商标侵权案", "是贫血不是低血糖哈 最近没怎么晕了"])
def test_a_chinese_value_beside_the_one_it_is_not(text):
    found = corrections(text)
    assert [(c.wrong[0], c.right) for c in found] in ([("会计所", "律所")], [("低血糖", "贫血")])


def test_a_chinese_clause_before_not_is_no_value():
    assert corrections("我喜欢猫，不是狗") == []


def test_a_bare_day_said_back_is_held_by_the_event_on_that_day_of_its_own_month():
    # "the 2nd" said on April 17 reads as April 2; the companion meant the wedding the user dated May 2, which the
    # memory already holds: nothing to change, and "the 2nd!!" is no fact of its own (a day of another number is not)
    wedding = Memory("m1", "event", "Best mate's wedding in Goa on 2026-05-02", event_date="2026-05-02")
    said = reply_corrections("the 2nd!! and no", "Have you sorted your outfit for the wedding on the 12th?",
                             date(2026, 4, 17))
    assert said and with_corrections([wedding], said, date(2026, 4, 17)) == ([], said)
    said = reply_corrections("the 3rd!! and no", "Have you sorted your outfit for the wedding on the 12th?",
                             date(2026, 4, 17))
    assert said and with_corrections([wedding], said, date(2026, 4, 17))[1] == []
