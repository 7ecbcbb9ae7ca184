"""Under an answer from the record ("how do you know that?"): each memory it names, to open in the panel or forget.

Signals carry memory ids; the window opens the panel or asks before forgetting (ui/main_window.py).
"""
from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.provenance_answer import RecordAnswer
from ui.chat_view import link_list
from ui.i18n import tr

_LINK = "color:#3a47c9; text-decoration:none"
_CONTENT_CHARS = 60


class RecordActions(QWidget):
    """"Open in memory panel · Forget this" for each memory an answer named; one link to the panel for a summary.

    Signals:
        openRequested(str): open this memory in the panel.
        forgetRequested(str): forget this memory (the window asks first).
        panelRequested(): open the memory panel.
    """

    openRequested = Signal(str)
    forgetRequested = Signal(str)
    panelRequested = Signal()

    def __init__(self, answer: RecordAnswer, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("recordActions")
        self.answer = answer
        self.forgotten: set[str] = set()
        self.label = link_list(self, self.follow)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.addWidget(self.label)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        if self.answer.kind == "summary":
            self.label.setText(f"<a href='panel:' style='{_LINK}'>{html.escape(tr('Open the memory panel'))}</a>")
            return
        rows = []
        for m in self.answer.memories:
            what = m.content if len(m.content) <= _CONTENT_CHARS else m.content[:_CONTENT_CHARS - 1] + "…"
            if m.id in self.forgotten:
                actions = f"<i>{html.escape(tr('Forgotten'))}</i>"
            else:
                actions = (f"<a href='open:{html.escape(m.id)}' style='{_LINK}'>{html.escape(tr('Open in memory panel'))}"
                           f"</a> · <a href='forget:{html.escape(m.id)}' style='{_LINK}'>"
                           f"{html.escape(tr('Forget this'))}</a>")
            rows.append(f"<li>{html.escape(what)} — {actions}</li>")
        self.label.setText(f"<ul style='margin:0 0 0 -20px'>{''.join(rows)}</ul>")

    def follow(self, link: str) -> None:
        """Act on a clicked link ('open:ID', 'forget:ID', 'panel:')."""
        kind, _, memory_id = link.partition(":")
        if kind == "open":
            self.openRequested.emit(memory_id)
        elif kind == "forget":
            self.forgetRequested.emit(memory_id)
        elif kind == "panel":
            self.panelRequested.emit()

    def mark_forgotten(self, memory_id: str) -> None:
        """This memory is gone: say so in place of its actions."""
        self.forgotten.add(memory_id)
        self.retranslate()
