"""The command-line contract end to end, through the installed console script and the bundled models."""
from __future__ import annotations

import json

import pytest

from app.clock import Clock
from app.companion import Companion


def test_remembered_name_is_used_in_a_new_session(cli):
    first = cli.json("say", "Remember that my name is Alice", "--json", "--wait-memory", today="2026-11-29")
    written = [m for m in first["memories_written"] if "Alice" in m["content"]]
    assert written and written[0]["category"] == "profile" and written[0]["source"] == "explicit"
    second = cli.json("say", "What is my name?", "--json", today="2026-11-30")
    assert second["session"] != first["session"]
    assert written[0]["id"] in second["memories_used"]
    assert isinstance(second["reply"], str) and second["reply"]


def test_remembered_name_in_chinese(cli):
    first = cli.json("say", "记住我叫小林", "--json", "--wait-memory", today="2026-11-29")
    written = [m for m in first["memories_written"] if "小林" in m["content"]]
    assert written, first
    second = cli.json("say", "我叫什么名字？", "--json", today="2026-11-30")
    assert written[0]["id"] in second["memories_used"]


def test_memory_round_trip(cli, tmp_path):
    added = cli.json("memory", "add", "Has a cat named Pickles", "--category", "relationship", "--json")
    event = cli.json("memory", "add", "Math exam", "--category", "event", "--date", "2026-11-30", "--json")
    assert event["event_date"] == "2026-11-30"
    listed = cli.json("memory", "list", "--json")
    assert {m["id"] for m in listed} == {added["id"], event["id"]}
    assert set(listed[0]) >= {"id", "category", "content", "status", "confidence", "importance", "strength",
                              "source", "event_date", "valid_from", "valid_to", "created_at", "updated_at",
                              "last_used_at", "hit_count", "pinned", "disabled", "superseded_by"}
    found = cli.json("memory", "search", "pet cat", "--json")
    assert found["results"][0]["id"] == added["id"] and "score" in found["results"][0]
    edited = cli.json("memory", "edit", added["id"], "--content", "Has a cat named Pickles (14 years old)",
                      "--pin", "--json")
    assert edited["pinned"] and "14 years" in edited["content"]
    history = cli.json("memory", "history", added["id"], "--json")
    assert [h["action"] for h in history] == ["add", "update"]
    assert history[1]["before"]["content"] == "Has a cat named Pickles"
    export = tmp_path / "export.json"
    warning = cli.run("memory", "export", "-o", str(export)).stderr
    assert "not encrypted" in warning and "does not remove it from this file" in warning
    md = cli.run("memory", "export", "--format", "md").stdout
    assert "Pickles" in md and "## Relationship" in md
    receipt = cli.json("memory", "forget", added["id"], "--json")
    assert receipt["forgotten"] == [added["id"]] and receipt["verified"] is True
    assert "memories_fts_content" in receipt["checked"] and "memory_history" in receipt["checked"]
    assert [m["id"] for m in cli.json("memory", "list", "--json")] == [event["id"]]
    out = cli.run("memory", "import", str(export)).stdout
    assert "imported 1" in out  # the event is already there; the forgotten memory comes back with its id
    back = {m["id"]: m for m in cli.json("memory", "list", "--json")}
    assert back[added["id"]]["created_at"] == edited["created_at"] and back[added["id"]]["pinned"] is True


def _all_table_text(companion: Companion) -> dict[str, bytes]:
    out = {}
    conn = companion.db.conn
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        blob = b""
        for row in conn.execute(f'SELECT * FROM "{name}"').fetchall():
            for v in row:
                blob += v.encode() if isinstance(v, str) else v if isinstance(v, bytes) else b""
        out[name] = blob
    return out


def test_forgotten_text_is_in_no_table_and_file_is_ciphertext(cli, companion_env):
    secret = "Secretly afraid of Zanzibar parrots"
    m = cli.json("memory", "add", secret, "--category", "preference", "--json")
    cli.json("memory", "add", "Lives in Qingdao", "--category", "profile", "--json")
    raw = b"".join(p.read_bytes() for p in companion_env.glob("companion.db*"))
    assert b"Zanzibar" not in raw and b"Qingdao" not in raw
    assert not raw.startswith(b"SQLite format 3")
    cli.json("memory", "forget", m["id"], "--json")
    c = Companion(companion_env, Clock(None))
    try:
        tables = _all_table_text(c)
        assert "memories_fts_data" in tables and "memory_vectors_chunks" in tables
        assert [t for t, blob in tables.items() if b"Zanzibar" in blob or b"zanzibar" in blob] == []
        assert any(b"Qingdao" in blob for blob in tables.values())  # the scan does see stored text
    finally:
        c.close()


@pytest.mark.parametrize("query", ['"', "AND OR (", "*", "NEAR(", "", "   ", "x" * 100_000,
                                   "\x01\x1b[31m\x7f", "'; DROP TABLE memories; --"])
def test_search_with_junk_never_errors(cli, query):
    cli.json("memory", "add", "Name is Alice", "--category", "profile", "--json")
    found = cli.json("memory", "search", query, "--json")
    assert isinstance(found["results"], list)


def test_queries_file_answers_many_queries_in_one_process(cli, tmp_path):
    for text in ("Likes hiking", "Works as a nurse", "住在北京朝阳"):
        cli.json("memory", "add", text, "--category", "profile", "--json")
    queries = ["what do I do for work", "hobbies", "我住在哪里", "", "NEAR(("]
    qfile = tmp_path / "q.txt"
    qfile.write_text("\n".join(queries) + "\n", encoding="utf-8")
    lines = cli.run("memory", "search", "--queries-file", str(qfile), "--k", "50", "--json").stdout.splitlines()
    answers = [json.loads(line) for line in lines]
    assert [a["query"] for a in answers] == queries
    assert answers[0]["results"][0]["content"] == "Works as a nurse"
    assert answers[2]["results"][0]["content"] == "住在北京朝阳"


def test_no_keyring_backend_names_the_fallback(cli):
    proc = cli.run("memory", "list", check=False, env={"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "COMPANION_DB_KEY" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    env = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "COMPANION_DB_KEY": "correct horse"}
    cli.run("memory", "add", "Likes tea", "--category", "preference", env=env)
    wrong = cli.run("memory", "list", check=False, env={**env, "COMPANION_DB_KEY": "wrong"})
    assert wrong.returncode == 2 and "key is wrong" in wrong.stderr and "Traceback" not in wrong.stderr
    assert "Likes tea" in cli.run("memory", "list", env=env).stdout


def test_bad_input_gets_one_clear_line(cli):
    for args in (["memory", "edit", "m_nope", "--content", "x"], ["memory", "forget", "m_nope"],
                 ["memory", "add", "x", "--date", "tomorrow"], ["memory", "list", "--category", "food"],
                 ["--today", "29/11/2026", "memory", "list"], ["sessions", "show", "s_nope"],
                 ["memory", "import", "/nonexistent.json"]):
        proc = cli.run(*args, check=False)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)


def test_models_status_names_the_bundled_models(cli):
    out = cli.run("models", "status").stdout
    assert "SmolLM2-135M-Instruct.Q4_1.gguf" in out and "all-MiniLM-L6-v2" in out and "384" in out
