"""The engine's calm-hour shortcut (voyage.engine.clock._ShipHour.calm: the phases that can do
nothing skipped, the hour in one step when nothing can happen) gives exactly what running every
phase gives: the same hour rows, events, rolls, dice state and final state, on random fleets
and on the year-long bench's fleet."""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from engine_helpers import COAST_ROUTE, OPEN_ROUTE, ship, voyage, world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.dice.roller import Roller
from voyage.engine import clock as engine_module
from voyage.engine.clock import Engine, ShipState
from voyage.map.currents import Current


def _stepped(monkeypatch: pytest.MonkeyPatch | None) -> None:
    """Turn the calm-hour shortcut off (every phase of every hour run), or leave it on."""
    if monkeypatch is not None:
        monkeypatch.setattr(engine_module._ShipHour, "calm", lambda self: None)


def _outcome(engine: Engine, states: list[ShipState], hours: int) -> list[object]:
    """Every hour's rows, events and ship states (an hour at a time), then the dice."""
    out: list[object] = []
    for hour in range(hours):
        result = engine.run(5 + hour, 1, halt=False)
        out.append([r.to_dict() for r in result.rows])
        out.append([e.to_dict() for e in result.events])
        out.append(
            [(s.extra(), s.position, s.progress, s.status, s.ship.fuel, s.ship.hex) for s in states]
        )
    out.append(engine.roller.get_state())
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ships=st.lists(
        st.tuples(
            st.integers(3, 6),  # tier
            st.integers(3, 6),  # engine tier
            st.integers(0, 900),  # cargo
            st.integers(0, 60),  # fuel
            st.sampled_from(["normal", "slow", "strain"]),
            st.booleans(),  # the coast route
            st.lists(st.booleans(), min_size=12, max_size=12),  # inshore legs
            st.integers(0, 11),  # progress
            st.integers(0, 8),  # position
            st.sampled_from([0, 0, 0, 5, 40]),  # a leak
        ),
        min_size=1,
        max_size=3,
    ),
    storm_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=6),
    storm_from=st.integers(0, 12),
    storm_hours=st.integers(1, 40),
    current_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=4),
    seed=st.integers(0, 10_000),
    hours=st.integers(1, 80),
    hex_miles=st.sampled_from([12, 4, 3]),  # short hexes: two or three entered an hour
    storm_clock=st.integers(0, 5),  # R32/R60: storm hours already spent in her hex
    as_dicts=st.booleans(),  # the sea and currents as voyage.actions.voyages.world_for gives them
    level=st.integers(1, 3),
    ports=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=3),
)
def test_quiet_hours_in_one_step_are_the_hours_stepped(
    ships,
    storm_hexes,
    storm_from,
    storm_hours,
    current_hexes,
    seed,
    hours,
    hex_miles,
    storm_clock,
    as_dicts,
    level,
    ports,
):
    flow = Current(2, Fraction(1, 2))
    current_at: Callable[[str], Current | None]
    if as_dicts:
        # a SeaStates-like lookup (the hour's storm-tossed hexes and the sheltered ports,
        # R60) and a map's currents dict (R64), as voyage.actions.voyages.world_for gives them
        storm_at = _sea_lookup(storm_hexes, storm_from, storm_hours, level, frozenset(ports))
        current_at = {h: flow for h in current_hexes}.get
    else:

        def storm_at(hex_name: str, clock: int) -> int:
            return int(hex_name in storm_hexes and storm_from <= clock < storm_from + storm_hours)

        def current_at(hex_name: str) -> Current | None:  # R64: currents in a few hexes
            return flow if hex_name in current_hexes else None

    def sail(quick: bool) -> list[object]:
        states = []
        for n, (
            tier,
            eng,
            cargo,
            fuel,
            pace,
            coast,
            inshore,
            progress,
            position,
            leak,
        ) in enumerate(ships):
            route = COAST_ROUTE if coast else OPEN_ROUTE
            s = ship(f"Ship {n}", tier=tier, engine=eng, cargo=cargo, fuel=fuel)
            state = voyage(
                s,
                route,
                voyage_id=n + 1,
                pace=pace,
                strain=int(pace == "strain"),
                progress=progress,
                position=min(position, len(route) - 1),
                leaks=[leak] if leak else [],
            )
            state.inshore = [False] + inshore[: len(route) - 1]
            states.append(state)
        engine = Engine(world(storm_at, current_at=current_at), states, Roller(seed))
        engine._hex_miles = hex_miles
        with pytest.MonkeyPatch.context() as mp:
            _stepped(None if quick else mp)
            return _outcome(engine, states, hours)

    assert sail(True) == sail(False)


def _sea_lookup(
    hexes: set[str], start: int, hours: int, level: int, ports: frozenset[str]
) -> Callable[[str, int], int]:
    """A sea-state lookup as voyage.world.seastate.SeaStates.lookup makes one: ``level`` in
    ``hexes`` from ``start`` for ``hours``, calm in ``ports`` (R60)."""

    def levels(clock: int) -> dict[str, int]:
        return {h: level for h in sorted(hexes)} if start <= clock < start + hours else {}

    def sea_state(hex_name: str, clock: int) -> int:
        return 0 if hex_name in ports else levels(clock).get(hex_name, 0)

    return sea_state


def test_the_bench_fleet_sails_the_same_with_and_without_the_quiet_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """bench/bench_engine.py's fleet (storms, inshore legs, a straining engine, every pace)
    for 10 days: every row, event and roll as stepping every hour gives."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import bench_engine  # type: ignore[import-not-found]

    from voyage.actions import voyages

    def sail(quick: bool, folder: Path) -> tuple[object, ...]:
        folder.mkdir()
        camp = bench_engine.make_campaign(folder, 10)
        with camp.action("advance", "test"), pytest.MonkeyPatch.context() as mp:
            _stepped(None if quick else mp)
            states = voyages.open_voyages(camp)
            engine = Engine(voyages.world_for(camp), states, camp.roller)
            rows, events = [], []
            for hour in range(240):
                result = engine.run(camp.clock + hour, 1, halt=False)
                rows += [r.to_dict() for r in result.rows]
                events += [e.to_dict() for e in result.events]
                bench_engine._referee(states)
            out = (rows, events, [s.extra() for s in states], camp.roller.get_state())
        camp.close()
        return out

    quick, stepped = sail(True, tmp_path / "quick"), sail(False, tmp_path / "stepped")
    assert len(quick[0]) == 2400 and quick == stepped


@pytest.mark.parametrize("coast", [False, True])
def test_a_ship_counting_a_tow_sails_the_same_either_way(coast: bool):
    """R92: a tow counted in her load (``tow_counted``) shows in every row's load and
    category, on the quiet hours and on the hours that roll on the way (inshore, R33)."""

    def sail(quick: bool) -> list[object]:
        s = ship(fuel=100)
        s.equipment["tow_counted"] = 150
        state = voyage(s, COAST_ROUTE if coast else OPEN_ROUTE, inshore=coast)
        engine = Engine(world(), [state], Roller(7))
        engine._hex_miles = 4  # two or three hexes an hour: many entries, many rolls
        with pytest.MonkeyPatch.context() as mp:
            _stepped(None if quick else mp)
            return _outcome(engine, [state], 12)

    quick = sail(True)
    assert quick == sail(False)
    loads = {row["load"] for hour in quick[0:-1:3] for row in hour}  # type: ignore[union-attr]
    assert loads and all(load > 300 for load in loads)  # 190 or so without the tow


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ships=st.lists(
        st.tuples(
            st.sampled_from([0, 100, 400, 900, 1500]),  # cargo (Overloaded at the top: R41)
            st.integers(0, 60),  # fuel
            st.sampled_from(["normal", "slow", "strain"]),
            st.booleans(),  # the coast route
            st.integers(0, 9),  # position
            st.integers(0, 11),  # progress
            st.sampled_from([0, 0, 0, 0, 0, 5]),  # a leak
            st.sampled_from([0, 0, 0, 0, 0, 30]),  # water aboard
            st.integers(0, 5),  # R32/R60: storm hours already spent in her hex
            st.booleans(),  # a storm in her hex (R60)
            st.sampled_from([None, None, 150]),  # R92: a tow counted
            st.sampled_from([None, None, None, None, "on", "off"]),  # R85: bilge pumps
            st.sampled_from([True, True, True, False]),  # stuck (else under way)
        ),
        min_size=1,
        max_size=3,
    ),
    storm_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=6),
    level=st.integers(1, 3),
    escape=st.sampled_from(["roll", "roll", "referee"]),
    seed=st.integers(0, 10_000),
    hours=st.integers(1, 30),
)
def test_a_stuck_ships_hour_in_one_step_is_the_hour_stepped(
    ships, storm_hexes, level, escape, seed, hours
):
    """R34: a ship stuck aground tries to get off every hour:
    still stuck, her hour (the storm clock of her hex, R32/R60, and its Check) and row;
    afloat, the rest of her hour under way (quiet or stepped); anything else wrong aboard,
    Overloaded (R41) or pumps at work (R85), the slow path's. The same rows, events, rolls
    and states as stepping every hour."""

    stormy = set(storm_hexes)

    def storm_at(hex_name: str, clock: int) -> int:
        return level if hex_name in stormy and clock < 20 else 0

    def sail(quick: bool) -> list[object]:
        states = []
        for n, (
            cargo,
            fuel,
            pace,
            coast,
            position,
            progress,
            leak,
            water,
            storm_hours,
            storm_here,
            tow,
            pumps,
            stuck,
        ) in enumerate(ships):
            route = COAST_ROUTE if coast else OPEN_ROUTE
            position = min(position, len(route) - 2)
            if storm_here:
                stormy.add(route[position])
            s = ship(f"Ship {n}", cargo=cargo, fuel=fuel, water=water)
            if tow:
                s.equipment["tow_counted"] = tow
            if pumps:
                s.equipment["bilge_pumps"] = 1
                s.equipment["pumps_switch"] = pumps
            state = voyage(
                s,
                route,
                voyage_id=n + 1,
                pace=pace,
                strain=int(pace == "strain"),
                position=position,
                progress=progress,
                leaks=[leak] if leak else [],
                storm_hours=storm_hours,
                status="stuck" if stuck else "under way",
            )
            state.inshore = [False] + [coast] * (len(route) - 1)
            states.append(state)
        engine = Engine(world(storm_at, stuck_escape=escape), states, Roller(seed))
        with pytest.MonkeyPatch.context() as mp:
            _stepped(None if quick else mp)
            return _outcome(engine, states, hours)

    assert sail(True) == sail(False)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_storm_hours_sail_the_same_and_step_only_when_a_check_capsizes_or_falls_due(level):
    """R32/R60: a ship crossing storm-tossed hexes rolls her Check on entering each, and
    counts her hours in one toward its same-hex Check: the rows, events, rolls and states
    are the same with the calm-hour shortcut as with every phase run."""

    def storm_at(hex_name: str, clock: int) -> int:
        return level if hex_name in OPEN_ROUTE[2:8] else 0

    def sail(quick: bool) -> list[object]:
        states = [
            voyage(ship(f"Ship {n}", fuel=200, cargo=cargo), OPEN_ROUTE, voyage_id=n + 1)
            for n, cargo in enumerate([0, 300, 600])
        ]
        engine = Engine(world(storm_at), states, Roller(11))
        engine._hex_miles = 24  # an hour or three in each hex: same-hex hours and Checks
        with pytest.MonkeyPatch.context() as mp:
            _stepped(None if quick else mp)
            return _outcome(engine, states, 30)

    quick = sail(True)
    assert quick == sail(False)
    checks = [e for hour in quick[1:-1:3] for e in hour if e["kind"] == "capsize"]  # type: ignore[union-attr]
    assert checks


@pytest.mark.parametrize("drift", ["0", "1/2"])
@pytest.mark.parametrize("coast", [False, True])
def test_a_straining_engine_that_breaks_sails_the_rest_of_the_hour_as_stepped(drift, coast):
    """R14/R13: a straining engine that breaks stops her; with no current in her hex and
    nothing drifted (R64), or else: rows, events, rolls and states are the same with the
    calm hour's shortcut as with every phase run."""

    def sail(quick: bool) -> list[object]:
        s = ship(fuel=200, engine=6)
        state = voyage(s, COAST_ROUTE if coast else OPEN_ROUTE, inshore=coast, pace="strain")
        state.strain, state.drift_miles = 1, drift
        engine = Engine(world(), [state], Roller(5))
        engine._hex_miles = 4
        out: list[object] = []
        with pytest.MonkeyPatch.context() as mp:
            _stepped(None if quick else mp)
            for clock in range(30):  # mended after each hour, as a referee would
                result = engine.run(clock, 1, halt=False)
                out.append([r.to_dict() for r in result.rows])
                out.append([e.to_dict() for e in result.events])
                out.append((state.extra(), state.position, state.progress, s.fuel, s.hex))
                s.engine_broken = False
                state.fire, state.fire_since, state.swallow_in = 0, None, None
                state.sinking_in = state.sinking_since = None
                state.leaks, s.water, state.listing, state.capsized = [], 0, False, False
                if state.status != "under way":
                    state.status, state.position, state.progress = "under way", 1, 0
        out.append(engine.roller.get_state())
        return out

    quick = sail(True)
    assert quick == sail(False)
    broke = [
        e for hour in quick[1::3] for e in hour  # type: ignore[attr-defined]
        if e["kind"] == "strain" and len(e["rolls"]) == 2
    ]  # fmt: skip
    assert len(broke) >= 3


@pytest.mark.parametrize("coast", [False, True])
def test_a_forecasts_quiet_hours_sailed_at_once_are_its_hours_one_by_one(coast: bool):
    """Engine.quiet_hours (a forecast's hours in which she only makes way, sailed in one
    call) gives every run exactly what the engine's hour, one at a time, gives."""
    from voyage.actions import forecast as fc

    def runs(at_once: bool) -> list[object]:
        route = COAST_ROUTE if coast else OPEN_ROUTE
        state = voyage(ship(fuel=40), route)
        state.inshore = [coast and i % 3 == 0 for i in range(len(route))]
        setup = fc.Setup(world(), state, 0)
        if not at_once:
            mp = pytest.MonkeyPatch()
            mp.setattr(Engine, "quiet_hours", lambda self, clock, limit, out: 0)
            try:
                return list(fc.simulate(setup, 300, seed=4, workers=1))
            finally:
                mp.undo()
        return list(fc.simulate(setup, 300, seed=4, workers=1))

    assert runs(True) == runs(False)
