""""How do you know that?" and "What do you remember about me?" answered from the record (issue 34, item 4)."""
from __future__ import annotations

import pytest

from app.provenance_answer import question_kind

TODAY = "2026-11-29"


@pytest.mark.parametrize("text", [
    "How do you know that?", "how do you know", "So how did you know that?!", "Why do you think that?",
    "why do you say that", "When did I say that?", "when did I tell you that??", "Where did you get that from?",
    "你怎么知道？", "你怎么知道的呢？", "为什么这么说？", "那你为什么这么说", "我什么时候说过？", "我什么时候说过这个？",
])
def test_questions_about_where_a_belief_came_from(text):
    assert question_kind(text) == "source"


@pytest.mark.parametrize("text", [
    "What do you remember about me?", "what do you know about me", "你记得我什么？", "你都记得我什么",
])
def test_questions_about_what_is_remembered(text):
    assert question_kind(text) == "summary"


@pytest.mark.parametrize("text", [
    "How do you know so much about trains?", "I wonder how do you know that", "how do you know my sister?",
    "Why do you think that movie was so popular?", "When did I say that I hated jazz? I love it.",
    "Do you know what I remember about me as a kid?", "你怎么知道这么多关于火车的事？", "我什么时候说过我讨厌爵士乐？",
    "你记得我什么时候生日吗？", "How do you know that, by the way, my cat is called Tom", "",
])
def test_longer_messages_that_merely_contain_the_words_are_ordinary(text):
    assert question_kind(text) is None


def _missing_model(tmp_path) -> dict:
    """A chat model that cannot be loaded: any command that asks the model fails with exit 2."""
    return {"COMPANION_CHAT_MODEL": str(tmp_path / "no-such-model.gguf")}


def test_how_do_you_know_lists_the_memories_of_the_previous_reply_without_the_model(cli, tmp_path):
    told = cli.json("say", "Remember that I live in Leeds", "--json", "--wait-memory", today="2026-11-20")
    city = next(m for m in told["memories_written"] if "Leeds" in m["content"])
    asked = cli.json("say", "Where should I go for a walk this weekend?", "--json", today=TODAY)
    assert city["id"] in asked["memories_used"]
    session = asked["session"]
    answer = cli.json("say", "How do you know that?", "--session", session, "--json", today=TODAY,
                      env=_missing_model(tmp_path))
    assert answer["memories_used"] == asked["memories_used"]  # exactly the memories of the previous reply
    reply = answer["reply"]
    assert reply.startswith("My last reply drew on")
    assert f"**{city['content']}** — you said “Remember that I live in Leeds” on 2026-11-20, in the conversation " \
           f"“Remember that I live in Leeds”. `{city['id']}`" in reply
    # The model was not asked: the same command for an ordinary message fails on the missing model file.
    failed = cli.run("say", "Nice, thanks", "--session", session, today=TODAY, env=_missing_model(tmp_path),
                     check=False)
    assert failed.returncode == 2 and "no-such-model" in failed.stderr
    shown = cli.run("sessions", "show", session).stdout
    assert "My last reply drew on" in shown  # saved like any reply
    assert cli.json("memory", "list", "--json")[0]["hit_count"] == 1  # the question did not count as a use


def test_in_chinese_with_the_words_said_in_this_conversation(cli, tmp_path):
    cli.run("memory", "add", "喜欢吃火锅", "--category", "preference", today="2026-11-20")
    turn = cli.json("say", "记住我在成都当护士", "--json", "--wait-memory", today=TODAY)
    nurse = next(m for m in turn["memories_written"] if "护士" in m["content"])
    second = cli.json("say", "今天好累啊", "--session", turn["session"], "--json", today=TODAY)
    assert nurse["id"] in second["memories_used"]
    answer = cli.json("say", "你怎么知道的？", "--session", turn["session"], "--json", today=TODAY,
                      env=_missing_model(tmp_path))
    assert answer["reply"].startswith("我上一条回复用到了这些记忆：")
    assert f"— 你 {TODAY} 在这次对话里说过：“记住我在成都当护士”。`{nurse['id']}`" in answer["reply"]
    if "喜欢吃火锅" in answer["reply"]:
        assert "**喜欢吃火锅** — 你 2026-11-20 直接添加的。" in answer["reply"]


def test_asked_in_chinese_in_an_english_conversation_it_is_answered_in_chinese(cli, tmp_path):
    cli.run("say", "Remember that I live in Leeds", "--wait-memory", today="2026-11-20")
    asked = cli.json("say", "Where should I go for a walk this weekend?", "--json", today=TODAY)
    answer = cli.json("say", "你怎么知道的？", "--session", asked["session"], "--json", today=TODAY,
                      env=_missing_model(tmp_path))
    assert answer["reply"].startswith("我上一条回复用到了这些记忆：")


def test_a_memory_forgotten_since_is_only_counted(cli, tmp_path):
    a = cli.json("memory", "add", "Works as a nurse", "--category", "profile", "--json", today="2026-11-20")
    b = cli.json("memory", "add", "Lives in Leeds", "--category", "profile", "--json", today="2026-11-20")
    asked = cli.json("say", "What should I cook tonight?", "--json", today=TODAY)
    assert {a["id"], b["id"]} <= set(asked["memories_used"])
    cli.run("memory", "forget", a["id"])
    reply = cli.json("say", "why do you think that?", "--session", asked["session"], "--json", today=TODAY,
                     env=_missing_model(tmp_path))["reply"]
    assert "Works as a nurse" not in reply and "Lives in Leeds" in reply
    assert "**Lives in Leeds** — you added it directly on 2026-11-20." in reply
    assert "1 more memory it used has since been forgotten or turned off." in reply


def test_nothing_to_trace_back_is_said_plainly(cli, tmp_path):
    first = cli.json("say", "How do you know that?", "--json", today=TODAY, env=_missing_model(tmp_path))
    assert first["reply"] == "I have not said anything in this conversation yet, so there is nothing to trace back."
    assert first["memories_used"] == []
    assert cli.json("memory", "list", "--json") == []  # nothing learned from the question


def test_what_do_you_remember_about_me_is_a_grouped_summary(cli, tmp_path):
    for text, category in [("Prefers to be called Ada", "profile"), ("Works as a nurse", "profile"),
                           ("Likes hot pot", "preference"), ("Sister Lily lives in Leeds", "relationship")]:
        cli.run("memory", "add", text, "--category", category, today="2026-11-20")
    reply = cli.json("say", "What do you remember about me?", "--json", today=TODAY,
                     env=_missing_model(tmp_path))["reply"]
    assert reply.startswith("I remember 4 things about you:")
    assert "**Who you are** (2)" in reply and "- Works as a nurse" in reply
    assert reply.index("**Who you are**") < reply.index("**People and feelings**") < reply.index("**Likes and dislikes**")
    assert "memory panel" in reply
    zh = cli.json("say", "你记得我什么？", "--json", today=TODAY, env=_missing_model(tmp_path))["reply"]
    assert zh.startswith("我记得关于你的 4 件事：") and "**关于你**（2）" in zh
