"""Consolidation in-process, with the clock fixed: merges, contradictions, past events, decay, the index, gates."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from datetime import date, datetime

import pytest

from memory.consolidation.job import ConsolidationResult, Gates, change_statement, consolidate
from memory.consolidation.lock import LOCK_FILE, LockState, RunLock
from memory.consolidation.log import describe_run, recent_runs
from memory.recall import index as memindex
from memory.recall.retrieve import _is_upcoming, select
from memory.records import Memory
from memory.storage.database import Database
from memory.storage.forgetting import forget
from memory.storage.sqlcipher import DbKey
from memory.storage.store import MemoryStore, new_id
from memory.storage.transcript import Transcript
from models.embedder import FastEmbedEmbedder
from models.resolve import resolve_embedding_model
from tests.conftest import ROOT


class FixedClock:
    """The app clock, fixed to a moment that the test moves on by hand."""

    def __init__(self, when: str):
        self.now = datetime.fromisoformat(when)

    def __call__(self) -> datetime:
        return self.now

    def set(self, when: str) -> None:
        self.now = datetime.fromisoformat(when)


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return FastEmbedEmbedder(resolve_embedding_model(tmp_path_factory.mktemp("models")))


@pytest.fixture
def clock():
    return FixedClock("2026-11-29T10:00:00")


@pytest.fixture
def store(tmp_path, embedder, clock):
    db = Database(tmp_path / "c.db", DbKey("a" * 64, "raw"), clock)
    from memory.storage import vectors
    vectors.ensure_model(db.conn, embedder)
    yield MemoryStore(db, embedder)
    db.close()


@pytest.fixture
def lock(tmp_path):
    return RunLock(tmp_path / LOCK_FILE)


def add(store, content, category="preference", when="2026-11-29T10:00:00", **kw) -> Memory:
    return store.add(Memory(new_id(), category, content, created_at=when, updated_at=when,
                            valid_from=when[:10], **kw))


def run(store, lock, **kw) -> ConsolidationResult:
    return consolidate(store, lock, force=kw.pop("force", True), **kw)


def active(store, category=None):
    return [m.content for m in store.list(category=category)]


# -- consolidate -------------------------------------------------------------------------------------
def test_three_paraphrases_across_sessions_become_one_memory_with_the_strongest_evidence(store, lock, clock):
    a = add(store, "Likes green tea", when="2026-11-02T09:00:00", confidence=0.7, importance=0.4, session_id="s1")
    b = add(store, "Really enjoys green tea", when="2026-11-10T09:00:00", confidence=0.9, importance=0.5,
            session_id="s2")
    c = add(store, "Loves drinking green tea", when="2026-11-20T09:00:00", confidence=0.8, importance=0.7,
            session_id="s3")
    store.mark_used([a.id, a.id, b.id])
    other = add(store, "Likes black coffee", when="2026-11-20T09:00:00")
    result = run(store, lock)
    assert result.ran and result.merged == 2 and result.superseded == 0
    kept = [m for m in store.list() if "tea" in m.content]
    assert len(kept) == 1
    survivor = kept[0]
    assert survivor.confidence == 0.9 and survivor.importance == 0.7 and survivor.hit_count == 3
    assert store.get(other.id).status == "active"
    for m in (a, b, c):
        if m.id != survivor.id:
            gone = store.get(m.id)
            assert gone.status == "superseded" and gone.superseded_by == survivor.id
            assert store.history(m.id)[-1].reason.startswith("consolidation: same as")
    # Idempotent: a second run finds nothing more to merge.
    assert run(store, lock).merged == 0


def test_like_then_dislike_leaves_one_memory_that_states_the_change(store, lock):
    old = add(store, "Likes coffee", when="2026-10-05T20:00:00")
    new = add(store, "Doesn't like coffee anymore", when="2026-11-29T08:00:00")
    add(store, "Likes tea", when="2026-10-05T20:00:00")
    result = run(store, lock)
    assert result.superseded == 1 and result.merged == 0
    coffee = [m for m in store.list() if "coffee" in m.content]
    assert [m.content for m in coffee] == ["Used to like coffee; since 2026-11-29, doesn't like coffee anymore"]
    assert coffee[0].id == new.id and coffee[0].valid_from == "2026-11-29"
    gone = store.get(old.id)
    assert gone.status == "superseded" and gone.superseded_by == new.id and gone.valid_to == "2026-11-29"
    assert "Likes tea" in active(store)


def test_chinese_paraphrases_and_contradictions_are_resolved_by_words_alone(store, lock):
    add(store, "喜欢喝咖啡", when="2026-10-05T20:00:00")
    add(store, "不喜欢喝咖啡了", when="2026-11-29T08:00:00")
    add(store, "喜欢喝绿茶", when="2026-10-05T20:00:00")  # the embedder sees these as one: words decide
    add(store, "很爱喝绿茶", when="2026-11-05T20:00:00")
    add(store, "养了一只猫", category="relationship", when="2026-10-05T20:00:00")
    result = run(store, lock)
    assert sorted(active(store)) == sorted(["以前喜欢喝咖啡；自2026-11-29起不喜欢喝咖啡了", "很爱喝绿茶", "养了一只猫"])
    assert (result.merged, result.superseded) == (1, 1)  # equal evidence: the newer wording stays


def test_forgetting_the_survivor_leaves_its_words_nowhere(store, lock):
    add(store, "Likes coffee", when="2026-10-05T20:00:00")
    add(store, "Loves coffee", when="2026-10-06T20:00:00")
    new = add(store, "Doesn't like coffee anymore", when="2026-11-29T08:00:00")
    run(store, lock)
    receipt = forget(store, [new.id])
    assert receipt.verified, receipt.found_in
    assert all(new.id not in json.dumps(r.details) for r in recent_runs(store))


def test_an_explicit_memory_is_not_overruled_by_a_later_inference(store, lock):
    add(store, "Likes jazz", when="2026-10-05T20:00:00", source="explicit")
    add(store, "Dislikes jazz", when="2026-11-20T20:00:00", source="inferred")
    result = run(store, lock)
    assert active(store) == ["Likes jazz"] and result.superseded == 1


def test_different_facts_about_one_person_or_place_are_kept(store, lock):
    facts = ["Sister Lily had a baby", "Has a sister called Lily", "Lives in Paris", "Works as a nurse",
             "Works as a teacher's assistant on weekends", "Likes the show Friends", "Likes hiking in the Alps"]
    for f in facts:
        add(store, f, category="relationship" if "Lily" in f else "profile")
    assert run(store, lock).merged == 0
    assert sorted(active(store)) == sorted(facts)


def test_same_topic_new_value_replaces_the_old_one(store, lock):
    add(store, "Lives in Paris", category="profile", when="2026-09-01T10:00:00", topic="profile:city")
    add(store, "Lives in Berlin", category="profile", when="2026-11-20T10:00:00", topic="profile:city")
    result = run(store, lock)
    assert active(store) == ["Lives in Berlin"] and result.superseded == 1


def test_change_statement_wording():
    assert change_statement("Likes coffee (since 2026-10-05)", "No longer likes coffee", "2026-11-29") == \
        "Used to like coffee; since 2026-11-29, no longer likes coffee"
    assert change_statement("Watches anime", "Stopped watching anime", "2026-11-29") == \
        "Used to watch anime; since 2026-11-29, stopped watching anime"
    again = change_statement("Used to like coffee; since 2026-11-29, doesn't like coffee anymore",
                             "Likes coffee again", "2026-12-20")
    assert again == "Since 2026-12-20: Likes coffee again (before: doesn't like coffee anymore)"


# -- events ------------------------------------------------------------------------------------------
def test_exam_tomorrow_is_not_offered_as_upcoming_after_it_passed(store, lock, clock):
    exam = add(store, "Math exam tomorrow", category="event", when="2026-11-29T10:00:00", importance=0.8)
    run(store, lock)
    m = store.get(exam.id)
    assert m.content == "Math exam on 2026-11-30" and m.event_date == "2026-11-30"
    assert _is_upcoming(m, date(2026, 11, 29))
    clock.set("2026-12-01T09:00:00")  # the day after: still there, in past tense
    run(store, lock)
    m = store.get(exam.id)
    assert m.status == "active" and m.content == "Math exam on 2026-11-30 (past)"
    clock.set("2026-12-05T09:00:00")
    result = run(store, lock)
    m = store.get(exam.id)
    assert m.status == "expired" and m.valid_to == "2026-11-30" and result.expired == 1
    assert not _is_upcoming(m, date(2026, 12, 5))
    offered = select(store, "do I have any exams coming up?", date(2026, 12, 5))
    assert all(o.id != exam.id for o in offered)
    assert "2026-11-30" not in memindex.current_index(store)


def test_a_birthday_moves_on_to_next_year(store, lock, clock):
    b = add(store, "Mom's birthday on 2026-11-20", category="relationship", event_date="2026-11-20")
    ev = add(store, "Mom's birthday party on 2026-11-20", category="event", event_date="2026-11-20")
    run(store, lock)
    assert store.get(ev.id).event_date == "2027-11-20" and store.get(ev.id).content.endswith("2027-11-20")
    assert store.get(b.id).content == "Mom's birthday on 2026-11-20"  # only events carry a date to move


# -- prune ---------------------------------------------------------------------------------------------
def test_decay_spares_pinned_and_recently_used_memories_and_never_decays_twice(store, lock, clock):
    plain = add(store, "Likes chess", when="2026-06-01T10:00:00")
    pinned = add(store, "Likes go", when="2026-06-01T10:00:00", pinned=True)
    used = add(store, "Likes sudoku", when="2026-06-01T10:00:00")
    clock.set("2026-11-26T10:00:00")
    store.mark_used([used.id])
    clock.set("2026-11-30T10:00:00")
    result = run(store, lock)
    days = (datetime(2026, 11, 30) - datetime(2026, 6, 1)).days
    assert store.get(plain.id).strength == pytest.approx(0.95 ** (days / 7), rel=1e-3)
    assert store.get(pinned.id).strength == 1.0 and store.get(used.id).strength == 1.0
    assert result.decayed == 1
    assert run(store, lock).decayed == 0  # same moment again: nothing more
    clock.set("2026-12-07T10:00:00")
    run(store, lock)
    assert store.get(plain.id).strength == pytest.approx(0.95 ** ((days + 7) / 7), rel=1e-3)
    assert store.get(used.id).strength == pytest.approx(1.0 * 0.95 ** (11 / 7), rel=1e-3)


def test_a_pinned_memory_never_decays_or_expires(store, lock, clock):
    pinned = add(store, "Their cat is called Mochi", category="relationship", when="2025-01-01T10:00:00", pinned=True)
    weak = add(store, "Likes crossword puzzles", when="2025-01-01T10:00:00")
    for day in ("2025-06-01", "2025-12-01", "2026-06-01", "2026-11-29"):
        clock.set(day + "T10:00:00")
        run(store, lock)
    assert store.get(pinned.id).strength == 1.0 and store.get(pinned.id).status == "active"
    # The unpinned twin expired on 2025-12-01 and was purged 180 days later.
    assert not store.db.read("SELECT 1 FROM memories WHERE id = ?", (weak.id,))


def test_weak_unused_memories_expire_and_old_ones_are_purged_everywhere(store, lock, clock):
    weak = add(store, "Likes crossword puzzles", when="2026-01-01T10:00:00")
    old = add(store, "Likes sushi", when="2026-05-01T10:00:00")
    newer = add(store, "Doesn't like sushi anymore", when="2026-06-01T10:00:00")
    clock.set("2026-06-02T10:00:00")
    run(store, lock)
    assert store.get(old.id).status == "superseded" and store.get(weak.id).status == "active"
    clock.set("2026-11-29T10:00:00")
    result = run(store, lock)
    assert store.get(weak.id).status == "expired"
    assert result.purged == 1 and result.expired >= 1
    assert not store.db.read("SELECT 1 FROM memories WHERE id = ?", (old.id,))
    assert not store.db.read("SELECT 1 FROM memory_history WHERE memory_id = ?", (old.id,))
    assert [m.id for m in store.list()] == [newer.id]
    blob = json.dumps([r for r in store.db.read("SELECT details FROM consolidation_log")])
    assert old.id not in blob
    clock.set("2027-06-01T10:00:00")  # the expired one goes after its retention
    run(store, lock)
    assert not store.db.read("SELECT 1 FROM memories WHERE id = ?", (weak.id,))


# -- the index -------------------------------------------------------------------------------------
def test_300_memories_give_a_capped_index_with_a_warning_that_the_next_run_acts_on(store, lock):
    vecs = store.embedder.embed([f"Has a friend called Friend{i:03d}" for i in range(300)])
    with store.db.transaction():
        for i, v in enumerate(vecs):
            store.add(Memory(new_id(), ("profile", "preference", "relationship", "event", "feedback")[i % 5],
                             f"Has a friend called Friend{i:03d} who collects vintage postcards from faraway "
                             f"seaside towns and writes long letters about them, number {i}",
                             importance=0.3 + (i % 7) / 10), vector=v)
    result = run(store, lock)
    assert result.merged == 0 and len(store.list()) == 300
    text = memindex.current_index(store)
    assert result.index_lines == len(text.splitlines()) <= 200
    assert len(text.encode()) <= 25_000 and len(text.splitlines()) <= 200
    assert "more memories not shown" in text.splitlines()[-1]
    warn = memindex.warning(store)
    assert warn and warn["memories"] == 300 and warn["shown"] < 300
    assert recent_runs(store)[0].details[-1]["action"] == "index_full"
    before = result.index_lines
    second = run(store, lock)  # tightening: shorter lines, so more memories fit
    assert recent_runs(store)[0].summary["tightened"] is True
    assert memindex.warning(store)["shown"] > warn["shown"] or second.index_lines <= before


def test_index_is_grouped_capped_by_bytes_and_rebuilt_lazily_after_forgetting(store, lock):
    # Chinese text is three bytes a character: the byte cap bites long before the line cap.
    texts = [f"喜欢第{i}号" + "很长的名字" * 30 for i in range(80)]
    with store.db.transaction():
        long = [store.add(Memory(new_id(), "preference", t), vector=v)
                for t, v in zip(texts, store.embedder.embed(["long"] * len(texts)))]
    add(store, "Prefers to be called Xiaolin", category="profile")
    build = memindex.rebuild(store)
    assert build.cut and build.bytes <= 25_000 and build.lines < 200
    lines = build.text.splitlines()
    assert lines[0] == "## Who they are" and lines[1] == "- Prefers to be called Xiaolin"
    forget(store, [long[0].id])
    assert not store.db.read("SELECT 1 FROM meta WHERE key = 'memory_index'")
    assert "Xiaolin" in memindex.current_index(store)


# -- gates and the log -------------------------------------------------------------------------------
def test_gates_enabled_time_and_sessions(store, lock, clock):
    t = Transcript(store.db)
    off = consolidate(store, lock, Gates(enabled=False))
    assert not off.ran and "turned off" in off.skipped_reason
    for _ in range(3):
        t.create_session()
    few = consolidate(store, lock)
    assert few.to_json() == {"ran": False, "skipped_reason": "only 3 sessions changed since the last run; 5 needed",
                             "merged": 0, "superseded": 0, "expired": 0, "decayed": 0, "purged": 0, "index_lines": 0}
    for _ in range(2):
        t.create_session()
    assert consolidate(store, lock).ran
    clock.set("2026-11-30T09:00:00")
    for _ in range(5):
        t.create_session()
    soon = consolidate(store, lock)
    assert not soon.ran and "23.0 h ago" in soon.skipped_reason
    assert consolidate(store, lock, force=True).ran  # --force skips time and sessions
    clock.set("2026-12-01T11:00:00")
    assert "only 0 sessions" in consolidate(store, lock).skipped_reason
    clock.set("2026-11-28T11:00:00")  # the clock went back: a "future" last run blocks nothing by itself
    assert "only 0 sessions" in consolidate(store, lock).skipped_reason


def test_the_lock_blocks_while_held_and_a_stale_one_is_reclaimed(store, lock, clock, tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from datetime import datetime; from pathlib import Path; "
         "from memory.consolidation.lock import RunLock; "
         "ok = RunLock(Path(sys.argv[1])).acquire(datetime.fromisoformat(sys.argv[2])); "
         "print('held' if ok else 'no', flush=True); time.sleep(60)", str(lock.path), clock().isoformat()],
        stdout=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "held"
        blocked = run(store, lock)
        assert not blocked.ran and f"pid {holder.pid}" in blocked.skipped_reason
        clock.set("2026-11-29T11:30:00")  # over an hour old: reclaimable even though the holder lives
        assert run(store, lock).ran
    finally:
        holder.kill()
        holder.wait()
    clock.set("2026-11-29T12:00:00")
    lock.path.write_text(str(holder.pid))  # a dead holder's PID, fresh mtime
    os.utime(lock.path, (clock().timestamp(),) * 2)
    assert run(store, lock).ran
    assert lock.path.read_text() == "" and lock.state().last_run == clock()


def test_two_processes_reclaiming_at_once_end_with_one_holder(tmp_path):
    path = tmp_path / LOCK_FILE
    path.write_text("999999999")
    os.utime(path, (time.time() - 7200,) * 2)  # stale
    start = time.time() + 1.5
    code = ("import sys, time; from datetime import datetime; from pathlib import Path; from memory.consolidation.lock import RunLock; "
            f"time.sleep(max(0, {start} - time.time())); "
            "print(RunLock(Path(sys.argv[1])).acquire(datetime.now()), flush=True); time.sleep(3)")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
             for _ in range(4)]
    answers = [p.communicate(timeout=30)[0].strip() for p in procs]
    assert sorted(answers) == ["False", "False", "False", "True"]
    assert int(path.read_text()) == procs[answers.index("True")].pid


def test_a_failed_run_gives_the_lock_back_and_keeps_the_previous_run_time(store, lock, clock, monkeypatch):
    assert run(store, lock).ran
    first = lock.state().last_run
    clock.set("2026-11-30T12:00:00")
    add(store, "Likes chess")

    def boom(self):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr("memory.consolidation.job._Run._merge", boom)
    with pytest.raises(RuntimeError):
        run(store, lock)
    assert lock.state() == LockState(first, None)
    assert recent_runs(store)[0].interrupted
    monkeypatch.undo()
    assert run(store, lock).ran


def test_every_run_leaves_a_readable_log(store, lock, clock):
    add(store, "Likes coffee", when="2026-10-05T20:00:00")
    add(store, "Hates coffee", when="2026-11-29T08:00:00")
    run(store, lock)
    last = recent_runs(store, 1)[0]
    assert last.summary["superseded"] == 1 and last.finished_at
    assert last.details[0] == {"action": "restated", "memory_id": store.list()[0].id,
                               "content": store.list()[0].content, "reason": "states the change since 2026-11-29"}
    text = describe_run(last)
    assert "superseded 1" in text and "“Likes coffee”" in text


def test_consolidation_reads_each_vector_by_its_rowid_not_by_scanning_the_vector_table(store, lock):
    """vec0 answers `rowid = ?` from its rowid index but scans the whole table for `rowid IN (...)`; the run must
    not grow with the store that way (docs: memory/storage/vector_index.py)."""
    add(store, "Loves hiking in the mountains", when="2026-11-20T10:00:00")
    add(store, "Really loves hiking in the mountains")
    add(store, "Works as a nurse in Chengdu", category="profile")
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)
    try:
        result = run(store, lock)
    finally:
        store.db.conn.set_trace_callback(None)
    assert result.merged == 1  # the vectors were read and compared
    reads = [s for s in statements if re.search(r"\bFROM\s+memory_vectors\b", s)]
    assert reads and all(re.search(r"WHERE rowid = \S+$", s.strip()) for s in reads), reads
