"""Follow-ups (issue 34, item 1): `companion chat` opens with one short message about a remembered event, once."""
from __future__ import annotations

import json
from datetime import date

import pytest

from app.chat import ChatService
from app.clock import Clock
from app.companion import Companion
from app.follow_ups import open_conversation

FOLLOW_UP_EN = "Last time you mentioned your driving test on Friday. How did it go?"
FOLLOW_UP_ZH = "你之前说周五考驾照，结果怎么样？"


def add_event(cli, text: str, day: str, category: str = "event", today: str = "2026-12-01") -> dict:
    return cli.json("memory", "add", text, "--category", category, "--date", day, "--json", today=today)


def chat(cli, today: str, said: str = "") -> str:
    """`companion chat` on `today`, saying `said` (lines) and leaving; what it printed."""
    return cli.run("chat", today=today, input=said).stdout


def set_language(cli, language: str) -> None:
    path = cli.home / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    path.write_text(json.dumps({**settings, "language": language}), encoding="utf-8")


def test_an_event_two_days_ago_is_asked_about_once(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    first = chat(cli, "2026-12-06")
    assert FOLLOW_UP_EN in first
    assert f"(from memory {event['id']}: Driving test)" in first
    # It is the first message of a conversation, with the memory it came from as the message's used memory.
    sessions = cli.run("sessions", "list").stdout
    assert "Last time you mentioned" in sessions
    second = chat(cli, "2026-12-06")
    assert "Last time you mentioned" not in second and "from memory" not in second
    assert "Last time you mentioned" not in chat(cli, "2026-12-08")  # nor on a later day


def test_in_chinese_from_a_chinese_note(cli):
    add_event(cli, "考驾照", "2026-12-04")
    set_language(cli, "zh_CN")
    assert FOLLOW_UP_ZH in chat(cli, "2026-12-06")
    assert FOLLOW_UP_ZH not in chat(cli, "2026-12-07")


def test_the_event_learned_from_a_message_is_followed_up(cli):
    """Through the real pipeline: what `say` learns from 'My driving test is on Friday' is asked about once,
    even though extraction stored it as two notes of the same day (one question, not two)."""
    learned = cli.json("memory", "extract", "My driving test is on Friday", "--json", today="2026-12-01")["written"]
    assert {m["event_date"] for m in learned} == {"2026-12-04"}
    assert FOLLOW_UP_EN in chat(cli, "2026-12-06")
    assert "from memory" not in chat(cli, "2026-12-06")


@pytest.mark.parametrize(("today", "expected"), [
    ("2026-12-04", "Good luck with your driving test today!"),
    ("2026-12-03", "Good luck with your driving test tomorrow!"),
    ("2026-12-05", "Last time you mentioned your driving test yesterday. How did it go?"),
    ("2026-12-11", "Last time you mentioned your driving test last Friday. How did it go?"),
])
def test_which_follow_up_depends_on_the_day(cli, today, expected):
    add_event(cli, "Driving test", "2026-12-04")
    assert expected in chat(cli, today)


def test_good_luck_before_and_how_did_it_go_after_are_each_said_once(cli):
    add_event(cli, "Driving test", "2026-12-04")
    assert "Good luck with your driving test tomorrow!" in chat(cli, "2026-12-03")
    assert "from memory" not in chat(cli, "2026-12-04")  # no second good luck on the day itself
    assert FOLLOW_UP_EN in chat(cli, "2026-12-06")
    assert "from memory" not in chat(cli, "2026-12-07")


def test_how_do_you_know_after_a_follow_up_names_its_memory(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    out = chat(cli, "2026-12-06", said="How do you know that?\n")
    assert "My last reply drew on this memory:" in out
    assert f"**Driving test** — you added it directly on 2026-12-01. `{event['id']}`" in out


@pytest.mark.parametrize("today", ["2026-12-12", "2026-11-20", "2026-12-02"])
def test_no_follow_up_for_an_event_too_far_away(cli, today):
    add_event(cli, "Driving test", "2026-12-04", today="2026-11-15")
    assert "from memory" not in chat(cli, today)


def test_an_event_told_after_it_happened_is_not_asked_about(cli):
    add_event(cli, "Driving test", "2026-12-04", today="2026-12-05")  # "I had my driving test yesterday"
    assert "from memory" not in chat(cli, "2026-12-06")


def test_a_birthday_is_reminded_every_year(cli):
    add_event(cli, "Sister Lily's birthday", "2025-12-07", category="relationship", today="2025-11-01")
    assert "Just a reminder: your sister Lily's birthday is tomorrow." in chat(cli, "2026-12-06")
    assert "Just a reminder: it's your sister Lily's birthday today." not in chat(cli, "2026-12-07")  # once a year
    assert "Just a reminder: your sister Lily's birthday is tomorrow." in chat(cli, "2027-12-06")


def test_pinned_first_then_the_nearest(cli):
    add_event(cli, "Dentist appointment", "2026-12-05")
    pinned = add_event(cli, "Job interview", "2026-12-01")
    cli.run("memory", "edit", pinned["id"], "--pin")
    assert "Last time you mentioned your job interview on Tuesday." in chat(cli, "2026-12-06")
    assert "Last time you mentioned your dentist appointment yesterday." in chat(cli, "2026-12-06")
    assert "from memory" not in chat(cli, "2026-12-06")


def test_the_setting_turns_follow_ups_off(cli):
    add_event(cli, "Driving test", "2026-12-04")
    (cli.home / "settings.json").write_text(json.dumps({"follow_ups": False}), encoding="utf-8")
    assert "from memory" not in chat(cli, "2026-12-06")


def test_an_event_forgotten_meanwhile_never_comes_up(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    cli.run("memory", "forget", event["id"])
    assert "from memory" not in chat(cli, "2026-12-06")


def test_a_turned_off_event_does_not_come_up(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    cli.run("memory", "edit", event["id"], "--disable")
    assert "from memory" not in chat(cli, "2026-12-06")


def test_forgetting_a_followed_up_memory_removes_its_record(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    assert "from memory" in chat(cli, "2026-12-06")
    receipt = cli.json("memory", "forget", event["id"], "--json")
    assert receipt["verified"] and "follow_ups" in receipt["checked"]
    c = Companion(cli.home, Clock())
    try:
        assert c.db.read("SELECT count(*) FROM follow_ups")[0][0] == 0
    finally:
        c.close()


def test_the_answer_is_read_with_the_follow_up_as_the_previous_message(cli):
    """The answer's turn carries the follow-up as the companion's previous message: what extraction reads as context."""
    add_event(cli, "Driving test", "2026-12-04")
    c = Companion(cli.home, Clock(date(2026, 12, 6)))
    try:
        opening = open_conversation(c)
        assert opening is not None and opening.follow_up.text == FOLLOW_UP_EN
        turn = ChatService(c).prepare(opening.session_id, "passed!")
        assert turn.previous_reply == FOLLOW_UP_EN
    finally:
        c.close()


def test_the_answer_goes_on_in_the_follow_ups_conversation(cli):
    add_event(cli, "Driving test", "2026-12-04")
    out = chat(cli, "2026-12-06", said="passed!\n")
    assert FOLLOW_UP_EN in out
    sessions = cli.json("sessions", "list", "--json")
    assert len(sessions) == 1
    messages = cli.json("sessions", "show", sessions[0]["id"], "--json")
    assert [(m["role"], m["content"]) for m in messages[:2]] == [("assistant", FOLLOW_UP_EN), ("user", "passed!")]
    assert messages[2]["role"] == "assistant" and len(messages) == 3


def test_passed_after_a_follow_up_becomes_the_events_outcome(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    out = chat(cli, "2026-12-06", said="passed!! lol\n")
    assert FOLLOW_UP_EN in out
    memories = {m["id"]: m for m in cli.json("memory", "list", "--status", "all", "--json", today="2026-12-06")}
    assert memories[event["id"]]["status"] == "superseded"
    outcome = memories[memories[event["id"]]["superseded_by"]]
    assert (outcome["content"], outcome["category"], outcome["event_date"]) == \
        ("Driving test (2026-12-04): passed", "event", "2026-12-04")
    assert FOLLOW_UP_EN not in chat(cli, "2026-12-07")  # an event with its outcome is not asked about again


def test_the_chinese_answer_to_a_follow_up_is_the_events_outcome(cli):
    event = add_event(cli, "考驾照", "2026-12-04")
    set_language(cli, "zh_CN")
    assert FOLLOW_UP_ZH in chat(cli, "2026-12-06", said="没过，下个月再考\n")
    memories = {m["id"]: m for m in cli.json("memory", "list", "--status", "all", "--json", today="2026-12-06")}
    outcome = memories[memories[event["id"]]["superseded_by"]]
    assert outcome["content"] == "考驾照（2026-12-04）：没过，下个月再考"


@pytest.mark.parametrize("said", ["haha\n", "why do you ask?\n"])
def test_an_answer_that_says_nothing_leaves_the_event_as_it_was(cli, said):
    event = add_event(cli, "Driving test", "2026-12-04")
    assert FOLLOW_UP_EN in chat(cli, "2026-12-06", said=said)
    memories = {m["id"]: m for m in cli.json("memory", "list", "--status", "all", "--json", today="2026-12-06")}
    assert memories[event["id"]]["status"] == "active" and memories[event["id"]]["content"] == "Driving test"


def test_the_second_message_after_a_follow_up_is_no_outcome(cli):
    event = add_event(cli, "Driving test", "2026-12-04")
    chat(cli, "2026-12-06", said="haha\nalso I adopted a cat\n")
    memories = {m["id"]: m for m in cli.json("memory", "list", "--status", "all", "--json", today="2026-12-06")}
    assert memories[event["id"]]["status"] == "active"
