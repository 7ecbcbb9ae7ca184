"""Settings (model validation, persistence, language), the passphrase fallback, and closing mid-reply."""
from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import keyring
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.companion import Companion
from app.keys import NO_KEYRING
from app.settings import ENGINE_HANG_RANGE, Settings
from assets import ASSETS_DIR, persona_names
from memory.records import CATEGORIES, SOURCES, STATUSES
from tests.ui.conftest import TODAY
from ui.i18n import catalog, set_language, tr
from ui.memory_model import COLUMNS
from ui.main_window import NO_KEYRING_UI
from ui.memory_panel import _PLACES, STATUS_FILTERS
from ui.settings_dialog import SettingsDialog

UI_DIR = Path(__file__).resolve().parents[2] / "ui"


def test_settings_dialog_refuses_a_file_that_is_not_a_gguf(styled, qtbot, tmp_path):
    dialog = SettingsDialog(Settings(), tmp_path, "encrypted", "SmolLM2.gguf")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.wait(50)
    height = dialog.height()
    save = dialog.buttons.buttons()[0]
    bogus = tmp_path / "notes.gguf"
    bogus.write_text("hello")
    dialog.model_path.setText(str(bogus))
    assert "not a GGUF model" in dialog.model_error.text()
    assert "in Settings" not in dialog.model_error.text()  # the user is in Settings already
    qtbot.wait(50)
    _assert_not_clipped(dialog.model_error, dialog)
    save.click()  # refused out loud, not silently
    assert dialog.isVisible() and dialog.result() != dialog.DialogCode.Accepted
    assert dialog.model_error.text().startswith("Not saved")
    dialog.model_path.setText(str(tmp_path / "missing.gguf"))
    assert "missing" in dialog.model_error.text()
    dialog.bundled.click()
    qtbot.waitUntil(lambda: abs(dialog.height() - height) <= 2)  # the note's room is given back
    assert not dialog.model_error.isVisible() and dialog.settings().chat_model is None
    save.click()
    assert dialog.result() == dialog.DialogCode.Accepted


def _assert_not_clipped(label, dialog) -> None:
    assert label.isVisible()
    assert label.height() >= label.heightForWidth(label.width()), "the note's last lines are cut off"
    assert dialog.rect().contains(label.geometry().translated(label.parentWidget().mapTo(dialog, label.pos()) -
                                                              label.pos()))


def test_settings_dialog_speaks_chinese_including_qt_buttons_persona_and_model_errors(styled, qtbot, tmp_path):
    set_language("zh_CN")
    try:
        dialog = SettingsDialog(Settings(), tmp_path, "encrypted", "SmolLM2.gguf")
        qtbot.addWidget(dialog)
        dialog.show()
        texts = [b.text() for b in dialog.buttons.buttons()]
        assert "保存" in "".join(texts) and "取消" in "".join(texts)
        assert dialog.persona.itemText(dialog.persona.findData("default")) == "默认"
        bogus = tmp_path / "notes.gguf"
        bogus.write_text("hello")
        dialog.model_path.setText(str(bogus))
        qtbot.wait(50)
        assert dialog.model_error.text() == f"聊天模型文件 {bogus} 不是 GGUF 模型。"
        _assert_not_clipped(dialog.model_error, dialog)
    finally:
        set_language("en")


def test_settings_persist_and_switch_the_language_live(make_window, qtbot, companion_env, monkeypatch):
    window = make_window(wait_model=False)

    def choose(dialog):
        dialog.name.setText("Mimi")
        dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
        dialog.memory_on.setChecked(False)
        dialog.tidy_hour.setValue(5)
        return True
    monkeypatch.setattr(SettingsDialog, "exec", choose)
    set_language("en")
    window.settings_action.trigger()
    qtbot.waitUntil(lambda: window.new_action.text() == "新对话", timeout=10_000)
    assert window.composer.button.text() == "发送"
    assert window.panel.model.headerData(0, Qt.Orientation.Horizontal) == "记忆"
    assert tr(window.desk.c.key.describe()) == "已加密；密钥保存在系统钥匙串中"  # how Settings says it
    assert "Mimi" in window.windowTitle() and "Mimi" in window.composer.input.placeholderText()
    saved = Settings.load(companion_env)
    assert (saved.companion_name, saved.language, saved.memory_enabled, saved.consolidation_hour) == \
        ("Mimi", "zh_CN", False, 5)
    assert window.desk.c.settings.companion_name == "Mimi"  # the chat's system prompt uses it from now on
    set_language("en")


def test_the_engine_timeout_is_typed_in_settings_kept_in_range_saved_and_used(make_window, qtbot, companion_env,
                                                                             monkeypatch):
    window = make_window()
    engine = window.desk.c.chat_model()
    seen = {}

    def type_into(spin, text):
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin.lineEdit(), text)
        spin.interpretText()

    def choose(dialog):
        spin = dialog.hang_seconds
        seen["shown"] = spin.value()
        type_into(spin, "99999")  # the digits that would leave the range are not taken
        typed_high = spin.value()
        spin.stepBy(10_000)
        seen["high"] = (spin.value(), typed_high <= ENGINE_HANG_RANGE[1])
        type_into(spin, "0")
        typed_low = spin.value()
        spin.stepBy(-10_000)
        seen["low"] = (spin.value(), typed_low >= ENGINE_HANG_RANGE[0])
        type_into(spin, "90")
        return True
    monkeypatch.setattr(SettingsDialog, "exec", choose)
    window.settings_action.trigger()
    qtbot.waitUntil(lambda: Settings.load(companion_env).engine_hang_seconds == 90, timeout=10_000)
    assert seen == {"shown": 60, "high": (ENGINE_HANG_RANGE[1], True), "low": (ENGINE_HANG_RANGE[0], True)}
    assert window.desk.c.settings.engine_hang_seconds == 90
    assert window.desk.c.chat_model() is engine and engine.hang_seconds == 90  # the running engine, no reload


def test_the_engine_timeout_is_labelled_in_english_and_chinese(styled, qtbot, tmp_path):
    for code, label, suffix in (("en", "Stop a stuck engine after", " seconds"), ("zh_CN", "引擎卡住多久后停止", " 秒")):
        set_language(code)
        try:
            dialog = SettingsDialog(Settings(engine_hang_seconds=45), tmp_path, "encrypted", "SmolLM2.gguf")
            qtbot.addWidget(dialog)
            form = dialog.hang_seconds.parentWidget().layout()
            assert form.labelForField(dialog.hang_seconds).text() == label
            assert dialog.hang_seconds.suffix() == suffix and dialog.hang_seconds.value() == 45
            assert dialog.settings().engine_hang_seconds == 45
        finally:
            set_language("en")


def test_no_keyring_asks_for_a_passphrase_and_uses_it(make_window, qtbot, companion_env, monkeypatch):
    keyring.set_keyring(fail.Keyring())
    asked = {}

    def answer(dialog):
        asked["reason"] = dialog.findChildren(QLabel)[0].text()
        dialog.passphrase.setText("correct horse battery")
        dialog.repeat.setText("correct horse battery")
        dialog._accept()
        return dialog.result()
    monkeypatch.setattr("ui.main_window.PassphraseDialog.exec", answer)
    window = make_window(open_profile=False)
    with qtbot.waitSignal(window.opened, timeout=240_000):
        window.open_profile()
    assert asked["reason"] == NO_KEYRING_UI
    assert window.desk.c.key.source == "passphrase"
    window.shutdown()
    from app.clock import Clock
    reopened = Companion(companion_env, Clock(TODAY), passphrase="correct horse battery")
    reopened.close()


def test_a_wrong_passphrase_is_said_plainly_and_asked_again(make_window, qtbot, companion_env, monkeypatch):
    from app.clock import Clock
    Companion(companion_env, Clock(TODAY), passphrase="the right one").close()
    keyring.set_keyring(fail.Keyring())
    tries = iter(["the wrong one", "the right one"])
    errors = []

    def answer(dialog):
        errors.append(dialog.error.text())
        dialog.passphrase.setText(next(tries))
        return True
    monkeypatch.setattr("ui.main_window.PassphraseDialog.exec", answer)
    window = make_window(open_profile=False)
    with qtbot.waitSignal(window.opened, timeout=240_000):
        window.open_profile()
    assert errors == ["", "That passphrase does not open your memories. Try again."]


def test_closing_during_a_reply_saves_it_and_closes_the_profile(make_window, qtbot, companion_env):
    Settings(max_reply_tokens=400).save(companion_env)
    window = make_window()
    window.send("Remember that my name is Ingrid. Tell me a long story.")
    qtbot.waitUntil(lambda: len(window.chat_view.bubbles[-1].text) > 20, timeout=120_000)
    with qtbot.waitSignal(window.shutDown, timeout=120_000):
        window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert window._closed
    from app.clock import Clock
    reopened = Companion(companion_env, Clock(TODAY))
    try:
        session = reopened.transcript.sessions()[0]
        roles = [m.role for m in reopened.transcript.messages(session.id)]
        assert roles == ["user", "assistant"]
        assert any("Ingrid" in m.content for m in reopened.store.list())  # learning finished before closing
    finally:
        reopened.close()


def _literal_keys() -> set[str]:
    keys = set()
    for path in UI_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
    return keys


def test_every_ui_text_has_a_chinese_translation_with_the_same_placeholders():
    dynamic = set(CATEGORIES) | set(STATUSES) | set(SOURCES) | {h for _, h in COLUMNS} | \
        {label for _, label in STATUS_FILTERS} | {label for _, label in _PLACES} | \
        {"add", "update", "other tables", NO_KEYRING, NO_KEYRING_UI}
    zh = json.loads((ASSETS_DIR / "i18n" / "zh_CN.json").read_text(encoding="utf-8"))
    keys = _literal_keys() | dynamic
    assert sorted(keys - set(zh)) == []

    def fields(text):
        return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)
    assert [k for k in keys if fields(k) != fields(zh[k])] == []


def test_language_follows_the_setting_and_falls_back_to_english():
    assert set_language("zh_CN") == "zh_CN" and tr("Send") == "发送"
    assert tr("{n} memories", n=3) == "3 条记忆"
    assert set_language("en") == "en" and tr("Send") == "Send"
    assert catalog("en") == {}
    assert set_language("auto") in ("en", "zh_CN")
    set_language("en")


def test_choosing_another_model_file_loads_it_in_the_background(make_window, qtbot, monkeypatch):
    window = make_window()
    bundled = str(window.desk.c.chat_model_file().path)

    def choose(dialog):
        dialog.model_path.setText(bundled)  # an explicit file: the model is loaded again from it
        return True
    monkeypatch.setattr(SettingsDialog, "exec", choose)
    with qtbot.waitSignal(window.controller.modelLoading, timeout=10_000):
        window.settings_action.trigger()
    with qtbot.waitSignal(window.controller.modelReady, timeout=120_000):
        assert window.status.state == "busy"
    assert window.desk.c.settings.chat_model == bundled and window.status.state == "ready"


def test_a_broken_model_file_is_said_in_one_sentence(make_window, qtbot, companion_env):
    broken = companion_env.parent / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 4000)
    Settings(chat_model=str(broken)).save(companion_env)
    window = make_window(wait_model=False)
    qtbot.waitUntil(lambda: window.status.state == "error", timeout=60_000)
    assert str(broken) in window.status.text.text() and "Settings" in window.status.text.text()
    assert window.composer.isEnabled()  # memories and settings stay usable


def test_chinese_settings_are_not_clipped_in_number_boxes_or_the_model_field(styled, qtbot, tmp_path):
    """Issue 37, item 12: "自动" read "目动" (its top cut), the foot of "词元" was cut, and the model field showed
    "Bundled model: S…"."""
    set_language("zh_CN")
    try:
        dialog = SettingsDialog(Settings(), tmp_path, "encrypted", "SmolLM2-135M-Instruct.Q4_1.gguf")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.wait(50)
        for spin in (dialog.n_ctx, dialog.n_threads, dialog.hang_seconds, dialog.tidy_hour):
            edit = spin.lineEdit()
            assert edit.height() >= edit.fontMetrics().boundingRect(edit.text()).height(), edit.text()
            assert edit.width() >= edit.fontMetrics().horizontalAdvance(edit.text()), edit.text()
        assert dialog.n_threads.lineEdit().text() == "自动" and "词元" in dialog.n_ctx.lineEdit().text()
        field = dialog.model_path
        assert field.placeholderText() == "内置模型：SmolLM2-135M-Instruct.Q4_1.gguf"
        assert field.width() >= field.fontMetrics().horizontalAdvance(field.placeholderText()) + 8
    finally:
        set_language("en")


def test_each_persona_says_in_one_line_how_it_differs(styled, qtbot, tmp_path):
    """Issue 37, item 13: "Default" and "Gentle" said nothing about what choosing one changes."""
    assert persona_names() == ["default", "gentle"]
    for language in ("en", "zh_CN"):
        set_language(language)
        try:
            dialog = SettingsDialog(Settings(), tmp_path, "encrypted", "SmolLM2.gguf")
            qtbot.addWidget(dialog)
            dialog.show()
            lines = {}
            for persona in persona_names():
                dialog.persona.setCurrentIndex(dialog.persona.findData(persona))
                note = dialog.persona_note
                assert note.isVisible() and note.text() and "\n" not in note.text(), persona
                lines[persona] = note.text()
            assert len(set(lines.values())) == len(lines)  # each says something of its own
            assert ("Warm" in lines["default"] and "Calm" in lines["gentle"]) if language == "en" else \
                ("温暖" in lines["default"] and "平静" in lines["gentle"])
        finally:
            set_language("en")
