"""Search ranks its candidates by the whole score, with each memory's standing (importance, confidence,
last use, status) kept in memory and current across connections (memory/storage/standing.py)."""
from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from memory.recall.hybrid import search
from memory.records import Memory
from memory.storage import standing, vectors
from memory.storage.database import Database
from memory.storage.sqlcipher import DbKey
from memory.storage.store import MemoryStore, new_id
from models.embedder import FastEmbedEmbedder
from models.resolve import resolve_embedding_model

KEY = DbKey("d" * 64, "raw")
CROWD = 1500  # above vector_index.EXACT_BELOW: the sign-bit pass runs
OTHERS = ["Works as a nurse in Leeds", "Has a cat called Miso", "Hates coriander", "Runs on Sunday mornings",
          "Sister Anna lives in Berlin", "Learning Spanish for a trip", "Allergic to peanuts", "Plays chess online",
          "Drinks oat milk lattes", "Moved to a new flat in May", "Grows tomatoes on the balcony",
          "Reads fantasy novels before bed", "Supports Arsenal", "Takes the train to work", "Dislikes horror films"]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    return FastEmbedEmbedder(resolve_embedding_model(tmp_path_factory.mktemp("models")))


def _open(path, embedder) -> MemoryStore:
    store = MemoryStore(Database(path, KEY, datetime.now), embedder)
    vectors.ensure_model(store.db.conn, embedder)
    return store


def _near(vector, cosine, rng):
    """A unit vector at about this cosine to `vector`."""
    v = np.asarray(vector, dtype=np.float32)
    noise = rng.standard_normal(len(v)).astype(np.float32)
    noise -= noise @ v * v
    noise /= np.linalg.norm(noise)
    out = cosine * v + np.sqrt(1 - cosine ** 2) * noise
    return (out / np.linalg.norm(out)).tolist()


@pytest.fixture
def crowd(tmp_path, embedder):
    """1,500 memories of low importance, 250 of them near-identical jazz ones, and one more jazz memory (the
    first written, a little further from the query in meaning) that matters much more."""
    store = _open(tmp_path / "s.db", embedder)
    base, *others = embedder.embed(["Listens to jazz in the evening"] + OTHERS)
    rng = np.random.default_rng(5)
    with store.db.transaction():
        key = store.add(Memory(new_id(), "preference", "Puts on jazz records after dinner", importance=1.0,
                               confidence=1.0), vector=_near(base, 0.93, rng))
        for i in range(CROWD):
            if i % 6:
                text, vector = OTHERS[i % len(OTHERS)], _near(others[i % len(OTHERS)], 0.9, rng)
            else:
                text, vector = "Listens to jazz in the evening", _near(base, 0.97, rng)
            store.add(Memory(new_id(), "preference", text, importance=0.05, confidence=0.6), vector=vector)
    yield store, key, base
    store.db.close()


def test_the_memory_that_wins_on_standing_is_found_among_many_equally_close(crowd):
    store, key, base = crowd
    exact = search(store, "jazz in the evening", 3, query_vector=base, exhaustive=True)
    fast = search(store, "jazz in the evening", 3, query_vector=base)
    assert exact[0].memory.id == key.id
    assert fast[0].memory.id == key.id
    assert fast[0].relevance > 0.7


def test_a_change_made_through_another_connection_reaches_the_next_search(crowd, tmp_path, embedder):
    store, key, base = crowd
    assert search(store, "jazz", 1, query_vector=base)[0].memory.id == key.id
    other = _open(tmp_path / "s.db", embedder)
    try:
        other.update(key.id, reason="test", status="superseded")
        lifted = [m for m in other.list() if "jazz" in m.content][-1]
        other.update(lifted.id, reason="test", importance=0.9)
    finally:
        other.db.close()
    found = search(store, "jazz", 2, query_vector=base)
    assert found[0].memory.id == lifted.id
    assert key.id not in {h.memory.id for h in found}
    assert search(store, "jazz", 1, query_vector=base, statuses=("superseded",))[0].memory.id == key.id


def test_a_copy_older_than_the_change_log_is_read_again_whole(crowd):
    store, key, base = crowd
    conn = store.db.conn
    before = standing.current(conn)
    assert before.importance[store.rid_of(key.id)] == pytest.approx(1.0)
    with store.db.transaction():  # more changes than the log keeps: the copy cannot catch up from it
        for _ in range(7):
            conn.execute("UPDATE memories SET importance = importance WHERE rid > 0")
        conn.execute("UPDATE memories SET importance = 0.0, confidence = 0.0 WHERE id = ?", (key.id,))
    (kept,) = conn.execute("SELECT count(*) FROM memory_changes").fetchone()
    assert kept <= 11_000
    after = standing.current(conn)
    assert after is not before
    assert after.importance[store.rid_of(key.id)] == 0.0
    assert search(store, "jazz", 1, query_vector=base)[0].memory.id != key.id


def test_forgotten_and_disabled_memories_leave_the_candidates(crowd):
    store, key, base = crowd
    store.update(key.id, reason="test", disabled=True)
    assert search(store, "jazz", 1, query_vector=base)[0].memory.id == key.id  # disabled still counts here
    assert search(store, "jazz", 1, query_vector=base, include_disabled=False)[0].memory.id != key.id
    with store.db.transaction() as conn:
        conn.execute("DELETE FROM memories WHERE id = ?", (key.id,))
    assert key.id not in {h.memory.id for h in search(store, "jazz", 5, query_vector=base)}
