"""`act SHIP course` and `act SHIP weigh` for a ship adrift: she gets under way when she can
make way of her own (R13: a working engine with a hex's Fuel Use aboard, R16), else the
action is refused in one line that says what she needs, and nothing changes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from conftest import db_contents, ok, refused, trawler_at


def _dry_gull(runner: CliRunner) -> None:
    """Gull, 2 hlbs of fuel at 1 a hex, sails 3016 -> 3124 and runs dry at 3118 (R16)."""
    trawler_at(runner, "3016", "Gull", crew=5, fuel=2)
    ok(runner, "sail", "Gull", "--to", "3124")
    assert "Stopped: Gull: out of fuel." in ok(runner, "advance", "--hours", "10")


def _gull_row(runner: CliRunner) -> dict:
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    return row


def test_course_for_a_ship_adrift_out_of_fuel_says_what_she_needs(runner, db: Path):
    _dry_gull(runner)
    assert _gull_row(runner)["voyage_status"] == "adrift"
    before = db_contents(db)
    for action in (["course", "--to", "3124"], ["weigh"]):
        line = refused(runner, "act", "Gull", *action)
        assert line.strip() == (
            "Error: Gull is adrift: out of fuel (0 hlbs aboard, 1 a hex): "
            "`voyage act 'Gull' refuel N` in a port (R16)"
        )
        assert db_contents(db) == before


def test_course_for_a_ship_adrift_that_can_make_way_gets_her_under_way(runner, db: Path):
    _dry_gull(runner)
    with sqlite3.connect(db) as conn:  # fuel taken on at sea (a referee's declaration)
        conn.execute("UPDATE ships SET fuel = 5 WHERE name = 'Gull'")
    out = ok(runner, "act", "Gull", "course", "--to", "3124")
    assert out.strip().endswith("She gets under way.")
    assert _gull_row(runner)["voyage_status"] == "under way"
    ok(runner, "advance", "--hours", "1")
    assert _gull_row(runner)["miles_left"] < 72  # she made way
