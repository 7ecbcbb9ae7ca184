"""Issue 34, items 2 and 3 in the window: a private conversation (banner, composer colour, nothing saved or learned,
gone once ended) and "Forget this conversation…" in the conversation list, with its receipt in the memory panel."""
from __future__ import annotations

from PySide6.QtCore import Qt

from app.clock import Clock
from app.companion import Companion
from app.settings import Settings
from memory.records import Memory
from memory.storage import record_sources
from memory.storage.store import new_id
from tests.support.traces import traces
from tests.ui.conftest import TODAY
from ui.i18n import set_language

KNOWN = "Keeps a Zqxheron named Quillon on the balcony"
SECRET = "I adopted a cat called Zqxmittens and I work at Zqxcorp"


def _profile(home) -> None:
    """Quick replies, and one thing remembered that a reply can use."""
    Settings(max_reply_tokens=4, temperature=0.0, n_ctx=2048).save(home)
    c = Companion(home, Clock(TODAY))
    try:
        c.store.add(Memory(new_id(), "profile", KNOWN, source="explicit"))
    finally:
        c.close()


def _send(window, qtbot, text: str) -> None:
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
        qtbot.keyClicks(window.composer.input, text)
        qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)


def test_a_private_conversation_is_unmistakable_saves_nothing_and_ends_when_switched_off(make_window, qtbot,
                                                                                         companion_env):
    _profile(companion_env)
    window = make_window()
    learning = []
    window.controller.learningStarted.connect(lambda: learning.append(True))
    window.private_action.trigger()
    assert window.private and window.private_banner.isVisible() and window.private_action.isChecked()
    assert window.composer.property("private") is True and window.composer.input.property("private") is True
    assert "Private conversation" in window.private_banner.title.text()
    assert "not saved" in window.composer.input.placeholderText()
    qtbot.keyClicks(window.composer.input, SECRET)  # a paused draft is embedded ahead by the private service only
    qtbot.waitUntil(lambda: window.controller.private_chat._anticipated is not None, timeout=30_000)
    assert window.controller.chat._anticipated is None
    with qtbot.waitSignal(window.controller.replyFinished, timeout=120_000):
        qtbot.keyClick(window.composer.input, Qt.Key.Key_Return)
    _send(window, qtbot, "What is my cat called?")
    assert [b.text for b in window.chat_view.bubbles][::2] == [SECRET, "What is my cat called?"]
    private_id = window.session_id
    assert len(window.controller.private_chat.transcript.messages(private_id)) == 4
    assert window.desk.sessions() == [] and window.sessions.list.count() == 0 and learning == []
    assert [m.content for m in window.desk.all_memories()] == [KNOWN]

    window.private_action.trigger()  # switched off: it ends, it does not become a saved conversation
    assert not window.private and not window.private_banner.isVisible()
    assert window.composer.property("private") is False and window.chat_view.bubbles == []
    assert window.session_id is None and window.controller.private_chat.transcript.messages(private_id) == []
    window.shutdown()
    c = Companion(companion_env, Clock(TODAY))
    try:
        assert traces(c, ["Zqxmittens", "zqxmittens", "Zqxcorp", "zqxcorp", "my cat called"]) == {}
        assert "pages" in traces(c, [KNOWN])[KNOWN]
        assert c.transcript.sessions() == [] and c.store.list()[0].hit_count == 0
    finally:
        c.close()
    assert not (companion_env / "prompt-state.bin").exists()


def test_choosing_a_saved_conversation_ends_the_private_one(make_window, qtbot, companion_env):
    _profile(companion_env)
    window = make_window()
    _send(window, qtbot, "Hello there, a saved hello")
    qtbot.waitUntil(lambda: window.sessions.list.count() == 1)
    saved = window.session_id
    window.private_action.trigger()
    assert window.session_id is None and window.chat_view.bubbles == []  # the saved one stays in the list
    _send(window, qtbot, SECRET)
    window.choose_session(saved)
    assert not window.private_action.isChecked() and not window.private_banner.isVisible()
    qtbot.waitUntil(lambda: [b.text for b in window.chat_view.bubbles][:1] == ["Hello there, a saved hello"])
    assert [s.id for s in window.desk.sessions()] == [saved]


def test_the_private_switch_and_the_forget_action_speak_chinese(make_window):
    window = make_window(open_profile=False)
    set_language("zh_CN")
    window.retranslate()
    assert window.private_action.text() == "无痕对话" and window.private_banner.title.text() == "无痕对话"
    assert window.sessions.forget_action.text() == "遗忘这个对话…"
    window.composer.set_private(True)
    window.composer.setEnabled(True)
    assert "无痕消息" in window.composer.input.placeholderText()


def test_forget_this_conversation_from_the_list_shows_its_receipt(make_window, qtbot, companion_env, monkeypatch):
    _profile(companion_env)
    c = Companion(companion_env, Clock(TODAY))
    try:
        kept = c.transcript.create_session("Breakfast")
        c.transcript.add_message(kept.id, "user", "I love Zqxberries")
        gone = c.transcript.create_session("My tortoise")
        said = c.transcript.add_message(gone.id, "user", "My tortoise is called Zqxshelly and she is forty")
        tortoise = c.store.add(Memory(new_id(), "relationship", "Has a tortoise called Zqxshelly",
                                      quote="My tortoise is called Zqxshelly", session_id=gone.id, message_id=said.id))
        record_sources(c.db, gone.id, said.id, [(tortoise.id, tortoise.quote)])
    finally:
        c.close()
    window = make_window(wait_model=False)
    qtbot.waitUntil(lambda: sorted(window.sessions.session_ids()) == sorted([kept.id, gone.id]))
    window.sessions.list.setCurrentRow(window.sessions.session_ids().index(gone.id))
    asked = []
    monkeypatch.setattr("ui.ask.confirm", lambda *args, **k: asked.append(args[2]) or True)
    window.sessions.forget_action.trigger()
    qtbot.waitUntil(lambda: window.panel.banner.isVisible() and "Forgot the conversation" in
                    window.panel.banner.label.text(), timeout=30_000)
    text = window.panel.banner.label.text()
    assert "“My tortoise”" in text and "1 memory only it taught" in text and "in none of them" in text
    assert "memory only it taught" in asked[0] and window.dock.isVisible()
    qtbot.waitUntil(lambda: window.sessions.session_ids() == [kept.id])
    assert [m.content for m in window.desk.all_memories()] == [KNOWN]
    set_language("zh_CN")
    window.panel.banner.retranslate()
    assert "已遗忘对话“My tortoise”" in window.panel.banner.label.text()
    assert "只从它学到的 1 条记忆" in window.panel.banner.label.text()


def test_a_conversation_forgotten_right_after_a_reply_takes_what_that_message_teaches(make_window, qtbot,
                                                                                      companion_env, monkeypatch):
    _profile(companion_env)
    window = make_window()
    _send(window, qtbot, "My tortoise is called Zqxshelly and she is forty.")
    session = window.session_id
    monkeypatch.setattr("ui.ask.confirm", lambda *a, **k: True)
    window.forget_session(session)  # learning from that message is still queued or running
    qtbot.waitUntil(lambda: "Forgot the conversation" in window.panel.banner.label.text(), timeout=60_000)
    qtbot.waitUntil(lambda: window.controller.learning == 0, timeout=60_000)
    assert "1 memory only it taught" in window.panel.banner.label.text()
    assert [m.content for m in window.desk.all_memories()] == [KNOWN] and window.desk.sessions() == []
