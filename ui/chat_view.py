"""The conversation: message bubbles with Markdown, a streamed reply, and what each reply remembered."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QToolButton, QVBoxLayout,
                               QWidget)

from memory.records import Memory, Message
from ui.i18n import tr

BUBBLE_SHARE = 0.78  # widest a bubble gets, as a share of the view
FOLLOW_SLACK = 24  # px from the bottom that still counts as "at the bottom"
_MARKDOWN = (QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML)


def markdown_html(text: str) -> str:
    """HTML for a reply's Markdown; raw HTML in the text is shown as text, never interpreted."""
    doc = QTextDocument()
    doc.setMarkdown(text, _MARKDOWN)
    return doc.toHtml()


class MessageBubble(QFrame):
    """One message: the user's as plain text on the right, the companion's as Markdown on the left."""

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.role = role
        self.setObjectName("userBubble" if role == "user" else "replyBubble")
        self.text = ""
        self.label = QLabel(self)
        self.label.setObjectName("bubbleText")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setTextFormat(Qt.TextFormat.PlainText if role == "user" else Qt.TextFormat.RichText)
        self.label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 9, 14, 9)
        layout.addWidget(self.label)
        self.set_text(text)

    def set_text(self, text: str) -> None:
        """Show this text (Markdown for the companion's messages)."""
        self.text = text
        if self.role == "user":
            self.label.setText(text)
        else:
            self.label.setText(markdown_html(text) if text.strip() else "<span style='color:#8a8f98'>…</span>")


class RememberedLine(QWidget):
    """Under a reply: "Remembered 2 things ▸", expanding to links that open each memory in the panel.

    Signals:
        memoryClicked(str): the id of the memory the user clicked.
    """

    memoryClicked = Signal(str)

    def __init__(self, memories: list[Memory], missing: int = 0, parent: QWidget | None = None):
        super().__init__(parent)
        self.memories = memories
        self.missing = missing
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("rememberedToggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.details = QLabel(self)
        self.details.setObjectName("rememberedList")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.details.linkActivated.connect(self._open)
        self.details.hide()
        self.toggle.toggled.connect(self._expand)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.details)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        count = len(self.memories) + self.missing
        arrow = "▾" if self.toggle.isChecked() else "▸"
        self.toggle.setText(tr("Remembered {n} things", n=count) + f" {arrow}" if count != 1
                            else tr("Remembered 1 thing") + f" {arrow}")
        items = [f"<li><a href='memory:{html.escape(m.id)}'>{html.escape(m.content)}</a></li>" for m in self.memories]
        if self.missing:
            items.append(f"<li><i>{html.escape(tr('{n} forgotten since', n=self.missing))}</i></li>")
        self.details.setText(f"<ul style='margin:0 0 0 -20px'>{''.join(items)}</ul>")

    def _expand(self, on: bool) -> None:
        self.details.setVisible(on)
        self.retranslate()

    def _open(self, link: str) -> None:
        if link.startswith("memory:"):
            self.memoryClicked.emit(link.removeprefix("memory:"))


class ChatView(QScrollArea):
    """The scrolling conversation; it follows a streaming reply unless the user has scrolled up.

    Signals:
        memoryClicked(str): a "remembered" link was clicked; carries the memory id.
    """

    memoryClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("chatView")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._canvas = QWidget()
        self._canvas.setObjectName("chatCanvas")
        self._column = QVBoxLayout(self._canvas)
        self._column.setContentsMargins(24, 20, 24, 20)
        self._column.setSpacing(10)
        self._column.addStretch(1)
        self.setWidget(self._canvas)
        self.welcome = QLabel(self._canvas)
        self.welcome.setObjectName("welcome")
        self.welcome.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.welcome.setWordWrap(True)
        self._column.insertWidget(0, self.welcome, 3)  # with the stretch below: a little above the middle
        self.companion_name = "Companion"
        self.bubbles: list[MessageBubble] = []
        self.remembered: list[RememberedLine] = []
        self.reply: MessageBubble | None = None
        self.following = True
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_range)
        bar.valueChanged.connect(self._on_scrolled)
        self.retranslate()

    # -- content -------------------------------------------------------------------------------
    def clear(self) -> None:
        """Remove every message (a new or different session)."""
        while self._column.count() > 2:
            item = self._column.takeAt(1)
            if item.widget():
                item.widget().deleteLater()
            elif item.layout():
                _delete_layout(item.layout())
        self.bubbles, self.remembered, self.reply = [], [], None
        self.following = True
        self.welcome.show()

    def show_conversation(self, messages: list[Message], memories: dict[str, Memory]) -> None:
        """Show a stored session's messages with what each reply remembered."""
        self.clear()
        for m in messages:
            self._add_bubble(m.role, m.content)
            if m.role == "assistant" and m.memories_used:
                used = [memories[i] for i in m.memories_used if i in memories]
                self._add_remembered(used, len(m.memories_used) - len(used))
        self.scroll_to_bottom()

    def add_user_message(self, text: str) -> MessageBubble:
        """The user's message, shown the moment it is sent."""
        self.following = True
        bubble = self._add_bubble("user", text)
        self.scroll_to_bottom()
        return bubble

    def begin_reply(self) -> MessageBubble:
        """An empty reply bubble that streamed text will fill."""
        self.reply = self._add_bubble("assistant", "")
        return self.reply

    def append_reply(self, text: str) -> None:
        """Add streamed text to the reply in progress."""
        if self.reply is None:
            self.begin_reply()
        self.reply.set_text(self.reply.text + text)

    def end_reply(self, memories: list[Memory], stopped: bool = False) -> None:
        """Close the reply in progress: mark it stopped if it was, and list the memories it used."""
        if self.reply is None:
            return
        if stopped:
            self.reply.set_text((self.reply.text.rstrip() or "…") + "\n\n*" + tr("(stopped)") + "*")
        if memories:
            self._add_remembered(memories, 0)
        self.reply = None

    def reply_failed(self, message: str) -> None:
        """Show why there is no reply, in place of it."""
        if self.reply is None:
            self.begin_reply()
        self.reply.setProperty("failed", True)
        self.reply.set_text(f"*{message}*")
        self.reply = None

    def _add_bubble(self, role: str, text: str) -> MessageBubble:
        self.welcome.hide()
        bubble = MessageBubble(role, text)
        bubble.setMaximumWidth(self._bubble_width())
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        if role == "user":
            row.addStretch(1)
        row.addWidget(bubble)
        if role != "user":
            row.addStretch(1)
        self._column.insertLayout(self._column.count() - 1, row)
        self.bubbles.append(bubble)
        return bubble

    def _add_remembered(self, memories: list[Memory], missing: int) -> None:
        line = RememberedLine(memories, missing)
        line.memoryClicked.connect(self.memoryClicked)
        self._column.insertWidget(self._column.count() - 1, line)
        self.remembered.append(line)

    # -- scrolling and size --------------------------------------------------------------------
    def scroll_to_bottom(self) -> None:
        """Jump to the newest message and follow the stream again."""
        self.following = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_range(self, _minimum: int, maximum: int) -> None:
        if self.following:
            self.verticalScrollBar().setValue(maximum)

    def _on_scrolled(self, value: int) -> None:
        self.following = value >= self.verticalScrollBar().maximum() - FOLLOW_SLACK

    def _bubble_width(self) -> int:
        return max(240, int(self.viewport().width() * BUBBLE_SHARE))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        width = self._bubble_width()
        for bubble in self.bubbles:
            bubble.setMaximumWidth(width)

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        self.welcome.setText(tr("Say hello to {name}. Everything you write stays on this computer.",
                                name=self.companion_name))
        for line in self.remembered:
            line.retranslate()


def _delete_layout(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item.widget():
            item.widget().deleteLater()
    layout.deleteLater()
