"""Holidays people date things by ("Christmas at my mum's", "国庆第二天去西安", "过年回老家"), and their dates in a year.

Fixed-day holidays are month and day; the ones that move are computed: the Chinese lunar festivals from the lunar
calendar (`lunardate`, whose tables run 1900-2099), 清明 from its solar-term formula, Easter by the Gregorian computus,
and the "Nth weekday of a month" days of the US and UK calendars. Names are lists of how people write them, longest
first, so that "christmas eve" is not read as "christmas". A name that is also an ordinary word needs the holiday's
shape around it: 十一 is eleven unless a holiday follows (十一假期, 十一长假), 五一 is not 五一广场.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Callable

from lunardate import LunarDate  # type: ignore[import-untyped]


def _lunar(month: int, day: int) -> Callable[[int], date]:
    return lambda year: LunarDate(year, month, day).to_solar_date()


def _fixed(month: int, day: int) -> Callable[[int], date]:
    return lambda year: date(year, month, day)


def _nth_weekday(month: int, weekday: int, n: int) -> Callable[[int], date]:
    """The nth (1-based; -1: the last) given weekday (0 = Monday) of a month."""
    def on(year: int) -> date:
        if n > 0:
            first = date(year, month, 1)
            return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    return on


def _easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (b - (b + 8) // 25 + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _qingming(year: int) -> date:
    """清明, the solar term: April 4 or 5 (the usual formula with its 21st-century constant; April 5 outside it)."""
    if not 2000 <= year <= 2099:
        return date(year, 4, 5)
    y = year % 100
    return date(year, 4, int(y * 0.2422 + 4.81) - y // 4)


def _new_years_eve_lunar(year: int) -> date:
    """除夕: the day before the lunar new year (the 29th or the 30th of the 12th month)."""
    return LunarDate(year, 1, 1).to_solar_date() - timedelta(days=1)


@dataclass(frozen=True)
class Holiday:
    """One holiday: how people write it and its date in a given year."""

    key: str
    names: tuple[str, ...]
    on: Callable[[int], date]
    chinese: bool
    days: int = 1  # how many days the break lasts: "国庆后第一天" is the day after the seventh (the golden weeks)


HOLIDAYS = (
    # Chinese
    Holiday("spring_festival", ("春节", "过年", "大年初一", "农历新年", "过春节"), _lunar(1, 1), True, 7),
    Holiday("lunar_new_years_eve", ("除夕", "大年三十", "年三十"), _new_years_eve_lunar, True),
    Holiday("lantern_festival", ("元宵节", "元宵"), _lunar(1, 15), True),
    Holiday("dragon_boat", ("端午节", "端午"), _lunar(5, 5), True),
    Holiday("qixi", ("七夕节", "七夕情人节", "七夕"), _lunar(7, 7), True),
    Holiday("mid_autumn", ("中秋节", "中秋"), _lunar(8, 15), True),
    Holiday("double_ninth", ("重阳节",), _lunar(9, 9), True),
    Holiday("qingming", ("清明节",), _qingming, True),
    Holiday("national_day", ("国庆节", "国庆", "十一假期", "十一长假", "十一黄金周"), _fixed(10, 1), True, 7),
    Holiday("labour_day_cn", ("劳动节", "五一"), _fixed(5, 1), True, 5),
    Holiday("new_years_day_cn", ("元旦",), _fixed(1, 1), True),
    Holiday("new_years_eve_cn", ("跨年夜", "跨年"), _fixed(12, 31), True),
    Holiday("valentines_cn", ("情人节",), _fixed(2, 14), True),
    Holiday("womens_day", ("妇女节", "三八节"), _fixed(3, 8), True),
    Holiday("childrens_day", ("儿童节", "六一"), _fixed(6, 1), True),
    Holiday("singles_day", ("双十一", "双11"), _fixed(11, 11), True),
    Holiday("christmas_eve_cn", ("平安夜",), _fixed(12, 24), True),
    Holiday("christmas_cn", ("圣诞节", "圣诞"), _fixed(12, 25), True),
    Holiday("halloween_cn", ("万圣节",), _fixed(10, 31), True),
    Holiday("mothers_day_cn", ("母亲节",), _nth_weekday(5, 6, 2), True),
    Holiday("fathers_day_cn", ("父亲节",), _nth_weekday(6, 6, 3), True),
    Holiday("thanksgiving_cn", ("感恩节",), _nth_weekday(11, 3, 4), True),
    Holiday("easter_cn", ("复活节",), _easter, True),
    # English
    Holiday("christmas_eve", ("christmas eve", "xmas eve"), _fixed(12, 24), False),
    Holiday("christmas", ("christmas day", "christmas", "xmas"), _fixed(12, 25), False),
    Holiday("boxing_day", ("boxing day",), _fixed(12, 26), False),
    Holiday("new_years_eve", ("new year's eve", "new years eve"), _fixed(12, 31), False),
    Holiday("new_years_day", ("new year's day", "new years day"), _fixed(1, 1), False),
    Holiday("lunar_new_year", ("chinese new year", "lunar new year"), _lunar(1, 1), False),
    Holiday("mid_autumn_en", ("mid-autumn festival", "mid autumn festival", "moon festival"), _lunar(8, 15), False),
    Holiday("valentines", ("valentine's day", "valentines day", "valentine's"), _fixed(2, 14), False),
    Holiday("st_patricks", ("st patrick's day", "st paddy's day", "paddy's day"), _fixed(3, 17), False),
    Holiday("halloween", ("halloween",), _fixed(10, 31), False),
    Holiday("guy_fawkes", ("bonfire night", "guy fawkes night"), _fixed(11, 5), False),
    Holiday("independence_day", ("fourth of july", "4th of july", "july 4th"), _fixed(7, 4), False),
    Holiday("thanksgiving", ("thanksgiving",), _nth_weekday(11, 3, 4), False),
    Holiday("easter", ("easter sunday", "easter"), _easter, False),
    Holiday("mothers_day", ("mother's day", "mothers day"), _nth_weekday(5, 6, 2), False),
    Holiday("fathers_day", ("father's day", "fathers day"), _nth_weekday(6, 6, 3), False),
    Holiday("memorial_day", ("memorial day",), _nth_weekday(5, 0, -1), False),
    Holiday("labor_day_us", ("labor day",), _nth_weekday(9, 0, 1), False),
)


def _key(name: str) -> str:
    return re.sub(r"[\s-]+", " ", name.lower().replace("'", "").replace("\u2019", "")).strip()


_BY_NAME = {_key(name): h for h in HOLIDAYS for name in h.names}

# English names that are a thing, not the day, when one of these follows ("christmas tree", "halloween costume").
NOT_THE_DAY_EN = ("tree", "trees", "music", "song", "songs", "movie", "movies", "film", "films", "jumper", "jumpers",
                  "sweater", "sweaters", "lights", "decorations", "card", "cards", "market", "markets", "shopping",
                  "present", "presents", "gift", "gifts", "cookies", "special", "album", "spirit", "cheer", "vibes",
                  "costume", "costumes", "candy", "egg", "eggs", "person", "playlist", "ad", "ads", "episode")
# Chinese names that are also ordinary words when these follow: 五一广场, 六一路, 跨年演唱会 is still the day.
NOT_THE_DAY_ZH = "广场路街大道村小区中学小学"


def holiday(name: str) -> Holiday | None:
    """The holiday a written name stands for (any case, straight or curly apostrophe or none, spaces or hyphens)."""
    return _BY_NAME.get(_key(name))


def names(chinese: bool) -> list[str]:
    """Every written name of the Chinese or the English holidays."""
    return [n for h in HOLIDAYS if h.chinese == chinese for n in h.names]


def occurrence(h: Holiday, today: date, rel: str | None = None) -> date:
    """The holiday's date: the next one on or after today; `rel` "this" (this calendar year's), "last" (the latest
    before today) or "next" (the first after today)."""
    this = h.on(today.year)
    if rel == "this":
        return this
    if rel == "last":
        return this if this < today else h.on(today.year - 1)
    if rel == "next":
        return this if this > today else h.on(today.year + 1)
    return this if this >= today else h.on(today.year + 1)
