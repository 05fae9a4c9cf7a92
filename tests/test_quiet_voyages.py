"""Quiet hours sailed in one go (voyage.engine.quiet.quiet_hours) give exactly what stepping
every hour gives: the same hour rows, events, rolls and final state, on random voyages."""

from __future__ import annotations

from fractions import Fraction

from engine_helpers import COAST_ROUTE, OPEN_ROUTE, ship, voyage, world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.actions.forecast import drive
from voyage.dice.roller import Roller
from voyage.engine.clock import Engine
from voyage.engine.quiet import quiet_hours
from voyage.rules.drift import Current


def _sail(fast: bool, make, storm_at, seed: int, hours: int, current_at=None):
    state = make()
    options = {"current_at": current_at} if current_at else {}
    engine = Engine(world(storm_at, **options), [state], Roller(seed))
    rows: list = []
    events: list = []
    end = drive(engine, state, 5, hours, fast=fast, rows=rows, events=events)
    return (
        end,
        [r.to_dict() for r in rows],
        [e.to_dict() for e in events],
        state.extra(),
        (state.position, state.progress, state.status, state.ship.fuel, state.ship.water),
        engine.roller.get_state(),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tier=st.integers(3, 6),
    engine_tier=st.integers(3, 6),
    cargo=st.integers(0, 900),
    fuel=st.integers(0, 60),
    pace=st.sampled_from(["normal", "slow", "strain"]),
    coast=st.booleans(),
    inshore=st.lists(st.booleans(), min_size=12, max_size=12),
    storm_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=6),
    storm_from=st.integers(0, 12),
    storm_hours=st.integers(1, 40),
    progress=st.integers(0, 11),
    position=st.integers(0, 8),
    storm_here=st.booleans(),
    current_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=4),
    current=st.tuples(st.integers(0, 5), st.sampled_from([Fraction(1, 2), Fraction(2)])),
    hours_in_hex=st.sampled_from([0, 3, 4, 5, 5, 11]),
    leak=st.sampled_from([0, 0, 0, 5, 40]),
    seed=st.integers(0, 10_000),
    hours=st.integers(1, 120),
)
def test_quiet_hours_sail_as_the_hours_stepped(
    tier,
    engine_tier,
    cargo,
    fuel,
    pace,
    coast,
    inshore,
    storm_hexes,
    storm_from,
    storm_hours,
    progress,
    position,
    storm_here,
    current_hexes,
    current,
    hours_in_hex,
    leak,
    seed,
    hours,
):
    route = COAST_ROUTE if coast else OPEN_ROUTE
    if storm_here:  # R32: her sixth hour in a storm hex comes early
        storm_hexes = storm_hexes | {route[position]}

    def make():
        s = ship(tier=tier, engine=engine_tier, cargo=cargo, fuel=fuel)
        st_ = voyage(
            s,
            route,
            pace=pace,
            strain=1 if pace == "strain" else 0,
            progress=progress,
            hours_in_hex=hours_in_hex,
            position=position,
            leaks=[leak] if leak else [],
        )
        st_.inshore = [False] + inshore[: len(route) - 1]
        return st_

    def storm_at(hex_name: str, clock: int) -> bool:
        return hex_name in storm_hexes and storm_from <= clock < storm_from + storm_hours

    flow = Current(*current)

    def current_at(hex_name: str) -> Current | None:  # R64: currents in a few hexes
        return flow if hex_name in current_hexes else None

    assert _sail(True, make, storm_at, seed, hours, current_at) == _sail(
        False, make, storm_at, seed, hours, current_at
    )


def test_a_quiet_voyage_takes_few_steps():
    """Open sea, no storm: the whole way but the arrival is sailed in one go."""
    s = ship(fuel=60)
    state = voyage(s, OPEN_ROUTE)
    engine = Engine(world(), [state], Roller(1))
    sailed = quiet_hours(engine, state, 0, 1000)
    assert state.position == len(OPEN_ROUTE) - 2  # everything up to the hex before the last
    assert sailed > 10 and state.status == "under way"
    assert quiet_hours(engine, state, sailed, 1000) == 0  # the arrival hour is not quiet
