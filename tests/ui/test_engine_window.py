"""The window when the chat engine process dies mid-reply or cannot load the model (real child, offscreen Qt)."""
from __future__ import annotations

import os
import signal

from app.chat import INTERRUPTED_MARK
from app.settings import Settings
from tests.support.engine_kill import KillOnNextRequest
from ui.i18n import set_language


def _window_with_engine(make_window, home, max_reply_tokens: int):
    """A window whose engine is running, and the list the reply pieces it shows are collected in."""
    Settings(max_reply_tokens=max_reply_tokens).save(home)
    window = make_window()
    engine = window.desk.c.chat_model()
    seen: list[str] = []
    window.controller.replyText.connect(seen.append)
    return window, engine, seen


def test_kill_9_mid_reply_keeps_the_window_and_the_partial_reply_and_the_next_message_gets_a_new_engine(
        make_window, qtbot, companion_env):
    window, engine, seen = _window_with_engine(make_window, companion_env, max_reply_tokens=300)
    first_pid = engine.pid
    with qtbot.waitSignal(window.controller.replyFailed, timeout=120_000) as failed:
        window.send("I work as a nurse in Chengdu. Tell me a very long story about a lighthouse.")
        qtbot.waitUntil(lambda: len("".join(seen)) > 20, timeout=120_000)
        os.kill(first_pid, signal.SIGKILL)
    sentence = failed.args[0]
    assert sentence.startswith("The chat engine stopped unexpectedly (killed by SIGKILL).") and "\n" not in sentence
    assert window.isVisible() and not window.controller.replying and not window.composer.replying
    bubble = window.chat_view.bubbles[-1]
    assert bubble.text.startswith("".join(seen).strip()) and sentence in bubble.text
    saved = window.desk.c.transcript.messages(window.session_id)
    assert saved[-1].content == "".join(seen).strip() + "\n\n" + INTERRUPTED_MARK
    qtbot.waitUntil(lambda: window.controller.learning == 0, timeout=60_000)
    assert any("nurse" in m.content for m in window.desk.c.store.list())  # learning was not lost

    window.desk.c.settings.max_reply_tokens = 8
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000) as finished:
        window.send("Hello again!")
    assert finished.args[1] is False and engine.pid != first_pid and engine.started == 2
    assert window.desk.c.transcript.messages(window.session_id)[-1].content.strip()


def test_kill_9_before_the_first_piece_says_one_sentence_and_the_message_is_still_learned_from(
        make_window, qtbot, companion_env):
    window, engine, seen = _window_with_engine(make_window, companion_env, max_reply_tokens=8)
    first_pid = engine.pid
    killer = KillOnNextRequest(first_pid)
    with qtbot.waitSignal(window.controller.replyFailed, timeout=120_000) as failed:
        window.send("I work as a nurse in Chengdu.")
    assert killer.wait()["op"] == "chat" and seen == []  # it died as the reply was asked for (the prompt fit: no count)
    sentence = failed.args[0]
    assert sentence == ("The chat engine stopped unexpectedly (killed by SIGKILL). What it said so far is kept; "
                        "your next message starts it again.")
    assert window.isVisible() and not window.controller.replying and not window.composer.replying
    assert sentence in window.chat_view.bubbles[-1].text
    saved = window.desk.c.transcript.messages(window.session_id)
    assert [(m.role, m.content) for m in saved] == [("user", "I work as a nurse in Chengdu."),
                                                    ("assistant", INTERRUPTED_MARK)]
    qtbot.waitUntil(lambda: window.controller.learning == 0, timeout=60_000)
    assert any("nurse" in m.content for m in window.desk.c.store.list())  # learning was not lost
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
        window.send("Hello again!")
    assert engine.pid != first_pid and engine.started == 2


def test_a_broken_gguf_is_one_sentence_in_the_window_in_english_and_chinese(make_window, qtbot, companion_env, styled):
    broken = companion_env.parent / "broken.gguf"
    broken.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + os.urandom(8192))
    Settings(chat_model=str(broken)).save(companion_env)
    window = make_window(wait_model=False)
    qtbot.waitUntil(lambda: window.status.state == "error", timeout=120_000)
    shown = window.status.text.text()
    assert "could not be loaded" in shown and "broken.gguf" in shown and "Traceback" not in shown
    assert not window.model_name
    set_language("zh_CN")
    try:
        with qtbot.waitSignal(window.controller.modelFailed, timeout=120_000) as failed:
            window.controller.load_model()
        assert "无法加载" in failed.args[0] and "could not" not in failed.args[0] and "\n" not in failed.args[0]
    finally:
        set_language("en")
