"""A memory keeps the neighbouring words that complete it (memory/learn/enrich.py), through the real CLI:
the clause after a rule's fact, a clause memory's antecedent, in Chinese the clauses the seam model joins on either
side; never the setting before an English rule's fact, another memory's clause, a question or a clause with a date of
its own."""
from __future__ import annotations

import re

import pytest


def _written(cli, text, today="2026-12-02"):
    return cli.json("memory", "extract", text, "--json", "--dry-run", today=today)["written"]


@pytest.mark.parametrize("text,fact,added", [
    ("我在杭州做设计 主要给电商画海报", "杭州", "电商"),
    # a rule quotes the piece it matched (a space ends it); the pieces after that go on with the fact join it
    ("我是个程序员 做安卓开发的 写了五年了", "程序员", "安卓"),
    ("我在一家外贸公司当会计 天天对发票", "会计", "发票"),
    ("还有二十天放寒假 票订好了 回哈尔滨 想死锅包肉了", "寒假", "哈尔滨"),
    ("my brother Sam just got engaged, to his girlfriend of six years", "Sam", "girlfriend of six years"),
])
def test_the_clause_after_a_rules_fact_stays_with_it(cli, text, fact, added):
    written = _written(cli, text)
    assert any(fact in w["content"] and added in w["content"] for w in written), written
    assert all(w["quote"] in text for w in written if "quote" in w)


@pytest.mark.parametrize("text, fact, remark", [
    ("my grandpa is 94 and still does the crossword in pen every morning. legend", "crossword", "egend"),
    ("favourite podcast is No Such Thing As A Fish, zero notes", "Fish", "zero notes"),
    # a second statement about it is a fact of its own, never joined on with ";"
    ("my favourite band is Radiohead, they were my first concert", "Radiohead", "first concert"),
    ("Anjali got the promotion!! she still doesn't believe she deserves it", "Anjali", "deserves"),
    ("just adopted a corgi named Waffles, kitchen looks like a crime scene", "Waffles", "crime scene"),
])
def test_a_remark_on_a_fact_is_not_stuck_onto_it(cli, text, fact, remark):
    written = _written(cli, text)
    assert any(fact in w["content"] for w in written), written
    assert not any(remark in w["content"] for w in written), written


def test_a_chinese_rules_fact_takes_the_clause_before_it_that_says_the_same_fact(cli):
    # The city rule quotes "现在住在高新区"; the seam model (trained on the bounds people marked) joins the move
    # before it, so the district's note names its city. Hand-set joins took only the clauses after a rule's quote.
    written = _written(cli, "去年搬到成都 现在住在高新区")
    assert any("成都" in w["content"] and "高新区" in w["content"] for w in written), written


def test_the_setting_before_a_rules_fact_is_left_out(cli):
    text = "lol today was CHAOS. two kids threw up during circle time and my aide called in sick. teaching kindergarten is not for the weak"
    written = _written(cli, text)
    job = [w for w in written if "kindergarten" in w["content"]]
    assert job, written
    # The rule's fact does not take in the setting before it. (The clause heads may keep that setting as a memory
    # of its own: weights trained with the third corpus wave do, a precision loss the development set shows.)
    assert not any("threw up" in w["content"] or "circle time" in w["content"] for w in job), written


def test_a_neighbour_with_a_relative_date_or_a_question_is_not_taken_in(cli):
    written = _written(cli, "I work at a bakery now, starting on Monday")
    assert written and not any("Monday" in w["content"] for w in written), written
    written = _written(cli, "I work at a bakery now, do you think that's a good career")
    assert written and not any("career" in w["content"] for w in written), written
    written = _written(cli, "我在杭州做设计，主要画海报，你会画画吗？")
    assert any("海报" in w["content"] for w in written) and not any("画画" in w["content"] for w in written), written


def test_a_clause_another_memory_speaks_for_is_not_copied_into_this_one(cli):
    written = _written(cli, "I'm a nurse, mostly night shifts in the ICU at St Vincent's")
    holding = [w for w in written if "ICU" in w["content"]]
    assert len(holding) == 1, written


@pytest.mark.parametrize("text, fact, opener", [
    ("Yeah I finally switched to a standing desk, my back thanks me", "standing desk", "Yeah"),
    ("Wait I never told you I moved to Leeds in March", "Leeds", "told you"),
    ("I never told you this but I hate cilantro", "cilantro", "told you"),
    ("oh yeah so did I mention I started pottery classes", "pottery", "mention"),
    ("哦对了我现在在字节上班了", "字节", "哦"),
    ("跟你说个秘密 我脱单了！！相亲认识的 他叫老陈", "脱单", "秘密"),
    # a correction or a confession announced before the fact
    ("纠正下上次说的 我家老大是高一了", "高一", "纠正"),
    ("说出来别笑 我最近迷上了十字绣", "十字绣", "别笑"),
])
def test_a_note_leaves_out_what_the_message_opened_on_for_the_conversation(cli, text, fact, opener):
    written = _written(cli, text)
    notes = [w["content"] for w in written if fact in w["content"]]
    assert notes and not any(opener.lower() in n.lower() for n in notes), written


@pytest.mark.parametrize("clause, note", [
    ("ok confession time, I have never seen Star Wars", "They have never seen Star Wars"),
    ("dont laugh but I cried at The Lion King again", "They cried at The Lion King again"),
    ("correction: my sister is 14 not 13", "Their sister is 14 not 13"),
    ("correctional officers work long shifts", "Correctional officers work long shifts"),  # a word, not the opener
])
def test_a_clause_note_leaves_out_a_confession_or_correction_announced_before_the_fact(clause, note):
    from memory.learn.clause_memory import render
    assert render(clause) == note


@pytest.mark.parametrize("text, theirs, person", [
    ("跟老公结婚八年了 他叫王磊 在银行上班", "银行", "老公"),
    ("跟女朋友在一起两年多了 她叫林夏 是个护士，人特别温柔", "护士", "女朋友"),
    ("我弟今年高考 在一中读书 成绩还行", "一中", "弟"),
])
def test_chinese_words_with_no_subject_after_a_clause_about_someone_else_are_theirs_not_the_users(cli, text, theirs,
                                                                                                  person):
    written = _written(cli, text)
    holding = [w for w in written if theirs in w["content"]]
    assert holding and all(w["category"] == "relationship" and person in w["content"] for w in holding), written


def test_words_with_no_subject_after_the_user_did_something_with_someone_stay_the_users(cli):
    written = _written(cli, "昨天跟她吵架了 在公司加班到十点")  # the user worked late, not "her"
    assert not any(w["category"] == "relationship" and "加班" in w["content"] for w in written), written


def test_an_opener_said_as_a_clause_of_its_own_is_no_memory_and_replaces_nothing(cli):
    cli.json("memory", "extract", "I'm a line cook at Rosie's, it's this little diner downtown", "--json", today="2026-02-11")
    second = cli.json("memory", "extract", "oh I never told you — I'm not a line cook anymore! they made me sous chef "
                      "at Rosie's last month", "--json", today="2026-06-05")
    assert not any("told you" in w["content"].lower() for w in second["written"]), second["written"]
    active = [m["content"] for m in cli.json("memory", "list", "--json")]
    assert not any("told you" in c.lower() for c in active), active


@pytest.mark.parametrize("text", [
    "我是心内科护士 三班倒 所以你要是半夜三点看到我找你聊天别奇怪",
    "I'm 38, from Kraków originally, but I've been in Chicago 12 years.",
])
def test_a_fact_completed_in_the_users_own_words_says_each_piece_once(cli, text):
    written = _written(cli, text)
    assert written, text
    for w in written:
        cjk = any("\u4e00" <= ch <= "\u9fff" for ch in w["content"])
        pieces = [p.lower() for p in re.split(r"[,，\s]+" if cjk else r"\s*,\s*", w["content"]) if p]
        assert len(pieces) == len(set(pieces)), w["content"]


@pytest.mark.parametrize("text, note", [
    ("Hi! I'm Gwen, I'm a retired librarian from Duluth", "Name is Gwen"),
    ("hey, this is Chioma. I work nights at a bakery", "Name is Chioma"),
])
def test_a_name_is_said_as_a_name_not_in_the_users_words_made_third_person(cli, text, note):
    contents = [w["content"] for w in _written(cli, text)]
    assert note in contents, contents
    assert not any(c.startswith(("They're", "They are")) and note.split()[-1] in c for c in contents), contents


def test_two_rules_reading_one_fact_leave_one_note_the_one_saying_more(cli):
    # the city rule and the grade rule both read "在厦门一所大学读研二" (and both take in what follows): one note
    written = _written(cli, "我叫许诺 在厦门一所大学读研二 方向是海洋生物 大部分时间泡在实验室养海胆", today="2026-07-28")
    study = [w["content"] for w in written if "研二" in w["content"]]
    assert len(study) == 1 and "厦门" in study[0] and "海洋生物" in study[0], written


def test_a_name_and_a_nickname_said_far_apart_leave_the_facts_between_them_their_own_notes(cli):
    # The name rule and the nickname rule are one note; its quote is the name's own words, not the stretch between
    # the two, which holds the job (it was one note of the whole message: "叫周一鸣 今年刚毕业 在深圳…").
    text = "我叫周一鸣 今年刚毕业 在深圳一家做无人机的公司当测试 每天加班到九点 周末就窝在出租屋打游戏 对了 你可以叫我阿鸣"
    written = _written(cli, text)
    names = [w for w in written if "周一鸣" in w["content"]]
    assert len(names) == 1 and "阿鸣" in names[0]["content"] and "无人机" not in names[0]["content"], written
    assert any("无人机" in w["content"] for w in written), written
    assert not any("2026" in w["content"] for w in written), written  # 周一 in a name is no Monday


def test_two_facts_in_one_quote_stay_two_notes(cli):
    written = [w["content"] for w in _written(cli, "I'm a nurse in Leeds")]
    assert any("nurse" in c for c in written) and any("Leeds" in c for c in written), written


def test_a_change_of_mind_beside_a_remark_stays_a_note_that_retires_the_old_habit(cli):
    cli.json("memory", "extract", "i journal every night before bed, it's like brushing my teeth at this point", "--json",
             today="2026-10-01")
    cli.json("memory", "extract", "haven't journaled in weeks tbh, i just doomscroll til i pass out now", "--json",
             today="2026-11-02")
    active = [m["content"] for m in cli.json("memory", "list", "--json")]
    assert not any("ournals every night" in c for c in active), active


def test_a_nickname_said_far_from_the_name_is_not_kept_again_beside_the_name_note(cli):
    # The name and nickname rules merge into one note quoting the first name's words (the stretch between holds other
    # facts); the nickname's words are still that note's to speak for: the heads do not keep them as a second note.
    text = ("我叫许诺 在厦门一所大学读研二 方向是海洋生物 大部分时间泡在实验室养海胆 周末就去沙坡尾找个角落发呆 "
            "你跟我说话可以叫我诺诺 家里人都这么叫")
    written = _written(cli, text)
    assert [w["content"] for w in written if "诺诺" in w["content"]] == ["名字叫许诺，希望被叫诺诺"], written
