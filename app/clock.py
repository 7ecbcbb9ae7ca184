"""The app clock: the real time, or a fixed day (--today / COMPANION_TODAY) for tests and replays."""
from __future__ import annotations

from datetime import date, datetime

from app.errors import UserError


class Clock:
    """Gives 'now'; with a fixed day, the date is that day and the time of day is real (so order is kept)."""

    def __init__(self, today: date | None = None):
        self.fixed = today

    @classmethod
    def parse(cls, text: str | None) -> "Clock":
        """A clock from 'YYYY-MM-DD' (or the real clock for None/empty)."""
        if not text:
            return cls(None)
        try:
            return cls(date.fromisoformat(text.strip()))
        except ValueError:
            raise UserError("invalid_input", f"--today must be a date like 2026-11-29, not {text!r}.") from None

    def now(self) -> datetime:
        """The current local time (naive), on the fixed day if one is set."""
        real = datetime.now()
        return datetime.combine(self.fixed, real.time()) if self.fixed else real

    def today(self) -> date:
        """The current date."""
        return self.now().date()
