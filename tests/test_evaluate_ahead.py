"""A paused draft is evaluated ahead of Enter: real SmolLM2 in a real engine process, a real encrypted profile."""
from __future__ import annotations

import threading

import pytest

from app.chat import ChatService
from app.cli.chat import watch_drafts
from app.clock import Clock
from app.companion import Companion
from memory.records import Memory
from memory.storage.store import new_id


@pytest.fixture
def companion(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    c.settings.max_reply_tokens = 4
    c.settings.temperature = 0.0
    yield c
    c.close()


def test_a_paused_draft_with_its_note_is_evaluated_ahead_so_enter_evaluates_one_token(companion):
    companion.store.add(Memory(new_id(), "profile", "Works as a nurse in Chengdu"))
    chat = ChatService(companion)
    first = chat.run(None, "hello there")
    cello = companion.store.add(Memory(new_id(), "preference", "Plays the cello in an amateur orchestra"))
    text = "My cello rehearsal with the orchestra is on Thursday."
    assert chat.anticipate(text, first.session_id)
    assert companion.db.read("SELECT count(*) FROM messages WHERE content = ?", (text,)) == [(0,)]  # nothing saved
    turn = chat.run(first.session_id, text)
    p = companion.chat_model().last_prompt
    assert "cello" in turn.messages[-2]["content"]  # the note the draft brought, in the prompt that was evaluated
    assert p.evaluated == 0 and p.reused > 100, p  # the first token sampled from the logits the ahead left
    assert cello.id in turn.assistant_message.memories_used


def test_a_draft_that_changed_before_enter_costs_only_what_changed(companion):
    chat = ChatService(companion)
    first = chat.run(None, "hello there, how are you doing today?")
    chat.anticipate("I am planning a trip", first.session_id)
    text = "I am planning a trip to Lisbon with my sister next spring."
    chat.run(first.session_id, text)
    p = companion.chat_model().last_prompt
    rest = companion.chat_model().count_tokens(" to Lisbon with my sister next spring.")
    assert p.evaluated <= rest + 8, (p, rest)  # the end of the message and the template's tokens after it


def test_evaluating_ahead_stops_when_asked_keeps_what_it_did_and_the_next_reply_is_clean(companion):
    engine = companion.chat_model()
    messages = [{"role": "system", "content": "You are a kind companion. " * 150},
                {"role": "user", "content": "Hi!"}]
    assert engine.evaluate_ahead(messages, should_stop=lambda: True) is None  # asked to stop before it began
    done = None
    for waits in (1, 2, 4, 8, 16, 32):  # stopped after ~20 ms, then longer: a loaded machine may not begin in 20 ms
        # a system text never evaluated before: only the template's opening (a few tokens) is shared with the last
        messages[0]["content"] = f"{waits} " + "You are a kind companion. " * 150
        polls = iter(range(1_000_000))
        assert engine.evaluate_ahead(messages, should_stop=lambda: next(polls) >= waits) is None
        done = engine.evaluate_ahead(messages)
        if done is not None and done.reused > 16:
            break
    assert done is not None and 16 < done.reused and done.evaluated > 0, done  # went on from where it stopped
    assert engine.evaluate_ahead(messages) == type(done)(done.reused + done.evaluated, 0)  # nothing left to do
    reply = "".join(engine.stream(messages, max_tokens=4, temperature=0.0))
    assert reply and engine.last_prompt.evaluated == 0



def test_between_turns_the_terminal_has_the_conversation_so_far_evaluated_so_enter_costs_the_message(companion):
    companion.store.add(Memory(new_id(), "profile", "Works as a nurse in Chengdu"))
    chat = ChatService(companion)
    chat.evaluate_conversation(None)  # a new conversation: the fixed prompt and the memory prefix, before any message
    first = chat.run(None, "hello there")
    p = companion.chat_model().last_prompt
    message = companion.chat_model().count_tokens("hello there")
    assert p.reused > 100 and p.evaluated <= message + 10, p  # the message and the template's 9 tokens around it
    assert companion.db.read("SELECT count(*) FROM sessions") == [(1,)]  # nothing saved ahead
    chat.evaluate_conversation(first.session_id)  # the reply's closing tokens
    text = "I had a long shift at the hospital today."
    turn = chat.run(first.session_id, text)
    p = companion.chat_model().last_prompt
    note = "" if turn.messages[-2]["role"] != "system" else turn.messages[-2]["content"]
    assert p.evaluated <= companion.chat_model().count_tokens(text) + companion.chat_model().count_tokens(note) + 16, p
    assert chat.evaluate_conversation(first.session_id, should_stop=lambda: True) is None  # asked to stop: nothing


def test_a_reply_after_evaluating_ahead_is_the_reply_it_would_have_been():
    """The prompt evaluated whole ahead: the reply evaluates nothing and samples from the logits left, to the same
    greedy words as a reply evaluated from scratch."""
    from models.chat import ChatModel
    from models.resolve import resolve_chat_model

    messages = [{"role": "user", "content": "What should I cook for dinner tonight? Something warm, please."}]
    with ChatModel(resolve_chat_model(None).path, n_ctx=512) as model:
        cold = "".join(model.stream(messages, max_tokens=12, temperature=0.0))
        model._llm.reset()
        ahead = model.evaluate_ahead(messages)
        warm = "".join(model.stream(messages, max_tokens=12, temperature=0.0))
        assert ahead.evaluated > 0 and model.last_prompt.evaluated == 0, model.last_prompt
        assert warm == cold and warm


def test_enter_waits_for_no_token_count_when_the_prompt_fits_by_its_bounds(companion, monkeypatch):
    """The message, its note and the last reply are not counted yet at Enter: their UTF-8 bytes bound their tokens, and
    a prompt that fits by the bounds asks the engine for nothing before the reply; one near the context's end is
    counted (in one request) and trimmed as before."""
    companion.store.add(Memory(new_id(), "profile", "Works as a nurse in Chengdu"))
    chat = ChatService(companion)
    first = chat.run(None, "hello there")
    chat.evaluate_conversation(first.session_id)  # between turns: the memories' counts, the conversation evaluated
    engine = companion.chat_model()
    asked: list[str] = []
    real = engine._ask
    monkeypatch.setattr(engine, "_ask", lambda op, *a, **k: asked.append(op) or real(op, *a, **k))
    text = "I had a long shift at the hospital today, and the bus home was late again."
    turn = chat.prepare(first.session_id, text)
    assert asked == [] and turn.messages[-1]["content"] == text
    assert [m["content"] for m in turn.messages if m["role"] != "system"] == [
        "hello there", first.assistant_message.content, text]
    assert engine.count_at_most(text) == len(text.encode()) + 1 and engine.count_tokens(text) < len(text.encode())
    companion.settings.max_reply_tokens = engine.n_ctx - 32 - 400  # about 400 tokens left: the bounds no longer fit
    chat.finish(turn)
    asked.clear()
    near = chat.prepare(first.session_id, "and so on " * 40)
    assert asked == ["count", "count"]  # counted exactly in one request, then the message as it was cut
    assert "[…]" in near.messages[-1]["content"] and [m["role"] for m in near.messages][-2:] == ["system", "user"]
    assert "hello there" not in [m["content"] for m in near.messages]  # the history did not fit


def test_a_draft_the_terminal_saw_pause_is_evaluated_with_its_note_so_enter_evaluates_almost_nothing(companion):
    chat = ChatService(companion)
    first = chat.run(None, "hello there")
    cello = companion.store.add(Memory(new_id(), "preference", "Plays the cello in an amateur orchestra"))
    text = "My cello rehearsal with the orchestra is on Thursday."
    worked = threading.Event()

    def on_pause(draft, changed):
        chat.anticipate(draft, first.session_id, changed)
        worked.set()
    watch_drafts(lambda: text, on_pause, worked.is_set, pause=0.05, poll=0.01)
    turn = chat.run(first.session_id, text)
    p = companion.chat_model().last_prompt
    assert p.evaluated <= 1 and p.reused > 100, p
    assert cello.id in turn.assistant_message.memories_used
