"""Holidays as dates: "过年回老家", "国庆第二天去西安", "flying home for christmas" are events on a day the user never
wrote as a date. Where no date is being looked for, a holiday stays a word ("I don't do christmas")."""
from __future__ import annotations

from datetime import date

import pytest

from memory import holidays
from memory.dates import absolutize, find_dates

TODAY = date(2026, 9, 10)


@pytest.mark.parametrize("name, year, expected", [
    # published calendar dates, not computed here
    ("春节", 2025, date(2025, 1, 29)), ("春节", 2026, date(2026, 2, 17)), ("春节", 2027, date(2027, 2, 6)),
    ("除夕", 2026, date(2026, 2, 16)), ("元宵节", 2026, date(2026, 3, 3)), ("端午", 2026, date(2026, 6, 19)),
    ("七夕", 2026, date(2026, 8, 19)), ("中秋", 2025, date(2025, 10, 6)), ("中秋节", 2026, date(2026, 9, 25)),
    ("清明节", 2025, date(2025, 4, 4)), ("清明节", 2026, date(2026, 4, 5)),
    ("Easter", 2025, date(2025, 4, 20)), ("easter", 2026, date(2026, 4, 5)), ("easter", 2027, date(2027, 3, 28)),
    ("Thanksgiving", 2026, date(2026, 11, 26)), ("mother's day", 2026, date(2026, 5, 10)),
    ("Mother’s Day", 2027, date(2027, 5, 9)), ("father's day", 2026, date(2026, 6, 21)),
    ("memorial day", 2026, date(2026, 5, 25)), ("labor day", 2026, date(2026, 9, 7)),
    ("christmas", 2026, date(2026, 12, 25)), ("国庆", 2026, date(2026, 10, 1)), ("母亲节", 2026, date(2026, 5, 10)),
])
def test_holidays_fall_on_their_days(name, year, expected):
    found = holidays.holiday(name)
    assert found is not None and found.on(year) == expected


@pytest.mark.parametrize("text, expected", [
    ("国庆第二天去西安 兵马俑门票抢好了", [("国庆第二天", "2026-10-02")]),
    ("过年回老家", [("过年", "2027-02-06")]),
    ("明年春节去海南", [("明年春节", "2027-02-06")]),
    ("去年中秋在外地过的", [("去年中秋", "2025-10-06")]),
    ("flying home for Christmas!", [("Christmas", "2026-12-25")]),
    ("last christmas was rough", [("last christmas", "2025-12-25")]),
    ("on thanksgiving we go to my aunt’s", [("on thanksgiving", "2026-11-26")]),
    ("Valentine’s dinner at Nobu", [("Valentine’s", "2027-02-14")]),
    ("christmas eve at my in-laws", [("christmas eve", "2026-12-24")]),
    ("we are getting a christmas tree", []),
    ("halloween costumes are so expensive", []),
    ("五一广场见", []),
    ("三十一个人", []),
])
def test_holidays_are_read_where_a_date_is_looked_for(text, expected):
    assert [(d.text, d.date.isoformat()) for d in find_dates(text, TODAY, with_holidays=True)] == expected
    assert find_dates(text, TODAY) == []  # and nowhere else


def test_a_note_keeps_the_holiday_and_gets_its_date_after_it():
    assert absolutize("Halloween party at their place", TODAY, with_holidays=True) == (
        "Halloween party at their place (2026-10-31)", date(2026, 10, 31))
    assert absolutize("过年回老家", TODAY, with_holidays=True) == ("过年回老家（2027-02-06）", date(2027, 2, 6))
    # a day counted from a holiday is written as the date alone, as any relative date is
    assert absolutize("国庆第二天去西安", TODAY, with_holidays=True) == ("2026-10-02去西安", date(2026, 10, 2))
    assert absolutize("They don't do christmas", TODAY) == ("They don't do christmas", None)


def test_an_english_holiday_plan_becomes_a_dated_event(cli):
    party = cli.json("memory", "extract", "halloween party at my place, I'm going as Shrek", "--json", "--dry-run",
                     "--no-model", today="2026-09-10")["written"]
    assert any(w["category"] == "event" and w["event_date"] == "2026-10-31" for w in party)


def test_a_holiday_plan_becomes_a_dated_event_and_a_yearly_habit_does_not(cli):
    def written(text):
        return cli.json("memory", "extract", text, "--json", "--dry-run", "--no-model", today="2026-09-10")["written"]
    trip = written("国庆第二天去西安 兵马俑门票抢好了")
    assert [(w["category"], w["event_date"]) for w in trip] == [("event", "2026-10-02")]
    assert "2026-10-02" in trip[0]["content"] and "第二天" not in trip[0]["content"]
    habit = written("every christmas we drive up to my gran's in Inverness")
    assert all(w["category"] != "event" and "2026-12-25" not in w["content"] for w in habit)
    taste = written("i don't do christmas, i'm jehovah's witness")
    assert taste and all("2026" not in w["content"] for w in taste)


@pytest.mark.parametrize("text, expected", [
    ("国庆后第一天要去上海出差", "2026-10-08"),   # the golden week runs 10-01..10-07
    ("五一后第一天就开会", "2027-05-06"),
    ("春节后第三天上班", "2027-02-15"),           # 2027 spring festival: 02-06, a seven-day break
    ("圣诞节前一天去看演出", "2026-12-24"),
    ("元旦后一天回学校", "2027-01-02"),
    ("we fly home the day after Thanksgiving", "2026-11-27"),
    ("two days before Christmas we drive up", "2026-12-23"),
    ("元旦后第一个周一开学", "2027-01-04"),         # 2027-01-01 is a Friday
    ("国庆后的第一个星期一要述职", "2026-10-12"),  # the break ends on Wednesday 10-07
    ("春节前最后一个周五放假", "2027-02-05"),
    ("the first Monday after New Year's Day I start at Arup", "2027-01-04"),
    ("the Friday before Christmas is my last day", "2026-12-18"),
])
def test_days_counted_from_a_holiday(text, expected):
    found = find_dates(text, date(2026, 9, 20), with_holidays=True)
    assert [m.date.isoformat() for m in found] == [expected]
