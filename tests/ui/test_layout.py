"""Nothing is cut off: the memory panel beside the conversation at 800x600, every column worth seeing at 1400 px."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect

from memory.records import Memory, Message
from memory.storage import new_id
from ui.memory_model import FIELDS


def _rect_in(widget, ancestor) -> QRect:
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


def _assert_whole(widget, window) -> None:
    """Shown, inside the window, and at least as wide as its text needs."""
    assert widget.isVisible(), widget
    assert window.rect().contains(_rect_in(widget, window)), (widget, _rect_in(widget, window))
    assert widget.width() >= widget.minimumSizeHint().width(), widget
    if hasattr(widget, "text") and widget.text():
        assert widget.width() >= widget.fontMetrics().horizontalAdvance(widget.text()), widget.text()


def _window_with_panel(make_window, qtbot, width: int, height: int):
    window = make_window(wait_model=False)
    store = window.desk.c.store
    with store.db.transaction():
        store.add(Memory(new_id(), "event", "Driving test on 2026-12-04", event_date="2026-12-04"))
        store.add(Memory(new_id(), "profile", "Prefers to be called Mia", pinned=True))
    window.resize(width, height)
    window.chat_view.show_conversation([
        Message("1", "s", "user", "My driving test is next Friday and I'm so nervous. Any tips for the day?", "t"),
        Message("2", "s", "assistant", "Good luck on **Friday**! Sleep well, eat something light, arrive early "
                                       "and adjust the seat and mirrors before you start.", "t")], {})
    window.memory_action.trigger()
    window.panel.refresh()
    qtbot.waitUntil(lambda: window.panel.model.rowCount() == 2, timeout=10_000)
    qtbot.wait(200)
    return window


def test_panel_and_conversation_fit_side_by_side_at_800x600(make_window, qtbot):
    window = _window_with_panel(make_window, qtbot, 800, 600)
    assert window.width() == 800 and window.height() == 600
    panel = window.panel
    for widget in [window.dock_title.close_button, panel.count, panel.search, panel.category, panel.status,
                   *panel.buttons.values()]:
        _assert_whole(widget, window)
    chat, dock = _rect_in(window.chat_view, window), _rect_in(window.dock, window)
    assert chat.right() < dock.left(), "the conversation is not under the panel"
    viewport = window.chat_view.viewport()
    for bubble in window.chat_view.bubbles:
        assert _rect_in(bubble, viewport).right() <= viewport.width(), "a bubble runs past the view's edge"
    assert window.composer.input.width() >= 240, "room to type"
    assert window.composer.button.isVisible() and window.rect().contains(_rect_in(window.composer.button, window))


def test_wide_window_shows_status_pinned_and_off_without_sideways_scrolling(make_window, qtbot):
    window = _window_with_panel(make_window, qtbot, 1400, 800)
    table = window.panel.table
    for name in ("content", "category", "status", "pinned", "disabled"):
        assert not table.isColumnHidden(FIELDS.index(name)), name
    shown = sum(table.columnWidth(c) for c in range(len(FIELDS)) if not table.isColumnHidden(c))
    assert shown <= table.viewport().width()
    assert table.columnWidth(FIELDS.index("content")) >= 200
    assert not table.horizontalScrollBar().isVisible()
