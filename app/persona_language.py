"""Which of the persona's two fixed texts (English, Chinese) a conversation gets.

The choice is a switch between two files in assets/personas; the user's words decide only which file,
never what it says. It is made per conversation, not per message, because the system prompt is the
start of the prompt llama.cpp reuses from turn to turn (docs/architecture.md, "Retrieval and injection"):
a prompt that flipped language on every mixed or one-off message would throw away the whole evaluated
prefix each time. So:

- the first user message of a session that has letters in it decides (`message_language`);
- the session changes language only when the user has clearly changed for good: `SWITCH_AFTER` messages
  in a row in the other language. One English line in a Chinese chat (or a quoted Chinese name in an
  English one) changes nothing; both texts tell the model to answer in the language the person writes
  in, so those few replies still follow the user;
- a session whose messages have no letters yet (emoji, digits) takes the UI language from settings.

The decision is recomputed from the saved transcript each turn, so it is the same after a restart or
when an old conversation is reopened.
"""
from __future__ import annotations

import locale
import os
import re
from typing import Iterable

SWITCH_AFTER = 3  # messages in a row in the other language that move a conversation over
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def message_language(text: str) -> str | None:
    """'zh', 'en', or None for a message with neither Chinese characters nor Latin letters.

    Chinese when its Han characters are at least twice its Latin words (a Chinese word is one or two
    characters): "我在听Taylor Swift的歌" is Chinese, "I love 火锅 so much" is English.
    """
    han = len(_HAN.findall(text))
    words = len(_LATIN_WORD.findall(text))
    if not han and not words:
        return None
    return "zh" if han >= 2 * words else "en"


def conversation_language(user_messages: Iterable[str], fallback: str = "en") -> str:
    """The persona language for a conversation, from its user messages oldest first (the newest included)."""
    current: str | None = None
    run = 0
    for text in user_messages:
        lang = message_language(text)
        if lang is None:
            continue
        if current is None or lang == current:
            current, run = lang, 0
            continue
        run += 1
        if run >= SWITCH_AFTER:
            current, run = lang, 0
    return current or fallback


def ui_language(choice: str | None) -> str:
    """'zh' or 'en' for the Settings language ('zh_CN', 'en', 'auto': the system locale, as the window does)."""
    if choice in ("zh_CN", "en"):
        return "zh" if choice == "zh_CN" else "en"
    name = next((os.environ[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(v)), None)
    name = name or locale.getlocale()[0] or ""
    traditional = any(tag in name.upper() for tag in ("TW", "HK", "MO", "HANT"))
    return "zh" if name.lower().startswith("zh") and not traditional else "en"
