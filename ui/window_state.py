"""The window as the user left it (size, position, memory panel open), kept in the profile's folder."""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QMainWindow

log = logging.getLogger(__name__)
STATE_FILE = "window.json"


def restore(window: QMainWindow, home: Path) -> dict:
    """Put the window back where it was; returns the rest of what was saved ({} the first time)."""
    try:
        state = json.loads((home / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(state, dict):
        return {}
    geometry = state.get("geometry")
    if isinstance(geometry, str):
        window.restoreGeometry(QByteArray.fromBase64(geometry.encode("ascii")))
    return state


def save(window: QMainWindow, home: Path, **extra) -> None:
    """Remember the window's geometry and extra values (readable by the user only, like the rest of the folder)."""
    state = {"geometry": bytes(window.saveGeometry().toBase64()).decode("ascii"), **extra}
    path, tmp = home / STATE_FILE, home / (STATE_FILE + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(state, f)
        os.replace(tmp, path)
    except OSError as exc:  # losing the window size is no reason to stop closing
        log.warning("cannot save the window state to %s: %s", path, exc)
