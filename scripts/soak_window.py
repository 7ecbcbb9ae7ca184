"""Soak the real window: replies stream from the bundled model in a loop while the memory panel is edited.

A crash test for the Qt binding, to run before changing the PySide6 pin (docs/pyside6.md has the
results per version): the real MainWindow on a throwaway profile,
offscreen unless QT_QPA_PLATFORM says otherwise. One timer keeps a reply streaming at all times;
another drives the memory panel through its own model and actions, one step at a time: add (the
service's hand-added memory, then a panel refresh), an inline edit of a cell (the table model's
setData, as a double-click edit does), pin, turn off, forget (the confirmation answered yes).
Every 30 s a progress line gives the counts and the reference counts of None and True, which fall
steadily when the binding loses references to them. Exits 0 only if the time ran out with replies
and edits done and no Python exception anywhere; a binding defect usually aborts the process instead.

    .venv/bin/python scripts/soak_window.py [--minutes 10]

To try another PySide6 without touching .venv, install it into a folder and put it first:
    .venv/bin/pip install --no-deps --target /tmp/pyside-6.9.3 PySide6-Essentials==6.9.3 shiboken6==6.9.3
    PYTHONPATH=/tmp/pyside-6.9.3 .venv/bin/python scripts/soak_window.py
"""
from __future__ import annotations

import argparse
import faulthandler
import itertools
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
faulthandler.enable()  # a fatal error in the binding prints the Python stack of every thread

import PySide6  # noqa: E402
import shiboken6  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.clock import Clock  # noqa: E402
from app.settings import Settings  # noqa: E402
from ui import ask  # noqa: E402
from ui.harness import settle, throwaway_window, wait_for  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402
from ui.memory_model import FIELDS, ROLE_EDIT  # noqa: E402

PROMPTS = [
    "Remember that my name is Ada and that I live in Lyon. Tell me about your day.",
    "I love hiking in the Alps. What should I pack for a day hike?",
    "我妹妹刚生了一个宝宝，帮我写一句祝福的话。",
    "My favourite drink is green tea. What goes well with it?",
    "我下周三有数学考试，有点紧张。",
]
STEPS = ("add", "edit", "pin", "disable", "forget")
PROGRESS_S = 30
STUCK_S = 60  # a panel step that has not come back by then is counted as stuck and skipped


def counts_of_singletons() -> str:
    return f"refcount None {sys.getrefcount(None)}, True {sys.getrefcount(True)}"


class Soak:
    """Keeps a reply streaming and the panel busy until the deadline, counting what was done."""

    def __init__(self, window: MainWindow, minutes: float, edit_ms: int):
        self.window, self.panel = window, window.panel
        self.deadline = time.monotonic() + minutes * 60
        self.started = time.monotonic()
        self.prompts = itertools.cycle(PROMPTS)
        self.steps = itertools.cycle(STEPS)
        self.counts = {"replies": 0, "reply_failures": 0, "learned": 0, "edits": 0, "edit_errors": 0, "stuck": 0}
        self.counts.update({step: 0 for step in STEPS})
        self.errors: list[str] = []
        self.pending: tuple[str, float] | None = None  # the panel step in flight and when it began
        self.serial = 0
        c = window.controller
        c.replyFinished.connect(lambda *_: self._count("replies"))
        c.replyFailed.connect(lambda message: self._count("reply_failures", message))
        c.learned.connect(lambda _r: self._count("learned"))
        self.panel.memoriesChanged.connect(self._step_done)
        self.panel.errorShown.connect(self._step_failed)
        window.db_worker.failed.connect(lambda exc: self.errors.append(f"db worker: {exc!r}"))
        window.model_worker.failed.connect(lambda exc: self.errors.append(f"model worker: {exc!r}"))
        self.reply_timer = QTimer(interval=200)
        self.reply_timer.timeout.connect(self._next_reply)
        self.edit_timer = QTimer(interval=edit_ms)
        self.edit_timer.timeout.connect(self._next_step)
        self.progress_timer = QTimer(interval=PROGRESS_S * 1000)
        self.progress_timer.timeout.connect(self.progress)

    def _count(self, name: str, message: str | None = None) -> None:
        self.counts[name] += 1
        if message:
            self.errors.append(f"reply failed: {message}")

    # -- replies -------------------------------------------------------------------------------
    def _next_reply(self) -> None:
        if not self.window.controller.replying:
            self.window.send(next(self.prompts))

    # -- panel steps ---------------------------------------------------------------------------
    def _step_done(self) -> None:
        if self.pending is not None:
            self.counts["edits"] += 1
            self.counts[self.pending[0]] += 1
            self.pending = None

    def _step_failed(self, message: str) -> None:
        self.counts["edit_errors"] += 1
        self.errors.append(f"panel: {message}")
        self.pending = None

    def _active(self):
        return [m for m in self.panel.model.memories() if m.status == "active"]

    def _next_step(self) -> None:
        if self.pending is not None:
            if time.monotonic() - self.pending[1] > STUCK_S:
                self.counts["stuck"] += 1
                self.pending = None
            return
        step = next(self.steps)
        self.serial += 1
        active = self._active()
        if step == "add" or not active:
            step = "add"
            self._add(f"Soak note {self.serial}: likes the colour number {self.serial % 97}")
            return
        target = active[self.serial % len(active)]
        self.pending = (step, time.monotonic())
        if step == "edit":
            row = self.panel.model.row_of(target.id)
            index = self.panel.model.index(row, FIELDS.index("content"))
            if not self.panel.model.setData(index, f"{target.content[:60]} (edited {self.serial})", ROLE_EDIT):
                self.pending = None
            return
        self.panel.reveal(target.id)
        if self.panel.selected_ids() != [target.id]:
            self.pending = None
            return
        if step == "pin":
            self.panel.toggle_pin()
        elif step == "disable":
            self.panel.toggle_disabled()
        else:
            self.panel.forget_selected()

    def _add(self, text: str) -> None:
        """The CLI's `memory add`, then the panel reads again (as it does after a change from elsewhere)."""
        desk = self.window.desk
        self.pending = ("add", time.monotonic())

        def added(_m) -> None:
            self.panel.refresh()
            self.panel.memoriesChanged.emit()
        self.window.db_worker.run(lambda: desk.service.add(text), added,
                                  lambda exc: self._step_failed(repr(exc)))

    # -- running -------------------------------------------------------------------------------
    def progress(self) -> None:
        elapsed = time.monotonic() - self.started
        print(f"[{elapsed / 60:5.1f} min] replies {self.counts['replies']}, edits {self.counts['edits']} "
              f"({', '.join(f'{s} {self.counts[s]}' for s in STEPS)}), memories {self.panel.model.rowCount()}; "
              f"{counts_of_singletons()}", flush=True)

    def run(self) -> None:
        for timer in (self.reply_timer, self.edit_timer, self.progress_timer):
            timer.start()
        self._next_reply()
        while time.monotonic() < self.deadline:
            settle(1000)
        for timer in (self.reply_timer, self.edit_timer, self.progress_timer):
            timer.stop()
        self.window.controller.stop()
        if self.window.controller.replying:
            wait_for(self.window.controller.replyFinished, 120_000)
        settle(2000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--reply-tokens", type=int, default=64, help="short replies: more of them per minute")
    parser.add_argument("--edit-ms", type=int, default=250, help="how often a panel step is started")
    args = parser.parse_args()
    print(f"PySide6 {PySide6.__version__} (shiboken6 {shiboken6.__version__}) from {Path(PySide6.__file__).parent}; "
          f"Python {sys.version.split()[0]}; {counts_of_singletons()}",
          flush=True)
    exceptions: list[str] = []

    def hook(kind, value, tb) -> None:  # an exception in a slot: PySide prints it and carries on
        exceptions.append("".join(traceback.format_exception(kind, value, tb)))
        sys.__excepthook__(kind, value, tb)
    sys.excepthook = hook
    ask.confirm = lambda *_args, **_kw: True  # "Forget …?" answered yes without a modal box
    window = throwaway_window(Settings(max_reply_tokens=args.reply_tokens), Clock(None), (1180, 760),
                              "companion-soak-")
    window.dock.show()
    print(f"model {window.model_name}; platform {QApplication.platformName()}; soaking {args.minutes:g} min",
          flush=True)
    soak = Soak(window, args.minutes, args.edit_ms)
    soak.run()
    soak.progress()
    window.shutdown()
    counts, problems = soak.counts, soak.errors + exceptions
    print(f"done: PySide6 {PySide6.__version__}, {args.minutes:g} min: "
          f"{counts['replies']} replies ({counts['reply_failures']} failed), {counts['learned']} extractions, "
          f"{counts['edits']} panel edits ({', '.join(f'{s} {counts[s]}' for s in STEPS)}), "
          f"{counts['edit_errors']} refused, {counts['stuck']} stuck, {len(exceptions)} exceptions")
    for problem in problems[:20]:
        print("problem:", problem)
    ok = counts["replies"] > 0 and counts["edits"] > 0 and not exceptions and not counts["reply_failures"]
    print("RESULT:", "PASS" if ok else "FAIL", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
