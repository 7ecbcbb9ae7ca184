"""Downloading one model file: resume into a `.part`, retry with back-off, verify, then move into place.

Plain urllib with its default SSL context, so certificates are always verified. A file is only
ever renamed to its final name after its SHA-256 (or, for a small non-LFS file on Hugging Face,
its git blob id) matched; a mismatch deletes the `.part`, so nothing unverified is left to load.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable
from urllib.parse import urlsplit

from models.errors import ModelError
from models.resolve import human_size

USER_AGENT = "companion-model-downloader/1"
_CHUNK = 256 * 1024
_MAX_BACKOFF_S = 30.0
_RETRYABLE_STATUS = {408, 425, 429, 500, 502, 503, 504}
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")

Cancel = threading.Event | Callable[[], bool] | None


@dataclass(frozen=True)
class Expected:
    """What a downloaded file must be: its digest (sha256, or git-sha1 for a git blob) and size."""

    algorithm: str  # "sha256" | "git-sha1"
    digest: str
    size: int | None
    source: str  # where the digest came from: "the catalog", or the metadata url (", pinned" once reused)

    def matches(self, path: Path) -> bool:
        """Whether the file at `path` has this digest (and size, when known)."""
        size = path.stat().st_size
        if self.size is not None and size != self.size:
            return False
        if self.algorithm == "git-sha1":
            digest = hashlib.sha1(f"blob {size}\0".encode())
        else:
            digest = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
        return digest.hexdigest() == self.digest


@dataclass(frozen=True)
class Progress:
    """One progress report: bytes done out of total, current speed and time left."""

    file: str
    done: int
    total: int | None
    bytes_per_s: float
    eta_s: float | None


@dataclass
class DownloadPolicy:
    """How hard to try: read timeout (a stall), retries after transient failures, back-off base."""

    timeout_s: float = 30.0
    retries: int = 5
    backoff_s: float = 1.0
    disk_usage: Callable[[Path], Any] = shutil.disk_usage


class DownloadCancelled(ModelError):
    """The user stopped the download; the `.part` stays so a later download resumes."""


class Offline(ModelError):
    """The model host cannot be resolved or connected to: the computer is offline, or the host (mirror) is down."""

    code = "offline"


def offline_message(host: str) -> str:
    """The one sentence for a host that cannot be reached (no errno: the cause is the network, said plainly)."""
    return (f"Cannot connect to {host}: this computer may be offline; check the network connection or the mirror "
            "setting (\"model_mirror\" in settings.json, or COMPANION_MODEL_MIRROR) and try again.")


def check_reachable(url: str, timeout_s: float = 5.0) -> None:
    """Offline unless the host of `url` resolves and accepts a connection within `timeout_s`: asked before a
    download, so no network is said at once instead of after every retry or as a missing checksum."""
    split = urlsplit(url)
    host = split.hostname or ""
    port = split.port or (443 if split.scheme == "https" else 80)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except (OSError, UnicodeError):
        raise Offline(offline_message(split.netloc or host)) from None


class _Transient(Exception):
    """A failure worth retrying (5xx, connection dropped, stall)."""


class _Restart(Exception):
    """The server ignored or refused our Range: start the file again from byte 0."""


def is_cancelled(cancel: Cancel) -> bool:
    """Whether `cancel` (an Event or a callable) says stop."""
    if cancel is None:
        return False
    return cancel.is_set() if isinstance(cancel, threading.Event) else bool(cancel())


def part_path(dest: Path) -> Path:
    """Where the partial download of `dest` is kept."""
    return dest.with_name(dest.name + ".part")


def check_disk(folder: Path, needed: int, policy: DownloadPolicy) -> None:
    """ModelError unless `folder` (or its nearest existing parent) has room for `needed` more bytes."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = policy.disk_usage(probe).free
    if needed > free:
        raise ModelError(f"Not enough free disk space: the model needs {human_size(needed)} more "
                         f"but {folder} has {human_size(free)} free. Free some space and try again.")


def download(url: str, dest: Path, expected: Expected, policy: DownloadPolicy,
             progress: Callable[[Progress], None] | None = None, cancel: Cancel = None) -> Path:
    """Download `url` to `dest`, resuming a `.part`, verifying `expected` before the final rename."""
    part = part_path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    failures, restarts, last_error = 0, 0, ""
    meter = _Meter(dest.name, progress)
    while True:
        if is_cancelled(cancel):
            raise DownloadCancelled(f"The download of {dest.name} was cancelled.")
        before = _size(part)
        try:
            if expected.size is None or before < expected.size:
                _fetch_into(url, part, expected, policy, meter, cancel)
            break
        except _Restart:
            part.unlink(missing_ok=True)
            restarts += 1
            if restarts > 2:
                raise ModelError(f"The server for {dest.name} keeps answering ranges it was not asked "
                                 "for. Try another mirror.") from None
            continue
        except _Transient as e:
            last_error = str(e)
            failures = 0 if _size(part) > before else failures + 1
            if failures > policy.retries:
                raise ModelError(f"The download of {dest.name} failed: {last_error} "
                                 f"(tried {policy.retries + 1} times). Try again later; it will resume.") from None
            _wait(min(_MAX_BACKOFF_S, policy.backoff_s * 2 ** max(0, failures - 1)), cancel)
    _verify_and_place(part, dest, expected)
    return dest


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _wait(seconds: float, cancel: Cancel) -> None:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if is_cancelled(cancel):
            return
        time.sleep(min(0.1, left))


def _open(url: str, offset: int, timeout: float) -> http.client.HTTPResponse:
    """The response for `url` from byte `offset`; raises _Transient or ModelError for HTTP failures."""
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    host = urlsplit(url).netloc
    try:
        return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout)
    except urllib.error.HTTPError as e:
        e.close()
        if e.code == 416 and offset:
            raise _Restart() from None
        if e.code in _RETRYABLE_STATUS:
            raise _Transient(f"{host} answered HTTP {e.code}") from None
        raise ModelError(f"The server {host} refused the model file {url} (HTTP {e.code}). "
                         "Check the catalog entry or the mirror setting.") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
        reason = getattr(e, "reason", e)
        if isinstance(reason, (socket.timeout, TimeoutError)):
            raise _Transient(f"{host} did not answer within {timeout:g} s") from None
        check_reachable(url, min(timeout, 5.0))  # no network: say so now, not after every retry
        raise _Transient(f"the connection to {host} failed") from None


def _start_offset(response: http.client.HTTPResponse, offset: int, expected: Expected) -> tuple[int, int | None]:
    """Where this response's body starts and the whole file's size, checking it against `expected`."""
    total: int | None = None
    if response.status == 206:
        match = _CONTENT_RANGE.match(response.headers.get("Content-Range", ""))
        if not match or int(match.group(1)) != offset:
            raise _Restart()
        total = None if match.group(3) == "*" else int(match.group(3))
        start = offset
    else:  # 200: a server that ignores Range sends the whole file again
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        start = 0
    if total is not None and expected.size is not None and total != expected.size:
        raise ModelError(f"The server's file is {total} bytes but {expected.size} were expected "
                         f"(from {expected.source}); it is not the model the catalog names.")
    return start, total if total is not None else expected.size


def _fetch_into(url: str, part: Path, expected: Expected, policy: DownloadPolicy,
                meter: _Meter, cancel: Cancel) -> None:
    """One request: append the body to `part` (or rewrite it when the server sent everything)."""
    offset = _size(part)
    with _open(url, offset, policy.timeout_s) as response, _CancelWatch(response, cancel):
        start, total = _start_offset(response, offset, expected)
        done = start
        meter.begin(done, total)
        with open(part, "r+b" if start and part.exists() else "wb") as out:
            out.seek(start)
            out.truncate()
            while chunk := _read(response, policy.timeout_s, cancel, part.stem):
                _write(out, chunk, part)
                done += len(chunk)
                if total is not None and done > total:
                    raise ModelError(f"The server sent more than the {total} bytes of {part.stem}.")
                meter.update(done)
                if is_cancelled(cancel):
                    raise DownloadCancelled(f"The download of {part.stem} was cancelled.")
            _write(out, b"", part, sync=True)
    if total is not None and done < total:
        raise _Transient(f"the connection closed after {done} of {total} bytes")


def _read(response: http.client.HTTPResponse, timeout_s: float, cancel: Cancel = None, name: str = "the model") -> bytes:
    """The next piece of the body; a stall or a dropped connection is worth a retry."""
    try:
        return response.read(_CHUNK)
    except (socket.timeout, TimeoutError):
        if is_cancelled(cancel):
            raise DownloadCancelled(f"The download of {name} was cancelled.") from None
        raise _Transient(f"the transfer stalled (no data for {timeout_s:g} s)") from None
    except (OSError, ValueError, AttributeError, http.client.HTTPException) as e:
        if is_cancelled(cancel):  # the watch shut the socket to end a read that was waiting
            raise DownloadCancelled(f"The download of {name} was cancelled.") from None
        raise _Transient(f"the connection dropped ({type(e).__name__})") from None


class _CancelWatch:
    """Shuts the response's socket as soon as `cancel` is set, so Cancel ends a read that is waiting on a
    stalled server at once instead of after the read timeout."""

    def __init__(self, response: http.client.HTTPResponse, cancel: Cancel) -> None:
        self._response, self._cancel = response, cancel
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="download-cancel-watch", daemon=True)

    def __enter__(self) -> _CancelWatch:
        if self._cancel is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()

    def _watch(self) -> None:
        while not self._done.wait(0.1):
            if is_cancelled(self._cancel):
                sock = getattr(getattr(self._response.fp, "raw", None), "_sock", None)
                try:
                    if sock is not None:
                        sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return


def _write(out: BinaryIO, data: bytes, part: Path, sync: bool = False) -> None:
    """Append to the partial file; a disk error is the user's to fix, not a reason to retry."""
    try:
        out.write(data)
        if sync:
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        raise ModelError(f"The download could not be written to {part} ({e.strerror or e}). "
                         "Free some disk space or check that the data folder is writable.") from None


def _verify_and_place(part: Path, dest: Path, expected: Expected) -> None:
    """Rename `part` to `dest` only if it matches `expected`; otherwise delete it and say so."""
    if not expected.matches(part):
        part.unlink(missing_ok=True)
        raise ModelError(f"The downloaded file {dest.name} does not match its checksum "
                         f"(from {expected.source}) and was deleted. Try again, or use another mirror.")
    os.replace(part, dest)


class _Meter:
    """Turns byte counts into Progress reports with a smoothed speed, at most ~10 per second."""

    def __init__(self, name: str, callback: Callable[[Progress], None] | None) -> None:
        self.name, self.callback = name, callback
        self.total: int | None = None
        self.speed = 0.0
        self._last_t = self._last_n = 0.0

    def begin(self, done: int, total: int | None) -> None:
        """A new response starts at `done` bytes."""
        self.total = total
        self._last_t, self._last_n = time.monotonic(), float(done)
        self._report(done)

    def update(self, done: int) -> None:
        """`done` bytes are now on disk."""
        now = time.monotonic()
        if now - self._last_t < 0.1 and done != self.total:
            return
        instant = (done - self._last_n) / max(now - self._last_t, 1e-6)
        self.speed = instant if not self.speed else 0.7 * self.speed + 0.3 * instant
        self._last_t, self._last_n = now, float(done)
        self._report(done)

    def _report(self, done: int) -> None:
        if self.callback is None:
            return
        eta = (self.total - done) / self.speed if self.total is not None and self.speed > 0 else None
        self.callback(Progress(self.name, done, self.total, self.speed, eta))
