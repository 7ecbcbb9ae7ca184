"""Errors of the memory subsystem that are shown to the user as one sentence."""
from __future__ import annotations


class StoreError(Exception):
    """A known, user-actionable problem with the memory database (wrong key, damaged file, disk full)."""


class NotFound(StoreError):
    """A memory or session id that does not exist."""


class InvalidInput(StoreError):
    """Input that the store refuses, with a sentence saying why."""
