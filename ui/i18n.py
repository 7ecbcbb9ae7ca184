"""UI languages: English source strings looked up in a JSON catalog per language (assets/i18n/<code>.json)."""
from __future__ import annotations

import json
import logging
from functools import lru_cache

from PySide6.QtCore import QLocale

from app.errors import user_error
from assets import ASSETS_DIR

log = logging.getLogger(__name__)
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
AUTO = "auto"
_state = {"code": "en"}


@lru_cache(maxsize=None)
def catalog(code: str) -> dict[str, str]:
    """The translations of one language (empty for English, the source language)."""
    if code == "en":
        return {}
    path = ASSETS_DIR / "i18n" / f"{code}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # a broken catalog falls back to English rather than no UI at all
        log.warning("cannot read translations %s: %s", path, exc)
        return {}


def system_language() -> str:
    """The UI language the system locale asks for: Simplified Chinese for any zh locale but zh_TW/HK, else English."""
    name = QLocale.system().name()
    if name.startswith("zh") and not name.endswith(("TW", "HK", "MO")):
        return "zh_CN"
    return "en"


def resolve(choice: str | None) -> str:
    """The language code for a settings value ('auto', 'en', 'zh_CN'; anything unknown means auto)."""
    return choice if choice in LANGUAGES else system_language()


def set_language(choice: str | None) -> str:
    """Switch the UI language; returns the code in use."""
    _state["code"] = resolve(choice)
    return _state["code"]


def language() -> str:
    """The code of the language in use."""
    return _state["code"]


def tr(text: str, **values) -> str:
    """The text in the current language, with {placeholders} filled from values."""
    translated = catalog(_state["code"]).get(text, text)
    return translated.format(**values) if values else translated


def error_text(exc: BaseException) -> str:
    """The sentence to show for a failure, in the UI language.

    A known error (any layer's, by `app.errors.user_error`) is translated by its code: the catalog's
    translation of the exact sentence if it has one, else its sentence for the code (`error:<code>`),
    else the English sentence. Anything else is a bug and is named plainly.
    """
    known = user_error(exc)
    if known is None:
        return tr("Something went wrong: {error}", error=repr(exc))
    texts = catalog(_state["code"])
    return texts.get(known.message) or texts.get(f"error:{known.code}") or known.message
