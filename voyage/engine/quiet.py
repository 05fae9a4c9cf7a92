"""The engine's fast path for quiet hours (used by forecasts, voyage/forecast.py): a
function beside the engine, reading its figures and caches, leaving engine.py as it is.

Most hours of a voyage roll no dice: open sea, no storm, nothing wrong aboard. Stepping each
of them, with its hour row, is most of the cost of a forecast run; here they are sailed in
one step, the next hex entry computed rather than stepped, with exactly the result of
:meth:`voyage.engine.clock.Engine.hour` (tests/test_forecast_fastpath.py compares the two on random
voyages: rows, events, dice and final state). Whatever the engine learns to do in an hour
(sea states, currents, drift) must either be done here too or make the hour not quiet: an
hour in a current is the slow path's (R64); with sea states (rolled weather, issue 8) an
hour is quiet only where the sea is calm, and entering a hex must reset what the engine
resets on entry (the same-hex storm clock).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from voyage.base.text import plain
from voyage.engine.clock import HourRow, ShipState
from voyage.rules import hourly as phases
from voyage.rules.towing import towed_hlbs
from voyage.vessels import ships as shipfig

if TYPE_CHECKING:
    from voyage.engine.clock import Engine


def quiet_hours(
    engine: Engine, s: ShipState, clock: int, most: int, rows: list[HourRow] | None = None
) -> int:
    """Sail ``s`` through the quiet hours from ``clock`` (at most ``most``) without
    stepping them; return how many were sailed (0: the next hour is not quiet).

    A quiet hour rolls no dice and logs nothing: the ship is under way in open water
    with nothing wrong aboard (no emergency, leak, water or Overload: R37, R41), not
    straining (R14), in a hex with no current (R64), and every hex she enters is open
    sea - no inshore leg, narrow passage or shallows (R33), no storm (R32), not her
    destination - with fuel to spare (R16); an hour with no hex entered must be calm where
    she is (R32).
    Then the hour only moves her: progress carries over (R31) and fuel is burnt per hex
    entered (R16), so the next hex entry is computed, not stepped minute by minute.
    The result is exactly what :meth:`Engine.hour` would have made of those hours (the hour
    rows too, when ``rows`` is given); tests/test_forecast_fastpath.py checks it.
    Only ``s`` is stepped: the forecast drives an engine with one ship."""
    if s.status != "under way" or s.emergency or s.capsized or s.leaks or s.ship.water:
        return 0  # and none of this changes in a quiet hour
    if s.searching:
        return 0  # R74: she holds her hex and searches it each hour
    if phases.busy(s):
        return 0  # R83-R86: leak work, salvage, depth damage or pumps this hour
    sailed = _sail(engine, s, clock, most, rows)
    if sailed:
        restart_storm_clock(s)
    return sailed


def sea_at(world: Any) -> Callable[[str, int], Any]:
    """Whether a hex is storm-tossed at an hour: the World's ``storm_at`` (R32, storms on
    the map) or, once rolled weather lands, its ``sea_state`` (a level, 0 calm)."""
    return getattr(world, "sea_state", None) or world.storm_at


def restart_storm_clock(s: ShipState) -> None:
    """With rolled weather (sea states): a calm hour or a hex entered starts the same-hex storm
    clock again, and a quiet hour is one of the two. Without sea states there is none."""
    if getattr(s, "storm_hours", 0):
        s.storm_hours = 0  # type: ignore[attr-defined]


def _sail(engine: Engine, s: ShipState, clock: int, most: int, rows: list[HourRow] | None) -> int:
    ship, route, inshore = s.ship, s.route, s.inshore
    last = len(route) - 1
    hex_miles = engine._hex_miles
    storm_at, shallows = sea_at(engine.world), engine.shallows
    current_at = getattr(engine.world, "current_at", None)
    done = 0
    while done < most and s.position < last:
        if current_at is not None and current_at(s.hex) is not None:
            break  # R64: a current helps or hinders her this hour (the slow path's)
        category = engine.category(s)  # R92: a tow counted (R41)
        if category == "overloaded":
            break  # R41: a capsize check every hour
        speed, fuel_use, cruising = engine.figures(s, category)
        powered = shipfig.under_power(ship)
        if speed <= 0 or (s.pace == "strain" and speed > cruising and powered):
            break  # R14: a straining engine rolls every hour
        if speed != int(speed):
            break  # R82: a built boat's half mph carry over (the slow path's, R64's carry)
        speed = int(speed)
        # hours with no hex entered, then the hour of the next entry
        empty = min(most - done, max(0, (hex_miles - s.progress + speed - 1) // speed - 1))
        if empty:
            # R32: hours in a storm-tossed hex count toward its same-hex Check: they are
            # the slow path's, whether or not this one is the Check's (the rule may change)
            blocked = False
            for k in range(empty):
                if storm_at(s.hex, clock + done + k):
                    empty, blocked = k, True
                    break
            if rows is not None:
                rows.extend(
                    _quiet_row(engine, s, clock + done + k, speed, category) for k in range(empty)
                )
            s.hours_in_hex += empty
            s.progress += empty * speed
            done += empty
            if blocked or done >= most:
                break
        now = clock + done
        miles = s.progress + speed
        entered = min(miles // hex_miles, last - s.position)
        burn = fuel_use if powered else 0
        fuel = shipfig.aboard(ship)  # R16 hlbs, or a built boat's power units (R82)
        for position in range(s.position + 1, s.position + entered + 1):
            name = route[position]
            info = engine.hex_info(name)
            if (
                position == last
                or (position < len(inshore) and inshore[position])
                or info.narrow_passage
                or info.terrain in shallows
                or phases.charted_for(ship, info)  # R83: her draft against its depth
                or storm_at(name, now)
                or (burn and fuel <= burn)
            ):
                return done
            fuel -= burn
        s.position += entered
        s.progress = miles - entered * hex_miles
        s.hours_in_hex = 0
        shipfig.spend(ship, shipfig.aboard(ship) - fuel)
        ship.hex = route[s.position]
        if rows is not None:
            rows.append(_quiet_row(engine, s, now, speed, category))
        done += 1
    return done


def _quiet_row(engine: Engine, s: ShipState, clock: int, speed: int, category: str) -> HourRow:
    """The hour row of a quiet hour (as the engine's hour writes it)."""
    ship = s.ship
    load = engine.load(s) + towed_hlbs(ship)  # R92
    return HourRow(
        s.voyage_id,
        ship.name,
        clock,
        s.hex,
        speed,
        speed,
        s.pace,
        plain(shipfig.aboard(ship)),
        plain(load),
        engine.category_of(load, engine._dw[ship.name]),
        ship.water,
        0,
        s.condition,
    )
