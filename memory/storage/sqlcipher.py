"""Opening the encrypted SQLite database: SQLCipher key, sqlite-vec, WAL, migrations."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import sqlcipher3
import sqlite_vec

from memory.errors import KeyWrong, StoreError
from memory.storage.migrations import migrate

DatabaseError = sqlcipher3.DatabaseError
OperationalError = sqlcipher3.OperationalError
_HEX_KEY = re.compile(r"^[0-9a-fA-F]{64}$")


@dataclass(frozen=True)
class DbKey:
    """The database key: a 256-bit raw key (hex, from the keyring) or a user passphrase."""

    secret: str
    kind: str  # "raw" or "passphrase"

    def pragma_value(self) -> str:
        """The quoted value for PRAGMA key/rekey."""
        if self.kind == "raw":
            if not _HEX_KEY.match(self.secret):
                raise StoreError("The stored database key is malformed; it must be 64 hex digits.")
            return f"\"x'{self.secret}'\""
        return "'" + self.secret.replace("'", "''") + "'"


def _apply_key(conn, key: DbKey) -> None:
    # SQLCipher logs a failed decryption to stderr itself; the StoreError below is the one message.
    conn.execute("PRAGMA cipher_log_level = NONE")
    conn.execute(f"PRAGMA key = {key.pragma_value()}")


def connect(path: Path, key: DbKey) -> "sqlcipher3.Connection":
    """Open (creating if needed) the encrypted database at `path` and bring its schema up to date."""
    existed = path.exists() and path.stat().st_size > 0
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlcipher3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10.0)
    except OperationalError as exc:
        raise StoreError(f"Could not open the database at {path}: {exc}.") from exc
    try:
        _apply_key(conn, key)
        # The first read decrypts page 1: a wrong key or a damaged file fails here, before any write.
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except DatabaseError as exc:
        conn.close()
        if existed:
            raise KeyWrong(
                f"Could not decrypt the database at {path}: the key is wrong or the file is damaged. "
                "Nothing was changed."
            ) from exc
        raise StoreError(f"Could not create the database at {path}: {exc}.") from exc
    _configure(conn)
    migrate(conn)
    return conn


PAGE_CACHE_KIB = 65536  # SQLite's default is 2 MB


def _configure(conn) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("PRAGMA busy_timeout = 10000")
    # Every KNN query reads all vectors; with SQLCipher each page read from disk is decrypted again.
    # Keeping decrypted pages cached (grows only as used) made search at 10k memories 7x faster
    # (scripts/bench_search.py measures it side by side).
    conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)


def rekey(conn, new_key: DbKey) -> None:
    """Re-encrypt the whole database under a new key."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute(f"PRAGMA rekey = {new_key.pragma_value()}")


def checkpoint(conn) -> bool:
    """Move everything from the WAL into the main file and truncate the WAL; False if a reader prevented it."""
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return busy == 0
