"""R83-R86 through the CLI: charted depths, pumps, leak work, diving, salvage; the sub that
passes under a hurricane that sinks a surface boat on the same route."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import add_trawler, build_sub, db_contents, hurricane, ok, refused

from voyage.map.seamap import parse_map
from voyage.store.mapcache import decode, encode

SMALL = """name: Small
rows: |
  #####
  #~~~#
  #~~~#
  #####
hexes:
  "0203": {depth: 40}
"""


# ----------------------------------------------------------------------------- the map


def test_a_depths_block_charts_sets_and_hexes_and_survives_the_cache() -> None:
    text = (
        SMALL
        + """depths:
  "0302": 12
  the shelf: {hexes: ["0102-0403"], feet: 300}
  the hole: {hexes: ["0402"], feet: 900}
"""
    )
    chart = parse_map(text, "s.yaml")
    assert chart.hex("0302").depth == 300  # a later set wins over the earlier hex entry
    assert chart.hex("0203").depth == 40  # a hex's own depth under hexes wins
    assert chart.hex("0402").depth == 900 and chart.hex("0101").depth is None  # land
    again = decode(encode(chart), text, "s.yaml")
    assert [again.hex(h).depth for h in ("0302", "0203", "0402", "0202")] == [300, 40, 900, 300]
    assert "0302" not in again.entries  # kept as rectangles, not listed hex by hex


@pytest.mark.parametrize(
    "block, says",
    [
        ('  "0302": -5\n', "0 or more"),
        ('  shelf: {hexes: ["0202"], feet: -1}\n', "0 or more"),
        ('  "0101": 12\n', "land: it has no depth"),
        ('  shelf: {hexes: ["0202-0909"], feet: 3}\n', "off the map"),
        ("  shelf: {feet: 3}\n", "needs hexes and feet"),
    ],
)
def test_bad_depths_are_one_line(block: str, says: str) -> None:
    with pytest.raises(Exception, match=says) as err:
        parse_map(SMALL + "depths:\n" + block, "s.yaml")
    assert "\n" not in str(err.value) and "s.yaml, line" in str(err.value)


def test_the_salt_reach_charts_shallows_and_a_trench(runner: CliRunner, reach: Path) -> None:
    assert json.loads(ok(runner, "map", "hex", "2010", "--json"))["depth"] == 12
    assert json.loads(ok(runner, "map", "hex", "0704", "--json"))["depth"] == 6
    assert json.loads(ok(runner, "map", "hex", "1714", "--json"))["depth"] == 2400
    assert json.loads(ok(runner, "map", "hex", "0405", "--json"))["depth"] is None


# ----------------------------------------------------------------------------- R85, R86


def _gull(runner: CliRunner, pumps: int = 2) -> None:
    add_trawler(runner, "0305", "Gull", crew=5, fuel=60, pumps=pumps)


def test_pumps_are_loaded_weighed_shown_and_work_each_hour(runner: CliRunner, reach: Path):
    _gull(runner)
    fig = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert fig["bilge_pumps"] == 2 and fig["load_parts"]["pumps"] == 40  # R85: 20 hlbs each
    assert "Bilge pumps: 2" in ok(runner, "ship", "show", "Gull")
    ok(runner, "sail", "Gull", "--to", "2812")
    assert "fitted in port" in refused(runner, "ship", "load", "Gull", "--pumps", "3")
    with sqlite3.connect(reach) as conn:
        conn.execute("UPDATE ships SET water = 20 WHERE name = 'Gull'")
    ok(runner, "advance")
    events = json.loads(ok(runner, "log", "Gull", "--json"))["events"]
    pumping = [e for e in events if e["kind"] == "pumps"]
    assert len(pumping) == 1 and len(pumping[0]["rolls"]) >= 2  # each pump rolls (1-4)
    bailed = sum(r["total"] * 5 for e in pumping for r in e["rolls"] if "bails" in r["label"])
    water = json.loads(ok(runner, "ship", "show", "Gull", "--json"))["water"]
    assert water == max(0, 20 - bailed)


def test_a_dry_hour_is_counted_and_the_crew_switch_the_pumps_off(runner, reach):
    _gull(runner, pumps=1)
    ok(runner, "sail", "Gull", "--to", "2812")
    with sqlite3.connect(reach) as conn:
        conn.execute("UPDATE ships SET water = 5 WHERE name = 'Gull'")
    for _ in range(8):  # 5 hlbs go at the first working hour; the next hour is dry
        ok(runner, "advance")
    eq = json.loads(ok(runner, "ship", "show", "Gull", "--json"))["equipment"]
    assert eq["pump_dry_hours"] == 1 and eq["pumps_on"] is False
    assert "1 dry hour" in ok(runner, "ship", "show", "Gull")


def test_r86_the_crew_work_on_a_leak_every_10_minutes(runner: CliRunner, reach: Path):
    _gull(runner, pumps=0)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "roll", "hull-hit", "Gull", "--weapon-mod", "4", "--apply")
    assert "2d6 every 10 minutes" in ok(runner, "act", "Gull", "repair", "leak", "1")
    for _ in range(12):
        ok(runner, "advance")
        if not json.loads(ok(runner, "status", "--json"))["ships"][0]["leaks"]:
            break
    events = json.loads(ok(runner, "log", "Gull", "--json"))["events"]
    tries = [e for e in events if e["kind"] == "repair" and e["rolls"]]
    assert tries[-1]["rolls"][0]["success"] and "stop the leak" in tries[-1]["text"]
    assert all(not t["rolls"][0]["success"] for t in tries[:-1])
    minutes = [(e["clock"] * 60 + e["minute"]) for e in tries]
    assert minutes == list(range(10, 10 * len(tries) + 1, 10))  # every 10 minutes


# ----------------------------------------------------------------------------- R84, R83


def _sub(runner: CliRunner, name: str = "Eel", port: str = "2812") -> None:
    build_sub(runner, name, "--propellers", "2", "--crew", "2")
    ok(runner, "ship", "place", name, port)


def test_diving_and_surfacing_and_their_refusals(runner: CliRunner, reach: Path) -> None:
    _sub(runner)
    ok(runner, "sail", "Eel", "--route", "2812,2811,2711")
    ok(runner, "advance")  # 15 mph surfaced (3/4 of 20): she is in 2811, charted 15 ft
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["hex"] == "2811"
    before = db_contents(reach)
    message = refused(runner, "act", "Eel", "dive", "10")
    assert "cannot dive below the charted seabed" in message and "7 ft at most" in message
    assert db_contents(reach) == before
    assert "dives to 7 ft" in ok(runner, "act", "Eel", "dive", "7")
    assert "7 ft down" in ok(runner, "status")
    assert "surfaces" in ok(runner, "act", "Eel", "surface")
    assert "on the surface already" in refused(runner, "act", "Eel", "surface")
    ok(runner, "undo")  # the surfacing undone: 7 ft down again
    assert "7 ft down" in ok(runner, "status")
    _gull(runner, pumps=0)
    ok(runner, "sail", "Gull", "--to", "2812")
    assert "not a submersible" in refused(runner, "act", "Gull", "dive", "100")


def test_a_submarine_passes_under_a_hurricane_that_sinks_a_surface_boat(runner, reach):
    ok(runner, "ship", "build", "Moray", "--design", "Moray")
    ok(runner, "ship", "place", "Moray", "2812")
    _sub(runner)
    for ship in ("Moray", "Eel"):
        ok(runner, "sail", ship, "--to", "0305")
    ok(runner, "act", "Eel", "dive", "100")
    hurricane(runner, "2010", radius=3, hours=24)
    for _ in range(30):
        ok(runner, "advance", "--until", "arrival")
        ships = {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}
        if "Moray" not in ships and "Eel" not in ships:
            break
    moray = json.loads(ok(runner, "log", "Moray", "--json"))
    eel = json.loads(ok(runner, "log", "Eel", "--json"))
    assert any(e["kind"] == "sunk" for e in moray["events"])
    assert not any(e["kind"] in ("capsize", "sunk") for e in eel["events"])
    storm_hexes = {h["hex"] for h in moray["hours"]}
    assert storm_hexes & {h["hex"] for h in eel["hours"]}  # the same water
    assert all(" ft down" in h["status"] for h in eel["hours"])  # she stayed down
    # R84: at 2110 (charted 12 ft) she met the bottom and lies on it, 12 ft less her 8
    depths = [h["status"].split(", ")[-1] for h in eel["hours"]]
    assert "100 ft down" in depths and depths[-1] == "4 ft down"


def test_a_port_salvage_crew_gets_a_stuck_cruiser_off_in_an_hour(runner, reach):
    ok(runner, "ship", "build", "Heavy", "--design", "Lucky Catch (Heavy Armor Option)")
    ok(runner, "ship", "place", "Heavy", "0305")
    # R83: routed to Ironport she would go round the bank; sent onto it, she is warned
    out = ok(runner, "sail", "Heavy", "--to", "1910")
    assert "crosses 1910, charted 12 ft, shallower than her 15 ft draft" in out
    ok(runner, "advance", "--until", "event")  # she grounds on the Middle Ground (12 ft)
    s = json.loads(ok(runner, "status", "--json"))["ships"][0]
    assert s["status"] == "stuck" and s["hex"] == "1910"
    assert "no port in or next to 1910" in refused(runner, "act", "Heavy", "salvage")


def test_a_salvage_crew_from_silt_harbour_gets_a_grounded_speeder_off(runner, reach):
    ok(runner, "ship", "build", "Moray", "--design", "Moray")
    ok(runner, "ship", "place", "Moray", "0804")
    ok(runner, "sail", "Moray", "--route", "0804,0805,0806")
    ok(runner, "advance")  # the Silt banks: 6 ft of sand; she draws 8 ft (R83)
    s = json.loads(ok(runner, "status", "--json"))["ships"][0]
    assert (s["status"], s["hex"]) == ("stuck", "0805")
    text = ok(runner, "act", "Moray", "salvage")
    assert "Silt Harbour (0804)" in text and "$2,000" in text  # 6,500 lbs: 2 x $1,000
    assert "already at work" in refused(runner, "act", "Moray", "salvage")
    ok(runner, "advance", "--hours", "2")
    events = json.loads(ok(runner, "log", "Moray", "--json"))["events"]
    assert any("afloat again" in e["text"] for e in events)
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    assert all(s["status"] != "stuck" for s in ships)  # off the bottom (and on to 0806)
