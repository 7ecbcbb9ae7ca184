"""Qt-free use cases of the desktop app: opening the profile, the memory panel's verbs, sessions, settings."""
from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from app.clock import Clock
from app.companion import Companion
from app.conversation_forget import forget_conversation
from app.errors import UserError
from app.keys import obtain_key
from app.memory_service import HistoryStep, MemoryService
from app.settings import Settings
from memory import KeyWrong, Memory, Message, Session
from memory.consolidation import ConsolidationResult
from memory.storage import ConversationReceipt, ForgetReceipt
from models.errors import ModelError
from models.resolve import check_gguf

PANEL_SEARCH_K = 50
# Settings whose change needs the chat model loaded again.
MODEL_SETTINGS = ("chat_model", "chat_model_id", "n_ctx", "n_threads")


class KeyNeeded(UserError):
    """The database key could not be found by itself; the user must choose a passphrase (the message says why)."""

    def __init__(self, message: str):
        super().__init__("key_needed", message)


class SerializedEmbedder:
    """The embedder behind a lock: the desktop app embeds from two threads (chat on the model worker,
    panel search on the database worker), and the embedder is not documented as thread-safe."""

    def __init__(self, embedder):
        self._embedder = embedder
        self._lock = threading.Lock()
        self.model_id = embedder.model_id
        self.dim = embedder.dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors for texts, one caller at a time."""
        with self._lock:
            return self._embedder.embed(texts)

    def load(self) -> None:
        """Load the model now rather than on the first embed."""
        with self._lock:
            self._embedder.load()


def open_companion(home: Path, clock: Clock, model_override: str | None = None,
                   passphrase: str | None = None) -> Companion:
    """Open the profile, ready for two threads; KeyNeeded when a passphrase is needed or the one given is wrong."""
    try:
        obtain_key(home / "companion.db", passphrase)
    except UserError as exc:
        raise KeyNeeded(exc.message) from exc
    try:
        companion = Companion(home, clock, model_override=model_override, passphrase=passphrase)
    except KeyWrong as exc:
        if passphrase:
            raise KeyNeeded("That passphrase does not open your memories. Try again.") from exc
        raise
    serialized = SerializedEmbedder(companion.embedder)
    companion.embedder = companion.store.embedder = serialized
    serialized.load()
    if companion.multilingual is not None:
        multilingual = SerializedEmbedder(companion.multilingual)
        companion.multilingual = companion.store.multilingual = multilingual  # type: ignore[assignment]
        multilingual.load()
    return companion


def check_model_file(path: str) -> str:
    """'' if path is a usable GGUF, else the sentence that says what is wrong with it."""
    try:
        check_gguf(Path(path).expanduser())
    except ModelError as exc:
        return str(exc)
    return ""


def apply_settings(companion: Companion, changed: Settings) -> bool:
    """Save new settings into the open profile; True when the chat model must be loaded again."""
    old = companion.settings
    reload = any(getattr(old, k) != getattr(changed, k) for k in MODEL_SETTINGS)
    for name, value in vars(changed).items():
        setattr(old, name, value)  # the same object ChatService reads, so a new persona applies at once
    old.save(companion.home)
    return reload


class MemoryDesk:
    """What the memory panel and the session list do, each verb one short database job.

    The memory verbs are `MemoryService`'s, the same the CLI uses, shaped for the panel.
    """

    def __init__(self, companion: Companion):
        self.c = companion
        self.service = MemoryService(companion)

    # -- memories ------------------------------------------------------------------------------
    def all_memories(self) -> list[Memory]:
        """Every memory, whatever its status, oldest first."""
        return self.service.memories(status="all")

    def memories_by_id(self, ids: list[str]) -> dict[str, Memory]:
        """The memories that still exist among these ids."""
        return self.service.by_ids(ids)

    def search(self, query: str, k: int = PANEL_SEARCH_K) -> list[tuple[str, float]]:
        """(id, score) of the best matches of the chat's hybrid search, over every status, without the hits
        below the chat's relevance floor (what the chat would never use does not count as found)."""
        knobs = self.c.retrieval_settings()
        hits = self.service.search(query, k, weights=knobs.weights, every_status=True)
        return [(h.memory.id, h.score) for h in hits if h.relevance >= knobs.relevance_floor]

    def edit(self, memory_id: str, **changes) -> Memory:
        """Change a memory as the user asked; instruction-like text is refused like everywhere else."""
        return self.service.edit(memory_id, **changes)

    def forget(self, memory_ids: list[str]) -> ForgetReceipt:
        """Forget these memories everywhere and return the receipt."""
        return self.service.forget(memory_ids)

    def forget_everything(self) -> ForgetReceipt:
        """Forget every memory."""
        return self.service.forget_all()

    def forget_with_titles(self, memory_ids: list[str] | None) -> tuple[ForgetReceipt, dict[str, str]]:
        """Forget these memories (None: all of them); also the titles of the sessions that still mention them."""
        receipt = self.forget_everything() if memory_ids is None else self.forget(memory_ids)
        titles = {s.id: s.title for s in self.sessions() if s.id in receipt.mentioned_in_sessions}
        return receipt, titles

    def history(self, memory_id: str) -> list[HistoryStep]:
        """The supersede chain through this memory, oldest first, each with its recorded changes."""
        return self.service.history_chain(memory_id)

    def tidy_up(self) -> ConsolidationResult:
        """Consolidate now, whatever the daily gates say (the lock is still honoured)."""
        return self.service.consolidate(force=True)

    def export(self, path: Path, fmt: str) -> int:
        """Write every memory to path as 'json' or 'md'; returns how many were written."""
        return self.service.export(path, fmt)

    def import_file(self, path: Path) -> tuple[list[Memory], list[tuple[str, str]]]:
        """Import an export file: (imported, [(content, why skipped)])."""
        return self.service.import_file(path)

    # -- sessions ------------------------------------------------------------------------------
    def sessions(self) -> list[Session]:
        """All chat sessions, most recent first."""
        return self.c.transcript.sessions()

    def conversation(self, session_id: str) -> tuple[list[Message], dict[str, Memory]]:
        """A session's messages and the memories its replies used (those that still exist)."""
        messages = self.c.transcript.messages(session_id)
        used = [i for m in messages for i in m.memories_used]
        return messages, self.memories_by_id(used)

    def rename_session(self, session_id: str, title: str) -> None:
        """Give a session a new title."""
        self.c.transcript.rename(session_id, title)

    def delete_session(self, session_id: str) -> int:
        """Delete a session and its messages (and the saved prompt state, which may hold them)."""
        return self.c.delete_session(session_id)

    def forget_session(self, session_id: str) -> tuple[ConversationReceipt, dict[str, str]]:
        """Forget a conversation and what only it taught (app/conversation_forget.py); also the titles of the
        conversations that hold the same words."""
        receipt = forget_conversation(self.c, session_id)
        return receipt, {s.id: s.title for s in self.sessions() if s.id in receipt.mentioned_in_sessions}


def with_changes(memory: Memory, changes: dict) -> Memory:
    """A copy of memory with changes applied (what the panel shows until the database confirms)."""
    return replace(memory, **changes)
