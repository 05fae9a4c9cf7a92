"""Rolled weather (R61) and storm cells (R62), from the weather's own dice stream (R63).

:func:`roll_day` is a pure function of (campaign seed, region, day, reroll count) and the
tables: it seeds a :class:`~voyage.dice.roller.Roller` from a SHA-256 of that tuple (never
``hash()``, which changes from run to run, and never the campaign's main roller), so a
forecast, a late roll and a roll after an undo all give the same day, and the weather never
shifts another roll. The rolls are kept on the result (R4) so a referee can re-check them.

A :class:`StormCell` knows where it is at every hour: it forms at 06:00 on its day over a
random open-sea hex of its region, blows for its hours, and drifts one hex downwind on its
schedule (possibly off the map); its hexes within the radius are storm-tossed, the outer
ring of a major storm or hurricane one state lower (R62).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from voyage.base.errors import TableError
from voyage.dice.roller import Roll, Roller, parse
from voyage.map import hexes as hexmap
from voyage.tables.rulebook import RuleBook
from voyage.tables.world import SEA_STATES, WIND_SIDES

#: R61: the daily roll happens at 06:00.
ROLL_HOUR = 6
#: Sea state names (R60) by level: 0 calm, 1 stormy seas, 2 major storm, 3 hurricane.
LEVEL = {name: i for i, name in enumerate(SEA_STATES)}


def roll_hour(day: int) -> int:
    """The campaign hour at which day ``day``'s weather is rolled (06:00, R61)."""
    return (day - 1) * 24 + ROLL_HOUR


def stream_seed(seed: int, purpose: str, *key: object) -> int:
    """A stable 64-bit seed for an independent dice stream (R63): SHA-256 of the tuple."""
    text = "|".join(["voyage", purpose, str(seed), *(str(k) for k in key)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def downwind(wind_from: str) -> int:
    """Index in :data:`voyage.map.hexes.CUBE_DIRECTIONS` of the way a wind from a side blows."""
    return (WIND_SIDES.index(wind_from) + 3) % 6


@dataclass(frozen=True)
class StormCell:
    """One storm cell (R62): where and when it forms, how big, how long, how it drifts."""

    region: str
    day: int
    state: str
    origin: str
    radius: int
    start_hour: int
    hours: int
    wind: str
    drift_every: int
    _origin_cube: tuple[int, int, int] = field(default=(0, 0, 0), repr=False, compare=False)

    @property
    def name(self) -> str:
        """``north/5``: the region and the day it formed."""
        return f"{self.region}/{self.day}"

    @property
    def end_hour(self) -> int:
        """The first hour it no longer blows (it blows ``start_hour <= h < end_hour``)."""
        return self.start_hour + self.hours

    @property
    def label(self) -> str:
        """The sea state in words (R60)."""
        return STATE_WORDS[self.state]

    def blowing(self, hour: int) -> bool:
        """Whether the cell blows at ``hour``."""
        return self.start_hour <= hour < self.end_hour

    def steps(self, hour: int) -> int:
        """Hexes drifted by ``hour`` (R62: one every ``drift_every`` hours, 0 = stays put)."""
        if not self.drift_every or hour <= self.start_hour:
            return 0
        return (hour - self.start_hour) // self.drift_every

    def centre(self, hour: int) -> tuple[int, int, int]:
        """The cell's centre at ``hour`` as a cube coordinate (may be off the map)."""
        n = self.steps(min(hour, self.end_hour - 1))
        d = hexmap.CUBE_DIRECTIONS[downwind(self.wind)]
        q, r, s = self._origin_cube
        return q + d[0] * n, r + d[1] * n, s + d[2] * n

    def centre_name(self, hour: int, width: int, height: int) -> str | None:
        """The centre's hex name at ``hour``, None when it has drifted off the map."""
        col, row = hexmap.cube_to_offset(self.centre(hour))
        if 1 <= col <= width and 1 <= row <= height:
            return hexmap.hex_name(col, row)
        return None

    def footprint(self, hour: int, width: int, height: int) -> dict[str, int]:
        """Hex -> sea-state level at ``hour`` (empty when not blowing); R62 outer ring."""
        if not self.blowing(hour):
            return {}
        return footprint(self.centre(hour), self.radius, LEVEL[self.state], width, height)

    def to_dict(self, width: int | None = None, height: int | None = None) -> dict[str, Any]:
        """JSON-ready: the cell and, given the map size, its track (centre every hour it
        moves, None off the map)."""
        data: dict[str, Any] = {
            "cell": self.name,
            "region": self.region,
            "day": self.day,
            "state": self.state,
            "sea_state": self.label,
            "origin": self.origin,
            "radius": self.radius,
            "start_hour": self.start_hour,
            "end_hour": self.end_hour,
            "hours": self.hours,
            "wind_from": self.wind,
            "drift_to": WIND_SIDES[downwind(self.wind)],
            "drift_every_hours": self.drift_every,
        }
        if width is not None and height is not None:
            data["track"] = self.track(width, height)
        return data

    def track(self, width: int, height: int) -> list[dict[str, Any]]:
        """Where its centre is from its first hour, and after each drift (R62)."""
        points = [
            {"hour": self.start_hour, "centre": self.centre_name(self.start_hour, width, height)}
        ]
        if self.drift_every:
            hour = self.start_hour + self.drift_every
            while hour < self.end_hour:
                points.append({"hour": hour, "centre": self.centre_name(hour, width, height)})
                hour += self.drift_every
        return points


STATE_WORDS = {
    "calm": "calm",
    "stormy": "stormy seas",
    "major": "major storm",
    "hurricane": "hurricane",
}


def footprint(
    centre: tuple[int, int, int], radius: int, level: int, width: int, height: int
) -> dict[str, int]:
    """Hexes within ``radius`` of ``centre`` on the map at ``level``; for a major storm or
    a hurricane the outer ring (radius >= 1) is one level lower (R62)."""
    out: dict[str, int] = {}
    for cube in hexmap.cube_within(centre, radius):
        col, row = hexmap.cube_to_offset(cube)
        if 1 <= col <= width and 1 <= row <= height:
            ring = hexmap.cube_distance(cube, centre)
            out[hexmap.hex_name(col, row)] = (
                level - 1 if level >= 2 and radius >= 1 and ring == radius else level
            )
    return out


@dataclass(frozen=True)
class DayWeather:
    """One region's roll for one day (R61): the season row, the wind, and any new cell."""

    region: str
    climate: str
    day: int
    reroll: int
    season: str
    row: str
    total: int
    weather: str
    wind: str
    cell: StormCell | None
    rolls: tuple[Roll, ...] = ()

    @property
    def text(self) -> str:
        """``fair, wind from NW``, or the cell that forms: where, how big, how long, drift."""
        if self.cell is None:
            return f"fair, wind from {self.wind}"
        c = self.cell
        drift = (
            f"drifts {WIND_SIDES[downwind(c.wind)]} every {c.drift_every} h"
            if c.drift_every
            else "stays put"
        )
        return (
            f"{c.label} forms at {c.origin} (radius {c.radius}, {c.hours} h, wind from "
            f"{c.wind}, {drift})"
        )

    def to_dict(self, width: int | None = None, height: int | None = None) -> dict[str, Any]:
        """JSON-ready, with the rolls (R4)."""
        return {
            "region": self.region,
            "climate": self.climate,
            "day": self.day,
            "reroll": self.reroll,
            "season": self.season,
            "season_row": self.row,
            "roll": self.total,
            "weather": self.weather,
            "wind_from": self.wind,
            "text": self.text,
            "cell": None if self.cell is None else self.cell.to_dict(width, height),
            "rolls": [r.line() for r in self.rolls],
        }


def season_row(climate: dict[str, Any], season: str, region: Any = None) -> str:
    """The climate's row for a calendar season: the region's mapping, else the row of that
    name, else the climate's own mapping."""
    mapped_by_region = dict(getattr(region, "season_names", ()) or ())
    if season in mapped_by_region:
        return mapped_by_region[season]
    if season in climate["seasons"]:
        return season
    mapped = climate["season_names"].get(season)
    if mapped:
        return str(mapped)
    raise TableError(
        f"climate {climate['name']} has no row for the season {season!r}: add one under "
        f"climates.{climate['name']}.seasons, or map it with season_names"
    )


def _face_value(entries: list[tuple[int, int, Any]], face: int) -> Any:
    for first, last, value in entries:
        if first <= face <= last:
            return value
    raise AssertionError(f"face {face} is in no range (the table check makes this impossible)")


def _day_stream(
    seed: int, region: Any, day: int, season: str, book: RuleBook, reroll: int
) -> tuple[Any, Any, str, Roller]:
    """The climate tables, the region's climate and season row, and the day's own weather
    stream (R61: every region-day rolled from the campaign seed), for roll_day and
    roll_cell alike."""
    table = book.climates
    climate = table["climates"][region.climate]
    row = season_row(climate, season, region)
    return table, climate, row, Roller(stream_seed(seed, "weather", region.name, day, reroll))


def _cell(
    region: Any,
    day: int,
    weather: str,
    origin: str,
    radius: int,
    hours: int,
    wind: str,
    every: int,
) -> StormCell:
    """The storm cell of a region-day from its rolled figures (R62, R63)."""
    return StormCell(
        region=region.name,
        day=day,
        state=weather,
        origin=origin,
        radius=max(0, radius),
        start_hour=roll_hour(day),
        hours=max(1, hours),
        wind=wind,
        drift_every=every,
        _origin_cube=hexmap.to_cube(origin),
    )


def roll_day(
    seed: int,
    region: Any,
    day: int,
    season: str,
    book: RuleBook,
    reroll: int = 0,
) -> DayWeather:
    """R61-R63: the weather of ``day`` in ``region`` (a voyage.map.regions.Region), rolled
    from its own stream; the same arguments always give the same day."""
    table, climate, row, roller = _day_stream(seed, region, day, season, book, reroll)
    where = f"{region.name} day {day}"
    weather_roll = roller.roll(f"weather {where} ({climate['name']} {row})", "2d6")
    weather = str(_face_value(climate["seasons"][row], weather_roll.total))
    weather_roll.outcome = STATE_WORDS.get(weather, weather)
    wind_roll = roller.roll(f"wind {where}", "d6")
    wind = str(_face_value(table["wind"], wind_roll.total))
    wind_roll.outcome = f"from {wind}"
    rolls = [weather_roll, wind_roll]
    cell = None
    if weather != "fair" and region.open_sea:
        spec = table["cells"][weather]
        if len(region.open_sea) > 1:
            origin, where_roll = roller.choose(f"cell hex {where}", region.open_sea)
            rolls.append(where_roll)
        else:
            origin = region.open_sea[0]
        radius_roll = roller.roll(f"cell radius {where}", spec["radius"])
        hours_roll = roller.roll(f"cell hours {where}", spec["hours"])
        drift_roll = roller.roll(f"cell drift {where}", "d6")
        every = int(_face_value(table["drift"], drift_roll.total))
        drift_roll.outcome = f"every {every} h" if every else "stays put"
        rolls += [radius_roll, hours_roll, drift_roll]
        cell = _cell(region, day, weather, origin, radius_roll.total, hours_roll.total, wind, every)
    return DayWeather(
        region.name,
        climate["name"],
        day,
        reroll,
        season,
        row,
        weather_roll.total,
        weather,
        wind,
        cell,
        tuple(rolls),
    )


def roll_cell(
    seed: int,
    region: Any,
    day: int,
    season: str,
    book: RuleBook,
    reroll: int = 0,
) -> StormCell | None:
    """``roll_day(...).cell`` without the day's records: the same dice from the same stream
    (R61-R63), drawn as :meth:`Roller.roll` draws them (its ``die``, one die after another),
    for the engine's sea, which asks every region every day and needs only the cells
    (tests/test_weather_rolls.py checks the two agree)."""
    table, climate, row, roller = _day_stream(seed, region, day, season, book, reroll)
    die = roller.die
    weather = str(_face_value(climate["seasons"][row], die(6) + die(6)))  # 2d6 (R61)
    wind = str(_face_value(table["wind"], die(6)))
    if weather == "fair" or not region.open_sea:
        return None
    spec = table["cells"][weather]
    open_sea = region.open_sea
    origin = open_sea[die(len(open_sea)) - 1] if len(open_sea) > 1 else open_sea[0]
    radius = _total(roller, spec["radius"])
    hours = _total(roller, spec["hours"])
    every = int(_face_value(table["drift"], die(6)))
    return _cell(region, day, weather, origin, radius, hours, wind, every)


def _total(roller: Roller, expression: str) -> int:
    """The total :meth:`Roller.roll` gives for ``expression`` (its dice, then its bonus)."""
    dice = parse(expression)
    return sum(roller.die(dice.sides) for _ in range(dice.count)) + dice.bonus


def longest_cell_hours(book: RuleBook) -> int:
    """The most hours any cell can blow (the highest total of the cells' hours dice)."""
    most = 1
    for spec in book.climates["cells"].values():
        dice = parse(spec["hours"])
        most = max(most, dice.count * dice.sides + dice.bonus)
    return most
