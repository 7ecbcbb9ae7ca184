"""A correction of a name, number, place or date said before: the remembered fact, said right.

People correct a single value: "不是豆豆 是朵朵", "biochem not bio!", "it's the 22nd, not the 20th", "i said ohio and i
meant indiana", "口误 是李皓不是李浩". The message names the wrong value and the right one; read alone it is no fact
("Biochem not bio" was stored beside the old memory, which stood). Where an active memory holds the wrong value,
the correction is that memory with the right value in its place — its category, topic, importance and source
kept — and it replaces the memory, so the panel shows the fact once, said right, with the change in its history.
A wrong value no memory holds corrects nothing here: the message is read as any other.

It is grammar, not a list of facts: the shapes are how a correction is said ("X not Y", "not X, Y", "不是X 是Y",
"是Y不是X", "I said X … it's Y"), the values are short (a name, a number, a place, a few words). A date is matched
as a date: "the 20th" corrects a memory dated the 20th, whatever its words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from memory.dates import find_dates
from memory.records import Candidate, Memory
from memory.text import without_emoji

_EN_WORD = re.compile(r"[\w'&-]+")
_EN_BREAK = re.compile(r"[,.;:!?()~…]|\s-\s|\b(?:lol|lmao|haha|btw|tho|though|and|but|so|which|because|bc)\b", re.IGNORECASE)
# what a value is said after ("it's tree nuts", "the dentist is thursday", "i'm a teacher"), left out of the value
_EN_COPULA = re.compile(r"\b(?:it'?s|its|is|are|was|were|i'm|im|i am|he's|she's|they're|we're|called|named|actually|"
                        r"really|a|an|the|my)\s+", re.IGNORECASE)
# what ends a value said after it: a preposition or a new subject ("kady with a y", "spanish i'm learning")
_EN_RIGHT_END = re.compile(r"\s(?:with|in|at|on|for|from|to|i|i'm|im|you|he|she|they|we|it|who|that)\b", re.IGNORECASE)
_EN_NOT = re.compile(r"\bnot\s+(?:a\s+|an\s+|the\s+)?", re.IGNORECASE)
_EN_SAID = re.compile(r"\bi\s+(?:said|told\s+you|typed|wrote|called\s+(?:him|her|it|them))\s+", re.IGNORECASE)
_EN_MEANT = re.compile(r"\b(?:it'?s|its|it\s+is|i\s+meant|meant|should\s+be)\s+(?:actually\s+|really\s+)?", re.IGNORECASE)
_ZH_SEP = re.compile(r"[\s，,。！!～~？?、；;：:（）()]")
_ZH_PARTICLES = "啦呀哦噢嘛了的吧哈呢"
_ZH_NOT = re.compile(r"不是")
_ZH_RIGHT_LEAD = re.compile(r"^(?:而是|应该是|其实是|是)")
_NOT_A_VALUE = re.compile(r"^(?:it|that|this|so|too|really|very|just|even|only|sure|yet|now|anymore|me|you|him|her|"
                          r"them|us|one|much|bad|good|ok|okay|gonna|going|like|about|that bad|a big deal|我|你|他|她|它|"
                          r"说|这样|那样|这个|那个|一样|故意|真的|很|太|没|不|我的错|你的错)$", re.IGNORECASE)
MAX_WORDS = 3
MAX_ZH_CHARS = 8


@dataclass(frozen=True)
class Correction:
    """A value the user says was wrong, the value that is right, and the words that say so."""

    wrong: tuple[str, ...]  # the wrong value, or words around it that hold it, shortest first
    right: str
    quote: str


def corrections(text: str) -> list[Correction]:
    """The corrections a message makes, in the order said (none when it makes none). A correction may name its
    wrong value with words around it ("i told you my husband works at cvs"): each of its last few words is offered,
    shortest first, and the memory that holds one decides (`with_corrections`)."""
    out = [c for c in _en_corrections(text) + _zh_corrections(text)
           if c.right and c.wrong and not _NOT_A_VALUE.match(c.right) and not _NOT_A_VALUE.match(c.wrong[0])]
    return [c for c in out if all(w.casefold() != c.right.casefold() for w in c.wrong)]


def reply_corrections(text: str, assistant: str | None, today: date) -> list[Correction]:
    """A value the message opens on, said back against a different value of its kind in the companion's last message:
    "the 2nd!!" after "the wedding on the 12th?", "94!" after "Imagine being 84", "York!" after "the coding camp in
    Durham", "三遍！！" after "你说繁花看了两遍", "林悦 喜悦的悦" after "和林月和好了吗". The value is the message's first
    piece (a date, a number, a name: at most MAX_WORDS words or a few characters), and the companion's value is of
    the same kind: a date beside a date, a number beside a number, a Chinese value differing from it in one
    character that is a numeral or a name spelled out ("喜悦的悦"), an English name beside the one name the companion
    used that the user did not. None when the companion said no such value."""
    if not assistant or not text.strip():
        return []
    if re.search(r"[\u4e00-\u9fff]", text):
        return _zh_reply_corrections(text.strip(), assistant)
    piece = re.split(r"[,.;:!?()~…]|\s-\s|\s(?:and|but|lol|haha)\b", text.strip(), maxsplit=1)[0].strip()
    words = _EN_WORD.findall(piece)
    if not words or len(words) > MAX_WORDS or _NOT_A_VALUE.match(piece) or _EN_NOT.search(piece):
        return []
    said = find_dates(piece, today) or (find_dates(f"the {piece}", today) if _ORDINAL.fullmatch(piece) else [])
    if said:
        theirs = [d for d in find_dates(assistant, today) if d.date != said[0].date]
        return [Correction((theirs[0].text,), said[0].text, piece)] if len(theirs) == 1 else []
    number = piece if piece.isdigit() else str(_NUMBER_WORDS.index(piece.casefold())) if piece.casefold() in _NUMBER_WORDS else ""
    if number:
        return _number_corrected(number, piece, assistant)
    # "York!", "Seoul 😄": a name said back with feeling, not a new subject
    emphasis = text.strip()[len(piece):].lstrip().startswith("!") or without_emoji(piece) != piece
    piece = without_emoji(piece)
    if emphasis and len(words) <= 2 and all(w[:1].isupper() and not w.isupper() for w in words):
        names = {m.group(0) for m in re.finditer(r"\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)*\b", assistant)
                 if assistant[:m.start()].rstrip()[-1:] not in ("", ".", "!", "?")  # not a sentence's first word
                 and m.group(0).casefold() not in text.casefold() and m.group(0) not in _EN_NOT_NAMES}
        return [Correction((names.pop(),), piece, piece)] if len(names) == 1 else []
    return []


def _number_corrected(number: str, piece: str, assistant: str) -> list[Correction]:
    """A number said back against the companion's: the one nearest it, when one is ("SEVEN" after "8 going on 18")."""
    theirs = sorted({n for n in re.findall(r"(?<![\d.])\d+(?![\d.])", assistant) if n != number},
                    key=lambda n: abs(int(n) - int(number)))
    if not theirs or len(theirs) > 1 and abs(int(theirs[0]) - int(number)) == abs(int(theirs[1]) - int(number)):
        return []
    return [Correction((theirs[0],), number, piece)]


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                 "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)", re.IGNORECASE)
_EN_NOT_NAMES = frozenset({"I", "I'm", "I've", "I'd", "I'll", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                           "Saturday", "Sunday"})
_ZH_NUMERALS = "零一二两三四五六七八九十百千万0123456789"


def _zh_reply_corrections(text: str, assistant: str) -> list[Correction]:
    piece = _ZH_SEP.split(text, maxsplit=1)[0].rstrip(_ZH_PARTICLES)
    half = len(piece) // 2
    if len(piece) % 2 == 0 and piece[:half] == piece[half:]:
        piece = piece[:half]  # "六岁六岁"
    if piece.isdigit():  # "612 是侄子啦" after "外甥考了621"
        return _number_corrected(piece, piece, assistant)
    if not 2 <= len(piece) <= 4 or _NOT_A_VALUE.match(piece) or re.search(r"[的了吗呢吧啊呀哦哈嗯好行对是]$", piece):
        return []  # "好的！", "对呀！": an answer, not a value
    spelled = re.search(rf"[\u4e00-\u9fff]([{re.escape(piece)}])的\1", text[len(piece):len(piece) + 12])  # "喜悦的悦"
    emphasis = text[len(piece):].lstrip(_ZH_PARTICLES)[:1] in ("！", "!")  # "小黑！" after "小白和大黄还好吗"
    found = []
    for at in range(len(assistant) - len(piece) + 1):
        other = assistant[at:at + len(piece)]
        differ = [k for k in range(len(piece)) if piece[k] != other[k]]
        if len(differ) != 1 or not re.fullmatch(r"[\u4e00-\u9fff0-9]+", other):
            continue
        k = differ[0]
        if piece[k] in _ZH_NUMERALS and other[k] in _ZH_NUMERALS or spelled and spelled.group(1) == piece[k] or emphasis:
            found.append(other)
    return [Correction((found[0],), piece, piece)] if len(set(found)) == 1 else []


def _en_corrections(text: str) -> list[Correction]:
    out = []
    for m in _EN_NOT.finditer(text):  # "biochem not bio", "it's tree nuts not peanuts", "not leeds, leicester"
        after = _phrase(text[m.end():])
        before = _phrase(text[:m.start()].rstrip(" ,"), backwards=True)
        if after and before:
            start = text.rfind(before[0], 0, m.start())
            out.append(Correction(_options(after), " ".join(before), text[start:_end_of(text, after, m.end())]))
        elif after and (rest := re.match(r"\s*[,;]\s*", text[m.end() + len(" ".join(after)):])):
            right = _phrase(_EN_MEANT.sub("", text[m.end() + len(" ".join(after)) + rest.end():], count=1))
            if right:
                out.append(Correction(_options(after), " ".join(right), text[m.start():_end_of(text, right, m.end())]))
    for m in _EN_SAID.finditer(text):  # "i said the 20th before, it's actually the 22nd", "i told you ohio and i meant indiana"
        meant = _EN_MEANT.search(text, m.end(), m.end() + 80)
        if meant is None:
            continue
        said = _EN_BREAK.split(text[m.end():meant.start()])[0]
        wrong = _EN_WORD.findall(said)[-MAX_WORDS - 1:]
        right = _phrase(text[meant.end():])
        if wrong and right:
            out.append(Correction(_options(list(reversed(wrong)), backwards=True), " ".join(right),
                                  text[m.start():_end_of(text, right, meant.end())]))
    return out


def _end_of(text: str, words: list[str], start: int) -> int:
    """Where the last of these words ends, looking from `start`."""
    at = text.find(words[-1], start)
    return at + len(words[-1]) if at >= 0 else len(text)


def _phrase(text: str, backwards: bool = False) -> list[str]:
    """The value's words: up to the first break, at most MAX_WORDS, what it is said after left out."""
    if backwards:
        piece = _EN_BREAK.split(text)[-1]
        piece = _EN_COPULA.split(piece)[-1]
        words = _EN_WORD.findall(piece)
        return words[-MAX_WORDS:] if len(words) <= MAX_WORDS else []
    piece = _EN_RIGHT_END.split(_EN_BREAK.split(text.lstrip())[0])[0]
    words = _EN_WORD.findall(piece)
    return words[:MAX_WORDS] if words and len(words) <= MAX_WORDS + 2 else []


def _options(words: list[str], backwards: bool = False) -> tuple[str, ...]:
    """Each run of the first words (or, `backwards`, of the last words), shortest first."""
    if backwards:
        words = list(reversed(words))
        return tuple(" ".join(words[-k:]) for k in range(1, len(words) + 1))
    return tuple(" ".join(words[:k]) for k in range(1, len(words) + 1))


def _zh_corrections(text: str) -> list[Correction]:
    out = []
    for m in _ZH_NOT.finditer(text):
        wrong = _zh_value(text[m.end():])
        if not wrong:
            continue
        rest = text[m.end() + len(wrong):].lstrip(_ZH_PARTICLES)
        rest = _ZH_SEP.sub(" ", rest).lstrip()
        right = _zh_value(_ZH_RIGHT_LEAD.sub("", rest)) if rest else ""
        before = _zh_value(text[:m.start()].rstrip(" ，,…")[::-1])[::-1]  # "是李皓不是李浩", "她是中考 不是高考"
        if "是" in before[:-1]:  # 是贫血不是低血糖
            out.append(Correction((wrong,), before.rsplit("是", 1)[1], text[max(0, m.start() - len(before) - 1):m.end() + len(wrong)]))
        elif right and right != wrong:  # 不是豆豆 是朵朵 / 不是二年级啦 三年级了
            out.append(Correction((wrong,), right, text[m.start():m.end() + len(wrong) + 12].strip()))
        elif (before and len(before) <= 4 and len(wrong) <= 4 and text[:m.start()].rstrip(" ，,…") == before
              and not re.search(r"[我你他她它]", before)):
            out.append(Correction((wrong,), before, text[:m.end() + len(wrong)]))  # the message opens: 律所…不是会计所
    return out


def _zh_value(text: str) -> str:
    """A Chinese value at the start of the text: up to a separator, particles dropped, at most MAX_ZH_CHARS."""
    piece = _ZH_SEP.split(text, maxsplit=1)[0].rstrip(_ZH_PARTICLES)
    return piece if 0 < len(piece) <= MAX_ZH_CHARS else ""


def corrected(memory: Memory, correction: Correction, today: date) -> Candidate | None:
    """The memory said right, or None when it does not hold the wrong value."""
    content, event_date = memory.content, memory.event_date
    wrong_day = next((d for w in reversed(correction.wrong) if (d := _day(w, today)) is not None), None)
    right_day = _day(correction.right, today)
    if wrong_day and right_day and memory.event_date == wrong_day.isoformat():
        event_date = right_day.isoformat()
        content = content.replace(wrong_day.isoformat(), right_day.isoformat())
    else:
        found = next((f for w in correction.wrong if (f := _holding(content, w)) is not None), None)
        if found is None:
            return None
        content = content[:found.start()] + _cased(correction.right, found.group(0)) + content[found.end():]
    return Candidate(category=memory.category, content=content, quote=correction.quote, source=memory.source,
                     confidence=max(memory.confidence, 0.9), importance=memory.importance,
                     origin=f"correction:{memory.id}", topic=memory.topic, change=1.0,
                     event_date=date.fromisoformat(event_date) if event_date else None)


def _holding(content: str, value: str) -> re.Match[str] | None:
    """Where the content holds the value: anywhere in Chinese; in Latin script as whole words, or as the start of a
    word when the value is a short form of it ("bio" for the stored "biology")."""
    if re.search(r"[\u4e00-\u9fff]", value):
        return re.search(re.escape(value), content)
    whole = re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", content, re.IGNORECASE)
    if whole is not None or len(value) < 3 or " " in value:
        return whole
    return re.search(rf"(?<![\w]){re.escape(value)}\w+", content, re.IGNORECASE)


def _cased(right: str, wrong_as_stored: str) -> str:
    """The right value in the case the memory wrote the wrong one ("Maya" corrected by "nadia" is "Nadia")."""
    if wrong_as_stored[:1].isupper() and right[:1].islower():
        return right[:1].upper() + right[1:]
    return right


# A day of the month said with no month ("the 2nd", "2号"): which month it falls in is the one the companion spoke of,
# so a remembered event on that day of any month already holds it.
_BARE_DAY = re.compile(r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?|\d{1,2}[号日]", re.I)


def _day(value: str, today: date) -> date | None:
    """The one date a value names ("the 20th before" names the 20th: the words after a date are dropped one by one)."""
    words = value.split()
    for k in range(len(words), 0, -1):
        found = find_dates(" ".join(words[:k]), today)
        if found:
            return found[0].date if len(found) == 1 else None
    return None


def with_corrections(active: list[Memory], said: list[Correction],
                     today: date) -> tuple[list[tuple[Memory, Candidate]], list[Correction]]:
    """Each active memory one of the message's corrections (`corrections`) is about, with the memory said right (the
    newest memory holding the wrong value, once per correction); and the corrections of what the companion said back, where a
    memory already holds the right value and none the wrong one ("glasgow not edinburgh" after the companion
    said Edinburgh): nothing to change, and no fact of their own."""
    changed: list[tuple[Memory, Candidate]] = []
    already: list[Correction] = []
    done: set[str] = set()
    newest = sorted(active, key=lambda m: m.valid_from or m.created_at or "", reverse=True)
    for c in said:
        for memory in newest:
            cand = corrected(memory, c, today) if memory.id not in done else None
            if cand is not None:
                changed.append((memory, cand))
                done.add(memory.id)
                break
        else:
            right_day = _day(c.right, today)
            if any(_holding(m.content, c.right) is not None or right_day is not None and m.event_date is not None
                   and (m.event_date == right_day.isoformat() or _BARE_DAY.fullmatch(c.right.strip())
                        and m.event_date[8:10] == f"{right_day.day:02d}") for m in newest):
                already.append(c)
    return changed, already
