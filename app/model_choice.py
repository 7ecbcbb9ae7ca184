"""Which models a profile uses: the catalog models in its data folder and the ids its settings chose.

A chat GGUF named by --model, COMPANION_CHAT_MODEL or the Settings file picker wins over a catalog
choice (`companion models use ID`); with neither, the bundled SmolLM2 and MiniLM are used.
"""
from __future__ import annotations

import os
from pathlib import Path

from app.settings import Settings
from models.catalog import MIRROR_ENV, load_catalog
from models.errors import ModelError
from models.library import ModelLibrary
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
