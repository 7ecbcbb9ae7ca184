"""Reading the consolidation log: each run's summary and changes, as the panel and the CLI show them."""
from __future__ import annotations

import json
from dataclasses import dataclass

from memory.storage.store import MemoryStore


@dataclass
class RunRecord:
    """One consolidation run as the memory panel shows it ("what changed last night")."""

    id: int
    started_at: str
    finished_at: str | None
    summary: dict
    details: list[dict]

    @property
    def interrupted(self) -> bool:
        return self.finished_at is None


def recent_runs(store: MemoryStore, limit: int = 10) -> list[RunRecord]:
    """The latest runs, newest first."""
    rows = store.db.read("SELECT rid, started_at, finished_at, summary, details FROM consolidation_log "
                         "ORDER BY rid DESC LIMIT ?", (limit,))
    return [RunRecord(r[0], r[1], r[2], json.loads(r[3] or "{}"), json.loads(r[4] or "[]")) for r in rows]


def describe_run(run: RunRecord) -> str:
    """A few readable lines: when, what counts, then each change."""
    s = run.summary
    when = run.started_at.replace("T", " ")[:16]
    if run.interrupted:
        head = f"{when}: interrupted before it finished; the changes below were made"
    else:
        head = (f"{when}: merged {s.get('merged', 0)}, superseded {s.get('superseded', 0)}, expired "
                f"{s.get('expired', 0)}, decayed {s.get('decayed', 0)}, purged {s.get('purged', 0)}; "
                f"index {s.get('index_lines', 0)} lines")
    return "\n".join([head] + ["  " + describe_change(d) for d in run.details])


def describe_change(item: dict) -> str:
    """One log line: what was done to which memory, and why."""
    what = f" “{item['content']}”" if item.get("content") else ""
    return f"{item.get('action')}:{what} — {item.get('reason')}"
