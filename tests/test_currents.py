"""Currents and drift (R64): the map block, the arithmetic, the engine and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok, trawler_at
from engine_helpers import first_seed, kinds, run, ship, voyage

from voyage.base.errors import MapError
from voyage.dice.roller import Roller
from voyage.engine.clock import Engine, World
from voyage.map.currents import HEX_SIDES, Current
from voyage.map.seamap import load_map, parse_map
from voyage.rules.arrival import ended
from voyage.rules.drift import (
    current_effect,
    current_lookup,
    drift_hour,
    leg_speed,
    route_hours,
    side_of_step,
    step,
)
from voyage.tables.rulebook import load_rulebook

# An open sea with a coast all round: a current runs south down column 05 (0503-0507),
# a reef at 0508 below it; another current runs north at 0502, onto the land above.
SEA = """\
name: Current test
rows: |
  ###########
  #~~~~~~~~~#
  #~~~~~~~~~#
  #~~~~~~~~~#
  #~~~~~~~~~#
  #~~~~~~~~~#
  #~~~~~~~~~#
  #~~~%~~~~~#
  #~~~~~~~~~#
  ###########
currents:
  the Race:
    hexes: ["0503-0507"]
    flows: S
    knots: 12
  "0502": {flows: N, knots: 12}
"""

SOUTH = ["0502", "0503", "0504", "0505", "0506", "0507"]


def sea(text: str = SEA):
    return parse_map(text, "sea.yaml")


def sea_world(text: str = SEA, **options) -> World:
    chart = sea(text)
    return World(load_rulebook(), chart, current_at=current_lookup(chart), **options)


# ----------------------------------------------------------------------------- arithmetic


@pytest.mark.parametrize(
    ("leg", "gain"),
    [
        ("N", Fraction(3)),  # with the current: its whole speed
        ("NE", Fraction(3, 2)),  # 60 degrees off: half
        ("SE", Fraction(-3, 2)),  # 120 degrees off: loses half
        ("S", Fraction(-3)),  # against it: loses the whole
        ("SW", Fraction(-3, 2)),
        ("NW", Fraction(3, 2)),
    ],
)
def test_current_arithmetic_for_each_of_the_six_angles(leg, gain):
    current = Current(HEX_SIDES.index("N"), Fraction(3))
    assert current_effect(current, HEX_SIDES.index(leg)) == gain
    assert leg_speed(5, current, HEX_SIDES.index(leg)) == 5 + gain


def test_the_angle_is_relative_and_speed_never_goes_below_zero():
    for flows in range(6):
        current = Current(flows, Fraction(5, 2))
        gains = [current_effect(current, (flows + k) % 6) for k in range(6)]
        assert gains == [Fraction(5, 2), Fraction(5, 4), -Fraction(5, 4), -Fraction(5, 2)] + [
            -Fraction(5, 4),
            Fraction(5, 4),
        ]
    against = Current(0, Fraction(8))
    assert leg_speed(4, against, 3) == 0  # a ship never goes backwards along her route
    assert current_effect(None, 2) == 0


def test_leg_direction_is_the_hex_step():
    assert HEX_SIDES[side_of_step("0502", "0503")] == "S"
    assert HEX_SIDES[side_of_step("0503", "0502")] == "N"
    assert side_of_step("0502", "0504") is None
    for side in range(6):
        assert side_of_step("0505", step("0505", side)) == side


def test_route_hours_one_way_and_back():
    chart = sea()
    at = current_lookup(chart)
    # 4 hexes = 48 miles: at 6 knots, 8 hours in still water; with 12 knots behind her 3
    # hours (18 knots); back against it she makes no way (6 - 12, never below 0)
    assert route_hours(SOUTH[1:], 6, lambda h: None) == 8
    assert route_hours(SOUTH[1:], 6, at) == 3
    assert route_hours(SOUTH[1:][::-1], 6, at) is None
    assert route_hours(SOUTH[1:][::-1], 18, at) == 8
    # from 0502 the first hour is against 0502's northward set: held still, no way at all
    assert route_hours(SOUTH, 6, at) is None


def stepped_hours(route, speed, hex_miles, progress):
    """route_hours' hour-by-hour loop in still water: the reference for its one-step sum."""
    position, made, hours = 0, Fraction(progress), 0
    while position < len(route) - 1:
        if speed <= 0:
            return None
        made += speed
        hours += 1
        while made >= hex_miles and position < len(route) - 1:
            made -= hex_miles
            position += 1
        if hours > 24 * 366:
            return None
    return hours


@pytest.mark.parametrize(
    "legs,speed,hex_miles,progress",
    [
        (1, 1, 12, 0),
        (4, 6, 12, 0),
        (4, 7, 12, 5),
        (3, 5, 12, 11),
        (2, 30, 12, 0),
        (3, 4, 12, 40),
        (5000, 4, 12, 0),
        (8784 * 4 // 12, 4, 12, 0),
        (8784 // 12 + 1, 1, 12, 0),
        (3684, 4, 12, 7),
        (10, 0, 12, 0),
        (1, 3, 1, 0),
    ],
)
def test_route_hours_in_still_water_is_the_hour_by_hour_sum(legs, speed, hex_miles, progress):
    # no current on the route, so ETAs of long routes (thousands of hexes on a
    # 999x999 map) are one division, not a loop over the hexes; the answer is the loop's
    route = [f"{1 + i // 99:03d}{1 + i % 99:03d}" for i in range(legs + 1)]
    assert route_hours(route, speed, lambda h: None, hex_miles, progress) == stepped_hours(
        route, speed, hex_miles, progress
    )


# ----------------------------------------------------------------------------- the map


def test_the_currents_block_is_read():
    chart = sea()
    assert chart.currents["0505"] == Current(3, Fraction(12))
    assert chart.currents["0502"].direction == "N"
    assert "0508" not in chart.currents


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("flows: S\n", "flows: E\n", "direction 'E' is not a hex side: use one of N, NE, SE"),
        ("knots: 12\n", "knots: -2\n", "a speed of -2 knots is negative: give 0 or more"),
        ('["0503-0507"]', '["0503-0501"]', "hex 0501 is land"),
        ('["0503-0507"]', '["0503", "4040"]', "off the map"),
        ('"0502": {flows: N, knots: 12}', '"0503": {flows: N, knots: 2}', "already has a current"),
        ("    flows: S\n", "", "needs 'flows'"),
    ],
)
def test_a_bad_current_is_one_line_naming_the_line(old, new, words):
    with pytest.raises(MapError, match=words) as caught:
        sea(SEA.replace(old, new, 1))
    assert str(caught.value).startswith("sea.yaml, line ") and "\n" not in str(caught.value)


def test_a_bad_current_changes_nothing_in_the_campaign(runner, db, tmp_path):
    from conftest import db_contents, refused

    bad = tmp_path / "bad.yaml"
    bad.write_text(SEA.replace("flows: S\n", "flows: W\n", 1))
    ok(runner, "map", "load", "salt_reach")
    before = db_contents(db)
    assert "not a hex side" in refused(runner, "map", "load", str(bad))
    assert db_contents(db) == before


# ----------------------------------------------------------------------------- the engine


def test_a_voyage_both_ways_faster_with_the_current_than_against_it():
    # 6 knots: south with the 12-knot Race behind her, north against a 3-knot one
    slack = SEA.replace("knots: 12\n", "knots: 3\n", 1)

    def hours(route):
        st = voyage(ship(cargo=0), route=route)
        result = run([st], seed=1, until="arrival", w=sea_world(slack))
        assert ended(st) and st.hex == route[-1]  # in deep water she lies adrift (R65)
        return result.hours_run, [r.speed for r in result.rows]

    down, down_speeds = hours(SOUTH[1:])
    up, up_speeds = hours(SOUTH[1:][::-1])
    # in still water she makes 7 knots (Quarter load +2): 48 miles in 7 hours either way
    assert down == 5 and set(down_speeds) == {10}  # 7 + 3
    assert up == 12 and set(up_speeds) == {4}  # 7 - 3
    assert route_hours(SOUTH[1:], 7, current_lookup(sea(slack))) == down
    assert route_hours(SOUTH[1:][::-1], 7, current_lookup(sea(slack))) == up


def test_half_knots_are_carried_over_exactly():
    # a 3-knot current 60 degrees off gives 1.5 knots: 9 + 1.5 = 10.5 miles an hour, as
    # 10 then 11 miles, never lost
    text = SEA.replace("flows: S\n", "flows: SE\n", 1)
    st = voyage(ship(cargo=0, tier=4, engine=5, traits=("Quick",)), route=SOUTH[1:])
    text = text.replace("knots: 12\n", "knots: 3\n", 1)
    result = run([st], seed=1, hours=4, w=sea_world(text))
    assert [r.speed for r in result.rows] == [10, 11, 10, 11]
    assert sum(r.speed for r in result.rows) == 4 * Fraction(21, 2)


def _adrift(hex_name: str, route_end: str = "0909", **state) -> object:
    s = ship(cargo=0, engine_broken=True)
    chart = sea()
    return voyage(s, route=chart.route(hex_name, route_end), **state)


def test_a_ship_adrift_drifts_hex_by_hex_and_an_anchored_one_does_not():
    st = _adrift("0503")
    result = run([st], seed=2, hours=2, w=sea_world())
    drifts = [e for e in result.events if e.event.kind == "drift"]
    assert [e.event.changes["hex"] for e in drifts] == ["0504", "0505"]
    assert st.hex == "0505" and st.route[: st.position + 1] == ["0503", "0504", "0505"]
    assert st.route[-1] == "0909"  # she keeps her destination: the rest is planned again
    assert all(r.miles == 12 and r.speed == 0 for r in result.rows)
    anchored = _adrift("0503", status="anchored")
    result = run([anchored], seed=2, hours=3, w=sea_world())
    assert anchored.hex == "0503" and "drift" not in kinds(result)


def test_a_drifting_ship_carried_onto_a_reef_runs_aground():
    # R64: carried into a shallow hex she rolls the coast (R33) as inshore, and runs aground
    # (R34) at the current's speed; seeds are searched so the test does not depend on the
    # order of other rolls
    def make():
        return [_adrift("0506")]

    def aground_on_reef(result, states):
        return states[0].hex == "0508" and "aground" in kinds(result)

    seed, result, states = first_seed(make, aground_on_reef, hours=3, w=sea_world())
    st = states[0]
    assert [e.event.changes.get("hex") for e in result.events if e.event.kind == "drift"][:2] == [
        "0507",
        "0508",
    ]
    hazard = next(e for e in result.events if e.event.kind == "coast" and e.event.changes)
    assert hazard.event.rolls[0].label == "coastal hazard"
    grounding = next(e for e in result.events if e.event.kind == "aground")
    assert grounding.halt == "aground"
    roll = grounding.event.rolls[0]
    assert roll.label == "running aground" and roll.target == 12  # the current's 12 knots
    if st.sinking_in is None:  # (a rocky reef may hole her: then she is sinking)
        assert st.status == ("under way" if roll.success else "stuck")


def test_a_drifting_ship_carried_onto_land_runs_aground_and_stays():
    st = _adrift("0502")
    result = run([st], seed=4, hours=1, w=sea_world())
    assert st.hex == "0502"  # the land at 0501 stops her
    drift = next(e for e in result.events if e.event.kind == "drift")
    assert "carried onto the shore of 0501" in drift.event.text
    grounding = next(e for e in result.events if e.event.kind == "aground")
    assert grounding.halt == "aground" and grounding.event.rolls[0].target == 12


def test_drift_is_pure_and_held_at_the_map_edge():
    chart = sea()
    at = current_lookup(chart)
    steps, left = drift_hour("0503", Fraction(6), at, chart.is_sea, chart.in_bounds)
    assert [s.into for s in steps] == ["0504"] and left == 6
    assert steps[0].minute == 30  # 6 miles to go at 12 knots
    edge = "name: edge\nrows: |\n  ~~~\n  ~~~\ncurrents:\n  '0202': {flows: S, knots: 20}\n"
    small = parse_map(edge, "edge.yaml")
    steps, left = drift_hour(
        "0202", Fraction(0), current_lookup(small), small.is_sea, small.in_bounds
    )
    assert steps == [] and left == 0  # nothing is carried off the map


def test_engine_with_no_currents_is_unchanged():
    # a map without currents: the lookup is the no-current function, the speeds as before
    st = voyage(ship(cargo=0), route=SOUTH[1:])
    plain = parse_map(SEA.split("currents:")[0], "plain.yaml")
    engine = Engine(
        World(load_rulebook(), plain, current_at=current_lookup(plain)), [st], Roller(1)
    )
    result = engine.run(0, until="arrival")
    assert {r.speed for r in result.rows} == {7} and result.hours_run == 7


# ----------------------------------------------------------------------------- CLI, Salt Reach


def test_salt_reach_currents_and_the_expected_time(runner: CliRunner, db: Path, tmp_path):
    chart = load_map(Path(__file__).resolve().parent.parent / "campaigns/salt_reach/map.yaml")
    assert chart.currents["3118"].direction == "S"  # the Needle Race
    assert {chart.currents[h].direction for h in ("0524", "0624")} == {"SE", "NE"}
    trawler_at(runner, "3016", "Gull", crew=5, fuel=60)
    out = ok(runner, "sail", "Gull", "--to", "3124")
    assert "Expected: 11 hours with the currents (14 hours without, R64)" in out
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["eta_hours"] == 11
    info = json.loads(ok(runner, "act", "--json", "Gull", "course", "--to", "3124"))
    assert info["kind"] == "course"
    hexinfo = json.loads(ok(runner, "map", "hex", "3118", "--json"))
    assert hexinfo["current"] == {"flows": "S", "knots": 3.0}
    assert "current: 3 knots to the S (R64)" in ok(runner, "map", "hex", "3118")
    picture = tmp_path / "currents.png"
    ok(runner, "map", "render", "--out", str(picture), "--around", "3118", "--radius", "2")
    assert picture.stat().st_size > 1000


def test_a_ship_that_ran_dry_stays_adrift_when_a_current_carries_her_back():
    # R16 (amended): once dry she stays adrift until she takes on fuel. A Freighter VI/VII
    # (Fuel Use 2, 8 knots) steams north against a 3-knot current at 5 knots with 3 hlbs:
    # she enters 0505 (1 hlb left), runs dry at 0504's edge, and the current carries her
    # back south; in the hexes it carries her into she makes no way under power.
    slack = SEA.replace("knots: 12\n", "knots: 3\n", 1)
    st = voyage(ship(cls="freighter", tier=6, engine=7, fuel=3), route=SOUTH[::-1][1:])
    result = run([st], seed=3, hours=14, w=sea_world(slack), halt=False)
    dry = next(e for e in result.events if e.event.kind == "fuel")
    assert dry.halt == "out of fuel" and st.ship.fuel == 1
    later = [r for r in result.rows if r.clock > dry.clock]
    assert [e.event.changes["hex"] for e in result.events if e.event.kind == "drift"][:1] == [
        "0506"
    ]
    assert all(r.speed == 0 for r in later)  # no way under power, whatever is left
    assert st.status == "adrift" and st.hex in ("0506", "0507", "0508")
