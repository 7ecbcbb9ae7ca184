"""Keeping the store sound: opening it (finishing an interrupted re-key), the start-up check, and re-keying.

A re-key never leaves the user locked out: a new keyring key is first parked under a "pending"
account, the file is re-encrypted, re-opened with the new key and checked, and only then does the
keyring's main entry change. If the process dies after the file was re-encrypted but before the
keyring learned the key, the next start finds the pending key, opens with it and finishes the job.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import keyring
import keyring.errors

from app.errors import UserError
from app.keys import SERVICE, KeyChoice, _account, keyring_available, new_raw_key, store_new_key
from memory import Embedder, StoreError
from memory.storage import (
    Consistency,
    Database,
    DatabaseError,
    DbKey,
    MULTILINGUAL_VECTORS,
    OperationalError,
    ProgressFn,
    checkpoint,
    connect,
    ensure_model,
    repair_index,
)

if TYPE_CHECKING:
    from app.companion import Companion

log = logging.getLogger(__name__)
NEW_KEY_ENV = "COMPANION_NEW_DB_KEY"
MIN_PASSPHRASE = 8


def _pending_account(db_path: Path) -> str:
    return f"database-key-pending:{db_path.resolve()}"


def _damaged(db_path: Path, exc: Exception) -> UserError:
    return UserError("db_damaged", f"The database at {db_path} is damaged ({exc}). Nothing was changed; restore it from a "
                      "backup, or move it away to start with an empty memory.")


# -- opening --------------------------------------------------------------------------------------
def open_database(db_path: Path, choice: KeyChoice, clock) -> tuple[Database, KeyChoice]:
    """Open the encrypted database with the chosen key, else with a key an interrupted re-key left behind."""
    try:
        return Database(db_path, choice.key, clock), choice
    except OperationalError:
        raise
    except DatabaseError as exc:
        raise _damaged(db_path, exc) from exc
    except StoreError as exc:
        wrong_key = exc
    for key, note in _other_keys(db_path, choice):
        try:
            db = Database(db_path, key, clock)
        except (StoreError, DatabaseError):
            continue
        store_new_key(db_path, key)
        _forget_pending(db_path)
        log.warning(note)
        return db, KeyChoice(key, "keyring")
    raise wrong_key


def _other_keys(db_path: Path, choice: KeyChoice) -> list[tuple[DbKey, str]]:
    """Keys worth a try when the chosen one fails: a parked re-key key, then (for a passphrase) the keyring's."""
    out = []
    pending = _keyring_secret(_pending_account(db_path))
    if pending:
        out.append((DbKey(pending, "raw"), "finished an interrupted key change: the new key is now in the keyring"))
    main = _keyring_secret(_account(db_path)) if choice.source != "keyring" else None
    if main:
        out.append((DbKey(main, "raw"), "COMPANION_DB_KEY does not open the database but the key in the keyring "
                                        "does: stop setting COMPANION_DB_KEY"))
    return out


def check_at_startup(db: Database, embedder: Embedder, progress: ProgressFn | None = None,
                     multilingual: Embedder | None = None) -> Consistency:
    """Vectors of the current embedding models; memories, full-text index and vectors agree row for row.

    A model change re-embeds everything (so does a database that has no multilingual vectors yet); whatever
    disagrees is re-indexed and logged in one line. A page that cannot be read on the way is a damaged
    file: refused with one sentence, nothing written.
    """
    try:
        reembedded = ensure_model(db.conn, embedder, progress)
        if multilingual is not None:
            filled = ensure_model(db.conn, multilingual, progress, MULTILINGUAL_VECTORS)
            if filled:
                log.info("embedded %d memories with %s", filled, multilingual.model_id)
        found = repair_index(db, embedder, multilingual=multilingual)
    except DatabaseError as exc:
        if isinstance(exc, OperationalError):  # locked, disk full: not damage
            raise
        db.conn.close()
        raise _damaged(db.path, exc) from exc
    if reembedded:
        log.info("re-embedded %d memories with %s", reembedded, embedder.model_id)
    if not found.clean:
        log.warning("start-up check repaired the memory index: %s", found.summary())
    return found


def _keyring_secret(account: str) -> str | None:
    try:
        return keyring.get_password(SERVICE, account)
    except keyring.errors.KeyringError:  # no backend, locked: nothing to try
        return None


def _forget_pending(db_path: Path) -> None:
    try:
        keyring.delete_password(SERVICE, _pending_account(db_path))
    except keyring.errors.KeyringError:  # nothing parked (PasswordDeleteError) or the keyring went away
        pass


# -- re-keying ------------------------------------------------------------------------------------
@dataclass
class KeyChange:
    """What a re-key did: where the new key lives, and what the re-opened database holds."""

    source: str
    memories: int
    messages: int
    previous_source: str = "keyring"

    def describe(self) -> str:
        if self.source != "keyring":
            where = "from now on start Companion with COMPANION_DB_KEY set to the new passphrase"
        elif self.previous_source != "keyring":
            where = "the new key is in your system keyring: stop setting COMPANION_DB_KEY"
        else:
            where = "the new key is in your system keyring"
        return (f"re-encrypted the database under a new key and re-opened it (memories: {self.memories}, "
                f"messages: {self.messages}); {where}.")


def rotate_key(companion: Companion, new_passphrase: str | None = None) -> KeyChange:
    """Re-encrypt the database under a new random keyring key, or under `new_passphrase`."""
    old = companion.key
    new = _new_choice(new_passphrase)
    if new.source == "keyring":
        _park(companion.db_path, new.key)  # also proves the keyring takes writes before anything changes
    db = companion.db
    before = _counts(db.conn)
    with db.lock:
        checkpoint(db.conn)
        db.conn.execute(f"PRAGMA rekey = {new.key.pragma_value()}")
        checkpoint(db.conn)
    try:
        after = _reopen_counts(db.path, new.key)
        if after != before:
            raise StoreError(f"the re-encrypted database holds {after} rows instead of {before}")
    except (StoreError, DatabaseError) as exc:
        with db.lock:  # put the old key back so the file and the keyring agree again
            db.conn.execute(f"PRAGMA rekey = {old.key.pragma_value()}")
            checkpoint(db.conn)
        if new.source == "keyring":
            _forget_pending(db.path)
        raise UserError("key_change_failed", f"The key change did not check out ({exc}); the database keeps its old key.") from exc
    if new.source == "keyring":
        store_new_key(db.path, new.key)
        _forget_pending(db.path)
    elif old.source == "keyring":
        _drop_keyring_key(db.path)  # the old key opens nothing now; a stale entry would only mislead
    companion.key = new
    return KeyChange(new.source, *after, previous_source=old.source)


def _new_choice(new_passphrase: str | None) -> KeyChoice:
    if new_passphrase is not None:
        if len(new_passphrase.strip()) < MIN_PASSPHRASE:
            raise UserError("invalid_input", f"The new passphrase must have at least {MIN_PASSPHRASE} characters.")
        return KeyChoice(DbKey(new_passphrase, "passphrase"), "passphrase")
    if not keyring_available():
        raise UserError("keyring", "No system keyring is available to keep a new random key; use --passphrase to re-key "
                       f"with a passphrase of your choice ({NEW_KEY_ENV}).")
    return KeyChoice(new_raw_key(), "keyring")


def _park(db_path: Path, key: DbKey) -> None:
    try:
        keyring.set_password(SERVICE, _pending_account(db_path), key.secret)
        if keyring.get_password(SERVICE, _pending_account(db_path)) != key.secret:
            raise UserError("keyring", "The system keyring did not keep the new key; the database keeps its old key.")
    except keyring.errors.KeyringLocked as exc:
        raise UserError("keyring", "Your system keyring is locked. Unlock it and try again; nothing was changed.") from exc
    except keyring.errors.KeyringError as exc:
        raise UserError("keyring", f"The system keyring refused the new key ({exc}); nothing was changed.") from exc


def _drop_keyring_key(db_path: Path) -> None:
    try:
        keyring.delete_password(SERVICE, _account(db_path))
    except keyring.errors.KeyringError:
        pass


def _counts(conn) -> tuple[int, int]:
    return (conn.execute("SELECT count(*) FROM memories").fetchone()[0],
            conn.execute("SELECT count(*) FROM messages").fetchone()[0])


def _reopen_counts(db_path: Path, key: DbKey) -> tuple[int, int]:
    """Open the file afresh with the new key, check its pages and count its rows."""
    conn = connect(db_path, key)
    try:
        status = conn.execute("PRAGMA quick_check").fetchone()[0]
        if status != "ok":
            raise StoreError(f"quick_check says {status}")
        return _counts(conn)
    finally:
        conn.close()
