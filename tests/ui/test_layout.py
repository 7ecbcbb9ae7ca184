"""Nothing is cut off: the memory panel beside the conversation at 800x600, every column worth seeing at 1400 px."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QToolButton

from memory.records import Memory, Message
from memory.storage import ForgetReceipt, new_id
from ui.memory_model import FIELDS
from ui.memory_panel import receipt_html
from ui.models_dialog import ModelsDialog


def _rect_in(widget, ancestor) -> QRect:
    return QRect(widget.mapTo(ancestor, QPoint(0, 0)), widget.size())


def _assert_whole(widget, window) -> None:
    """Shown, inside the window, and at least as wide as its text needs."""
    assert widget.isVisible(), widget
    assert window.rect().contains(_rect_in(widget, window)), (widget, _rect_in(widget, window))
    assert widget.width() >= widget.minimumSizeHint().width(), widget
    icon_only = isinstance(widget, QToolButton) and widget.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
    if hasattr(widget, "text") and widget.text() and not icon_only:  # an icon alone says its words as a tooltip
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
    for button in window.panel.buttons.values():  # room for the words beside the icons
        assert button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        _assert_whole(button, window)


def test_at_800x600_status_pinned_and_off_are_reached_by_scrolling_sideways(make_window, qtbot):
    """Issue 37, item 11: at 800x600 the Status and Pinned columns were cut off with no scrollbar."""
    window = _window_with_panel(make_window, qtbot, 800, 600)
    table = window.panel.table
    for name in ("content", "category", "status", "pinned", "disabled"):
        assert not table.isColumnHidden(FIELDS.index(name)), name
    assert table.columnWidth(FIELDS.index("content")) >= 200
    bar = table.horizontalScrollBar()
    shown = sum(table.columnWidth(c) for c in range(len(FIELDS)) if not table.isColumnHidden(c))
    if shown > table.viewport().width():
        assert bar.isVisible() and bar.maximum() > 0
    bar.setValue(bar.maximum())
    off = FIELDS.index("disabled")
    assert table.columnViewportPosition(off) + table.columnWidth(off) <= table.viewport().width()


def test_at_800x600_the_row_actions_share_one_line_and_the_rest_are_in_a_menu(make_window, qtbot):
    """Issue 37, item 11: the nine buttons wrapped onto four rows."""
    window = _window_with_panel(make_window, qtbot, 800, 600)
    panel = window.panel
    row = [panel.buttons[name] for name in ("edit", "pin", "disable", "history", "delete")]
    for button in [*row, panel.more]:
        _assert_whole(button, window)
    assert len({_rect_in(b, window).top() for b in [*row, panel.more]}) == 1, "one line"
    assert all(b.toolTip() == b.text() and b.text() for b in row)  # icons alone here: the words are the tooltips
    assert set(panel.buttons) == {"edit", "pin", "disable", "history", "delete"}
    menu = [a.text() for a in panel.more.menu().actions() if not a.isSeparator()]
    assert menu == ["Export…", "Import…", "Tidy up now", "Forget everything…"]


def test_at_800x600_a_forget_receipt_leaves_rows_to_see_and_shows_its_last_line(make_window, qtbot):
    """Issue 37, item 11: a receipt squeezed the table to its header and its last line was clipped."""
    window = _window_with_panel(make_window, qtbot, 800, 600)
    panel = window.panel
    receipt = ForgetReceipt(["m1", "m2", "m3"], True, ["memories", "memory_history", "memories_fts", "memory_vectors",
                                                        "consolidation_log", "meta", "write-ahead log"],
                            mentioned_in_sessions=["s1", "s2", "s3"])
    titles = {"s1": "Driving test nerves", "s2": "Weekend plans with Sam", "s3": "The new job in Leeds"}
    panel.banner.show_note(lambda: receipt_html(receipt, titles))
    qtbot.wait(100)
    label = panel.banner.label
    assert label.height() >= label.heightForWidth(label.width()), "the receipt's last line is cut"
    assert window.rect().contains(_rect_in(panel.banner, window))
    rows = table_rows_visible(panel.table)
    assert rows >= 3, f"the table shows {rows} rows beside the receipt"
    for button in panel.buttons.values():
        _assert_whole(button, window)


def table_rows_visible(table) -> int:
    return table.viewport().height() // table.verticalHeader().defaultSectionSize()


def test_the_models_page_fits_a_600_pixel_tall_window(make_window, qtbot):
    """Issue 37, item 11: the Models page was 640 px tall over a 600 px window."""
    window = make_window(wait_model=False)
    window.resize(800, 600)
    page = ModelsDialog(window.home, window.companion.settings, None, window)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    assert page.frameGeometry().height() <= 600 and page.height() <= 600
    assert page.minimumHeight() <= 600 - 40


def test_the_count_sits_on_the_line_of_the_filters(make_window, qtbot):
    """Issue 37, item 13: "5 of 5" sat at the top of the filters' line, off their middle."""
    window = _window_with_panel(make_window, qtbot, 1280, 800)
    panel = window.panel
    middles = {_rect_in(w, window).center().y() for w in (panel.category, panel.status, panel.count)}
    assert max(middles) - min(middles) <= 1, middles
    assert panel.count.text() == "2 of 2"
