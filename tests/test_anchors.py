"""Anchors (R65): where a ship may anchor, anchors as stores, the cable in a storm."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import db_contents, ok, refused
from engine_helpers import first_seed, kinds, run, ship, voyage, world

from voyage.dice.roller import Roller
from voyage.map.seamap import parse_map
from voyage.rules.anchors import anchor_cable, anchorage_problem, cable_odds
from voyage.vessels.fittings import anchors_aboard

DEPTHS = """\
name: Depths
rows: |
  #######
  #~~~~~#
  #~~~~~#
  #~~:~~#
  #~~~~~#
  #~~~~~#
  #######
hexes:
  "0303": {depth: 120}
  "0503": {depth: 400}
"""


def test_cable_odds_are_two_in_thirty_six(book):
    assert cable_odds(book) == Fraction(2, 36)


def test_cable_parts_at_the_exact_rate(book, binomial):
    # 2000 seeded storm hours: 1/18 expected, within 4 sigma
    roller = Roller(65)
    trials = 2000
    parted = 0
    for _ in range(trials):
        result = anchor_cable(roller, book)
        total = result.rolls[0].total
        assert result.parted == (total in (2, 12))
        parted += result.parted
    assert binomial(parted, trials, Fraction(1, 18), sigmas=4)


def test_where_a_ship_may_anchor(book):
    chart = parse_map(DEPTHS, "depths.yaml")
    assert anchorage_problem(chart.hex("0202"), book) is None  # coastal
    assert anchorage_problem(chart.hex("0404"), book) is None  # a shoal
    assert anchorage_problem(chart.hex("0303"), book) is None  # charted 120 ft
    deep = anchorage_problem(chart.hex("0503"), book)
    assert deep is not None and "charted at 400 ft" in deep and "150 ft" in deep
    open_sea = anchorage_problem(chart.hex("0404".replace("04", "03", 1)), book)  # 0304
    assert open_sea is not None and "open deep sea" in open_sea
    with pytest.raises(Exception, match="land: it has no depth"):
        parse_map(DEPTHS.replace('"0503": {depth: 400}', '"0101": {depth: 4}'), "d.yaml")
    with pytest.raises(Exception, match="depth is in feet, 0 or more"):
        parse_map(DEPTHS.replace("depth: 400", "depth: -5"), "d.yaml")


def test_anchors_aboard_by_class(book):
    from voyage.vessels.ships import make_ship

    assert anchors_aboard(make_ship(book, "T", "trawler", 4, 5)) == 1  # standard equipment
    assert anchors_aboard(make_ship(book, "M", "motorboat", 2, 3)) == 0
    assert anchors_aboard(make_ship(book, "D", "dinghy", 1)) == 0


def test_an_anchored_ship_in_a_storm_may_lose_her_anchor_and_drift():
    # the first seed whose storm parts her cable before a capsize Check sinks her
    def make():
        big = ship(cargo=0, tier=10, engine=9, cls="freighter")
        return [voyage(big, status="anchored", position=1)]  # 0303: off the port

    def lost_anchor(result, states):
        return any(e.halt == "anchor lost" for e in result.events)

    _, result, (st,) = first_seed(make, lost_anchor, hours=200, w=world(lambda h, c: True))
    lost = [e for e in result.events if e.halt == "anchor lost"]
    assert len(lost) == 1 and result.stopped == "Gull: anchor lost"
    cables = [e for e in result.events if e.event.kind == "anchor"]
    assert "capsized" not in result.stopped
    assert len(cables) == result.hours_run  # one cable roll every storm hour
    assert cables[-1] is lost[0] and cables[-1].event.rolls[0].total in (2, 12)
    assert all(e.event.rolls[0].total not in (2, 12) for e in cables[:-1])
    assert st.status == "adrift" and anchors_aboard(st.ship) == 0
    assert lost[0].event.changes == {"anchor_lost": True, "anchors": 0, "status": "adrift"}


def test_no_cable_roll_in_calm_seas_or_moored_in_a_harbour():
    st = voyage(ship(cargo=0), status="anchored", position=1)
    result = run([st], seed=3, hours=12)
    assert "anchor" not in kinds(result) and st.status == "anchored"
    moored = voyage(ship(cargo=0), status="anchored")  # 0202 is the port of West
    result = run([moored], seed=3, hours=12, w=world(lambda h, c: True), halt=False)
    assert "anchor" not in kinds(result) and moored.status != "adrift"


def test_a_port_call_on_the_way_needs_no_anchor(runner, reach):
    # the Gull (a motorboat: no anchor) calls at Gullhaven again on her way, moors, refuels
    ok(runner, "sail", "Gull", "--route", "0404,0305,0405")
    ok(runner, "advance", "--hours", "4")
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["hex"] == "0305"
    assert "moors in Gullhaven (0305)" in ok(runner, "act", "Gull", "anchor")
    assert "buys 5 hlbs of fuel at Gullhaven" in ok(runner, "act", "Gull", "refuel", "5")


# ----------------------------------------------------------------------------- the CLI


@pytest.fixture
def reach(runner, db):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "2", "--fuel", "20")
    ok(runner, "ship", "place", "Gull", "0305")
    return db


def test_anchors_are_bought_in_port_and_needed_to_anchor(runner, reach):
    ok(runner, "sail", "Gull", "--route", "0404,0504")
    ok(runner, "advance", "--hours", "2")  # in the Gull Channel: coastal water
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["hex"] == "0404"
    before = db_contents(reach)
    assert "no anchor aboard: buy one in port" in refused(runner, "act", "Gull", "anchor")
    assert "anchors are bought in port" in refused(runner, "ship", "load", "Gull", "--anchors", "1")
    assert db_contents(reach) == before
    ok(runner, "undo")  # the advance
    ok(runner, "undo")  # the sailing: she is back in Gullhaven
    shown = json.loads(ok(runner, "ship", "load", "Gull", "--anchors", "2", "--json"))
    assert shown["anchors"] == 2
    ok(runner, "sail", "Gull", "--route", "0404,0504")
    ok(runner, "advance", "--hours", "2")
    out = ok(runner, "act", "Gull", "anchor")
    assert "drops anchor at 0404" in out
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["status"] == "anchored"
    assert "weighs anchor" in ok(runner, "act", "Gull", "weigh")
    assert "not at anchor or adrift" in refused(runner, "act", "Gull", "weigh")


def test_anchoring_in_open_deep_sea_is_refused_and_changes_nothing(runner, reach):
    ok(runner, "ship", "load", "Gull", "--anchors", "1")
    ok(runner, "sail", "Gull", "--to", "1714")  # the Deep Reach
    ok(runner, "advance", "--hours", "4")
    status = json.loads(ok(runner, "status", "--json"))["ships"][0]
    hex_info = json.loads(ok(runner, "map", "hex", status["hex"], "--json"))
    assert not hex_info["coastal"] and hex_info["terrain"] == "sea"
    before = db_contents(reach)
    message = refused(runner, "act", "Gull", "anchor")
    assert "open deep sea: an anchor reaches no bottom (R65)" in message
    assert db_contents(reach) == before


def test_a_sinking_ship_that_moors_or_anchors_is_told_she_is_still_sinking(runner, reach):
    """R40: a quay or an anchor does not stop a sinking; `act anchor` said only "moors in
    Gullhaven", as if she were safe there. The event says she is still sinking, and she
    goes under when her minutes run out."""
    ok(runner, "ship", "load", "Gull", "--anchors", "1")
    ok(runner, "sail", "Gull", "--route", "0305,0404")  # still in Gullhaven's hex
    rolled = ok(runner, "roll", "sinking", "Gull", "--apply")
    minutes = rolled.split("submerges completely in ")[1].split(" ")[0]
    out = ok(runner, "act", "Gull", "anchor")
    assert out.startswith("Gull moors in Gullhaven (0305), but she is still sinking (R40): ")
    assert "unless saved (`voyage act 'Gull' saved`)" in out
    status = json.loads(ok(runner, "status", "--json"))["ships"][0]
    assert status["status"] == "sinking" and f"goes under in {minutes} minutes" in out
    changes = json.loads(ok(runner, "act", "--json", "Gull", "weigh"))
    assert changes  # weighing again is allowed; she sinks all the same
    ok(runner, "undo")
    assert "sunk" in ok(runner, "advance", "--hours", "2")
