"""Word lists of the rules (jobs, relations, pets, moods, 语气词 …), read from `memory/learn/lexicon/*.txt`.

A lexicon file holds one word or phrase per line; `#` starts a comment. Words are literal: they are
escaped with `re.escape` when they become a regex alternation, so a list never carries regex syntax
and a word cannot break the pattern it is interpolated into.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parents[1] / "lexicon"


class LexiconError(ValueError):
    """A lexicon that cannot be used: missing, empty, or with a word that is not one line of text."""


@cache
def words(name: str, directory: Path = LEXICON_DIR) -> tuple[str, ...]:
    """The words of lexicon `name` (file `<name>.txt`), in file order, each once."""
    path = directory / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LexiconError(f"lexicon {name}: cannot read {path}: {exc}") from exc
    out: dict[str, None] = {}
    for n, line in enumerate(text.splitlines(), 1):
        word = line.split("#", 1)[0].strip()
        if not word:
            continue
        if "\t" in word or "  " in word:
            raise LexiconError(f"lexicon {name}, line {n}: {word!r} is not one word or phrase")
        out.setdefault(word, None)
    if not out:
        raise LexiconError(f"lexicon {name}: no words in {path}")
    return tuple(out)


def word_set(name: str, fold: bool = False) -> frozenset[str]:
    """The words of a lexicon as a set (lower-cased with `fold`), for membership tests."""
    return frozenset(w.lower() for w in words(name)) if fold else frozenset(words(name))


def alternation(name: str, longest_first: bool = False, space: str | None = None) -> str:
    r"""The words as a regex alternation ("nurse|teacher|…"), escaped; `longest_first` puts a longer
    word before any shorter one ("nurse practitioner" before "nurse"); `space` is the regex a space
    inside a phrase stands for (r"\s+": "table tennis" also reads "table  tennis")."""
    ws = list(words(name))
    if longest_first:
        ws.sort(key=len, reverse=True)
    escaped = (re.escape(w) for w in ws)
    return "|".join(e.replace("\\ ", space) if space else e for e in escaped)
