"""The main window driven like a user would: send, watch the reply stream, stop it, switch sessions."""
from __future__ import annotations

import time

from PySide6.QtCore import Qt

from app.chat import CUT_MARK
from app.settings import Settings
from memory.records import Message


def _shown_chat_view(qtbot, width: int, height: int):
    from ui.chat_view import ChatView
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    return view


def _short_replies(home, tokens: int = 40) -> None:
    Settings(max_reply_tokens=tokens).save(home)


def test_window_appears_before_the_profile_and_model_are_ready(make_window, qtbot):
    window = make_window(open_profile=False)
    assert window.isVisible()
    assert not window.composer.isEnabled()
    assert "you can type in a moment" in window.composer.input.placeholderText()  # the box says it is not ready
    with qtbot.waitSignal(window.opened, timeout=240_000):
        window.open_profile()
        assert window.status.state == "busy"  # the indicator says what is happening meanwhile
    assert window.composer.isEnabled() and window.composer.input.placeholderText().startswith("Message ")
    qtbot.waitUntil(lambda: bool(window.model_name), timeout=120_000)
    assert window.status.state == "ready" and window.model_name.endswith(".gguf")


def test_sent_message_streams_a_reply_in_batches(make_window, qtbot, companion_env):
    _short_replies(companion_env)
    window = make_window()
    batches = []
    window.controller.replyText.connect(batches.append)
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
        qtbot.keyClicks(window.composer.input, "Hello! How are you today?")
        qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
        assert window.composer.replying and window.composer.button.text() == "Stop"
    assert batches, "text arrived while the reply was being written"
    reply = window.chat_view.bubbles[-1]
    said = "".join(batches).strip()
    # 40 tokens seldom end a reply: cut by the limit, it is marked as it is saved (and reads the same reopened)
    shown = f"{said}\n\n{CUT_MARK}" if window.controller.last_cut else said
    assert reply.role == "assistant" and reply.text.strip() == shown
    assert window.desk.c.transcript.messages(window.session_id)[-1].content == shown
    assert window.chat_view.bubbles[-2].text == "Hello! How are you today?"
    assert not window.composer.replying and window.composer.input.toPlainText() == ""
    qtbot.waitUntil(lambda: window.sessions.list.count() == 1)
    assert window.session_id == window.sessions.session_ids()[0]


def test_stop_ends_the_reply_within_a_batch_and_keeps_what_was_said(make_window, qtbot, companion_env):
    Settings(max_reply_tokens=512).save(companion_env)
    window = make_window()
    seen = []
    window.controller.replyText.connect(seen.append)
    window.send("Tell me a very long story about a dragon who learns to bake bread.")
    assert "reading your message" in window.status.text.text()
    qtbot.waitUntil(lambda: len("".join(seen)) > 40, timeout=120_000)
    assert "is replying" in window.status.text.text()
    qtbot.waitUntil(lambda: window.sessions.list.count() == 1)  # listed while its first reply is written
    with qtbot.waitSignal(window.controller.replyFinished, timeout=5_000) as finished:
        stopped_at = time.monotonic()
        qtbot.mouseClick(window.composer.button, Qt.MouseButton.LeftButton)
        count_at_stop = len(seen)
    assert finished.args[1] is True
    assert time.monotonic() - stopped_at < 2.0
    assert len(seen) - count_at_stop <= 1  # at most the batch already on its way
    messages = window.desk.c.transcript.messages(window.session_id)
    assert messages[-1].role == "assistant" and messages[-1].content == "".join(seen).strip() + "\n\n(stopped)"
    assert "(stopped)" in window.chat_view.bubbles[-1].text


def test_shift_enter_makes_a_new_line_and_enter_sends(make_window, qtbot):
    window = make_window(open_profile=False)
    window.composer.setEnabled(True)
    sent = []
    window.composer.sendRequested.connect(sent.append)
    qtbot.keyClicks(window.composer.input, "first line")
    qtbot.keyClick(window.composer.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(window.composer.input, "second line")
    assert sent == [] and window.composer.input.toPlainText() == "first line\nsecond line"
    qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    assert sent == ["first line\nsecond line"]
    qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    assert sent == ["first line\nsecond line"], "an empty box sends nothing"


def test_a_pause_in_typing_embeds_the_draft_for_the_reply_that_follows(make_window, qtbot, companion_env):
    _short_replies(companion_env)
    window = make_window()
    paused = []
    window.composer.draftPaused.connect(paused.append)
    qtbot.keyClicks(window.composer.input, "I finally booked the trip to Lisbon")
    qtbot.waitUntil(lambda: paused == ["I finally booked the trip to Lisbon"], timeout=5_000)
    qtbot.wait(400)
    assert len(paused) == 1, "one pause, one signal: not one per key"
    chat = window.controller.chat
    qtbot.waitUntil(lambda: chat._anticipated is not None, timeout=30_000)  # done on the model worker
    assert chat._anticipated.text == "I finally booked the trip to Lisbon"
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
        qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    assert chat._anticipated is None, "the reply used the draft's vectors"
    qtbot.wait(400)
    assert len(paused) == 1, "sending is not a pause: nothing is embedded for an empty box"


def test_a_paused_draft_is_evaluated_ahead_and_typing_on_stops_that_work(make_window, qtbot, companion_env):
    _short_replies(companion_env)
    window = make_window()
    controller = window.controller
    qtbot.waitUntil(lambda: controller.chat is not None and not controller.worker.busy, timeout=60_000)
    qtbot.keyClicks(window.composer.input, "I finally booked the trip to Lisbon")
    qtbot.waitUntil(lambda: controller._draft_cancel is not None and not controller._draft_cancel.is_set()
                    and controller.worker.busy, timeout=5_000)  # paused: the draft is worked on
    working = controller._draft_cancel
    qtbot.keyClicks(window.composer.input, " and Porto")
    assert working.is_set(), "a key pressed stops the work on the draft that paused"
    qtbot.waitUntil(lambda: controller._draft_cancel is not working and not controller.worker.busy, timeout=60_000)
    with qtbot.waitSignal(controller.replyFinished, timeout=120_000):
        qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    assert controller.companion.chat_model().last_prompt.evaluated <= 1  # all but the last token was evaluated ahead


def test_view_follows_the_stream_unless_the_user_scrolled_up(styled, qtbot):
    view = _shown_chat_view(qtbot, 500, 300)
    for i in range(6):
        view.add_user_message(f"message {i}")
        view.begin_reply()
        view.append_reply("A line of reply text that is long enough to wrap. " * 3)
        view.end_reply([])
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    view.begin_reply()
    view.append_reply("more text\n\n" * 10)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    bar.setValue(0)  # the user scrolls up to read
    view.append_reply("and more\n\n" * 10)
    qtbot.wait(50)
    assert bar.value() == 0 and not view.following
    view.scroll_to_bottom()
    assert view.following


def test_reply_markdown_is_rendered_and_raw_html_is_not(styled):
    from ui.chat_view import markdown_html
    rendered = markdown_html("**bold** and `code` <b>not html</b>")
    assert "font-weight" in rendered and "&lt;b&gt;" in rendered


def test_sessions_new_rename_delete(make_window, qtbot, companion_env, monkeypatch):
    _short_replies(companion_env, 16)
    window = make_window()
    for text in ("First conversation", "Second conversation"):
        window.new_chat()
        with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
            window.send(text)
    qtbot.waitUntil(lambda: window.sessions.list.count() == 2)
    first, second = window.sessions.session_ids()[1], window.sessions.session_ids()[0]
    window.choose_session(first)
    qtbot.waitUntil(lambda: [b.text for b in window.chat_view.bubbles][:1] == ["First conversation"])
    monkeypatch.setattr("ui.ask.text", lambda *a, **k: "Renamed chat")
    window.rename_session(first)
    qtbot.waitUntil(lambda: "Renamed chat" in [window.sessions.list.item(r).text() for r in range(2)])
    monkeypatch.setattr("ui.ask.confirm", lambda *a, **k: True)
    window.delete_session(first)
    qtbot.waitUntil(lambda: window.sessions.session_ids() == [second])
    assert window.session_id is None and window.chat_view.bubbles == []


def test_bubbles_fit_their_text_after_the_stylesheet_applies(styled, qtbot):
    """Measured before polish, the text was taller than its bubble and its first lines were cut off."""
    view = _shown_chat_view(qtbot, 340, 600)
    view.show_conversation([Message("1", "s", "user", "My driving test is next Friday and I'm so nervous.", "t"),
                            Message("2", "s", "assistant", "Good luck!\n\n1. Sleep well.\n2. Arrive early.", "t")],
                           {})
    qtbot.wait(100)
    for bubble in view.bubbles:
        body = bubble.body
        assert body.height() >= body.document().size().height()
        assert body.document().idealWidth() <= body.width() <= body.max_width
    assert view.bubbles[0].body.width() > 200  # a long line wraps at the bubble's width, not in a narrow column


def test_wheel_over_a_bubble_scrolls_the_conversation(styled, qtbot):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication
    view = _shown_chat_view(qtbot, 400, 300)
    for i in range(8):
        view.add_user_message(f"message {i} " * 8)
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    body = view.bubbles[-1].body
    centre = QPointF(body.rect().center())
    event = QWheelEvent(centre, QPointF(body.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    before = bar.value()
    QApplication.sendEvent(body.viewport(), event)
    assert bar.value() < before


def test_single_line_breaks_in_a_reply_are_kept(styled, qtbot):
    view = _shown_chat_view(qtbot, 600, 400)
    poem = "Roses are red,\nviolets are blue,\nsugar is sweet.\n\nA new verse\n```\ncode line 1\ncode line 2\n```"
    view.show_conversation([Message("1", "s", "assistant", poem, "t")], {})
    shown = view.bubbles[0].body.toPlainText()
    assert "Roses are red,\nviolets are blue,\nsugar is sweet." in shown.replace("\u2028", "\n")
    assert "code line 1\ncode line 2" in shown
    assert "  " not in view.bubbles[0].text  # the stored text is untouched


def test_closing_mid_reply_marks_it_stopped_and_reopens_there_at_the_same_size(make_window, qtbot, companion_env):
    Settings(max_reply_tokens=512).save(companion_env)
    window = make_window()
    window.resize(760, 560)  # within the offscreen screen (800x600): restoring clamps to it
    window.memory_action.trigger()
    window.send("Tell me a very long story about a dragon who learns to bake bread.")
    window.close()  # before the first word: the reply is saved as stopped, not as "…"
    qtbot.waitUntil(lambda: window._closed and not window.isVisible(), timeout=60_000)
    session_id = window.session_id

    again = make_window(wait_model=False)
    assert (again.width(), again.height()) == (760, 560)
    assert again.dock.isVisible()
    qtbot.waitUntil(lambda: again.session_id == session_id and len(again.chat_view.bubbles) == 2, timeout=10_000)
    reply = again.chat_view.bubbles[-1]
    assert reply.role == "assistant"
    shown = reply.body.toPlainText()
    assert shown.rstrip().endswith("(stopped)") and shown.strip() != "…"
    assert again.sessions.session_ids() == [session_id]


def test_memories_under_a_reply_are_called_used_and_what_was_stored_learned(styled, qtbot):
    from tests.ui.conftest import sample_memories
    from ui.i18n import set_language
    view = _shown_chat_view(qtbot, 600, 400)
    view.show_conversation([Message("1", "s", "assistant", "It looks sunny today.", "t", ["m_1", "m_2", "m_3"])],
                           {m.id: m for m in sample_memories()})
    line = view.remembered[0]
    assert line.toggle.text().startswith("Used 3 memories")
    set_language("zh_CN")
    try:
        view.retranslate()
        assert line.toggle.text().startswith("用到了 3 条记忆")
    finally:
        set_language("en")


def test_one_new_chat_button_and_ctrl_n_still_starts_one(make_window, qtbot):
    from PySide6.QtWidgets import QToolBar
    window = make_window(wait_model=False)
    toolbar = window.findChild(QToolBar, "mainToolbar")
    assert window.new_action not in toolbar.actions() and window.sessions.new_button.isVisible()
    assert window.new_action in window.actions() and window.new_action.shortcut().toString() == "Ctrl+N"
