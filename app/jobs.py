"""A single worker thread with a priority queue: the one owner of a non-thread-safe resource.

The chat model runs on one such worker (chat before extraction, so a waiting chat request is served
before queued extraction work); database writes and embedding run on another.
"""
from __future__ import annotations

import itertools
import logging
import queue
import threading
from concurrent.futures import Future
from typing import Any, Callable

log = logging.getLogger(__name__)
CHAT, SOON, BACKGROUND = 0, 5, 10  # SOON: small work a chat request may need (a typed draft's vectors)


class PriorityWorker:
    """Runs submitted callables one at a time on its own thread, lowest priority number first."""

    def __init__(self, name: str):
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._order = itertools.count()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[[], Any], priority: int = BACKGROUND) -> Future:
        """Queue fn; the Future carries its result or exception."""
        future: Future = Future()
        if self._closed:
            future.set_exception(RuntimeError("worker is shut down"))
            return future
        self._queue.put((priority, next(self._order), fn, future))
        return future

    def urgent_waiting(self) -> bool:
        """True if a job more urgent than background work is queued (background jobs can yield to it)."""
        with self._queue.mutex:
            return any(item[0] < BACKGROUND for item in self._queue.queue)

    def is_worker_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def _loop(self) -> None:
        while True:
            priority, _, fn, future = self._queue.get()
            if fn is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # delivered to whoever waits on the future
                future.set_exception(exc)

    def shutdown(self, wait: bool = True, timeout: float | None = 30.0) -> None:
        """Finish queued work, then stop the thread."""
        if self._closed:
            return
        self._closed = True
        self._queue.put((1 << 30, next(self._order), None, None))
        if wait:
            self._thread.join(timeout)
