"""A private conversation (issue 34, item 2): replies use what is remembered, but nothing of the conversation is
saved, learned or cached. Proven like forgetting: every table, every decrypted page of the database file and its
WAL, and the prompt cache file. Real SmolLM2 engine, real encrypted profile."""
from __future__ import annotations

import json

import pytest

from app.chat import ChatService
from app.clock import Clock
from app.companion import Companion
from tests.support.traces import traces

KNOWN = "Keeps a Zqxheron named Quillon on the balcony"
SECRET = "I adopted a cat called Zqxmittens and I work at Zqxcorp in Zqxville"
NEEDLES = ["Zqxmittens", "zqxmittens", "Zqxcorp", "zqxcorp", "Zqxville", "adopted a cat"]


def _quick_replies(home) -> None:
    """A few tokens a reply at temperature 0: the tests are about what is written, not what is said."""
    path = home / "settings.json"
    settings = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**settings, "max_reply_tokens": 4, "temperature": 0.0, "n_ctx": 2048}))


def _open(home) -> Companion:
    return Companion(home, Clock.parse("2026-11-29"))


@pytest.fixture
def profile(cli, companion_env):
    """A profile that remembers one thing (in the always-known prefix), with quick replies."""
    cli.json("memory", "add", KNOWN, "--category", "profile", "--json")
    _quick_replies(companion_env)
    return companion_env


def test_say_private_leaves_no_trace_and_learns_nothing(cli, profile):
    out = cli.json("say", "--private", "--wait-memory", "--json", SECRET)
    assert out["private"] is True and out["session"] is None and out["memories_written"] == []
    assert cli.json("sessions", "list", "--json") == []
    assert [m["content"] for m in cli.json("memory", "list", "--status", "all", "--json")] == [KNOWN]
    assert not (profile / "prompt-state.bin").exists() and not (profile / "prompt-state.bin.tmp").exists()
    c = _open(profile)
    try:
        assert traces(c, NEEDLES) == {}
        assert "pages" in traces(c, [KNOWN])[KNOWN]  # the scan does see stored text
        assert c.store.list()[0].hit_count == 0  # its use in a private reply is not recorded either
    finally:
        c.close()
    # The control: the same message said normally is saved, learned and cached.
    said = cli.json("say", "--wait-memory", "--json", SECRET)
    assert said["session"] and said["memories_written"] and said["private"] is False
    assert (profile / "prompt-state.bin").exists()
    c = _open(profile)
    try:
        assert "pages" in traces(c, ["Zqxmittens"])["Zqxmittens"]
    finally:
        c.close()


def test_a_private_conversation_uses_memories_and_its_own_history_but_writes_nothing(profile):
    c = _open(profile)
    try:
        ChatService(c).run(None, "Hello, how are you?")  # a normal turn first: the prompt cache is written
    finally:
        c.close()  # the engine finishes writing the cache before it exits
    cache = profile / "prompt-state.bin"
    saved_cache = cache.read_bytes()
    c = _open(profile)
    try:
        chat = ChatService(c, private=True)
        first = chat.run(None, SECRET)
        assert chat.learn(first).written == []
        second = chat.run(first.session_id, "What is my cat called?")
        chat.learn(second)
        prompt = "\n".join(m["content"] for m in second.messages)
        assert "Zqxheron" in prompt and "Zqxmittens" in prompt  # memories used; the private history kept in memory
        assert [m.role for m in chat.transcript.messages(first.session_id)] == ["user", "assistant"] * 2
        assert [s.title for s in c.transcript.sessions()] == ["Hello, how are you?"]
        assert [m.content for m in c.store.list(status="all")] == [KNOWN]
        chat.transcript.close(first.session_id)
        assert chat.transcript.messages(first.session_id) == []
    finally:
        c.close()
    assert cache.read_bytes() == saved_cache  # the engine was given no head to save during it
    c = _open(profile)
    try:
        assert traces(c, NEEDLES + ["What is my cat called"]) == {}
    finally:
        c.close()


def test_chat_private_in_the_terminal_leaves_no_trace(cli, profile):
    run = cli.run("chat", "--private", input=f"{SECRET}\nI also love Zqxberries a lot.\n/quit\n")
    assert "Private conversation" in run.stdout and run.stdout.count("Companion>") == 2
    assert run.stdout.count("you (private)> ") == 3
    assert cli.json("sessions", "list", "--json") == []
    assert len(cli.json("memory", "list", "--status", "all", "--json")) == 1
    c = _open(profile)
    try:
        assert traces(c, NEEDLES + ["Zqxberries", "zqxberries"]) == {}
    finally:
        c.close()
    assert not (profile / "prompt-state.bin").exists()


def test_a_private_message_cannot_continue_a_saved_session(cli, profile):
    session = cli.json("say", "--json", "Hello there")["session"]
    run = cli.run("say", "--private", "--session", session, SECRET, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "cannot continue session" in run.stderr
    c = _open(profile)
    try:
        assert traces(c, NEEDLES) == {}
        assert len(c.transcript.messages(session)) == 2
    finally:
        c.close()
