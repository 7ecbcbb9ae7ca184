"""Crash safety: SIGKILL a writing process at random points; after each kill nothing committed is lost.

CI runs a small number of kills (COMPANION_FAULT_KILLS, default 10: each of the ten victims once);
`scripts/fault_injection.py` runs the full 100 with seeds. After each kill:
`PRAGMA integrity_check` is ok, memories / full-text index / vectors agree row for row, and every
memory, message and edit the writer reported as committed is there.
"""
from __future__ import annotations

import json
import os

import pytest

from app.clock import Clock
from app.companion import Companion
from memory.records import Memory
from memory.storage import repair
from memory.storage.store import new_id
from tests.support.faults import campaign, reopen_with_app

CI_KILLS = int(os.environ.get("COMPANION_FAULT_KILLS", "10"))
SEED = int(os.environ.get("COMPANION_FAULT_SEED", "1"))


@pytest.mark.slow  # runs in CI too; `-m "not slow"` skips it locally
def test_random_kills_lose_nothing_and_leave_indexes_in_step(tmp_path):
    base = tmp_path / "faults"
    results = campaign(base, CI_KILLS, SEED)
    assert [r.line() for r in results if not r.ok] == []
    assert sum(r.killed for r in results) == CI_KILLS, [r.line() for r in results]
    assert sum(r.committed for r in results) > 0
    for home in sorted(p for p in base.iterdir() if (p / "companion.db").exists()):
        assert reopen_with_app(home).clean, home  # the app's own start-up check has nothing left to repair


def _break_indexes(companion_env) -> dict:
    """Open the profile and knock its indexes out of step the way a bug or a hand-restored file could."""
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        kept = c.store.add(Memory(new_id(), "preference", "Collects vintage fountain pens"))
        lost_fts = c.store.add(Memory(new_id(), "profile", "Works night shifts at the observatory"))
        lost_vec = c.store.add(Memory(new_id(), "relationship", "Brother Kenji lives in Sapporo"))
        session = c.transcript.create_session("t")
        msg = c.transcript.add_message(session.id, "user", "We talked about the aurora borealis trip")
        with c.db.transaction() as conn:
            conn.execute("DELETE FROM memories_fts WHERE rowid = ?", (c.store.rid_of(lost_fts.id),))
            conn.execute("DELETE FROM memory_vectors WHERE rowid = ?", (c.store.rid_of(lost_vec.id),))
            conn.execute("INSERT INTO memories_fts(rowid, text) VALUES (9999, 'ghost row')")
            conn.execute("DELETE FROM messages_fts")
        found = repair.check(c.db.conn)
        assert (found.fts_missing, found.fts_extra, found.vectors_missing) == (
            [c.store.rid_of(lost_fts.id)], [9999], [c.store.rid_of(lost_vec.id)])
        assert len(found.messages_fts_missing) == 1
        return {"kept": kept.id, "fts": lost_fts.id, "vec": lost_vec.id, "session": session.id, "message": msg.id}
    finally:
        c.db.close()


def test_start_up_repairs_what_disagrees_and_says_so_in_one_line(cli, companion_env):
    ids = _break_indexes(companion_env)
    proc = cli.run("memory", "search", "observatory night shifts", "--json")
    warnings = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and "repaired" in warnings[0], proc.stderr
    assert "1 memories missing from the full-text index" in warnings[0] and "1 memories without a vector" in warnings[0]
    assert json.loads(proc.stdout)["results"][0]["id"] == ids["fts"]
    again = cli.run("memory", "list", "--json")
    assert again.stderr == ""  # repaired once, for good
    assert {m["id"] for m in json.loads(again.stdout)} == {ids["kept"], ids["fts"], ids["vec"]}
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        assert repair.check(c.db.conn, deep=True).clean
        assert [m.id for m in c.transcript.search("aurora")] == [ids["message"]]
    finally:
        c.close()
