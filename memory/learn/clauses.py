"""Cut a user message into clauses: the unit the trained extractor scores and a clause memory quotes.

A clause ends at a sentence mark, a comma, an emoji, a line break, a space between two Chinese
characters (people who type without punctuation separate thoughts with spaces), or before a contrast
word ("but", "但是"), because a contrast usually turns the polarity ("love sushi but raw fish isn't my
thing"). Spans index into the original text, so a clause can be matched against a quoted span.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from memory.text import EMOJI

_CJK = "\u3400-\u9fff\uf900-\ufaff"
# A memory is one atomic fact; a quote this long with no clause boundary (voice-to-text without
# punctuation) is a whole ramble, not a fact, and is not stored as one. About 1.5x the longest fact
# quoted in the train split (Chinese 38 characters, English 99; 99th percentile 28 and 83).
MAX_FACT_CHARS = {"zh": 60, "en": 160}
_BOUNDARY = re.compile(
    rf"[。！？!?；;…\n]+"                       # sentence marks
    rf"|(?<!\d)[.](?!\d)"                       # a full stop, not a decimal point
    rf"|[，,]|(?<=[{_CJK}])\s+(?=[{_CJK}])"     # commas; a space between Chinese characters
    rf"|[{EMOJI}]+"                            # emoji
    rf"|\s[-–—]+\s|[~～]{{1,}}(?=\s|$)"          # dashes between words; trailing tildes
    rf"|(?=\b(?:but|although|though|except|whereas)\b)"
    rf"|(?=但是|不过|可是|然而|只是)",
    re.IGNORECASE)
_TRIM = f" \t\"'“”‘’()（）[]【】「」*_-–—:：~～、{chr(0x3000)}"


@dataclass(frozen=True)
class Clause:
    """One clause of a message: its text (trimmed) and where it sits in the message."""

    text: str
    start: int
    end: int


def split_clauses(text: str) -> list[Clause]:
    """The clauses of `text`, in order; pieces with no letter or Chinese character are dropped."""
    out: list[Clause] = []
    pos = 0
    inside = _parenthesised(text)
    for m in _BOUNDARY.finditer(text):
        if any(a < m.start() < b for a, b in inside):
            continue  # "Kai (my brother, sadly) loves Warhammer" is one clause
        if m.start() > pos or m.end() > m.start():
            _append(out, text, pos, m.start())
            pos = max(pos, m.end())
    _append(out, text, pos, len(text))
    return out


def _parenthesised(text: str) -> list[tuple[int, int]]:
    """Spans of short asides in parentheses (one level, closed within 60 characters)."""
    return [(m.start(), m.end()) for m in _ASIDE.finditer(text)]


_ASIDE = re.compile(r"[(（][^()（）\n]{1,60}[)）]")


def _append(out: list[Clause], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    lead = len(piece) - len(piece.lstrip(_TRIM))
    piece = piece.strip(_TRIM)
    if piece and re.search(rf"[A-Za-z{_CJK}]", piece):
        out.append(Clause(piece, start + lead, start + lead + len(piece)))


def overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Characters two spans share."""
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def covers(clause: Clause, span: tuple[int, int]) -> bool:
    """Does a clause carry a quoted span: one holds the other, or they share half of the shorter one."""
    shared = overlap((clause.start, clause.end), span)
    shorter = min(clause.end - clause.start, span[1] - span[0])
    return shorter > 0 and shared >= 0.5 * shorter


def too_long_for_a_fact(quote: str) -> bool:
    """Is this quote a whole ramble rather than one fact (MAX_FACT_CHARS for its script)?"""
    return len(quote) > MAX_FACT_CHARS["zh" if re.search(f"[{_CJK}]", quote) else "en"]
