"""UI languages: English source strings looked up in a JSON catalog per language (assets/i18n/<code>.json)."""
from __future__ import annotations

import json
import logging
from datetime import date
from functools import lru_cache

from PySide6.QtCore import QLocale

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


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def date_words(iso: str | None) -> str:
    """An ISO date (or timestamp) as people write it: "4 December 2026", "2026年12月4日"; other text unchanged."""
    try:
        d = date.fromisoformat((iso or "")[:10])
    except ValueError:
        return iso or ""
    if _state["code"] == "zh_CN":
        return f"{d.year}年{d.month}月{d.day}日"
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"
