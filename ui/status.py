"""The status indicator in the status bar: what the companion is doing, and which model it runs."""
from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

_DOT_COLOURS = {"ready": "#2e9d57", "busy": "#5b6cf0", "error": "#d9534f", "idle": "#b0b4bc"}


class StatusIndicator(QWidget):
    """A coloured dot, a sentence, and an indeterminate bar while something runs."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.dot = QLabel("●", self)
        self.dot.setObjectName("statusDot")
        self.text = QLabel(self)
        self.text.setObjectName("statusText")
        self.bar = QProgressBar(self)
        self.bar.setObjectName("busyBar")
        self.bar.setRange(0, 0)
        self.bar.setTextVisible(False)
        self.bar.hide()
        self.state = "idle"
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.setSpacing(4)
        layout.addWidget(self.dot)
        layout.addWidget(self.text)
        layout.addWidget(self.bar)
        layout.addStretch(1)

    def show_state(self, state: str, text: str) -> None:
        """state is 'ready', 'busy', 'error' or 'idle'; text says it in words."""
        self.state = state
        self.dot.setStyleSheet(f"color: {_DOT_COLOURS.get(state, _DOT_COLOURS['idle'])};")
        self.text.setText(text)
        self.text.setToolTip(text)
        self.bar.setVisible(state == "busy")
