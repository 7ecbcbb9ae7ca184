"""Errors of the memory subsystem that are shown to the user as one sentence; `code` says which kind.

`app.errors.user_error` turns them into the one user-facing error type; the codes are part of that
contract (docs/architecture.md, "Errors"), so the desktop can translate by code.
"""
from __future__ import annotations


class StoreError(Exception):
    """A known, user-actionable problem with the memory database (cannot open, damaged file, disk full)."""

    code = "store_unusable"


class KeyWrong(StoreError):
    """The database does not decrypt with the key given (or its first page is damaged)."""

    code = "key_wrong"


class NotFound(StoreError):
    """A memory or session id that does not exist."""

    code = "not_found"


class InvalidInput(StoreError):
    """Input that the store refuses, with a sentence saying why."""

    code = "invalid_input"
