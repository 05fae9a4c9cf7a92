"""R85 at the table: `voyage roll capsize` on a built boat counts her water in spaces (not
by R37), and a Weighted Keel rights her after a capsize instead of R41's sinking, with
--apply carried into her voyage and undone exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused


@pytest.fixture
def camp(runner: CliRunner, db: Path) -> Path:
    ok(runner, "map", "load", "salt_reach")
    return db


def _boat(runner: CliRunner, name: str, keel: bool, water: int) -> None:
    fittings = "deck,weighted-keel" if keel else "deck"
    ok(runner, "ship", "build", name, "--body", "cruiser", "--plant", "large", "--with", fittings)
    ok(runner, "ship", "load", name, "--water", str(water))
    ok(runner, "ship", "place", name, "2812")


def test_a_boats_water_is_r85_not_r37(runner: CliRunner, camp: Path) -> None:
    # a Cruiser: Deadweight (15,000 - 5,400) / 10 = 960 hlbs; 300 hlbs is over DW/4 (R37
    # listing for a rolled ship of that DW), but 6 of her 25 spaces: under a quarter (R85)
    _boat(runner, "Fox", keel=False, water=300)
    data = json.loads(ok(runner, "roll", "capsize", "Fox", "--load", "half", "--json"))
    assert data["triggers"] == []  # no R37 flooding or listing trigger for her
    out = ok(runner, "roll", "capsize", "Fox", "--load", "half")
    assert "water: 6 of her 25 spaces (300 hlbs), dry: R85 replaces R37" in out
    assert "(R37)" not in out
    ok(runner, "ship", "load", "Fox", "--water", "700")  # 14 spaces: a half
    out = ok(runner, "roll", "capsize", "Fox", "--load", "half")
    assert "14 of her 25 spaces (700 hlbs), a half" in out and "shorts out" in out
    # a rolled ship with water over DW/10 still gets R37's trigger
    ok(runner, "ship", "roll", "--class", "whaler", "--name", "Whaler")
    ok(runner, "ship", "load", "Whaler", "--water", "200")  # DW 1,500: over DW/10
    data = json.loads(ok(runner, "roll", "capsize", "Whaler", "--json"))
    assert [t["ruling"] for t in data["triggers"]] == ["R37"]


def test_a_weighted_keel_rights_her_at_the_table(runner: CliRunner, camp: Path) -> None:
    _boat(runner, "Keel", keel=True, water=0)
    ok(runner, "sail", "Keel", "--to", "3016")
    before = db_contents(camp)
    for _ in range(10):  # Overloaded, Tier VI: upright on 7 in 20; the campaign's dice
        data = json.loads(
            ok(runner, "roll", "capsize", "Keel", "--load", "overloaded", "--apply", "--json")
        )
        if data["results"][0]["capsized"]:
            break
        ok(runner, "undo")
    assert data["results"][0]["capsized"]
    assert [r["kind"] for r in data["results"]] == ["capsize", "capsize"]  # no sinking roll
    assert data["results"][0]["text"] == "The ship capsizes."
    assert "Weighted Keel rights her at the next minute (R85)" in data["results"][1]["text"]
    state = data["applied"]["state"]
    assert state["status"] == "under way" and not state.get("capsized")
    assert state.get("sinking_in") is None
    ok(runner, "undo")
    assert db_contents(camp) == before


def test_without_a_keel_a_boat_capsizes_and_sinks_as_r41(runner: CliRunner, camp: Path):
    _boat(runner, "Fox", keel=False, water=0)
    for _ in range(10):
        data = json.loads(ok(runner, "roll", "capsize", "Fox", "--load", "overloaded", "--json"))
        if data["results"][0]["capsized"]:
            break
    assert [r["kind"] for r in data["results"]][1:] == ["sinking"]  # R40's time rolled


def test_rolling_for_an_unknown_boat_is_one_line(runner: CliRunner, camp: Path) -> None:
    assert "Nemo" in refused(runner, "roll", "capsize", "Nemo", "--load", "half")
