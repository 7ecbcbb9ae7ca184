"""The sessions pane: past conversations, most recent first, with new / rename / delete."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QMenu, QPushButton, QVBoxLayout, QWidget

from memory import Session
from ui.i18n import tr
from ui.style import icon

ID_ROLE = Qt.ItemDataRole.UserRole


class SessionPane(QWidget):
    """A "New chat" button and the list of sessions.

    Signals:
        newRequested(): start a new, empty conversation.
        sessionChosen(str): the user picked this session.
        renameRequested(str): rename this session (the pane asks for the title itself).
        deleteRequested(str): delete this session (the window confirms).
        forgetRequested(str): forget this session and what only it taught (the window confirms).
    """

    newRequested = Signal()
    sessionChosen = Signal(str)
    renameRequested = Signal(str)
    deleteRequested = Signal(str)
    forgetRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sessionPane")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.new_button = QPushButton(icon("new"), "", self)
        self.new_button.setObjectName("newChatButton")
        self.new_button.clicked.connect(self.newRequested)
        self.title = QLabel(self)
        self.title.setObjectName("paneTitle")
        self.list = QListWidget(self)
        self.list.setObjectName("sessionList")
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setWordWrap(False)
        self.list.setUniformItemSizes(True)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.itemClicked.connect(self._clicked)
        self.list.itemActivated.connect(self._clicked)
        self.rename_action = QAction(self)
        self.rename_action.setShortcut("F2")
        self.rename_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.rename_action.triggered.connect(lambda: self._emit_for_current(self.renameRequested))
        self.delete_action = QAction(self)
        self.delete_action.setShortcut("Delete")
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.triggered.connect(lambda: self._emit_for_current(self.deleteRequested))
        self.forget_action = QAction(icon("delete"), "", self)
        self.forget_action.triggered.connect(lambda: self._emit_for_current(self.forgetRequested))
        self.list.addActions([self.rename_action, self.delete_action, self.forget_action])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 12, 10, 10)
        layout.setSpacing(8)
        layout.addWidget(self.new_button)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        self.retranslate()

    def show_sessions(self, sessions: list[Session], current: str | None) -> None:
        """Fill the list, keeping the current session selected."""
        self.list.blockSignals(True)
        self.list.clear()
        for s in sessions:
            item = QListWidgetItem(s.title)
            item.setData(ID_ROLE, s.id)
            item.setToolTip(f"{s.title}\n{s.updated_at[:16].replace('T', ' ')}")
            self.list.addItem(item)
            if s.id == current:
                item.setSelected(True)
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def select(self, session_id: str | None) -> None:
        """Highlight a session (None: nothing, for a new chat)."""
        self.list.clearSelection()
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(ID_ROLE) == session_id:
                self.list.setCurrentItem(item)
                return

    def session_ids(self) -> list[str]:
        """The ids in the order shown."""
        return [self.list.item(r).data(ID_ROLE) for r in range(self.list.count())]

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        self.new_button.setText(tr("New chat"))
        self.new_button.setToolTip(tr("Start a new conversation (Ctrl+N)"))
        self.title.setText(tr("Conversations"))
        self.rename_action.setText(tr("Rename…"))
        self.delete_action.setText(tr("Delete…"))
        self.forget_action.setText(tr("Forget this conversation…"))
        self.forget_action.setToolTip(tr("Delete it and every memory only it taught, with proof"))

    def _clicked(self, item: QListWidgetItem) -> None:
        self.sessionChosen.emit(item.data(ID_ROLE))

    def _emit_for_current(self, signal) -> None:
        item = self.list.currentItem()
        if item is not None:
            signal.emit(item.data(ID_ROLE))

    def _menu(self, pos) -> None:
        item = self.list.itemAt(pos)
        if item is None:
            return
        self.list.setCurrentItem(item)
        menu = QMenu(self)
        menu.addAction(self.rename_action)
        menu.addAction(self.delete_action)
        menu.addAction(self.forget_action)
        menu.exec(self.list.viewport().mapToGlobal(pos))
