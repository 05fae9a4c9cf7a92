"""R83 in route planning: a built boat is routed round charted water shallower than her
draft where another way exists (voyage.actions.depthroutes); a route that must cross such a hex is
still planned and `sail` warns in one line; rolled ships' routes do not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import add_trawler, ok

from voyage.actions.voyages import plan_route, shallows
from voyage.base.paths import campaigns_dir
from voyage.map.seamap import load_map, parse_map
from voyage.rules.shoals import shoal_hexes
from voyage.tables.rulebook import load_rulebook

MIDDLE_GROUND = {"1910", "2010", "2110"}  # 12 ft of sand (campaigns/salt_reach/map.yaml)


@pytest.fixture
def reach(runner: CliRunner, db: Path) -> Path:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "build", "Heavy", "--design", "Lucky Catch (Heavy Armor Option)")
    ok(runner, "ship", "place", "Heavy", "0305")
    add_trawler(runner, "0305", "Gull", crew=5, fuel=60)
    return db


def _route(runner: CliRunner, ship: str) -> list[str]:
    info = json.loads(ok(runner, "sail", ship, "--to", "2812", "--json"))
    return list(info["route"])


def test_the_shoals_for_a_draft_are_the_charted_hexes_shallower_than_it() -> None:
    chart = load_map(campaigns_dir() / "salt_reach")
    assert set(shoal_hexes(chart, 15)) >= MIDDLE_GROUND  # a Cruiser (15 ft)
    assert not MIDDLE_GROUND & set(shoal_hexes(chart, 12))  # at her draft she scrapes
    assert not MIDDLE_GROUND & set(shoal_hexes(chart, 8))  # a Speeder passes over


def test_a_heavy_cruiser_is_routed_round_the_middle_ground_a_rolled_ship_is_not(
    runner: CliRunner, reach: Path
) -> None:
    chart = load_map(campaigns_dir() / "salt_reach")
    today = plan_route(chart, "0305", "2812", avoid=shallows(load_rulebook()))  # as before R83
    gull = _route(runner, "Gull")
    assert gull == today  # a rolled ship's route is the plain map's, unchanged
    assert MIDDLE_GROUND & set(gull)  # the rolled trawler's shortest way crosses it
    heavy = _route(runner, "Heavy")
    assert heavy[0] == "0305" and heavy[-1] == "2812"
    assert not MIDDLE_GROUND & set(heavy)  # R83: round the bank
    assert len(heavy) >= len(today)
    sailed = ok(runner, "log", "Heavy")
    assert "Warning" not in sailed


def test_a_route_that_must_cross_a_shoal_is_planned_and_warned_of(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    # a channel one hex wide, its middle hex charted 6 ft: no way round for a Cruiser
    text = """name: Narrows
rows: |
  #######
  #P~~~P#
  #######
hexes:
  "0202": {port: West}
  "0602": {port: East}
  "0402": {depth: 6}
"""
    path = tmp_path / "narrows.yaml"
    path.write_text(text)
    assert parse_map(text, "narrows.yaml").hex("0402").depth == 6
    ok(runner, "map", "load", str(path))
    ok(runner, "ship", "build", "Heavy", "--design", "Lucky Catch (Heavy Armor Option)")
    ok(runner, "ship", "place", "Heavy", "0202")
    out = ok(runner, "sail", "Heavy", "--to", "0602")
    warnings = [line for line in out.splitlines() if "Warning" in line]
    assert len(warnings) == 1 and "0402" in warnings[0] and "6 ft" in warnings[0]
    assert "15 ft" in warnings[0]


def test_plan_routes_a_heavy_cruiser_round_the_middle_ground(
    runner: CliRunner, reach: Path
) -> None:
    data = json.loads(ok(runner, "plan", "Heavy", "--to", "2812", "--runs", "20", "--json"))
    routes = [p["route"] for p in data["plans"]]
    assert routes and all(r[0] == "0305" and r[-1] == "2812" for r in routes)
    assert not any(MIDDLE_GROUND & set(r) for r in routes)  # R83: no plan crosses the bank
