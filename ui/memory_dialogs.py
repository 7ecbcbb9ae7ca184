"""Dialogs of the memory panel: edit one memory, and see its history (supersede chain and edits)."""
from __future__ import annotations

import html
import re

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDateEdit, QDialog, QDialogButtonBox, QFormLayout, QLabel,
                               QPlainTextEdit, QSlider, QTextBrowser, QVBoxLayout, QWidget)

from app.memory_service import HistoryStep
from memory import CATEGORIES, HistoryEntry, Memory
from ui.i18n import date_words, tr
from ui.memory_model import quote_words, status_word, value_words


class MemoryEditDialog(QDialog):
    """Edit a memory's words, category, date, importance, pin and on/off; `changes()` says what changed."""

    def __init__(self, memory: Memory, parent: QWidget | None = None):
        super().__init__(parent)
        self.memory = memory
        self.setWindowTitle(tr("Edit memory"))
        self.setMinimumWidth(460)
        self.content = QPlainTextEdit(memory.content, self)
        self.content.setObjectName("editContent")
        self.content.setFixedHeight(90)
        self.category = QComboBox(self)
        for c in CATEGORIES:
            self.category.addItem(tr(c), c)
        self.category.setCurrentIndex(CATEGORIES.index(memory.category))
        self.has_date = QCheckBox(tr("Happens on"), self)
        self.date = QDateEdit(self)
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("yyyy-MM-dd")
        self.has_date.setChecked(bool(memory.event_date))
        self.date.setDate(QDate.fromString(memory.event_date, "yyyy-MM-dd") if memory.event_date
                          else QDate.currentDate())
        self.date.setEnabled(bool(memory.event_date))
        self.has_date.toggled.connect(self.date.setEnabled)
        self.importance = QSlider(Qt.Orientation.Horizontal, self)
        self.importance.setRange(0, 100)
        self.importance.setValue(round(memory.importance * 100))
        self.importance_label = QLabel(self)
        self.importance.valueChanged.connect(lambda v: self.importance_label.setText(f"{v}%"))
        self.importance_label.setText(f"{self.importance.value()}%")
        self.pinned = QCheckBox(tr("Pinned: always keep it in mind"), self)
        self.pinned.setChecked(memory.pinned)
        self.disabled = QCheckBox(tr("Off: keep it, but never use it in chat"), self)
        self.disabled.setChecked(memory.disabled)
        self._layout()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(tr("Memory"), self.content)
        form.addRow(tr("Category"), self.category)
        form.addRow(self.has_date, self.date)
        row = QWidget(self)
        row_layout = QVBoxLayout(row)
        row_layout.setContentsMargins(0, 0, 0, 0)
        row_layout.addWidget(self.importance)
        row_layout.addWidget(self.importance_label)
        form.addRow(tr("Importance"), row)
        form.addRow("", self.pinned)
        form.addRow("", self.disabled)
        source = QLabel(tr("Source") + f": {tr(self.memory.source)}" +
                        (f" — “{html.escape(quote_words(self.memory.quote))}”" if self.memory.quote else ""), self)
        source.setObjectName("dialogNote")
        source.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(source)
        layout.addWidget(buttons)

    def changes(self) -> dict:
        """The fields the user changed (empty if nothing)."""
        m = self.memory
        wanted = {
            "content": " ".join(self.content.toPlainText().split()),
            "category": self.category.currentData(),
            "event_date": self.date.date().toString("yyyy-MM-dd") if self.has_date.isChecked() else None,
            "importance": self.importance.value() / 100,
            "pinned": self.pinned.isChecked(),
            "disabled": self.disabled.isChecked(),
        }
        changes = {k: v for k, v in wanted.items() if v != getattr(m, k)}
        if "importance" in changes and round(m.importance * 100) == self.importance.value():
            del changes["importance"]  # the slider's rounding is not a change
        return changes


def history_html(steps: list[HistoryStep], focus_id: str) -> str:
    """The supersede chain, oldest first, each memory with its recorded changes, in words."""
    texts = {step.memory.id: step.memory.content for step in steps}
    parts = []
    for i, step in enumerate(steps):
        m = step.memory
        mark = " style='background:#eef0fd'" if m.id == focus_id else ""
        span = f"{date_words(m.valid_from or m.created_at)} → {date_words(m.valid_to) if m.valid_to else tr('now')}"
        parts.append(f"<div{mark}><p><b>{html.escape(m.content)}</b><br>"
                     f"<span style='color:#6b7280'>{status_word(m.status)} · {tr(m.category)} · {span}</span></p><ul>")
        parts += [f"<li>{_entry_html(e, texts)}</li>" for e in step.entries]
        parts.append("</ul></div>")
        if i < len(steps) - 1:
            parts.append(f"<p style='color:#6b7280'>↓ {tr('replaced by')}</p>")
    return "".join(parts)


# The fields a history row shows, with their names in the UI; others (ids, topic, counters) are bookkeeping.
_FIELD_NAMES = {"content": "Memory", "category": "Category", "status": "Status", "event_date": "Date",
                "importance": "Importance", "confidence": "Confidence", "pinned": "Pinned", "disabled": "Off",
                "source": "Source", "valid_from": "Valid from", "valid_to": "Valid until",
                "superseded_by": "Replaced by"}


def field_words(name: str, value, texts: dict[str, str]) -> str:
    """One recorded value as the UI says it (a date in words, a percentage, yes/no, a memory's text)."""
    if value is None or value == "":
        return "—"
    if name == "superseded_by":
        return f"“{texts.get(value, tr('a memory forgotten since'))}”"
    if value_words(name, value) is not None:
        return value_words(name, value)
    if name in ("pinned", "disabled"):
        return tr("yes") if value else tr("no")
    if name in ("event_date", "valid_from", "valid_to"):
        return date_words(value)
    return str(value)


def reason_words(reason: str | None, texts: dict[str, str] | None = None) -> tuple[str, str]:
    """Why a change was made, in words, and the details behind it (the rule or the scores that decided, for the
    curious; "" when none): "stated (rule:en.preference.like_verb,priority=3230)" is "Learned from what you said",
    "superseded by m_…: …" is "Replaced by “No longer likes hiking”"."""
    reason, texts = reason or "", texts or {}
    again = reason.startswith("said again: ")
    said = _PIPELINE_REASON.match(reason.removeprefix("said again: "))
    if said:
        words = (tr("You said it again") if again else tr("You asked to remember this")
                 if said["source"] == "explicit" else tr("Learned from what you said"))
        if said["replaces"]:
            gone = [f"“{texts.get(i, tr('a memory forgotten since'))}”" for i in said["replaces"].split(", ")]
            words += " · " + tr("replaces {what}", what=", ".join(gone))
        return words, said["origin"]
    replaced = _REPLACED_BY.match(reason)
    if replaced:
        return tr("Replaced by {what}", what=f"“{texts.get(replaced['id'], tr('a memory forgotten since'))}”"), \
            replaced["why"]
    if reason.startswith("superseded: "):
        return tr("replaced: {why}", why=tr(reason.removeprefix("superseded: "))), ""
    return tr(reason), ""


# How the memory pipeline words its history rows (memory/learn/pipeline.py, reconcile.py).
_PIPELINE_REASON = re.compile(r"^(?P<source>explicit|stated|inferred) \((?P<origin>[^)]*)\)(?:; replaces (?P<replaces>.+))?$")
_REPLACED_BY = re.compile(r"^superseded by (?P<id>m_\w+): (?P<why>.*)$")


def _entry_html(e: HistoryEntry, texts: dict[str, str]) -> str:
    when = f"{date_words(e.at)} {e.at[11:16]}"
    words, details = reason_words(e.reason, texts)
    head = f"<span style='color:#6b7280'>{when}</span> <b>{tr(e.action)}</b> — {html.escape(words)}"
    if details:
        head += f"<br><small style='color:#9ca3af'>{html.escape(tr('Details'))}: {html.escape(details)}</small>"
    if e.before is None or e.after is None:
        return head
    rows = []
    for name, label in _FIELD_NAMES.items():
        before, after = e.before.get(name), e.after.get(name)
        if before == after:
            continue
        new = html.escape(field_words(name, after, texts))
        if name == "superseded_by" or before is None:
            rows.append(f"{tr(label)}: {new}")
        else:
            rows.append(f"{tr(label)}: <s>{html.escape(field_words(name, before, texts))}</s> → {new}")
    return head + ("<br>" + "<br>".join(rows) if rows else "")


class HistoryDialog(QDialog):
    """A memory's history: what it replaced, what replaced it, and every edit."""

    def __init__(self, steps: list[HistoryStep], focus_id: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("History of a memory"))
        self.resize(560, 420)
        self.view = QTextBrowser(self)
        self.view.setObjectName("historyView")
        self.view.setHtml(history_html(steps, focus_id))
        note = QLabel(tr("Oldest first. Forgetting a memory erases this history too."), self)
        note.setObjectName("dialogNote")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
