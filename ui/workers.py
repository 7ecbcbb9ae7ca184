"""Qt side of the worker threads: submit a job to a PriorityWorker, get its outcome back on the main thread."""
from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from app.jobs import BACKGROUND, PriorityWorker

log = logging.getLogger(__name__)
Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


class JobRelay(QObject):
    """Lives on the main thread; a worker emits `finished`, Qt queues it, the callback runs on the main thread.

    Signals:
        finished(object, object, object): the success callback or None, the failure callback, the Future.
    """

    finished = Signal(object, object, object)


class QtWorker(QObject):
    """One PriorityWorker thread whose job results arrive on the main thread as callbacks.

    Signals:
        failed(object): a job raised and no failure callback was given; carries the exception.
    """

    failed = Signal(object)

    def __init__(self, name: str, parent: QObject | None = None):
        super().__init__(parent)
        self.name = name
        self._worker = PriorityWorker(name)
        self._relay = JobRelay(self)
        self._relay.finished.connect(self._deliver)
        self._in_flight = 0
        self._count_lock = threading.Lock()  # jobs may be submitted from the worker thread itself
        self._stopped = False

    def run(self, fn: Callable[[], Any], on_done: Done | None = None, on_error: Failed | None = None,
            priority: int = BACKGROUND) -> Future:
        """Run fn on the worker thread; on_done(result) or on_error(exc) is called later on the main thread.

        Callable from any thread. After shutdown() has begun the job is refused: the Future is already
        done with a RuntimeError when this returns.
        """
        with self._count_lock:
            self._in_flight += 1
        future = self._worker.submit(fn, priority)
        future.add_done_callback(lambda f: self._relay.finished.emit(on_done, on_error, f))
        return future

    @property
    def busy(self) -> bool:
        """True while a submitted job has not reported back."""
        return self._in_flight > 0

    def is_worker_thread(self) -> bool:
        """True when called on this worker's thread."""
        return self._worker.is_worker_thread()

    def urgent_waiting(self) -> bool:
        """True if a chat-priority job waits behind the running one."""
        return self._worker.urgent_waiting()

    def _deliver(self, on_done: Done | None, on_error: Failed | None, future: Future) -> None:
        with self._count_lock:
            self._in_flight -= 1
        if self._stopped:  # the window that asked is going away; its callbacks must not run
            return
        exc = future.exception()
        if exc is None:
            if on_done is not None:
                on_done(future.result())
        elif on_error is not None:
            on_error(exc)
        else:
            self.failed.emit(exc)

    def shutdown(self, timeout: float = 120.0) -> None:
        """Let queued jobs finish, then stop the thread (blocks up to timeout); later results are dropped."""
        self._worker.shutdown(wait=True, timeout=timeout)
        self._stopped = True
