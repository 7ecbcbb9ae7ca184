"""Switching to Chinese reaches everything on screen: Qt's own dialogs, notices already shown, errors from below."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.errors import UserError
from models.errors import ModelError
from ui.i18n import error_text, set_language
from ui.memory_panel import import_html


def test_qt_dialogs_and_lower_layer_errors_are_in_chinese(styled):
    set_language("zh_CN")
    try:
        assert QCoreApplication.translate("QFileDialog", "Look in:") != "Look in:"  # file dialogs
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
        missing = ModelError("The chat model file /m/a.gguf is missing. Choose a GGUF file in Settings or pass --model.")
        assert error_text(missing) == "聊天模型文件 /m/a.gguf 不存在。请在“设置”中选择一个 GGUF 文件，或使用 --model 参数。"
        assert error_text(UserError("file_unwritable", "Cannot write /x/out.json: Permission denied.")).startswith("无法写入 /x/out.json")
        bad_import = UserError("file_unreadable", "/x/m.json is not valid JSON, so it is not a Companion export. "
                               "The first problem is on line 2.")
        assert error_text(bad_import) == "/x/m.json 不是有效的 JSON，所以不是 Companion 导出文件。第一个问题在第 2 行。"
    finally:
        set_language("en")
    assert error_text(missing).startswith("The chat model file /m/a.gguf is missing.")


def test_a_notice_on_screen_is_rewritten_when_the_language_changes(make_window, qtbot):
    window = make_window(wait_model=False)
    window.memory_action.trigger()
    with qtbot.waitSignal(window.panel.memoriesChanged, timeout=60_000):
        window.panel.menu_actions["tidy"].trigger()
    banner = window.panel.banner.label
    assert banner.text().startswith("Tidied up:")
    set_language("zh_CN")
    try:
        window.retranslate()
        assert banner.text().startswith("整理完成")
    finally:
        set_language("en")
        window.retranslate()
    assert banner.text().startswith("Tidied up:")


def test_import_notice_lists_the_first_skipped_and_says_how_many_more(styled):
    skipped = [(f"memory {i}", "a duplicate") for i in range(9)]
    text = import_html(2, skipped)
    assert "Skipped 9:" in text and text.count("<li>") == 6 and "and 4 more" in text
    assert "memory 4" in text and "memory 5" not in text


def test_every_catalog_sentence_with_placeholders_can_be_matched(styled):
    from ui.i18n import _patterns, catalog
    patterns = _patterns("zh_CN")  # a placeholder used twice (e.g. {home}) once broke every lookup
    assert len(patterns) == sum("{" in key for key in catalog("zh_CN"))


def test_memories_forgotten_since_a_reply_are_said_in_a_sentence_with_the_right_number(styled):
    from tests.ui.conftest import sample_memories
    from ui.chat_view import RememberedLine
    one, three = RememberedLine(sample_memories()[:1], missing=1), RememberedLine([], missing=3)
    assert "1 memory used here has since been forgotten" in one.details.text()
    assert "3 memories used here have since been forgotten" in three.details.text()
    set_language("zh_CN")
    try:
        three.retranslate()
        assert "这里用到的 3 条记忆后来被遗忘了" in three.details.text()
    finally:
        set_language("en")
