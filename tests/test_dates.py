"""Tests for memory.dates: relative English/Chinese date phrases resolved against a given today.

Reference calendar (2026-03): Sat 07, Sun 08, Mon 09, Wed 11, Fri 13, Sat 14, Mon 16, Fri 20, Sat 21.
"""
from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from memory.dates import DateMention, absolutize, find_dates, undated

SAT = "2026-03-07"   # a Saturday (dev-en-date-02)
SUN = "2026-03-08"
WED = "2026-03-11"


def _found(text: str, today: str) -> list[tuple[str, str]]:
    return [(m.text, m.date.isoformat()) for m in find_dates(text, date.fromisoformat(today))]


def _single(text: str, today: str) -> str:
    found = _found(text, today)
    assert len(found) == 1, found
    return found[0][1]


# (text, today, expected ISO date of the single mention)
DEV_CASES = [
    # dev-en-date-01..04
    ("finally booked my flight to Manila to see my lola!! I leave on the 2nd of next month", "2026-12-18", "2027-01-02"),
    ("I GOT AN INTERVIEW AT SPOTIFY. it's next Friday and I'm already spiraling", "2026-03-07", "2026-03-13"),
    ("my thesis defense is tomorrow morning and I can't stop rereading my slides", "2026-06-30", "2026-07-01"),
    ("my daughter Ava's piano recital is in two weeks and she's been playing the same Chopin piece", "2027-02-15", "2027-03-01"),
    # dev-zh-date-01..04
    ("下周三要去医院复查甲状腺，希望别查出什么问题", "2026-09-14", "2026-09-23"),
    ("后天是我妈五十岁生日，礼物到现在还没想好", "2027-01-30", "2027-02-01"),
    ("教资面试定在下个月5号，我现在一想到试讲就紧张", "2026-11-20", "2026-12-05"),
    ("明天就跟男朋友出发去哈尔滨看冰雪大世界啦，羽绒服都准备好了", "2026-12-31", "2027-01-01"),
    # dates inside dev-en-multi-02 and dev-zh-multi-03
    ("Theo and I booked Lisbon for our anniversary, we fly out August 14!! I've been doing Portuguese", "2026-07-02", "2026-08-14"),
    ("最近在准备考研，目标浙大，12月19号初试。压力大到每天晚上都失眠", "2026-09-15", "2026-12-19"),
    # dev-en-multi-03: vague past span, approximate
    ("my grandpa passed away last week and I've been kind of a mess", "2026-10-27", "2026-10-20"),
]

EN_CASES = [
    # day words
    ("today", SAT, "2026-03-07"),
    ("tonight", SAT, "2026-03-07"),
    ("this morning", SAT, "2026-03-07"),
    ("this afternoon", SAT, "2026-03-07"),
    ("this evening", SAT, "2026-03-07"),
    ("tomorrow", SAT, "2026-03-08"),
    ("tomorrow night", SAT, "2026-03-08"),
    ("Tomorrow afternoon", SAT, "2026-03-08"),
    ("tmrw", SAT, "2026-03-08"),
    ("the day after tomorrow", SAT, "2026-03-09"),
    ("day after tomorrow", SAT, "2026-03-09"),
    ("yesterday", SAT, "2026-03-06"),
    ("last night", SAT, "2026-03-06"),
    ("the day before yesterday", SAT, "2026-03-05"),
    # durations
    ("in 3 days", SAT, "2026-03-10"),
    ("in three days", SAT, "2026-03-10"),
    ("in a day", SAT, "2026-03-08"),
    ("in a couple of days", SAT, "2026-03-09"),
    ("in a couple weeks", SAT, "2026-03-21"),
    ("in two weeks", SAT, "2026-03-21"),
    ("in two weeks' time", SAT, "2026-03-21"),
    ("in a week", SAT, "2026-03-14"),
    ("in a fortnight", SAT, "2026-03-21"),
    ("in twelve days", SAT, "2026-03-19"),
    ("in 10 days", SAT, "2026-03-17"),
    ("in a month", SAT, "2026-04-07"),
    ("in six months", SAT, "2026-09-07"),
    ("in a year", SAT, "2027-03-07"),
    ("5 days from now", SAT, "2026-03-12"),
    ("two weeks from today", SAT, "2026-03-21"),
    ("a week ago", SAT, "2026-02-28"),
    ("3 days ago", SAT, "2026-03-04"),
    ("a year ago today", SAT, "2025-03-07"),
    # weekdays, today Wednesday 2026-03-11
    ("Friday", WED, "2026-03-13"),
    ("on Friday", WED, "2026-03-13"),
    ("this Friday", WED, "2026-03-13"),
    ("this coming Friday", WED, "2026-03-13"),
    ("coming Friday", WED, "2026-03-13"),
    ("Wednesday", WED, "2026-03-18"),           # first such weekday AFTER today
    ("this Wednesday", WED, "2026-03-18"),
    ("Monday", WED, "2026-03-16"),
    ("next Friday", WED, "2026-03-20"),         # Friday of next Monday-start week
    ("next Monday", WED, "2026-03-16"),
    ("next Wednesday", WED, "2026-03-18"),
    ("last Friday", WED, "2026-03-06"),
    ("last Tuesday", WED, "2026-03-10"),
    ("last Wednesday", WED, "2026-03-04"),
    ("this past Sunday", WED, "2026-03-08"),
    ("Monday's meeting", WED, "2026-03-16"),
    ("Monday morning", WED, "2026-03-16"),
    ("next Friday night", WED, "2026-03-20"),
    ("FRIDAY", WED, "2026-03-13"),
    # weekdays, today Saturday / Sunday
    ("next Friday", SAT, "2026-03-13"),
    ("Friday", SAT, "2026-03-13"),
    ("Saturday", SAT, "2026-03-14"),
    ("next Monday", SUN, "2026-03-09"),
    ("next Sunday", SUN, "2026-03-15"),
    # abbreviations
    ("Fri", SAT, "2026-03-13"),
    ("thurs", SAT, "2026-03-12"),
    ("Tue", SAT, "2026-03-10"),
    ("see you Sat.", SAT, "2026-03-14"),
    ("see you Wed. then", SAT, "2026-03-11"),
    # weekends
    ("this weekend", WED, "2026-03-14"),
    ("the weekend", WED, "2026-03-14"),
    ("over the weekend", WED, "2026-03-14"),
    ("next weekend", WED, "2026-03-21"),
    ("the hen do is the weekend after next", WED, "2026-03-21"),   # not the coming weekend: the one after it
    ("last weekend", WED, "2026-03-07"),
    ("this weekend", SAT, "2026-03-07"),
    ("this weekend", SUN, "2026-03-08"),
    ("next weekend", SUN, "2026-03-14"),
    # day N of a month
    ("the 2nd of next month", "2026-12-18", "2027-01-02"),
    ("the 5th of next month", WED, "2026-04-05"),
    ("the first of next month", WED, "2026-04-01"),
    ("the twenty-first of next month", WED, "2026-04-21"),
    ("the 20th of this month", WED, "2026-03-20"),
    ("next month on the 5th", WED, "2026-04-05"),
    ("the 5th next month", WED, "2026-04-05"),
    ("on the 5th", WED, "2026-03-05"),          # the Nth alone: current month even if past
    ("it's due the 25th.", WED, "2026-03-25"),
    ("on the 20th at 3pm", WED, "2026-03-20"),
    # month names
    ("August 14", "2026-07-02", "2026-08-14"),
    ("Aug 14th", "2026-07-02", "2026-08-14"),
    ("aug. 14", "2026-07-02", "2026-08-14"),
    ("14 August", "2026-07-02", "2026-08-14"),
    ("14th of August", "2026-07-02", "2026-08-14"),
    ("the 14th of August", "2026-07-02", "2026-08-14"),
    ("August fourteenth", "2026-07-02", "2026-08-14"),
    ("on Dec 5", "2026-07-02", "2026-12-05"),
    ("Dec 5", "2026-12-06", "2027-12-05"),      # passed this year -> next year
    ("August 14", "2026-08-14", "2026-08-14"),  # on or after today
    ("August 14, 2027", "2026-07-02", "2027-08-14"),
    ("14 August 2028", "2026-07-02", "2028-08-14"),
    ("Friday, March 13", SAT, "2026-03-13"),
    ("May 5", SAT, "2026-05-05"),
    ("may 5th", SAT, "2026-05-05"),
    ("on may 5.", SAT, "2026-05-05"),
    ("the 5th of may", SAT, "2026-05-05"),
    ("March 20", WED, "2026-03-20"),
    ("Feb 29", "2026-03-01", "2028-02-29"),     # waits for a leap year
    ("Sept 3", SAT, "2026-09-03"),
    # ISO
    ("2026-12-19", SAT, "2026-12-19"),
    ("on 2026/12/19", SAT, "2026-12-19"),
]

ZH_CASES = [
    ("今天", SAT, "2026-03-07"),
    ("今晚", SAT, "2026-03-07"),
    ("今早", SAT, "2026-03-07"),
    ("明天", SAT, "2026-03-08"),
    ("明早", SAT, "2026-03-08"),
    ("明晚", SAT, "2026-03-08"),
    ("后天", SAT, "2026-03-09"),
    ("大后天", SAT, "2026-03-10"),
    ("昨天", SAT, "2026-03-06"),
    ("昨晚", SAT, "2026-03-06"),
    ("前天", SAT, "2026-03-05"),
    ("大前天", SAT, "2026-03-04"),
    # weeks, today Wednesday 2026-03-11
    ("下周三", WED, "2026-03-18"),
    ("下周一", WED, "2026-03-16"),
    ("下星期五", WED, "2026-03-20"),
    ("下礼拜天", WED, "2026-03-22"),
    ("下个星期二", WED, "2026-03-17"),
    ("下周日", WED, "2026-03-22"),
    ("这周一", WED, "2026-03-09"),              # current Monday-start week, even if past
    ("本周五", WED, "2026-03-13"),
    ("这个星期六", WED, "2026-03-14"),
    ("周五", WED, "2026-03-13"),                # bare: first such weekday after today
    ("周三", WED, "2026-03-18"),
    ("星期天", WED, "2026-03-15"),
    ("礼拜一", WED, "2026-03-16"),
    ("上周五", WED, "2026-03-06"),
    ("上星期一", WED, "2026-03-02"),
    ("下周一", SUN, "2026-03-09"),
    ("周末", WED, "2026-03-14"),
    ("这周末", WED, "2026-03-14"),
    ("这个周末", WED, "2026-03-14"),
    ("本周末", WED, "2026-03-14"),
    ("周末", SUN, "2026-03-08"),
    ("下周末", WED, "2026-03-21"),
    ("下个周末", WED, "2026-03-21"),
    ("上周末", WED, "2026-03-07"),
    ("休息一下周末去爬山", WED, "2026-03-14"),   # 一下 + 周末, not 下周末
    ("早上周三开会", WED, "2026-03-18"),         # 早上 + 周三, not 上周三
    # days of a month
    ("下个月5号", "2026-11-20", "2026-12-05"),
    ("下个月5号", "2026-12-20", "2027-01-05"),
    ("下月3号", WED, "2026-04-03"),
    ("下个月的十号", WED, "2026-04-10"),
    ("这个月20号", WED, "2026-03-20"),
    ("本月二十日", WED, "2026-03-20"),
    ("上个月15号", WED, "2026-02-15"),
    ("5号", WED, "2026-03-05"),                 # N号 alone: current month even if past
    ("二十五号", WED, "2026-03-25"),
    ("三十一号", WED, "2026-03-31"),
    ("18日", WED, "2026-03-18"),
    ("12月19号", "2026-09-15", "2026-12-19"),
    ("12月5日", "2026-09-15", "2026-12-05"),
    ("12月5日", "2026-12-06", "2027-12-05"),
    ("十二月十九日", "2026-09-15", "2026-12-19"),
    ("十一月十一号", SAT, "2026-11-11"),
    ("１２月１９号", "2026-09-15", "2026-12-19"),
    ("3月11号", WED, "2026-03-11"),
    ("2026年12月19日", SAT, "2026-12-19"),
    ("2027年1月2号", SAT, "2027-01-02"),
    ("明年3月5号", WED, "2027-03-05"),
    # durations
    ("3天后", SAT, "2026-03-10"),
    ("三天后", SAT, "2026-03-10"),
    ("十天以后", SAT, "2026-03-17"),
    ("二十天之后", SAT, "2026-03-27"),
    ("两周后", SAT, "2026-03-21"),
    ("一周后", SAT, "2026-03-14"),
    ("两个星期后", SAT, "2026-03-21"),
    ("三个礼拜后", SAT, "2026-03-28"),
    ("一个月后", SAT, "2026-04-07"),
    ("三个月后", SAT, "2026-06-07"),
    ("十二个月后", SAT, "2027-03-07"),
    ("半个月后", SAT, "2026-03-22"),
    ("半年后", SAT, "2026-09-07"),
    ("一年后", SAT, "2027-03-07"),
    ("三天前", SAT, "2026-03-04"),
    ("两周前", SAT, "2026-02-21"),
    # vague past spans (approximate)
    ("上周", WED, "2026-03-04"),
    ("上个月", WED, "2026-02-11"),
]

ARITHMETIC_CASES = [
    # month ends clamp
    ("in one month", "2026-01-31", "2026-02-28"),
    ("in one month", "2028-01-31", "2028-02-29"),
    ("in a month", "2026-03-31", "2026-04-30"),
    ("in 2 months", "2026-12-31", "2027-02-28"),
    ("in a year", "2028-02-29", "2029-02-28"),
    ("一个月后", "2026-01-31", "2026-02-28"),
    ("last month", "2026-03-31", "2026-02-28"),
    ("上个月", "2026-03-31", "2026-02-28"),
    # year rollover
    ("tomorrow", "2026-12-31", "2027-01-01"),
    ("明天", "2026-12-31", "2027-01-01"),
    ("yesterday", "2027-01-01", "2026-12-31"),
    ("昨天", "2027-01-01", "2026-12-31"),
    ("the day after tomorrow", "2026-12-30", "2027-01-01"),
    ("in two weeks", "2026-12-25", "2027-01-08"),
    ("next Friday", "2026-12-28", "2027-01-08"),
    ("下周三", "2026-12-30", "2027-01-06"),
    ("the 2nd of next month", "2026-12-18", "2027-01-02"),
    ("August 14", "2026-08-15", "2027-08-14"),
    ("3 days ago", "2027-01-02", "2026-12-30"),
    ("the 29th of next month", "2028-01-10", "2028-02-29"),
]


@pytest.mark.parametrize("text, today, expected", DEV_CASES + EN_CASES + ZH_CASES + ARITHMETIC_CASES)
def test_single_mention_resolves(text: str, today: str, expected: str) -> None:
    assert _single(text, today) == expected


@pytest.mark.parametrize("text", [
    "I love Mondays",
    "on Mondays I go to the gym",
    "every Friday I swim",
    "I work Monday to Friday",
    "Mon-Fri only",
    "from Tuesday to Thursday I'm in Berlin",
    "Tue-Thu",
    "wait a second",
    "may I ask you something?",
    "I march to my own drum",
    "you may 5 people invite",
    "a second may pass",
    "I sat down in the sun",
    "we got wed in the summer",
    "I live on the 5th floor",
    "the 21st century",
    "my 3rd attempt",
    "next week is going to be busy",    # no definite day
    "next month I start a new job",
    "see you on 12/19",                 # slashed US dates are ambiguous: skipped
    "within a few days",
    "in a second",
    "the 31st of next month",           # today below is in January: Feb 31 does not exist
    "我周一到周五上班",
    "每周三游泳",
    "周二~周四值班",
    "周一至周五",
    "一周一次",
    "每周末都去爬山",
    "她下个月要去英国读书了",
    "下周要交报告",
    "坐3号线，到5号楼",
    "2月30号",
    "一日三餐",
    "十几天后",
    "",
    "haven't spoken to lucy in two months",           # a length of time up to now, not a day ahead
    "my ex texted me for the first time in 8 months",
    "havent smoked in 2 weeks",
])
def test_no_date(text: str) -> None:
    assert find_dates(text, date(2026, 1, 15)) == []


@pytest.mark.parametrize("text, today, expected", [
    ("the day after tomorrow", SAT, [("the day after tomorrow", "2026-03-09")]),
    ("大后天", SAT, [("大后天", "2026-03-10")]),
    ("下周末", WED, [("下周末", "2026-03-21")]),
    ("下个月5号", WED, [("下个月5号", "2026-04-05")]),
    ("two weeks from now", SAT, [("two weeks from now", "2026-03-21")]),
    ("the 14th of August", SAT, [("the 14th of August", "2026-08-14")]),
    ("today and tomorrow", SAT, [("today", "2026-03-07"), ("tomorrow", "2026-03-08")]),
    ("今天中午吃了面，明天去上海，下周三回来", WED,
     [("今天", "2026-03-11"), ("明天", "2026-03-12"), ("下周三", "2026-03-18")]),
    ("三天后天气就好了", SAT, [("三天后", "2026-03-10")]),
    ("下周一到周三出差", WED, [("下周一", "2026-03-16")]),   # a bare range end is dropped
    ("next Tuesday to Thursday", WED, [("next Tuesday", "2026-03-17")]),
    ("I leave on the 2nd of next month and return August 14", "2026-07-02",
     [("on the 2nd of next month", "2026-08-02"), ("August 14", "2026-08-14")]),
])
def test_overlaps_longest_match_wins(text: str, today: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text, today) == expected


@pytest.mark.parametrize("text, relative", [
    ("tomorrow", True), ("next Friday", True), ("明天", True), ("明年3月5号", True),
    ("August 14", False), ("August 14, 2027", False), ("2026-12-19", False),
    ("12月19号", False), ("2027年1月2日", False),
])
def test_relative_flag(text: str, relative: bool) -> None:
    (mention,) = find_dates(text, date(2026, 7, 2))
    assert mention.relative is relative


def test_mention_offsets_and_immutability() -> None:
    text = "Heads up: my exam is next Friday, then 下周三 I fly out."
    mentions = find_dates(text, date.fromisoformat(SAT))
    assert [m.text for m in mentions] == ["next Friday", "下周三"]
    for m in mentions:
        assert text[m.start:m.end] == m.text
        assert isinstance(m, DateMention)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mentions[0].start = 0  # type: ignore[misc]


@pytest.mark.parametrize("text, today, expected", [
    ("Interview at Spotify next Friday", SAT, "Interview at Spotify on 2026-03-13"),
    ("I GOT AN INTERVIEW AT SPOTIFY. it's next Friday and I'm already spiraling", SAT,
     "I GOT AN INTERVIEW AT SPOTIFY. it's on 2026-03-13 and I'm already spiraling"),
    ("my thesis defense is tomorrow morning", "2026-06-30",
     "my thesis defense is on the morning of 2026-07-01"),
    ("I leave on the 2nd of next month", "2026-12-18", "I leave on 2027-01-02"),
    ("the recital is in two weeks", "2027-02-15", "the recital is on 2027-03-01"),
    ("see you on Friday", SAT, "see you on 2026-03-13"),
    ("I have to finish it by tomorrow", SAT, "I have to finish it by 2026-03-08"),
    ("Tomorrow is my exam", SAT, "2026-03-08 is my exam"),
    ("Next Friday I fly to Rome", SAT, "On 2026-03-13 I fly to Rome"),
    ("we fly out August 14!!", "2026-07-02", "we fly out on 2026-08-14!!"),
    ("the deadline is 2026-12-19", SAT, "the deadline is 2026-12-19"),
    ("tomorrow's meeting got moved", SAT, "2026-03-08's meeting got moved"),
    ("going hiking this weekend", WED, "going hiking on the weekend of 2026-03-14"),
    ("I went out over the weekend", WED, "I went out over the weekend of 2026-03-14"),
    ("my grandpa passed away last week", "2026-10-27", "my grandpa passed away around 2026-10-20"),
    ("free today and tomorrow", SAT, "free on 2026-03-07 and 2026-03-08"),
    ("I'll call you Monday morning", WED, "I'll call you on the morning of 2026-03-16"),
    ("my dad died a year ago today", SAT, "my dad died on 2025-03-07"),
    ("since last month", WED, "since around 2026-02-11"),
    ("at 5 pm today", WED, "at 5 pm on 2026-03-11"),
    ("下周三要去医院复查", "2026-09-14", "2026-09-23要去医院复查"),
    ("12月19号初试", "2026-09-15", "2026-12-19初试"),
    ("教资面试定在下个月5号", "2026-11-20", "教资面试定在2026-12-05"),
    ("今晚去看电影", SAT, "2026-03-07晚上去看电影"),
    ("这周末去爬山", WED, "2026-03-14周末去爬山"),
    ("上个月换了工作", WED, "2026-02-11前后换了工作"),
    ("nothing to see here", SAT, "nothing to see here"),
])
def test_absolutize_text(text: str, today: str, expected: str) -> None:
    assert absolutize(text, date.fromisoformat(today))[0] == expected


@pytest.mark.parametrize("text, today, relative_words", [
    ("my thesis defense is tomorrow morning", "2026-06-30", ["tomorrow"]),
    ("it's next Friday", SAT, ["next", "Friday"]),
    ("in two weeks", "2027-02-15", ["two weeks"]),
    ("I leave on the 2nd of next month", "2026-12-18", ["next month", "2nd"]),
    ("下周三要去医院", "2026-09-14", ["下周三"]),
    ("后天是我妈生日", "2027-01-30", ["后天"]),
    ("明天就出发", "2026-12-31", ["明天"]),
])
def test_absolutize_removes_relative_words_and_no_double_on(text: str, today: str,
                                                          relative_words: list[str]) -> None:
    out, first = absolutize(text, date.fromisoformat(today))
    assert first is not None and first.isoformat() in out
    assert "on on" not in out
    for word in relative_words:
        assert word not in out


def test_absolutize_returns_first_date() -> None:
    out, first = absolutize("August 14 and then tomorrow", date(2026, 7, 2))
    assert first == date(2026, 8, 14)
    assert out == "On 2026-08-14 and then on 2026-07-03"
    assert absolutize("hello", date(2026, 7, 2)) == ("hello", None)


# Issue 36: the dates people say that had none or the wrong one (today 2026-09-20, a Sunday).
@pytest.mark.parametrize("text, expected", [
    ("月底搬家", "2026-09-30"),
    ("下个月初去北京出差", "2026-10-01"),
    ("下旬要考试", "2026-09-25"),
    ("三月中旬答辩", "2027-03-15"),
    ("明年年底结婚", "2027-12-31"),
    ("明年底结婚", "2027-12-31"),                    # 明年 holds its own 年: not this year's end
    ("my daughter turns 5 a week from tomorrow", "2026-09-28"),
    ("my son's bar mitzvah is 6 weeks from saturday", "2026-11-07"),
    ("the wedding is two weeks from next Monday", "2026-10-05"),
    ("we're moving at the end of the month", "2026-09-30"),
    ("the thesis is due by the end of next month", "2026-10-31"),
    ("starting the new job early next month", "2026-10-01"),
    ("the audit is mid-March", "2027-03-15"),
])
def test_parts_of_months_and_spans_from_a_day_have_their_date(text, expected):
    assert _single(text, "2026-09-20") == expected


@pytest.mark.parametrize("text", [
    "每月底交房租",          # a routine
    "正月初一去拜年",        # a lunar day, not the start of a month
    "岁月中总有遗憾",
    "I do the Sunday crossword every week",   # the day names a thing
    "our Saturday morning run is my favourite hour",
    "late may I think",      # a modal verb
])
def test_habits_and_look_alikes_are_no_dates(text):
    assert _found(text, "2026-09-20") == []


def test_a_stay_for_weeks_from_a_day_starts_that_day():
    assert _single("my mum's coming to stay for 2 weeks from next tuesday", "2026-09-20") == "2026-09-22"


def test_a_date_written_into_chinese_words_stands_apart_from_a_latin_word():
    assert absolutize("下周三presentation终于结束了", date(2026, 9, 20))[0] == "2026-09-23 presentation终于结束了"


def test_a_deadline_keeps_its_by_and_a_vague_part_says_around():
    today = date(2026, 9, 20)
    assert absolutize("have to finish by the end of next month", today)[0] == "have to finish by 2026-10-31"
    assert absolutize("moving at the end of the month", today)[0] == "moving around 2026-09-30"
    assert absolutize("月底搬家", today)[0] == "2026-09-30前后搬家"


# Wednesday 2026-03-11: what happened is behind today, what is said of the days ahead stays ahead.
@pytest.mark.parametrize("text, expected", [
    ("anyway i drive for ups now, started monday", "2026-03-09"),
    ("Nadia and I broke up on sunday", "2026-03-08"),
    ("my exam was on March 2nd", "2026-03-02"),
    ("my birthday was on December 3", "2025-12-03"),
    ("I saw him Friday", "2026-03-06"),
    ("got a job interview at Canva on tuesday", "2026-03-17"),      # "got" an interview: still ahead
    ("booked a table for Friday", "2026-03-13"),
    ("was told the interview is friday", "2026-03-13"),             # a present word after the past one
    ("had dinner with mum, we will go again on Friday", "2026-03-13"),
    ("I'm starting monday", "2026-03-16"),
    ("exam is on March 2nd", "2027-03-02"),
])
def test_a_day_said_of_what_happened_is_behind_today(text, expected):
    assert _single(text, WED) == expected


@pytest.mark.parametrize("said, written", [
    ("2027年底结婚", "2027-12-31前后结婚"),          # the year said before 年底 is its year, not glued in front
    ("2027年初毕业", "2027-01-01前后毕业"),
    ("2025年底换的工作", "2025-12-31前后换的工作"),
    ("今年初三了 明年中考", "今年初三了 明年中考"),    # 初三 is a school grade, no start of the year
    ("大年初三回娘家", "大年初三回娘家"),
])
def test_a_chinese_year_part_reads_the_year_said_with_it(said, written):
    assert absolutize(said, date(2026, 12, 6))[0] == written


@pytest.mark.parametrize("said", [
    "升了项目经理以后天天加班",      # 以后 + 天天: no 后天 (the day after tomorrow) in it
    "领导升职以后天天PUA我们",
    "今年三十五了 天天担心被优化",  # 今年 + 三十五: no 年三十 (New Year's Eve)
])
def test_a_chinese_date_word_split_across_two_words_is_no_date(said):
    assert find_dates(said, date(2026, 7, 27), with_holidays=True) == []
    assert absolutize(said, date(2026, 7, 27), with_holidays=True)[0] == said


@pytest.mark.parametrize("said, expected", [
    ("后天去北京", "2026-07-29"),
    ("我下周四面试 字节的", "2026-08-06"),   # jieba cuts 我下/周四: the date still ends where a word ends
    ("从今天起我又是一个人了", "2026-07-27"),  # a date word inside one longer word stands
    ("最近升职了 后天天一亮就出发", "2026-07-29"),
])
def test_a_chinese_date_word_at_a_word_edge_stays_a_date(said, expected):
    assert [str(m.date) for m in find_dates(said, date(2026, 7, 27))] == [expected]


@pytest.mark.parametrize("said, today, expected", [
    ("first weekend of august, saturday the 1st", date(2026, 6, 1), "2026-08-01"),  # not July 1 and a Saturday in June
    ("27号 周六 伴娘服还没到", date(2026, 6, 1), "2026-06-27"),
    ("订了 6.20 周六", date(2026, 6, 1), "2026-06-20"),   # a month.day the weekday beside it agrees with
    ("15th, the monday", date(2026, 6, 1), "2026-06-15"),
    ("sunday the 31st", date(2026, 5, 1), "2026-05-31"),
    ("saturday week, the 13th. ruth has no clue", date(2026, 6, 1), "2026-06-13"),
])
def test_a_weekday_beside_a_day_of_the_month_names_the_day_they_agree_on(said, today, expected):
    assert [str(m.date) for m in find_dates(said, today)] == [expected]


@pytest.mark.parametrize("said, weekday", [("周五 3.5 斤", "周五"), ("周五跑了 5.2 km", "周五"),
                                          ("version 2.1 on friday", "on friday")])
def test_a_month_dot_day_that_is_a_quantity_stays_a_number(said, weekday):
    assert [m.text for m in find_dates(said, date(2026, 6, 1))] == [weekday]


@pytest.mark.parametrize("said, expected", [
    ("my IVF egg collection is a week tomorrow", "2026-10-28"),
    ("results come out two weeks today", "2026-11-03"),
    ("I've also packed in the smoking, 3 weeks today.", "2026-09-29"),  # of what has been: weeks ago
    ("12月19 20两天 倒计时一百五十天", "2026-12-19"),                   # a month and day with no 号
])
def test_weeks_counted_from_today_and_a_month_day_without_hao(said, expected):
    assert [str(m.date) for m in find_dates(said, date(2026, 10, 20))] == [expected]


@pytest.mark.parametrize("said, expected", [
    ("跟大学室友小周一起去", []),       # 小周 is a friend, 周一 no Monday
    ("老周三点到", []),
    ("周一起开始早起", ["2026-03-30"]),  # from Monday on
])
def test_a_name_on_zhou_is_no_weekday(said, expected):
    assert [str(m.date) for m in find_dates(said, date(2026, 3, 29))] == expected


@pytest.mark.parametrize("said, expected", [
    ("the surprise party is saturday week", "2026-06-13"),  # a week after the coming Saturday
    ("on tuesday week I fly out", "2026-06-16"),
    ("saturday week, the 13th", "2026-06-13"),
])
def test_a_weekday_week_is_a_week_after_the_coming_one(said, expected):
    assert sorted({str(m.date) for m in find_dates(said, date(2026, 6, 5))}) == [expected]


# A coming week, month or year said without a day is no date, but a note must not keep it relative: "moving next month"
# would still say next month a year on (today 2026-12-07, a Monday).
@pytest.mark.parametrize("text, expected", [
    ("男朋友下礼拜过生日", "男朋友2026-12-14那周过生日"),
    ("下下周出差", "2026-12-21那周出差"),
    ("下个月搬去杭州了", "2027年1月搬去杭州了"),
    ("下月去报到", "2027年1月去报到"),
    ("明年考研", "2027年考研"),
    ("明年三月结婚", "2027年3月结婚"),
    ("Sister is getting married next month", "Sister is getting married in January 2027"),
    ("Boyfriend's birthday is next week", "Boyfriend's birthday is the week of 2026-12-14"),
    ("Has to finish the thesis by next month", "Has to finish the thesis by January 2027"),
    ("Wants to run a marathon next year", "Wants to run a marathon in 2027"),
    # days and parts of the period keep their own dates; spans from now and other words stay
    ("下个月3号考试", "2027-01-03考试"),
    ("下周三开会", "2026-12-16开会"),
    ("Hopes to save a bit in the next month or so", "Hopes to save a bit in the next month or so"),
    ("Dreads next week's review", "Dreads next week's review"),
    ("看一下周报", "看一下周报"),
    ("明年初三", "明年初三"),
])
def test_a_coming_period_is_written_as_the_period_it_is(text, expected):
    assert undated(text, date(2026, 12, 7))[0] == expected


@pytest.mark.parametrize("text", ["我叫周一鸣 今年刚毕业", "同事名叫周五", "他姓周一"])
def test_a_weekday_said_as_a_name_is_no_date(text):
    assert find_dates(text, date(2026, 12, 7)) == []


def test_a_colon_ends_the_past_tense_that_places_a_bare_weekday_behind_today():
    today = date(2026, 6, 15)  # a Monday
    # an answer said with its question ("Did you manage to book the dentist?" + "yep, friday at 9"): the day is ahead
    assert [d.date for d in find_dates("I did manage to book the dentist: friday at 9", today)] == [date(2026, 6, 19)]
    assert [d.date for d in find_dates("went at 9:30 on friday", today)] == [date(2026, 6, 12)]  # a time's colon
    assert [d.date for d in find_dates("did it friday", today)] == [date(2026, 6, 12)]


@pytest.mark.parametrize("said, today, day", [
    ("推迟了 不是十号 改成十月二十四号了", "2026-09-20", "2026-10-24"),
    ("the interview moved, it's not on the 10th, it's the 24th", "2026-09-02", "2026-09-24"),
    ("面试是十月十号", "2026-09-20", "2026-10-10"),
])
def test_a_day_taken_back_is_not_the_notes_day(said, today, day):
    assert absolutize(said, date.fromisoformat(today))[1] == date.fromisoformat(day)
