"""The weather of a campaign (R60-R63): its sea states, forecasts, `show` and rerolls.

Rolled days are recomputed from their own streams (R63) whenever they are needed; the
campaign keeps only the referee's reroll counts (``weather_rerolls``, restored by undo) and
the referee's storms (``storms``). So `voyage weather forecast`, `voyage advance` and
`voyage undo`, in any order, always see the same weather.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from voyage.base.errors import MapError, VoyageError, quoted
from voyage.dice.events import Event
from voyage.map import hexes as hexmap
from voyage.map.regions import find_region
from voyage.store.calendarrow import campaign_calendar, clock_text
from voyage.store.logrows import log_event
from voyage.store.mapstore import (
    current_map,
    sea_states_for,
    set_reroll_count,
    weather_rerolls,
)
from voyage.tables.calendar import LATEST_YEAR, format_date, format_time, parse_start
from voyage.tables.world import SEA_STATES
from voyage.world.cells import STATE_WORDS, roll_hour

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign


class WeatherError(VoyageError):
    """A weather command that cannot be done as asked (one line says why and the fix)."""


# -- times ---------------------------------------------------------------------------------
# re.ASCII: only 0-9 are digits ("day ٣" is not day 3); at most six digits a day or a
# stretch ahead (2,700 years), so no typo reaches SQLite as a number too large for it
# The day and its hour need a space or a comma between them: "day 9999999" was read as
# day 999999 at 09:00. Longer numbers are matched, then refused as out of range.
_DAY = re.compile(r"^day\s*(\d+)(?:(?:\s*,\s*|\s+)(\d{1,2})(?::(\d{2}))?)?$", re.ASCII)
_HOUR = re.compile(r"^(\d{1,2}):(\d{2})$", re.ASCII)
_AHEAD = re.compile(r"^([+-])(\d+)\s*([hd]?)$", re.ASCII)
LAST_DAY = 999_999  # six digits


def _in_range(text: str, digits: str, option: str, what: str) -> int:
    """A day number or a stretch ahead of at most six digits; one line when longer."""
    if len(digits.lstrip("0")) > 6:
        raise WeatherError(
            f"{option} {quoted(text)} is out of range: {what} runs to {LAST_DAY:,} at most"
        )
    return int(digits)


def parse_when(text: str, now: int, calendar: Any = None, option: str = "--at") -> int:
    """A campaign hour from ``now``, ``day 3``, ``day 3, 14:00``, ``14:00`` (today),
    ``+6h`` / ``+2d`` (ahead), ``-6h`` / ``-2d`` (back) or, in a campaign with a calendar,
    a date (``12 Jun 1492, 14:00`` or ``1492-06-12 14:00``; without a year, ``12 Jun``, in
    the campaign's current year: the year of ``now``); never before the campaign began."""
    raw = text.strip().lower()
    hour: int | None = None
    if raw in ("now", ""):
        hour = now
    elif m := _DAY.match(raw):
        day = _in_range(text, m.group(1), option, "a day number")
        hh = int(m.group(2) or 0)
        _check_minute(text, m.group(3), option)
        if day < 1:
            raise WeatherError(
                f"{option} {quoted(text)} is before the campaign began (day 1, 00:00): days "
                "count from 1"
            )
        if hh > 23:
            raise WeatherError(f"{option} {quoted(text)}: an hour runs from 00 to 23")
        hour = (day - 1) * 24 + hh
    elif m := _HOUR.match(raw):
        hh = int(m.group(1))
        if hh > 23:
            raise WeatherError(f"{option} {quoted(text)}: an hour runs from 00 to 23")
        _check_minute(text, m.group(2), option)
        hour = now // 24 * 24 + hh
    elif m := _AHEAD.match(raw):
        # "+6h" ahead of now, "-6h" back from it ("journal --since -12h": the last 12 hours)
        ahead = _in_range(text, m.group(2), option, "a stretch ahead or back")
        hour = now + (-1 if m.group(1) == "-" else 1) * ahead * (24 if m.group(3) == "d" else 1)
    elif calendar is not None and (
        (found := _calendar_hour(text, calendar, option, now)) is not None
    ):
        hour = found
    else:
        # the example date in the campaign's own calendar: now, as every time is written
        dated = f" or a date like '{_date_example(calendar, now)}'" if calendar is not None else ""
        raise WeatherError(
            f"{option} {quoted(text)}: write now, 'day 3', 'day 3, 14:00', '14:00', '+6h' / '+2d' "
            "(ahead) or '-6h' / '-2d' (back)" + dated
        )
    if hour < 0:
        began = f" ({calendar.start_text()})" if calendar is not None else " (day 1, 00:00)"
        raise WeatherError(f"{option} {quoted(text)} is before the campaign began{began}")
    return hour


def _date_example(calendar: Any, now: int) -> str:
    """Now in the campaign's calendar, as a date a person can type back ('1 Highsun 1042,
    14:00' in the Reckoning, '12 Jun 1492, 14:00' in the Gregorian)."""

    return str(format_time(calendar, now))


def _check_minute(text: str, minute: str | None, option: str) -> None:
    """The sea is worked out by the hour, so a time's minutes are read and let go; but a
    minute past 59 is a typo, refused rather than read as the hour ('14:61')."""
    if minute is not None and int(minute) > 59:
        raise WeatherError(f"{option} {quoted(text)}: a minute runs from 00 to 59")


_AT_TIME = re.compile(r"^(.*?)[,\s]+(\d{1,2}):(\d{2})$", re.ASCII)
# a date without its year ("1 Highsun", "3rd of Jun"): a day, then words with no digit
_NO_YEAR = re.compile(r"^(\d{1,4})(?:st|nd|rd|th)?\s+(?:of\s+)?([^\d,]+?)$", re.I | re.ASCII)


def _calendar_hour(
    text: str, calendar: Any, option: str = "--at", now: int | None = None
) -> int | None:
    """The campaign hour of a calendar date and time (None when it is not a date at all;
    WeatherError when the calendar has no such date). A date without a year ("3 Jun") is
    in the campaign's current year, the year of ``now``; one that falls before the
    campaign began that way is refused, naming the year to add."""

    raw = " ".join(text.split())
    hh = 0
    if m := _AT_TIME.match(raw):
        raw, hh = m.group(1).strip().rstrip(","), int(m.group(2))
        if hh > 23:
            raise WeatherError(f"{option} {quoted(text)}: an hour runs from 00 to 23")
        _check_minute(text, m.group(3), option)
    if not any(ch.isdigit() for ch in raw):
        return None

    yearless = _NO_YEAR.match(raw) if now is not None else None
    if yearless:
        raw = f"{raw} {calendar.date_at(now)[0]}"
    try:
        date = parse_start(calendar.definition, raw, LATEST_YEAR)
    except VoyageError as exc:
        if "is not a date" in str(exc) and "days in" not in str(exc):
            return None
        raise WeatherError(f"{option} {quoted(text)}: {exc}") from None
    days = _ordinal(calendar.definition, date) - _ordinal(calendar.definition, calendar)
    if days >= LAST_DAY:  # as 'day N': no typo reaches SQLite as a number too large for it
        raise WeatherError(
            f"{option} {quoted(text)} is out of range: it is day {days + 1:,} of the campaign, "
            f"which runs to day {LAST_DAY:,} at most"
        )
    if yearless and days < 0:
        raise WeatherError(
            f"{option} {quoted(text)} is before the campaign began ({calendar.start_text()}), "
            f"read in this year ({raw}): give the year, e.g. '{raw.rsplit(' ', 1)[0]} "
            f"{int(raw.rsplit(' ', 1)[1]) + 1}'"
        )
    return days * 24 + hh


def _ordinal(definition: Any, date: Any) -> int:
    """Days from the calendar's year 1 to ``date`` (a CampaignCalendar's year/month/day)."""
    days = definition.days_before(date.year)
    days += sum(definition.month_days(date.year, m) for m in range(date.month))
    return days + date.day


def date_text(camp: Campaign, hour: int) -> str:
    """The day of ``hour`` as the campaign shows it (``12 Jun 1492`` or ``Day 3``)."""

    return format_date(campaign_calendar(camp), hour)


def when_text(camp: Campaign, hour: int) -> str:
    """The campaign's one time format (``12 Jun 1492, 14:00`` or ``Day 3, 14:00``)."""

    return clock_text(camp, hour)


# -- forecast and show ---------------------------------------------------------------------
def forecast(camp: Campaign, days: int, start_day: int | None = None) -> dict[str, Any]:
    """What the referee knows of the next ``days`` days (from today): each region's roll,
    the cells that form or blow, their tracks and the worst sea state of each day."""
    if days < 1 or days > 366:
        raise WeatherError(f"--days {days}: forecast 1 to 366 days")
    sea = sea_states_for(camp)
    today = camp.clock // 24 + 1 if start_day is None else start_day
    if today < 1:
        raise WeatherError("the forecast starts on day 1 or later")
    out_days = []
    width, height = sea.width, sea.height
    for day in range(today, today + days):
        first, end = (day - 1) * 24, day * 24
        regions = []
        for name in sea.regions:
            dw = sea.day(name, day) if sea.rolled else None
            cells = [c for c in sea.cells_between(first, end) if c.region == name]
            worst = 0
            for hour in range(first, end):
                levels = sea.levels(hour)
                region = sea.regions[name]
                worst = max([worst, *(v for h, v in levels.items() if h in region.hexes)])
            regions.append(
                {
                    "region": name,
                    "climate": sea.regions[name].climate,
                    "roll": None if dw is None else dw.to_dict(width, height),
                    "blowing": [c.name for c in cells],
                    "worst": SEA_STATES[worst],
                    "worst_text": STATE_WORDS[SEA_STATES[worst]],
                }
            )
        out_days.append(
            {
                "day": day,
                "date": date_text(camp, first),
                "season": sea.season(day),
                "regions": regions,
            }
        )
    cells = sea.cells_between((today - 1) * 24, (today + days - 1) * 24)
    return {
        "from": when_text(camp, (today - 1) * 24),
        "days": out_days,
        "cells": [c.to_dict(width, height) for c in cells],
        "rolled_weather": sea.rolled,
    }


def show(camp: Campaign, hour: int) -> dict[str, Any]:
    """The sea at ``hour``: the cells and storms blowing, and the hexes by sea state."""
    sea = sea_states_for(camp)
    levels = sea.levels(hour)
    by_state: dict[str, list[str]] = {s: [] for s in SEA_STATES[1:]}

    for name in sorted(levels, key=hexmap.parse_hex):
        by_state[SEA_STATES[levels[name]]].append(name)
    cells = []
    for c in sea.cells_between(hour, hour + 1):
        data = c.to_dict()
        data["centre"] = c.centre_name(hour, sea.width, sea.height)
        cells.append(data)
    storms = [
        {
            "storm": s.storm,
            "state": SEA_STATES[s.level],
            "hexes": sorted(s.footprint(hour, sea.width, sea.height), key=hexmap.parse_hex),
            "start_hour": s.start_hour,
            "end_hour": s.end_hour,
            "moving": s.moving,
            "every": s.every if s.moving else None,
        }
        for s in sea.storms
        if s.start_hour <= hour < s.end_hour
    ]
    day = hour // 24 + 1
    rolls = {name: sea.day(name, day).to_dict() for name in sea.regions} if sea.rolled else {}
    return {
        "hour": hour,
        "at": when_text(camp, hour),
        "season": sea.season(day),
        "regions": {
            name: {"climate": r.climate, "hexes": len(r.hexes)} for name, r in sea.regions.items()
        },
        "today": rolls,
        "cells": cells,
        "storms": storms,
        "hexes": by_state,
    }


def weather_lines(camp: Campaign, start: int, end: int) -> list[str]:
    """One line per storm cell that formed from hour ``start`` to ``end`` (R61, R62)."""
    return [line for _, line in weather_moments(camp, start, end)]


def weather_moments(camp: Campaign, start: int, end: int) -> list[tuple[int, str]]:
    """:func:`weather_lines`, each with the hour its cell formed (``advance`` prints them
    among the ships' events, in the order they happened)."""
    if end <= start or not camp.settings.get("rolled_weather", True):
        return []

    try:
        sea = sea_states_for(camp)
    except MapError:
        return []
    out = []
    for cell in sea.cells_between(start, end):
        if start <= cell.start_hour < end:
            text = sea.day(cell.region, cell.day).text
            line = f"{when_text(camp, cell.start_hour)}  weather, {cell.region}: {text}."
            out.append((cell.start_hour, line))
    return out


# -- reroll ---------------------------------------------------------------------------------
def reroll(camp: Campaign, day: int, region: str | None = None) -> list[dict[str, Any]]:
    """Roll ``day`` again for one region or all (R63: the next stream of that day); one
    logged, undoable action. Only days already rolled (06:00 has come) can be rerolled."""

    if day < 1:
        raise WeatherError(f"day {day}: days count from 1")
    if roll_hour(day) > camp.clock:
        raise WeatherError(
            f"day {day} has not been rolled yet: its weather is rolled at 06:00 that day and "
            f"the campaign is at {when_text(camp, camp.clock)}; `voyage weather forecast` shows it"
        )
    if not camp.settings.get("rolled_weather", True):
        raise WeatherError(
            "rolled weather is off in this campaign: `voyage settings rolled_weather true`"
        )
    sea_map = current_map(camp)
    regions = sea_map.weather_regions()
    names = [find_region(regions, region).name] if region else list(regions)
    before = sea_states_for(camp, sea_map)
    counts = weather_rerolls(camp)
    changed = []
    with camp.action("weather reroll", f"reroll day {day} ({', '.join(names)})") as act:
        for name in names:
            count = counts.get((name, day), 0) + 1
            set_reroll_count(camp, name, day, count)
            old = before.day(name, day)
            after = sea_states_for(camp, sea_map).day(name, day)
            text = (
                f"Weather of {date_text(camp, (day - 1) * 24)} in {name} rerolled (R63): "
                f"was {old.text}; now {after.text}."
            )
            log_event(camp, act, None, None, Event("weather", text, list(after.rolls), 0, {}))
            changed.append(
                {
                    "region": name,
                    "day": day,
                    "reroll": count,
                    "was": old.to_dict(),
                    "now": after.to_dict(),
                }
            )
    return changed
