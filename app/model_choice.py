"""Which models a profile uses: the catalog models in its data folder and the ids its settings chose.

A chat GGUF named by --model, COMPANION_CHAT_MODEL or the Settings file picker wins over a catalog
choice (`companion models use ID`); with neither, the bundled SmolLM2 and MiniLM are used.

The verbs of both front ends live here too (`companion models list|get|use|remove` and the desktop's
Models page): list, download, use, remove, and the one-time offer of a better chat model.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from app.settings import Settings
from models.catalog import MIRROR_ENV, CatalogEntry, Machine, find, load_catalog
from models.download import Cancel, DownloadCancelled, Progress
from models.errors import ModelError
from models.library import ModelLibrary, ModelListing
from models.resolve import (
    ModelStatus,
    ResolvedFile,
    ResolvedModelDir,
    models_status,
    resolve_chat_model,
    resolve_embedding_model,
)

CHAT_MODEL_ENV = "COMPANION_CHAT_MODEL"


def chat_file_override(model_override: str | None, settings: Settings) -> str | None:
    """The GGUF path the user named outside the catalog, if any: --model, the environment, Settings."""
    return model_override or os.environ.get(CHAT_MODEL_ENV) or settings.chat_model or None


def open_library(home: Path, settings: Settings, model_override: str | None = None) -> ModelLibrary:
    """The catalog models of `home`, on the mirror (COMPANION_MODEL_MIRROR, else Settings), with what is in use."""
    entries = load_catalog(mirror=os.environ.get(MIRROR_ENV) or settings.model_mirror)
    builtin = {e.kind: e.id for e in entries if e.builtin}
    in_use = [settings.embedding_model_id or builtin.get("embedding", "")]
    if chat_file_override(model_override, settings) is None:
        in_use.append(settings.chat_model_id or builtin.get("chat", ""))
    return ModelLibrary(home, entries, in_use=in_use)


def chat_model_file(home: Path, settings: Settings, model_override: str | None = None) -> ResolvedFile:
    """The GGUF to load: a named file, else the chosen catalog model, else the bundled SmolLM2."""
    explicit = chat_file_override(model_override, settings)
    if explicit is not None or not settings.chat_model_id:
        return resolve_chat_model(explicit, home)
    return open_library(home, settings).chat_model_file(settings.chat_model_id)


def chat_languages(home: Path, settings: Settings, model_override: str | None = None) -> frozenset[str] | None:
    """The languages the chat model in use speaks, from its catalog entry (the bundled one's included); None for
    a GGUF the user named (nothing is known of it, so nothing is held back)."""
    if chat_file_override(model_override, settings) is not None:
        return None
    try:
        entries = load_catalog(mirror=os.environ.get(MIRROR_ENV) or settings.model_mirror)
    except ModelError:
        return None
    wanted = settings.chat_model_id
    entry = next((e for e in entries if e.kind == "chat" and (e.id == wanted if wanted else e.builtin)), None)
    return frozenset(entry.languages) if entry is not None and entry.languages else None


def embedding_model(home: Path, settings: Settings, bundled_home: Path) -> ResolvedModelDir:
    """The embedding model folder: the chosen catalog model, else the bundled MiniLM assembled in `bundled_home`."""
    if not settings.embedding_model_id:
        return resolve_embedding_model(bundled_home)
    return open_library(home, settings).embedding_model(settings.embedding_model_id)


def status(home: Path, settings: Settings, model_override: str | None = None) -> list[ModelStatus]:
    """`models status`: the files that would be used for chat and embedding, and what is wrong with them."""
    explicit = chat_file_override(model_override, settings)
    chat, embedding = models_status(home, explicit)
    if explicit is None and settings.chat_model_id:
        chat = _catalog_status("chat", settings.chat_model_id,
                               lambda: open_library(home, settings).chat_model_file(settings.chat_model_id))
    if settings.embedding_model_id:
        embedding = _catalog_status("embedding", settings.embedding_model_id,
                                    lambda: open_library(home, settings).embedding_model(settings.embedding_model_id))
    return [chat, embedding]


def _catalog_status(role: str, model_id: str, resolve) -> ModelStatus:
    """The status of a catalog model chosen for `role`; a problem is reported, not raised."""
    try:
        resolved = resolve()
    except ModelError as e:
        return ModelStatus(role, model_id, None, f"catalog {model_id}", None, (), str(e))
    if isinstance(resolved, ResolvedModelDir):
        return ModelStatus(role, resolved.model_id, resolved.dim, f"catalog {model_id}", resolved.path,
                           resolved.files, None)
    return ModelStatus(role, model_id, None, f"catalog {model_id}", resolved.path, (resolved,), None)


@dataclass(frozen=True)
class Shelf:
    """The catalog as the Models page shows it: every model with its state, and the machine it is judged on."""

    listings: list[ModelListing]
    machine: Machine


@dataclass(frozen=True)
class ModelChoice:
    """What `use_model` chose, and whether a GGUF named outside the catalog still wins for chat."""

    entry: CatalogEntry
    overridden: bool


def shelf(home: Path, settings: Settings, model_override: str | None = None) -> Shelf:
    """Every catalog model with installed, in use, fit and the recommended one, and this machine's RAM and disk."""
    library = open_library(home, settings, model_override)
    return Shelf(library.list(), library.machine)


def download_model(home: Path, settings: Settings, model_id: str,
                   progress: Callable[[Progress], None] | None = None, cancel: Cancel = None,
                   model_override: str | None = None) -> Path | None:
    """Download and verify a catalog model (blocking; run it on a worker thread). None when `cancel` stopped
    it: the partial file stays, unused, and the next download resumes it. ModelError says what went wrong."""
    try:
        return open_library(home, settings, model_override).get(model_id, progress=progress, cancel=cancel)
    except DownloadCancelled:
        return None


def use_model(home: Path, settings: Settings, model_id: str, model_override: str | None = None) -> ModelChoice:
    """Choose a downloaded model for chat (clearing a GGUF picked in Settings) or for embedding, in `settings`,
    and save them. ModelError, with nothing changed, when it is not downloaded. A new embedding model takes
    effect when the profile is next opened, which re-embeds every memory."""
    library = open_library(home, settings, model_override)
    entry = find(library.entries, model_id)
    chosen = None if entry.builtin else entry.id
    if entry.kind == "chat":
        library.chat_model_path(entry.id)  # not downloaded: say so before changing anything
        settings.chat_model_id, settings.chat_model = chosen, None
    else:
        library.embedding_model(entry.id)
        settings.embedding_model_id = chosen
    settings.save(home)
    overridden = entry.kind == "chat" and chat_file_override(model_override, Settings()) is not None
    return ModelChoice(entry, overridden)


def remove_model(home: Path, settings: Settings, model_id: str, model_override: str | None = None) -> CatalogEntry:
    """Delete a downloaded model that is not in use; returns its entry. ModelError when it cannot be removed."""
    library = open_library(home, settings, model_override)
    library.remove(model_id)
    return find(library.entries, model_id)


@dataclass(frozen=True)
class OfferedModel:
    """The chat model offered once, with what the banner says about it: its download size and the free disk."""

    entry: CatalogEntry
    free_disk_bytes: int | None


def better_model_offer(home: Path, settings: Settings, model_override: str | None = None) -> OfferedModel | None:
    """The recommended chat model to offer once, while only the bundled chat model is used and none other is
    downloaded and the offer was never answered; else None."""
    if settings.model_offer_dismissed or settings.chat_model_id or chat_file_override(model_override, settings):
        return None
    try:
        library = open_library(home, settings, model_override)
        listings = library.list()
    except ModelError:  # a broken private catalog is the Models page's to report, not a start-up banner's
        return None
    if any(i.installed and i.entry.kind == "chat" and not i.entry.builtin for i in listings):
        return None
    entry = next((i.entry for i in listings if i.recommended), None)
    return OfferedModel(entry, library.machine.free_disk_bytes) if entry is not None else None


def dismiss_model_offer(home: Path, settings: Settings) -> None:
    """Remember that the offer of a better model was answered, so it is never shown again."""
    settings.model_offer_dismissed = True
    settings.save(home)
