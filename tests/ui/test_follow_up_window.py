"""Follow-ups in the window (issue 34, item 1): a new chat opens with the one that is due, once, with its memory."""
from __future__ import annotations

from memory.records import Memory
from ui.i18n import set_language

# The window's day (tests/ui/conftest.py TODAY) is Sunday 2026-11-29; the event was on Friday.
EVENT = Memory("m_test", "event", "Driving test on 2026-11-27", event_date="2026-11-27", importance=0.8,
               created_at="2026-11-20T10:00:00")


def _new_chat_opens_with(window, qtbot) -> str:
    """Start a new chat; the text of the follow-up it opened with ('' when none came)."""
    done = []
    original = window._follow_up_opened
    window._follow_up_opened = lambda opening: (original(opening), done.append(opening))
    window.new_chat()
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    if done[0] is None:
        return ""
    qtbot.waitUntil(lambda: bool(window.chat_view.bubbles), timeout=10_000)
    return window.chat_view.bubbles[0].text


def test_a_new_chat_opens_with_the_follow_up_once_with_its_memory(make_window, qtbot):
    window = make_window(wait_model=False)
    window.desk.c.store.add(EVENT)
    text = _new_chat_opens_with(window, qtbot)
    assert text == "Last time you mentioned your driving test on Friday. How did it go?"
    assert window.chat_view.bubbles[0].role == "assistant" and len(window.chat_view.bubbles) == 1
    line = window.chat_view.remembered[0]  # where it came from, like any reply: "Used 1 memory ▸" → the panel
    assert line.toggle.text().startswith("Used 1 memory") and [m.id for m in line.memories] == ["m_test"]
    with qtbot.waitSignal(line.memoryClicked):
        line._open("memory:m_test")
    qtbot.waitUntil(lambda: window.session_id is not None and window.sessions.list.count() == 1)
    assert _new_chat_opens_with(window, qtbot) == ""  # never twice
    assert window.chat_view.welcome.isVisible()


def test_in_chinese_and_not_when_turned_off(make_window, qtbot, companion_env):
    from app.settings import Settings
    Settings(language="zh_CN").save(companion_env)
    window = make_window(wait_model=False)
    try:
        store = window.desk.c.store
        store.add(Memory("m_zh", "event", "2026-11-27考驾照", event_date="2026-11-27", created_at="2026-11-20T10:00:00"))
        assert _new_chat_opens_with(window, qtbot) == "你之前说周五考驾照，结果怎么样？"
        window.desk.c.settings.follow_ups = False
        store.add(Memory("m_zh2", "event", "2026-11-30面试", event_date="2026-11-30", created_at="2026-11-20T10:00:00"))
        assert _new_chat_opens_with(window, qtbot) == ""
        window.desk.c.settings.follow_ups = True
        assert _new_chat_opens_with(window, qtbot) == "明天面试，祝你顺利！"
    finally:
        set_language("en")


def test_the_setting_is_in_the_settings_dialog(styled, qtbot, tmp_path):
    from app.settings import Settings
    from ui.settings_dialog import SettingsDialog
    dialog = SettingsDialog(Settings(), tmp_path, "encrypted", "SmolLM2.gguf")
    qtbot.addWidget(dialog)
    assert dialog.follow_ups_on.isChecked() and dialog.follow_ups_on.text().startswith("Follow-ups")
    dialog.follow_ups_on.setChecked(False)
    assert dialog.settings().follow_ups is False



def test_the_first_conversation_of_a_profile_opens_with_the_follow_up(make_window, qtbot, companion_env):
    from app.clock import Clock
    from app.companion import Companion
    from tests.ui.conftest import TODAY
    profile = Companion(companion_env, Clock(TODAY))  # an event remembered before the window ever opened
    try:
        profile.store.add(EVENT)
    finally:
        profile.close()
    window = make_window(wait_model=False)
    qtbot.waitUntil(lambda: bool(window.chat_view.bubbles), timeout=10_000)
    assert window.chat_view.bubbles[0].text == "Last time you mentioned your driving test on Friday. How did it go?"
    assert window.session_id is not None
