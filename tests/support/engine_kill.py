"""Kill a real engine process at a chosen point: after a request was sent to it and before it answered.

The engine is frozen (SIGSTOP) while idle, so it cannot read, let alone answer, what it is sent next. As soon
as a request is waiting unread on its stdin pipe it is killed (SIGKILL, as `kill -9`); the request it never
read is then read from the pipe and kept, so a test can say which request the engine died on.
"""
from __future__ import annotations

import fcntl
import json
import os
import signal
import struct
import termios
import threading
import time


class KillOnNextRequest:
    """Freeze engine `pid` now; kill it once a request waits for it. `request` is that request, when done."""

    def __init__(self, pid: int, timeout: float = 120.0):
        self.pid = pid
        self.request: dict | None = None
        self.killed = threading.Event()
        self._pipe = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)  # the engine's stdin, read side
        os.kill(pid, signal.SIGSTOP)
        self._thread = threading.Thread(target=self._watch, args=(timeout,), daemon=True, name="engine-killer")
        self._thread.start()

    def _waiting(self) -> int:
        return struct.unpack("i", fcntl.ioctl(self._pipe, termios.FIONREAD, struct.pack("i", 0)))[0]

    def _watch(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        try:
            while self._waiting() == 0:
                if time.monotonic() > deadline:
                    os.kill(self.pid, signal.SIGCONT)  # nothing came: give the engine back as it was
                    return
                time.sleep(0.005)
            os.kill(self.pid, signal.SIGKILL)
            time.sleep(0.05)  # the request may be written in more than one piece
            line = os.read(self._pipe, 1 << 20).split(b"\n")[0]
            self.request = json.loads(line)
            self.killed.set()
        finally:
            os.close(self._pipe)

    def wait(self, timeout: float = 120.0) -> dict:
        """The request the engine was killed on (AssertionError if it never came)."""
        self._thread.join(timeout)
        assert self.killed.is_set() and self.request is not None, "no request reached the frozen engine"
        return self.request
