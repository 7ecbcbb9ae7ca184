""""How do you know that?" in the window (issue 34, item 4): the answer from the record, with actions on each memory."""
from __future__ import annotations

import re

from PySide6.QtCore import Qt

from app.settings import Settings
from memory.records import Memory
from ui.i18n import set_language
from ui.record_actions import RecordActions


def _send(window, qtbot, text: str) -> None:
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
        window.composer.input.setPlainText(text)  # keyClicks aborts on characters outside Latin-1
        qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)


def _actions(window) -> list[RecordActions]:
    return window.chat_view.findChildren(RecordActions)


def test_how_do_you_know_lists_the_memories_with_open_and_forget(make_window, qtbot, companion_env, monkeypatch):
    Settings(max_reply_tokens=16).save(companion_env)
    window = make_window()
    window.new_chat()
    store, transcript = window.desk.c.store, window.desk.c.transcript
    earlier = transcript.create_session("About me")
    said = transcript.add_message(earlier.id, "user", "Hi! I live in Leeds")
    store.add(Memory("m_city", "profile", "Lives in Leeds", quote="I live in Leeds", importance=0.9,
                     session_id=earlier.id, message_id=said.id))
    store.add(Memory("m_job", "profile", "Works as a nurse", quote="I'm a nurse", importance=0.9))
    _send(window, qtbot, "What should I cook tonight?")
    used = window.desk.c.transcript.messages(window.session_id)[-1].memories_used
    assert {"m_city", "m_job"} <= set(used)
    prompt = window.desk.c.chat_model().last_prompt
    _send(window, qtbot, "How do you know that?")
    assert window.desk.c.chat_model().last_prompt == prompt  # the model was not asked
    answer = window.chat_view.bubbles[-1]
    assert answer.role == "assistant" and answer.text.startswith("My last reply drew on these")
    assert f"**Lives in Leeds** — you said “I live in Leeds” on {said.created_at[:10]}, in the conversation " \
           "“About me”. `m_city`" in answer.text
    (actions,) = _actions(window)
    assert [m.id for m in actions.answer.memories] == used
    assert "Open in memory panel" in actions.label.text() and "Forget this" in actions.label.text()
    actions.follow("open:m_city")
    qtbot.waitUntil(lambda: window.dock.isVisible())
    monkeypatch.setattr("ui.ask.confirm", lambda *a, **k: True)
    actions.follow("forget:m_city")
    qtbot.waitUntil(lambda: "m_city" in actions.forgotten, timeout=10_000)
    assert "Forgotten" in actions.label.text()
    set_language("zh_CN")
    try:
        window.retranslate()
        shown = re.sub(r"<[^>]+>", "", actions.label.text())
        assert "Lives in Leeds — 已遗忘" in shown and "Works as a nurse — 在记忆面板中打开 · 遗忘这条" in shown
    finally:
        set_language("en")
    assert [m.id for m in store.list(status="all")] == ["m_job"]


def test_what_do_you_remember_about_me_in_chinese_links_to_the_panel(make_window, qtbot, companion_env):
    Settings(language="zh_CN").save(companion_env)
    window = make_window()
    try:
        window.desk.c.store.add(Memory("m_hotpot", "preference", "喜欢吃火锅", quote="我喜欢吃火锅"))
        _send(window, qtbot, "你记得我什么？")
        assert window.chat_view.bubbles[-1].text.startswith("我记得关于你的 1 件事：")
        (actions,) = _actions(window)
        assert "打开记忆面板" in actions.label.text()
        assert not window.chat_view.remembered  # no "used" line: the answer used nothing, it listed
        actions.follow("panel:")
        qtbot.waitUntil(lambda: window.dock.isVisible())
    finally:
        set_language("en")
