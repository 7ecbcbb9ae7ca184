"""The one error type the user sees: a stable code per kind, and one sentence.

Lower layers raise their own known errors (`memory.StoreError` and its kinds, `models.errors.ModelError`),
each with a `code`; `user_error` turns any of them into a `UserError`, so both front ends handle one
type: the CLI prints the sentence, the desktop translates by code (docs/architecture.md, "Errors").
"""
from __future__ import annotations

import errno

from memory import StoreError
from models.errors import ModelError

# The stable codes (scripts and the desktop's translations rely on them; add, never rename).
CODES = frozenset({
    "invalid_input",        # an argument or a value the user gave is not acceptable
    "instruction_refused",  # text that reads as an instruction to the companion is never stored
    "not_found",            # no memory or session has that id
    "key_wrong",            # the database does not open with the key or passphrase given
    "key_needed",           # the desktop must ask for a passphrase
    "keyring",              # the system keyring is missing, locked or refused
    "key_change_failed",    # a re-key did not check out; the old key stays
    "db_damaged",           # the database file is damaged
    "store_unusable",       # the database cannot be opened or created
    "disk_full",            # no space left to write
    "file_unreadable",      # a file the user named cannot be read, or is not what it should be
    "file_unwritable",      # a file the user named cannot be written
    "settings_damaged",     # the settings file cannot be read
    "model_unusable",       # a chat or embedding model cannot be used
    "engine_failed",        # the chat engine process crashed, was killed or hung (the next message restarts it)
    "unavailable",          # what was asked for is not available from here
    "offline",              # a model host (or its mirror) cannot be reached: no network
})


class UserError(Exception):
    """A problem the user can act on: `code` says which kind (one of CODES), `message` is one sentence."""

    def __init__(self, code: str, message: str):
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


def user_error(exc: BaseException) -> UserError | None:
    """The user-facing form of a known error from any layer; None for anything else (a bug)."""
    if isinstance(exc, UserError):
        return exc
    if isinstance(exc, (StoreError, ModelError)):
        return UserError(exc.code, str(exc))
    return None


def write_error(path, exc: OSError) -> UserError:
    """A file the user asked for could not be written: say why (a full disk has its own code)."""
    code = "disk_full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "file_unwritable"
    return UserError(code, f"Cannot write {path}: {exc.strerror}.")
