"""Companion's memory subsystem, one folder per responsibility (docs/architecture.md, "Layers and folders").

- `memory.storage`: the encrypted database, the memory store, chat transcripts, vectors, forgetting.
- `memory.learn`: extraction (rules in `learn/rules`, the model's JSON), validation, the instruction
  guard and reconciliation; `learn/pipeline.py` is the one place where candidates are gathered.
- `memory.recall`: hybrid search, choosing what to inject for a turn, the injected block, the index.
- `memory.consolidation`: the "dream" job and its run lock.

This top level holds the shared vocabulary (records, errors, protocols). Code outside `memory/`
imports only the names a package's `__init__` lists. Never imports PySide6, `app`, `ui` or
`models`: it declares the protocols it needs and the application plugs real implementations in.
"""
from memory.errors import InvalidInput, KeyWrong, NotFound, StoreError
from memory.protocols import Completer, Embedder
from memory.records import CATEGORIES, SOURCES, STATUSES, Candidate, HistoryEntry, Memory, Message, Rejection, Session
from memory.text import clean

__all__ = [
    "CATEGORIES", "SOURCES", "STATUSES", "Candidate", "Completer", "Embedder", "HistoryEntry", "InvalidInput",
    "KeyWrong",
    "Memory", "Message", "NotFound", "Rejection", "Session", "StoreError", "clean",
]
