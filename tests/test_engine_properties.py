"""Properties of the engine over generated ships and voyages (hypothesis)."""

from __future__ import annotations

from engine_helpers import COAST_ROUTE, OPEN_ROUTE, run, ship, voyage, world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.dice.roller import Roller
from voyage.engine.clock import Engine
from voyage.tables.rulebook import load_rulebook
from voyage.vessels import ships as shipfig

ships = st.builds(
    lambda tier, engine, crew, cargo, fuel, traits: ship(
        tier=tier, engine=engine, cls="trawler", crew=crew, cargo=cargo, fuel=fuel, traits=traits
    ),
    tier=st.integers(3, 6),
    engine=st.integers(3, 6),
    crew=st.integers(0, 12),
    cargo=st.integers(0, 900),
    fuel=st.integers(0, 200),
    traits=st.sampled_from([(), ("Steady",), ("Thrifty",), ("Quick",), ("Fireproof",)]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    s=ships,
    pace=st.sampled_from(["normal", "slow", "strain"]),
    coast=st.booleans(),
    leak=st.integers(0, 60),
    seed=st.integers(0, 10_000),
    hours=st.integers(1, 30),
)
def test_any_voyage_gives_a_consistent_log(s, pace, coast, leak, seed, hours):
    strain = 1 if pace == "strain" else 0
    state = voyage(
        s,
        COAST_ROUTE if coast else OPEN_ROUTE,
        inshore=coast,
        pace=pace,
        strain=strain,
        leaks=[leak] if leak else [],
    )
    result = run([state], seed, hours=hours, halt=False)
    assert len(result.rows) <= hours
    last_clock = -1
    for row in result.rows:
        assert row.clock > last_clock
        last_clock = row.clock
        assert row.fuel >= 0 and row.water >= 0 and 0 <= row.miles <= max(row.speed, 0)
        assert row.hex in state.route
    for e in result.events:
        assert 0 <= e.event.minute < 60
    assert 0 <= state.position < len(state.route)
    assert 0 <= state.progress <= 12
    if state.progress == 12:  # R16: only a ship that ran dry at the edge of her next hex
        assert any(e.event.changes.get("adrift") for e in result.events)
        assert state.ship.fuel > 0
    moments = [(e.clock, e.event.minute) for e in result.events]
    assert moments == sorted(moments)


@settings(max_examples=80, deadline=None)
@given(
    s=ships,
    pace=st.sampled_from(["normal", "slow", "strain"]),
    strain=st.integers(1, 4),
    broken=st.booleans(),
    water=st.integers(0, 400),
)
def test_the_engines_memoised_figures_are_the_ships_figures(s, pace, strain, broken, water):
    # R13-R16 come from voyage.vessels.ships; the engine only memoises them
    book = load_rulebook()
    s.engine_broken, s.water = broken, water
    state = voyage(s, pace=pace, strain=strain if pace == "strain" else 0)
    engine = Engine(world(), [state], Roller(1))
    speed, fuel_use, cruising = engine.figures(state)
    assert speed == shipfig.speed(s, book, state.pace, state.strain)
    assert fuel_use == shipfig.fuel_use(s, book, state.pace)
    assert cruising == shipfig.cruising_speed(s, book)
    assert engine.load(state) == shipfig.load(s, book)
    assert engine.category(state) == shipfig.load_category(s, book)


def test_until_arrival_stops_when_no_ship_can_make_way():
    state = voyage(ship(cargo=100), status="anchored")
    result = run([state], 1, until="arrival")
    assert result.hours_run == 1 and "making way" in result.stopped
