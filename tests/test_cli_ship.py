"""Campaign and ship commands through the CLI."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner
from conftest import db_contents as digest

from voyage.cli import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_init_roll_load_show(db):
    result = run("ship", "roll", "--class", "freighter", "--count", "5", "--json")
    assert result.exit_code == 0, result.output
    ships = json.loads(result.output)
    assert len(ships) == 5 and len({s["name"] for s in ships}) == 5
    for s in ships:
        assert s["class"] == "Freighter" and 6 <= s["tier"] <= 10
        for key in (
            "name",
            "class",
            "tier",
            "engine_tier",
            "deadweight",
            "load",
            "load_category",
            "speed",
            "fuel_use",
            "to_hit",
            "traits",
            "equipment",
            "crew",
            "passengers",
            "cargo",
            "fuel",
            "water",
        ):
            assert key in s
        assert isinstance(s["tier"], int) and isinstance(s["engine_tier"], int)
        assert s["rolls"] and all("line" in r for r in s["rolls"])
    name = ships[0]["name"]
    result = run(
        "ship", "load", name, "--crew", "6", "--passengers", "2", "--cargo", "200", "--fuel", "40"
    )
    assert result.exit_code == 0, result.output
    shown = json.loads(run("ship", "show", name, "--json").output)
    assert (shown["crew"], shown["passengers"], shown["cargo"], shown["fuel"]) == (6, 2, 200, 40)
    assert shown["load"] == 200 + 40 + 80 + 142


def test_same_seed_same_ships(tmp_path):
    outs = []
    for i in range(2):
        path = tmp_path / f"c{i}.db"
        assert run("init", "--db", str(path), "--seed", "42").exit_code == 0
        outs.append(run("ship", "roll", "--db", str(path), "--count", "3", "--json").output)
    assert outs[0] == outs[1]


def test_add_list_remove_and_undo(db):
    result = run(
        "ship",
        "add",
        "Sea Witch",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--trait",
        "Steady",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["tier"] == 4 and data["engine_tier"] == 5 and data["traits"] == ["Steady"]
    listed = run("ship", "list")
    assert "Sea Witch" in listed.output and "IV" in listed.output
    assert json.loads(run("ship", "show", "SEA-WITCH", "--json").output)["name"] == "Sea Witch"
    assert run("ship", "remove", "sea witch").exit_code == 0  # names are case-insensitive
    assert "No ships yet" in run("ship", "list").output
    assert run("undo").exit_code == 0
    assert "Sea Witch" in run("ship", "list").output


def test_duplicate_name_refused(db):
    assert run("ship", "add", "Gull", "--class", "dinghy", "--tier", "1").exit_code == 0
    for other in ("GULL", "Gull!"):
        result = run("ship", "add", other, "--class", "dinghy", "--tier", "1")
        assert result.exit_code == 1 and "'Gull' is already in this campaign" in result.output


def test_overload_beyond_twice_deadweight_is_refused_and_changes_nothing(db):
    run("ship", "add", "Tub", "--class", "dinghy", "--tier", "1")  # DW 100, sinks above 200
    before = digest(db)
    result = run("ship", "load", "Tub", "--cargo", "199")
    assert result.exit_code == 1
    assert "would sink" in result.output and "1 hlbs over" in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert digest(db) == before


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["ship", "show", "Nobody"], "no ship named 'Nobody'"),
        (["ship", "roll", "--class", "galleon"], "unknown ship class 'galleon'"),
        (["ship", "load", "Tub", "--cargo", "-5"], "--cargo': must be from 0 to 1000000, not -5"),
        (["ship", "add", "X", "--class", "dinghy", "--tier", "11"], "out of range"),
        (["ship", "add", "X", "--class", "freighter", "--tier", "VI"], "has an engine"),
        (
            [
                "ship",
                "add",
                "X",
                "--class",
                "motorboat",
                "--tier",
                "2",
                "--engine",
                "3",
                "--trait",
                "Sparkly",
            ],
            "unknown trait 'Sparkly'",
        ),
        (["settings", "natural_rolls", "maybe"], "cannot be 'maybe'"),
        (["settings", "colour", "blue"], "unknown setting 'colour'"),
    ],
)
def test_bad_input_is_one_clean_line_and_changes_nothing(db, args, fragment):
    run("ship", "add", "Tub", "--class", "dinghy", "--tier", "1")
    before = digest(db)
    result = run(*args)
    assert result.exit_code != 0
    assert fragment in result.output
    assert "Traceback" not in result.output
    assert digest(db) == before


def test_missing_campaign_is_a_clear_error(tmp_path):
    result = run("ship", "list", "--db", str(tmp_path / "nope.db"))
    assert result.exit_code == 1 and "run `voyage init`" in result.output
    assert not (tmp_path / "nope.db").exists()


def test_init_refuses_existing_file(db):
    result = run("init", "--db", str(db))
    assert result.exit_code == 1 and "already exists" in result.output


def test_init_with_malformed_override_tables_makes_no_file(tmp_path):
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "tiers.yaml").write_text("deadweight: {1: 100}\n")
    result = run("init", "--db", str(tmp_path / "c.db"), "--tables", str(folder))
    assert result.exit_code == 1 and "tiers.yaml" in result.output
    assert not (tmp_path / "c.db").exists()


def test_settings_change_and_show(db):
    result = run("settings", "advantage_mode", "2d20")
    assert result.exit_code == 0, result.output
    data = json.loads(run("settings", "--json").output)
    by_key = {d["key"]: d for d in data}
    assert by_key["advantage_mode"]["value"] == "2d20"
    assert by_key["natural_rolls"]["value"] is False and by_key["natural_rolls"]["ruling"] == "R1"


def test_settings_key_alone_shows_that_setting_and_changes_nothing(db):
    """`voyage settings crew_swimming` shows the one setting (R70) with what it does; it was
    refused with "give a value too, e.g. `voyage settings natural_rolls true`"."""
    result = run("settings", "crew_swimming")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["setting", "value", "default", "ruling", "choices"]
    assert lines[2].split() == ["crew_swimming", "1", "1", "R70", "0", "to", "20"]
    assert lines[3].startswith("The Swimming rank of unnamed crew")
    assert lines[4] == "Change it with `voyage settings crew_swimming VALUE`."
    data = json.loads(run("settings", "crew_swimming", "--json").output)
    assert [d["key"] for d in data] == ["crew_swimming"] and data[0]["value"] == 1
    assert "settings" not in run("history").output  # nothing was changed


def test_locked_campaign_fails_cleanly(db):
    holder = sqlite3.connect(db)
    holder.execute("BEGIN IMMEDIATE")
    try:
        result = run("ship", "add", "Late", "--class", "dinghy", "--tier", "1")
    finally:
        holder.rollback()
        holder.close()
    assert result.exit_code == 1 and "is busy" in result.output
    assert "Late" not in run("ship", "list").output


def test_undo_with_nothing_to_undo(db):
    result = run("undo")
    assert result.exit_code == 1 and "nothing to undo" in result.output
