"""Asking for a passphrase when no system keyring can keep the database key."""
from __future__ import annotations

from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout,
                               QWidget)

from ui.i18n import tr

MIN_LENGTH = 8


class PassphraseDialog(QDialog):
    """Explains why a passphrase is needed and asks for one (twice for a new database)."""

    def __init__(self, reason: str, new_database: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.new_database = new_database
        self.setWindowTitle(tr("A passphrase for your memories"))
        self.setMinimumWidth(480)
        why = QLabel(reason, self)
        why.setWordWrap(True)
        what = QLabel(tr("Choose a passphrase to encrypt your memories. You will type it each time Companion "
                         "starts; without it nobody, including you, can open them.") if new_database else
                      tr("Type the passphrase you chose for your memories."), self)
        what.setWordWrap(True)
        what.setObjectName("dialogNote")
        self.passphrase = QLineEdit(self)
        self.passphrase.setObjectName("passphrase")
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.repeat = QLineEdit(self)
        self.repeat.setObjectName("passphraseRepeat")
        self.repeat.setEchoMode(QLineEdit.EchoMode.Password)
        show = QCheckBox(tr("Show"), self)
        show.toggled.connect(self._show)
        self.error = QLabel(self)
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        form = QFormLayout()
        form.addRow(tr("Passphrase"), self.passphrase)
        if new_database:
            form.addRow(tr("Again"), self.repeat)
        else:
            self.repeat.hide()
        form.addRow("", show)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("Open my memories"))
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for w in (why, what):
            layout.addWidget(w)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def value(self) -> str:
        """The passphrase typed."""
        return self.passphrase.text()

    def problem(self) -> str:
        """Why the typed passphrase cannot be used ('' if it can)."""
        text = self.passphrase.text()
        if not text:
            return tr("Type a passphrase.")
        if self.new_database and len(text) < MIN_LENGTH:
            return tr("Use at least {n} characters.", n=MIN_LENGTH)
        if self.new_database and text != self.repeat.text():
            return tr("The two passphrases differ.")
        return ""

    def show_error(self, message: str) -> None:
        """Say what was wrong with the last try."""
        self.error.setText(message)

    def _accept(self) -> None:
        problem = self.problem()
        if problem:
            self.show_error(problem)
            return
        self.accept()

    def _show(self, on: bool) -> None:
        mode = QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password
        self.passphrase.setEchoMode(mode)
        self.repeat.setEchoMode(mode)
