"""Sentence embeddings through fastembed, entirely offline: the bundled all-MiniLM-L6-v2 (int8 ONNX) by
default, or a downloaded catalog model that fastembed knows by name."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Sequence

from models.cpu import physical_cores
from models.errors import ModelError
from models.resolve import (
    EMBEDDING_DIM,
    EMBEDDING_MODEL_ID,
    SETUP_COMMAND,
    ResolvedModelDir,
    resolve_embedding_model,
)


def default_threads() -> int:
    """Threads for embedding: 1 on a machine of at most 2 physical cores, else the physical cores, at most 4.

    A query is embedded just before llama.cpp evaluates the prompt on every core. A second embedding thread does
    not sleep when its work is done: onnxruntime's pool spins, and OpenBLAS's (the multilingual encoder's
    products) polls for ~0.1 s. On 2 cores that took one of them from the prompt evaluation: the app burned
    ~90 ms of CPU between the message and the first reply piece, the first word came ~30 % later with memory on
    than off at the same evaluated tokens, while one thread embeds a query in ~2 ms more."""
    cores = physical_cores()
    return 1 if cores <= 2 else min(4, cores)


class FastEmbedEmbedder:
    """Turns texts into normalized `dim`-dimensional vectors (satisfies `memory.protocols.Embedder`).

    The ONNX session is created on the first `embed` call. Not thread-safe: the worker thread
    that owns database writes and embedding owns this object.
    """

    def __init__(self, model_dir: ResolvedModelDir | Path, threads: int | None = None,
                 batch_size: int = 32) -> None:
        if isinstance(model_dir, ResolvedModelDir):
            self.model_id, self.dim, self.path = model_dir.model_id, model_dir.dim, model_dir.path
        else:
            self.model_id, self.dim, self.path = EMBEDDING_MODEL_ID, EMBEDDING_DIM, Path(model_dir)
        self.threads = threads or default_threads()  # None or 0: automatic
        # Padding is to the longest text of a batch, so small batches waste little on short texts.
        self.batch_size = batch_size
        self._model: Any = None

    @classmethod
    def from_data_dir(cls, data_dir: Path, threads: int | None = None) -> FastEmbedEmbedder:
        """An embedder over the bundled model, assembled into `data_dir` if needed."""
        return cls(resolve_embedding_model(data_dir), threads=threads)

    @property
    def loaded(self) -> bool:
        """Whether the ONNX session has been created."""
        return self._model is not None

    def load(self) -> None:
        """Create the ONNX session now (otherwise the first `embed` does)."""
        if self._model is not None:
            return
        self._model = _shared_session(self.model_id, self.path, self.threads)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Return one unit-length vector of `dim` floats per text, in order."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        texts = list(texts)
        if not texts:
            return []
        self.load()
        model, lock = self._model
        with lock:
            vectors = [v.tolist() for v in model.embed(texts, batch_size=self.batch_size)]
        if len(vectors) != len(texts) or any(len(v) != self.dim for v in vectors):
            raise ModelError(
                f"The embedding model in {self.path} returned vectors of the wrong shape. "
                f"Re-run {SETUP_COMMAND} to reinstall the bundled models."
            )
        return vectors


_SESSIONS: dict[tuple, tuple[Any, threading.Lock]] = {}
_SESSIONS_LOCK = threading.Lock()


def _shared_session(model_id: str, path: Path, threads: int) -> tuple[Any, threading.Lock]:
    """One ONNX session per model folder (as its files are now) and thread count in this process, with the lock
    its callers take: the vectors are a pure function of the text, so a second profile opened in the same
    process (a key change, the tests' in-process command line) reuses the session instead of loading it again."""
    try:
        files = tuple(sorted((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in path.iterdir()))
    except OSError:
        files = ()
    key = (model_id, str(path), threads, files)
    with _SESSIONS_LOCK:
        if key not in _SESSIONS:
            # Imported here: fastembed pulls in onnxruntime and huggingface_hub (~1 s).
            from fastembed import TextEmbedding

            try:
                # specific_model_path makes fastembed return that folder before any hub lookup;
                # cache_dir is given only so fastembed does not create one in the system temp dir.
                model = TextEmbedding(model_name=model_id, specific_model_path=str(path), cache_dir=str(path.parent),
                                      local_files_only=True, threads=threads)
            except Exception as e:  # onnxruntime and tokenizers raise assorted types for a bad file
                raise ModelError(
                    f"The embedding model in {path} could not be loaded. "
                    f"Re-run {SETUP_COMMAND} to reinstall the bundled models."
                ) from e
            _SESSIONS[key] = (model, threading.Lock())
        return _SESSIONS[key]
