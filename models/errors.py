"""The one error type of the model layer; its message is shown to the user as it is."""
from __future__ import annotations


class ModelError(Exception):
    """A model that cannot be used, as one plain sentence saying what is wrong and what to do."""

    code = "model_unusable"


class EngineError(ModelError):
    """The engine process running the chat model crashed, was killed or stopped responding (the next request
    starts a new one)."""

    code = "engine_failed"

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason or message  # the cause alone, e.g. "killed by SIGKILL"
