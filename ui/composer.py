"""Where the user writes: Enter sends, Shift+Enter starts a new line; the Send button turns into Stop."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QSizePolicy, QWidget

from app.chat import TYPING_PAUSE_MS
from ui.i18n import tr
from ui.style import icon

MAX_LINES = 8
PAUSE_MS = TYPING_PAUSE_MS  # typing stopped this long: the draft is probably what will be sent


class MessageInput(QPlainTextEdit):
    """A text box that grows with its text; Enter submits, Shift+Enter inserts a line break.

    Signals:
        submitted(): Enter was pressed (without Shift).
    """

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("messageInput")
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self._fit_height()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            # An input method composing text (pinyin) keeps Enter for itself and never reaches here.
            self.submitted.emit()
            return
        if enter:
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def _fit_height(self, *_args) -> None:
        self.ensurePolished()  # the stylesheet's padding is part of the margins only once polished
        line = self.fontMetrics().lineSpacing()
        lines = max(1, min(MAX_LINES, round(self.document().size().height())))
        margins = self.contentsMargins()
        frame = round(self.document().documentMargin() * 2) + margins.top() + margins.bottom()
        self.setFixedHeight(lines * line + frame + 2)


class Composer(QWidget):
    """The input box and the Send/Stop button.

    Signals:
        sendRequested(str): the user sent this text (already stripped, never empty).
        stopRequested(): the user pressed Stop during a reply.
        draftPaused(str): typing paused on this text (stripped, never empty), so work on it can start early.
    """

    sendRequested = Signal(str)
    stopRequested = Signal()
    draftPaused = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("composer")
        self.input = MessageInput(self)
        self.button = QPushButton(self)
        self.button.setObjectName("sendButton")
        self.button.setIconSize(QSize(18, 18))
        self.button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.button.clicked.connect(self._clicked)
        self.input.submitted.connect(self._submit)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(PAUSE_MS)
        self._pause.timeout.connect(self._paused)
        self.input.textChanged.connect(self._pause.start)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 10, 16, 14)
        layout.setSpacing(8)
        layout.addWidget(self.input, 1)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignBottom)
        self.replying = False
        self.private = False
        self.companion_name = "Companion"
        self.retranslate()

    def set_private(self, private: bool) -> None:
        """Take the private conversation's colour (assets/style.qss) and say so in the empty box."""
        self.private = private
        # The band around the box is painted only while private (a plain QWidget paints no stylesheet background).
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, private)
        for widget in (self, self.input):
            widget.setProperty("private", private)
            widget.style().unpolish(widget)
            widget.style().polish(widget)
        self.retranslate()

    def set_replying(self, replying: bool) -> None:
        """Switch the button between Send and Stop."""
        self.replying = replying
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        """An enabled or disabled box shows what it is ready for."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.EnabledChange:
            self.retranslate()

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        # Until the profile is open the box takes no typing: it says so instead of swallowing keys unseen
        message = (tr("Private message to {name} (not saved)…", name=self.companion_name) if self.private
                   else tr("Message {name}…", name=self.companion_name))
        self.input.setPlaceholderText(message if self.isEnabled()
                                      else tr("Opening your memories… you can type in a moment"))
        self.input.setToolTip(tr("Enter sends; Shift+Enter starts a new line"))
        self.button.setText(tr("Stop") if self.replying else tr("Send"))
        self.button.setIcon(icon("stop" if self.replying else "send"))
        self.button.setProperty("stop", self.replying)
        self.button.style().unpolish(self.button)
        self.button.style().polish(self.button)
        self.button.setToolTip(tr("Stop the reply (Esc)") if self.replying else tr("Send (Enter)"))

    def _clicked(self) -> None:
        if self.replying:
            self.stopRequested.emit()
        else:
            self._submit()

    def _submit(self) -> None:
        if self.replying:
            return  # Enter during a reply does nothing; the text stays for the next turn
        text = self.input.toPlainText().strip()
        if not text:
            return
        self.input.clear()
        self._pause.stop()
        self.sendRequested.emit(text)

    def _paused(self) -> None:
        text = self.input.toPlainText().strip()
        if text and not self.replying:
            self.draftPaused.emit(text)
