"""The small interfaces the memory subsystem needs from the outside world."""
from __future__ import annotations

from typing import Protocol, Sequence


class Embedder(Protocol):
    """Turns texts into normalized vectors of a fixed dimension."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Return one vector per text, each of length `dim`."""
        ...


class Completer(Protocol):
    """Answers a prompt with JSON text constrained by a JSON schema."""

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 512) -> str:
        """Return the model's raw JSON answer (may still be malformed; callers validate)."""
        ...
