"""How long the main thread stalls while a reply streams and extraction runs (target: no stall over 50 ms).

A QTimer beats every 10 ms on the main thread; the gaps between beats, minus the interval, are the
stalls a user would feel as a frozen window. The real MainWindow runs on the bundled models, in a
fresh profile, offscreen unless QT_QPA_PLATFORM says otherwise.

    .venv/bin/python scripts/bench_ui_stall.py [--turns 3] [--history 40] [--reply-tokens 384]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.clock import Clock  # noqa: E402
from app.settings import Settings  # noqa: E402
from ui.harness import settle, throwaway_window, wait_for  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402

HEARTBEAT_MS = 10
PROMPTS = [
    "Remember that my name is Ada and that I live in Lyon. Tell me a story about a lighthouse keeper.",
    "I love hiking in the Alps. Can you describe a perfect autumn hike, step by step?",
    "My sister Lily just had a baby. Write a short, warm letter I could send her.",
]


class Heartbeat:
    """Records the time of every beat of a 10 ms timer on the main thread."""

    def __init__(self):
        self.clock = QElapsedTimer()
        self.beats: list[int] = []
        self.timer = QTimer(interval=HEARTBEAT_MS)
        self.timer.timeout.connect(lambda: self.beats.append(self.clock.nsecsElapsed()))

    def start(self) -> None:
        self.beats.clear()
        self.clock.start()
        self.timer.start()

    def stop(self) -> list[float]:
        """The gaps between beats in ms."""
        self.timer.stop()
        return [(b - a) / 1e6 for a, b in zip(self.beats, self.beats[1:])]


def seed_history(window: MainWindow, pairs: int) -> None:
    """A long conversation already on screen, so layout work is realistic."""
    t = window.desk.c.transcript
    session = t.create_session("A long earlier conversation")
    for i in range(pairs):
        t.add_message(session.id, "user", f"Question number {i}: what do you think about **tea**?")
        t.add_message(session.id, "assistant", "Tea is lovely.\n\n- green\n- black\n- oolong\n\n" * 2)
    window.choose_session(session.id)
    settle(1500)


def run_turn(window: MainWindow, text: str) -> dict:
    """Send one message; time the reply and the extraction after it."""
    first = {}
    window.controller.replyText.connect(lambda _t: first.setdefault("at", time.perf_counter()))
    started = time.perf_counter()
    window.send(text)
    wait_for(window.controller.replyFinished)
    replied = time.perf_counter()
    if window.controller.learning:
        wait_for(window.controller.learned)
    learned = time.perf_counter()
    window.controller.replyText.disconnect()
    window.controller.replyText.connect(window.chat_view.append_reply)
    return {"reply_s": replied - started, "first_text_s": first.get("at", replied) - started,
            "chars": len(window.chat_view.bubbles[-1].text), "extraction_s": learned - replied}


def report(gaps: list[float], turns: list[dict]) -> None:
    stalls = [max(0.0, g - HEARTBEAT_MS) for g in gaps]
    ordered = sorted(stalls)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    for i, t in enumerate(turns, 1):
        print(f"turn {i}: reply {t['reply_s']:.2f} s (first text after {t['first_text_s']:.2f} s, "
              f"{t['chars']} chars), extraction after it {t['extraction_s']:.2f} s")
    print(f"heartbeats: {len(gaps)} gaps at {HEARTBEAT_MS} ms; median gap {statistics.median(gaps):.1f} ms")
    print(f"main-thread stall: max {max(stalls):.1f} ms, p99 {p99:.1f} ms, "
          f"stalls over 50 ms: {sum(s > 50 for s in stalls)}")
    print(f"total reply time: {sum(t['reply_s'] for t in turns):.2f} s for {len(turns)} replies; "
          f"target (no stall over 50 ms): {'met' if max(stalls) <= 50 else 'NOT met'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--history", type=int, default=10, help="earlier message pairs on screen")
    parser.add_argument("--reply-tokens", type=int, default=384)
    parser.add_argument("--model-extraction", choices=("auto", "on", "off"), default="auto")
    args = parser.parse_args()
    settings = Settings(max_reply_tokens=args.reply_tokens, model_extraction=args.model_extraction)
    window = throwaway_window(settings, Clock(None), (1180, 760), "companion-bench-")
    window.dock.show()
    if args.history:
        seed_history(window, args.history)
    beat = Heartbeat()
    beat.start()
    turns = [run_turn(window, PROMPTS[i % len(PROMPTS)]) for i in range(args.turns)]
    gaps = beat.stop()
    print(f"model: {window.model_name}; platform: {QApplication.platformName()}; history: {args.history} pairs; "
          f"memories now: {window.panel.model.rowCount()}")
    report(gaps, turns)
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
