"""UI languages: English source strings looked up in a JSON catalog per language (assets/i18n/<code>.json)."""
from __future__ import annotations

import json
import logging
import re
from datetime import date
from functools import lru_cache

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.errors import user_error
from assets import ASSETS_DIR

log = logging.getLogger(__name__)
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
AUTO = "auto"
_state = {"code": "en"}
_qt_translator: dict[str, QTranslator] = {}


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
    """Switch the UI language (ours and Qt's own: Save/Cancel, file dialogs); returns the code in use."""
    _state["code"] = resolve(choice)
    _use_qt_translations(_state["code"])
    return _state["code"]


def _use_qt_translations(code: str) -> None:
    """Qt's translations of its standard buttons and dialogs (shipped with PySide6) for this language."""
    app = QCoreApplication.instance()
    old = _qt_translator.pop("current", None)
    if app is not None and old is not None:
        app.removeTranslator(old)
    if app is None or code == "en":
        return
    translator = QTranslator(app)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if translator.load(f"qtbase_{code}", folder):
        app.installTranslator(translator)
        _qt_translator["current"] = translator
    else:
        log.warning("no Qt translations for %s in %s", code, folder)


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
    translation of the exact sentence if it has one (or of every sentence in it, a catalog sentence's
    {placeholders} filled from the message, as `tr_message` does), else its sentence for the code
    (`error:<code>`), else the English sentence. Anything else is a bug and is named plainly.
    """
    known = user_error(exc)
    if known is None:
        return tr("Something went wrong: {error}", error=repr(exc))
    texts = catalog(_state["code"])
    if not texts or known.message in texts:
        return texts.get(known.message) or known.message
    translated, done, total = _translate_sentences(known.message)
    if done == total:
        return translated
    return texts.get(f"error:{known.code}") or (translated if done else known.message)


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


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


@lru_cache(maxsize=None)
def _patterns(code: str) -> list[tuple[re.Pattern, str]]:
    """Catalog entries with {placeholders} as regular expressions that capture the values."""
    out = []
    for source, translated in catalog(code).items():
        if "{" in source:
            seen: set[str] = set()

            def group(m: re.Match) -> str:  # a placeholder used twice must match the same text twice
                name = m.group(1)
                first = name not in seen
                seen.add(name)
                return f"(?P<{name}>.+?)" if first else f"(?P={name})"
            out.append((re.compile(re.sub(r"\\\{(\w+)\\\}", group, re.escape(source))), translated))
    # The most literal text first: "{shown} of {total}" must not claim every sentence that has " of " in it.
    return sorted(out, key=lambda p: -len(re.sub(r"\(\?P<\w+>\.\+\?\)|\(\?P=\w+\)", "", p[0].pattern)))


def tr_message(text: str, drop: tuple[str, ...] = ()) -> str:
    """A message from a lower layer (app, memory, models) in the UI's language, sentence by sentence; sentences
    containing any of `drop` are left out (e.g. "in Settings" while the user is in Settings)."""
    return _translate_sentences(text, drop)[0]


def _translate_sentences(text: str, drop: tuple[str, ...] = ()) -> tuple[str, int, int]:
    """`tr_message`'s text, how many of its sentences had a translation, and how many it has."""
    sentences = [s for s in _SENTENCE_END.split(text.strip()) if s and not any(d in s for d in drop)]
    out, done = [], 0
    for sentence in sentences:
        translated = catalog(_state["code"]).get(sentence)
        if translated is None:
            found = next(((p, t) for p, t in _patterns(_state["code"]) if p.fullmatch(sentence)), None)
            translated = found[1].format(**found[0].fullmatch(sentence).groupdict()) if found else None
        done += translated is not None
        out.append(sentence if translated is None else translated)
    return ("" if _state["code"] == "zh_CN" else " ").join(out), done, len(sentences)
