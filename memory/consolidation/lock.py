"""The consolidation lock: one file whose mtime says when consolidation last ran and whose content is the holder's PID.

The lock counts as held while its mtime is under an hour old and the PID in it is alive. Anyone else
may reclaim it: write their own PID, wait a moment, read it back. When two processes reclaim at once,
the last writer wins and the other sees a foreign PID and backs off. A crashed holder leaves a dead PID
behind, so the lock is reclaimable at once; a finished run leaves the file empty.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

LOCK_FILE = "consolidate.lock"
HELD_FOR = timedelta(hours=1)
# Long enough that a rival who read the file before our write has written by then (a few syscalls),
# short enough not to matter for a job that runs once a day.
VERIFY_DELAY = 0.05


@dataclass(frozen=True)
class LockState:
    """What the lock file says: when consolidation last ran and who holds it (None if nobody wrote a PID)."""

    last_run: datetime | None
    pid: int | None


def pid_alive(pid: int) -> bool:
    """True if a process with this id exists (a zombie counts as dead)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        return _windows_pid_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _windows_pid_alive(pid: int) -> bool:  # pragma: no cover - exercised on Windows only
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]  # Windows only
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        return bool(kernel32.GetExitCodeProcess(handle, ctypes.byref(code))) and code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


class RunLock:
    """The lock file of one profile (`<home>/consolidate.lock`)."""

    def __init__(self, path: Path):
        self.path = path
        self._previous: datetime | None = None
        self._owned = False

    def state(self) -> LockState:
        """Read the file; a missing file means consolidation never ran."""
        try:
            mtime = self.path.stat().st_mtime
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except FileNotFoundError:
            return LockState(None, None)
        return LockState(datetime.fromtimestamp(mtime), int(text) if text.isdigit() else None)

    def holder(self, now: datetime) -> int | None:
        """The PID holding the lock right now, or None if it is free or reclaimable."""
        st = self.state()
        if st.pid is None or st.last_run is None:
            return None
        fresh = now - st.last_run < HELD_FOR
        return st.pid if fresh and pid_alive(st.pid) else None

    def acquire(self, now: datetime) -> bool:
        """Take the lock (reclaiming a stale one); False if someone else holds it or won the race."""
        if self.holder(now) is not None:
            return False
        self._previous = self.state().last_run
        self._write(str(os.getpid()), now)
        time.sleep(VERIFY_DELAY)
        self._owned = self.state().pid == os.getpid()
        return self._owned

    def release(self, now: datetime, completed: bool = True) -> None:
        """Give the lock up; mtime becomes now after a completed run, or goes back to the previous run otherwise."""
        if not self._owned:
            return
        self._owned = False
        if self.state().pid != os.getpid():  # reclaimed by someone else meanwhile: theirs now
            return
        if completed:
            self._write("", now)
        elif self._previous is not None:
            self._write("", self._previous)
        else:
            self.path.unlink(missing_ok=True)

    def _write(self, text: str, stamp: datetime) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "w", encoding="ascii") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        # The app clock, not the wall clock, says when the run happened (it may be fixed by --today).
        ts = stamp.timestamp()
        os.utime(self.path, (ts, ts))
