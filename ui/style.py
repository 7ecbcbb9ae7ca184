"""The look: the stylesheet and SVG icons from assets/."""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from assets import ASSETS_DIR


@lru_cache(maxsize=None)
def icon(name: str) -> QIcon:
    """An icon from assets/icons/<name>.svg."""
    return QIcon(str(ASSETS_DIR / "icons" / f"{name}.svg"))


def apply_style(app: QApplication) -> None:
    """Use Companion's stylesheet and icon for the whole application."""
    app.setStyle("Fusion")
    sheet = (ASSETS_DIR / "style.qss").read_text(encoding="utf-8")
    app.setStyleSheet(sheet.replace("@ICONS@", (ASSETS_DIR / "icons").as_posix()))
    app.setWindowIcon(icon("app"))
