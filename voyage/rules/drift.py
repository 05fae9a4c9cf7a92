"""Currents and drift (R64): one small model of position and drift.

A map may give sea hexes a current (voyage.map.currents.Current): the hex side it flows
**towards** (N, NE, SE, S, SW, NW) and a speed in knots. Two things follow, and both live
here:

* **A leg's speed** (:func:`current_effect`, :func:`leg_speed`): a ship running with the
  current gains its whole speed, at 60 degrees off it gains half, at 120 degrees loses half,
  against it loses the whole; never below 0. The leg's direction is the hex step from the hex
  she is in to the next hex of her route (the current of the hex she starts the hour in, for
  the whole hour). Half knots are kept exactly: what the hour's whole miles leave over is
  carried to the next hour (as R31 carries progress). Fuel is still spent per hex entered.
* **Drift** (:func:`drift_hour`, :func:`drift_phase`): whatever makes no way of its own (a
  ship adrift, R13, or one whose anchor parted, R65) is carried downstream at the current's
  speed, entering the next hex each time her drift reaches 12 miles (R31). Carried into a
  coastal or shallow hex she rolls R33 as inshore (and R34 at the current's speed), except
  that a built boat carried into a charted hex meets R83 (her draft against its depth, at
  the current's speed: voyage.rules.hourly.by_depth, as under way); carried
  onto land she runs aground (R34, at the current's speed) and stays in her hex. An anchored
  or stuck ship does not drift, and nothing is carried off the map (she stays at its edge).

:func:`drift_hour` is pure (no dice): where the current carries a thing in one hour. Rafts,
people in the water and storm cells can use it as ships do. :func:`drift_phase` is the
engine's phase for a ship: it rolls the hazards through the engine's hour (its roller, log).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.map.currents import Current
from voyage.rules.aground import aground, coast_hazard
from voyage.rules.fuel import runs_dry_at_edge
from voyage.rules.hourly import by_depth
from voyage.rules.shoals import draft_chart
from voyage.vessels.ships import cruising_speed

ANGLES = (0, 60, 120, 180, 120, 60)


def side_of_step(a: str, b: str) -> int | None:
    """The side of hex ``a`` that hex ``b`` lies across (None if they are not neighbours)."""
    ca, cb = hexmap.to_cube(a), hexmap.to_cube(b)
    diff = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
    try:
        return hexmap.CUBE_DIRECTIONS.index(diff)
    except ValueError:
        return None


def step(hex_name: str, side: int) -> str | None:
    """The hex across ``side`` of ``hex_name`` (None above or left of 0101)."""
    cube = hexmap.cube_add(hexmap.to_cube(hex_name), hexmap.CUBE_DIRECTIONS[side])
    try:
        return hexmap.from_cube(cube)
    except MapError:
        return None


def current_effect(current: Current | None, leg_side: int) -> Fraction:
    """R64: knots gained (+) or lost (-) on a leg toward ``leg_side``: with the current
    +whole, 60 degrees off +half, 120 degrees off -half, against it -whole."""
    if current is None or not current.knots:
        return Fraction(0)
    angle = ANGLES[(leg_side - current.side) % 6]
    share = {0: Fraction(1), 60: Fraction(1, 2), 120: Fraction(-1, 2), 180: Fraction(-1)}[angle]
    return current.knots * share


def leg_speed(speed: int | Fraction, current: Current | None, leg_side: int) -> Fraction:
    """R64: speed over the leg, never below 0."""
    return max(Fraction(0), Fraction(speed) + current_effect(current, leg_side))


CurrentAt = Callable[[str], "Current | None"]


def current_lookup(chart: Any) -> CurrentAt:
    """``hex name -> Current | None`` for a map (its ``currents``; none without any)."""
    currents: Mapping[str, Current] = getattr(chart, "currents", None) or {}
    if not currents:
        return _no_current
    return currents.get


def _no_current(hex_name: str) -> Current | None:
    return None


#: the current lookup of a map without currents (the engine's quiet hour need not ask it)
NO_CURRENT: CurrentAt = _no_current


def route_hours(
    route: Sequence[str], speed: int, current_at: CurrentAt, hex_miles: int = 12, progress: int = 0
) -> int | None:
    """Hours to sail ``route`` at ``speed`` knots with the currents (as the engine steps it:
    the current of the hex she starts each hour in, R31 progress carried, ``progress``
    miles already made toward the second hex); None if a current holds her still or she
    makes no way."""
    if len(route) < 2:
        return 0
    limit = 24 * 366
    if speed > 0 and (current_at is _no_current or all(current_at(h) is None for h in route[:-1])):
        # no current anywhere on the way: the loop below in one step (a route across a
        # 999 x 999 map has thousands of hexes, and status asks for every ship's ETA; on
        # a map without currents not one is asked about)
        miles = (len(route) - 1) * hex_miles - progress
        hours = max(1, -(-miles // speed))
        return None if hours > limit else hours
    position, made, hours = 0, Fraction(progress), 0
    while position < len(route) - 1:
        side = side_of_step(route[position], route[position + 1])
        leg = leg_speed(speed, current_at(route[position]), side if side is not None else 0)
        if leg <= 0:
            return None
        made += leg
        hours += 1
        while made >= hex_miles and position < len(route) - 1:
            made -= hex_miles
            position += 1
        if hours > limit:
            return None
    return hours


def current_leg(h: Any) -> None:
    """The engine's R64 step for a ship under way (voyage.engine.clock._ShipHour ``h``): her
    speed this hour over the leg she is on, with the current of the hex she is in; the part
    of a mile the hour leaves over is carried to the next (exact, as R31's progress)."""
    s = h.s
    current = h.e.world.current_at(s.hex)
    side = side_of_step(s.hex, s.route[s.position + 1]) if current is not None else None
    if side is None:
        if type(h.speed) is int:
            return  # (the common hour: a whole speed, nothing to carry)
        if isinstance(h.speed, Fraction) and h.speed.denominator != 1:
            # R82/R31: a built boat's half mph (oars at 2.5 a rower) carried exactly
            exact = h.speed + Fraction(s.current_carry)
            whole = math.floor(exact)
            s.current_carry, h.speed = str(exact - whole), whole
            h.moving = whole > 0
        elif isinstance(h.speed, Fraction):
            h.speed = int(h.speed)
        return
    exact = leg_speed(h.speed, current, side) + Fraction(s.current_carry)
    whole = math.floor(exact)
    s.current_carry = str(exact - whole)
    h.speed = whole
    if whole <= 0:
        h.moving = False  # held by the current: she makes no way over the ground
        h.speed = 0


# ----------------------------------------------------------------------------- drift


@dataclass(frozen=True)
class DriftStep:
    """One hex the current carries a thing into, at ``minute`` of the hour; ``onto_land``
    when the next hex downstream is land (she stays where she is and runs aground)."""

    minute: int
    into: str
    onto_land: bool = False


def drift_hour(
    hex_name: str,
    carried: Fraction,
    current_at: CurrentAt,
    is_water: Callable[[str], bool],
    in_bounds: Callable[[str], bool],
    hex_miles: int = 12,
) -> tuple[list[DriftStep], Fraction]:
    """Where the current carries a thing that makes no way of its own in one hour (R64):
    the hexes entered (R31: one each time the drift reaches ``hex_miles``) and the drift
    carried over. The current of the hex it starts in sets the speed; a new hex with
    another current (or none) drops the miles toward the old heading."""
    current = current_at(hex_name)
    if current is None or current.knots <= 0:
        return [], Fraction(0)
    made = carried + current.knots
    steps: list[DriftStep] = []
    where = hex_name
    start = carried
    while made >= hex_miles:
        travelled = hex_miles * (len(steps) + 1) - start
        minute = min(59, max(0, math.floor(travelled * 60 / current.knots)))
        nxt = step(where, current.side)
        if nxt is None or not in_bounds(nxt):
            return steps, Fraction(0)  # nothing is carried off the map: held at its edge
        if not is_water(nxt):
            steps.append(DriftStep(minute, nxt, onto_land=True))
            return steps, Fraction(0)
        steps.append(DriftStep(minute, nxt))
        made -= hex_miles
        where = nxt
        if current_at(where) != current:
            return steps, Fraction(0)
    return steps, made


def makes_no_way(h: Any) -> bool:
    """Whether the ship of an engine hour makes no way of her own this hour (R13: engine
    broken or out of fuel and no oars; R65: her anchor parted)."""
    s = h.s
    if s.sinking_in is not None or s.capsized:
        return False
    if s.status == "adrift":
        return True
    if s.status != "under way" or h.moving or s.position >= len(s.route) - 1:
        return False
    if runs_dry_at_edge(h):
        return True  # R16: run dry at the edge of her next hex: adrift, whatever she has left
    return cruising_speed(h.ship, h.book, h.e.world.water_in_load) <= 0


def drift_phase(h: Any) -> None:
    """The engine's drift phase for one ship-hour ``h`` (voyage.engine.clock._ShipHour)."""
    if not makes_no_way(h):
        return
    s, ship, world = h.s, h.ship, h.e.world
    current = world.current_at(s.hex)
    if current is None:  # no current: drift_hour carries nothing over (a broken engine's hour)
        s.drift_miles = "0"
        return
    chart = world.chart
    steps, left = drift_hour(
        s.hex,
        Fraction(s.drift_miles),
        world.current_at,
        chart.is_sea,
        getattr(chart, "in_bounds", chart.is_sea),
        h.e._hex_miles,
    )
    s.drift_miles = str(left)
    if current is None:
        return
    knots = math.floor(current.knots)
    h.miles = knots
    for st in steps:
        h.minute = st.minute
        if st.onto_land:
            # R64/R34: carried onto the shore; she runs aground at the current's speed
            h.note(
                "drift",
                f"{ship.name} is carried onto the shore of {st.into} by the current "
                f"({current.text()}) and runs aground (R64, R34).",
                changes={"drift": st.into},
            )
            result = aground(
                ship.tier,
                knots,
                h.e.hex_info(s.hex).seabed or "sandy",
                h.roller,
                h.book,
                ship.traits,
            )
            if result.stuck:
                s.status = "stuck"
            h.log(result.event(), "aground")
            h.apply_damage(result.changes)
            break
        _carry(h, st.into)
        h.note(
            "drift",
            f"{ship.name} drifts with the current ({current.text()}) into {st.into} (R64).",
            changes={"hex": st.into, "drift": True},
        )
        info = h.e.hex_info(st.into)
        level = int(world.sea_state(st.into, h.clock))
        s.storm_hours = 0  # R60: the same-hex storm clock starts again in a new hex
        if level:
            h.storm_check(level)  # R32/R60: every hex travelled in storm-tossed seas
        if (
            s.sinking_in is None
            and not by_depth(h, info, knots)
            and (info.coastal or info.narrow_passage or info.terrain in h.e.shallows)
        ):  # R83: a charted depth decides a built boat's grounding, at her drift speed
            # R64: carried inshore she rolls the coast (R33) as an inshore leg, and runs
            # aground (R34) at the current's speed
            hazard = coast_hazard(h.roller, h.book)
            h.log(hazard.event())
            if hazard.hazard:
                result = aground(
                    ship.tier, knots, info.seabed or "sandy", h.roller, h.book, ship.traits
                )
                if result.stuck:
                    s.status = "stuck"
                h.log(result.event(), "aground")
                h.apply_damage(result.changes)
        if s.status == "stuck" or not s.active or s.sinking_in is not None or s.capsized:
            break
    h.minute = 0


def _carry(h: Any, into: str) -> None:
    """Move the ship into ``into`` off her route: the hexes sailed are kept, and the rest of
    the way to her destination is planned again from where the current left her."""
    s, ship = h.s, h.ship
    destination = s.route[-1]
    chart = h.e.world.chart
    rest: list[str] | None = [into]
    if into != destination:
        # R83: a built boat's way on keeps out of water too shallow for her where it can
        planner = getattr(draft_chart(chart, ship, h.book), "route", None)
        rest = None
        if planner is not None:
            rest = planner(into, destination, avoid=h.e.shallows) or planner(into, destination)
    kept = s.route[: s.position + 1]
    inshore = s.inshore[: s.position + 1]
    was_inshore = any(s.inshore)
    if rest is None:
        rest = [into]
        s.status = "adrift"  # no sea way on to her destination: the referee sets a course
    s.route = kept + rest
    s.inshore = inshore + [was_inshore and bool(chart.hex(x).coastal) for x in rest]
    s.position += 1
    s.progress = 0
    s.hours_in_hex = 0
    ship.hex = into
    h.entered += 1
