"""The engine's quiet stores hour (voyage.engine.clock.Engine.hour: an hour in which nothing
can happen to a ship's stores but their use is one subtraction, Stores.quiet_hour, and a
06:00 with nothing to count, roll or say is passed over, voyage.rules.stores.quiet_dawn)
gives exactly what the stores phase run every hour gives (R101-R103): the same rows,
events, rolls, stores and dice, with stores running low, running out, on half rations,
days without, deaths and rain caught."""

from __future__ import annotations

from fractions import Fraction

import pytest
from engine_helpers import COAST_ROUTE, OPEN_ROUTE, ship, voyage, world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.dice.roller import Roller
from voyage.engine import clock as engine_module
from voyage.engine.clock import Engine
from voyage.rules import stores as store_rules_module
from voyage.vessels.stores import Stores

#: person-days in sixths: whole days, and parts of one (R101: 1/24 a head an hour)
AMOUNTS = st.integers(0, 240).map(lambda n: Fraction(n, 6))


def _every_phase(mp: pytest.MonkeyPatch) -> None:
    """The stores phase in every hour, and every 06:00 counted, rolled and told in full."""
    mp.setattr(Stores, "quiet_hour", lambda self, people, hourly: False)
    mp.setattr(engine_module, "quiet_dawn", lambda stores, people, rules: False)
    mp.setattr(store_rules_module, "quiet_dawn", lambda stores, people, rules: False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ships=st.lists(
        st.tuples(
            st.integers(2, 6),  # tier (R103: a Tier II ship catches no rain)
            st.integers(0, 12),  # crew
            AMOUNTS,  # food
            AMOUNTS,  # fresh water
            st.booleans(),  # half rations of food
            st.booleans(),  # half rations of water
            st.sampled_from([0, 0, 1, 2, 3, 21]),  # days without water (R102)
            st.sampled_from([0, 0, 20, 21]),  # days without food
            st.integers(-1, 3),  # the day rain was last caught (R103)
            st.booleans(),  # the coast route
        ),
        min_size=1,
        max_size=3,
    ),
    storm_hexes=st.sets(st.sampled_from(OPEN_ROUTE + COAST_ROUTE), max_size=6),
    storm_from=st.integers(0, 60),
    storm_hours=st.integers(1, 30),
    start=st.integers(0, 30),
    seed=st.integers(0, 10_000),
)
def test_the_quiet_stores_hour_is_the_stores_phase(
    ships, storm_hexes, storm_from, storm_hours, start, seed
):
    def storm_at(hex_name: str, clock: int) -> int:  # R60, R103: rain in a storm
        return int(hex_name in storm_hexes and storm_from <= clock < storm_from + storm_hours)

    def sail(quick: bool) -> list[object]:
        states = []
        for n, (
            tier,
            crew,
            food,
            water,
            half_food,
            half_water,
            dry_w,
            dry_f,
            rain,
            coast,
        ) in enumerate(ships):
            route = COAST_ROUTE if coast else OPEN_ROUTE
            s = ship(f"Ship {n}", tier=tier, crew=crew, fuel=60)
            s.stores = Stores(
                food, water, half_food, half_water, Fraction(dry_w), Fraction(dry_f), 0, rain
            )
            states.append(voyage(s, route, voyage_id=n + 1))
        engine = Engine(world(storm_at), states, Roller(seed))
        out: list[object] = []
        with pytest.MonkeyPatch.context() as mp:
            if not quick:
                _every_phase(mp)
            for hour in range(72):  # three 06:00s
                result = engine.run(start + hour, 1, halt=False)
                out.append([r.to_dict() for r in result.rows])
                out.append([e.to_dict() for e in result.events])
                out.append([(s.ship.crew, repr(s.ship.stores), s.status) for s in states])
                out.append([engine.load(s) for s in states])  # R100: her stores' weight
        out.append(engine.roller.get_state())
        return out

    assert sail(True) == sail(False)


def test_nobody_left_aboard_rolls_nothing_and_is_told_nothing_at_dawn():
    """R102's dawn roll is each person's: a dry ship with nobody left aboard (all dead, or
    gone over the side) logs no "Going without" line (it said "0 of 0 die"), her count
    still rises, and no dice are drawn."""
    s = ship("Empty", crew=0, fuel=60)
    s.stores = Stores(Fraction(5), Fraction(0), False, False, Fraction(3), Fraction(0), 0, -1)
    engine = Engine(world(), [voyage(s, OPEN_ROUTE, voyage_id=1)], Roller(7))
    dice = engine.roller.get_state()
    result = engine.run(6, 1, halt=False)  # 06:00
    assert not [e for e in result.events if "Going without" in e.event.text]
    assert s.stores.dry_water == 4 and engine.roller.get_state() == dice
