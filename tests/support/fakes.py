"""Fakes for failures that the real parts cannot be made to produce on demand; they implement the real protocols."""
from __future__ import annotations

from typing import Callable

from memory.protocols import Completer


class ScriptedCompleter(Completer):
    """A chat model whose JSON answers are scripted: a string is returned, an exception is raised."""

    def __init__(self, *answers: str | BaseException | Callable[[str], str]):
        self.answers = list(answers)
        self.prompts: list[str] = []

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 512) -> str:
        """The next scripted answer (the last one repeats)."""
        self.prompts.append(user)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, BaseException):
            raise answer
        return answer(user) if callable(answer) else answer
