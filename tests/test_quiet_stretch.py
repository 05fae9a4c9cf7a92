"""A forecast's quiet stretches (voyage.engine.clock._ShipHour.quiet): worked out once from
where she starts, as if every coast roll (R33) came up clear, and followed by each run with
its own dice, they give every run exactly the events, rolls and state that sailing every
hour through the engine's own hour gives; so do the hours she spends stuck (R34:
_ShipHour.stuck), the hour she gets off left to the engine with her roll made."""

from __future__ import annotations

import pytest
from engine_helpers import COAST_ROUTE, OPEN_ROUTE, ship, voyage, world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.actions import forecast as fc
from voyage.engine import clock as engine_module
from voyage.engine.clock import Engine


def _runs(setup: fc.Setup, runs: int, hex_miles: int, quiet: bool) -> list[object]:
    """Each run sailed as a forecast sails it (forecast.drive), with its quiet hours, or
    with every hour the engine's own: its events, rolls, dice and where she ends."""
    engine = Engine(setup.world, [fc.fresh_state(setup.state)], fc.RunRoller(0), rows=False)
    engine._hex_miles = hex_miles
    out: list[object] = []
    with pytest.MonkeyPatch.context() as mp:
        if not quiet:
            mp.setattr(Engine, "quiet_hours", lambda self, clock, limit, events: 0)
        for i in range(runs):
            s = fc.fresh_state(setup.state)
            engine.states = [s]
            engine.roller = fc.RunRoller(fc.run_seed(3, i), setup.options)
            events: list = []
            end = fc.drive(engine, s, setup.clock, 200, events=events)
            out.append([e.to_dict() for e in events])
            out.append((end, s.status, s.position, s.progress, s.ship.fuel, s.ship.hex))
            out.append((s.extra(), engine.roller.get_state()))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    coast=st.booleans(),
    inshore=st.lists(st.booleans(), min_size=12, max_size=12),
    fuel=st.sampled_from([3, 8, 40]),  # R16: some runs run dry on the way
    cargo=st.integers(0, 900),
    pace=st.sampled_from(["normal", "slow", "strain"]),
    storm_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=4),
    storm_from=st.integers(0, 20),
    hex_miles=st.sampled_from([12, 4, 3]),  # short hexes: two or three entered an hour
    progress=st.integers(0, 11),
    most=st.sampled_from([1, 2, 8]),  # hours with coast rolls a stretch holds (chained)
)
def test_quiet_stretches_give_every_run_its_hours_one_by_one(
    coast, inshore, fuel, cargo, pace, storm_hexes, storm_from, hex_miles, progress, most
):
    def storm_at(hex_name: str, clock: int) -> int:
        return int(hex_name in storm_hexes and storm_from <= clock < storm_from + 6)

    route = COAST_ROUTE if coast else OPEN_ROUTE
    state = voyage(ship(fuel=fuel, cargo=cargo), route, pace=pace, progress=progress)
    state.strain = int(pace == "strain")
    state.inshore = [False] + inshore[: len(route) - 1]
    setup = fc.Setup(world(storm_at), state, 0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine_module, "STRETCH_ROLLS", most)
        assert _runs(setup, 25, hex_miles, True) == _runs(setup, 25, hex_miles, False)


def test_a_stretch_is_worked_out_once_and_followed_by_every_run(monkeypatch):
    """The runs of a forecast start alike: their first quiet stretch is worked out once,
    however many runs follow it (R33's rolls, their own, stop some of them early)."""
    worked: list[int] = []
    longest = [0]
    stretch = engine_module._ShipHour.stretch

    def counted(self, limit, start):  # type: ignore[no-untyped-def]
        worked.append(self.clock)
        found = stretch(self, limit, start)
        longest[0] = max(longest[0], len(found.rolls))
        return found

    monkeypatch.setattr(engine_module._ShipHour, "stretch", counted)
    state = voyage(ship(fuel=40), COAST_ROUTE, inshore=True)
    out = _runs(fc.Setup(world(), state, 0), 60, 12, True)
    assert worked.count(0) == 1 and len(worked) < 60
    assert 0 < longest[0] <= engine_module.STRETCH_ROLLS
    # at most STRETCH_ROLLS hours with coast rolls each: a long inshore route is worked
    # out a few hexes at a time, as far as some run sails, and followed on
    worked.clear()
    longest[0] = 0
    monkeypatch.setattr(engine_module, "STRETCH_ROLLS", 2)
    assert _runs(fc.Setup(world(), state, 0), 60, 12, True) == out
    assert worked.count(0) == 1 and longest == [2]
    aground = sum(any(e["halt"] == "aground" for e in events) for events in out[::3])  # type: ignore[attr-defined]
    assert 0 < aground < 60  # some runs met a hazard, some sailed clear
