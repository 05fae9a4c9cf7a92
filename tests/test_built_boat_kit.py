"""What a built boat and a rolled ship carry into trouble: a built boat's bought Life Raft
is a raft (R70, R71, R80); a whaler's explosive harpoons are loaded in port (R87, R21)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import ok


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
