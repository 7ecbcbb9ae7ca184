"""Installed catalog models: list them with fit and state, get (download and verify), remove, locate.

Each downloaded model lives in `<data_dir>/models/<id>/` with an `installed.json` written last, so a
folder without it is an unfinished download that the next `get` resumes. When the catalog gives no
SHA-256, the expected digest comes from the host's file metadata (the Hugging Face tree API) and is
pinned in `<data_dir>/models/catalog-pins.json`, so a resumed or repeated download checks against
the same value; with neither, the file is refused.
"""
from __future__ import annotations

import builtins
import json
import os
import shutil
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import quote, urlsplit, urlunsplit

from models.catalog import CatalogEntry, CatalogFile, Machine, find, fit, load_catalog, recommend
from models.download import (
    USER_AGENT,
    Cancel,
    DownloadPolicy,
    Expected,
    Progress,
    check_disk,
    check_reachable,
    download,
    part_path,
)
from models.errors import ModelError
from models.resolve import (
    BUNDLED_CHAT,
    ResolvedFile,
    ResolvedModelDir,
    locate_bundled,
    read_json_object,
    resolve_chat_model,
    resolve_embedding_model,
    write_atomic,
)

INSTALLED_NAME = "installed.json"
PINS_NAME = "catalog-pins.json"
API_ENV = "COMPANION_MODEL_API"


@dataclass(frozen=True)
class ModelListing:
    """A catalog entry with its state on this machine, as `models list --json` shows it."""

    entry: CatalogEntry
    installed: bool
    in_use: bool
    fit: str
    recommended: bool

    def to_dict(self) -> dict:
        """The entry's JSON plus "installed", "in_use", "fit" and "recommended"."""
        return {**self.entry.to_dict(), "installed": self.installed, "in_use": self.in_use,
                "fit": self.fit, "recommended": self.recommended}


class ModelLibrary:
    """The catalog models of one data folder: what is installed, what fits, get and remove.

    `in_use` are the ids the settings name for chat and embedding (the built-ins when None).
    `api_base` is where the Hugging Face style file metadata API is asked for missing checksums
    (default: $COMPANION_MODEL_API, else the scheme and host of the file's own url).
    """

    def __init__(self, data_dir: Path, catalog: list[CatalogEntry] | None = None, *,
                 mirror: str | None = None, api_base: str | None = None,
                 in_use: Iterable[str] | None = None, policy: DownloadPolicy | None = None,
                 machine: Machine | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.root = self.data_dir / "models"
        self.entries = catalog if catalog is not None else load_catalog(mirror=mirror)
        self.api_base = api_base
        self.policy = policy or DownloadPolicy()
        self._in_use = set(in_use) if in_use is not None else {e.id for e in self.entries if e.builtin}
        self._machine = machine

    @property
    def machine(self) -> Machine:
        """Total RAM and free disk where models are stored (measured once)."""
        if self._machine is None:
            self._machine = Machine.detect(self.root, self.policy.disk_usage)
        return self._machine

    def folder(self, model_id: str) -> Path:
        """Where a downloaded model's files live."""
        return self.root / model_id

    def is_installed(self, model_id: str) -> bool:
        """Built-in, or every file present as recorded when it was verified."""
        entry = find(self.entries, model_id)
        return entry.builtin or self._installed_record(entry) is not None

    def list(self) -> list[ModelListing]:
        """Every catalog entry with installed, in_use, fit and the one recommended chat model."""
        best = recommend(self.entries, self.machine)
        listings = []
        for entry in self.entries:
            installed = self.is_installed(entry.id)
            listings.append(ModelListing(entry, installed, entry.id in self._in_use,
                                         fit(entry, self.machine, installed),
                                         best is not None and entry.id == best.id))
        return listings

    def list_json(self) -> builtins.list[dict]:  # `list` here is the method above
        """`models list --json`: a JSON-ready list of entries."""
        return [listing.to_dict() for listing in self.list()]

    def get(self, model_id: str, progress: Callable[[Progress], None] | None = None,
            cancel: Cancel = None) -> Path:
        """Download and verify a model unless installed; return its GGUF (chat) or folder (embedding)."""
        entry = find(self.entries, model_id)
        if entry.builtin:
            return self._builtin_path(entry)
        if self._installed_record(entry) is None:
            check_reachable(entry.files[0].url or "", min(self.policy.timeout_s, 5.0))
            expected = [self._expected(entry, f) for f in entry.files]
            folder = self.folder(entry.id)
            check_disk(folder, self._bytes_missing(entry, expected), self.policy)
            for f, exp in zip(entry.files, expected):
                dest = folder / f.name
                if not (dest.is_file() and exp.matches(dest)):
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    download(f.url or "", dest, exp, self.policy, progress, cancel)
            self._record_installed(entry, expected)
        return self._path_of(entry)

    def remove(self, model_id: str) -> None:
        """Delete a downloaded model (and any unfinished download of it)."""
        entry = find(self.entries, model_id)
        if entry.builtin:
            raise ModelError(f"{entry.name} is built in and cannot be removed.")
        if entry.id in self._in_use:
            raise ModelError(f"{entry.name} is in use; choose another model first, then remove it.")
        folder = self.folder(entry.id)
        if not folder.exists():
            raise ModelError(f"{entry.name} is not installed.")
        try:
            shutil.rmtree(folder)
        except OSError as e:
            raise ModelError(f"{folder} could not be deleted ({e.strerror or e}).") from None

    def chat_model_path(self, model_id: str) -> Path:
        """The GGUF of an installed chat model (the bundled file for the built-in one)."""
        entry = find(self.entries, model_id)
        if entry.kind != "chat":
            raise ModelError(f"{entry.name} is an embedding model, not a chat model.")
        if entry.builtin:
            return locate_bundled(BUNDLED_CHAT)
        if self._installed_record(entry) is None:
            raise ModelError(f"{entry.name} is not downloaded yet; run `companion models get {entry.id}`.")
        return self._path_of(entry)

    def embedding_model(self, model_id: str) -> ResolvedModelDir:
        """The folder of an installed embedding model, with the name fastembed knows it by and its dimension."""
        entry = find(self.entries, model_id)
        if entry.kind != "embedding":
            raise ModelError(f"{entry.name} is a chat model, not an embedding model.")
        if entry.builtin:
            return resolve_embedding_model(self.data_dir)
        name, dim = entry.extra.get("fastembed_model"), entry.extra.get("dim")
        if not isinstance(name, str) or not isinstance(dim, int):
            raise ModelError(f"The catalog entry {entry.id} needs a fastembed_model name and a dim to be used.")
        if (record := self._installed_record(entry)) is None:
            raise ModelError(f"{entry.name} is not downloaded yet; run `companion models get {entry.id}`.")
        return ResolvedModelDir(name, dim, self.folder(entry.id), self._resolved_files(entry, record), False)

    def chat_model_file(self, model_id: str) -> ResolvedFile:
        """The GGUF of an installed chat model as verified at download time (the bundled file when built in)."""
        entry = find(self.entries, model_id)
        if entry.builtin and entry.kind == "chat":
            return resolve_chat_model(None, self.data_dir)
        self.chat_model_path(model_id)  # says what is wrong: not a chat model, not downloaded
        record = self._installed_record(entry)
        return self._resolved_files(entry, record or {})[0]

    def _resolved_files(self, entry: CatalogEntry, record: dict) -> tuple[ResolvedFile, ...]:
        """The files of an installed entry, with the digests they were verified against."""
        files = []
        for f in entry.files:
            info = record["files"][f.name]
            digest = info["digest"] if info["algorithm"] == "sha256" else None
            files.append(ResolvedFile(self.folder(entry.id) / f.name, info["size"], digest, True,
                                      f"catalog {entry.id}"))
        return tuple(files)

    def _builtin_path(self, entry: CatalogEntry) -> Path:
        if entry.kind == "chat":
            return resolve_chat_model(None, self.data_dir).path
        return resolve_embedding_model(self.data_dir).path

    def _path_of(self, entry: CatalogEntry) -> Path:
        folder = self.folder(entry.id)
        return folder / entry.file if entry.kind == "chat" else folder

    def _bytes_missing(self, entry: CatalogEntry, expected: builtins.list[Expected]) -> int:
        """Bytes still to fetch: expected sizes minus what finished or partial files already hold."""
        missing = 0
        for f, exp in zip(entry.files, expected):
            dest = self.folder(entry.id) / f.name
            if exp.size is None or dest.is_file():
                continue
            part = part_path(dest)
            missing += exp.size - (part.stat().st_size if part.is_file() else 0)
        return max(0, missing)

    def _installed_record(self, entry: CatalogEntry) -> dict | None:
        """The install record, if it exists and every file is there with its recorded size."""
        folder = self.folder(entry.id)
        try:
            record = json.loads((folder / INSTALLED_NAME).read_text(encoding="utf-8"))
            files = record["files"]
            for f in entry.files:
                if (folder / f.name).stat().st_size != files[f.name]["size"]:
                    return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return record

    def _record_installed(self, entry: CatalogEntry, expected: builtins.list[Expected]) -> None:
        folder = self.folder(entry.id)
        files = {f.name: {"size": (folder / f.name).stat().st_size, "algorithm": e.algorithm,
                          "digest": e.digest, "checksum_source": e.source}
                 for f, e in zip(entry.files, expected)}
        record = {"id": entry.id, "kind": entry.kind, "files": files,
                  "installed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        write_atomic(folder / INSTALLED_NAME, json.dumps(record, indent=2).encode("utf-8"))

    def _expected(self, entry: CatalogEntry, file: CatalogFile) -> Expected:
        """The digest `file` must have: the catalog's, else a pinned one, else the host's (then pinned)."""
        if file.sha256:
            return Expected("sha256", file.sha256, file.size, "the catalog")
        pins = _Pins(self.root / PINS_NAME)
        key, url_path = f"{entry.id}/{file.name}", urlsplit(file.url or "").path
        if (pinned := pins.get(key, url_path)) is not None:
            return pinned
        found = host_checksum(file.url or "", self.api_base, self.policy.timeout_s)
        if found is None:
            raise ModelError(
                f"No checksum is known for {file.name} of {entry.name}: the catalog gives none and "
                "the host's file metadata gave none, so it will not be downloaded.")
        if file.size is not None and found.size is not None and file.size != found.size:
            raise ModelError(f"The host says {file.name} is {found.size} bytes but the catalog says "
                             f"{file.size}; it will not be downloaded.")
        pins.put(key, url_path, found)
        return found


def hf_parts(url: str) -> tuple[str, str, str, str] | None:
    """(host base, repo, revision, path in repo) of a `…/{owner}/{name}/resolve/{rev}/{path}` url."""
    split = urlsplit(url)
    segments = split.path.split("/")
    if "resolve" not in segments:
        return None
    i = segments.index("resolve")
    if i < 3 or len(segments) < i + 3:
        return None
    base = urlunsplit((split.scheme, split.netloc, "/".join(segments[: i - 2]), "", ""))
    return base, "/".join(segments[i - 2: i]), segments[i + 1], "/".join(segments[i + 2:])


def host_checksum(url: str, api_base: str | None, timeout_s: float) -> Expected | None:
    """The file's digest and size from the Hugging Face tree API, or None if the host gives none."""
    parts = hf_parts(url)
    if parts is None:
        return None
    base, repo, revision, path = parts
    api = (api_base or _env_api() or base).rstrip("/")
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    tree = f"{api}/api/models/{repo}/tree/{quote(revision, safe='')}"
    tree += f"/{quote(folder)}" if folder else ""
    request = urllib.request.Request(tree, headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            listing = json.loads(response.read())
    except urllib.error.HTTPError:
        return None
    except (urllib.error.URLError, OSError) as e:
        if not isinstance(getattr(e, "reason", e), (socket.timeout, TimeoutError)):
            check_reachable(tree, min(timeout_s, 5.0))  # an unreachable metadata host is no network, not "no checksum"
        return None
    except ValueError:
        return None
    for item in listing if isinstance(listing, list) else []:
        if isinstance(item, dict) and item.get("path") == path and item.get("type", "file") == "file":
            return _expected_from_tree(item, tree)
    return None


def _expected_from_tree(item: dict, source: str) -> Expected | None:
    """LFS files carry a sha256 (`lfs.oid`); small files only their git blob id (sha1 of a header + content)."""
    lfs = item.get("lfs")
    if isinstance(lfs, dict):
        digest = str(lfs.get("oid") or lfs.get("sha256") or "")
        size = lfs.get("size", item.get("size"))
        if len(digest) == 64:
            return Expected("sha256", digest.lower(), size if isinstance(size, int) else None, source)
        return None
    oid, size = str(item.get("oid") or ""), item.get("size")
    if len(oid) == 40 and isinstance(size, int):
        return Expected("git-sha1", oid.lower(), size, source)
    return None


def _env_api() -> str | None:
    return os.environ.get(API_ENV) or None


class _Pins:
    """Digests taken from a host, kept so later downloads of the same file check the same value."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _load(self) -> dict:
        return read_json_object(self.path)

    def get(self, key: str, url_path: str) -> Expected | None:
        """The pin for `key` if it was taken for the same file path."""
        pin = self._load().get(key)
        if not isinstance(pin, dict) or pin.get("url_path") != url_path:
            return None
        try:
            return Expected(pin["algorithm"], pin["digest"], pin.get("size"), f"{pin['source']}, pinned")
        except KeyError:
            return None

    def put(self, key: str, url_path: str, expected: Expected) -> None:
        """Remember a digest taken from the host."""
        data = self._load()
        data[key] = {"url_path": url_path, "algorithm": expected.algorithm, "digest": expected.digest,
                     "size": expected.size, "source": expected.source,
                     "pinned_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        write_atomic(self.path, json.dumps(data, indent=2, sort_keys=True).encode("utf-8"))
