"""Qt item models of the memory panel: every memory as a table row, and a proxy that filters and ranks them."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import (QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel,
                            Qt, Signal)
from PySide6.QtGui import QBrush, QColor, QFont

from memory import Memory
from ui.i18n import tr
from ui.style import icon

ID_ROLE = Qt.ItemDataRole.UserRole
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
MEMORY_ROLE = Qt.ItemDataRole.UserRole + 2
ROLE_DISPLAY, ROLE_EDIT, ROLE_CHECK = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole,
                                       Qt.ItemDataRole.CheckStateRole)
ROLE_TIP, ROLE_COLOR = Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.ForegroundRole
ROLE_ALIGN, ROLE_ICON = Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.DecorationRole
Index = QModelIndex | QPersistentModelIndex

# (field, header) in column order; header texts are translated when asked for.
# The order is also what a narrow panel keeps: columns from the end are hidden first.
COLUMNS = (
    ("content", "Memory"), ("category", "Category"), ("status", "Status"), ("pinned", "Pinned"),
    ("disabled", "Off"), ("event_date", "Date"), ("importance", "Importance"), ("last_used_at", "Last used"),
    ("quote", "Your words"), ("confidence", "Confidence"), ("source", "Source"),
)
FIELDS = tuple(f for f, _ in COLUMNS)
CONTENT, CATEGORY, STATUS = FIELDS.index("content"), FIELDS.index("category"), FIELDS.index("status")
CHECK_COLUMNS = {FIELDS.index("pinned"): "pinned", FIELDS.index("disabled"): "disabled"}
NUMBER_COLUMNS = {FIELDS.index("importance"), FIELDS.index("confidence")}
_MUTED = QColor("#8a8f98")
ROLE_FONT = Qt.ItemDataRole.FontRole
# One word per state everywhere in the app (filter, Status column, tooltips, history).
STATUS_WORDS = {"active": "Current", "superseded": "Replaced", "expired": "Expired"}


def status_word(status: str) -> str:
    """The translated word for a memory's status."""
    return tr(STATUS_WORDS.get(status, status))


# What a quote may start with when it was cut from the middle of a message ("…great! I moved to Lyon").
_CUT_MARKS = " \t!?,.;:…！？，。；：、"


def quote_words(quote: str | None) -> str:
    """The user's words as shown: without the punctuation left over from where they were cut out."""
    return (quote or "").lstrip(_CUT_MARKS).rstrip(" \t,;:，；：、")


def value_words(name: str, value) -> str | None:
    """A status, category, source or percentage as the UI says it; None for other fields."""
    if name == "status":
        return status_word(value)
    if name in ("category", "source"):
        return tr(value)
    if name in ("importance", "confidence"):
        return f"{value:.0%}"
    return None


def display_value(m: Memory, name: str) -> str:
    """How one field of a memory reads in the table."""
    value = getattr(m, name)
    if name == "status" and m.disabled and m.status == "active":  # turned off: not "Current" in italics
        return tr("Off")
    words = value_words(name, value)
    if words is not None:
        return words
    if name == "last_used_at":
        return value[:10] if value else tr("never")
    if name in ("pinned", "disabled"):
        return ""
    if name == "quote":
        return quote_words(value)
    return "" if value is None else str(value)


def describe(m: Memory) -> str:
    """A tooltip with everything worth knowing about a memory."""
    state = status_word(m.status) + (f" · {tr('Off')}" if m.disabled else "")
    lines = [m.content, "", f"{tr('Category')}: {tr(m.category)} · {tr('Status')}: {state}"]
    if m.event_date:
        lines.append(f"{tr('Date')}: {m.event_date}")
    lines.append(f"{tr('Importance')}: {m.importance:.0%} · {tr('Confidence')}: {m.confidence:.0%}"
                 f" · {tr('Strength')}: {m.strength:.0%}")
    lines.append(f"{tr('Source')}: {tr(m.source)}" + (f" — “{quote_words(m.quote)}”" if m.quote else ""))
    lines.append(f"{tr('Remembered since')}: {(m.created_at or '')[:10]} · "
                 f"{tr('Used')}: {m.hit_count}× · {tr('Last used')}: {(m.last_used_at or tr('never'))[:10]}")
    return "\n".join(lines)


class MemoryTableModel(QAbstractTableModel):
    """Every memory (all statuses) as a row; updates in place so selection and scroll survive a refresh.

    Signals:
        changeRequested(str, dict): the user edited a cell; carries the memory id and the changed fields.
    """

    changeRequested = Signal(str, dict)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[Memory] = []

    # -- reading -------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 (Qt override)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 (Qt override)
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = ROLE_DISPLAY):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == ROLE_DISPLAY and 0 <= section < len(COLUMNS):
            return tr(COLUMNS[section][1])
        return None

    def data(self, index: Index, role: int = ROLE_DISPLAY):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        m, column = self._rows[index.row()], index.column()
        name = FIELDS[column]
        if role == ROLE_DISPLAY:
            return display_value(m, name)
        if role == ROLE_EDIT:
            return m.content if column == CONTENT else display_value(m, name)
        if role == ROLE_CHECK and column in CHECK_COLUMNS:
            return Qt.CheckState.Checked if getattr(m, name) else Qt.CheckState.Unchecked
        if role == ROLE_TIP:
            return describe(m) if column in (CONTENT, FIELDS.index("quote")) else None
        if role == ROLE_COLOR and m.status != "active":  # replaced or expired: greyed
            return QBrush(_MUTED)
        if role == ROLE_FONT and m.disabled:  # off: in italics, still readable, unlike a replaced one
            font = QFont()
            font.setItalic(True)
            return font
        if role == ROLE_ALIGN and column in NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ROLE_ICON and column == CONTENT and m.pinned:
            return icon("pin")
        return self._custom_data(m, name, role)

    def _custom_data(self, m: Memory, name: str, role: int):
        if role == ID_ROLE:
            return m.id
        if role == MEMORY_ROLE:
            return m
        if role == SORT_ROLE:
            value = getattr(m, name)
            return value if isinstance(value, (int, float)) else str(value or "")
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if not index.isValid():
            return base
        if index.column() == CONTENT:
            return base | Qt.ItemFlag.ItemIsEditable
        if index.column() in CHECK_COLUMNS:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base

    def setData(self, index: Index, value, role: int = ROLE_EDIT) -> bool:  # noqa: N802 (Qt override)
        """An inline edit: shown at once, and asked of the database through changeRequested."""
        if not index.isValid():
            return False
        m, column = self._rows[index.row()], index.column()
        if role == ROLE_EDIT and column == CONTENT:
            text = " ".join(str(value).split())
            if not text or text == m.content:
                return False
            changes = {"content": text}
        elif role == ROLE_CHECK and column in CHECK_COLUMNS:
            checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
            changes = {CHECK_COLUMNS[column]: checked}
        else:
            return False
        self._rows[index.row()] = replace(m, **changes)
        self.dataChanged.emit(self.index(index.row(), 0), self.index(index.row(), len(COLUMNS) - 1))
        self.changeRequested.emit(m.id, changes)
        return True

    # -- rows ----------------------------------------------------------------------------------
    def memory_at(self, row: int) -> Memory:
        """The memory shown in this row."""
        return self._rows[row]

    def row_of(self, memory_id: str) -> int:
        """The row of a memory, or -1."""
        return next((r for r, m in enumerate(self._rows) if m.id == memory_id), -1)

    def memories(self) -> list[Memory]:
        """Every memory in the model, in row order."""
        return list(self._rows)

    def set_memories(self, memories: list[Memory]) -> None:
        """Show these memories (given oldest first): gone rows removed, changed rows updated, new rows on top."""
        wanted = {m.id: m for m in memories}
        for row in range(len(self._rows) - 1, -1, -1):
            if self._rows[row].id not in wanted:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._rows[row]
                self.endRemoveRows()
        present = set()
        for row, old in enumerate(self._rows):
            present.add(old.id)
            new = wanted[old.id]
            if new != old:
                self._rows[row] = new
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
        added = [m for m in reversed(memories) if m.id not in present]
        if added:  # newest first: what was just learned is at the top
            self.beginInsertRows(QModelIndex(), 0, len(added) - 1)
            self._rows[:0] = added
            self.endInsertRows()

    def retranslate(self) -> None:
        """Headers and translated cells change with the language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(COLUMNS) - 1))


class MemoryFilterProxy(QSortFilterProxyModel):
    """Filters by category and status, and by a search's hits (ranked best first while a search is on)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.category: str | None = None
        self.status: str = "active"
        self.scores: dict[str, float] | None = None
        self.rank_by_score = False
        self.setSortRole(SORT_ROLE)
        self.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def set_category(self, category: str | None) -> None:
        """Only this category (None: all)."""
        self.beginFilterChange()
        self.category = category
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_status(self, status: str) -> None:
        """Only this status ('all' for every one, 'off' for the turned-off ones)."""
        self.beginFilterChange()
        self.status = status
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_scores(self, scores: dict[str, float] | None) -> None:
        """Only the search's hits, best first (None: no search)."""
        self.beginFilterChange()
        self.scores = scores
        self.rank_by_score = scores is not None
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        if scores is not None:
            self.rank()

    def rank(self) -> None:
        """Order the rows best hit first (Qt skips sort() when column and order are unchanged, so reset first)."""
        self.rank_by_score = self.scores is not None
        self.sort(-1)
        self.sort(CONTENT, Qt.SortOrder.AscendingOrder)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802 (Qt override)
        m = self.sourceModel().memory_at(source_row)
        if self.category and m.category != self.category:
            return False
        if self.status == "off":
            if not m.disabled:
                return False
        elif self.status != "all" and m.status != self.status:
            return False
        return self.scores is None or m.id in self.scores

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802 (Qt override)
        if self.rank_by_score and self.scores is not None:  # best hit first until a header is clicked
            left_id, right_id = left.data(ID_ROLE), right.data(ID_ROLE)
            return self.scores.get(left_id, 0.0) > self.scores.get(right_id, 0.0)
        return super().lessThan(left, right)
