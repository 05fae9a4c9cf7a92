"""R92 for a built boat towing (R81): the tow counts in her Load and load category as in a
rolled ship's (not for R12's sinking), and in her weight for her speed (R82)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import db_contents, ok

from voyage.store import campaign as store
from voyage.vessels import ships as shipfig


def test_a_towing_boat_counts_the_tow_in_her_load_category(runner: CliRunner, db: Path):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "ship", "build", "Moray", "--design", "Moray")
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "2", "--fuel", "30")
    for name in ("Moray", "Gull"):
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")
    before = db_contents(db)
    # the Moray: Deadweight (Speeder: maximum load - body weight) / 10 = 430 hlbs, Load 380
    # (Full); the Gull's Deadweight 250 + Load 62 = 312 hlbs, all of it counted (not Strong)
    out = json.loads(ok(runner, "act", "--json", "Moray", "tow", "Gull"))
    assert out["changes"] == {"tow": "Gull", "tow_weight": 312, "tow_counted": 312}
    fig = json.loads(ok(runner, "ship", "show", "Moray", "--json"))
    assert fig["load"] == 380 + 312 and fig["load_parts"]["tow"] == 312
    assert fig["load_category"] == "overloaded"  # 692 > 430 (R12, R92)
    assert fig["sinking_load"] == 860  # R92: not for R12's sinking
    camp = store.open_campaign(db)
    moray, book = camp.get_ship("Moray"), camp.rulebook
    assert shipfig.load(moray, book) == 692
    assert shipfig.load_category(moray, book) == "overloaded"
    camp.close()
    ok(runner, "undo")
    assert db_contents(db) == before
    fig = json.loads(ok(runner, "ship", "show", "Moray", "--json"))
    assert fig["load"] == 380 and "tow" not in fig["load_parts"]
    assert fig["load_category"] == "full"


def test_a_rolled_ship_tows_a_built_boat_and_the_weight_is_a_whole_number(
    runner: CliRunner, db: Path
):
    """R92 with R81: a built boat's Deadweight and Load are exact fractions of her lbs; the
    tow's weight reaches the JSON output and the log as whole hlbs (it once stopped the
    command with "Fraction is not JSON serializable")."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "ship", "build", "Dart", "--design", "Moray")
    ok(runner, "ship", "add", "Tug", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Tug", "--crew", "2", "--fuel", "30")
    for name in ("Dart", "Tug"):
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")
    # the Moray: Deadweight (7000 - 2700) / 10 = 430, Load (6500 - 2700) / 10 = 380
    out = json.loads(ok(runner, "act", "--json", "Tug", "tow", "Dart"))
    assert out["changes"] == {"tow": "Dart", "tow_weight": 810, "tow_counted": 810}
    assert type(out["changes"]["tow_weight"]) is int
    assert "the tow weighs 810 hlbs" in ok(runner, "log", "Dart") + ok(runner, "log", "Tug")
