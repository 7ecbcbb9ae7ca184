"""The Models page: the catalog's chat and embedding models, how each fits this computer, download, use, remove.

Every verb is `app.model_choice`'s, the same `companion models` uses. A download runs on its own thread
(`DownloadRun`) and reports through queued signals, so the window never waits for the network; Cancel or
closing the page stops it at the next piece, and the partial file is never used (the next download resumes it).
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QProgressBar,
                               QPushButton, QScrollArea, QVBoxLayout, QWidget)

from app.model_choice import Shelf, download_model, remove_model, shelf, use_model
from app.settings import Settings
from ui import ask
from ui.i18n import error_text, tr
from ui.model_texts import fit_text, language_names, progress_text, size_text


class DownloadRun(QObject):
    """One model download on its own thread; what happens arrives on the main thread as signals.

    Signals (each carries the run first):
        progressed(object, object): a `Progress` report (at most ~10 a second).
        finished(object, object): the downloaded path, or None when it was cancelled.
        failed(object, object): the exception that stopped it (a known error's sentence is shown).
    """

    progressed = Signal(object, object)
    finished = Signal(object, object)
    failed = Signal(object, object)

    def __init__(self, home: Path, settings: Settings, model_id: str, model_override: str | None):
        super().__init__()  # no parent: it outlives a closed page until its thread has ended
        self.home, self.model_id = home, model_id
        self.cancel = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(home, settings, model_override),
                                       name=f"companion-download-{model_id}", daemon=True)

    def start(self) -> None:
        """Start the thread; until it ends, no other download of this model starts."""
        _active[self.key] = self
        self.thread.start()

    @property
    def key(self) -> str:
        return f"{self.home}/{self.model_id}"

    def _run(self, home: Path, settings: Settings, model_override: str | None) -> None:
        try:
            path = download_model(home, settings, self.model_id, lambda p: self.progressed.emit(self, p),
                                  self.cancel, model_override)
        except Exception as exc:  # noqa: BLE001 (reported on the page, in one sentence)
            self.failed.emit(self, exc)
        else:
            self.finished.emit(self, path)


def still_stopping(home: Path, model_id: str) -> bool:
    """Whether a download of this model, cancelled from a page since closed, has not ended yet."""
    run = _active.get(f"{home}/{model_id}")
    return run is not None and run.thread.is_alive()


# The last download of each model, kept (not dropped by its thread) so the QObject is never deleted off the main thread.
_active: dict[str, DownloadRun] = {}


class ModelRow(QFrame):
    """One model: name and badges, size, languages, fit, its buttons, and its download's progress or error."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("modelRow")
        self.listing = None
        self.name = QLabel(self)
        self.name.setObjectName("modelName")
        self.name.setWordWrap(True)
        self.badges = QLabel(self)
        self.badges.setObjectName("modelBadges")
        self.details = QLabel(self)
        self.details.setObjectName("dialogNote")
        self.details.setWordWrap(True)
        self.fit = QLabel(self)
        self.fit.setObjectName("modelFit")
        self.download = QPushButton(self)
        self.cancel = QPushButton(self)
        self.use = QPushButton(self)
        self.remove = QPushButton(self)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("downloadBar")
        self.progress.setTextVisible(False)
        self.progress_text = QLabel(self)
        self.progress_text.setObjectName("dialogNote")
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        buttons.setSpacing(6)
        for button in (self.download, self.cancel, self.use, self.remove):
            buttons.addWidget(button)
        title = QHBoxLayout()
        title.addWidget(self.name, 1)
        title.addWidget(self.badges)
        grid = QGridLayout(self)
        grid.setContentsMargins(12, 10, 12, 10)
        grid.setVerticalSpacing(4)
        grid.addLayout(title, 0, 0, 1, 2)
        grid.addWidget(self.details, 1, 0)
        grid.addWidget(self.fit, 2, 0)
        grid.addLayout(buttons, 1, 1, 2, 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        grid.addWidget(self.progress, 3, 0, 1, 2)
        grid.addWidget(self.progress_text, 4, 0, 1, 2)
        grid.addWidget(self.note, 5, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        for widget in (self.cancel, self.progress, self.progress_text, self.note):
            widget.hide()
        self._note = None  # (render, kind): written again when the language changes

    def show_listing(self, listing, downloading: bool, other_busy: bool) -> None:
        """Show one catalog model's state; `downloading` when its download runs, `other_busy` when another's does."""
        self.listing = listing
        e = listing.entry
        self.name.setText(e.name)
        marks = [tr("Recommended") if listing.recommended else "", tr("In use") if listing.in_use else "",
                 tr("Built in") if e.builtin else (tr("Downloaded") if listing.installed else "")]
        self.badges.setText("  ·  ".join(m for m in marks if m))
        size = size_text(e.total_size) if e.total_size else tr("size known once the download starts")
        parts = [size, language_names(e.languages)]
        if e.ram_gb:
            parts.append(tr("needs about {gb} GB of memory", gb=f"{e.ram_gb:g}"))
        self.details.setText(" · ".join(parts))
        self.fit.setText(fit_text(listing.fit))
        self.fit.setProperty("fit", listing.fit.replace(" ", "_"))
        self.fit.style().unpolish(self.fit)
        self.fit.style().polish(self.fit)
        failed = self._note is not None and self._note[1] == "error"
        self.download.setText(tr("Try again") if failed else tr("Download"))
        self.cancel.setText(tr("Cancel"))
        self.use.setText(tr("Use this model"))
        self.remove.setText(tr("Remove"))
        self.download.setVisible(not listing.installed and not downloading)
        self.download.setEnabled(not other_busy)
        self.cancel.setVisible(downloading)
        self.use.setVisible(listing.installed and not listing.in_use)
        self.remove.setVisible(listing.installed and not e.builtin and not listing.in_use)
        self.progress.setVisible(downloading)
        self.progress_text.setVisible(downloading)
        if self._note is not None:
            self.say(*self._note)

    def start_progress(self) -> None:
        """A download starts: an empty bar that moves once the size is known."""
        self.say(None)
        self.progress.setRange(0, 0)
        self.progress_text.setText(tr("Starting the download…"))
        self.cancel.setEnabled(True)
        self.cancel.setText(tr("Cancel"))

    def show_progress(self, p) -> None:
        """One progress report."""
        if p.total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * p.done / p.total))
        self.progress_text.setText(progress_text(p))

    def stopping(self) -> None:
        """Cancel was pressed: the download stops at its next piece."""
        self.cancel.setEnabled(False)
        self.cancel.setText(tr("Stopping…"))

    def say(self, render, kind: str = "") -> None:
        """A note under the row ("error" in red, "done" in green; None hides it); `render` makes its text."""
        self._note = None if render is None else (render, kind)
        self.note.setVisible(render is not None)
        if render is not None:
            self.note.setText(render())
            self.note.setObjectName("error" if kind == "error" else "modelDone" if kind == "done" else "dialogNote")
            self.note.style().unpolish(self.note)
            self.note.style().polish(self.note)


TITLE_BAR = 40  # room left for the dialog's own title bar and frame, which the window manager adds


def fitting_height(parent: QWidget | None, wanted: int) -> int:
    """`wanted`, or less so the page fits inside the window it opens over (an 800x600 one) and on the screen."""
    limits = [wanted]
    if parent is not None:
        limits.append(parent.window().height() - TITLE_BAR)
    screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
    if screen is not None:
        limits.append(screen.availableGeometry().height() - TITLE_BAR)
    return max(420, min(limits))


class ModelsDialog(QDialog):
    """The Models page over one profile's live settings (the object the chat reads, saved on every choice).

    Signals:
        chatModelChosen(): another chat model was chosen; the window loads it.
        downloadProgressed(str, object): a model id and a `Progress` report of its download.
        downloadEnded(str, str): a model id and "done", "cancelled" or "failed".
    """

    chatModelChosen = Signal()
    downloadProgressed = Signal(str, object)
    downloadEnded = Signal(str, str)

    def __init__(self, home: Path, settings: Settings, model_override: str | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.home, self.settings, self.model_override = home, settings, model_override
        self.run: DownloadRun | None = None
        self.rows: dict[str, ModelRow] = {}
        self.setObjectName("modelsDialog")
        self.setMinimumSize(620, 420)
        self.resize(760, fitting_height(parent, 640))
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.machine = QLabel(self)
        self.machine.setObjectName("dialogNote")
        self.machine.setWordWrap(True)
        self.problem = QLabel(self)
        self.problem.setObjectName("error")
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.status = QLabel(self)
        self.status.setObjectName("dialogNote")
        self.status.setWordWrap(True)
        self._status = None
        self.canvas = QWidget(self)
        self.canvas.setObjectName("modelsCanvas")
        self.sections = QVBoxLayout(self.canvas)
        self.sections.setSpacing(8)
        self.headings = {kind: QLabel(self.canvas) for kind in ("chat", "embedding")}
        for heading in self.headings.values():
            heading.setObjectName("modelsHeading")
        scroll = self.scroll = QScrollArea(self)
        scroll.setObjectName("modelsScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.canvas)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.intro, self.machine, self.problem):
            layout.addWidget(widget)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.retranslate()

    # -- showing ---------------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Every text in the current language."""
        self.setWindowTitle(tr("Models"))
        self.intro.setText(tr("Models run on this computer, and nothing you say leaves it. A download is checked "
                              "against its SHA-256 before it is used, and picks up where it stopped."))
        self.headings["chat"].setText(tr("Chat models"))
        self.headings["embedding"].setText(tr("Embedding models (for finding memories by meaning)"))
        if self._status is not None:
            self.status.setText(self._status())
        self.refresh()

    def refresh(self) -> None:
        """Read the catalog and what is installed again, and show every model's state."""
        try:
            found: Shelf = shelf(self.home, self.settings, self.model_override)
        except Exception as exc:  # noqa: BLE001 (a damaged private catalog is said in one sentence)
            self.problem.setText(error_text(exc))
            self.problem.show()
            return
        self.problem.hide()
        m = found.machine
        ram = size_text(m.ram_bytes) if m.ram_bytes else "?"
        disk = size_text(m.free_disk_bytes) if m.free_disk_bytes is not None else "?"
        self.machine.setText(tr("This computer: {ram} of memory, {disk} of free disk space for models.",
                                ram=ram, disk=disk))
        if not self.rows:
            self._build_rows(found)
        busy = self.run.model_id if self.run is not None else None
        for listing in found.listings:
            row = self.rows.get(listing.entry.id)
            if row is not None:
                row.show_listing(listing, downloading=busy == listing.entry.id, other_busy=busy is not None)

    def _build_rows(self, found: Shelf) -> None:
        for kind in ("chat", "embedding"):
            self.sections.addWidget(self.headings[kind])
            for listing in sorted((i for i in found.listings if i.entry.kind == kind),
                                  key=lambda i: (not i.recommended, not i.in_use, not i.installed)):
                row = self.rows[listing.entry.id] = ModelRow(self.canvas)
                ident = listing.entry.id
                row.download.clicked.connect(lambda _=False, i=ident: self.download(i))
                row.cancel.clicked.connect(self.cancel_download)
                row.use.clicked.connect(lambda _=False, i=ident: self.use(i))
                row.remove.clicked.connect(lambda _=False, i=ident: self.remove(i))
                self.sections.addWidget(row)
        self.sections.addStretch(1)

    def _say(self, render) -> None:
        self._status = render
        self.status.setText(render() if render else "")

    # -- verbs -----------------------------------------------------------------------------------
    def download(self, model_id: str) -> None:
        """Start downloading one model on its own thread (one download at a time)."""
        if self.run is not None:
            return
        if still_stopping(self.home, model_id):
            self.rows[model_id].say(lambda: tr("The last download of this model is still stopping. Try again in a "
                                               "moment."), "error")
            return
        run = self.run = DownloadRun(self.home, self.settings, model_id, self.model_override)
        run.progressed.connect(self._progressed)
        run.finished.connect(self._finished)
        run.failed.connect(self._failed)
        row = self.rows[model_id]
        row.start_progress()
        row.cancel.show()
        row.cancel.setFocus()  # before Download hides: focus leaving the row scrolled the list to another one
        self.refresh()
        QTimer.singleShot(0, lambda: self.scroll.ensureWidgetVisible(row, 0, 8))  # once the row has grown
        run.start()

    def cancel_download(self) -> None:
        """Stop the download under way at its next piece; the partial file is kept for a later resume."""
        if self.run is not None:
            self.run.cancel.set()
            self.rows[self.run.model_id].stopping()

    def _progressed(self, run: DownloadRun, p) -> None:
        if run is self.run:
            self.rows[run.model_id].show_progress(p)
            self.downloadProgressed.emit(run.model_id, p)

    def _finished(self, run: DownloadRun, path) -> None:
        self._ended(run, "done" if path is not None else "cancelled")

    def _failed(self, run: DownloadRun, exc: BaseException) -> None:
        self._ended(run, "failed", exc)

    def _ended(self, run: DownloadRun, outcome: str, exc: BaseException | None = None) -> None:
        if run is not self.run:
            return
        self.run = None
        row = self.rows[run.model_id]
        if outcome == "done":
            row.say(lambda: tr("Downloaded and verified."), "done")
        elif outcome == "cancelled":
            row.say(lambda: tr("Download stopped. Downloading again continues where it stopped."))
        else:
            row.say(lambda e=exc: error_text(e), "error")
        self.refresh()
        self.downloadEnded.emit(run.model_id, outcome)

    def use(self, model_id: str) -> None:
        """Chat (or embed) with a downloaded model from now on, as `companion models use` does."""
        try:
            choice = use_model(self.home, self.settings, model_id, self.model_override)
        except Exception as exc:  # noqa: BLE001
            self.rows[model_id].say(lambda e=exc: error_text(e), "error")
            return
        name = choice.entry.name
        if choice.entry.kind == "embedding":
            self._say(lambda: tr("{name} will find memories from the next start; your memories are re-embedded "
                                 "then.", name=name))
        elif choice.overridden:
            self._say(lambda: tr("{name} is chosen, but --model or COMPANION_CHAT_MODEL names another file and "
                                 "wins while it is set.", name=name))
        else:
            self._say(lambda: tr("Now chatting with {name}. It is loading in the background.", name=name))
            self.chatModelChosen.emit()
        self.refresh()

    def remove(self, model_id: str) -> None:
        """Delete a downloaded model after asking."""
        row = self.rows[model_id]
        name = row.listing.entry.name if row.listing else model_id
        if not ask.confirm(self, tr("Remove model"), tr("Delete {name} from this computer? You can download it "
                                                        "again later.", name=name), tr("Remove")):
            return
        try:
            remove_model(self.home, self.settings, model_id, self.model_override)
        except Exception as exc:  # noqa: BLE001
            row.say(lambda e=exc: error_text(e), "error")
            return
        row.say(None)
        self.refresh()

    def done(self, result: int) -> None:
        """Closing the page stops a download under way (its partial file is kept, never used)."""
        if self.run is not None:
            self.run.cancel.set()
            self.run = None
        super().done(result)
