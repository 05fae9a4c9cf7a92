"""The campaign calendar: dates, seasons, dawn and dusk, one time format."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused, trawler_at
from hypothesis import given
from hypothesis import strategies as st

from voyage.tables.calendar import (
    CalendarDef,
    CalendarError,
    calendar_definition,
    daylight,
    format_date,
    format_time,
    parse_start,
    season_of,
)

DAY = 24


@pytest.fixture
def gregorian(book) -> CalendarDef:
    return calendar_definition(book, "gregorian")


@pytest.fixture
def reckoning(book) -> CalendarDef:
    return calendar_definition(book, "Reckoning of the Reach")


def test_month_and_year_rollover(gregorian):
    cal = parse_start(gregorian, "1492-06-30")
    assert format_time(cal, 0) == "30 Jun 1492, 00:00"
    assert format_time(cal, 23, 59) == "30 Jun 1492, 23:59"
    assert format_time(cal, DAY) == "1 Jul 1492, 00:00"  # 30 days hath June
    cal = parse_start(gregorian, "31 December 1492")
    assert format_date(cal, 23) == "31 Dec 1492"
    assert format_time(cal, 24 + 7, 5) == "1 Jan 1493, 07:05"
    # a whole year on, and three (1496 is a leap year: 29 Feb is a day)
    assert format_date(cal, 365 * DAY) == "31 Dec 1493"
    assert format_date(cal, (365 * 3 + 366) * DAY) == "31 Dec 1496"


@pytest.mark.parametrize(
    ("year", "leap"), [(1492, True), (1493, False), (1500, False), (1600, True), (2024, True)]
)
def test_leap_years_follow_the_gregorian_rule(gregorian, year, leap):
    cal = parse_start(gregorian, f"{year}-02-28")
    assert format_date(cal, DAY) == (f"29 Feb {year}" if leap else f"1 Mar {year}")
    assert gregorian.year_days(year) == (366 if leap else 365)


@pytest.mark.parametrize(
    ("start", "season", "dawn", "dusk"),
    [
        ("1492-01-15", "winter", 7, 17),
        ("1492-02-29", "winter", 7, 17),
        ("1492-03-01", "spring", 6, 19),
        ("1492-06-01", "summer", 5, 21),
        ("1492-08-31", "summer", 5, 21),
        ("1492-09-01", "autumn", 6, 18),
        ("1492-12-01", "winter", 7, 17),
    ],
)
def test_seasons_and_their_dawn_and_dusk(gregorian, start, season, dawn, dusk):
    cal = parse_start(gregorian, start)
    assert season_of(cal, 12) == season
    assert daylight(cal, 12) == (dawn, dusk)


def test_season_changes_with_the_month(gregorian):
    cal = parse_start(gregorian, "1492-05-31")
    assert [season_of(cal, h) for h in (0, 23, 24)] == ["spring", "spring", "summer"]
    assert daylight(cal, 23) == (6, 19) and daylight(cal, 24) == (5, 21)


def test_a_campaign_without_a_calendar_counts_days():
    assert format_time(None, 0) == "Day 1, 00:00"
    assert format_time(None, 2 * DAY + 14, 37) == "Day 3, 14:37"
    assert format_time(None, None) == "-"
    assert daylight(None, 100) == (6, 18)
    # its seasons are the Gregorian ones from 1 January (the weather needs a season)
    assert season_of(None, 0) == "winter" and season_of(None, 160 * DAY) == "summer"


def test_the_fantasy_calendar(reckoning):
    cal = parse_start(reckoning, "1 Highsun 1042")
    assert format_time(cal, 0) == "1 Highsun 1042, 00:00"
    assert season_of(cal, 0) == "summer" and daylight(cal, 0) == (4, 22)
    long_night = parse_start(reckoning, "35 Longnight 1042")  # the 35-day month
    assert format_date(long_night, DAY) == "1 Icemelt 1042"
    assert format_date(parse_start(reckoning, "30 Icemelt 1042"), DAY) == "1 Thaw 1043"
    assert reckoning.year_days(1042) == 365


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1492-02-30", "February 1492 has 29 days"),
        ("31 Jun 1492", "June 1492 has 30 days"),
        ("1492-13-01", "no month 13"),
        ("1 Brumaire 1492", "no month 'Brumaire'"),
        ("tomorrow", "is not a date"),
        ("1492-06-00", "day 0 is not a date"),
    ],
)
def test_a_date_the_calendar_does_not_have(gregorian, text, words):
    with pytest.raises(CalendarError, match=words):
        parse_start(gregorian, text)


# ----------------------------------------------------------------------------- the CLI


@pytest.fixture
def dated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: CliRunner) -> Path:
    """The Salt Reach from 1 June 1492 with the Sea Witch in Gullhaven."""
    path = tmp_path / "dated.db"
    monkeypatch.setenv("VOYAGE_DB", str(path))
    out = ok(runner, "init", "--seed", "7", "--start", "1492-06-01")
    assert "Day 1 is 1 Jun 1492 (Gregorian calendar)." in out
    trawler_at(runner, "0305", crew=5, cargo=200, fuel=60)
    return path


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--start", "31 Feb 1492"), "February 1492 has 29 days"),
        (("--start", "1 Highsun 1042"), "no month 'Highsun'"),  # not a Gregorian month
        (("--start", "1 Highsun 1042", "--calendar", "mayan"), "no calendar 'mayan'"),
        # the way to a calendar of one's own, not a path only the repository has
        (("--start", "1 Highsun 1042", "--calendar", "mayan"), "`voyage init --tables FOLDER`"),
    ],
)
def test_init_refuses_a_bad_start_and_makes_no_file(tmp_path, runner, args, words):
    path = tmp_path / "never.db"
    assert words in refused(runner, "init", "--db", str(path), *args)
    assert not path.exists()


def test_a_calendar_month_with_no_days_is_refused(tmp_path, runner, book):
    from voyage.tables.rulebook import TableError, load_rulebook

    house = tmp_path / "house"
    house.mkdir()
    text = Path(book.sources["calendars"]).read_text()
    (house / "calendars.yaml").write_text(
        text.replace("{name: April, short: Apr, days: 30", "{name: April, short: Apr, days: 0")
    )
    problem = r"months\[3\]\.days'.*April has 0 days: give it at least 1"
    with pytest.raises(TableError, match=problem):
        load_rulebook(house)
    path = tmp_path / "never.db"
    message = refused(runner, "init", "--db", str(path), "--tables", str(house))
    assert "April has 0 days" in message and not path.exists()


def test_the_one_time_format_in_status_log_and_exports(runner, dated, tmp_path, monkeypatch):
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    out = ok(runner, "advance", "--hours", "3")
    assert "Advanced 3 hours to 1 Jun 1492, 03:00." in out
    assert ok(runner, "status").splitlines()[0] == "New Campaign: 1 Jun 1492, 03:00"
    status = json.loads(ok(runner, "status", "--json"))
    assert status["clock"] == 3 and status["time"] == "1 Jun 1492, 03:00"  # numbers stay
    log = ok(runner, "log", "Sea Witch")
    assert "1 Jun 1492, 02:00  0405" in log and "  1 Jun 1492, 00:00  [sail]" in log
    assert "day 1" not in log.lower()
    data = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    assert [h["time"] for h in data["hours"]] == [f"1 Jun 1492, 0{h}:00" for h in range(3)]
    assert data["hours"][2]["clock"] == 2 and data["hours"][2]["hour"] == 2
    monkeypatch.chdir(tmp_path)
    ok(runner, "export", "Sea Witch", "-f", "md", "-f", "csv", "-f", "json")
    md = (tmp_path / "sea-witch-voyage-1.md").read_text()
    assert "1 Jun 1492, 00:00 to now" in md and "## 1 Jun 1492 (day 1)" in md
    assert "**1 Jun 1492, 00:00** Sea Witch sets sail" in md
    rows = list(csv.DictReader(io.StringIO((tmp_path / "sea-witch-voyage-1.csv").read_text())))
    assert [r["time"] for r in rows] == [f"1 Jun 1492, 0{h}:00" for h in range(3)]
    assert [r["clock"] for r in rows] == ["0", "1", "2"]
    exported = json.loads((tmp_path / "sea-witch-voyage-1.json").read_text())
    assert exported["voyage"]["started_time"] == "1 Jun 1492, 00:00"
    second = exported["hours"][1]
    assert second["time"] == "1 Jun 1492, 01:00" and second["clock"] == 1
    assert exported["events"][0]["time"] == "1 Jun 1492, 00:00"


def test_until_dawn_and_dusk_follow_the_season(runner, dated):
    # 1 June is summer in the Gregorian table: dawn 05:00, dusk 21:00
    out = json.loads(ok(runner, "advance", "--until", "dawn", "--json"))
    assert out["end"] == 5 and out["stopped"] == "dawn" and out["end_time"] == "1 Jun 1492, 05:00"
    assert json.loads(ok(runner, "advance", "--until", "dusk", "--json"))["end"] == 21
    assert json.loads(ok(runner, "advance", "--until", "dawn", "--json"))["end"] == 24 + 5


def test_until_dawn_in_winter_and_without_a_calendar(tmp_path, runner):
    winter = tmp_path / "winter.db"
    ok(runner, "init", "--db", str(winter), "--start", "1492-12-24")
    out = json.loads(ok(runner, "advance", "--db", str(winter), "--until", "dawn", "--json"))
    assert out["end"] == 7 and out["in_port"]
    plain = tmp_path / "plain.db"
    ok(runner, "init", "--db", str(plain))
    out = json.loads(ok(runner, "advance", "--db", str(plain), "--until", "dawn", "--json"))
    assert out["end"] == 6 and out["end_time"] == "Day 1, 06:00"


def test_advance_with_every_ship_in_port_and_the_calendar_command(runner, dated):
    out = ok(runner, "advance", "--hours", "30")
    assert "Every ship is in port: the clock (and the weather) moved on 30 hours" in out
    assert "2 Jun 1492, 06:00" in out
    shown = ok(runner, "calendar")
    assert shown.startswith("New Campaign: 2 Jun 1492, 06:00 (summer; dawn 05:00, dusk 21:00)")
    assert "June       Jun    30    summer  05:00  21:00" in shown
    info = json.loads(ok(runner, "calendar", "--json"))
    assert info["calendar"]["start"] == "1 Jun 1492" and info["season"] == "summer"
    before = db_contents(dated)
    ok(runner, "calendar")
    assert db_contents(dated) == before  # reading the calendar changes nothing


def test_the_calendar_is_kept_in_the_campaign(runner, dated, book):
    # editing tables/calendars.yaml later would not move the campaign's dates: it has a copy
    from voyage.store.calendarrow import campaign_calendar
    from voyage.store.campaign import open_campaign

    camp = open_campaign(dated)
    try:
        cal = campaign_calendar(camp)
        assert cal is not None and cal.definition == calendar_definition(book, "gregorian")
        assert (cal.year, cal.month, cal.day) == (1492, 5, 1)
    finally:
        camp.close()


@given(
    start=st.integers(0, 5000),
    offset=st.integers(0, 3 * 366),
    name=st.sampled_from(["gregorian", "reckoning"]),
)
def test_any_date_reads_back_as_the_same_day(book, start, offset, name):
    # a date shown by the calendar is a date the calendar has: parsed back it is that day,
    # and the day after it is one day later (rollover never skips or repeats a day)
    definition = calendar_definition(book, name)
    cal = parse_start(definition, f"1 {definition.months[0].name} 1000")
    shown = format_date(cal, (start + offset) * DAY)
    again = parse_start(definition, shown)
    assert again.date_at(0) == cal.date_at((start + offset) * DAY)
    assert format_date(again, DAY) == format_date(cal, (start + offset + 1) * DAY)
