"""A ship at the end of her route outside a port (R65, R64; voyage.rules.arrival): she
anchors where an anchor reaches bottom and she has one, else she lies adrift and drifts;
`sail` and `ship place` end the voyage she lies on; a ship in tow logs her tower's way (R92).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from conftest import WHALER, add_trawler, db_contents, hurricane, ok, refused
from engine_helpers import kinds, run, ship, voyage, world

from voyage.engine.clock import World
from voyage.map.seamap import parse_map
from voyage.rules.drift import current_lookup
from voyage.tables.rulebook import load_rulebook

# the engine_helpers channel: 0603 is open deep sea (row 3), 0402 a coastal hex (row 2)
DEEP = ["0303", "0403", "0503", "0603"]
COAST = ["0303", "0403", "0402"]


def _arrival(result):
    (event,) = [e for e in result.events if e.halt == "arrived"]
    return event


def test_arriving_in_open_deep_sea_she_lies_adrift_and_is_told_why():
    st = voyage(ship(cargo=0), route=DEEP)  # a trawler: an anchor in her standard equipment
    result = run([st], seed=1, until="arrival")
    event = _arrival(result)
    assert st.status == "adrift" and st.hex == "0603" and st.active  # her voyage stays open
    assert st.ship.status != "at anchor"
    text = event.event.text
    assert text.startswith("Gull arrives at 0603 but cannot anchor there: 0603 is open deep sea")
    assert "(R65)" in text and "drifts with any current (R64)" in text
    assert "`voyage sail 'Gull' --to CCRR`" in text and "`voyage act 'Gull' anchor`" in text
    assert event.event.changes == {"status": "adrift"}
    assert result.stopped == "Gull: arrived"


def test_arriving_in_a_coastal_hex_with_an_anchor_she_anchors_and_her_voyage_stays_open():
    st = voyage(ship(cargo=0), route=COAST)
    result = run([st], seed=1, until="arrival")
    event = _arrival(result)
    assert event.event.text == "Gull arrives at 0402 and drops anchor (R65)."
    assert event.event.changes == {"status": "anchored"}
    assert st.status == "anchored" and st.active and st.progress == 0


def test_arriving_with_no_anchor_aboard_she_lies_adrift_and_is_told_to_buy_one():
    boat = ship(cls="motorboat", tier=2, engine=3, cargo=0)  # no anchor in her equipment
    st = voyage(boat, route=COAST)
    event = _arrival(run([st], seed=1, until="arrival"))
    assert st.status == "adrift"
    assert "Gull has no anchor aboard (R65)" in event.event.text
    assert "`voyage ship load 'Gull' --anchors 1`" in event.event.text


def test_arriving_in_a_port_she_moors_and_her_voyage_ends_as_before():
    st = voyage(ship(cargo=0), route=["1003", "1103", "1102"])  # 1102: the port of East
    event = _arrival(run([st], seed=1, until="arrival"))
    assert event.event.text == "Gull arrives at East (1102)."
    assert st.status == "arrived" and st.ship.status == "in port" and not st.active


# A current of 6 knots running south down column 05 from 0503; open sea all round.
SEA = """\
name: Drift test
rows: |
  #########
  #~~~~~~~#
  #~~~~~~~#
  #~~~~~~~#
  #~~~~~~~#
  #~~~~~~~#
  #~~~~~~~#
  #########
currents:
  the Set:
    hexes: ["0503-0506"]
    flows: S
    knots: 6
"""


def test_lying_adrift_after_her_arrival_she_drifts_with_the_current():
    """R64: "whatever makes no way of its own ... drifts with the current": a ship that
    could not anchor at the end of her route (R65) used to stay put, "at anchor", for ever."""
    chart = parse_map(SEA, "drift.yaml")
    w = World(load_rulebook(), chart, current_at=current_lookup(chart))
    st = voyage(ship(cargo=0), route=["0303", "0403", "0503"])
    result = run([st], seed=1, until="arrival", w=w)
    assert st.status == "adrift" and st.hex == "0503"
    result = run([st], seed=1, hours=2, w=w, start=result.hours_run)
    assert "drift" in kinds(result)
    assert st.hex == "0504"  # 12 miles at 6 knots: one hex south in two hours
    assert [r.miles for r in result.rows] == [6, 6]


def test_anchored_after_her_arrival_she_rolls_for_her_cable_in_a_storm():
    """R65: "an anchored ship in storm-tossed seas ... rolls each hour": a ship anchored at
    the end of her route is one (her voyage used to close, and no storm touched her)."""
    st = voyage(ship(cargo=0), route=COAST)
    calm = run([st], seed=2, until="arrival")
    assert st.status == "anchored"
    start = calm.hours_run
    stormy = world(lambda hex_name, clock: clock >= start)
    result = run([st], seed=2, hours=3, w=stormy, start=start, halt=False)
    cables = [e for e in result.events if e.event.kind == "anchor"]
    assert cables and cables[0].clock == start
    assert all(e.event.rolls[0].dice == "2d6" for e in cables)
    parted = [i for i, e in enumerate(cables) if e.event.rolls[0].total in (2, 12)]
    # one roll each storm hour while she lies anchored; parted, she drifts (R64)
    assert len(cables) == (parted[0] + 1 if parted else 3)


# ----------------------------------------------------------------------------- the CLI


def _reach(runner: CliRunner) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    add_trawler(runner, "0305", crew=5, cargo=200, fuel=60)


def _status(runner: CliRunner) -> dict[str, dict]:
    return {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}


def test_sail_on_from_where_she_lies_adrift_ends_that_voyage_and_undo_restores_it(runner, db: Path):
    _reach(runner)
    ok(runner, "sail", "Sea Witch", "--to", "0806")  # open deep sea
    out = ok(runner, "advance", "--until", "arrival")
    assert "Sea Witch arrives at 0806 but cannot anchor there" in out
    assert _status(runner)["Sea Witch"]["status"] == "adrift"
    before = db_contents(db)
    said = ok(runner, "sail", "Sea Witch", "--to", "0305")
    assert "Sea Witch sails from 0806 for Gullhaven (0305), 5 hexes" in said
    with sqlite3.connect(db) as conn:
        voyages = conn.execute("SELECT id, status, ended IS NOT NULL FROM voyages").fetchall()
        ship_status = conn.execute("SELECT status FROM ships").fetchone()[0]
    assert voyages == [(1, "arrived", 1), (2, "under way", 0)] and ship_status == "at sea"
    log = ok(runner, "log", "Sea Witch")
    assert "gets under way at 0806, where she lay adrift: her voyage 1 ends here (R64)." in log
    ok(runner, "undo")
    assert db_contents(db) == before


def test_a_ship_anchored_at_her_destination_sails_on_and_is_at_sea(runner, db: Path):
    _reach(runner)
    ok(runner, "sail", "Sea Witch", "--to", "0404")  # the Gull Channel: coastal water
    out = ok(runner, "advance", "--until", "arrival")
    assert "Sea Witch arrives at 0404 and drops anchor (R65)." in out
    # a line that names her first is not told "Sea Witch: Sea Witch arrives ..."
    assert "Sea Witch: Sea Witch" not in out and ":59  Sea Witch arrives at 0404" in out
    lying = _status(runner)["Sea Witch"]
    assert lying["status"] == "anchored"
    assert lying["speed"] == 0  # making no way: not the knots she could make (R65)
    assert "Status: at sea, anchored at 0404" in ok(runner, "ship", "show", "Sea Witch")
    ok(runner, "sail", "Sea Witch", "--to", "0305")
    assert _status(runner)["Sea Witch"]["speed"] > 0
    log = ok(runner, "log", "Sea Witch")
    assert "Sea Witch weighs anchor at 0404: her voyage 1 ends here (R65)." in log
    assert _status(runner)["Sea Witch"]["status"] == "under way"


def test_placed_in_open_deep_sea_she_lies_adrift_placed_in_port_that_voyage_ends(runner, db: Path):
    _reach(runner)
    before = db_contents(db)
    out = ok(runner, "ship", "place", "Sea Witch", "0806")
    assert out.startswith("Sea Witch is placed at 0806 but cannot anchor there")
    assert _status(runner)["Sea Witch"]["status"] == "adrift"
    ok(runner, "undo")
    assert db_contents(db) == before
    ok(runner, "ship", "place", "Sea Witch", "0806")
    assert ok(runner, "ship", "place", "Sea Witch", "0305").strip() == (
        "Sea Witch is at Gullhaven (0305)."
    )
    assert "Sea Witch" not in _status(runner)
    assert ok(runner, "ship", "place", "Sea Witch", "0404").strip() == (
        "Sea Witch is placed at 0404 and drops anchor (R65)."
    )
    assert _status(runner)["Sea Witch"]["status"] == "anchored"


def test_placed_where_she_can_anchor_she_is_anchored_on_an_open_voyage_as_on_arrival(
    runner, db: Path
):
    """R65, R60: `ship place` in a hex where she can anchor left her "at anchor" with no
    voyage, out of every storm until she sailed; one that arrives there rolls for her cable.
    Placed, she is anchored on a one-hex open voyage like her: a hurricane reaches her."""
    _reach(runner)
    before = db_contents(db)
    ok(runner, "ship", "place", "Sea Witch", "0404")  # a shoal: anchorage (R65)
    ok(runner, "undo")
    assert db_contents(db) == before
    ok(runner, "ship", "place", "Sea Witch", "0404")
    lying = _status(runner)["Sea Witch"]
    assert (lying["status"], lying["hex"], lying["speed"]) == ("anchored", "0404", 0)
    # at sea, as if she had arrived: the refusal names the way in (R65)
    assert "`voyage ship place 'Sea Witch' PORT`" in refused(runner, "ship", "remove", "Sea Witch")
    hurricane(runner, "0404", radius=1, hours=6)
    out = ok(runner, "advance", "--hours", "1")
    assert "anchor cable: 2d6=" in out  # she rolls for her cable each storm-tossed hour
    assert "Hurricane in 0404" in ok(runner, "advance", "--hours", "5") + out


def _towing(runner: CliRunner) -> None:
    _reach(runner)
    ok(runner, "ship", "add", "Old Faithful", *WHALER, "--trait", "Strong")
    ok(runner, "ship", "load", "Old Faithful", "--crew", "8", "--fuel", "120")
    ok(runner, "ship", "place", "Old Faithful", "0305")


def test_a_ship_in_tow_logs_the_speed_and_miles_her_tower_made(runner, db: Path):
    """R92: "the two move together at the tower's speed": her hour rows said speed 0."""
    _towing(runner)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "sail", "Old Faithful", "--to", "2812")
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    ok(runner, "advance", "--hours", "3")
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT clock, ship, speed, miles FROM hours ORDER BY clock, ship"
        ).fetchall()
    tower = {c: (speed, miles) for c, s, speed, miles in rows if s == "Old Faithful"}
    towed = {c: (speed, miles) for c, s, speed, miles in rows if s == "Sea Witch"}
    assert towed == tower and all(speed == 8 for speed, _ in towed.values())


def test_arriving_in_tow_in_open_deep_sea_both_lie_adrift_and_the_line_is_cast_off(
    runner, db: Path
):
    _towing(runner)
    ok(runner, "sail", "Sea Witch", "--to", "0806")
    ok(runner, "sail", "Old Faithful", "--to", "0806")
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    out = ok(runner, "advance", "--until", "arrival")
    assert "Old Faithful arrives at 0806 but cannot anchor there" in out
    assert "Sea Witch arrives at 0806 in tow of Old Faithful (R92) but cannot anchor" in out
    assert "The line is cast off (R92)." in out
    status = _status(runner)
    assert status["Old Faithful"]["status"] == status["Sea Witch"]["status"] == "adrift"
    with sqlite3.connect(db) as conn:
        statuses = [r[0] for r in conn.execute("SELECT status FROM ships")]
    assert "at anchor" not in statuses


def test_a_ship_lying_adrift_is_planned_from_where_she_lies(runner, db: Path):
    """`voyage plan` refused any ship at sea; one lying adrift (or anchored) at the end of
    her voyage may sail, so she may be planned, from her hex."""
    _reach(runner)
    ok(runner, "sail", "Sea Witch", "--to", "0806")
    ok(runner, "advance", "--until", "arrival")
    out = ok(runner, "plan", "Sea Witch", "--to", "0305", "--runs", "10")
    assert "Plans for Sea Witch from 0806 to Gullhaven (0305)" in out  # ports named
    assert "Sea Witch sails from 0806 for Gullhaven (0305), 5 hexes" in ok(
        runner, "sail", "Sea Witch", "--plan", "1", "--to", "0305"
    )
