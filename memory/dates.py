"""Relative date expressions (English and Simplified Chinese) resolved to absolute dates.

Pure stdlib. Conventions follow /work/shared/eval/README.md ("Date conventions"):

* Day offsets ("tomorrow", "in two weeks", "明天", "三天后") count calendar days from `today`;
  month offsets clamp to the month's end (Jan 31 + one month = Feb 28/29).
* A bare weekday, "this/coming/this coming <weekday>" and bare "周X/星期X" mean the first such
  weekday *after* today (1-7 days ahead). "next <weekday>" and "下周X" mean weekday X of the
  following Monday-start week; "这周X/本周X" is the day of the current week (possibly past);
  "last <weekday>" is the most recent such day before today; "上周X" is X of the previous week.
* "this weekend"/"the weekend"/"周末"/"这周末" mean Saturday of the current week (today itself
  if today is Saturday or Sunday); "next weekend"/"下周末" and "the weekend after next" (the one after the
  coming weekend) the Saturday of next week.
* "in N days/weeks/months" is that day ahead, unless the clause before it says a length of time up to now
  ("haven't spoken to her in two months", "for the first time in 8 months": no date).
* "the Nth of next month"/"下个月N号" are day N of the following month; "the Nth"/"N号" on their
  own are day N of the current month, even if already past. A month and day without a year is
  the next occurrence on or after today.
* Vague past spans "last week"/"上周" (today - 7) and "last month"/"上个月" (today - 1 month)
  are returned as approximate mentions (absolutize writes "around <date>" / "<date>前后").
  Vague future spans ("next week", "next month", "下周", "下个月") have no definite day and are
  not returned. Plural weekdays ("on Mondays"), "every Friday", "每周三" and bare weekday
  ranges ("Monday to Friday", "Tue-Thu", "周一到周五": both ends are dropped) are treated as
  routines, not dates. In English, a bare weekday or a month and day said after a past-tense verb of the same
  clause ("started monday", "the exam was on December 1st", "I saw him Friday") is the most recent such day
  on or before today (a weekday: before today) — unless a future word is there too ("will", "gonna").
* Spans counted from another day ("a week from tomorrow", "6 weeks from saturday", "a week on Friday") shift
  that day. Parts of a month are approximate days: its end (月底/月末, "the end of the month") the last day,
  its start (月初, "early next month") the 1st, 上旬 the 5th, 中旬/月中/"mid-" the 15th, 下旬/"late" the 25th;
  年底 is December 31. "每月底" is a routine. A weekday after a determiner and before a noun ("the Sunday
  crossword", "our Saturday morning run") names a thing, not a date.
* Holidays (with `with_holidays`): days counted from one start after its break ends (国庆后第一天 is 10-08,
  the golden week being seven days) or before it begins (圣诞节前一天, "two days before Christmas").
"""
from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Callable, Iterable

import rjieba

from memory import holidays
from memory.text import has_cjk

__all__ = ["DateMention", "find_dates", "absolutize", "undated"]


@dataclass(frozen=True)
class DateMention:
    """One date expression found in a text."""

    start: int          # char offset in text
    end: int            # char offset (exclusive)
    text: str           # the matched phrase, e.g. "next Friday", "下周三"
    date: date          # the resolved absolute date
    relative: bool      # False when the phrase was already absolute ("2026-12-19", "August 14")


@dataclass(frozen=True)
class _Hit:
    mention: DateMention
    style: str  # how absolutize renders it: day | bare | approx | weekend | part:<word>


_Result = tuple[date, bool, str]          # (date, relative, style)
# A resolver returns None to reject a match; it may also raise ValueError for an impossible
# date (Feb 30, month 13), which rejects it the same way.
_Resolver = Callable[[re.Match, date, str], "_Result | None"]
_RULES: list[tuple[re.Pattern[str], _Resolver]] = []


def _rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[_Resolver], _Resolver]:
    """Register a resolver for every match of `pattern` (the rule table is built by decoration)."""
    def register(fn: _Resolver) -> _Resolver:
        _RULES.append((re.compile(pattern, flags), fn))
        return fn
    return register


# ---------------------------------------------------------------- calendar arithmetic

def _add_months(d: date, n: int) -> date:
    """d plus n calendar months, clamping the day to the target month's length."""
    y, m = divmod(d.month - 1 + n, 12)
    year, month = d.year + y, m + 1
    return date(year, month, min(d.day, monthrange(year, month)[1]))


def _day_in_month(today: date, months_ahead: int, day: int) -> date:
    """Day `day` of the month `months_ahead` after today's (ValueError if it does not exist)."""
    return _add_months(today.replace(day=1), months_ahead).replace(day=day)


def _week_day(today: date, weeks: int, weekday: int) -> date:
    """Weekday (0 = Monday) of the Monday-start week `weeks` after the current one."""
    return today - timedelta(days=today.weekday()) + timedelta(weeks=weeks, days=weekday)


def _next_weekday(today: date, weekday: int) -> date:
    """The first such weekday strictly after today."""
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _prev_weekday(today: date, weekday: int) -> date:
    """The most recent such weekday strictly before today."""
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def _weekend(today: date, weeks: int) -> date:
    """Saturday of the week `weeks` from now; this weekend is today if today is Sat/Sun."""
    return today if weeks == 0 and today.weekday() >= 5 else _week_day(today, weeks, 5)


def _next_occurrence(today: date, month: int, day: int) -> date:
    """Month/day on or after today (Feb 29 waits for a leap year); ValueError if never valid."""
    for year in range(today.year, today.year + 9):
        if 1 <= month <= 12 and 1 <= day <= monthrange(year, month)[1] and date(year, month, day) >= today:
            return date(year, month, day)
    raise ValueError(f"no date {month}/{day}")


def _last_occurrence(today: date, month: int, day: int) -> date:
    """Month/day on or before today (Feb 29: the last leap year's); ValueError if never valid."""
    for year in range(today.year, today.year - 9, -1):
        if 1 <= month <= 12 and 1 <= day <= monthrange(year, month)[1] and date(year, month, day) <= today:
            return date(year, month, day)
    raise ValueError(f"no date {month}/{day}")


def _shift(today: date, n: int, unit: str) -> date:
    """today + n units; unit is one of day, week, fortnight, month, year."""
    if unit in ("month", "year"):
        return _add_months(today, n * (12 if unit == "year" else 1))
    return today + timedelta(days=n * {"day": 1, "week": 7, "fortnight": 14}[unit])


# ---------------------------------------------------------------- vocabulary

def _alt(words: Iterable[str]) -> str:
    """Regex alternation, longest first; spaces/hyphens in a word match any run of them."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "|".join(r"[\s-]+".join(map(re.escape, re.split(r"[\s-]+", w))) for w in ordered)


def _norm(s: str) -> str:
    return re.sub(r"[\s-]+", " ", s.strip().lower())


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WD_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
            "fri": 4, "sat": 5, "sun": 6}
_AMBIGUOUS_ABBR = {"mon", "wed", "sat", "sun"}   # also words: need "Sat." style
_WD_INDEX = {**{w: i for i, w in enumerate(_WEEKDAYS)}, **_WD_ABBR}
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")
_MONTHS = {**{m: i + 1 for i, m in enumerate(_MONTH_NAMES)},
           **{m[:3]: i + 1 for i, m in enumerate(_MONTH_NAMES) if m != "may"}, "sept": 9}
_NUMBERS = {w: i + 1 for i, w in enumerate(
    "one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBERS.update({"a": 1, "an": 1, "a couple of": 2, "a couple": 2, "couple of": 2})
_ORD_UNITS = "first second third fourth fifth sixth seventh eighth ninth".split()
_ORDINALS = {w: i + 1 for i, w in enumerate(_ORD_UNITS + "tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())}
_ORDINALS.update({f"twenty {w}": 21 + i for i, w in enumerate(_ORD_UNITS)})
_ORDINALS.update({"thirtieth": 30, "thirty first": 31})
# Words that may follow a bare "the 5th" (anything else: "the 5th floor", "the 5th time").
_NTH_FOLLOWERS = frozenset("at and or but so then when if in for to with because i i'm we we're "
                           "he she they it it's you my is was will would which that this too as "
                           "morning afternoon evening night until from please".split())
_EN_PREPS = frozenset("on by until till til before after from since for through thru to of at "
                      "over during than around about and or between".split())
_ROUTINE_WORDS = frozenset("every each a most all some other".split())
_DETERMINERS = frozenset("the my our your his her their a".split())
_NEXT_WORD = re.compile(r"\s*([A-Za-z']+)")
_PUNCT_OR_END = re.compile(r"\s*(?:[^\w\s]|$)")
_POSSESSIVE = re.compile(r"['’]s\b")
_COPULA = re.compile(r"\s+(?:is|was|will|would)\b", re.IGNORECASE)

_ON = r"\b(?:(?P<on>on)\s+)?"
_WD = rf"(?P<wd>{_alt(_WD_INDEX)})\b"
_DAYNUM = r"(?P<day>\d{1,2})(?!\d)(?P<sfx>st|nd|rd|th)?\b"
_DAYSPEC = rf"(?:{_DAYNUM}|(?P<dayw>{_alt(_ORDINALS)})\b)"
_MON = rf"(?P<mon>{_alt(_MONTHS)})\b\.?"
_YEAR = r"(?:,?\s+(?P<year>\d{4})(?!\d))?"
_NUM = rf"(?P<n>\d{{1,3}}|{_alt(_NUMBERS)})"
_UNIT = r"(?P<unit>day|week|fortnight|month|year)s?"
_PART = r"(?:\s+(?P<part>morning|afternoon|evening|night)\b)?"
_EN_RANGE = re.compile(rf"\b(?:{_alt(_WD_INDEX)})\s*(?:-|–|to|through|thru|till|until)\s*"
                       rf"(?:{_alt(_WD_INDEX)})\b", re.IGNORECASE)

_CN = "一二两三四五六七八九十"
_CNUM = rf"(?:\d{{1,2}}|[{_CN}]{{1,3}})"
_CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2, "〇": 0}
_ZH_WD = {c: i for i, c in enumerate("一二三四五六日")} | {"天": 6}
_ZH_REL = {"下下": 2, "下": 1, "这": 0, "本": 0, "上": -1, "上上": -2}
_REL = r"(?P<rel>下下|上上|下|上|这|本)"
_WEEK = r"(?:周|星期|礼拜)"
_ZH_RANGE_MARKS = frozenset("到至~-—－～")
# 小/老/阿 before 周: a name ("跟小周一起去" is no Monday)
_ZH_NOT_BEFORE_BARE = set(_CN + "0123456789０１２３４５６７８９每个几第小老阿") | _ZH_RANGE_MARKS
_ZH_NOT_BEFORE_REL = set("一以地底楼树乡私天留剩放早晚马加网路身手之向往北爱看赶")
_ZH_NOT_AFTER_HAO = "线楼房门床位车厢桌窗口机店馆台院栋单码球选字坑种箱包游"


def _cn_int(s: str) -> int | None:
    """Parse digits (incl. full-width) or a Chinese numeral below 100 ("十九", "三十一", "两")."""
    if s.isdigit():
        return int(s)
    tens, ten, units = s.partition("十")
    try:
        if not ten:
            return _CN_DIGITS[s] if len(s) == 1 else None
        return (_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[units] if units else 0)
    except KeyError:
        return None


def _prev_word(text: str, i: int) -> str:
    found = re.search(r"([A-Za-z']+)\s+$", text[max(0, i - 40):i])
    return found.group(1).lower() if found else ""


# Verbs whose past tense places a bare day behind today: the irregular pasts people say of what happened, and the
# regular ones that tell of an event (not "booked"/"scheduled"/"planned", said of what is still ahead).
_PAST_VERBS = ("was|were|did|had|went|began|started|finished|moved|left|quit|met|saw|came|arrived|happened|ended|"
               "passed|died|broke|graduated|retired|joined|visited|landed|returned|celebrated|lost|won|ran|flew|"
               "drove|ate|drank|spent|tried|dropped|turned|caught|fell|felt|slept|woke")
# Not in it: "got" ("got an interview on tuesday"), "booked", "bought", "signed up", "took friday off", "told", "said":
# said of what is still ahead as often as of what happened (train split, en_daily-0196 / en_work_home-0096).
# A colon ends the clause too ("I did manage to book the dentist: friday at 9", an answer said with its question),
# but not one inside a time ("went at 9:30 on friday").
_PAST_BEFORE = re.compile(rf"\b(?:{_PAST_VERBS})\b(?:[^.!?;:,\n]|:(?=\d))*$", re.IGNORECASE)
_FUTURE_WORD = re.compile(r"\b(?:will|won't|'ll|gonna|going\s+to|shall|next|coming|upcoming|until|till|by|is|are|am|"
                          r"starts|begins)\b",
                          re.IGNORECASE)


def _said_of_the_past(text: str, start: int) -> bool:
    """Is the date at `start` told of what happened: a past-tense verb earlier in its clause, within ~6 words, and
    no future or present word between ("was told the interview is friday", "we'll see on Friday" stay ahead)?"""
    before = text[max(0, start - 48):start]
    past = _PAST_BEFORE.search(before)
    if past is None:
        return False
    return len(before[past.start():].split()) <= 7 and not _FUTURE_WORD.search(before[past.start():])


def _overlaps(pattern: re.Pattern[str], text: str, m: re.Match) -> bool:
    """Whether a match of `pattern` (at most ~40 chars long) overlaps m."""
    hits = pattern.finditer(text, max(0, m.start() - 40), m.end() + 40)
    return any(r.start() < m.end() and m.start() < r.end() for r in hits)


def _after_boundary(text: str, i: int, marks: str) -> bool:
    """Whether text[:i], ignoring trailing whitespace, is empty or ends with one of `marks`."""
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i == 0 or text[i - 1] in marks


def _day_value(m: re.Match) -> int:
    return int(m["day"]) if m["day"] else _ORDINALS[_norm(m["dayw"])]


# ---------------------------------------------------------------- English rules

@_rule(_ON + r"(?P<w>(?:the\s+)?day\s+after\s+tomorrow|(?:the\s+)?day\s+before\s+yesterday"
       r"|tomm?orr?ow|tmrw|tmr|today|yesterday)\b" + _PART)
def _en_day_word(m: re.Match, today: date, text: str) -> _Result:
    w = _norm(m["w"]).removeprefix("the ")
    offset = {"day after tomorrow": 2, "day before yesterday": -2, "today": 0, "yesterday": -1}.get(w, 1)
    return today + timedelta(days=offset), True, f"part:{m['part'].lower()}" if m["part"] else "day"


@_rule(r"\b(?P<w>tonight|tonite|last\s+night|this\s+(?:morning|afternoon|evening))\b")
def _en_part_of_day(m: re.Match, today: date, text: str) -> _Result:
    w = _norm(m["w"])
    part = "night" if w in ("tonight", "tonite", "last night") else w.split()[1]
    return today - timedelta(days=w == "last night"), True, f"part:{part}"


# "haven't spoken to her in two months", "for the first time in 8 months": a length of time up to now, not a day ahead.
_SPAN_BEFORE = re.compile(r"(?:\bfirst\s+time|\b(?:haven|hasn|hadn|didn)['’]?t\b|\bnot\b|\bnever\b)(?:[^.!?;:,\n])*$",
                          re.IGNORECASE)


@_rule(r"\bin\s+" + _NUM + r"\s+" + _UNIT + r"(?:(?:['’]s?)?\s+time)?(?![\w-])")
def _en_in_n(m: re.Match, today: date, text: str) -> _Result | None:
    before = text[max(0, m.start() - 48):m.start()]
    span = _SPAN_BEFORE.search(before)
    if span and len(before[span.start():].split()) <= 8 and not _FUTURE_WORD.search(before[span.start():]) \
            and not re.search(r"\b(?:but|and|so|because|though)\b", before[span.start():], re.IGNORECASE):
        return None
    n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[_norm(m["n"])]
    return _shift(today, n, m["unit"].lower()), True, "day"


@_rule(r"\b" + _NUM + r"\s+" + _UNIT + r"\s+(?P<dir>from\s+now|from\s+today|ago(?:\s+today)?)\b")
def _en_n_from_now(m: re.Match, today: date, text: str) -> _Result:
    n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[_norm(m["n"])]
    sign = -1 if m["dir"].lower().startswith("ago") else 1
    return _shift(today, sign * n, m["unit"].lower()), True, "day"


@_rule(r"\blast\s+(?P<unit>week|month)(?![\w-])")
def _en_last_span(m: re.Match, today: date, text: str) -> _Result | None:
    if _prev_word(text, m.start()) in ("the", "this", "past", "of"):   # "for the last week"
        return None
    return _shift(today, -1, m["unit"].lower()), True, "approx"


@_rule(_ON + r"(?P<mod>this\s+coming|this\s+past|this|next|last|the|coming|past)\s+weekend(?P<after>\s+after\s+next)?(?![\w-])")
def _en_weekend(m: re.Match, today: date, text: str) -> _Result:
    mod = _norm(m["mod"])
    weeks = 1 if mod == "next" or m["after"] else -1 if mod in ("last", "past", "this past") else 0
    return _weekend(today, weeks), True, "weekend"


@_rule(_ON + r"(?:(?P<mod>this\s+coming|this\s+past|coming|this|next|last|past|previous)\s+)?" + _WD
       + r"(?P<week>\s+week(?![\w-]))?" + _PART)
def _en_weekday(m: re.Match, today: date, text: str) -> _Result | None:
    name, mod = m["wd"].lower(), _norm(m["mod"] or "")
    if name in _AMBIGUOUS_ABBR and not (m["wd"].istitle() and text[m.end("wd"):m.end("wd") + 1] == "."):
        return None
    if not mod and not m["on"] and _prev_word(text, m.start()) in _ROUTINE_WORDS:
        return None
    if not mod and _overlaps(_EN_RANGE, text, m):
        return None
    if not mod and not m["on"] and _names_a_thing(text, m):
        return None
    wd, style = _WD_INDEX[name], f"part:{m['part'].lower()}" if m["part"] else "day"
    if m["week"]:  # "saturday week": a week after the coming Saturday
        return (_next_weekday(today, wd) + timedelta(days=7), True, style) if not mod else None
    if mod == "next":
        return _week_day(today, 1, wd), True, style
    if mod in ("last", "past", "this past", "previous") or (not mod and _said_of_the_past(text, m.start())):
        return _prev_weekday(today, wd), True, style
    return _next_weekday(today, wd), True, style


def _names_a_thing(text: str, m: re.Match) -> bool:
    """ "the Sunday crossword", "my Friday drinks", "our Saturday morning run": a day before a noun, after a
    determiner, names a habit or a thing, not a date ("the Friday after next" still is one)."""
    if _prev_word(text, m.start()) not in _DETERMINERS:
        return False
    follower = _NEXT_WORD.match(text, m.end())
    return bool(follower) and follower.group(1).lower() not in _NTH_FOLLOWERS | {"after", "before"}  # type: ignore[union-attr]


@_rule(_ON + r"(?:" + _NUM.replace("(?P<n>", "(?P<n>an?|") + r")\s+" + _UNIT
       + r"\s+(?:from|after|(?P<con>on))\s+(?P<anchor>(?:the\s+)?day\s+after\s+tomorrow|tomm?orr?ow|tmrw|today"
       + rf"|(?:(?:this|next|coming)\s+)?(?:{_alt(_WEEKDAYS)}))\b")
def _en_n_from_day(m: re.Match, today: date, text: str) -> _Result | None:
    """ "a week from tomorrow", "6 weeks from saturday", "a week on Friday": a span counted from another day."""
    anchor = _scan(m["anchor"], today)
    if _prev_word(text, m.start()) == "for":  # "staying for 2 weeks from next tuesday": how long, from that day
        return None
    if not anchor or (m["con"] and anchor[0].mention.text.lower().startswith(("tom", "tmrw", "today", "the"))):
        return None
    n = 1 if _norm(m["n"]) in ("a", "an") else int(m["n"]) if m["n"].isdigit() else _NUMBERS[_norm(m["n"])]
    return _shift(anchor[0].mention.date, n, m["unit"].lower()), True, "day"


@_rule(_ON + r"(?:" + _NUM.replace("(?P<n>", "(?P<n>an?|") + r")\s+(?P<unit>week|fortnight)s?\s+(?P<anchor>today|tomm?orr?ow|tmrw)\b")
def _en_weeks_today(m: re.Match, today: date, text: str) -> _Result:
    """ "a week today", "two weeks tomorrow" (said in Britain): that many weeks from today or tomorrow; of what has been
    ("I've packed in the smoking, 3 weeks today"), that many weeks ago."""
    n = 1 if _norm(m["n"]) in ("a", "an") else int(m["n"]) if m["n"].isdigit() else _NUMBERS[_norm(m["n"])]
    start = today if m["anchor"].lower() == "today" else today + timedelta(days=1)
    if _said_of_the_past(text, m.start()) or _PERFECT_BEFORE.search(text[:m.start()]):
        return _shift(start, -n, m["unit"].lower()), True, "day"
    return _shift(start, n, m["unit"].lower()), True, "day"


_PERFECT_BEFORE = re.compile(r"\b(?:i've|ive|i have|we've|we have|it's been|its been|been)\b[^.!?]*$", re.IGNORECASE)


_EN_SPAN_DAY = {"end": -1, "late": 25, "start": 1, "beginning": 1, "early": 1, "middle": 15, "mid": 15}


@_rule(r"\b(?:(?:at|towards?|around)\s+)?(?:the\s+)?(?:(?P<part>end|start|beginning|middle)"
       r"\s+of\s+|(?P<adj>early|mid|late)[-\s]+)(?:(?P<which>this|next|the)\s+month|" + _MON + r")(?![\w-])")
def _en_part_of_month(m: re.Match, today: date, text: str) -> _Result | None:
    """ "at the end of the month" (its last day), "early next month" (the 1st), "mid-March" (the 15th), "late May"
    (the 25th): a part of a month, kept approximate unless it is a deadline ("by the end of the month")."""
    if m["mon"] and m["mon"].lower() in ("may", "march") and m["adj"] and m["mon"].islower():
        return None  # "i may", "late march" is fine written "late March"
    if m["which"]:
        first = _add_months(today.replace(day=1), int(m["which"].lower() == "next"))
    else:
        month = _MONTHS[m["mon"].rstrip(".").lower()]
        first = date(today.year + (month < today.month), month, 1)
    day = _EN_SPAN_DAY[(m["part"] or m["adj"]).lower()]
    d = first.replace(day=monthrange(first.year, first.month)[1] if day < 0 else day)
    deadline = _prev_word(text, m.start()) in ("by", "before", "until", "till")
    return d, True, "day" if deadline else "approx"


@_rule(_ON + r"the\s+" + _DAYSPEC + r"\s+(?:of\s+)?(?P<which>next|this|the\s+next|the\s+following"
       r"|the\s+coming|the)\s+month\b")
def _en_nth_of_month(m: re.Match, today: date, text: str) -> _Result:
    months = 0 if _norm(m["which"]) in ("this", "the") else 1
    return _day_in_month(today, months, _day_value(m)), True, "day"


@_rule(_ON + r"(?P<which>next|this)\s+month\s+on\s+the\s+" + _DAYSPEC)
def _en_month_on_nth(m: re.Match, today: date, text: str) -> _Result:
    return _day_in_month(today, int(m["which"].lower() == "next"), _day_value(m)), True, "day"


@_rule(_ON + r"the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\b")
def _en_bare_nth(m: re.Match, today: date, text: str) -> _Result | None:
    follower = _NEXT_WORD.match(text, m.end())
    if follower and follower.group(1).lower() not in _NTH_FOLLOWERS:
        return None
    return _day_in_month(today, 0, int(m["day"])), True, "day"


def _month_name_date(m: re.Match, today: date, text: str) -> _Result | None:
    """Shared by both month-name word orders; "may"/"march" in lower case need a date-like shape."""
    token = m["mon"].rstrip(".")
    if token.lower() in ("may", "march") and token.islower() and not m["sfx"]:
        shaped = m.groupdict().get("of") or _PUNCT_OR_END.match(text, m.end())
        if not shaped:
            return None
    month, day = _MONTHS[token.lower()], _day_value(m)
    if m["year"]:
        return date(int(m["year"]), month, day), False, "day"
    if _said_of_the_past(text, m.start()):
        return _last_occurrence(today, month, day), False, "day"
    return _next_occurrence(today, month, day), False, "day"


_rule(_ON + rf"(?:(?:{_alt(_WEEKDAYS)}),?\s+)?" + _MON + r"\s+(?:the\s+)?" + _DAYSPEC + _YEAR)(_month_name_date)


@_rule(_ON + r"(?P<the>the\s+)?" + _DAYSPEC + r"\s+(?P<of>of\s+)?" + _MON + _YEAR)
def _day_first(m: re.Match, today: date, text: str) -> _Result | None:
    """ "14 August", "the 14th of August"; a word ordinal needs "the" ("a second May ...")."""
    return None if m["dayw"] and not m["the"] else _month_name_date(m, today, text)


@_rule(_ON + r"(?<![\d./-])(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?![\d])")
def _numeric_ymd(m: re.Match, today: date, text: str) -> _Result:
    return date(int(m["y"]), int(m["m"]), int(m["d"])), False, "bare"


# ---------------------------------------------------------------- Chinese rules

_ZH_DAY_WORDS = {"大后天": (3, ""), "后天": (2, ""), "明天": (1, ""), "今天": (0, ""), "昨天": (-1, ""),
                 "前天": (-2, ""), "大前天": (-3, ""), "明早": (1, "早上"), "明晚": (1, "晚上"),
                 "今早": (0, "早上"), "今晚": (0, "晚上"), "昨晚": (-1, "晚上")}


def _zh_rel_ok(m: re.Match, text: str) -> bool:
    """A 上/下/这 prefix must not be the tail of another word (早上周…, 一下周末…)."""
    return m.start() == 0 or not m["rel"] or text[m.start() - 1] not in _ZH_NOT_BEFORE_REL


def _zh_bare_ok(m: re.Match, text: str) -> bool:
    """A bare 周X/周末 must not be a routine (每周三), a count (一周一次) or part of a range."""
    return m.start() == 0 or text[m.start() - 1] not in _ZH_NOT_BEFORE_BARE


@_rule(_alt(_ZH_DAY_WORDS))
def _zh_day_word(m: re.Match, today: date, text: str) -> _Result:
    offset, part = _ZH_DAY_WORDS[m.group(0)]
    return today + timedelta(days=offset), True, f"part:{part}" if part else "day"


@_rule(rf"(?:{_REL}个?)?{_WEEK}(?P<wd>[一二三四五六日天])")
def _zh_weekday(m: re.Match, today: date, text: str) -> _Result | None:
    wd = _ZH_WD[m["wd"]]
    if m["rel"]:
        return (_week_day(today, _ZH_REL[m["rel"]], wd), True, "day") if _zh_rel_ok(m, text) else None
    if not _zh_bare_ok(m, text) or text[m.end():m.end() + 1] in _ZH_RANGE_MARKS or _ZH_NAMED.search(text[:m.start()]):
        return None
    return _next_weekday(today, wd), True, "day"


_ZH_NAMED = re.compile(r"(?:叫|叫做|名叫|名字是|姓)$")  # 我叫周一鸣, 他姓周: a name, not a Monday


@_rule(rf"(?:{_REL}个?)?周末")
def _zh_weekend(m: re.Match, today: date, text: str) -> _Result | None:
    ok = _zh_rel_ok(m, text) if m["rel"] else _zh_bare_ok(m, text)
    return (_weekend(today, _ZH_REL[m["rel"] or "这"]), True, "weekend") if ok else None


@_rule(r"(?P<rel>上上|上)个?(?P<unit>月|周|星期|礼拜)")
def _zh_last_span(m: re.Match, today: date, text: str) -> _Result | None:
    n = _ZH_REL[m["rel"]]
    d = _add_months(today, n) if m["unit"] == "月" else today + timedelta(weeks=n)
    return (d, True, "approx") if _zh_rel_ok(m, text) else None


@_rule(rf"{_REL}个?月的?(?P<d>{_CNUM})[号日]")
def _zh_day_of_rel_month(m: re.Match, today: date, text: str) -> _Result | None:
    d = _day_in_month(today, _ZH_REL[m["rel"]], _cn_int(m["d"]) or 0)
    return (d, True, "day") if _zh_rel_ok(m, text) else None


@_rule(rf"(?<![\d{_CN}月年第个周期])(?:(?P<d>{_CNUM})号|(?P<dd>\d{{1,2}})日)(?![{_ZH_NOT_AFTER_HAO}])")
def _zh_bare_day(m: re.Match, today: date, text: str) -> _Result:
    return _day_in_month(today, 0, _cn_int(m["d"] or m["dd"]) or 0), True, "day"


@_rule(rf"(?<![\d{_CN}])(?:(?P<y>\d{{4}})年|(?P<yrel>今年|明年|去年))?(?P<m>{_CNUM})月份?"
       rf"(?:(?P<d>{_CNUM})[号日]|(?P<dd>\d{{1,2}})(?=[\s，,。！!~～、]|$))")
def _zh_month_day(m: re.Match, today: date, text: str) -> _Result:
    """ "12月19号", "2027年3月5日", and "12月19" with nothing after the day ("12月19 20两天")."""
    month, day = _cn_int(m["m"]) or 0, _cn_int(m["d"] or m["dd"]) or 0
    if not (m["y"] or m["yrel"]):
        return _next_occurrence(today, month, day), False, "bare"
    year = int(m["y"]) if m["y"] else today.year + {"今年": 0, "明年": 1, "去年": -1}[m["yrel"]]
    return date(year, month, day), bool(m["yrel"]), "bare"


_ZH_SPAN_DAY = {"底": -1, "末": -1, "初": 1, "上旬": 5, "中旬": 15, "中": 15, "下旬": 25}


@_rule(rf"(?:(?P<yrel>今年|明年|去年)|(?<!\d)(?P<y>\d{{4}})(?:年(?![底末初])|(?=年[底末初])))?(?:(?P<rel>下个?|这个?|本|上个?)|(?P<mn>{_CNUM})|(?P<whole>年))?"
       r"(?P<mon>月份?)?(?P<part>底|末|初|上旬|中旬|下旬|中)")
def _zh_part_of_month(m: re.Match, today: date, text: str) -> _Result | None:
    """月底 (the month's last day), 下个月初 (the 1st), 三月中旬 (the 15th), 下旬 (the 25th), 年底 (December 31):
    approximate days, written "<date>前后"."""
    part, before, after = m["part"], text[m.start() - 1:m.start()], text[m.end():m.end() + 1]
    if m["whole"] or (m["yrel"] and not (m["rel"] or m["mn"] or m["mon"])):  # 年底, 明年(年)底, 2027年底: the year's
        # last day; 年初 is the coming January 1st
        if part not in ("底", "末", "初") or m["mon"] or (before and before in "每过跨新拜" and not m["yrel"]):
            return None
        if part == "初" and after and after in _CN + "0123456789":
            return None  # 今年初三 (this year in the third grade of middle school), 大年初三 (a lunar day)
        year = int(m["y"]) if m["y"] else today.year + {"今年": 0, "明年": 1, "去年": -1}.get(m["yrel"] or "", 0)
        return (date(year, 12, 31), True, "approx") if part != "初" else (date(year + (not m["yrel"] and not m["y"]), 1, 1), True, "approx")
    if not m["mon"] and part not in ("上旬", "中旬", "下旬"):
        return None  # 底, 初, 中 alone are no dates
    if (m["rel"] and not _zh_rel_ok(m, text)) or (before and before in "每岁正腊冬闰" and not (m["rel"] or m["mn"])):
        return None  # 每月底 is a routine; 岁月中, 正月初一 are no month's part
    if (part == "初" and after and after in _CN + "0123456789") or (part == "中" and after and after in "午秋间心"):
        return None  # 正月初一 (a lunar day), 月中午, 八月中秋
    if m["mn"]:
        month = _cn_int(m["mn"]) or 0
        year = int(m["y"]) if m["y"] else today.year + {"明年": 1, "去年": -1}.get(m["yrel"] or "", 0)
        first = date(year + (not (m["y"] or m["yrel"]) and month < today.month), month, 1)
    else:
        first = _add_months(today.replace(day=1), {"下": 1, "上": -1}.get((m["rel"] or "这")[0], 0))
    day = _ZH_SPAN_DAY[part]
    return first.replace(day=monthrange(first.year, first.month)[1] if day < 0 else day), True, "approx"


@_rule(rf"(?<![\d{_CN}第])(?P<n>\d{{1,3}}|[{_CN}]{{1,3}}|半)(?P<unit>天|日|周|个星期|个礼拜|星期|礼拜|个月|年)"
       r"(?P<dir>以后|之后|过后|后|以前|之前|前)")
def _zh_in_n(m: re.Match, today: date, text: str) -> _Result | None:
    unit = {"天": "day", "日": "day", "个月": "month", "年": "year"}.get(m["unit"], "week")
    n: int | None
    if m["n"] == "半":  # 半个月 = 15 days, 半年 = 6 months; 半天/半周 are not dates
        if unit not in ("month", "year"):
            return None
        n, unit = (15, "day") if unit == "month" else (6, "month")
    elif (n := _cn_int(m["n"])) is None:
        return None
    sign = -1 if "前" in m["dir"] else 1
    return _shift(today, sign * n, unit), True, "day"


# ---------------------------------------------------------------- holidays (only when asked for: see find_dates)

_HOLIDAY_RULES: list[tuple[re.Pattern[str], _Resolver]] = []
_EN_HOLIDAY = _alt(holidays.names(chinese=False)).replace("'", "['’]?")  # valentine's, valentine’s, valentines
_ZH_HOLIDAY = _alt(holidays.names(chinese=True))


def _en_holiday(m: re.Match, today: date, text: str) -> _Result | None:
    follower = _NEXT_WORD.match(text, m.end())
    if follower and follower.group(1).lower() in holidays.NOT_THE_DAY_EN:
        return None  # "a christmas tree", "halloween costumes"
    h = holidays.holiday(m["h"])
    return (holidays.occurrence(h, today, (m["rel"] or "").lower() or None), True, "holiday") if h else None


def _zh_holiday(m: re.Match, today: date, text: str) -> _Result | None:
    after = text[m.end():m.end() + 1]
    if after and after in holidays.NOT_THE_DAY_ZH:
        return None  # 五一广场, 六一路
    if m.start() and m["h"][0] in _CN and text[m.start() - 1] in _CN + "0123456789第":
        return None  # 三十一, 第六一
    h = holidays.holiday(m["h"])
    if h is None:
        return None
    # 今年/明年/去年 name the calendar year (明年春节 is next year's even while this year's is still ahead)
    day = h.on(today.year + {"今年": 0, "明年": 1, "去年": -1}[m["yrel"]]) if m["yrel"] else holidays.occurrence(h, today)
    if m["n"]:  # 国庆第二天: a day counted from the holiday, written as the date alone
        return day + timedelta(days=(_cn_int(m["n"]) or 1) - 1), True, "day"
    if m["off"]:  # 国庆后第一天 (the day after the seven-day break), 圣诞节前一天
        return _from_holiday(day, h, m["dir"] not in ("前", "之前", "以前"), _cn_int(m["off"]) or 1), True, "day"
    return day, True, "holiday"


def _from_holiday(day: date, h: holidays.Holiday, after: bool, n: int) -> date:
    """n days after a holiday's break ends, or n days before it begins."""
    return day + timedelta(days=h.days - 1 + n) if after else day - timedelta(days=n)


def _en_around_holiday(m: re.Match, today: date, text: str) -> _Result | None:
    """ "the day after Thanksgiving", "two days before Christmas"."""
    h = holidays.holiday(m["h"])
    if h is None:
        return None
    n = 1 if not m["n"] else int(m["n"]) if m["n"].isdigit() else _NUMBERS[_norm(m["n"])]
    day = holidays.occurrence(h, today, (m["rel"] or "").lower() or None)
    return _from_holiday(day, h, m["dir"].lower() == "after", n), True, "day"


_HOLIDAY_RULES.append((re.compile(_ON + rf"(?:(?P<rel>last|next|this)\s+)?(?P<h>{_EN_HOLIDAY})\b", re.IGNORECASE),
                       _en_holiday))
_HOLIDAY_RULES.append((re.compile(rf"(?P<yrel>今年|明年|去年)?(?P<h>{_ZH_HOLIDAY})(?:节)?(?:第(?P<n>[一二三四五六七1-7])天"
                                  rf"|(?P<dir>之后|以后|过后|后|之前|以前|前)第?(?P<off>[一两二三四五六七八九十1-9])天)?"),
                       _zh_holiday))
_HOLIDAY_RULES.append((re.compile(_ON + r"(?:the\s+)?(?:" + _NUM + r"\s+days|day)\s+(?P<dir>after|before)\s+"
                                  rf"(?:(?P<rel>last|next|this)\s+)?(?P<h>{_EN_HOLIDAY})\b", re.IGNORECASE),
                       _en_around_holiday))


def _weekday_around_holiday(day: date, h: holidays.Holiday, after: bool, weekday: int) -> date:
    """The first such weekday after a holiday's break ends, or the last one before it begins."""
    if after:
        end = day + timedelta(days=h.days - 1)
        return end + timedelta(days=(weekday - end.weekday() - 1) % 7 + 1)
    return day - timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


def _zh_weekday_around_holiday(m: re.Match, today: date, text: str) -> _Result | None:
    """元旦后第一个周一 (the Monday after the break), 春节前最后一个周五."""
    h = holidays.holiday(m["h"])
    if h is None:
        return None
    return _weekday_around_holiday(holidays.occurrence(h, today), h, m["dir"] not in ("前", "之前", "以前"),
                                   _ZH_WD[m["wd"]]), True, "day"


def _en_weekday_around_holiday(m: re.Match, today: date, text: str) -> _Result | None:
    """ "the first Monday after New Year", "the Friday before Christmas"."""
    h = holidays.holiday(m["h"])
    if h is None:
        return None
    day = holidays.occurrence(h, today, (m["rel"] or "").lower() or None)
    return _weekday_around_holiday(day, h, m["dir"].lower() == "after", _WD_INDEX[m["wd"].lower()]), True, "day"


_HOLIDAY_RULES.append((re.compile(rf"(?P<h>{_ZH_HOLIDAY})(?:节)?(?P<dir>之后|以后|过后|后|之前|以前|前)的?(?:第一|最后一)个"
                                  rf"{_WEEK}(?P<wd>[一二三四五六日天])"), _zh_weekday_around_holiday))
_HOLIDAY_RULES.append((re.compile(_ON + rf"the\s+(?:(?:first|last)\s+)?(?P<wd>{_alt(_WEEKDAYS)})\s+(?P<dir>after|before)\s+"
                                  rf"(?:(?P<rel>last|next|this)\s+)?(?P<h>{_EN_HOLIDAY})\b", re.IGNORECASE),
                       _en_weekday_around_holiday))


# ---------------------------------------------------------------- public API

def _scan(text: str, today: date, with_holidays: bool = False) -> list[_Hit]:
    """Every rule's matches, resolved; overlaps settled longest-first, then earliest-first."""
    candidates: list[_Hit] = []
    for pattern, resolve in _RULES + (_HOLIDAY_RULES if with_holidays else []):
        m = pattern.search(text)
        while m:
            try:
                result = resolve(m, today, text)
            except (ValueError, OverflowError):  # impossible dates, dates beyond year 9999
                result = None
            if result:
                d, relative, style = result
                candidates.append(_Hit(DateMention(m.start(), m.end(), m.group(0), d, relative), style))
            # A rejected match may hide a shorter one inside it ("一下周末" -> "周末"): retry one char on.
            m = pattern.search(text, m.end() if result else m.start() + 1)
    candidates = _across_words(text, candidates)
    candidates = _with_weekdays_agreeing(text, today, candidates)
    candidates.sort(key=lambda h: (h.mention.start - h.mention.end, h.mention.start))
    chosen: list[_Hit] = []
    taken = bytearray(len(text))
    for hit in candidates:
        start, end = hit.mention.start, hit.mention.end
        if not any(taken[start:end]):
            taken[start:end] = b"\x01" * (end - start)
            chosen.append(hit)
    return sorted(chosen, key=lambda h: h.mention.start)


_BARE_WEEKDAY = re.compile(rf"^(?:on\s+)?(?:(?:this|next|coming)\s+)?(?P<wd>{_alt(_WD_INDEX)})\.?(?:\s+week)?$|^(?:这|下)?(?:个)?{_WEEK}(?P<zwd>[一二三四五六日天])$",
                           re.IGNORECASE)
# a day of the month said beside a weekday: "the 1st", "31st", "27号", and a month.day ("6.20", "6/20")
_DAY_BESIDE = re.compile(r"(?<![\w.:/])(?:(?:the\s+)?(?P<d>[12]?\d|3[01])(?:st|nd|rd|th)\b|(?P<zd>[12]?\d|3[01])[号日]"
                         r"|(?P<m>1[0-2]|0?[1-9])[./](?P<md>3[01]|[12]\d|0?[1-9])(?![\d.:/%])"
                         r"(?!\s*(?:[斤块元米个次倍万分秒度克%]|公斤|公里|千克|小时|kg|km|g\b|k\b|lbs?\b|miles?\b|hours?\b|hrs?\b)))",
                         re.IGNORECASE)
_BETWEEN = re.compile(r"^[\s,，、]*(?:week\b[\s,]*)?(?:(?:a|the|on)\s+)?$", re.IGNORECASE)  # "saturday week, the 13th"


def _with_weekdays_agreeing(text: str, today: date, hits: list[_Hit]) -> list[_Hit]:
    """A weekday said beside a day of the month names one day, the one where they agree ("saturday the 1st" in June
    is August 1; "27号 周六", "the 29th, a monday", "6.20 周六"): one mention, not a weekday and a day a week apart.
    A month.day ("6.20", "6/20") is read as a date only where a weekday beside it agrees: alone it may be a number."""
    out = list(hits)
    for wd_hit in [h for h in hits if _BARE_WEEKDAY.match(h.mention.text.strip())]:
        wd = wd_hit.mention
        z = _BARE_WEEKDAY.match(wd.text.strip())
        if z is None:
            continue
        weekday = _ZH_WD[z["zwd"]] if z["zwd"] else _WD_INDEX[_norm(z["wd"]).rstrip(".")]
        for m in _DAY_BESIDE.finditer(text):
            a_end, b_start = (m.end(), wd.start) if m.start() < wd.start else (wd.end, m.start())
            if b_start < a_end or not _BETWEEN.match(text[a_end:b_start]):
                continue
            month = int(m["m"]) if m["m"] else None
            found = _agreeing(today, month, int(m["d"] or m["zd"] or m["md"]), weekday)
            if found is None:
                continue
            start, end = min(m.start(), wd.start), max(m.end(), wd.end)
            out = [h for h in out if h.mention.end <= start or h.mention.start >= end]
            out.append(_Hit(DateMention(start, end, text[start:end], found, month is None), "day"))
            break
    return out


def _agreeing(today: date, month: int | None, day: int, weekday: int) -> date | None:
    """The first day on or after today with this day of the month (and month, if given) that falls on this weekday,
    within a year."""
    for k in range(13):
        first = _add_months(today.replace(day=1), k)
        if month is not None and first.month != month:
            continue
        try:
            d = first.replace(day=day)
        except ValueError:
            continue
        if d >= today and d.weekday() == weekday:
            return d
    return None


def _across_words(text: str, hits: list[_Hit]) -> list[_Hit]:
    """Chinese date words that are not the ends of two other words: jieba cuts "以后天天加班" as 以后/天天 and "今年三十五"
    as 今年/三十五, so their 后天 (the day after tomorrow) and 年三十 (New Year's Eve) begin inside one word and end inside
    the next. A date word inside a single longer word ("从今天起") or flush with either edge ("我下|周六") stands."""
    if not any(has_cjk(h.mention.text[:1]) for h in hits):
        return hits
    word_at: dict[int, int] = {}  # char offset strictly inside a word -> the word's index
    at = 0
    for i, word in enumerate(rjieba.cut(text)):
        word_at.update((k, i) for k in range(at + 1, at + len(word)))
        at += len(word)

    def across(m: DateMention) -> bool:
        first, last = word_at.get(m.start), word_at.get(m.end)
        return first is not None and last is not None and first != last

    return [h for h in hits if not (has_cjk(h.mention.text[:1]) and across(h.mention))]


def find_dates(text: str, today: date, with_holidays: bool = False) -> list[DateMention]:
    """All date mentions in text, in order, non-overlapping (longest match wins). `with_holidays`: holidays too
    ("Christmas", "国庆第二天"), where a date is being looked for (an event's); elsewhere "don't do christmas" and
    "爱吃元宵" are no dates."""
    return [hit.mention for hit in _scan(text, today, with_holidays)]


def _wants_on(text: str, start: int, end: int) -> bool:
    """Whether an English date replacing text[start:end] reads better as "on <date>"."""
    if _prev_word(text, start) in _EN_PREPS or _POSSESSIVE.match(text, end):
        return False
    return not (_after_boundary(text, start, ".!?;:,(\"“—-") and _COPULA.match(text, end))


def _render(text: str, hit: _Hit) -> str:
    """The replacement for one mention: the ISO date, worded to fit the sentence."""
    m, (kind, _, extra) = hit.mention, hit.style.partition(":")
    iso = m.date.isoformat()
    if re.search(r"[\u4e00-\u9fff]", m.text):
        return iso + {"approx": "前后", "weekend": "周末", "part": extra}.get(kind, "")
    phrase = {"approx": f"around {iso}", "weekend": f"the weekend of {iso}",
              "part": f"the {extra} of {iso}"}.get(kind, iso)
    if re.match(r"on\s", m.text, re.IGNORECASE) or (
            kind not in ("approx", "bare") and _wants_on(text, m.start, m.end)):
        phrase = "on " + phrase
    if m.text[0].isupper() and _after_boundary(text, m.start, ".!?"):
        phrase = phrase[0].upper() + phrase[1:]
    return phrase


def absolutize(text: str, today: date, with_holidays: bool = False) -> tuple[str, date | None]:
    """Return text with every relative date phrase replaced by its ISO date (YYYY-MM-DD), and the first date found (or None).

    Absolute dates written another way ("August 14", "12月19号") are normalised to ISO too; `with_holidays`, a holiday
    keeps its name with the date after it.
    """
    hits = _scan(text, today, with_holidays)
    pieces, pos, after = [], 0, []
    for hit in hits:
        if hit.style == "holiday":  # the name stays and the date follows the note: "Halloween party (2026-10-31)"
            after.append(hit.mention)
            continue
        pieces += [text[pos:hit.mention.start], _render(text, hit)]
        pos = hit.mention.end
    out = _unglued("".join(pieces) + text[pos:])
    for m in after:
        out = out.rstrip(" ,.;!") + (f"（{m.date.isoformat()}）" if re.search(r"[\u4e00-\u9fff]", m.text)
                                    else f" ({m.date.isoformat()})")
    said = [hit for hit in hits if not _CORRECTED.search(text[max(0, hit.mention.start - 12):hit.mention.start])]
    return out, (said or hits)[0].mention.date if hits else None


# "不是十号 改成二十四号了", "not the 10th, the 24th": a day said only to be taken back is not the day the note is about.
_CORRECTED = re.compile(r"(?:不是|并非|\bnot\s+(?:on\s+)?(?:the\s+)?)\s*$", re.IGNORECASE)


def _unglued(text: str) -> str:
    """A date written into Chinese words stands apart from a Latin word beside it ("2027-04-16 presentation")."""
    return re.sub(r"(?<=[A-Za-z])(?=\d{4}-\d\d-\d\d)|(?<=\d{4}-\d\d-\d\d)(?=[A-Za-z])", " ", text)


# A weekday, weekend or part of one named on its own ("Sunday", "the weekend", "周末", "周五晚上"): in a note that is no
# event it is the habit it names ("the Sunday crossword", "唯一的快乐就是周末去爬梧桐山"), never one date.
_HABIT_DAY = re.compile(rf"^(?:on\s+|the\s+)?(?:{_alt(_WD_INDEX)}|weekends?)(?:\s+(?:morning|afternoon|evening|night)s?)?$"
                        rf"|^(?:{_WEEK}[一二三四五六日天]|周末)(?:早上|上午|中午|下午|晚上)?$", re.IGNORECASE)
_LEAD_PREP = re.compile(r"(?:\b(?:on|since|from|as of|starting|until|till|by|at|in|of)\s+)?$", re.IGNORECASE)


def undated(text: str, today: date) -> tuple[str, date | None]:
    """The words of a note that is no event, with the day it speaks of (or None).

    A past day said in relative words ("yesterday", "last week", "上周", "今天") leaves the words and is returned:
    it is when the state began, and written into the words it reads as a date glued into a sentence
    ("2027-04-16presentation终于结束了"). A weekday or weekend named alone stays as the habit it names. A future
    day is written as `absolutize` writes it (a plan's day is part of what it says), and a coming week, month or
    year as the period it is (`with_periods`); a day the user wrote out ("born on August 14") stays in their words."""
    hits = _scan(text, today)
    began = next((h.mention.date for h in hits if h.mention.relative and h.mention.date <= today
                  and not _HABIT_DAY.match(h.mention.text.strip())), None)
    pieces, pos = [], 0
    for hit in hits:
        m = hit.mention
        if _HABIT_DAY.match(m.text.strip()) or not m.relative:  # a habit, or a day the user wrote out
            continue
        if m.date <= today:
            before = text[pos:m.start]
            pieces.append(before[:_LEAD_PREP.search(before).start()])  # type: ignore[union-attr]
        else:
            pieces += [text[pos:m.start], _render(text, hit)]
        pos = m.end
    out = with_periods("".join(pieces) + text[pos:], today)
    out = re.sub(r"\s+([,.;:!?，。；：！？])", r"\1", re.sub(r"[ \t]{2,}", " ", out)).strip(" ,;:，；")
    if text[:1].isupper():
        out = out[:1].upper() + out[1:]
    return (out, began) if re.search(r"\w", out) else (text, None)


# A coming week, month or year named without a day ("next week", "下个月", "明年"): no date, but a period the note must not
# leave relative, or "moving next month" still says next month a year on. Not "the next month or so" (a span from now).
_EN_PERIOD = re.compile(r"(?<!\bthe\s)(?P<prep>\b(?:in|by|until|till|from|before|after|during|for|starting)\s+)?"
                        r"\bnext\s+(?P<unit>week|month|year)\b(?!'s|\s+or\b)", re.IGNORECASE)
_ZH_PERIOD = re.compile(rf"(?<![一上])(?P<n>下下|下)个?(?P<unit>{_WEEK}|月)(?![一二三四五六日天末初底中旬\d]|份?[一二三四五六七八九十\d]+[号日])"
                        r"|(?P<year>明年)(?:(?P<month>[一二三四五六七八九十\d]{1,2})月(?![\d一二三四五六七八九十]|[初底中])|(?![初底中]))")


def with_periods(text: str, today: date) -> str:
    """Each coming week, month or year named without a day written as the period it is: "the week of 2026-12-14",
    "in January 2027", "in 2027"; "2026-12-14那周", "2027年1月", "2027年". A week starts on Monday."""
    def en(m: re.Match[str]) -> str:
        unit, prep = m["unit"].lower(), m["prep"] or ""
        if unit == "week":
            return f"{prep}the week of {(today + timedelta(days=7 - today.weekday())).isoformat()}"
        when = _add_months(today.replace(day=1), 1)
        said = f"{_MONTH_NAMES[when.month - 1].capitalize()} {when.year}" if unit == "month" else str(today.year + 1)
        return f"{prep or 'in '}{said}"

    def zh(m: re.Match[str]) -> str:
        if m["year"]:
            month = _cn_int(m["month"]) if m["month"] else None
            if m["month"] and not (month and 1 <= month <= 12):
                return m.group(0)  # no month of a year ("明年十三月"): left as said
            return f"{today.year + 1}年" + (f"{month}月" if month else "")
        ahead = len(m["n"])
        if m["unit"] == "月":
            when = _add_months(today.replace(day=1), ahead)
            return f"{when.year}年{when.month}月"
        return f"{(today + timedelta(days=7 * ahead - today.weekday())).isoformat()}那周"

    return _ZH_PERIOD.sub(zh, _EN_PERIOD.sub(en, text))
