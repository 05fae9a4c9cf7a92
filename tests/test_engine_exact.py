"""Engine scenarios with every die chosen: exact events, minutes, hexes and water (13.7).

The engine runs with a roller whose dice show the faces given (conftest's ``faces``), so
each scenario asserts exactly what happens, at which minute and where, and that no other die
was rolled. Seeds are not searched: a rule that is off by one shows.

Scenarios that later work on the rules may change: the storm check's label and
modifiers (sea states, R60) and the same-hex storm clock (R32 storm hours).
"""

from __future__ import annotations

import dataclasses

import pytest
from engine_helpers import COAST_ROUTE, OPEN_ROUTE, channel, ship, voyage, world

from voyage.engine.clock import Engine, World
from voyage.tables.rulebook import RuleBook


def _run(states, roller, hours, w=None):
    result = Engine(w or world(), states, roller).run(0, hours, halt=False)
    assert roller.faces == [], "the scenario left dice unrolled"
    return result


@pytest.mark.parametrize(
    "pace,speed,minute,stuck", [("slow", 3, 20, True), ("normal", 6, 10, False)]
)
def test_r34_aground_rolls_against_the_travelling_speed(faces, pace, speed, minute, stuck):
    # R15: slow ahead is half Speed (6 -> 3 knots); R34: d12 + 3 (sandy) under the
    # *travelling* speed avoids getting stuck. d12 shows 2: 5 is not under 3 (stuck at
    # slow), but is under 6 (free at normal pace). One mile to the shoal at 0502: entered at
    # minute 60 / 3 = 20 (slow) or 60 / 6 = 10 (normal).
    st = voyage(ship(cargo=100), COAST_ROUTE, inshore=True, pace=pace, position=2, progress=11)
    roller = faces(1, 2)  # the 1-in-6 hazard shows; the d12 shows 2
    result = _run([st], roller, 1)
    assert [(e.event.kind, e.clock, e.event.minute) for e in result.events] == [
        ("coast", 0, minute),
        ("aground", 0, minute),
    ]
    roll = result.events[1].event.rolls[0]
    assert (roll.label, roll.total, roll.target, roll.success) == (
        "running aground",
        5,
        speed,
        not stuck,
    )
    assert result.rows[0].speed == speed
    assert st.ship.hex == "0502" and (st.status == "stuck") is stuck
    assert roller.sides_asked == [6, 12]


def _big_leaks(book: RuleBook) -> World:
    """The channel with a house rule: a hull leak is d120 (R36's d6, made large so that one
    minute of a leak is 2 hlbs and no rounding hides an off-by-one minute)."""
    hull = {**book.procedures["hull"], "leak_die": "d120"}
    big = dataclasses.replace(book, procedures={**book.procedures, "hull": hull})
    return World(big, channel())


def test_r36_a_leak_opened_at_minute_30_lets_in_half_an_hour(book, faces):
    # The trawler (6 knots) is 3 miles short of the rocks at 0702: she enters at minute 30.
    # 1 on the d6: a hazard; d12 12: stuck (12 is not under 6); the rocks are rammed at 6
    # knots: d12 1, margin 5 (R35); the leak: d120 115 + 5 = 120 hlbs an hour; the
    # Explosion d20 1 + 5 + 5 (lethal) - 4 = 7: she survives. The first hour lets in
    # 120 x 30/60 = 60 hlbs (R36: from the minute it opened); the next hour 120 more
    # (getting off fails: 2d6 = 2).
    st = voyage(ship(cargo=100), COAST_ROUTE, inshore=True, position=4, progress=9)
    roller = faces(1, 12, 1, 115, 1, 1, 1)
    result = _run([st], roller, 2, _big_leaks(book))
    holed = next(e for e in result.events if e.event.kind == "aground")
    assert (holed.clock, holed.event.minute) == (0, 30)
    assert st.leaks == [120]
    assert [r.water for r in result.rows] == [60, 180]
    assert [r.leaks for r in result.rows] == [120, 120]
    assert roller.sides_asked == [6, 12, 12, 120, 20, 6, 6]


@pytest.mark.parametrize("progress,minute,water", [(11, 10, 100), (7, 50, 20), (6, 59, 2)])
def test_r36_the_first_hours_share_follows_the_minute(book, faces, progress, minute, water):
    # the same holing at minute 10 (1 mile to go) lets in 120 x 50/60 = 100; at minute 50
    # (5 miles) 120 x 10/60 = 20; 6 miles to go take the whole hour: she enters in its last
    # minute, 59, and lets in 120 x 1/60 = 2
    st = voyage(ship(cargo=100), COAST_ROUTE, inshore=True, position=4, progress=progress)
    result = _run([st], faces(1, 12, 1, 115, 1), 1, _big_leaks(book))
    assert next(e for e in result.events if e.event.kind == "aground").event.minute == minute
    assert result.rows[0].water == water


def test_r32_one_storm_check_for_each_storm_hex_entered(faces):
    # 6 knots on the open route: a hex every 2 hours, entered at minute 59 of hours 1, 3,
    # 5, 7, 9. The storm covers 0403, 0503 and 0603: exactly one capsize Check in each, at
    # the minute she enters it, and none in the hours she spends inside (under 6 hours).
    storm = {"0403", "0503", "0603"}
    st = voyage(ship(cargo=100))
    roller = faces(20, 20, 20)  # each d20 holds
    result = _run([st], roller, 10, world(lambda h, c: h in storm))
    hex_at = {r.clock: r.hex for r in result.rows}
    checks = [(e.clock, e.event.minute, hex_at[e.clock]) for e in result.events]
    assert checks == [(3, 59, "0403"), (5, 59, "0503"), (7, 59, "0603")]
    # R60: a storm placed without a state is stormy seas (no Disadvantage: one d20 each)
    labels = {e.event.rolls[0].label for e in result.events}
    assert labels == {"capsize check (storm: stormy seas)"}
    assert [r.hex for r in result.rows][::2] == OPEN_ROUTE[:5]
    assert roller.sides_asked == [20, 20, 20]
