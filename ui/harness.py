"""Driving the real window from scripts (benchmark, screenshots): a throwaway profile and the real event loop."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from app.clock import Clock
from app.settings import Settings
from ui.main_window import MainWindow
from ui.style import apply_style


def wait_for(signal, timeout_ms: int = 600_000) -> list:
    """Run the real event loop until signal fires (or the timeout); return the signal's arguments."""
    loop, got = QEventLoop(), []
    signal.connect(lambda *args: (got.extend(args), loop.quit()))
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    return got


def settle(ms: int = 400) -> None:
    """Let the event loop run (layouts, queued results) for a moment."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def throwaway_window(settings: Settings, clock: Clock, size: tuple[int, int], prefix: str) -> MainWindow:
    """A shown MainWindow on a new profile in a temp folder, opened and with its chat model loaded."""
    home = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ.setdefault("COMPANION_DB_KEY", "throwaway profile passphrase")  # no keyring needed
    settings.save(home)
    app = QApplication.instance() or QApplication([])
    apply_style(app)
    window = MainWindow(home, clock)
    window.resize(*size)
    window.show()
    window.open_profile()
    wait_for(window.opened)
    if not window.model_name:
        wait_for(window.controller.modelReady)
    return window
