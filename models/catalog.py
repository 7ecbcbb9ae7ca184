"""The model catalog: curated chat and embedding models a user can download, and how well each fits here.

The catalog ships as `models/catalog.json`. `COMPANION_MODEL_CATALOG=FILE` (same shape,
`{"models": [...]}`) adds entries or replaces them by id; `COMPANION_MODEL_MIRROR=URL` (or a
settings value) replaces the scheme and host of every url. A `sha256` or `size` of null is never
guessed: the downloader takes it from the host's file metadata and pins it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit, urlunsplit

from models.errors import ModelError

CATALOG_ENV = "COMPANION_MODEL_CATALOG"
MIRROR_ENV = "COMPANION_MODEL_MIRROR"
KINDS = ("chat", "embedding")
FITS, TIGHT, TOO_LARGE = "fits", "tight", "too large"
_GB = 1024**3
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,79}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
# Names already used inside <data_dir>/models/ by offline resolution and the downloader.
_RESERVED_IDS = {"all-minilm-l6-v2", "verified.json", "catalog-pins.json"}
# Above this share of total RAM a model still loads, but the rest of the desktop starts to swap.
_TIGHT_RAM_SHARE = 0.6


@dataclass(frozen=True)
class CatalogFile:
    """One file of a catalog model: where it comes from and what it must be."""

    name: str
    url: str | None
    size: int | None  # None: taken from the host at download time
    sha256: str | None  # None: taken from the host at download time, never guessed


@dataclass(frozen=True)
class CatalogEntry:
    """A downloadable (or built-in) model as the catalog describes it."""

    id: str
    kind: str  # "chat" | "embedding"
    name: str
    url: str | None
    file: str
    size: int | None
    sha256: str | None
    languages: tuple[str, ...]
    license: str
    context: int | None
    ram_gb: float | None
    files: tuple[CatalogFile, ...]
    builtin: bool = False
    extra: dict = field(default_factory=dict, compare=False)  # dim, fastembed_model, ...

    @property
    def total_size(self) -> int | None:
        """Bytes of all files, or None while any size is unknown."""
        sizes = [f.size for f in self.files]
        return None if any(s is None for s in sizes) else sum(sizes)  # type: ignore[arg-type]

    def to_dict(self) -> dict:
        """The entry in the catalog's JSON shape."""
        data = {"id": self.id, "kind": self.kind, "name": self.name, "url": self.url,
                "file": self.file, "size": self.size, "sha256": self.sha256,
                "languages": list(self.languages), "license": self.license,
                "context": self.context, "ram_gb": self.ram_gb, "builtin": self.builtin, **self.extra}
        if len(self.files) > 1:
            data["files"] = [{"file": f.name, "url": f.url, "size": f.size, "sha256": f.sha256}
                             for f in self.files]
        return data


def parse_entry(raw: dict, origin: str) -> CatalogEntry:
    """A validated CatalogEntry from one JSON object; ModelError naming `origin` if it is malformed."""
    if not isinstance(raw, dict):
        raise ModelError(f"The model catalog {origin} has an entry that is not an object.")
    ident = raw.get("id")
    if not isinstance(ident, str) or not _ID.match(ident) or ident in _RESERVED_IDS:
        raise ModelError(f"The model catalog {origin} has an invalid id {ident!r}.")
    problem = _entry_problem(raw)
    if problem:
        raise ModelError(f"The model catalog {origin} entry {ident!r} {problem}.")
    builtin = bool(raw.get("builtin", False))
    known = {"id", "kind", "name", "url", "file", "size", "sha256", "languages", "license",
             "context", "ram_gb", "files", "builtin"}
    return CatalogEntry(
        id=ident, kind=raw["kind"], name=raw["name"], url=raw.get("url"), file=raw["file"],
        size=raw.get("size"), sha256=raw.get("sha256"),
        languages=tuple(raw.get("languages") or ()), license=str(raw.get("license") or "unknown"),
        context=raw.get("context"), ram_gb=raw.get("ram_gb"),
        files=_files_of(raw), builtin=builtin,
        extra={k: v for k, v in raw.items() if k not in known},
    )


def _entry_problem(raw: dict) -> str | None:
    """What is wrong with an entry, as the end of a sentence, or None."""
    if raw.get("kind") not in KINDS:
        return "has a kind other than chat or embedding"
    if not isinstance(raw.get("name"), str) or not isinstance(raw.get("file"), str):
        return "needs a name and a file"
    if not raw.get("builtin") and not _is_http_url(raw.get("url")):
        return "needs an http(s) url"
    files = raw.get("files") or [raw]
    if not isinstance(files, list):
        return "has a files value that is not a list"
    for f in files:
        if not isinstance(f, dict) or not _safe_name(f.get("file")):
            return "has a file name that is not a plain relative path"
        if f.get("sha256") is not None and not _SHA256.match(str(f["sha256"])):
            return "has a sha256 that is not 64 lowercase hex digits"
        if f.get("size") is not None and not (isinstance(f["size"], int) and f["size"] > 0):
            return "has a size that is not a positive whole number"
        if f.get("url") is not None and not _is_http_url(f["url"]):
            return "has a file url that is not http(s)"
    return None


def _is_http_url(url: object) -> bool:
    return isinstance(url, str) and urlsplit(url).scheme in ("http", "https") and bool(urlsplit(url).netloc)


def _safe_name(name: object) -> bool:
    if not isinstance(name, str) or not name or name.startswith(("/", "\\")):
        return False
    return all(part not in ("", ".", "..") for part in name.replace("\\", "/").split("/"))


def _files_of(raw: dict) -> tuple[CatalogFile, ...]:
    """A single-file entry is its own file; a multi-file entry's `url` is the folder the files are in."""
    if not raw.get("files"):
        return (CatalogFile(raw["file"], raw.get("url"), raw.get("size"), raw.get("sha256")),)
    base = (raw.get("url") or "").rstrip("/")
    return tuple(CatalogFile(f["file"], f.get("url") or (f"{base}/{f['file']}" if base else None),
                             f.get("size"), f.get("sha256")) for f in raw["files"])


def _read_catalog_file(text: str, origin: str) -> list[CatalogEntry]:
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ModelError(f"The model catalog {origin} is not valid JSON ({e}).") from None
    if not isinstance(data, dict) or not isinstance(data.get("models"), list):
        raise ModelError(f"The model catalog {origin} must be an object with a \"models\" list.")
    return [parse_entry(raw, origin) for raw in data["models"]]


def bundled_catalog() -> list[CatalogEntry]:
    """The catalog shipped with the app."""
    text = resources.files("models").joinpath("catalog.json").read_text(encoding="utf-8")
    return _read_catalog_file(text, "models/catalog.json")


def merge(base: Iterable[CatalogEntry], extra: Iterable[CatalogEntry], origin: str) -> list[CatalogEntry]:
    """`base` with `extra` entries added, or replacing the base entry of the same id (built-ins stay)."""
    merged = {e.id: e for e in base}
    for entry in extra:
        if entry.id in merged and merged[entry.id].builtin:
            raise ModelError(f"The model catalog {origin} cannot replace the built-in model {entry.id}.")
        merged[entry.id] = entry
    return list(merged.values())


def with_mirror(url: str | None, mirror: str | None) -> str | None:
    """`url` with its scheme and host replaced by the mirror's (a mirror path is put in front)."""
    if not url or not mirror:
        return url
    m, u = urlsplit(mirror.rstrip("/")), urlsplit(url)
    if m.scheme not in ("http", "https") or not m.netloc:
        raise ModelError(f"The model mirror {mirror} is not an http(s) address.")
    return urlunsplit((m.scheme, m.netloc, m.path + u.path, u.query, ""))


def _mirrored(entry: CatalogEntry, mirror: str | None) -> CatalogEntry:
    if not mirror or entry.builtin:
        return entry
    files = tuple(replace(f, url=with_mirror(f.url, mirror)) for f in entry.files)
    return replace(entry, url=with_mirror(entry.url, mirror), files=files)


def load_catalog(extra_file: str | os.PathLike | None = None, mirror: str | None = None) -> list[CatalogEntry]:
    """The bundled catalog plus `extra_file` (default $COMPANION_MODEL_CATALOG), urls on the mirror."""
    entries = bundled_catalog()
    extra_file = extra_file or os.environ.get(CATALOG_ENV) or None
    if extra_file:
        path = Path(extra_file).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise ModelError(f"The model catalog {path} cannot be read ({e.strerror or e}).") from None
        entries = merge(entries, _read_catalog_file(text, str(path)), str(path))
    mirror = mirror or os.environ.get(MIRROR_ENV) or None
    return [_mirrored(e, mirror) for e in entries]


def find(entries: Iterable[CatalogEntry], model_id: str) -> CatalogEntry:
    """The entry with `model_id`; ModelError listing nothing else if there is none."""
    for entry in entries:
        if entry.id == model_id:
            return entry
    raise ModelError(f"There is no model {model_id!r} in the catalog; `companion models list` shows them.")


def total_ram() -> int | None:
    """Physical memory in bytes, or None where it cannot be read."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        pass
    try:  # Windows has no sysconf
        import ctypes

        class _MemoryStatus(ctypes.Structure):
            _fields_ = [("length", ctypes.c_ulong), ("load", ctypes.c_ulong),
                        ("total", ctypes.c_ulonglong), ("avail", ctypes.c_ulonglong),
                        ("page_total", ctypes.c_ulonglong), ("page_avail", ctypes.c_ulonglong),
                        ("virtual_total", ctypes.c_ulonglong), ("virtual_avail", ctypes.c_ulonglong),
                        ("extended", ctypes.c_ulonglong)]

        status = _MemoryStatus(length=ctypes.sizeof(_MemoryStatus))
        if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
            return int(status.total)
    except (AttributeError, OSError):
        pass
    return None


@dataclass(frozen=True)
class Machine:
    """What decides whether a model fits: total RAM and free disk where models are stored."""

    ram_bytes: int | None
    free_disk_bytes: int | None

    @classmethod
    def detect(cls, folder: Path,
               disk_usage: Callable[[Path], Any] = shutil.disk_usage) -> Machine:
        """This machine, with free disk measured at `folder` (or its nearest existing parent)."""
        probe = Path(folder)
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        try:
            free = disk_usage(probe).free
        except OSError:
            free = None
        return cls(total_ram(), free)


def fit(entry: CatalogEntry, machine: Machine, installed: bool = False) -> str:
    """"fits", "tight" or "too large" for `entry` on `machine` (disk counts only when not installed)."""
    verdict = FITS
    if entry.ram_gb is not None and machine.ram_bytes:
        need = entry.ram_gb * _GB
        if need > machine.ram_bytes:
            return TOO_LARGE
        if need > _TIGHT_RAM_SHARE * machine.ram_bytes:
            verdict = TIGHT
    size = entry.total_size
    if not installed and size is not None and machine.free_disk_bytes is not None:
        if size > machine.free_disk_bytes:
            return TOO_LARGE
        if size > machine.free_disk_bytes - _GB:  # leave a gigabyte for the database and the system
            verdict = TIGHT
    return verdict


def recommend(entries: Iterable[CatalogEntry], machine: Machine) -> CatalogEntry | None:
    """The chat model to suggest: the largest that fits, Chinese-and-English ones first, then one whose size
    the catalog knows (so its disk fit was checked and the offer can say how large the download is)."""
    candidates = [e for e in entries if e.kind == "chat" and not e.builtin and fit(e, machine) == FITS]
    if not candidates:
        return None
    return max(candidates, key=lambda e: ({"zh", "en"} <= set(e.languages), e.total_size is not None,
                                          e.ram_gb or 0, e.id))
