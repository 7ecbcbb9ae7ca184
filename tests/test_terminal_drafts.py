"""The terminal chat works on a paused draft as the window does (issue 35): the line `input()` is reading is seen
while it waits (readline), and once typing pauses the conversation, the note the draft brings and the draft are
evaluated, so Enter evaluates what changed. The last test types into a real `companion chat` on a pseudo-terminal
(real SmolLM2, a real encrypted profile); a real turn after a paused draft the terminal saw is in
tests/test_evaluate_ahead.py."""
from __future__ import annotations

import os
import pty
import re
import select
import sys
import time
from pathlib import Path

import pytest

from app.cli.chat import line_buffer, watch_drafts

CLI = Path(sys.executable).with_name("companion")


def _typed(timeline: list[tuple[float, str]]):
    """A line being typed: what it holds at each moment since the first read."""
    start: list[float] = []

    def read() -> str:
        if not start:
            start.append(time.monotonic())
        now = time.monotonic() - start[0]
        return [text for at, text in timeline if at <= now][-1]
    return read


def test_each_pause_in_typing_is_worked_on_once_and_told_when_the_draft_changes():
    read = _typed([(0, ""), (0.05, "I am"), (0.1, "I am planning"), (0.6, "I am planning a trip"), (1.4, "")])
    seen: list[tuple[str, bool]] = []
    end = time.monotonic() + 1.8

    def on_pause(text, changed):
        seen.append((text, changed()))
    watch_drafts(read, on_pause, lambda: time.monotonic() > end, pause=0.3, poll=0.02)
    assert seen == [("I am planning", False), ("I am planning a trip", False)]


def test_work_on_a_draft_stops_once_the_line_changes():
    read = _typed([(0, "hello th"), (0.5, "hello there")])
    stopped_after: list[float] = []
    end = time.monotonic() + 0.8

    def on_pause(text, changed):
        begun = time.monotonic()
        while not changed():
            time.sleep(0.01)
        stopped_after.append(time.monotonic() - begun)
    watch_drafts(read, on_pause, lambda: time.monotonic() > end, pause=0.2, poll=0.02)
    assert stopped_after and stopped_after[0] < 0.5


def _read_until(fd: int, pattern: str, seen: list[str], timeout: float = 90.0, after: int = 0) -> re.Match[str]:
    """Read the terminal until `pattern` shows (after the first `after` characters), keeping all it showed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = re.compile(pattern).search("".join(seen), after)
        if found:
            return found
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen.append(os.read(fd, 4096).decode("utf-8", "replace"))
            except OSError:
                break
    raise AssertionError(f"{pattern!r} never came; the terminal showed:\n{''.join(seen)[-3000:]}")


@pytest.mark.skipif(line_buffer() is None, reason="this Python has no readline")
def test_typing_into_companion_chat_a_paused_line_is_evaluated_before_enter(companion_env):
    os.environ["COMPANION_LOG"] = "INFO"
    try:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the real command on a terminal
            os.execv(str(CLI), [str(CLI), "--today", "2026-11-29", "chat"])
        seen: list[str] = []
        _read_until(fd, r"you> ", seen)
        os.write(fd, "I am planning a trip to Lisbon with my sister".encode())
        _read_until(fd, r"paused draft was evaluated ahead", seen)
        os.write(fd, b"\r")
        evaluated = int(_read_until(fd, r"prompt tokens after Enter: (\d+) evaluated", seen).group(1))
        assert evaluated <= 2, "".join(seen)[-2000:]
        after = len("".join(seen))
        _read_until(fd, r"you> ", seen, after=after)
        os.write(fd, b"/quit\r")
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        os.environ.pop("COMPANION_LOG", None)
