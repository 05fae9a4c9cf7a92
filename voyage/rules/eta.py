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
    ``speed``: what she makes now, when the caller has it (`status`): another than her own
    (towed at her tower's, R92) is kept the whole way."""
    own = shipfig.speed(ship, book, pace, strain, water_in_load)
    speed = own if speed is None else speed
    if speed <= 0:
        return None
    steady = route_hours(route, speed, current_at, hex_miles, progress)  # type: ignore[arg-type]
    if steady is None or speed != own:
        return steady
    speed_at = lightening(ship, book, water_in_load, pace, strain, len(route) - 1, steady)
    if speed_at is None:
        return steady
    return hours_lightening(route, speed_at, current_at, hex_miles, progress)


def lightening(
    ship: Any, book: Any, water_in_load: bool, pace: str, strain: int, hexes: int, hours: int
) -> SpeedAt | None:
    """``speed_at(hexes entered, hours sailed)``: her speed with the fuel spent (R16) and the
    stores used (R101) by then (R12, R13, R82). None when at the end of the way (``hexes``
    entered in ``hours``: lightest, and her speed only rises as her Load falls) she is no
    faster than now, as she mostly is."""
    use = shipfig.fuel_use(ship, book, pace, water_in_load) if shipfig.under_power(ship) else 0
    people = ship.crew + ship.passengers
    stores = ship.stores if people > 0 else None
    rules = store_rules(book) if stores is not None else None
    light = copy.deepcopy(ship)
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
    (the current of the hex she starts the hour in, R64; the miles left over carried, R31)."""
    if len(route) < 2:
        return 0
    position, made, hours = 0, Fraction(progress), 0
    while position < len(route) - 1:
        speed = speed_at(position, hours)
        if speed <= 0:
            return None
        side = side_of_step(route[position], route[position + 1])
        leg = leg_speed(speed, current_at(route[position]), side if side is not None else 0)
        if leg <= 0:
            return None
        made += leg
        hours += 1
        while made >= hex_miles and position < len(route) - 1:
            made -= hex_miles
            position += 1
        if hours > LIMIT:
            return None
    return hours
