"""When consolidation runs by itself: daily at the configured hour and once shortly after start-up.

APScheduler only decides *when*. Its job does nothing but hand the run to the database worker through
`submit`, so consolidation never runs on the UI thread or on the scheduler's own thread, and never
at the same time as another database write of this process. Whether a run is due is decided by the
gates in `memory.consolidation` when the worker gets to it.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger

from app.companion import Companion
from app.settings import Settings
from memory.consolidation import LOCK_FILE, ConsolidationResult, Gates, Progress, RunLock, consolidate

log = logging.getLogger(__name__)
STARTUP_DELAY_SECONDS = 120.0
DAILY_JOB, STARTUP_JOB = "consolidation-daily", "consolidation-startup"
Submit = Callable[[Callable[[], Any]], Any]


def lock_for(home: Path) -> RunLock:
    """The consolidation lock file of a profile."""
    return RunLock(home / LOCK_FILE)


def gates_for(settings: Settings) -> Gates:
    """The gates as the user's settings set them."""
    return Gates(enabled=settings.consolidation_enabled)


def consolidate_profile(companion: Companion, force: bool = False,
                        progress: Progress | None = None) -> ConsolidationResult:
    """Consolidate one open profile now (gated; force skips all gates but the lock). Call it on the DB worker."""
    return consolidate(companion.store, lock_for(companion.home), gates_for(companion.settings), force, progress)


class ConsolidationScheduler:
    """A background scheduler whose jobs enqueue `job` on the database worker through `submit`."""

    def __init__(self, submit: Submit, job: Callable[[], Any], hour: int = 3,
                 startup_delay: float = STARTUP_DELAY_SECONDS):
        self.submit = submit
        self.job = job
        self.hour = _valid_hour(hour)
        self.startup_delay = startup_delay
        self._scheduler: Any = None  # a BackgroundScheduler once started (APScheduler 3 has no type hints)

    @classmethod
    def for_companion(cls, companion: Companion, submit: Submit,
                      startup_delay: float = STARTUP_DELAY_SECONDS) -> "ConsolidationScheduler":
        """The scheduler of an open profile; the settings are read again at each run."""
        return cls(submit, lambda: consolidate_profile(companion), companion.settings.consolidation_hour,
                   startup_delay)

    @property
    def running(self) -> bool:
        return self._scheduler is not None and self._scheduler.running

    def start(self) -> None:
        """Schedule the daily check and the one shortly after start-up (no-op if already started)."""
        if self.running:
            return
        scheduler = BackgroundScheduler(daemon=True, job_defaults={"coalesce": True, "max_instances": 1})
        scheduler.add_job(self._enqueue, CronTrigger(hour=self.hour, minute=0), id=DAILY_JOB,
                          misfire_grace_time=3600)
        first = datetime.now(scheduler.timezone) + timedelta(seconds=self.startup_delay)
        scheduler.add_job(self._enqueue, DateTrigger(run_date=first), id=STARTUP_JOB, misfire_grace_time=600)
        scheduler.start()
        self._scheduler = scheduler

    def set_hour(self, hour: int) -> None:
        """Move the daily check to another hour (after the user changed the setting)."""
        self.hour = _valid_hour(hour)
        if self.running:
            self._scheduler.reschedule_job(DAILY_JOB, trigger=CronTrigger(hour=self.hour, minute=0))

    def next_run(self) -> datetime | None:
        """When the daily check fires next."""
        job = self._scheduler.get_job(DAILY_JOB) if self.running else None
        return job.next_run_time if job else None

    def stop(self) -> None:
        """Stop scheduling; a run already handed to the worker finishes there.

        APScheduler's shutdown marks the scheduler stopped before it takes the job store lock, so a due one-shot job
        being handed over at that moment is then not found for removal (JobLookupError on the scheduler's thread, about
        1 stop in 100 right as the start-up check fires). Paused first, then emptied (which waits for that lock: any
        hand-over in progress ends first), the scheduler has nothing left to race on when it shuts down."""
        if self.running:
            self._scheduler.pause()
            self._scheduler.remove_all_jobs()
            self._scheduler.shutdown(wait=True)
        self._scheduler = None

    def _enqueue(self) -> None:
        # Runs on an APScheduler thread: hand over and return at once.
        try:
            handle = self.submit(self.job)
        except Exception:  # a worker that is shutting down: the next check will try again
            log.exception("could not hand consolidation to the database worker")
            return
        if hasattr(handle, "add_done_callback"):
            handle.add_done_callback(_report)


def _report(future) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.error("consolidation failed: %s", exc, exc_info=exc)
    elif isinstance(future.result(), ConsolidationResult):
        r = future.result()
        log.info("consolidation: %s", r.to_json() if r.ran else f"skipped ({r.skipped_reason})")


def _valid_hour(hour: int) -> int:
    return hour if isinstance(hour, int) and 0 <= hour <= 23 else Settings().consolidation_hour
