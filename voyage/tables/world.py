"""The world's tables, checked like the rest (voyage.tables.rulebook): climates (R61: a row per
season with every 2d6 face explicit, wind, cells and what each sea state does) and calendars
(months, their lengths and seasons, dawn and dusk)."""

from __future__ import annotations

from typing import Any

from voyage.dice.roller import parse
from voyage.tables.checker import Checker, face_ranges

#: R60: the sea states, calmest first; a cell's outer ring is one state lower (R62).
SEA_STATES = ("calm", "stormy", "major", "hurricane")
#: R61: the hex sides a wind can blow from (flat-topped hexes, R30).
WIND_SIDES = ("N", "NE", "SE", "S", "SW", "NW")


def check_climates(data: Any, c: Checker) -> dict[str, Any]:
    """R60-R62: climates (a 2d6 row per season), wind, cells, drift and sea states."""
    c.mapping(data, "", {"climates", "wind", "cells", "drift", "sea_states"})
    climates = data["climates"]
    if not isinstance(climates, dict) or not climates:
        raise c.fail("climates", "expected a mapping of climate name -> climate")
    storms = SEA_STATES[1:]
    out: dict[str, Any] = {}
    for name, climate in climates.items():
        where = f"climates.{name}"
        c.mapping(climate, where, {"seasons"}, {"description", "season_names"})
        seasons = climate["seasons"]
        if not isinstance(seasons, dict) or not seasons:
            raise c.fail(f"{where}.seasons", "expected a mapping of season name -> 2d6 row")
        rows: dict[str, list[tuple[int, int, str]]] = {}
        for season, row in seasons.items():
            skey = f"{where}.seasons.{season}"
            entries = face_ranges(c, row, skey, 2, 12, "2d6")
            for i, (_, _, value) in enumerate(entries):
                if value not in ("fair", *storms):
                    raise c.fail(
                        f"{skey}[{i}].value",
                        f"unknown weather {value!r}: use fair, {', '.join(storms)}",
                    )
            rows[str(season)] = entries
        names = climate.get("season_names") or {}
        if not isinstance(names, dict):
            raise c.fail(f"{where}.season_names", "expected a mapping of season -> row name")
        for season, row_name in names.items():
            if row_name not in rows:
                raise c.fail(
                    f"{where}.season_names.{season}",
                    f"no season row {row_name!r} (rows: {', '.join(rows)})",
                )
        out[str(name)] = {
            "name": str(name),
            "description": str(climate.get("description") or ""),
            "seasons": rows,
            "season_names": {str(k): str(v) for k, v in names.items()},
        }
    wind = face_ranges(c, data["wind"], "wind")
    for i, (_, _, side) in enumerate(wind):
        if side not in WIND_SIDES:
            raise c.fail(f"wind[{i}].value", f"unknown side {side!r}: use {' '.join(WIND_SIDES)}")
    cells = c.mapping(data["cells"], "cells", set(storms))
    for state in storms:
        spec = c.mapping(cells[state], f"cells.{state}", {"radius", "hours"})
        c.dice(spec["radius"], f"cells.{state}.radius")
        c.dice(spec["hours"], f"cells.{state}.hours")
        lowest_radius = parse(spec["radius"])
        if lowest_radius.count + lowest_radius.bonus < 0:
            raise c.fail(f"cells.{state}.radius", "a radius can never be below 0")
        lowest_hours = parse(spec["hours"])
        if lowest_hours.count + lowest_hours.bonus < 1:
            raise c.fail(f"cells.{state}.hours", "a cell must blow at least 1 hour")
    drift = face_ranges(c, data["drift"], "drift")
    for i, (_, _, every) in enumerate(drift):
        c.integer(every, f"drift[{i}].value", 0)
    sea_states = c.mapping(data["sea_states"], "sea_states", set(storms))
    for state in storms:
        spec = c.mapping(
            sea_states[state],
            f"sea_states.{state}",
            {"label", "disadvantages", "hours_in_same_hex"},
        )
        c.typed(spec["label"], f"sea_states.{state}.label", str, "a name")
        c.integer(spec["disadvantages"], f"sea_states.{state}.disadvantages", 0)
        c.integer(spec["hours_in_same_hex"], f"sea_states.{state}.hours_in_same_hex", 1)
    return {
        "climates": out,
        "wind": wind,
        "cells": {s: dict(cells[s]) for s in storms},
        "drift": drift,
        "sea_states": {s: dict(sea_states[s]) for s in storms},
    }


def check_calendars(data: Any, c: Checker) -> dict[str, Any]:
    """Calendars: months (name, short, days >= 1, season) and seasons (dawn, dusk hours)."""
    c.mapping(data, "", {"calendars"})
    cals = data["calendars"]
    if not isinstance(cals, dict) or not cals:
        raise c.fail("calendars", "expected a mapping of calendar key -> calendar")
    out: dict[str, Any] = {}
    for key, cal in cals.items():
        where = f"calendars.{key}"
        c.mapping(cal, where, {"name", "months", "seasons"}, {"description", "leap"})
        c.typed(cal["name"], f"{where}.name", str, "a name")
        seasons = cal["seasons"]
        if not isinstance(seasons, dict) or not seasons:
            raise c.fail(f"{where}.seasons", "give at least one season with its dawn and dusk")
        checked_seasons: dict[str, dict[str, int]] = {}
        for season, hours in seasons.items():
            at = f"{where}.seasons.{season}"
            c.mapping(hours, at, {"dawn", "dusk"})
            dawn = c.integer(hours["dawn"], f"{at}.dawn", 0, 23)
            dusk = c.integer(hours["dusk"], f"{at}.dusk", 0, 23)
            if dusk <= dawn:
                raise c.fail(at, f"dusk ({dusk}) must come after dawn ({dawn})")
            checked_seasons[str(season)] = {"dawn": dawn, "dusk": dusk}
        months = cal["months"]
        if not isinstance(months, list) or not months:
            raise c.fail(f"{where}.months", "expected a list of months")
        names: set[str] = set()
        checked_months = []
        for i, month in enumerate(months):
            at = f"{where}.months[{i}]"
            c.mapping(month, at, {"name", "days", "season"}, {"short"})
            name = c.typed(month["name"], f"{at}.name", str, "a name")
            short = c.typed(month.get("short", name), f"{at}.short", str, "a short name")
            days = c.typed(month["days"], f"{at}.days", int, "a whole number of days")
            if days < 1:
                raise c.fail(f"{at}.days", f"month {name} has {days} days: give it at least 1")

            if month["season"] not in checked_seasons:
                raise c.fail(
                    f"{at}.season",
                    f"unknown season {month['season']!r}: use one of {', '.join(checked_seasons)}",
                )
            for word in {name.lower(), short.lower()}:
                if word in names:
                    raise c.fail(f"{at}.name", f"month name {word!r} is used twice")
                names.add(word)
            checked_months.append(
                {"name": name, "short": short, "days": days, "season": month["season"]}
            )
        leap = cal.get("leap")
        if leap is not None:
            c.mapping(leap, f"{where}.leap", {"month", "every"}, {"skip_every", "keep_every"})
            if leap["month"] not in [m["name"] for m in checked_months]:
                raise c.fail(f"{where}.leap.month", f"no month {leap['month']!r} in {cal['name']}")
            for part in ("every", "skip_every", "keep_every"):
                if part in leap:
                    c.integer(leap[part], f"{where}.leap.{part}", 1)
        out[str(key)] = {
            "key": str(key),
            "name": cal["name"],
            "description": str(cal.get("description") or "").strip(),
            "seasons": checked_seasons,
            "months": checked_months,
            "leap": dict(leap) if leap else None,
        }
    return out


#: A calendar's limits: days a month, months a year, years between leap days. Beyond them a
#: calendar is a typo (a 100,000-day month), refused naming the key and the fix. They are
#: checked where new tables come in (`voyage init --tables`, `voyage tables load`), not in
#: the tables a campaign already keeps, so a campaign made before them still opens.
MONTH_DAYS_MOST = 1000
MONTHS_MOST = 100
LEAP_EVERY_MOST = 100_000


def check_calendar_limits(calendars: dict[str, Any], where: Any) -> None:
    """New house calendars (validated) within :data:`MONTH_DAYS_MOST`, :data:`MONTHS_MOST`
    and :data:`LEAP_EVERY_MOST`; else one TableError naming ``where``, the key and the fix."""
    c = Checker(where)
    for key, cal in calendars.items():
        months = cal["months"]
        if len(months) > MONTHS_MOST:
            raise c.fail(
                f"calendars.{key}.months", f"{len(months):,} months: give at most {MONTHS_MOST}"
            )
        for i, month in enumerate(months):
            if month["days"] > MONTH_DAYS_MOST:
                raise c.fail(
                    f"calendars.{key}.months[{i}].days",
                    f"month {month['name']} has {month['days']:,} days: give it at most "
                    f"{MONTH_DAYS_MOST:,} (room for a whole year as one month)",
                )
        for part, every in (cal.get("leap") or {}).items():
            if part != "month" and every > LEAP_EVERY_MOST:
                raise c.fail(
                    f"calendars.{key}.leap.{part}",
                    f"expected at most {LEAP_EVERY_MOST}, found {every}",
                )
