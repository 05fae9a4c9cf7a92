"""Sea states by hex and hour (R60): rolled cells (R61-R62) and the referee's storms.

:class:`SeaStates` answers "what is the sea state of hex H at hour T?" for the engine, the
map and the weather commands. Rolled days are recomputed from their streams (R63), never
stored: only the referee's reroll counts are kept (table ``weather_rerolls``), so forecast,
advance and undo agree in any order. Each hour's sea is worked out once and kept for the
next question, which is how the engine's lookups stay a dict access.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from voyage.map import hexes as hexmap
from voyage.map.cells import TERRAIN_CODE
from voyage.tables.rulebook import RuleBook
from voyage.tables.world import SEA_STATES, WIND_SIDES
from voyage.world.cells import (
    LEVEL,
    DayWeather,
    StormCell,
    footprint,
    longest_cell_hours,
    roll_cell,
    roll_day,
    roll_hour,
)
from voyage.world.seasons import season_for_day

#: R60: the sea-state level of a hex at a campaign hour, as the engine asks it: 0 calm,
#: 1 stormy seas, 2 major storm, 3 hurricane (a predicate's True/False reads as 1/0).
SeaStateLookup = Callable[[str, int], int]


def no_storms(hex_name: str, clock: int) -> int:
    """A calm sea everywhere, always (R60)."""
    return 0


#: How many hours of worked-out sea are kept: an advance walks forward hour by hour, but a
#: forecast walks the same hours again in every run, so a passage of weeks stays in memory
#: (each hour is a reference to a footprint map most hours share)
HOURS_KEPT = 1024


@dataclass(frozen=True)
class RefereeStorm:
    """A storm placed by hand (R63): hexes, hours, a sea state, maybe moving."""

    storm: int
    hexes: tuple[tuple[int, int, int], ...]
    start_hour: int
    end_hour: int
    level: int
    moving: str | None = None
    every: int = 3

    def footprint(self, hour: int, width: int, height: int) -> dict[str, int]:
        """Hex -> level at ``hour`` (shifted one hex per ``every`` hours when moving)."""
        if not self.start_hour <= hour < self.end_hour:
            return {}
        dq = dr = ds = 0
        if self.moving:
            n = (hour - self.start_hour) // max(1, self.every)
            d = hexmap.CUBE_DIRECTIONS[WIND_SIDES.index(self.moving)]
            dq, dr, ds = d[0] * n, d[1] * n, d[2] * n
        out: dict[str, int] = {}
        for q, r, s in self.hexes:
            col, row = hexmap.cube_to_offset((q + dq, r + dr, s + ds))
            if 1 <= col <= width and 1 <= row <= height:
                out[hexmap.hex_name(col, row)] = self.level
        return out


def referee_storms(rows: Iterable[Mapping[str, Any]]) -> list[RefereeStorm]:
    """Storm rows (one per hex, table ``storms``) grouped into :class:`RefereeStorm`."""
    grouped: dict[int, dict[str, Any]] = {}
    for r in rows:
        g = grouped.setdefault(int(r["storm"]), {"row": r, "hexes": []})
        g["hexes"].append(hexmap.to_cube(r["hex"]))
    out = []
    for number in sorted(grouped):
        row = grouped[number]["row"]
        state = row.get("state") or "stormy"  # R60: a storm placed without a state
        out.append(
            RefereeStorm(
                number,
                tuple(grouped[number]["hexes"]),
                int(row["start_hour"]),
                int(row["end_hour"]),
                SEA_STATES.index(state),
                row.get("moving"),
                int(row.get("every") or 3),
            )
        )
    return out


_PORTS: list[tuple[Any, frozenset[str]]] = []  # the last map's, as a command asks twice


def _port_hexes(sea_map: Any) -> frozenset[str]:
    """The map's port hexes (sheltered, R60), found by scanning its terrain bytes in C."""
    if _PORTS and _PORTS[0][0] is sea_map:
        return _PORTS[0][1]
    cells, code, width = sea_map.cells, TERRAIN_CODE["port"], sea_map.width
    found = []
    at = cells.find(code)
    while at != -1:
        found.append(hexmap.hex_name(at % width + 1, at // width + 1))
        at = cells.find(code, at + 1)
    _PORTS[:] = [(sea_map, frozenset(found))]
    return _PORTS[0][1]


@lru_cache(maxsize=64)
def _rings(radius: int) -> tuple[tuple[int, int, int], ...]:
    """(dq, dr, ring) of every cube within ``radius`` of a centre, in
    :func:`voyage.map.hexes.cube_within`'s order (which a footprint's order follows)."""
    return tuple(
        (q, r, hexmap.cube_distance((q, r, -q - r), (0, 0, 0)))
        for q, r, _ in hexmap.cube_within((0, 0, 0), radius)
    )


class SeaStates:
    """The sea state of every hex at every hour of one campaign (R60-R63)."""

    def __init__(
        self,
        seed: int,
        sea_map: Any,
        book: RuleBook,
        *,
        rerolls: Mapping[tuple[str, int], int] | None = None,
        storms: Iterable[RefereeStorm] = (),
        rolled: bool = True,
        season: Callable[[int], str] = season_for_day,
    ) -> None:
        self.seed = seed
        self.map = sea_map
        self.book = book
        self.regions = sea_map.weather_regions()
        self.rerolls = dict(rerolls or {})
        self.storms = list(storms)
        self.rolled = rolled
        self.season = season
        self.width, self.height = sea_map.width, sea_map.height
        self._days: dict[tuple[str, int], DayWeather] = {}
        self._seasons: dict[int, str] = {}  # day -> its season (R61), asked once a day
        self._cells_of_day: dict[int, list[StormCell]] = {}
        self._cells_today: dict[int, list[tuple[StormCell, str, int, int, int]]] = {}
        self._hours: dict[int, dict[str, int]] = {}
        self._fp: dict[tuple[Any, ...], dict[str, int]] = {}
        self._last: tuple[tuple[Any, ...], dict[str, int]] = ((), {})
        # (first hour, end hour, sea): the hours whose sea is the same as the first's
        self._span: tuple[int, int, dict[str, int]] = (0, 0, {})
        # land has no sea state: asked per footprint hex (a cell covers a few dozen hexes),
        # never by listing every hex of the map (a 999x999 map has a million)
        self._is_sea = sea_map.is_sea
        self._sea_names: dict[tuple[int, int], str | None] = {}  # (col, row) -> sea hex
        self._lookback = (longest_cell_hours(book) + roll_hour(1)) // 24 + 1
        self._ports = _port_hexes(sea_map)

    # -- days and cells --------------------------------------------------------------------
    def day(self, region: str, day: int) -> DayWeather:
        """Region ``region``'s weather on ``day`` (R61; memoised, a pure function)."""
        key = (region, day)
        found = self._days.get(key)
        if found is None:
            found = roll_day(
                self.seed,
                self.regions[region],
                day,
                self._season(day),
                self.book,
                self.rerolls.get(key, 0),
            )
            self._days[key] = found
        return found

    def _season(self, day: int) -> str:
        """The season of ``day`` (R61: at its 06:00 roll), asked of the calendar once."""
        found = self._seasons.get(day)
        if found is None:
            found = self._seasons[day] = self.season(day)
        return found

    def _cells_of(self, day: int) -> list[StormCell]:
        """The cells that form on ``day`` (R62), region by region: the cell of the day
        already rolled, else :func:`roll_cell` (the same dice, no records kept), as the
        engine needs no more than the cells."""
        cells = []
        days, rerolls, regions = self._days, self.rerolls, self.regions
        for region in regions:
            rolled = days.get((region, day))
            if rolled is not None:
                cell = rolled.cell
            else:
                cell = roll_cell(
                    self.seed,
                    regions[region],
                    day,
                    self._season(day),
                    self.book,
                    rerolls.get((region, day), 0),
                )
            if cell is not None:
                cells.append(cell)
        return cells

    def cells_between(self, first_hour: int, end_hour: int) -> list[StormCell]:
        """Every rolled cell that blows at some hour in ``first_hour <= h < end_hour``."""
        if not self.rolled or end_hour <= first_hour:
            return []
        last_day = max(0, (end_hour - 1 - roll_hour(1)) // 24 + 1)
        first_day = max(1, first_hour // 24 + 1 - self._lookback)
        out = []
        for day in range(first_day, last_day + 1):
            cells = self._cells_of_day.get(day)
            if cells is None:
                cells = self._cells_of_day[day] = self._cells_of(day)
            for cell in cells:
                if cell.start_hour < end_hour and cell.end_hour > first_hour:
                    out.append(cell)
        return out

    # -- hours ----------------------------------------------------------------------------
    def levels(self, hour: int) -> dict[str, int]:
        """Hex -> sea-state level (1-3) at ``hour``; calm hexes are left out. Where cells
        and storms overlap the highest state wins (R60)."""
        found = self._hours.get(hour)
        if found is not None:
            return found
        first, until, same = self._span
        # between first and until no cell or storm starts, ends or drifts: the same sea
        found = same if first <= hour < until else self._levels(hour)
        if len(self._hours) >= HOURS_KEPT:
            self._hours.clear()
        self._hours[hour] = found
        return found

    def _levels(self, hour: int) -> dict[str, int]:
        """:meth:`levels` worked out; kept with the span of hours it holds for (R60-R62:
        until a cell or storm starts, ends or drifts, or the day ends)."""
        # What decides the hour: each blowing cell and where it has drifted to, each storm
        # and how far it has moved. Cells drift every few hours at most, so most hours
        # are the hour before again, and each footprint is worked out once per position.
        day = hour // 24
        today = self._cells_today.get(day)
        if today is None:  # the cells that blow at some hour of this day, worked out once
            if len(self._cells_today) > HOURS_KEPT:
                self._cells_today.clear()
            today = self._cells_today[day] = [
                (c, c.name, c.start_hour, c.start_hour + c.hours, c.drift_every)
                for c in self.cells_between(day * 24, day * 24 + 24)
            ]
        cells = []
        parts: list[tuple[str | int, int]] = []
        until = day * 24 + 24  # the next day has cells of its own
        for cell, name, start, end, every in today:
            if start <= hour < end:  # its steps (StormCell.steps) at this hour
                cells.append(cell)
                steps = (hour - start) // every if every and hour > start else 0
                parts.append((name, steps))
                until = min(until, end, start + (steps + 1) * every if every else end)
            elif hour < start:
                until = min(until, start)
        for storm in self.storms:
            start = storm.start_hour
            if start <= hour < storm.end_hour:
                every = max(1, storm.every)
                n = (hour - start) // every if storm.moving else 0
                parts.append((storm.storm, n))
                until = min(until, storm.end_hour)
                if storm.moving:
                    until = min(until, start + (n + 1) * every)
            elif hour < start:
                until = min(until, start)
        key = tuple(parts)
        if key == self._last[0]:
            found = self._last[1]
        else:
            found = {}
            for cell in cells:
                fp_key = ("cell", cell.name, cell.steps(hour))
                self._merge(found, self._footprint(fp_key, cell, hour))
            for storm in self.storms:
                if storm.start_hour <= hour < storm.end_hour:
                    n = (hour - storm.start_hour) // max(1, storm.every) if storm.moving else 0
                    self._merge(found, self._footprint(("storm", storm.storm, n), storm, hour))
            self._last = (key, found)
        if len(self._fp) > 4 * HOURS_KEPT:
            self._fp.clear()
        self._span = (hour, until, found)
        return found

    def _footprint(self, key: tuple[Any, ...], source: Any, hour: int) -> dict[str, int]:
        """A cell's or storm's footprint at ``hour`` (the same for every hour of ``key``: its
        position), its land left out (land has no sea state), worked out once."""
        fp = self._fp.get(key)
        if fp is None:
            if type(source) is StormCell:
                fp = self._fp[key] = self._cell_footprint(source, hour)
            else:
                is_sea = self._is_sea
                raw = source.footprint(hour, self.width, self.height)
                fp = self._fp[key] = {name: level for name, level in raw.items() if is_sea(name)}
        return fp

    def _cell_footprint(self, cell: StormCell, hour: int) -> dict[str, int]:
        """``cell.footprint`` (R62: its outer ring one state lower for a major storm or a
        hurricane) with the land left out, as :meth:`_footprint` filters it, in the same
        order: the cubes around the centre offset by a list made once per radius, and each
        hex's name and land looked up once per SeaStates."""
        if not cell.blowing(hour):
            return {}
        q, r, _ = cell.centre(hour)
        radius, level = cell.radius, LEVEL[cell.state]
        outer = level - 1 if level >= 2 and radius >= 1 else level
        width, height, names = self.width, self.height, self._sea_names
        out: dict[str, int] = {}
        for dq, dr, ring in _rings(radius):
            cq = q + dq
            col, row = cq + 1, r + dr + (cq - (cq & 1)) // 2 + 1  # hexmap.cube_to_offset
            if 1 <= col <= width and 1 <= row <= height:
                name = names.get((col, row), "")
                if name == "":
                    name = hexmap.hex_name(col, row)
                    name = names[col, row] = name if self._is_sea(name) else None
                if name is not None:
                    out[name] = outer if ring == radius else level
        return out

    @staticmethod
    def _merge(found: dict[str, int], fp: dict[str, int]) -> None:
        """Add a footprint (land already left out): the highest state wins (R60)."""
        for name, level in fp.items():
            if level > found.get(name, 0):
                found[name] = level

    def level(self, hex_name: str, hour: int) -> int:
        """The sea-state level of a hex at an hour (0 calm ... 3 hurricane), as drawn."""
        return self.levels(hour).get(hex_name, 0)

    def state(self, hex_name: str, hour: int) -> str:
        """The sea state's key (calm, stormy, major, hurricane)."""
        return SEA_STATES[self.level(hexmap.canonical(hex_name), hour)]

    def for_ship(self, hex_name: str, hour: int) -> int:
        """The level a ship in ``hex_name`` feels: a port is sheltered (R60), so calm."""
        if hex_name in self._ports:
            return 0
        found = self._hours.get(hour)
        if found is None:
            found = self.levels(hour)
        return found.get(hex_name, 0)

    def lookup(self) -> SeaStateLookup:
        """:meth:`for_ship` as a closure over its dicts: what the engine calls on every hex
        entered and every hour in the same hex, so each call is two dict look-ups."""
        hours, ports, levels = self._hours, self._ports, self.levels

        def sea_state(hex_name: str, hour: int) -> int:
            found = hours.get(hour)
            if found is None:
                found = levels(hour)
            return 0 if hex_name in ports else found.get(hex_name, 0)

        return sea_state

    def over_ports(self) -> SeaStateLookup:
        """The storm blowing over a hex at an hour, a port's too: where :meth:`lookup`
        gives the sea a ship feels (R60: a port is sheltered, calm), this is the weather
        over her, what a ship lying in port catches the rain of (R103)."""
        hours, levels = self._hours, self.levels

        def storm(hex_name: str, hour: int) -> int:
            found = hours.get(hour)
            if found is None:
                found = levels(hour)
            return found.get(hex_name, 0)

        return storm


__all__ = [
    "RefereeStorm",
    "SeaStateLookup",
    "SeaStates",
    "footprint",
    "no_storms",
    "referee_storms",
]
