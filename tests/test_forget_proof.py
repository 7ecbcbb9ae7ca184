"""Forgetting, proven: the text leaves every table, every page of the decrypted file and the WAL.

Rows are checked through SQL (every table, FTS5 and vec0 shadow tables included); then the raw file
and its write-ahead log are decrypted page by page with the key, so freed pages and the unused space
inside pages are searched too. A live control memory shows the scan does see stored text.
"""
from __future__ import annotations

import json

import pytest

from app.clock import Clock
from app.companion import Companion
from memory.consolidation.job import consolidate
from memory.consolidation.lock import LOCK_FILE, RunLock
from memory.recall.index import rebuild
from memory.records import Memory
from memory.storage.forgetting import forget
from memory.storage.sqlcipher import connect
from memory.storage.store import new_id
from tests.support.sqlcipher_pages import plaintext
from tests.support.traces import traces

CONTROL = "Lives in Qingdao near the Badaguan villas"


@pytest.fixture
def companion(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    yield c
    c.close()


def _vector_bytes(c: Companion, memory_id: str) -> bytes:
    rows = c.db.read("SELECT embedding FROM memory_vectors WHERE rowid = ?", (c.store.rid_of(memory_id),))
    return rows[0][0][:64]


def test_forgotten_memory_is_nowhere_not_in_history_index_logs_fts_or_vectors(companion):
    c = companion
    control = c.store.add(Memory(new_id(), "profile", CONTROL))
    first = c.store.add(Memory(new_id(), "preference", "Collects snow globes",
                               quote="I secretly collect zqxvintage snow globes"))
    c.store.update(first.id, content="Collects Zqxvintage snow globes")
    twin = c.store.add(Memory(new_id(), "preference", "Really collects Zqxvintage snow globes",
                              created_at="2026-11-20T09:00:00"))
    run = consolidate(c.store, RunLock(c.home / LOCK_FILE), force=True)  # merges them and logs it
    assert run.merged == 1
    assert rebuild(c.store).text.count("Zqxvintage") == 1
    vecs = [_vector_bytes(c, first.id), _vector_bytes(c, twin.id)]
    needles = ["Zqxvintage", "zqxvintage", "snow globe"]
    before = traces(c, needles)
    assert set(before["Zqxvintage"]) >= {"memories", "memory_history", "consolidation_log", "meta", "pages"}
    assert set(before["zqxvintage"]) >= {"memories_fts_content", "memories_fts_data"}

    receipt = forget(c.store, [first.id, twin.id])

    assert receipt.verified and receipt.found_in == [] and sorted(receipt.forgotten) == sorted([first.id, twin.id])
    assert traces(c, needles) == {}
    pages = plaintext(c.db_path, c.key.key)
    assert not any(v in pages for v in vecs)  # the embeddings, which can be inverted to text, are gone too
    assert {"memories", "pages"} <= set(traces(c, [CONTROL])[CONTROL])  # the scan does see live text
    assert c.store.get(control.id).content == CONTROL


def test_forgetting_one_fact_of_a_message_scrubs_it_from_its_siblings_quotes(companion):
    c = companion
    result = c.pipeline(use_model=False).process(
        "My name is Alice and I live in Zqxburg. I really love Vortexberries.", None, c.clock.today())
    by_text = {w.memory.content: w.memory for w in result.written}
    place = next(m for text, m in by_text.items() if "Zqxburg" in text)
    assert len(by_text) >= 2
    receipt = forget(c.store, [place.id])
    assert receipt.verified
    assert traces(c, ["Zqxburg", "zqxburg"]) == {}
    assert {m.content for m in c.store.list()} == set(by_text) - {place.content}


def test_forget_all_leaves_nothing(cli, companion_env):
    texts = ["Has a tortoise named Zqxshelly", "住在厦门鼓浪屿", "Loves 🍣 sushi from Zqxmart", "Sister Zqxlena lives in Lviv"]
    ids = [cli.json("memory", "add", t, "--category", "relationship", "--json")["id"] for t in texts]
    receipt = cli.json("memory", "forget", "--all", "--json")
    assert sorted(receipt["forgotten"]) == sorted(ids) and receipt["verified"] is True
    assert cli.json("memory", "list", "--status", "all", "--json") == []
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        assert traces(c, texts + ["Zqxshelly", "zqxshelly", "鼓浪屿", "Zqxmart", "zqxlena"]) == {}
    finally:
        c.close()


def test_receipt_lists_every_place_checked(cli):
    m = cli.json("memory", "add", "Afraid of Zqxmoths", "--category", "preference", "--json")
    receipt = cli.json("memory", "forget", m["id"], "--json")
    assert set(receipt) >= {"forgotten", "verified", "checked"}
    assert receipt["forgotten"] == [m["id"]] and receipt["verified"] is True
    checked = set(receipt["checked"])
    assert {"memories", "memory_history", "memories_fts_content", "memories_fts_data", "memories_fts_idx",
            "memory_vectors_vector_chunks00", "memory_vectors_rowids", "consolidation_log", "meta"} <= checked
    assert any(place.startswith("write-ahead log") for place in checked)
    text = cli.run("memory", "forget", cli.json("memory", "add", "Likes Zqxtea", "--json")["id"]).stdout
    assert "verified" in text and "checked:" in text


def test_deleting_a_session_removes_its_messages_everywhere(cli, companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        gone = c.transcript.create_session("to delete")
        kept = c.transcript.create_session("to keep")
        c.transcript.add_message(gone.id, "user", "I told nobody about the Zqxharbour accident")
        c.transcript.add_message(gone.id, "assistant", "Thank you for trusting me with the Zqxharbour story.")
        c.transcript.add_message(kept.id, "user", "Weekend plans: the Zqxmarket")
    finally:
        c.close()
    assert "2 messages" in cli.run("sessions", "delete", gone.id).stdout
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        assert traces(c, ["Zqxharbour", "zqxharbour", "told nobody"]) == {}
        assert "pages" in traces(c, ["Zqxmarket"])["Zqxmarket"]
        assert [s.id for s in c.transcript.sessions()] == [kept.id]
    finally:
        c.close()


def test_forget_while_another_connection_reads_is_honest_about_the_wal(companion):
    """A reader pins old pages in the WAL; the receipt must not claim the WAL is clean until it is."""
    c = companion
    m = c.store.add(Memory(new_id(), "preference", "Hides Zqxletters in the attic"))
    reader = connect(c.db_path, c.key.key)
    c.db.conn.execute("PRAGMA busy_timeout = 300")  # the checkpoint would wait 10 s for the reader
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM memories").fetchone()
        receipt = forget(c.store, [m.id])
        still_there = "pages" in traces(c, ["Zqxletters"]).get("Zqxletters", [])
        assert receipt.verified is not still_there
        assert json.dumps(receipt.to_json())  # a receipt the CLI can print either way
    finally:
        reader.execute("COMMIT")
        reader.close()
    c.db.checkpoint()
    assert traces(c, ["Zqxletters", "zqxletters"]) == {}


PROMPT_CACHE_PLACE = "prompt cache (prompt-state.bin)"


def _profile_with_a_saved_prompt_state(cli) -> str:
    """A memory in the always-known prefix and a reply through the CLI, so the engine saves the evaluated head."""
    memory = cli.json("memory", "add", "Keeps a Zqxheron on the balcony", "--category", "profile", "--json")
    settings = json.loads((cli.home / "settings.json").read_text()) if (cli.home / "settings.json").exists() else {}
    (cli.home / "settings.json").write_text(json.dumps({**settings, "max_reply_tokens": 4, "temperature": 0.0,
                                                        "n_ctx": 2048}))
    cli.run("say", "Hello, how are you?")
    assert (cli.home / "prompt-state.bin").exists()
    return memory["id"]


def test_the_receipt_lists_the_prompt_cache_and_proves_it_is_gone(cli):
    memory_id = _profile_with_a_saved_prompt_state(cli)
    receipt = cli.json("memory", "forget", memory_id, "--json")
    assert PROMPT_CACHE_PLACE in receipt["checked"] and receipt["verified"] is True, receipt
    assert not (cli.home / "prompt-state.bin").exists() and not (cli.home / "prompt-state.bin.tmp").exists()
    receipt = cli.json("memory", "forget", "--all", "--json")  # no file to begin with: checked, and clean
    assert PROMPT_CACHE_PLACE in receipt["checked"] and receipt["verified"] is True


def test_a_prompt_cache_that_cannot_be_deleted_is_not_verified(cli):
    memory_id = _profile_with_a_saved_prompt_state(cli)
    cache = cli.home / "prompt-state.bin"
    cache.unlink()
    cache.mkdir()  # something in its place that unlinking cannot remove
    (cache / "held").write_bytes(b"x")
    receipt = cli.json("memory", "forget", memory_id, "--json")
    assert receipt["verified"] is False and PROMPT_CACHE_PLACE in receipt["found_in"], receipt
    assert PROMPT_CACHE_PLACE in receipt["checked"]
    text = cli.run("memory", "forget", "--all").stdout
    assert "NOT verified" in text and PROMPT_CACHE_PLACE in text
