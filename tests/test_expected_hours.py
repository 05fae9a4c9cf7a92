"""`voyage sail`, `status`, `forecast` and `plan` expect one passage: her speed rises as
the fuel she spends (R16) lightens her Load into a lighter category (R12, R13), as the
engine sets it each hour."""

from __future__ import annotations

import json

from conftest import ok


def test_sail_and_status_expect_the_hours_the_forecast_runs_as_her_load_lightens(runner, reach):
    # a Tier IV trawler with 78 hlbs of fuel: Load 190, Half (R12: over 750/4), 4 knots
    # (R13); after three hexes (36 miles, 9 hours) she has burnt 3 hlbs (R16), Load 187,
    # Quarter, 5 knots: the other 84 miles take 17 hours. 26 hours, not 30 at 4 knots.
    ok(runner, "ship", "add", "Tern", "--class", "trawler", "--tier", "IV", "--engine", "III")
    ok(runner, "ship", "load", "Tern", "--crew", "6", "--fuel", "78")
    ok(runner, "ship", "place", "Tern", "2420")
    runs = ok(runner, "forecast", "Tern", "--to", "2812", "--runs", "5", "--seed", "1", "--json")
    assert json.loads(runs)["arrival_hours"]["mean"] == 26
    sailed = json.loads(ok(runner, "sail", "Tern", "--to", "2812", "--json"))
    assert sailed["expected_hours"] == 26 and sailed["expected_hours_still_water"] == 26
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["eta_hours"] == 26
