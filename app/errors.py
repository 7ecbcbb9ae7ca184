"""The one error type the user sees, and how lower layers' known errors map onto it."""
from __future__ import annotations

from memory import StoreError
from models.errors import ModelError


class AppError(Exception):
    """A problem the user can act on; its message is shown as is (one sentence)."""


USER_ERRORS = (AppError, StoreError, ModelError)
