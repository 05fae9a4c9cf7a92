"""The campaign calendar: dates, seasons, dawn and dusk, and the one way a time is written.

The campaign clock counts hours since day 1, 00:00 (:attr:`voyage.store.campaigndb.Campaign.clock`).
What a campaign's file keeps of its calendar is read and written by voyage.store.calendarrow.
A campaign made with a start date (``voyage init --start "1 Highsun 1042"`` or
``--start 1492-06-01``) keeps a calendar (months, their lengths and seasons, as data in
tables/calendars.yaml) and the date of day 1; a campaign made without one counts days.

Every time shown to a person goes through :func:`format_time`, so it reads the same in
status, the log, map titles, the weather, and the exports:

* with a calendar: ``12 Jun 1492, 14:37``
* without one:     ``Day 3, 14:37``

Dawn and dusk come from the calendar by season (:func:`dawn_hour`, :func:`dusk_hour`);
without a calendar they are 06:00 and 18:00. :func:`season_of`
names the season of an hour; a campaign without a calendar counts its seasons as the
Gregorian calendar from 1 January (day 1), so the weather always has a season.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from voyage.base.errors import VoyageError
from voyage.tables.rulebook import RuleBook, load_rulebook

#: Dawn and dusk of a campaign without a calendar.
DAWN_HOUR = 6
DUSK_HOUR = 18
DEFAULT_CALENDAR = "gregorian"


class CalendarError(VoyageError):
    """A start date the calendar does not have, or an unknown calendar."""


@dataclass(frozen=True)
class Month:
    """A month of a calendar: its name, the short name times show, days and season."""

    name: str
    short: str
    days: int
    season: str


@dataclass(frozen=True)
class CalendarDef:
    """A calendar as data (one entry of tables/calendars.yaml, validated)."""

    key: str
    name: str
    months: tuple[Month, ...]
    seasons: tuple[tuple[str, int, int], ...]  # (season, dawn hour, dusk hour)
    leap_month: int | None = None
    leap_every: int = 0
    leap_skip_every: int = 0
    leap_keep_every: int = 0
    description: str = ""

    @classmethod
    def from_table(cls, data: dict[str, Any]) -> CalendarDef:
        """From the validated table entry (or the copy a campaign keeps)."""
        months = tuple(Month(m["name"], m["short"], m["days"], m["season"]) for m in data["months"])
        leap = data.get("leap") or {}
        leap_month = None
        if leap:
            leap_month = [m.name for m in months].index(leap["month"])
        return cls(
            key=data["key"],
            name=data["name"],
            months=months,
            seasons=tuple((k, v["dawn"], v["dusk"]) for k, v in data["seasons"].items()),
            leap_month=leap_month,
            leap_every=int(leap.get("every", 0)),
            leap_skip_every=int(leap.get("skip_every", 0)),
            leap_keep_every=int(leap.get("keep_every", 0)),
            description=data.get("description", ""),
        )

    def to_table(self) -> dict[str, Any]:
        """The table entry again (what the campaign stores)."""
        leap = None
        if self.leap_month is not None:
            leap = {"month": self.months[self.leap_month].name, "every": self.leap_every}
            if self.leap_skip_every:
                leap["skip_every"] = self.leap_skip_every
            if self.leap_keep_every:
                leap["keep_every"] = self.leap_keep_every
        return {
            "key": self.key,
            "name": self.name,
            "description": self.description,
            "seasons": {s: {"dawn": d, "dusk": k} for s, d, k in self.seasons},
            "months": [
                {"name": m.name, "short": m.short, "days": m.days, "season": m.season}
                for m in self.months
            ],
            "leap": leap,
        }

    def is_leap(self, year: int) -> bool:
        """Whether ``year`` has the leap day (every N, except every M, but every K)."""
        if self.leap_month is None or not self.leap_every or year % self.leap_every:
            return False
        if self.leap_skip_every and year % self.leap_skip_every == 0:
            return bool(self.leap_keep_every) and year % self.leap_keep_every == 0
        return True

    def month_days(self, year: int, month: int) -> int:
        """Days in month ``month`` (0-based) of ``year``."""
        extra = 1 if month == self.leap_month and self.is_leap(year) else 0
        return self.months[month].days + extra

    def year_days(self, year: int) -> int:
        """Days in ``year``."""
        return sum(m.days for m in self.months) + (1 if self.is_leap(year) else 0)

    def days_before(self, year: int) -> int:
        """Days of years 1 to ``year - 1``: the leap years counted, not walked (a campaign
        may run in year 1,000,000)."""
        n = year - 1
        leaps = 0
        if self.leap_month is not None and self.leap_every and n > 0:
            every, skip, keep = self.leap_every, self.leap_skip_every, self.leap_keep_every
            leaps = n // every
            if skip:
                both = math.lcm(every, skip)
                leaps -= n // both
                if keep:
                    leaps += n // math.lcm(both, keep)
        return n * sum(m.days for m in self.months) + leaps

    def daylight(self, season: str) -> tuple[int, int]:
        """(dawn, dusk) hours of a season."""
        for name, dawn, dusk in self.seasons:
            if name == season:
                return dawn, dusk
        return DAWN_HOUR, DUSK_HOUR

    def month_index(self, word: str) -> int | None:
        """A month by name or short name (any case), or by number 1..n; None if unknown."""
        text = word.strip().lower()
        if text.isascii() and text.isdigit():
            n = int(text)
            return n - 1 if 1 <= n <= len(self.months) else None
        for i, m in enumerate(self.months):
            if text in (m.name.lower(), m.short.lower()):
                return i
        return None


@dataclass(frozen=True)
class CampaignCalendar:
    """A calendar and the date of the campaign's day 1."""

    definition: CalendarDef
    year: int
    month: int  # 0-based
    day: int  # 1-based

    def date_at(self, clock: int) -> tuple[int, int, int]:
        """(year, month 0-based, day 1-based) of campaign hour ``clock``."""
        return _date_after(self, max(0, clock) // 24)

    def start_text(self) -> str:
        """Day 1 as ``1 Jun 1492``."""
        return f"{self.day} {self.definition.months[self.month].short} {self.year}"


@lru_cache(maxsize=4096)
def _date_after(cal: CampaignCalendar, days: int) -> tuple[int, int, int]:
    d = cal.definition
    year, month = cal.year, cal.month
    left = cal.day - 1 + days
    # whole years first (from the start month to the same month a year on), then months
    while True:
        n = len(d.months)
        span = sum(d.month_days(year + (month + i) // n, (month + i) % n) for i in range(n))
        if left < span:
            break
        left -= span
        year += 1
    while left >= d.month_days(year, month):
        left -= d.month_days(year, month)
        month += 1
        if month == len(d.months):
            month, year = 0, year + 1
    return year, month, left + 1


# ----------------------------------------------------------------------------- the calendars


def calendar_definition(book: RuleBook, name: str) -> CalendarDef:
    """A calendar of the rule book by key or name (any case)."""
    wanted = name.strip().lower()
    for key, data in book.calendars.items():
        if wanted in (key.lower(), str(data["name"]).lower()):
            return CalendarDef.from_table(data)
    known = ", ".join(book.calendars) or "none"
    raise CalendarError(
        f"no calendar {name!r}: use one of {known}, or add your own in a calendars.yaml "
        "given with `voyage init --tables FOLDER`"
    )


#: The latest start year (six digits). A campaign's clock runs on from it, so the dates it
#: shows, and `--at` reads back, may have seven digits (:data:`LATEST_YEAR`).
LAST_START_YEAR = 999_999
LATEST_YEAR = 9_999_999

# re.ASCII: only 0-9 are digits in a date ("١٤٩٢" is not a year to voyage); up to seven
# digits a year (a campaign started in 999999 shows 1000000 a year on); longer ones are
# matched, then refused in one line
_ISO = re.compile(r"^(-?\d{1,12})-(\d{1,3})-(\d{1,4})$", re.ASCII)
_WORDS = re.compile(
    r"^(\d{1,4})(?:st|nd|rd|th)?\s+(?:of\s+)?(.+?),?\s+(-?\d{1,12})$", re.I | re.ASCII
)


def parse_start(
    definition: CalendarDef, text: str, latest_year: int = LAST_START_YEAR
) -> CampaignCalendar:
    """``1492-06-01`` (year-month-day) or ``1 Highsun 1042`` (day month year) in the
    calendar; :class:`CalendarError` naming what is wrong and the fix if it has no such date.
    A start year runs to ``latest_year`` (six digits; a date read for `--at` may have
    seven)."""
    raw = " ".join(str(text).split())
    iso = _ISO.match(raw)
    words = None if iso else _WORDS.match(raw)
    if iso:
        year, month_word, day = int(iso.group(1)), iso.group(2), int(iso.group(3))
    elif words:
        day, month_word, year = int(words.group(1)), words.group(2), int(words.group(3))
    else:
        raise CalendarError(
            f"start date {text!r} is not a date: write YYYY-MM-DD (1492-06-01) or "
            f"DAY MONTH YEAR (1 {definition.months[0].name} 1042)"
        )
    month = definition.month_index(month_word)
    if month is None:
        shown = ", ".join(m.name for m in definition.months)
        what = f"month {month_word}" if iso else f"month {month_word!r}"
        raise CalendarError(f"the {definition.name} calendar has no {what}: use one of {shown}")
    if year < 1:
        raise CalendarError(f"start year {year}: years start at 1")
    if year > latest_year:
        what = "a start year" if latest_year == LAST_START_YEAR else "a year"
        raise CalendarError(f"year {year}: {what} runs from 1 to {latest_year}")
    length = definition.month_days(year, month)
    if not 1 <= day <= length:
        name = definition.months[month].name
        raise CalendarError(
            f"{name} {year} has {length} days in the {definition.name} calendar: "
            f"day {day} is not a date; give a day from 1 to {length}"
        )
    return CampaignCalendar(definition, year, month, day)


def first_day(definition: CalendarDef) -> CampaignCalendar:
    """Day 1 of month 1 of year 1: where a campaign given only ``--calendar`` starts."""
    return CampaignCalendar(definition, 1, 0, 1)


def _default_gregorian() -> CampaignCalendar:
    book = load_rulebook()
    if DEFAULT_CALENDAR in book.calendars:
        return first_day(CalendarDef.from_table(book.calendars[DEFAULT_CALENDAR]))
    return first_day(CalendarDef.from_table(next(iter(book.calendars.values()))))


_SEASONS_WITHOUT_CALENDAR: list[CampaignCalendar] = []


# ----------------------------------------------------------------------------- the interface


def season_of(calendar: CampaignCalendar | None, clock_hours: int) -> str:
    """The season of campaign hour ``clock_hours`` (``winter``, ``spring``, ...).

    Without a calendar: the Gregorian calendar's season with day 1 as 1 January.
    """
    if calendar is None:
        if not _SEASONS_WITHOUT_CALENDAR:
            _SEASONS_WITHOUT_CALENDAR.append(_default_gregorian())
        calendar = _SEASONS_WITHOUT_CALENDAR[0]
    _, month, _ = calendar.date_at(clock_hours)
    return calendar.definition.months[month].season


def calendar_seasons(calendar: CampaignCalendar | None) -> tuple[str, ...]:
    """The seasons the calendar's months fall in, first month first: the seasons the
    weather reads (R61); without a calendar, the default Gregorian's (:func:`season_of`)."""
    if calendar is None:
        if not _SEASONS_WITHOUT_CALENDAR:
            _SEASONS_WITHOUT_CALENDAR.append(_default_gregorian())
        calendar = _SEASONS_WITHOUT_CALENDAR[0]
    return tuple(dict.fromkeys(m.season for m in calendar.definition.months))


def daylight(calendar: CampaignCalendar | None, clock_hours: int) -> tuple[int, int]:
    """(dawn hour, dusk hour) of the day of ``clock_hours``: by season from the calendar,
    06:00 and 18:00 without one."""
    if calendar is None:
        return DAWN_HOUR, DUSK_HOUR
    return calendar.definition.daylight(season_of(calendar, clock_hours))


def is_night(calendar: CampaignCalendar | None, clock_hours: int) -> bool:
    """Night in every ruling (R71's below deck, R74's search, R93's encounter chance): from
    dusk to dawn as `voyage calendar` shows them, 18:00 to 06:00 without a calendar."""
    dawn, dusk = daylight(calendar, clock_hours)
    return not dawn <= clock_hours % 24 < dusk


def dawn_hour(calendar: CampaignCalendar | None, clock_hours: int) -> int:
    """The hour of dawn on the day of ``clock_hours``."""
    return daylight(calendar, clock_hours)[0]


def dusk_hour(calendar: CampaignCalendar | None, clock_hours: int) -> int:
    """The hour of dusk on the day of ``clock_hours``."""
    return daylight(calendar, clock_hours)[1]


def is_dawn(calendar: CampaignCalendar | None, clock_hours: int) -> bool:
    """Whether ``clock_hours`` is the hour of dawn (``voyage advance --until dawn``)."""
    return clock_hours % 24 == dawn_hour(calendar, clock_hours)


def is_dusk(calendar: CampaignCalendar | None, clock_hours: int) -> bool:
    """Whether ``clock_hours`` is the hour of dusk (``voyage advance --until dusk``)."""
    return clock_hours % 24 == dusk_hour(calendar, clock_hours)


def format_date(calendar: CampaignCalendar | None, clock_hours: int) -> str:
    """The day of ``clock_hours``: ``12 Jun 1492``, or ``Day 3`` without a calendar."""
    if calendar is None:
        return f"Day {max(0, clock_hours) // 24 + 1}"
    year, month, day = calendar.date_at(clock_hours)
    return f"{day} {calendar.definition.months[month].short} {year}"


def format_day(calendar: CampaignCalendar | None, clock_hours: int) -> str:
    """The day of ``clock_hours`` short, for a mark on a picture: ``3 Jun`` (no year), or
    ``Day 3`` without a calendar."""
    if calendar is None:
        return format_date(None, clock_hours)
    _, month, day = calendar.date_at(clock_hours)
    return f"{day} {calendar.definition.months[month].short}"


def format_days(calendar: CampaignCalendar | None, first: int, last: int) -> str:
    """Days ``first`` to ``last`` (clock hours) short: ``Day 3-5``, ``3-5 Jun``,
    ``30 Jun-2 Jul`` (one day alone as :func:`format_day`)."""
    a, b = format_day(calendar, first), format_day(calendar, last)
    if a == b:
        return a
    if calendar is None:
        return f"{a}-{b.removeprefix('Day ')}"
    day_a, month_a = a.split(" ", 1)
    month_b = b.split(" ", 1)[1]
    return f"{day_a}-{b}" if month_a == month_b else f"{a}-{b}"


def format_time(calendar: CampaignCalendar | None, clock_hours: int | None, minute: int = 0) -> str:
    """THE way a time is shown to a person: ``12 Jun 1492, 14:37`` or ``Day 3, 14:37``
    (``-`` for no time at all)."""
    if clock_hours is None:
        return "-"
    return f"{format_date(calendar, clock_hours)}, {clock_hours % 24:02d}:{int(minute):02d}"


def choose_calendar(book: RuleBook, start: str | None, name: str | None) -> CampaignCalendar | None:
    """The calendar ``voyage init`` asks for: ``--start`` in ``--calendar`` (default
    Gregorian); only ``--calendar``: its first day of year 1; neither: no calendar."""
    if start is None and name is None:
        return None
    definition = calendar_definition(book, name or DEFAULT_CALENDAR)
    if start is None:
        return first_day(definition)
    return parse_start(definition, start)


def calendar_info(calendar: CampaignCalendar | None, clock_hours: int) -> dict[str, Any]:
    """What ``voyage calendar`` shows: the date now, season, dawn, dusk, the months."""
    dawn, dusk = daylight(calendar, clock_hours)
    info: dict[str, Any] = {
        "clock": clock_hours,
        "time": format_time(calendar, clock_hours),
        "season": season_of(calendar, clock_hours),
        "dawn": dawn,
        "dusk": dusk,
        "calendar": None,
    }
    if calendar is not None:
        d = calendar.definition
        info["calendar"] = {
            "key": d.key,
            "name": d.name,
            "start": calendar.start_text(),
            "months": [
                {"name": m.name, "short": m.short, "days": m.days, "season": m.season}
                for m in d.months
            ],
            "seasons": {s: {"dawn": a, "dusk": b} for s, a, b in d.seasons},
            "leap": None,
        }
        if d.leap_month is not None:
            year = calendar.date_at(clock_hours)[0]
            info["calendar"]["leap"] = {
                "month": d.months[d.leap_month].name,
                "every": d.leap_every,
                "skip_every": d.leap_skip_every or None,
                "keep_every": d.leap_keep_every or None,
                "this_year": d.is_leap(year),
            }
    return info


def leap_text(leap: dict[str, Any], year: int) -> str:
    """``voyage calendar``'s leap line: ``Leap years: every 4 years (not every 100, but
    every 400), February has a day more; year 1492 is one.``"""
    rule = f"every {leap['every']} years" if leap["every"] != 1 else "every year"
    if leap["skip_every"]:
        rule += f" (not every {leap['skip_every']}"
        rule += f", but every {leap['keep_every']})" if leap["keep_every"] else ")"
    this = "is one" if leap["this_year"] else "is not"
    return f"Leap years: {rule}, {leap['month']} has a day more; year {year} {this}."
