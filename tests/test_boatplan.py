"""Planning a built boat's voyage: `voyage plan` proposes recharging
stops when her charge will not last (R82: power units a hex by her speed, fractions kept),
`forecast` and `plan` name a route that crosses water shallower than her draft (R83), and
`forecast` says "runs out of charge" for her."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused

from voyage.actions import plan as planmod
from voyage.store.campaign import read_only_campaign

SETUP = (
    ("map", "load", "salt_reach"),
    ("ship", "build", "Moray", "--design", "Moray"),
    ("ship", "place", "Moray", "2906"),  # Keelhaul
)


@pytest.fixture
def moray(runner: CliRunner, db: Path) -> Path:
    for args in SETUP:
        ok(runner, *args)
    return db


def test_fuel_per_hex_is_r82_exact_by_the_planned_speed(moray: Path) -> None:
    camp = read_only_campaign(str(moray))
    ship = camp.get_ship("Moray")
    book = camp.rulebook
    was = ship.pace
    # R82: 12 units a hex at 20 mph, 14.4 at 30, 21.6 at 60 (never rounded)
    for pace, units in (("20mph", 12), ("30mph", Fraction(72, 5)), ("60mph", Fraction(108, 5))):
        assert planmod.fuel_per_hex(ship, book, pace, True) == units
    assert ship.pace == was  # the ship itself is untouched


def test_plan_offers_a_recharging_stop_when_her_charge_will_not_last(
    runner: CliRunner, moray: Path
) -> None:
    # 100 units at 20 mph (12 a hex) last 8 hexes; Needle Gate (3016) is 12 away, Ironport
    # (2812) 7 on the way and 5 on from there: one stop
    ok(runner, "ship", "load", "Moray", "--fuel", "100")
    out = ok(runner, "plan", "Moray", "--to", "3016", "--runs", "40", "--seed", "1")
    assert "recharging in a port: Ironport (2812)" in out
    assert (
        "at Ironport (2812) recharge to 200 power units (10 minutes, $50: "
        "`voyage act 'Moray' recharge`)"
    ) in out
    data = json.loads(
        ok(runner, "plan", "Moray", "--to", "3016", "--runs", "40", "--seed", "1", "--json")
    )
    rows = {p["kind"]: p for p in data["plans"]}
    assert rows["recharge"]["arrives"] == 1.0 and rows["shortest"]["arrives"] == 0.0
    assert rows["shortest"]["out_of_fuel"] == 1.0  # she runs out of charge on the way
    assert rows["recharge"]["stops"][0]["hex"] == "2812"
    assert rows["recharge"]["fuel_left"] == 200 - 5 * 12  # recharged, then 5 hexes
    n = str(rows["recharge"]["plan"])
    out = ok(
        runner, "forecast", "Moray", "--plan", n, "--to", "3016", "--runs", "20", "--seed", "1"
    )
    assert "stopping to recharge at 2812" in out and "runs out of charge" in out
    assert "Charge spent (power units): mean 144;" in out  # 12 hexes x 12 units (R82)


def test_plan_chains_stops_when_one_is_not_enough(runner: CliRunner, moray: Path) -> None:
    # 60 mph: 21.6 units a hex, a full plant lasts 9 hexes. Keelhaul to Saltholm (2420) is
    # 17 hexes; Ironport (7) then Saltholm (10) is too far, so Ironport, Needle Gate (5),
    # Saltholm (9)
    ok(runner, "pace", "Moray", "60mph")
    data = json.loads(
        ok(runner, "plan", "Moray", "--to", "2420", "--runs", "20", "--seed", "1", "--json")
    )
    (row,) = [p for p in data["plans"] if p["kind"] == "recharge"]
    assert [s["hex"] for s in row["stops"]] == ["2812", "3016"] and row["hexes"] == 21
    assert row["arrives"] == 1.0
    assert row["fuel_left"] == pytest.approx(float(200 - 9 * Fraction(108, 5)))
    before = db_contents(moray)
    out = ok(runner, "sail", "Moray", "--plan", str(row["plan"]), "--to", "2420")
    assert "Route: 2906 2806 2807 2808 2809 2810 2811 2812" in out
    assert "At Ironport (2812) recharge (`voyage act 'Moray' recharge`: 10 minutes, $50)" in out
    assert "Then at Needle Gate (3016) recharge again (R82)." in out
    ok(runner, "undo")
    assert db_contents(moray) == before


def test_no_recharge_plan_when_her_charge_lasts(runner: CliRunner, moray: Path) -> None:
    data = json.loads(
        ok(runner, "plan", "Moray", "--to", "2812", "--runs", "10", "--seed", "1", "--json")
    )
    assert all(p["kind"] != "recharge" and not p["stops"] for p in data["plans"])


def test_forecast_and_plan_warn_of_a_shoal_under_her_draft(runner: CliRunner, db: Path) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "build", "Heavy", "--design", "Lucky Catch (Heavy Armor Option)")
    ok(runner, "ship", "place", "Heavy", "0305")
    warning = (
        "Warning: her route crosses 1910, charted 12 ft, shallower than her 15 ft "
        "draft: she will run aground there (R83)."
    )
    out = ok(runner, "forecast", "Heavy", "--to", "1910", "--runs", "20", "--seed", "1")
    assert out.rstrip().endswith(warning)
    assert "runs out of charge" in out and "runs out of fuel" not in out  # R82
    data = json.loads(
        ok(runner, "forecast", "Heavy", "--to", "1910", "--runs", "20", "--seed", "1", "--json")
    )
    assert data["depth_warning"] == warning
    plans = json.loads(
        ok(runner, "plan", "Heavy", "--to", "1910", "--runs", "10", "--seed", "1", "--json")
    )
    assert plans["plans"][0]["depth_warning"] == warning
    out = ok(runner, "forecast", "Heavy", "--to", "2812", "--runs", "10", "--seed", "1", "--json")
    assert json.loads(out)["depth_warning"] is None  # round the bank: nothing to say


def test_plan_for_a_boat_at_sea_is_one_line(runner: CliRunner, moray: Path) -> None:
    ok(runner, "sail", "Moray", "--to", "2812")
    assert "Moray is at sea" in refused(runner, "plan", "Moray", "--to", "3016")


def test_plan_says_why_no_way_reaches_when_the_ports_are_too_far_apart(
    runner: CliRunner, moray: Path
) -> None:
    # Keelhaul (2906) to Gullhaven (0305): every port of the west is 17 or more hexes from
    # every port of the east, and a full charge takes her 16 hexes at 20 mph (R82: 12 a
    # hex; 192 of 200 units) or 9 at 60 mph (21.6 a hex): no chain of stops can cross
    ok(runner, "pace", "Moray", "60mph")
    out = ok(runner, "plan", "Moray", "--to", "0305", "--runs", "20", "--seed", "1")
    assert "recharging in a port" not in out
    assert (
        "No plan reaches 0305: a full charge (200 power units) takes Moray 9 hexes at 21.6 "
        "units a hex (R82: 12 a hex at 20 mph or less: `voyage pace 'Moray' 20mph`)" in out
    )
    ok(runner, "pace", "Moray", "20mph")
    data = json.loads(ok(runner, "plan", "Moray", "--to", "0305", "--runs", "20", "--json"))
    assert data["shortfall"].startswith(
        "No plan reaches 0305: a full charge (200 power units) takes Moray 16 hexes at 12 "
        "units a hex (R82),"
    )
    # where a way exists there is nothing to explain
    data = json.loads(ok(runner, "plan", "Moray", "--to", "2812", "--runs", "20", "--json"))
    assert data["shortfall"] is None


def test_plan_says_how_far_a_rolled_ships_fuel_takes_her(runner: CliRunner, moray: Path) -> None:
    ok(runner, "ship", "roll", "--class", "trawler", "--name", "Tub")
    ok(runner, "ship", "load", "Tub", "--crew", "4", "--fuel", "5")
    ok(runner, "ship", "place", "Tub", "0305")
    out = ok(runner, "plan", "Tub", "--to", "2812", "--runs", "20", "--seed", "1")
    use = planmod.fuel_per_hex(
        read_only_campaign(str(moray)).get_ship("Tub"),
        read_only_campaign(str(moray)).rulebook,
        "normal",
        True,
    )
    assert f"No plan reaches 2812: her 5 hlbs of fuel take Tub {5 // use} hexes" in out
    assert "(R16)" in out and "`voyage ship load 'Tub' --fuel N`" in out
