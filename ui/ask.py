"""Questions the app asks the user (confirmations, file choices, a title), in one place tests can replace."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget

from ui.i18n import tr


def confirm(parent: QWidget, title: str, text: str, action: str) -> bool:
    """Ask before something that cannot be undone; True if the user chose `action`."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.NoButton, parent)
    go = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(cancel)
    box.exec()
    return box.clickedButton() is go


def text(parent: QWidget, title: str, label: str, current: str = "") -> str | None:
    """A line of text from the user, or None if they cancelled."""
    value, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, current)
    return value if ok and value.strip() else None


_last_folder: dict[str, Path] = {}


def start_folder() -> Path:
    """Where a file dialog opens: the folder used last for an export or import, else Documents, else home."""
    if "files" in _last_folder and _last_folder["files"].is_dir():
        return _last_folder["files"]
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


def _remember_folder(path: str) -> None:
    _last_folder["files"] = Path(path).parent


def export_path(parent: QWidget) -> tuple[Path, str] | None:
    """Where to export, and as 'json' or 'md' (None if cancelled)."""
    json_filter, md_filter = tr("Companion export (*.json)"), tr("Readable Markdown (*.md)")
    path, chosen = QFileDialog.getSaveFileName(
        parent, tr("Export memories — the file is not encrypted"), str(start_folder() / "companion-memories.json"),
        f"{json_filter};;{md_filter}")
    if not path:
        return None
    _remember_folder(path)
    fmt = "md" if chosen == md_filter or path.endswith(".md") else "json"
    if not Path(path).suffix:
        path += ".md" if fmt == "md" else ".json"
    return Path(path), fmt


def import_path(parent: QWidget) -> Path | None:
    """A Companion export file to import (None if cancelled)."""
    path, _ = QFileDialog.getOpenFileName(parent, tr("Import memories"), str(start_folder()),
                                          tr("Companion export (*.json)"))
    if path:
        _remember_folder(path)
    return Path(path) if path else None


def model_path(parent: QWidget, start: str) -> str | None:
    """A GGUF chat model file (None if cancelled)."""
    path, _ = QFileDialog.getOpenFileName(parent, tr("Choose a chat model"), start,
                                          tr("GGUF models (*.gguf);;All files (*)"))
    return path or None
