"""Where the database key comes from: the OS keyring, or a fallback the user chose explicitly."""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import keyring
import keyring.errors
from keyring.backends import fail

from app.errors import UserError
from memory.storage import DbKey

SERVICE = "Companion"
ENV_KEY = "COMPANION_DB_KEY"
NO_KEYRING = (
    "No system keyring is available here (common on headless Linux), so Companion cannot keep its "
    "database key safely by itself. Choose a passphrase and start Companion with the environment "
    "variable COMPANION_DB_KEY set to it (the same passphrase every time), or install and unlock a "
    "keyring such as GNOME Keyring or KWallet."
)


@dataclass(frozen=True)
class KeyChoice:
    """The key and a plain description of where it came from (shown in Settings)."""

    key: DbKey
    source: str  # "keyring" | "environment" | "passphrase"

    def describe(self) -> str:
        return {
            "keyring": "encrypted; the key is kept in your system keyring",
            "environment": "encrypted with the passphrase in COMPANION_DB_KEY (no system keyring in use)",
            "passphrase": "encrypted with the passphrase you entered (no system keyring in use)",
        }[self.source]


def keyring_available() -> bool:
    """True if a real keyring backend (not the 'fail' one) is active."""
    backend = keyring.get_keyring()
    return not isinstance(backend, fail.Keyring) and getattr(backend, "priority", 1) > 0


def _account(db_path: Path) -> str:
    return f"database-key:{db_path.resolve()}"


def obtain_key(db_path: Path, passphrase: str | None = None) -> KeyChoice:
    """The key for this database: passphrase given → it; COMPANION_DB_KEY → it; else the keyring."""
    if passphrase:
        return KeyChoice(DbKey(passphrase, "passphrase"), "passphrase")
    env = os.environ.get(ENV_KEY)
    if env:
        return KeyChoice(DbKey(env, "passphrase"), "environment")
    if not keyring_available():
        raise UserError("keyring", NO_KEYRING)
    return KeyChoice(_keyring_key(db_path), "keyring")


def _keyring_key(db_path: Path) -> DbKey:
    account = _account(db_path)
    try:
        secret = keyring.get_password(SERVICE, account)
        if secret:
            return DbKey(secret, "raw")
        if db_path.exists() and db_path.stat().st_size > 0:
            raise UserError(
                "keyring",
                f"The key for {db_path} is not in your system keyring, so the database cannot be opened. "
                "If you set it up with a passphrase, start Companion with COMPANION_DB_KEY set to it."
            )
        secret = secrets.token_hex(32)
        keyring.set_password(SERVICE, account, secret)
        if keyring.get_password(SERVICE, account) != secret:
            raise UserError("keyring", "The system keyring did not keep the new database key; Companion will "
                            "not start without a key it can read back.")
        return DbKey(secret, "raw")
    except keyring.errors.KeyringLocked as exc:
        raise UserError("keyring", "Your system keyring is locked. Unlock it (log in to your desktop session) "
                        "and try again.") from exc
    except keyring.errors.KeyringError as exc:
        raise UserError("keyring", f"The system keyring refused the request ({exc}). {NO_KEYRING}") from exc


def store_new_key(db_path: Path, key: DbKey) -> None:
    """Remember a new raw key in the keyring (after a re-key)."""
    keyring.set_password(SERVICE, _account(db_path), key.secret)


def new_raw_key() -> DbKey:
    """A fresh random 256-bit key."""
    return DbKey(secrets.token_hex(32), "raw")
