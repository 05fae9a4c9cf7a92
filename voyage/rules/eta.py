"""The hours a ship should take over the rest of her route as the engine sails it (R13,
R31, R64), with her speed rising as she lightens: the fuel she spends entering each hex
(R16) and the stores her people use each hour (R101) take weight out of her Load (R12), and
the engine sets her speed from her Load every hour (a built boat's from her weight, R82).
`voyage sail` expects these hours and `voyage status` gives them as her ETA, so that both
agree with what `forecast` and `plan` run.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from voyage.rules.drift import CurrentAt, leg_speed, route_hours, side_of_step
from voyage.rules.storesplan import hourly_use
from voyage.vessels import ships as shipfig
from voyage.vessels.stores import store_rules

#: past a year at sea a route is not sailed (as :func:`voyage.rules.drift.route_hours`)
LIMIT = 24 * 366

SpeedAt = Callable[[int, int], int]


def route_hours_now(
    ship: Any,
    book: Any,
    water_in_load: bool,
    pace: str,
    strain: int,
    route: Sequence[str],
    current_at: CurrentAt,
    hex_miles: int = 12,
    progress: int = 0,
    speed: int | Fraction | None = None,
) -> int | None:
    """Hours to sail ``route`` (from the hex she is in, ``progress`` miles made toward the
    next) at her speed now and as she lightens on the way; None where she makes no way.
    ``speed``: her speed now under way, when the caller has it (`status`: voyage.engine.
    standing's, the same figure), so that it is not reckoned twice."""
    own = shipfig.speed(ship, book, pace, strain, water_in_load) if speed is None else speed
    if own <= 0:
        return None
    steady = route_hours(route, own, current_at, hex_miles, progress)  # type: ignore[arg-type]
    if steady is None:
        return None
    speed_at = lightening(ship, book, water_in_load, pace, strain, len(route) - 1, steady, own)
    if speed_at is None:
        return steady
    return hours_lightening(route, speed_at, current_at, hex_miles, progress)


def lightening(
    ship: Any,
    book: Any,
    water_in_load: bool,
    pace: str,
    strain: int,
    hexes: int,
    hours: int,
    now: Any = None,
) -> SpeedAt | None:
    """``speed_at(hexes entered, hours sailed)``: her speed with the fuel spent (R16) and the
    stores used (R101) by then (R12, R13, R82). None when at the end of the way (``hexes``
    entered in ``hours``: lightest, and her speed only rises as her Load falls) she is no
    faster than now (``now``: her speed, when the caller has it), as she mostly is."""
    use = shipfig.fuel_use(ship, book, pace, water_in_load) if shipfig.under_power(ship) else 0
    people = ship.crew + ship.passengers
    stores = ship.stores if people > 0 else None
    rules = store_rules(book) if stores is not None else None
    # a copy to lighten: her fuel, charge and stores are set on it, nothing else changes
    light = copy.copy(ship)
    light.stores = copy.copy(ship.stores)
    aboard = shipfig.aboard(ship)
    memo: dict[tuple[Any, int], int] = {}

    def speed_at(entered: int, sailed: int) -> int:
        burnt = min(aboard, use * entered)
        sailed = sailed if rules is not None else 0
        found = memo.get((burnt, sailed))
        if found is None:
            shipfig.spend(light, burnt - (aboard - shipfig.aboard(light)))
            if stores is not None and rules is not None and light.stores is not None:
                for key, half in (("food", stores.half_food), ("fresh_water", stores.half_water)):
                    left = getattr(stores, key) - hourly_use(people, half, rules) * sailed
                    setattr(light.stores, key, max(Fraction(0), left))
            found = memo[(burnt, sailed)] = shipfig.speed(light, book, pace, strain, water_in_load)
        return found

    if now is None:
        now = shipfig.speed(ship, book, pace, strain, water_in_load)
    return None if speed_at(hexes, hours) == now else speed_at


def hours_lightening(
    route: Sequence[str],
    speed_at: SpeedAt,
    current_at: CurrentAt,
    hex_miles: int = 12,
    progress: int = 0,
) -> int | None:
    """:func:`voyage.rules.drift.route_hours` with her speed set each hour by ``speed_at``
    (the current of the hex she starts the hour in, R64; the miles left over carried, R31).

    Her speed only rises on the way (she only lightens), so it is asked seldom: she runs at
    one speed to the end (or to where she makes no way), and if she is faster at the last
    hour's start than at the first, the hour she got faster is found by halving (the few
    changes of her Load category, R12) and she runs on from there."""
    last = len(route) - 1
    if last < 1:
        return 0
    position, hours = 0, 0
    made: int | Fraction = progress
    while True:
        speed = speed_at(position, hours)
        if speed <= 0:
            return None
        starts, held = _run(route, speed, current_at, hex_miles, (position, made, hours))
        end = starts[-1] if held else starts[-2]  # the last hour begun at this speed
        if speed_at(end[0], end[2]) == speed:
            return None if held or starts[-1][2] > LIMIT else starts[-1][2]
        low, high = 0, len(starts) - 1 if held else len(starts) - 2
        while high - low > 1:  # starts[low] at ``speed``, starts[high] faster
            mid = (low + high) // 2
            if speed_at(starts[mid][0], starts[mid][2]) == speed:
                low = mid
            else:
                high = mid
        position, made, hours = starts[high]


def _run(
    route: Sequence[str],
    speed: int,
    current_at: CurrentAt,
    hex_miles: int,
    start: tuple[int, int | Fraction, int],
) -> tuple[list[tuple[int, int | Fraction, int]], bool]:
    """Her (hexes entered, miles made toward the next, hours) at the start of each hour at
    ``speed`` from ``start``, to her arrival (the last entry) or to an hour in which she
    makes no way (``held``: the last entry is that hour's start); past :data:`LIMIT`, the
    last entry's hours are over it."""
    last = len(route) - 1
    position, made, hours = start
    starts = [start]
    while position < last:
        current = current_at(route[position])
        if current is None:  # (whole miles: the common hour, without Fractions)
            leg: int | Fraction = speed
        else:
            side = side_of_step(route[position], route[position + 1])
            leg = leg_speed(speed, current, side if side is not None else 0)
        if leg <= 0:
            return starts, True
        made += leg
        hours += 1
        while made >= hex_miles and position < last:
            made -= hex_miles
            position += 1
        starts.append((position, made, hours))
        if hours > LIMIT:
            break
    return starts, False
