"""What a built boat and a rolled ship carry into trouble: a built boat's bought Life Raft
is a raft (R70, R71, R80); a whaler's explosive harpoons are loaded in port (R87, R21)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import db_contents, ok, refused


def _at_sea(runner: CliRunner, *names: str) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    for name in names:
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")


def test_a_built_boats_life_raft_is_a_raft_everywhere(runner: CliRunner, db: Path):
    """R80's Life Raft accessory (the Moray carries one) is a raft of R70: four seats,
    counted in `ship show`, its card and JSON, and filled when she is abandoned (R71)."""
    ok(runner, "ship", "build", "Dart", "--design", "Moray")
    fig = json.loads(ok(runner, "ship", "show", "Dart", "--json"))
    assert fig["life_rafts"] == 1
    assert "life rafts 1" in ok(runner, "ship", "show", "Dart")
    _at_sea(runner, "Dart")
    ok(runner, "advance", "--hours", "1")
    out = json.loads(ok(runner, "act", "--json", "Dart", "abandon"))
    assert out["changes"]["rafts"] == 1 and out["changes"]["in_water"] == 0
    assert out["text"] == "All hands abandon Dart at 0405: 1 raft with 2 aboard."
    assert json.loads(ok(runner, "ship", "show", "Dart", "--json"))["life_rafts"] == 0


def test_a_whaler_rolled_with_no_harpoons_takes_them_aboard_in_port(runner: CliRunner, db: Path):
    """R87 (our reading): a ship with a harpoon cannon (R21: the Whaler's standard
    equipment) takes explosive harpoons aboard in port, 1 hlb each in her Load; at sea she
    takes none aboard; a ship without the cannon is refused in one line; undo is exact."""
    ok(runner, "ship", "add", "Moby", "--class", "whaler", "--tier", "IV", "--engine", "VI")
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    before = db_contents(db)
    fig = json.loads(ok(runner, "ship", "load", "Moby", "--harpoons", "5", "--json"))
    assert fig["harpoons"] == 5 and fig["equipment"]["harpoons"] == 5
    assert fig["load_parts"]["harpoons"] == 5 and fig["load"] == 50 + 5
    assert "harpoons 5" in ok(runner, "ship", "show", "Moby")
    ok(runner, "undo")
    assert db_contents(db) == before
    line = refused(runner, "ship", "load", "Gull", "--harpoons", "1")
    assert line.strip() == (
        "Error: Gull has no harpoon cannon (R21: a Whaler's standard equipment): "
        "explosive harpoons are for a ship that carries one"
    )
    ok(runner, "ship", "load", "Moby", "--crew", "4", "--fuel", "40")
    _at_sea(runner, "Moby")
    line = refused(runner, "ship", "load", "Moby", "--harpoons", "2")
    assert "taken aboard in port (R87)" in line
