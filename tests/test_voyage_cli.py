"""Voyages through the command line, on the bundled Salt Reach campaign."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import invoke

from voyage.cli import cli


def ok(runner: CliRunner, *args: str) -> str:
    result = invoke(runner, *args)
    assert result.exit_code == 0, result.output
    return result.output


def refused(runner: CliRunner, *args: str) -> str:
    result = invoke(runner, *args)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    return result.output


@pytest.fixture
def sea(runner: CliRunner, db: Path) -> Path:
    """The Salt Reach with the Sea Witch in Gullhaven, crewed, fuelled and laden."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Sea Witch", "--class", "trawler", "--tier", "IV",
       "--engine", "V")
    ok(runner, "ship", "load", "Sea Witch", "--crew", "5", "--cargo", "200", "--fuel", "60")
    ok(runner, "ship", "place", "Sea Witch", "0305")
    return db


def test_sail_finds_a_sea_route_and_status_shows_the_ship(runner, sea):
    out = ok(runner, "sail", "Sea Witch", "--to", "2812", "--json")
    info = json.loads(out)
    assert info["route"][0] == "0305" and info["route"][-1] == "2812"
    assert len(info["route"]) == 26
    status = json.loads(ok(runner, "status", "--json"))
    (row,) = status["ships"]
    assert row["ship"] == "Sea Witch" and row["hex"] == "0305" and row["status"] == "under way"
    assert row["miles_left"] == 300 and row["speed"] == 6


@pytest.mark.parametrize(("args", "reason"), [
    (("--to", "0101"), "is land"),
    (("--to", "9999"), "off the map"),
    (("--route", "0405,0606"), "not next to"),
    (("--to", "0305"), "already at"),
])
def test_sail_refuses_with_one_line(runner, sea, args, reason):
    assert reason in refused(runner, "sail", "Sea Witch", *args)


def test_sail_refuses_a_ship_at_sea_a_sunk_ship_and_a_strain_too_hard(runner, sea):
    assert "may strain 1 to 3" in refused(runner, "sail", "Sea Witch", "--to", "2812",
                                          "--pace", "strain", "9")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    assert "already at sea" in refused(runner, "sail", "Sea Witch", "--to", "2420")
    with sqlite3.connect(sea) as conn:
        conn.execute("UPDATE ships SET status = 'sunk'")
    assert "is sunk" in refused(runner, "sail", "Sea Witch", "--to", "2420")


def test_sail_without_a_map_or_a_position(runner, db):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "V")
    assert "no map loaded" in refused(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "map", "load", "salt_reach")
    assert "ship place" in refused(runner, "sail", "Gull", "--to", "2812")


def test_a_voyage_across_the_reach_through_a_storm_and_along_the_coast(runner, sea):
    # End to end: inshore along the Hollowmark shore (R33), through a storm in the open
    # Reach (R32), to Ironport; the referee deals with whatever stops the clock.
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "72")
    ok(runner, "ship", "add", "Old Iron", "--class", "freighter", "--tier", "X",
       "--engine", "IX", "--trait", "Steady")
    ok(runner, "ship", "load", "Old Iron", "--crew", "12", "--fuel", "200", "--cargo", "500")
    ok(runner, "ship", "place", "Old Iron", "0305")
    ok(runner, "sail", "Old Iron", "--to", "2812", "--via", "1409", "--inshore")
    for _ in range(80):
        out = ok(runner, "advance", "--until", "arrival", "--json")
        json.loads(out)  # the advance reports in JSON
        status = {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}
        if "Old Iron" not in status:
            break
        s = status["Old Iron"]
        if s["status"] == "stuck":
            continue  # R34: she tries to get off every hour
        if s["sinking_minutes_left"] is not None:
            ok(runner, "act", "Old Iron", "saved")
        if s["water"]:
            ok(runner, "act", "Old Iron", "pump", str(s["water"]))
        for _ in s["leaks"]:
            ok(runner, "act", "Old Iron", "repair", "leak", "1")
        if s["engine_broken"]:
            ok(runner, "act", "Old Iron", "repair", "engine")
    log = json.loads(ok(runner, "log", "Old Iron", "--json"))
    assert log["hours"][-1]["hex"] == "2812" and log["hours"][-1]["status"] == "arrived"
    kinds = {e["kind"] for e in log["events"]}
    assert {"sail", "coast", "capsize", "arrived"} <= kinds
    storm_checks = [e for e in log["events"] if e["kind"] == "capsize"
                    and e["rolls"][0]["label"] == "capsize check (storm)"]
    assert storm_checks and all(e["rolls"][0]["boon_faces"] for e in storm_checks)  # Steady
    for h in log["hours"]:
        assert {"day", "hour", "hex", "speed", "fuel", "load", "load_category", "water",
                "status"} <= set(h)
    for e in log["events"]:
        assert {"day", "hour", "minute", "ship", "kind", "text", "rolls"} <= set(e)
    text = ok(runner, "log", "Old Iron", "--last", "3")
    assert "arrives at Ironport" in text


def test_referee_actions_are_logged_and_undoable(runner, sea):
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    out = ok(runner, "act", "Sea Witch", "jettison", "100")
    assert "100 hlbs of cargo overboard" in out
    assert "more than" not in out
    ok(runner, "pace", "Sea Witch", "slow")
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["pace"] == "slow"
    assert "carries only" in refused(runner, "act", "Sea Witch", "jettison", "500")
    assert "not on fire" in refused(runner, "act", "Sea Witch", "fight-fire", "--crew", "2")
    assert "not sinking" in refused(runner, "act", "Sea Witch", "saved")
    assert "under way" in refused(runner, "act", "Sea Witch", "refuel", "10")
    ok(runner, "act", "Sea Witch", "anchor")
    ok(runner, "advance", "--hours", "2")
    rows = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    assert rows["hours"][-1]["status"] == "anchored" and rows["hours"][-1]["miles"] == 0
    kinds = [e["kind"] for e in rows["events"]]
    assert kinds[:2] == ["place", "sail"] and {"jettison", "pace", "anchor"} <= set(kinds)
    ok(runner, "undo")  # the advance
    ok(runner, "undo")  # the anchor
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["status"] == "under way"


def test_refuel_in_a_port_that_sells_fuel(runner, sea):
    out = ok(runner, "act", "Sea Witch", "refuel", "40")
    assert "buys 40 hlbs of fuel at Gullhaven for 80" in out
    ship = json.loads(ok(runner, "ship", "show", "Sea Witch", "--json"))
    assert ship["fuel"] == 100
    assert "only 560 hlbs" in refused(runner, "act", "Sea Witch", "refuel", "600")
    ok(runner, "ship", "place", "Sea Witch", "3016")
    assert "sells no fuel" in refused(runner, "act", "Sea Witch", "refuel", "5")


def test_advance_with_no_ship_at_sea(runner, sea):
    assert "no ship is at sea" in refused(runner, "advance")


def test_advance_until_dawn_and_dusk(runner, sea):
    ok(runner, "sail", "Sea Witch", "--route", "0405,0506,0605")
    ok(runner, "act", "Sea Witch", "anchor")
    out = json.loads(ok(runner, "advance", "--until", "dawn", "--json"))
    assert out["end"] == 6 and out["stopped"] == "dawn"
    out = json.loads(ok(runner, "advance", "--until", "dusk", "--json"))
    assert out["end"] == 18


def test_commands_have_examples():
    import click

    ctx = click.Context(cli, info_name="voyage")
    for name in ("sail", "advance", "pace", "act", "log", "status"):
        cmd = cli.get_command(ctx, name)
        assert cmd is not None and "Example" in (cmd.help or "")
        if isinstance(cmd, click.Group):
            for sub in cmd.commands.values():
                assert "Example" in (sub.help or ""), sub.name
