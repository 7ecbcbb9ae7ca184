"""The memory panel: everything Companion remembers, searchable and filterable, to fix, pin, turn off or forget."""
from __future__ import annotations

import html
from typing import Callable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFrame, QHBoxLayout, QLabel, QLineEdit, QMenu,
                               QToolButton, QVBoxLayout, QWidget)

from app.desktop import MemoryDesk
from memory import CATEGORIES, Memory
from memory.consolidation import ConsolidationResult
from memory.storage import ForgetReceipt
from ui import ask
from ui.i18n import error_text, tr, tr_message
from ui.memory_dialogs import HistoryDialog, MemoryEditDialog
from ui.flow import FlowLayout
from ui.memory_model import CONTENT, ID_ROLE, STATUS_WORDS, MemoryFilterProxy, MemoryTableModel
from ui.memory_table import MemoryTable
from ui.style import icon
from ui.workers import QtWorker

SEARCH_DELAY_MS = 250
ROW_SPACING = 6  # between the buttons of the action row
STATUS_FILTERS = (*STATUS_WORDS.items(), ("off", "Off"), ("all", "All"))


class ReceiptBanner(QFrame):
    """A closable note at the top of the panel: a forget receipt, an export warning, an import result."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("receipt")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse |
                                           Qt.TextInteractionFlag.LinksAccessibleByMouse)
        close = QToolButton(self)
        close.setText("✕")
        close.setAutoRaise(True)
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 8, 6, 8)
        layout.addWidget(self.label, 1)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self._render: Callable[[], str] | None = None
        self.hide()

    def show_note(self, render: Callable[[], str] | str, warning: bool = False, details: str = "") -> None:
        """Show this note (green, or amber for a warning); details go in the tooltip. Given as a function of no
        arguments, the note is written again in the new language when the language changes."""
        self._render = render if callable(render) else (lambda: render)
        self.label.setToolTip(details)
        self.setProperty("warning", warning)
        self.style().unpolish(self)
        self.style().polish(self)
        self.label.setText(self._render())
        self.show()

    def retranslate(self) -> None:
        """Write the note on screen again in the current language."""
        if self._render is not None:
            self.label.setText(self._render())


# What the checked tables hold, in words (the full table list is in the receipt's tooltip).
_PLACES = (("memory_history", "history"), ("memories_fts", "search index"), ("memory_vectors", "vector index"),
           ("memories", "memories"), ("consolidation_log", "tidy-up log"), ("meta", "summary index"),
           ("write-ahead log", "write-ahead log"), ("prompt cache", "saved prompt state"),
           ("messages", "conversations"), ("sessions", "conversations"), ("memory_sources", "where memories came from"))
_PLACE_ORDER = ("conversations", "memories", "history", "search index", "vector index", "where memories came from",
                "tidy-up log", "summary index", "other tables", "write-ahead log", "saved prompt state")


def places_in_words(checked: list[str]) -> str:
    """The kinds of places a receipt checked, e.g. "memories, history, search index, …"."""
    kinds = {next((label for prefix, label in _PLACES if place.startswith(prefix)), "other tables")
             for place in checked}
    return ", ".join(tr(kind) for kind in _PLACE_ORDER if kind in kinds)


def receipt_html(receipt: ForgetReceipt, session_titles: dict[str, str] | None = None) -> str:
    """The forget receipt in words: how many, where it looked, whether the text is gone, where the user said it."""
    n = len(receipt.forgotten)
    lines = [f"<b>{tr('Forgot {n} memories.', n=n) if n != 1 else tr('Forgot 1 memory.')}</b>"]
    return "<br>".join(lines + proof_lines(receipt, session_titles))


def proof_lines(receipt: ForgetReceipt, session_titles: dict[str, str] | None = None) -> list[str]:
    """A receipt's proof in words: where it looked and whether the text is gone, and where the user said it."""
    lines = []
    if receipt.verified:
        lines.append(tr("Checked {count} places ({places}): the text is in none of them.",
                        count=len(receipt.checked), places=html.escape(places_in_words(receipt.checked))))
    else:
        lines.append(tr("Not verified: the text is still in {places}.",
                        places=", ".join(html.escape(p) for p in receipt.found_in)))
    if receipt.mentioned_in_sessions:
        titles = session_titles or {}
        links = ", ".join(f"<a href='session:{html.escape(sid)}'>{html.escape(titles.get(sid, sid))}</a>"
                          for sid in receipt.mentioned_in_sessions)
        n = len(receipt.mentioned_in_sessions)
        lines.append((tr("Your own words are still in 1 conversation; delete it to remove them too.") if n == 1 else
                      tr("Your own words are still in {n} conversations; delete them to remove those too.", n=n))
                     + f" {links}")
    return lines


SKIPPED_SHOWN = 5


def import_html(added: int, skipped: list[tuple[str, str]]) -> str:
    """What an import did: how many came in, and which were skipped and why (the first few, then how many more)."""
    text = tr("Imported {n} memories.", n=added)
    if skipped:
        reasons = [f"<li>{html.escape(c)} — {html.escape(tr_message(r))}</li>" for c, r in skipped[:SKIPPED_SHOWN]]
        if len(skipped) > SKIPPED_SHOWN:
            reasons.append(f"<li>{html.escape(tr('and {n} more', n=len(skipped) - SKIPPED_SHOWN))}</li>")
        text += " " + tr("Skipped {n}:", n=len(skipped)) + f"<ul>{''.join(reasons)}</ul>"
    return text


def search_hits(desk: MemoryDesk, query: str) -> dict[str, float]:
    """{id: score} of the chat's hybrid search over every status, without hits below the chat's relevance floor."""
    return dict(desk.search(query))


class MemoryPanel(QWidget):
    """The panel's widgets; its database work runs on the database worker through a MemoryDesk.

    Signals:
        memoriesChanged(): the panel changed memories (edit, forget, import).
        errorShown(str): a problem was shown to the user (also for tests and the status bar).
        sessionRequested(str): the user clicked a conversation named in a receipt; carries its id.
        memoriesLoaded(dict): the memories were read again; carries every one that exists, by id.
    """

    memoriesChanged = Signal()
    memoriesLoaded = Signal(dict)
    errorShown = Signal(str)
    sessionRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("memoryPanel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.desk: MemoryDesk | None = None
        self.worker: QtWorker | None = None
        self.companion_name = "Companion"
        self.model = MemoryTableModel(self)
        self.model.changeRequested.connect(self.apply_change)
        self.proxy = MemoryFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._refreshing = False
        self._refresh_again = False
        self._search_generation = 0
        self._reveal_after_refresh: str | None = None
        self._build()
        self.retranslate()

    # -- building ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.search = QLineEdit(self)
        self.search.setObjectName("memorySearch")
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.run_search)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.category = QComboBox(self)
        self.category.currentIndexChanged.connect(lambda _i: self.proxy.set_category(self.category.currentData()))
        self.status = QComboBox(self)
        self.status.currentIndexChanged.connect(lambda _i: self._status_changed())
        self.table = self._build_table()
        self.count = QLabel(self)
        self.count.setObjectName("panelCount")
        self.empty = QLabel(self)  # in place of the table while nothing is remembered
        self.empty.setObjectName("panelEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.hide()
        self.banner = ReceiptBanner(self)
        self.banner.label.linkActivated.connect(
            lambda link: link.startswith("session:") and self.sessionRequested.emit(link.removeprefix("session:")))
        # What is done to the selected memories sits in one row; what is done to all of them is in the "⋯" menu.
        self.buttons = {name: self._button(name, slot) for name, slot in (
            ("edit", self.edit_selected), ("pin", self.toggle_pin), ("disable", self.toggle_disabled),
            ("history", self.show_history), ("delete", self.forget_selected))}
        self.more = QToolButton(self)
        self.more.setObjectName("panelMore")
        self.more.setProperty("class", "panelButton")
        self.more.setText("⋯")
        self.more.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more.setMenu(QMenu(self.more))
        self.menu_actions = {name: self._menu_action(name, slot) for name, slot in (
            ("export", self.export), ("import", self.import_), ("tidy", self.tidy_up),
            ("forget_all", self.forget_everything))}
        self.more.menu().insertSeparator(self.menu_actions["forget_all"])
        # Rows that wrap rather than cut a button off when the panel is narrower still.
        filters, actions = FlowLayout(), FlowLayout(spacing=ROW_SPACING)
        for widget in (self.category, self.status, self.count):
            filters.addWidget(widget)
        for widget in (*self.buttons.values(), self.more):
            actions.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 12)
        layout.setSpacing(8)
        for part in (self.search, filters, self.banner, self.table, self.empty, actions):
            (layout.addLayout if isinstance(part, FlowLayout) else layout.addWidget)(part)
        layout.setStretchFactor(self.table, 1)
        layout.setStretchFactor(self.empty, 1)
        for signal in (self.proxy.rowsInserted, self.proxy.rowsRemoved, self.proxy.modelReset,
                       self.proxy.layoutChanged):
            signal.connect(self._update_count)
        self._update_buttons()

    def _build_table(self) -> MemoryTable:
        table = MemoryTable(self)
        table.setModel(self.proxy)
        table.setSortingEnabled(True)
        table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        # Pressing a header during a search sorts by that column instead of by relevance.
        table.horizontalHeader().sectionPressed.connect(lambda _s: setattr(self.proxy, "rank_by_score", False))
        table.doubleClicked.connect(lambda _i: self.edit_selected())
        table.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        return table

    def _button(self, name: str, slot) -> QToolButton:
        button = QToolButton(self)
        button.setProperty("class", "panelButton")
        button.setIcon(icon(name))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.clicked.connect(slot)
        return button

    def _set_button_text(self, name: str, text: str) -> None:
        """A row button's words, also its tooltip: in a narrow panel the row shows only the icons."""
        self.buttons[name].setText(text)
        self.buttons[name].setToolTip(text)

    def _fit_actions(self) -> None:
        """Words beside the icons when the whole row fits on one line, else icons alone (the words as tooltips)."""
        margins = self.layout().contentsMargins()
        room = self.width() - margins.left() - margins.right()
        for button in self.buttons.values():
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        row = [*self.buttons.values(), self.more]
        needed = sum(b.sizeHint().width() for b in row) + ROW_SPACING * (len(row) - 1)
        if needed > room:
            for button in self.buttons.values():
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit_actions()

    def _menu_action(self, name: str, slot) -> QAction:
        action = self.more.menu().addAction(icon({"forget_all": "delete"}.get(name, name)), "")
        action.setObjectName(name)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        self.search.setPlaceholderText(tr("Search memories (the same search the chat uses)"))
        self.category.blockSignals(True)
        chosen = self.category.currentData()
        self.category.clear()
        self.category.addItem(tr("All categories"), None)
        for c in CATEGORIES:
            self.category.addItem(tr(c), c)
        self.category.setCurrentIndex(max(0, self.category.findData(chosen)))
        self.category.blockSignals(False)
        self.status.blockSignals(True)
        status = self.status.currentData() or "active"
        self.status.clear()
        for value, label in STATUS_FILTERS:
            self.status.addItem(tr(label), value)
        self.status.setCurrentIndex(self.status.findData(status))
        self.status.blockSignals(False)
        for name, label in (("edit", "Edit…"), ("history", "History…"), ("delete", "Forget…")):
            self._set_button_text(name, tr(label))
        for name, label in (("export", "Export…"), ("import", "Import…"), ("tidy", "Tidy up now"),
                            ("forget_all", "Forget everything…")):
            self.menu_actions[name].setText(tr(label))
        self.more.setToolTip(tr("More: export, import, tidy up, forget everything"))
        self.menu_actions["tidy"].setToolTip(tr("Merge duplicates, settle contradictions and let old, unused "
                                                "memories fade — what normally happens once a day"))
        self.more.menu().setToolTipsVisible(True)
        self.model.retranslate()
        self.banner.retranslate()
        self._update_buttons()
        self._update_count()

    # -- wiring to the database ----------------------------------------------------------------
    def attach(self, desk: MemoryDesk, worker: QtWorker) -> None:
        """Start working on an open profile."""
        self.desk, self.worker = desk, worker
        self.refresh()

    def refresh(self) -> None:
        """Read every memory again (coalesced: at most one read in flight, one queued)."""
        if self.desk is None:
            return
        if self._refreshing:
            self._refresh_again = True
            return
        self._refreshing = True
        self.worker.run(self.desk.all_memories, self._refreshed, self._refresh_failed)

    def _refreshed(self, memories: list[Memory]) -> None:
        self._refreshing = False
        if self._refresh_again:  # read before the latest change: show the read queued after it instead
            self._refresh_again = False
            self.refresh()
            return
        self.model.set_memories(memories)
        self._update_buttons()
        self._update_count()
        self.memoriesLoaded.emit({m.id: m for m in memories})
        if self.search.text().strip():
            self.run_search()
        if self._reveal_after_refresh:
            memory_id, self._reveal_after_refresh = self._reveal_after_refresh, None
            self.reveal(memory_id, refreshed=True)

    def _refresh_failed(self, exc: BaseException) -> None:
        self._refreshing = False
        if self._refresh_again:
            self._refresh_again = False
            self.refresh()
            return
        self._show_error(exc)

    def run_search(self) -> None:
        """Filter to the hits of the hybrid search for the box's text (nothing typed: no filter)."""
        query = self.search.text().strip()
        self._search_generation += 1
        generation = self._search_generation
        if not query:
            self.proxy.set_scores(None)
            self._restore_order()
            self._update_count()
            return
        if self.desk is None:
            return

        def found(hits: dict[str, float]) -> None:
            if generation == self._search_generation:  # a newer query has been typed meanwhile
                self.proxy.set_scores(hits)
                self._update_count()
        desk = self.desk
        self.worker.run(lambda: search_hits(desk, query), found, self._show_error)

    def _restore_order(self) -> None:
        """Back to the order before the search: the column the user sorted by, else newest first."""
        header = self.table.horizontalHeader()
        section = header.sortIndicatorSection() if header.isSortIndicatorShown() else -1
        self.proxy.sort(-1)
        if 0 <= section < self.model.columnCount():
            self.proxy.sort(section, header.sortIndicatorOrder())

    # -- actions -------------------------------------------------------------------------------
    def selected(self) -> list[Memory]:
        """The selected memories, in view order."""
        rows = sorted(self.table.selectionModel().selectedRows(CONTENT), key=lambda i: i.row())
        return [self.model.memory_at(self.proxy.mapToSource(i).row()) for i in rows]

    def apply_change(self, memory_id: str, changes: dict) -> None:
        """Save a change to one memory, then show what the database holds."""
        if self.desk is None:
            return

        def done(_m: Memory) -> None:
            self.refresh()
            self.memoriesChanged.emit()

        def failed(exc: BaseException) -> None:
            self._show_error(exc)
            self.refresh()  # undo what the table showed
        self.worker.run(lambda: self.desk.edit(memory_id, **changes), done, failed)

    def edit_selected(self) -> None:
        """Edit the (first) selected memory in a dialog."""
        chosen = self.selected()
        if not chosen:
            return
        dialog = MemoryEditDialog(chosen[0], self)
        if dialog.exec() and dialog.changes():
            self.apply_change(chosen[0].id, dialog.changes())

    def toggle_pin(self) -> None:
        """Pin the selected memories (or unpin them if all are pinned)."""
        self._toggle("pinned")

    def toggle_disabled(self) -> None:
        """Turn the selected memories off (or on again if all are off)."""
        self._toggle("disabled")

    def _toggle(self, field: str) -> None:
        chosen = self.selected()
        value = not all(getattr(m, field) for m in chosen)
        for m in chosen:
            self.apply_change(m.id, {field: value})

    def show_history(self) -> None:
        """Open the history of the (first) selected memory."""
        chosen = self.selected()
        if not chosen or self.desk is None:
            return
        memory_id = chosen[0].id
        self.worker.run(lambda: self.desk.history(memory_id),
                        lambda steps: HistoryDialog(steps, memory_id, self).exec(), self._show_error)

    def forget_selected(self) -> None:
        """Forget the selected memories everywhere, after asking."""
        self.forget(self.selected())

    def forget(self, chosen: list[Memory], done: Callable[[], None] | None = None) -> None:
        """Forget these memories everywhere, after asking; the receipt shows here, then `done` is called."""
        if not chosen or self.desk is None:
            return
        what = f"“{chosen[0].content}”" if len(chosen) == 1 else tr("{n} memories", n=len(chosen))
        if not ask.confirm(self, tr("Forget"), tr("Forget {what}? It is removed from every place it is stored, "
                                                  "with its history. This cannot be undone.", what=what),
                           tr("Forget")):
            return
        ids = [m.id for m in chosen]
        self.worker.run(lambda: self.desk.forget_with_titles(ids),
                        lambda outcome: (self._forgotten(outcome), done and done()), self._show_error)

    def forget_everything(self) -> None:
        """Forget every memory, after asking plainly."""
        if self.desk is None or not ask.confirm(
                self, tr("Forget everything"),
                tr("Forget everything Companion remembers about you? Every memory and its history is removed. "
                   "Your conversations stay until you delete them. This cannot be undone."),
                tr("Forget everything")):
            return
        self.worker.run(lambda: self.desk.forget_with_titles(None), self._forgotten, self._show_error)

    def _forgotten(self, outcome: tuple[ForgetReceipt, dict[str, str]]) -> None:
        receipt, titles = outcome
        self.banner.show_note(lambda: receipt_html(receipt, titles), warning=not receipt.verified,
                              details="\n".join(receipt.checked))
        self.refresh()
        self.memoriesChanged.emit()

    def export(self) -> None:
        """Export every memory to a file the user chooses (JSON or Markdown), saying it is not encrypted."""
        choice = ask.export_path(self)
        if choice is None or self.desk is None:
            return
        path, fmt = choice

        def exported(n: int) -> None:
            self.banner.show_note(lambda: tr(
                "Exported {n} memories to {path}. This file is not encrypted and is yours to look after: keep it "
                "somewhere safe. Forgetting a memory here later does not remove it from this file.",
                n=n, path=html.escape(str(path))), warning=True)
        self.worker.run(lambda: self.desk.export(path, fmt), exported, self._show_error)

    def import_(self) -> None:
        """Import a Companion export file."""
        path = ask.import_path(self)
        if path is None or self.desk is None:
            return

        def imported(result) -> None:
            added, skipped = result
            self.banner.show_note(lambda: import_html(len(added), skipped), warning=bool(skipped))
            self.refresh()
            self.memoriesChanged.emit()
        self.worker.run(lambda: self.desk.import_file(path), imported, self._show_error)

    def tidy_up(self) -> None:
        """Consolidate now and say what changed."""
        if self.desk is not None:
            self.worker.run(self.desk.tidy_up, self.show_consolidation, self._show_error)

    def show_consolidation(self, result: ConsolidationResult) -> None:
        """Say what a consolidation run did (scheduled or asked for) and show the memories as they are now."""
        if not result.ran:
            self.banner.show_note(lambda: html.escape(tr("Not tidied up: {why}", why=tr_message(result.skipped_reason or ""))),
                                  True)
            return
        self.banner.show_note(lambda: tr("Tidied up: {merged} merged, {superseded} replaced, {expired} expired, "
                                 "{purged} old ones removed.", merged=result.merged, superseded=result.superseded,
                                 expired=result.expired, purged=result.purged))
        self.refresh()
        self.memoriesChanged.emit()

    def reveal(self, memory_id: str, refreshed: bool = False) -> None:
        """Select and show one memory, clearing filters that hide it."""
        row = self.model.row_of(memory_id)
        if row < 0:
            if not refreshed:
                self._reveal_after_refresh = memory_id
                self.refresh()
            else:
                self.banner.show_note(lambda: tr("That memory has been forgotten."), warning=True)
            return
        m = self.model.memory_at(row)
        if not self.proxy.filterAcceptsRow(row, QModelIndex()):
            self.search.blockSignals(True)
            self.search.clear()
            self.search.blockSignals(False)
            self.proxy.set_scores(None)
            self.category.setCurrentIndex(0)
            self.status.setCurrentIndex(self.status.findData(m.status if m.status in dict(STATUS_FILTERS) else "all"))
        index = self.proxy.mapFromSource(self.model.index(row, CONTENT))
        self.table.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect |
                                           QItemSelectionModel.SelectionFlag.Rows)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    # -- small helpers -------------------------------------------------------------------------
    def _status_changed(self) -> None:
        self.proxy.set_status(self.status.currentData() or "active")
        self._update_count()

    def _update_count(self, *_args) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        self.count.setText(tr("{shown} of {total}", shown=shown, total=total))

    def _update_buttons(self) -> None:
        chosen = self.selected()
        for name in ("edit", "pin", "disable", "history", "delete"):
            self.buttons[name].setEnabled(bool(chosen))
        self._set_button_text("pin", tr("Unpin") if chosen and all(m.pinned for m in chosen) else tr("Pin"))
        self._set_button_text("disable", tr("Turn on") if chosen and all(m.disabled for m in chosen)
                              else tr("Turn off"))
        self._fit_actions()
        nothing = self.desk is not None and self.model.rowCount() == 0
        self.menu_actions["forget_all"].setEnabled(self.model.rowCount() > 0)
        self.table.setVisible(not nothing)
        self.empty.setVisible(nothing)
        self.empty.setText(tr("No memories yet. What you tell {name} that is worth keeping appears here.",
                              name=self.companion_name))

    def _show_error(self, exc: BaseException) -> None:
        self.banner.show_note(lambda: html.escape(error_text(exc)), warning=True)
        self.errorShown.emit(error_text(exc))

    def selected_ids(self) -> list[str]:
        """Ids of the selected memories (for tests and the window)."""
        return [i.data(ID_ROLE) for i in self.table.selectionModel().selectedRows(CONTENT)]
