"""The engine's minutes of an hour with an emergency aboard (R52: fire R50, listing R37,
sinking R40), stepped by voyage.rules.emergency.emergency_minutes with ShipState.active and
.emergency read inline, give exactly what the loop over those properties gave:
the same rows, events, rolls, dice state and final states."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import COAST_ROUTE, OPEN_ROUTE, ship, voyage, world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.dice.roller import Roller
from voyage.engine import clock as engine_module
from voyage.engine.clock import CLOSED_STATUSES, OPEN_STATUSES, Engine, ShipState
from voyage.rules import emergency


def _plain_minutes(h: Any, entries: list[int], i: int) -> int:
    """_ShipHour.finish's loop as it was: the properties asked every minute."""
    s = h.s
    count = len(entries)
    while h.minute < 60 and s.active and (s.emergency or (h.moving and i < count)):
        if s.emergency:
            h.tick()
        while i < count and entries[i] <= h.minute and h.moving:
            h.enter_hex()
            i += 1
        if s.emergency:
            h.minute += 1
        elif h.moving and i < count:
            h.minute = max(h.minute, entries[i])
    return i


def test_the_minutes_read_the_engines_statuses():
    assert emergency.OPEN == OPEN_STATUSES
    assert set(emergency.ENDED) < set(CLOSED_STATUSES) and "arrived" not in emergency.ENDED
    assert emergency.MINUTES == engine_module.MINUTES


def _outcome(engine: Engine, states: list[ShipState], hours: int) -> list[object]:
    out: list[object] = []
    for hour in range(hours):
        result = engine.run(3 + hour, 1, halt=False)
        out.append([r.to_dict() for r in result.rows])
        out.append([e.to_dict() for e in result.events])
        out.append([(s.extra(), s.position, s.progress, s.status, s.ship.fuel) for s in states])
    out.append(engine.roller.get_state())
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ships=st.lists(
        st.tuples(
            st.integers(2, 6),  # tier
            st.integers(0, 7),  # fire severity (over the Tier: out of control)
            st.sampled_from([None, None, 3, 25]),  # swallowed in (R50)
            st.sampled_from([None, None, 4, 40]),  # sinking in (R40)
            st.booleans(),  # listing (R37)
            st.sampled_from([0, 0, 30]),  # a leak (R36)
            st.sampled_from(["under way", "under way", "anchored", "stuck", "arrived"]),
            st.booleans(),  # the coast route (R33 on the way)
            st.integers(0, 11),  # progress
            st.integers(0, 4),  # crew fighting
        ),
        min_size=1,
        max_size=3,
    ),
    seed=st.integers(0, 10_000),
    hours=st.integers(1, 6),
    hex_miles=st.sampled_from([12, 3]),
)
def test_emergency_minutes_are_the_minutes_stepped_plainly(ships, seed, hours, hex_miles):
    def sail(plain: bool) -> list[object]:
        states = []
        for n, (
            tier,
            fire,
            swallow,
            sinking,
            listing,
            leak,
            status,
            coast,
            progress,
            crew,
        ) in enumerate(ships):
            s = ship(f"Ship {n}", tier=tier, fuel=60, crew=crew)
            state = voyage(
                s,
                COAST_ROUTE if coast else OPEN_ROUTE,
                inshore=coast,
                voyage_id=n + 1,
                progress=progress,
                status=status,
                leaks=[leak] if leak else [],
                listing=listing,
                listing_since=0 if listing else None,
            )
            if fire:
                state.catch_fire(min(fire, tier), 0, swallow if fire > tier else None)
            if sinking is not None:
                state.start_sinking(sinking, 0, "a test")
            states.append(state)
        engine = Engine(world(), states, Roller(seed))
        engine._hex_miles = hex_miles
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(engine_module._ShipHour, "calm", lambda self: None)  # every phase run
            if plain:
                mp.setattr(engine_module, "emergency_minutes", _plain_minutes)
            return _outcome(engine, states, hours)

    assert sail(False) == sail(True)
