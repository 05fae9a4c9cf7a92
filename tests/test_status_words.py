"""One status and one speed for each ship, whichever command asks (voyage.engine.standing):
`voyage status` (and `status --all` for the ships not at sea), `ship list`, `ship show`
and the advance's closing lines agree; a ship that makes no way of her own is adrift at
speed 0, never "under way" at speed 0, and a ship in port is never called adrift."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from conftest import add_trawler, ok, trawler_at


def _rows(runner: CliRunner, *options: str) -> dict[str, dict]:
    return {r["ship"]: r for r in json.loads(ok(runner, "status", "--json", *options))["ships"]}


def _listed(runner: CliRunner) -> dict[str, dict]:
    return {f["name"]: f for f in json.loads(ok(runner, "ship", "list", "--json"))}


def test_a_ship_that_runs_dry_is_adrift_at_speed_0_in_every_command(runner, db: Path):
    trawler_at(runner, "3016", "Gull", crew=5, fuel=2)
    ok(runner, "sail", "Gull", "--to", "3124")
    out = ok(runner, "advance", "--hours", "10")
    # the closing line: adrift at speed 0 (it said "adrift, speed 7")
    assert "  Gull: 3118, adrift, speed 0 (normal), fuel 0" in out
    row = _rows(runner)["Gull"]
    assert (row["status"], row["speed"]) == ("adrift", 0)
    listed = _listed(runner)["Gull"]
    assert (listed["status_now"], listed["speed_now"]) == ("adrift", 0)
    assert "Status: at sea, adrift at 3118" in ok(runner, "ship", "show", "Gull")


def test_a_broken_engine_under_way_reads_adrift_not_under_way_with_trouble_adrift(runner, db: Path):
    trawler_at(runner, "3016", "Gull", crew=5, fuel=60)
    ok(runner, "sail", "Gull", "--to", "3124")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE ships SET engine_broken = 1 WHERE name = 'Gull'")
    row = _rows(runner)["Gull"]
    assert (row["voyage_status"], row["status"], row["speed"]) == ("under way", "adrift", 0)
    table = ok(runner, "status")
    line = next(x for x in table.splitlines() if x.startswith("Gull"))
    assert " adrift " in line and "under way" not in line
    assert line.rstrip().endswith("engine broken")  # the trouble: no second "adrift"
    assert (_listed(runner)["Gull"]["status_now"], _listed(runner)["Gull"]["speed_now"]) == (
        "adrift",
        0,
    )
    out = ok(runner, "advance", "--hours", "1")
    assert "  Gull: 3016, adrift, speed 0 (normal)" in out


def test_status_all_lists_the_ships_in_port_as_ship_list_does(runner, db: Path):
    trawler_at(runner, "3016", "Gull", crew=5, fuel=60)
    add_trawler(runner, "0305", "Dory", crew=3, fuel=0)
    ok(runner, "sail", "Gull", "--to", "3124")
    assert set(_rows(runner)) == {"Gull"}  # at sea only, as documented
    rows = _rows(runner, "--all")
    assert set(rows) == {"Gull", "Dory"}
    listed = _listed(runner)
    for name in ("Gull", "Dory"):
        assert (rows[name]["status"], rows[name]["speed"]) == (
            listed[name]["status_now"],
            listed[name]["speed_now"],
        )
    assert rows["Dory"]["status"] == "in port" and rows["Dory"]["hex"] == "0305"
    assert "Dory" in ok(runner, "status", "--all") and "Dory" not in ok(runner, "status")


def test_a_ship_in_port_without_fuel_is_not_called_adrift(runner, db: Path):
    ok(runner, "ship", "add", "Fresh", "--class", "trawler", "--tier", "IV", "--engine", "V")
    card = ok(runner, "ship", "show", "Fresh")
    assert "Status: in port" in card and "adrift" not in card
    assert "Speed 0 knots (no fuel; 7 knots under power)" in card


def test_the_advance_closes_with_the_tower_s_load_once_the_tow_is_cast_off(runner, db: Path):
    # R92: the tow counts in the tower's Load until the line is cast off in port; the
    # advance's closing line said the Load of her last hour at sea (1302 where status said
    # 366), and the towed ship reads "arrived" at speed 0 everywhere
    trawler_at(runner, "0404", "Gull", "VIII", "VIII", crew=5, fuel=60)  # Deadweight 2500
    add_trawler(runner, "0404", "Dory", crew=0, fuel=10)
    ok(runner, "act", "Gull", "tow", "Dory")
    ok(runner, "act", "Gull", "course", "--to", "Gullhaven")
    ok(runner, "act", "Gull", "weigh")  # placed in the channel, she lay at anchor
    out = ok(runner, "advance", "--hours", "6")
    assert "Dory arrives at Gullhaven (0305) in tow of Gull" in out
    rows = _rows(runner, "--all")
    gull, dory = rows["Gull"], rows["Dory"]
    assert gull["status"] == "in port"
    closing = f"  Gull: 0305, in port, speed {gull['speed']} (normal), fuel {gull['fuel']}, "
    assert f"{closing}load {gull['load']} ({gull['load_category']}), hull water 0" in out
    # her voyage ends with the tow's (nothing aboard keeps it open): in port, what she
    # would make, in every command
    assert (dory["status"], dory["speed"]) == ("in port", 7)
    assert "  Dory: 0305, in port, speed 7 (normal), fuel 10, load 62 (quarter)" in out
    listed = _listed(runner)
    assert (listed["Dory"]["status_now"], listed["Dory"]["speed_now"]) == ("in port", 7)
    assert (listed["Gull"]["load"], listed["Gull"]["status_now"]) == (159, "in port")
    assert gull["load"] == 159


def _shown(runner: CliRunner, name: str) -> tuple[str, dict]:
    text = ok(runner, "ship", "show", name)
    status = next(x.strip() for x in text.splitlines() if x.strip().startswith("Status:"))
    return status, json.loads(ok(runner, "ship", "show", name, "--json"))


def test_ship_show_says_what_status_says_of_a_tow_and_a_wreck_towed_home(runner, db: Path):
    # an abandoned wreck, leaking, towed into port: her voyage stays open (R92, R70), so she
    # is "arrived" at speed 0; `ship show` said "in port" at her 8 knots, and under tow a
    # built boat was "making 20 mph" where status said her tower's 8
    trawler_at(runner, "0404", "Gull", "VIII", "VIII", crew=5, fuel=60)  # Deadweight 2500
    add_trawler(runner, "0404", "Dory", crew=4, fuel=10, rafts=1)
    ok(runner, "act", "Dory", "weigh")  # placed in the channel, she lay at anchor
    ok(runner, "roll", "hull-hit", "Dory", "--weapon-mod", "4", "--apply")
    ok(runner, "act", "Dory", "abandon")
    ok(runner, "act", "Gull", "tow", "Dory")
    ok(runner, "act", "Gull", "course", "--to", "Gullhaven")
    ok(runner, "act", "Gull", "weigh")
    ok(runner, "advance", "--hours", "1")
    rows = _rows(runner)
    status, shown = _shown(runner, "Dory")
    assert status == "Status: at sea, under tow at 0404"
    assert (shown["status_now"], shown["speed_now"]) == ("under tow", rows["Gull"]["speed"])
    assert rows["Dory"]["speed"] == rows["Gull"]["speed"] > 0
    ok(runner, "advance", "--hours", "2")
    rows = _rows(runner, "--all")
    assert (rows["Dory"]["status"], rows["Dory"]["speed"]) == ("arrived", 0)
    status, shown = _shown(runner, "Dory")
    assert status == "Status: at sea, arrived at Gullhaven (0305)"
    assert (shown["status_now"], shown["speed_now"]) == ("arrived", 0)
    assert "  Speed 0 knots;" in ok(runner, "ship", "show", "Dory")
    assert (_listed(runner)["Dory"]["status_now"], _listed(runner)["Dory"]["speed_now"]) == (
        "arrived",
        0,
    )
    # hours later, her log's day still says she arrived when she came in (it said the
    # day's last hour: "arrived at Day 1, 04:00")
    ok(runner, "advance", "--hours", "2")
    md = ok(runner, "export", "Dory", "-f", "md", "--out", "-")
    came_in = re.search(r"\*\*(Day 1, \d\d:\d\d)\*\* Dory arrives at Gullhaven", md)
    assert came_in is not None, md
    assert f"hlbs, arrived at {came_in.group(1)}.\n" in md
