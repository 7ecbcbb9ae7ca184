"""The memory panel's table: the words of a memory take the room left; later columns that do not fit are hidden."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from ui.memory_model import CONTENT, FIELDS

CONTENT_MIN_WIDTH = 200  # below this the words of a memory are cut to a few characters
ALWAYS_SHOWN = FIELDS.index("disabled")  # Category, Status, Pinned and Off: reached by scrolling when narrow
_WIDTHS = {"category": 100, "status": 90, "event_date": 92, "last_used_at": 92, "quote": 180, "importance": 80,
           "confidence": 80}


class MemoryTable(QTableView):
    """Rows of memories: the content column stretches, later columns hide first when narrow, and a table too
    narrow for Category, Status, Pinned and Off scrolls sideways instead of cutting them off."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("memoryTable")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed |
                             QAbstractItemView.EditTrigger.SelectedClicked)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setShowGrid(False)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(30)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        # Widths settle after layout and after rows arrive: fit once things are quiet, not in the middle.
        self._fit_timer = QTimer(self, singleShot=True, interval=0)
        self._fit_timer.timeout.connect(self.fit_columns)

    def setModel(self, model) -> None:  # noqa: N802 (Qt override)
        super().setModel(model)
        header = self.horizontalHeader()
        for column in range(len(FIELDS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch if column == CONTENT
                                        else QHeaderView.ResizeMode.Fixed)
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.layoutChanged,
                       model.headerDataChanged):
            signal.connect(self._fit_timer.start)
        self._fit_timer.start()

    def column_width(self, column: int) -> int:
        """What a column needs: its usual width, or more for a long header (another language, the sort arrow)."""
        title = str(self.model().headerData(column, Qt.Orientation.Horizontal) or "")
        text = self.horizontalHeader().fontMetrics().horizontalAdvance(title) + 34
        return max(_WIDTHS.get(FIELDS[column], 0), text)

    def fit_columns(self) -> None:
        """Show the columns up to Off always, and the later ones, in order, that fit beside the content column;
        when even the first ones do not fit, the content column keeps its least width and the table scrolls."""
        if self.model() is None:
            return
        room = self.viewport().width() - CONTENT_MIN_WIDTH
        fits = True
        for column in range(len(FIELDS)):
            if column == CONTENT:
                continue
            needed = self.column_width(column)
            fits = column <= ALWAYS_SHOWN or (fits and needed <= room)
            if fits:
                room -= needed
                self.setColumnWidth(column, needed)
            if self.isColumnHidden(column) == fits:
                self.setColumnHidden(column, not fits)
        mode = QHeaderView.ResizeMode.Stretch if room >= 0 else QHeaderView.ResizeMode.Fixed
        if self.horizontalHeader().sectionResizeMode(CONTENT) != mode:
            self.horizontalHeader().setSectionResizeMode(CONTENT, mode)
        if mode == QHeaderView.ResizeMode.Fixed:
            self.setColumnWidth(CONTENT, CONTENT_MIN_WIDTH)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit_timer.start()
