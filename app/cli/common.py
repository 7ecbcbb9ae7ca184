"""What every command group shares: opening the profile for one command, printing memories and JSON."""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from app.clock import Clock
from app.companion import Companion
from memory import Memory


def _progress(done: int, total: int) -> None:
    print(f"\rre-embedding memories for the new embedding model: {done}/{total}", end="", file=sys.stderr)
    if done >= total:
        print(file=sys.stderr)


@contextmanager
def opened(args, home: Path, clock: Clock) -> Iterator[Companion]:
    """The profile, closed cleanly whatever happens."""
    companion = Companion(home, clock, model_override=getattr(args, "model", None), progress=_progress)
    try:
        yield companion
    finally:
        companion.close()


def print_json(data) -> None:
    """One JSON document on one line of stdout."""
    print(json.dumps(data, ensure_ascii=False, indent=None))


def line(m: Memory) -> str:
    """One memory as one readable line."""
    flags = "".join([" 📌" if m.pinned else "", " (disabled)" if m.disabled else "",
                     f" [{m.status}]" if m.status != "active" else ""])
    when = f" @{m.event_date}" if m.event_date else ""
    return f"{m.id}  {m.category:<12} {m.content}{when}{flags}"
