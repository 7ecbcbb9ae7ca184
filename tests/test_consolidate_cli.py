"""Consolidation through the real `companion` CLI and the scheduler: JSON shape, gates, the lock, SIGKILL."""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from app.clock import Clock
from app.companion import Companion
from app.jobs import PriorityWorker
from app.scheduler import ConsolidationScheduler, lock_for
from memory.consolidation.job import ConsolidationResult
from memory.consolidation.lock import RunLock
from memory.records import Memory
from memory.storage.database import Database
from memory.storage.store import new_id
from tests.conftest import CLI, ROOT

KEYS = ("ran", "skipped_reason", "merged", "superseded", "expired", "decayed", "purged", "index_lines")


def consolidate_json(cli, *flags, today="2026-11-29"):
    out = cli.json("memory", "consolidate", *flags, "--json", today=today)
    assert list(out) == list(KEYS)
    return out


def test_json_shape_and_the_session_gate(cli):
    cli.run("memory", "add", "Likes green tea", "--category", "preference")
    out = consolidate_json(cli)
    assert out == {"ran": False, "skipped_reason": "only 0 sessions changed since the last run; 5 needed",
                   "merged": 0, "superseded": 0, "expired": 0, "decayed": 0, "purged": 0, "index_lines": 0}


def test_force_merges_paraphrases_and_the_index_prints_them(cli):
    for text in ("Likes green tea", "Really enjoys green tea", "Loves drinking green tea"):
        cli.run("memory", "add", text, "--category", "preference", today="2026-11-20")
    cli.run("memory", "add", "Prefers to be called Xiaolin", "--category", "profile", today="2026-11-20")
    out = consolidate_json(cli, "--force")
    assert out["ran"] and out["merged"] == 2 and out["index_lines"] == 4
    tea = [m for m in cli.json("memory", "list", "--json") if "tea" in m["content"]]
    assert len(tea) == 1
    index = cli.run("memory", "index").stdout.splitlines()
    assert index[:2] == ["## Who they are", "- Prefers to be called Xiaolin"]
    assert index[2] == "## Likes and dislikes" and "green tea" in index[3]
    # Right after a run the time gate answers without opening the profile.
    again = consolidate_json(cli)
    assert not again["ran"] and "h ago" in again["skipped_reason"]
    text = cli.run("memory", "consolidate", "--force").stdout
    assert text.startswith("consolidated: merged 0")


def test_turned_off_in_settings(cli):
    cli.home.mkdir(parents=True, exist_ok=True)
    (cli.home / "settings.json").write_text(json.dumps({"consolidation_enabled": False}))
    assert consolidate_json(cli)["skipped_reason"] == "consolidation is turned off in settings"
    assert cli.run("memory", "consolidate").stdout.strip() == "not run: consolidation is turned off in settings"


def test_a_second_process_does_not_run_while_the_first_holds_the_lock(cli):
    cli.run("memory", "add", "Likes green tea", "--category", "preference")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from datetime import datetime; from pathlib import Path; "
         "from memory.consolidation.lock import RunLock; ok = RunLock(Path(sys.argv[1])).acquire(datetime.now()); "
         "print('held' if ok else 'no', flush=True); time.sleep(120)", str(lock_for(cli.home).path)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "held"
        out = cli.json("memory", "consolidate", "--force", "--json")
        assert out["ran"] is False and out["skipped_reason"] == f"another consolidation is running (pid {holder.pid})"
    finally:
        holder.kill()
        holder.wait()
    out = cli.json("memory", "consolidate", "--force", "--json")  # the holder died: its lock is reclaimed
    assert out["ran"] is True


# -- a crash in the middle -------------------------------------------------------------------------------
def _workload(n: int) -> list[Memory]:
    """Paraphrase triples, like/dislike pairs, passed events, long-superseded memories and unique facts."""
    out: list[Memory] = []
    i = 0
    while len(out) < n:
        i += 1
        kind, w = i % 10, f"hobby{i}"
        if kind < 3:
            out += [Memory(new_id(), "preference", t.format(w=w), created_at=f"2026-{9 + j}-0{j + 1}T10:00:00")
                    for j, t in enumerate(("Likes {w}", "Really enjoys {w}", "Loves {w}"))]
        elif kind < 5:
            out += [Memory(new_id(), "preference", f"Likes {w}", created_at="2026-09-01T10:00:00"),
                    Memory(new_id(), "preference", f"Doesn't like {w} anymore", created_at="2026-11-20T10:00:00")]
        elif kind == 5:
            out.append(Memory(new_id(), "event", f"Exam number {i} on 2026-11-{i % 27 + 1:02d}",
                              event_date=f"2026-11-{i % 27 + 1:02d}", created_at="2026-10-01T10:00:00"))
        elif kind == 6:
            out.append(Memory(new_id(), "preference", f"Used to collect {w}", status="superseded",
                              valid_to="2026-01-05", created_at="2026-01-01T10:00:00"))
        else:
            out.append(Memory(new_id(), "relationship", f"Has a friend called Friend{i} who is into {w}",
                              created_at="2026-06-01T10:00:00"))
    return out[:n]


def _check_consistent(db_path: Path, key) -> dict:
    db = Database(db_path, key, datetime.now)
    try:
        assert db.read("PRAGMA integrity_check") == [("ok",)]
        rids = {r[0] for r in db.read("SELECT rid FROM memories")}
        assert rids == {r[0] for r in db.read("SELECT rowid FROM memories_fts")}
        assert rids == {r[0] for r in db.read("SELECT rowid FROM memory_vectors")}
        logs = db.read("SELECT finished_at FROM consolidation_log")
        return {"memories": len(rids), "runs": len(logs), "interrupted": sum(1 for (f,) in logs if f is None)}
    finally:
        db.close()


def _run_started(db_path: Path, key) -> bool:
    db = Database(db_path, key, datetime.now)
    try:
        return bool(db.read("SELECT 1 FROM consolidation_log WHERE finished_at IS NULL"))
    finally:
        db.close()


@pytest.mark.slow
def test_sigkill_mid_consolidation_leaves_a_consistent_store_and_the_next_run_completes(cli):
    c = Companion(cli.home, Clock.parse("2026-11-29"))
    items = _workload(600)
    with c.db.transaction():
        for m, vec in zip(items, c.embedder.embed([m.content for m in items])):
            c.store.add(m, vector=vec)
    key, db_path = c.key.key, c.db_path
    c.close()
    pristine = db_path.read_bytes()
    rnd = random.Random(5)
    landed = killed = 0
    for _ in range(4):
        db_path.write_bytes(pristine)
        for suffix in ("-wal", "-shm"):
            Path(str(db_path) + suffix).unlink(missing_ok=True)
        proc = subprocess.Popen([str(CLI), "--home", str(cli.home), "--today", "2026-12-05", "memory",
                                 "consolidate", "--force", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while proc.poll() is None and not _run_started(db_path, key) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(rnd.uniform(0.0, 0.6))
        killed = proc.poll() is None
        if killed:
            proc.send_signal(signal.SIGKILL)
            landed += 1
        proc.communicate(timeout=60)
        state = _check_consistent(db_path, key)
        assert state["memories"] > 0
        assert RunLock(lock_for(cli.home).path).holder(datetime.now()) is None  # reclaimable at once
    assert landed >= 3
    assert state["interrupted"] == state["runs"] == int(killed)
    out = cli.json("memory", "consolidate", "--force", "--json", today="2026-12-05")
    assert out["ran"] and out["index_lines"] > 0
    after = _check_consistent(db_path, key)
    assert after["interrupted"] == int(killed) and after["runs"] == state["runs"] + 1
    assert consolidate_json(cli, "--force", today="2026-12-05")["merged"] == 0


# -- the scheduler -------------------------------------------------------------------------------------
def test_the_scheduler_only_enqueues_and_the_worker_runs_the_job():
    worker = PriorityWorker("companion-db")
    ran_on: list[str] = []
    done = threading.Event()
    submitted: list = []

    def job():
        ran_on.append(threading.current_thread().name)
        done.set()
        return "ok"

    def submit(fn):
        submitted.append(threading.current_thread().name)
        return worker.submit(fn)

    sched = ConsolidationScheduler(submit, job, hour=4, startup_delay=0.2)
    try:
        sched.start()
        sched.start()  # idempotent
        assert sched.running and sched.next_run().hour == 4
        assert done.wait(10)
        assert ran_on == ["companion-db"] and submitted and submitted[0] != threading.main_thread().name
        sched.set_hour(23)
        assert sched.next_run().hour == 23
    finally:
        sched.stop()
        worker.shutdown()
    assert not sched.running and sched.next_run() is None


def test_stopping_as_the_start_up_check_fires_raises_nothing_on_the_schedulers_thread(monkeypatch):
    # APScheduler's shutdown marks itself stopped before taking its job store lock: a one-shot job being handed over
    # then is not found for removal (JobLookupError on its thread, ~1 stop in 100 with the check due at once).
    errors = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    handed = []
    for i in range(300):
        sched = ConsolidationScheduler(handed.append, lambda: None, 3, startup_delay=0.0)
        sched.start()
        time.sleep(0.001 * (i % 8))
        sched.stop()
        assert not sched.running
    assert errors == []
    assert handed  # the start-up check did fire in some of them


def test_the_scheduled_job_runs_gated_consolidation_on_the_profile(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    worker = PriorityWorker("companion-db")
    results = []
    sched = ConsolidationScheduler.for_companion(c, lambda fn: worker.submit(lambda: results.append(fn())),
                                                 startup_delay=0.1)
    try:
        sched.start()
        deadline = time.monotonic() + 20
        while not results and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        sched.stop()
        worker.shutdown()
        c.close()
    assert isinstance(results[0], ConsolidationResult)
    assert results[0].skipped_reason == "only 0 sessions changed since the last run; 5 needed"
