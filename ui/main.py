"""Starting the desktop app: the window first, then the profile and the model in the background."""
from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app.clock import Clock
from app.errors import UserError
from app.settings import Settings
from ui.i18n import set_language
from ui.main_window import MainWindow
from ui.style import apply_style


def initial_language(home: Path) -> str:
    """The language the settings ask for (the system's if they cannot be read yet)."""
    try:
        return set_language(Settings.load(home).language)
    except UserError:
        return set_language(None)


def run_app(home: Path, clock: Clock, model_override: str | None = None) -> int:
    """Open the window at once, open the profile behind it, run until the window is closed."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Companion")
    app.setOrganizationName("Companion")
    apply_style(app)
    initial_language(home)
    window = MainWindow(home, clock, model_override)
    window.show()
    window.open_profile()
    code = app.exec()
    window.shutdown()  # normally already done by closing the window; harmless then
    return code
