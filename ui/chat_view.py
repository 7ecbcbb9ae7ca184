"""The conversation: message bubbles with Markdown, a streamed reply, and what each reply remembered."""
from __future__ import annotations

import html
import math

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (QApplication, QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QTextBrowser, QToolButton,
                               QVBoxLayout, QWidget)

from app.chat import CUT_MARK, INTERRUPTED_MARK, STOPPED_MARK
from memory import Memory, Message
from ui.i18n import tr

BUBBLE_SHARE = 0.78  # widest a bubble gets, as a share of the view
FOLLOW_SLACK = 24  # px from the bottom that still counts as "at the bottom"
RENDER_MS = 60  # a streaming reply is redrawn at most this often, with all text that arrived meanwhile
_MARKDOWN = (QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML)


def keep_line_breaks(text: str) -> str:
    """Markdown joins single newlines into one paragraph; chat keeps them (a poem's lines), except in code blocks."""
    lines, fenced = text.split("\n"), False
    for i, line in enumerate(lines[:-1]):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and line.strip() and lines[i + 1].strip():
            lines[i] = line.rstrip() + "  "  # two trailing spaces: a hard line break
    return "\n".join(lines)


def markdown_html(text: str) -> str:
    """HTML for a reply's Markdown; raw HTML in the text is shown as text, never interpreted."""
    doc = QTextDocument()
    doc.setMarkdown(keep_line_breaks(text), _MARKDOWN)
    return doc.toHtml()


class BubbleText(QTextBrowser):
    """Selectable message text sized to its content: as wide as the text needs (up to a limit), as tall as it is.

    A QLabel re-measures rich text several times per change; this lays the document out once per
    width, which keeps a streaming reply cheap to redraw (measured ~4 ms a step against ~15 ms).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("bubbleText")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setOpenLinks(False)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.document().setDocumentMargin(0)
        # The widget must not re-wrap the text to its own width: fit() decides the width.
        self.setLineWrapMode(QTextBrowser.LineWrapMode.FixedPixelWidth)
        self.max_width = 480

    def show_text(self, text: str, markdown: bool) -> None:
        """Replace the text (Markdown without raw HTML, or plain) and fit the widget to it."""
        if markdown:
            self.document().setMarkdown(keep_line_breaks(text), _MARKDOWN)
        else:
            self.document().setPlainText(text)
        self.fit()

    def fit(self, max_width: int | None = None) -> None:
        """Size to the text: the ideal width up to max_width, and the height the text takes at that width."""
        if max_width is not None:
            self.max_width = max_width
        self.ensurePolished()  # the stylesheet's font must be in place before measuring
        doc = self.document()
        doc.setTextWidth(self.max_width)
        width = min(self.max_width, math.ceil(doc.idealWidth()) + 2)
        self.setLineWrapColumnOrWidth(width)
        doc.setTextWidth(width)
        self.setFixedSize(width, math.ceil(doc.size().height()) + 1)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit()

    def wheelEvent(self, event) -> None:  # noqa: N802 (Qt override)
        # The conversation scrolls, not the bubble (which never has anything to scroll).
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is None:
            event.ignore()
            return
        QApplication.sendEvent(area.verticalScrollBar(), event)


class MessageBubble(QFrame):
    """One message: the user's as plain text on the right, the companion's as Markdown on the left."""

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.role = role
        self.setObjectName("userBubble" if role == "user" else "replyBubble")
        self.text = ""
        self.body = BubbleText(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 9, 14, 9)
        layout.addWidget(self.body)
        self.set_text(text)

    def set_text(self, text: str) -> None:
        """Show this text (Markdown for the companion's messages; "…" while a reply has not started)."""
        self.text = text
        if self.role == "user":
            self.body.show_text(text, markdown=False)
        else:
            self.body.show_text(_reply_markdown(text), markdown=True)

    def set_max_width(self, width: int) -> None:
        """The widest the bubble may be."""
        margins = self.layout().contentsMargins()
        self.body.fit(max(120, width - margins.left() - margins.right()))


def _reply_markdown(text: str) -> str:
    """A reply as shown: a stopped one ends in "(stopped)" in the UI's language; nothing yet is "…"."""
    if text.strip() == "…":  # how older versions saved a reply stopped before its first word
        text = STOPPED_MARK
    for mark in (STOPPED_MARK, INTERRUPTED_MARK, CUT_MARK):
        if text.rstrip().endswith(mark):
            said = text.rstrip().removesuffix(mark).rstrip()
            return (said + "\n\n" if said else "") + "*" + tr(mark) + "*"
    return text if text.strip() else "…"


LEARNED_LIST_WIDTH = 280


def link_list(parent: QWidget, follow) -> QLabel:
    """The small rich-text list of links under a message; `follow` gets the link clicked."""
    label = QLabel(parent)
    label.setObjectName("rememberedList")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
    label.linkActivated.connect(follow)
    return label


class RememberedLine(QWidget):
    """Under a reply: "Used 2 memories ▸", expanding to links that open each memory in the panel.

    Signals:
        memoryClicked(str): the id of the memory the user clicked.
    """

    memoryClicked = Signal(str)

    def __init__(self, memories: list[Memory], missing: int = 0, parent: QWidget | None = None,
                 learned: bool = False):
        super().__init__(parent)
        self.memories = memories
        self.missing = missing
        self.learned = learned  # under the user's message: what was learned from it, not what a reply used
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("rememberedToggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.details = link_list(self, self._open)
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
        # "Used", not "Remembered": these shaped this reply; "Learned" lists what this message taught.
        if self.learned:
            title = tr("Learned {n} things", n=count) if count != 1 else tr("Learned 1 thing")
        else:
            title = tr("Used {n} memories", n=count) if count != 1 else tr("Used 1 memory")
        self.toggle.setText(f"{title} {arrow}")
        items = [f"<li><a href='memory:{html.escape(m.id)}' style='color:#3a47c9; text-decoration:none'>"
                 f"{html.escape(m.content)}</a></li>" for m in self.memories]
        if self.missing:
            if self.learned:
                gone = (tr("1 of them has since been forgotten") if self.missing == 1
                        else tr("{n} of them have since been forgotten", n=self.missing))
            else:
                gone = (tr("1 memory used here has since been forgotten") if self.missing == 1
                        else tr("{n} memories used here have since been forgotten", n=self.missing))
            items.append(f"<li><i>{html.escape(gone)}</i></li>")
        self.details.setText(f"<ul style='margin:0 0 0 -20px'>{''.join(items)}</ul>")

    def sync(self, current: dict[str, Memory]) -> None:
        """Show the memories as they are now: forgotten ones only as a count, edited ones with their new words."""
        kept = [current[m.id] for m in self.memories if m.id in current]
        if kept != self.memories:
            self.missing += len(self.memories) - len(kept)
            self.memories = kept
            self.retranslate()

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
        self._pending = ""
        self._fitted_width = 0
        self._render_timer = QTimer(self, singleShot=True, interval=RENDER_MS)
        self._render_timer.timeout.connect(self._render_pending)
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
        self._render_timer.stop()
        self._pending = ""
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
        """Add streamed text to the reply in progress (drawn within RENDER_MS, together with what follows)."""
        if self.reply is None:
            self.begin_reply()
        self._pending += text
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _render_pending(self) -> None:
        if self.reply is not None and self._pending:
            self.reply.set_text(self.reply.text + self._pending)
        self._pending = ""

    def reply_text(self) -> str:
        """Everything the reply in progress has received, drawn or not."""
        return (self.reply.text if self.reply else "") + self._pending

    def end_reply(self, memories: list[Memory], stopped: bool = False, cut: bool = False) -> None:
        """Close the reply in progress: mark it stopped (or cut short by the app) if it was, and list the
        memories it used."""
        if self.reply is None:
            return
        self._render_timer.stop()
        self._render_pending()
        if stopped or cut:  # as it is saved (app.chat.ChatService.finish), so it reads the same when reopened
            said, mark = self.reply.text.strip(), STOPPED_MARK if stopped else CUT_MARK
            self.reply.set_text(f"{said}\n\n{mark}" if said else mark)
        if memories:
            self._add_remembered(memories, 0)
        self.reply = None

    def reply_failed(self, message: str) -> None:
        """Show why there is no reply, in place of it; a reply cut short keeps what it said, the reason under it."""
        self._render_timer.stop()
        self._render_pending()
        if self.reply is None:
            self.begin_reply()
        said = self.reply.text.strip()
        self.reply.setProperty("failed", True)
        self.reply.set_text(f"{said}\n\n*{message}*" if said else f"*{message}*")
        self.reply = None

    def _add_bubble(self, role: str, text: str) -> MessageBubble:
        self.welcome.hide()
        bubble = MessageBubble(role, text)
        bubble.set_max_width(self._bubble_width())
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

    def add_under_reply(self, widget: QWidget) -> None:
        """A line under the latest message (e.g. what can be done with the memories an answer named)."""
        self._column.insertWidget(self._column.count() - 1, widget)

    def add_learned(self, memories: list[Memory]) -> RememberedLine | None:
        """Under the latest message of the user: "Learned 2 things ▸", each a link into the panel."""
        user = next((b for b in reversed(self.bubbles) if b.role == "user"), None)
        if user is None or not memories:
            return None
        at = next(i for i in range(self._column.count())
                  if (row := self._column.itemAt(i).layout()) is not None and row.indexOf(user) >= 0)
        line = RememberedLine(memories, learned=True)
        line.details.setMinimumWidth(LEARNED_LIST_WIDTH)  # sized by its toggle alone, a note would wrap every word
        line.memoryClicked.connect(self.memoryClicked)
        row = QHBoxLayout()  # on the user's side; a row, so the expanded list wraps at the row's width, not clipped
        row.setContentsMargins(0, 0, 0, 0)
        row.addStretch(1)
        row.addWidget(line)
        self._column.insertLayout(at + 1, row)
        self.remembered.append(line)
        return line

    def sync_memories(self, current: dict[str, Memory]) -> None:
        """Every memory that exists now, by id: what was forgotten leaves the screen, edits show."""
        for line in self.remembered:
            line.sync(current)

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
        # Never wider than the room between the margins: a bubble wider than the view is cut off at its edge.
        margins = self._column.contentsMargins()
        room = self.viewport().width() - margins.left() - margins.right()
        return max(120, min(room, int(self.viewport().width() * BUBBLE_SHARE)))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        width = self._bubble_width()
        if width != self._fitted_width:  # height-only changes do not reflow the text
            self._fitted_width = width
            for bubble in self.bubbles:
                bubble.set_max_width(width)

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
