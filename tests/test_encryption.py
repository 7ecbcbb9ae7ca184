"""Encryption and keys: ciphertext on disk (file and WAL), clear key problems that touch nothing, re-keying."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import keyring
import pytest

from app import maintenance
from app.clock import Clock
from app.companion import Companion
from app.keys import SERVICE, obtain_key
from memory.errors import StoreError
from memory.recall.hybrid import search
from memory.records import Memory
from memory.storage.sqlcipher import DbKey, connect
from memory.storage.store import new_id
from tests.support.sqlcipher_pages import plaintext

SECRETS = ["Zqxsecret diary entry about Marguerite", "住在杭州西湖边的小区", "Loves 🍜 ramen at Zqxnoodle bar"]
TOKENS = ["zqxsecret", "marguerite", "西湖", "zqxnoodle"]


def _snapshot(home: Path) -> dict[str, str]:
    """Every file under the data folder with its content hash (what 'nothing touched' is checked against)."""
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(home.rglob("*")) if p.is_file()}


def _one_line(proc) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    return lines[0]


def _account(home: Path) -> str:
    return f"database-key:{(home / 'companion.db').resolve()}"


@pytest.fixture
def filled(companion_env) -> Path:
    """A closed profile with memories in English, Chinese and emoji, its key in the (test) keyring."""
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        for text in SECRETS:
            c.store.add(Memory(new_id(), "profile", text))
    finally:
        c.close()
    return companion_env


def test_file_and_wal_hold_no_stored_text_while_open_and_after_close(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        for text in SECRETS:
            c.store.add(Memory(new_id(), "profile", text))
        session = c.transcript.create_session("Zqxsecret chat")
        c.transcript.add_message(session.id, "user", "I never told anyone about Marguerite")
        wal = c.db_path.with_name("companion.db-wal")
        assert wal.stat().st_size > 0  # the writes sit in the WAL right now
        needles = [t.encode() for t in SECRETS + TOKENS + ["Marguerite", "never told anyone"]]
        on_disk = b"".join(p.read_bytes() for p in companion_env.rglob("*") if p.is_file())
        assert [n for n in needles if n in on_disk] == []
        assert not c.db_path.read_bytes().startswith(b"SQLite format 3")
        decrypted = plaintext(c.db_path, c.key.key)  # the same bytes, decrypted with the key, do hold them
        assert all(n in decrypted for n in needles)
    finally:
        c.close()
    on_disk = b"".join(p.read_bytes() for p in companion_env.rglob("*") if p.is_file())
    assert [n for n in needles if n in on_disk] == []


def test_wrong_key_in_the_keyring_is_one_line_and_touches_nothing(cli, filled):
    keyring.set_password(SERVICE, _account(filled), "ab" * 32)
    before = _snapshot(filled)
    line = _one_line(cli.run("memory", "list", check=False))
    assert "key is wrong" in line and "Nothing was changed" in line
    assert _snapshot(filled) == before


def test_wrong_passphrase_is_one_line_and_touches_nothing(cli, companion_env):
    env = {"COMPANION_DB_KEY": "the right passphrase"}
    cli.run("memory", "add", SECRETS[0], env=env)
    before = _snapshot(companion_env)
    line = _one_line(cli.run("memory", "search", "diary", check=False, env={"COMPANION_DB_KEY": "a wrong one"}))
    assert "key is wrong" in line
    assert _snapshot(companion_env) == before
    assert SECRETS[0] in cli.run("memory", "list", env=env).stdout


@pytest.mark.parametrize("env, expected", [
    ({"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}, "COMPANION_DB_KEY"),
    ({"COMPANION_TEST_KEYRING_LOCKED": "1"}, "locked"),
], ids=["no-keyring-backend", "locked-keyring"])
def test_keyring_problems_are_one_line_and_touch_nothing(cli, filled, env, expected):
    before = _snapshot(filled)
    keyring_file = Path(os.environ["COMPANION_TEST_KEYRING"]).read_bytes()
    for args in (["memory", "list"], ["memory", "add", "Likes kites"], ["key", "rotate"]):
        assert expected in _one_line(cli.run(*args, check=False, env=env))
    assert _snapshot(filled) == before
    assert Path(os.environ["COMPANION_TEST_KEYRING"]).read_bytes() == keyring_file


def test_key_missing_from_the_keyring_does_not_make_a_new_one(cli, filled):
    keyring.delete_password(SERVICE, _account(filled))
    before = _snapshot(filled)
    line = _one_line(cli.run("memory", "list", check=False))
    assert "not in your system keyring" in line
    assert keyring.get_password(SERVICE, _account(filled)) is None  # no fresh key that would open nothing
    assert _snapshot(filled) == before


def test_malformed_key_in_the_keyring_is_one_line(cli, filled):
    keyring.set_password(SERVICE, _account(filled), "not-a-hex-key")
    before = _snapshot(filled)
    assert "malformed" in _one_line(cli.run("memory", "list", check=False))
    assert _snapshot(filled) == before


def _contents(cli) -> list[tuple[str, str]]:
    return sorted((m["id"], m["content"]) for m in cli.json("memory", "list", "--status", "all", "--json"))


def test_rekey_old_key_fails_new_key_opens_data_intact(cli, filled):
    db = filled / "companion.db"
    old = obtain_key(db).key
    before = _contents(cli)
    out = cli.run("key", "rotate").stdout
    assert "new key is in your system keyring" in out and "memories: 3" in out
    new = obtain_key(db).key
    assert new.secret != old.secret
    with pytest.raises(StoreError, match="key is wrong"):
        connect(db, old)
    conn = connect(db, new)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    assert _contents(cli) == before
    assert cli.json("memory", "search", "ramen noodle bar", "--json")["results"][0]["content"] == SECRETS[2]
    on_disk = b"".join(p.read_bytes() for p in filled.rglob("companion.db*"))
    assert not any(t.encode() in on_disk for t in SECRETS + TOKENS)


def test_rekey_to_a_passphrase_and_back_to_the_keyring(cli, filled):
    before = _contents(cli)
    new_pass = {"COMPANION_NEW_DB_KEY": "a long new passphrase"}
    assert "COMPANION_DB_KEY set to the new passphrase" in cli.run("key", "rotate", "--passphrase", env=new_pass).stdout
    assert keyring.get_password(SERVICE, _account(filled)) is None  # the stale keyring key is gone
    assert "not in your system keyring" in _one_line(cli.run("memory", "list", check=False))
    env = {"COMPANION_DB_KEY": "a long new passphrase"}
    assert _contents_env(cli, env) == before
    assert "stop setting COMPANION_DB_KEY" in cli.run("key", "rotate", env=env).stdout
    assert _contents(cli) == before
    stale = cli.run("memory", "list", env=env)  # the old passphrase still set: the keyring's key opens, with a hint
    assert "stop setting COMPANION_DB_KEY" in stale.stderr and SECRETS[0] in stale.stdout


def _contents_env(cli, env) -> list[tuple[str, str]]:
    return sorted((m["id"], m["content"]) for m in
                  json.loads(cli.run("memory", "list", "--status", "all", "--json", env=env).stdout))


def test_rekey_refuses_a_short_passphrase_and_changes_nothing(cli, filled):
    before = _snapshot(filled)
    assert "at least" in _one_line(cli.run("key", "rotate", "--passphrase", check=False,
                                           env={"COMPANION_NEW_DB_KEY": "short"}))
    assert _snapshot(filled) == before


class Killed(BaseException):
    """Stands for SIGKILL at one exact moment."""


def _rotate_and_die_before_the_keyring_learns(c: Companion, monkeypatch) -> None:
    """Re-key, and die after the file is re-encrypted but before the keyring's main entry changes."""
    def die(*args):
        raise Killed()

    with monkeypatch.context() as patched, pytest.raises(Killed):
        patched.setattr(maintenance, "store_new_key", die)
        maintenance.rotate_key(c)
    c.db.conn.close()  # as a killed process would: no checkpoint, no clean close


def test_rekey_interrupted_before_the_keyring_learned_the_key_is_finished_at_next_start(filled, monkeypatch):
    """The process dies after the file was re-encrypted but before the keyring's main entry changed."""
    c = Companion(filled, Clock.parse("2026-11-29"))
    old_secret = c.key.key.secret
    _rotate_and_die_before_the_keyring_learns(c, monkeypatch)
    assert keyring.get_password(SERVICE, _account(filled)) == old_secret  # the keyring still has the old key
    with pytest.raises(StoreError):
        connect(filled / "companion.db", DbKey(old_secret, "raw"))
    again = Companion(filled, Clock.parse("2026-11-29"))  # finds the parked key and finishes the change
    try:
        assert sorted(m.content for m in again.store.list()) == sorted(SECRETS)
        assert search(again.store, "diary", k=1)[0].memory.content == SECRETS[0]
        assert keyring.get_password(SERVICE, _account(filled)) == again.key.key.secret != old_secret
        assert keyring.get_password(SERVICE, f"database-key-pending:{(filled / 'companion.db').resolve()}") is None
    finally:
        again.close()


def test_rekey_from_a_passphrase_to_the_keyring_interrupted_never_locks_out(companion_env, monkeypatch, caplog):
    """Killed after re-encrypting, while the user still starts Companion with the old COMPANION_DB_KEY."""
    monkeypatch.setenv("COMPANION_DB_KEY", "the old passphrase")
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    c.store.add(Memory(new_id(), "profile", SECRETS[0]))
    _rotate_and_die_before_the_keyring_learns(c, monkeypatch)
    for attempt in ("finished an interrupted key change", "stop setting COMPANION_DB_KEY"):
        caplog.clear()
        again = Companion(companion_env, Clock.parse("2026-11-29"))
        try:
            assert [m.content for m in again.store.list()] == [SECRETS[0]] and again.key.source == "keyring"
        finally:
            again.close()
        assert attempt in caplog.text
