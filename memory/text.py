"""Text handling shared by indexing and search: cleaning, Chinese segmentation, safe FTS queries."""
from __future__ import annotations

import re
import unicodedata

import rjieba

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_QUERY_TERMS = 32
STOPWORDS = frozenset(
    "a an the and or but if of to in on at for with from by is are was were be been am i me my mine you your "
    "we our they them it its this that these those do does did have has had not no so very just what when "
    "where who how why which can could would should will about as up out than then there here".split()
    + list("的了是在我你他她它们吗呢吧啊呀和与就都也很还")
)


EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d"
_EMOJI_RUN = re.compile(rf"\s*[{EMOJI}]+")


def without_emoji(text: str) -> str:
    """The text with its emoji taken out ("Only their mum calls them Alex 😅"); the text itself when it is nothing else."""
    return _EMOJI_RUN.sub("", text).strip() or text


def clean(text: str) -> str:
    """Drop control characters and unpaired surrogates; keep newlines and tabs; NFC-normalize."""
    text = text.encode("utf-8", "replace").decode("utf-8") if _has_surrogates(text) else text
    kept = (ch for ch in text if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs", "Cf"))
    return unicodedata.normalize("NFC", "".join(kept))


def _has_surrogates(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def has_cjk(text: str) -> bool:
    """True if the text contains Chinese characters."""
    return bool(_CJK.search(text))


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; Chinese runs are segmented into words with jieba."""
    text = clean(text).lower()
    if not has_cjk(text):
        return _WORD.findall(text)
    out: list[str] = []
    for piece in rjieba.cut(text):
        out.extend(_WORD.findall(piece))
    return out


def index_text(text: str) -> str:
    """The form stored in FTS tables: tokens joined by spaces, so unicode61 sees Chinese words."""
    return " ".join(tokens(text))


def fts_query(text: str) -> str | None:
    """A MATCH expression built from the user's text: every term quoted, OR-ed; None if nothing to search.

    User text never reaches MATCH raw: FTS operators (AND, NEAR, *, quotes, parentheses) in it become
    plain quoted terms, so any input is a valid query.
    """
    terms: list[str] = []
    for tok in tokens(text):
        if tok in STOPWORDS or tok in terms:
            continue
        terms.append(tok)
        if len(terms) >= _MAX_QUERY_TERMS:
            break
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


_NEGATION = re.compile(
    r"\b(not|no longer|never|don't|doesn't|didn't|isn't|aren't|wasn't|can't|cannot|won't|anymore|quit|"
    r"stopped|dislikes?|hates?|over)\b|n't|不(?!错|过|少|仅)|没|(?<![特区分告个级类性差识辨鉴])别(?![人的处])|再也|分手|腻|戒",
    re.IGNORECASE,
)


def has_negation(text: str) -> bool:
    """True if the text negates or reverses something (English or Chinese)."""
    return bool(_NEGATION.search(text))
