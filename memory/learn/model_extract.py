"""Broad candidates from the chat model, asked for JSON under a schema; every answer is checked."""
from __future__ import annotations

import json
import logging

from memory.learn.prompts import EXTRACTION_SCHEMA, EXTRACTION_SYSTEM, extraction_user_prompt
from memory.protocols import Completer
from memory.records import CATEGORIES, Candidate, Memory

log = logging.getLogger(__name__)
MAX_ANSWER_TOKENS = 320


class ModelAnswerError(Exception):
    """The model's answer could not be used (not JSON, wrong shape); its message says how."""


def propose(completer: Completer, user_text: str, assistant_text: str | None, known: list[Memory]) -> list[Candidate]:
    """Ask the model for memories; raises ModelAnswerError on an unusable answer (never returns [] for one)."""
    try:
        raw = completer.complete_json(EXTRACTION_SYSTEM, extraction_user_prompt(user_text, assistant_text, known),
                                      EXTRACTION_SCHEMA, max_tokens=MAX_ANSWER_TOKENS)
    except Exception as exc:  # a model that fails (context overflow, decode error) gave no usable answer either
        raise ModelAnswerError(f"the model call failed ({type(exc).__name__}: {exc})") from exc
    return parse(raw)


def parse(raw: str) -> list[Candidate]:
    """Candidates from the model's raw JSON text."""
    try:
        data = json.loads(raw)
    except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: absurdly nested brackets
        raise ModelAnswerError(f"not JSON ({type(exc).__name__}: {exc})") from exc
    items = data.get("memories") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise ModelAnswerError("no 'memories' list")
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        category, content = item.get("category"), item.get("content")
        if category not in CATEGORIES or not isinstance(content, str) or not content.strip():
            continue
        out.append(Candidate(
            category=category, content=content.strip(), quote=str(item.get("quote") or "").strip(),
            source="inferred", confidence=_unit(item.get("confidence"), 0.5),
            importance=_unit(item.get("importance"), 0.5), origin="model",
        ))
    return out


def _unit(value, default: float) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return default
    if x > 1.0:  # some models answer on a 0–10 or 0–100 scale
        x = x / 10.0 if x <= 10 else x / 100.0
    return max(0.0, min(1.0, x))
