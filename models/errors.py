"""The one error type of the model layer; its message is shown to the user as it is."""
from __future__ import annotations


class ModelError(Exception):
    """A model that cannot be used, as one plain sentence saying what is wrong and what to do."""

    code = "model_unusable"
