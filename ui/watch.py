"""Noticing writes made by other processes (`companion say`, `companion memory add`) while the window is open."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from ui.workers import QtWorker

POLL_MS = 1500


class DatabaseWatcher(QObject):
    """Polls SQLite's `PRAGMA data_version` on the database worker; it changes only when another connection commits.

    Signals:
        changed(): another process wrote to the database since the last poll.
    """

    changed = Signal()

    def __init__(self, worker: QtWorker, parent: QObject | None = None, interval_ms: int = POLL_MS):
        super().__init__(parent)
        self.worker = worker
        self._read: Callable[[], int] | None = None
        self._version: int | None = None
        self._polling = False
        self.timer = QTimer(self, interval=interval_ms)
        self.timer.timeout.connect(self.poll)

    def start(self, read_version: Callable[[], int]) -> None:
        """Begin watching; read_version runs on the worker and returns the current data_version."""
        self._read = read_version
        self._version = None
        self.timer.start()
        self.poll()

    def stop(self) -> None:
        """Stop watching (closing); callable from any thread."""
        self._read = None
        if QThread.currentThread() is self.thread():  # a timer is stopped only by its own thread
            self.timer.stop()

    def poll(self) -> None:
        """Ask for the version once (skipped while the previous ask is still queued behind other work)."""
        if self._read is None or self._polling:
            return
        self._polling = True
        self.worker.run(self._read, self._seen, lambda _exc: setattr(self, "_polling", False))

    def _seen(self, version: int) -> None:
        self._polling = False
        if self._read is None:
            return
        before, self._version = self._version, version
        if before is not None and version != before:
            self.changed.emit()
