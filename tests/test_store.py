"""The encrypted store in-process: vectors follow the embedding model, history, supersede, transcript."""
from __future__ import annotations

import math

import pytest

from app.clock import Clock
from app.companion import Companion
from memory.errors import InvalidInput, NotFound
from memory.recall.hybrid import search
from memory.records import Memory
from memory.storage import vectors
from memory.storage.store import new_id


@pytest.fixture
def companion(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    yield c
    c.close()


class ShortEmbedder:
    """Another embedding model for the switch test: the real one cut to 64 dims (implements Embedder)."""

    model_id = "test/minilm-first-64"
    dim = 64

    def __init__(self, real):
        self.real = real

    def embed(self, texts):
        out = []
        for v in self.real.embed(texts):
            cut = v[:64]
            n = math.sqrt(sum(x * x for x in cut)) or 1.0
            out.append([x / n for x in cut])
        return out


def _add(c, content, category="preference"):
    return c.store.add(Memory(new_id(), category, content))


def test_switching_embedding_model_reembeds_everything_with_progress(companion):
    c = companion
    for text in ("Likes hiking in the Alps", "Works as a nurse", "Sister Lily had a baby"):
        _add(c, text)
    other = ShortEmbedder(c.embedder)
    seen = []
    assert vectors.ensure_model(c.db.conn, other, lambda done, total: seen.append((done, total))) == 3
    assert seen[-1] == (3, 3)
    assert vectors.stored_model(c.db.conn) == ("test/minilm-first-64", 64)
    c.store.embedder = other
    assert search(c.store, "mountain walks", k=1)[0].memory.content == "Likes hiking in the Alps"
    dims = {len(eval(vectors.dump(c.db.conn, rid))) for (rid,) in c.db.read("SELECT rid FROM memories")}
    assert dims == {64}
    # Same model again: nothing to do.
    assert vectors.ensure_model(c.db.conn, other) == 0
    assert vectors.ensure_model(c.db.conn, c.embedder) == 3


def test_update_records_history_and_reindexes(companion):
    m = _add(companion, "Likes green tea")
    companion.store.update(m.id, content="Likes oolong tea")
    assert [h.memory.content for h in search(companion.store, "oolong", k=1)] == ["Likes oolong tea"]
    hist = companion.store.history(m.id)
    assert [h.action for h in hist] == ["add", "update"] and hist[1].before["content"] == "Likes green tea"


def test_bad_values_are_refused_with_a_sentence(companion):
    with pytest.raises(InvalidInput, match="category"):
        companion.store.add(Memory(new_id(), "food", "Likes noodles"))
    with pytest.raises(InvalidInput, match="some text"):
        companion.store.add(Memory(new_id(), "profile", " \x00 "))
    with pytest.raises(NotFound):
        companion.store.get("m_missing")
    assert companion.store.list() == []


def test_transcript_search_and_delete(companion):
    t = companion.transcript
    s1 = t.create_session("first")
    t.add_message(s1.id, "user", "我们上次聊到了去云南旅行的计划")
    t.add_message(s1.id, "assistant", "Yes, the Yunnan trip in spring!")
    s2 = t.create_session("second")
    assert [m.session_id for m in t.search("云南 旅行")] == [s1.id]
    assert t.previous_session(s2.id).id == s1.id
    assert t.delete_session(s1.id) == 2
    assert t.search("云南") == [] and t.search("Yunnan") == []
    text = b"".join(v.encode() if isinstance(v, str) else v if isinstance(v, bytes) else b""
                    for (name,) in companion.db.read("SELECT name FROM sqlite_master WHERE type='table'")
                    for row in companion.db.read(f'SELECT * FROM "{name}"') for v in row)
    assert "云南".encode() not in text and b"Yunnan" not in text


@pytest.mark.parametrize("query", ["\x00\x01\x1b[31m", "name\ud800", "\ud83d", "😀👍🏽 名字", "\u200b\ufeff"])
def test_search_survives_control_characters_and_broken_surrogates(companion, query):
    _add(companion, "Name is Alice", "profile")
    assert isinstance(search(companion.store, query, k=5), list)
