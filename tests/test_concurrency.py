"""Concurrency: background extraction, the scheduler's jobs and panel edits write at the same time.

No "database is locked" reaches anyone (busy_timeout 10 s, BEGIN IMMEDIATE) and no update is lost:
the last value each writer set is the one stored, counters add up, and every memory's history is an
unbroken chain (each change starts from the state the previous change left).
"""
from __future__ import annotations

import json
import random
import subprocess
import threading

import pytest

from app.clock import Clock
from app.companion import Companion
from memory.consolidation.job import consolidate
from memory.consolidation.lock import LOCK_FILE, RunLock
from memory.records import Memory
from memory.storage.store import new_id
from tests.conftest import CLI
from tests.support.crash_writer import chat_message

# Distinct on purpose: consolidation must find nothing to merge among them, so any change to a
# panel memory that the panel did not make is a lost update, not a merge.
PANEL = ["Keeps bees on the roof of the library", "Restores old Vespa scooters on weekends",
         "Is learning Icelandic for a trip to Reykjavik", "Sings bass in a Georgian folk choir",
         "Grows chili peppers on the balcony", "Volunteers at the animal shelter on Tuesdays",
         "Plays goalkeeper in a futsal league", "Is afraid of deep water since childhood"]
# Fields written with a history row; strength, hit_count and last_used_at change without one (use, decay).
CHAINED = ("content", "category", "pinned", "disabled", "importance", "confidence", "status", "superseded_by",
           "event_date", "valid_to")


@pytest.fixture
def companion(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    yield c
    c.close()


def _panel(c: Companion) -> list[str]:
    return [c.store.add(Memory(new_id(), "profile", text, confidence=0.5)).id for text in PANEL]


class Writers:
    """The app's writers as threads over one open profile, each keeping a record of what it did."""

    def __init__(self, c: Companion, panel: list[str], rounds: int):
        self.c, self.panel, self.rounds = c, panel, rounds
        self.errors: list[str] = []
        self.last_content: dict[str, str] = {}
        self.last_pinned: dict[str, bool] = {}
        self.reinforced = {i: 0 for i in panel}
        self.used = {i: 0 for i in panel}
        self.consolidations: list = []

    def run(self) -> None:
        threads = [threading.Thread(target=self._guard, args=(fn,), name=fn.__name__)
                   for fn in (self.extraction, self.scheduler, self.panel_edits)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=600)
        assert not any(t.is_alive() for t in threads)

    def _guard(self, fn) -> None:
        try:
            fn()
        except Exception as exc:  # collected: the test fails on any of them, "locked" or not
            self.errors.append(f"{fn.__name__}: {type(exc).__name__}: {exc}")

    def extraction(self) -> None:
        """After each turn: messages saved, the pipeline run, sometimes a panel fact heard again."""
        rng = random.Random(1)
        pipeline = self.c.pipeline(use_model=False)
        session = self.c.transcript.create_session("stress")
        for _ in range(self.rounds):
            text = chat_message(rng)
            user = self.c.transcript.add_message(session.id, "user", text)
            pipeline.process(text, None, self.c.clock.today(), session_id=session.id, message_id=user.id)
            self.c.transcript.add_message(session.id, "assistant", "Nice!")
            target = rng.choice(self.panel)
            self.c.store.reinforce(target, reason="said again")
            self.reinforced[target] += 1

    def scheduler(self) -> None:
        """Consolidation runs and the reinforcement of memories used in replies."""
        rng = random.Random(2)
        lock = RunLock(self.c.home / LOCK_FILE)
        for i in range(self.rounds):
            if i % 4 == 0:
                self.consolidations.append(consolidate(self.c.store, lock, force=True))
            used = rng.sample(self.panel, 3)
            self.c.store.mark_used(used)
            for u in used:
                self.used[u] += 1

    def panel_edits(self) -> None:
        """The user editing in the memory panel: new wording, pin and unpin."""
        rng = random.Random(3)
        for n in range(self.rounds * 2):
            target = rng.choice(self.panel)
            if rng.random() < 0.6:
                content = f"{PANEL[self.panel.index(target)]} (note {n})"
                self.c.store.update(target, reason="edited by the user", content=content)
                self.last_content[target] = content
            else:
                pinned = rng.random() < 0.5
                self.c.store.update(target, reason="edited by the user", pinned=pinned)
                self.last_pinned[target] = pinned


def assert_history_chains(c: Companion) -> None:
    """Each history row's 'before' is the previous row's 'after' (a lost update breaks the chain)."""
    broken = []
    for (memory_id,) in c.db.read("SELECT DISTINCT memory_id FROM memory_history"):
        entries = c.store.history(memory_id)
        for prev, cur in zip(entries, entries[1:]):
            if prev.after and cur.before:
                diff = {f: (prev.after.get(f), cur.before.get(f)) for f in CHAINED
                        if prev.after.get(f) != cur.before.get(f)}
                if diff:
                    broken.append((memory_id, cur.action, cur.reason, diff))
    assert broken == []


def test_extraction_scheduler_and_panel_threads_lose_nothing(companion):
    c = companion
    panel = _panel(c)
    writers = Writers(c, panel, rounds=24)
    writers.run()
    assert writers.errors == []
    assert all(r.ran and r.merged == 0 for r in writers.consolidations)
    for mid in panel:
        m = c.store.get(mid)
        if mid in writers.last_content:
            assert m.content == writers.last_content[mid]
        if mid in writers.last_pinned:
            assert m.pinned == writers.last_pinned[mid]
        assert m.confidence == pytest.approx(min(1.0, 0.5 + 0.05 * writers.reinforced[mid]))
        assert m.hit_count == writers.used[mid]
    assert_history_chains(c)


def test_a_merge_keeps_the_pin_and_uses_made_while_consolidation_ran(companion, monkeypatch):
    """Consolidation plans merges from a snapshot; what the user and the replies did since must survive."""
    import memory.consolidation.job as consolidation
    c = companion
    older = c.store.add(Memory(new_id(), "preference", "Loves green tea", created_at="2026-11-01T09:00:00"))
    newer = c.store.add(Memory(new_id(), "preference", "Really loves green tea", created_at="2026-11-20T09:00:00"))
    plan = consolidation._clusters

    def meanwhile(items, relation):  # between the snapshot and the merge: a panel pin, two replies using them
        clusters = plan(items, relation)
        for m in (older, newer):
            c.store.update(m.id, reason="edited by the user", pinned=True)
        c.store.mark_used([older.id, newer.id])
        c.store.mark_used([newer.id])
        return clusters

    monkeypatch.setattr(consolidation, "_clusters", meanwhile)
    assert consolidate(c.store, RunLock(c.home / LOCK_FILE), force=True).merged == 1
    kept = c.store.list()
    assert [m.content for m in kept] == ["Really loves green tea"]
    assert kept[0].pinned and kept[0].hit_count == 3
    assert_history_chains(c)


def _cli(home, *args) -> subprocess.Popen:
    return subprocess.Popen([str(CLI), "--home", str(home), "--today", "2026-11-29", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_processes_and_threads_write_together_without_locked_errors(companion, companion_env):
    """The desktop app (threads over one connection) while command-line processes write to the same file."""
    c = companion
    panel = _panel(c)
    cli_importance: dict[str, float] = {}
    cli_errors: list[str] = []

    def command_line() -> None:
        rng = random.Random(4)
        for n in range(4):
            procs = [_cli(companion_env, "memory", "extract", chat_message(rng), "--json")]
            target, importance = rng.choice(panel), round(0.3 + 0.1 * n, 2)
            procs.append(_cli(companion_env, "memory", "edit", target, "--importance", str(importance), "--json"))
            if n % 2 == 0:  # the scheduler of another process (it may find the lock held: then it says so)
                procs.append(_cli(companion_env, "memory", "consolidate", "--force", "--json"))
            for proc in procs:
                out, err = proc.communicate(timeout=300)
                if proc.returncode != 0 or err.strip():
                    cli_errors.append(f"{proc.args[5:7]} exited {proc.returncode}: {err.strip()}")
                else:
                    json.loads(out)
            cli_importance[target] = importance

    cli_thread = threading.Thread(target=command_line)
    cli_thread.start()
    writers = Writers(c, panel, rounds=16)
    writers.run()
    cli_thread.join(timeout=900)
    assert writers.errors == [] and cli_errors == []
    assert not any("locked" in e for e in writers.errors + cli_errors)
    for mid, importance in cli_importance.items():
        assert c.store.get(mid).importance == pytest.approx(importance)
    for mid, content in writers.last_content.items():
        assert c.store.get(mid).content == content
    assert_history_chains(c)
