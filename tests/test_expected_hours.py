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
    assert row["eta_hours"] == 26 and row["fuel"] == 78  # reckoned on a copy of her


def _hour_by_hour(route, speed_at, current_at, hex_miles=12):
    """The engine's reckoning asked every hour (what hours_lightening shortens)."""
    from fractions import Fraction

    from voyage.rules.drift import leg_speed, side_of_step

    position, made, hours = 0, Fraction(0), 0
    while position < len(route) - 1:
        side = side_of_step(route[position], route[position + 1])
        leg = leg_speed(speed_at(position, hours), current_at(route[position]), side or 0)
        if leg <= 0:
            return None
        made, hours = made + leg, hours + 1
        while made >= hex_miles and position < len(route) - 1:
            made, position = made - hex_miles, position + 1
    return hours


def test_a_speed_asked_seldom_gives_the_hours_asked_every_hour():
    # R13: her speed only rises as she lightens; hours_lightening asks it at a few hours
    # and halves to the hour it rose, and must give what asking every hour gives (R31, R64)
    import random

    from voyage.map.currents import Current
    from voyage.rules.eta import hours_lightening

    route = [f"{c:02d}05" for c in range(1, 21)]
    against = {"0705": Current(5, 2), "0805": Current(5, 2), "1205": Current(2, 3)}  # NW, SE
    rng = random.Random(7)
    for _ in range(300):
        steps = sorted(rng.sample(range(1, 90), 3))
        base = rng.randint(0, 4)

        def speed_at(entered, sailed, steps=steps, base=base):
            return base + sum(1 for s in steps if entered * 3 + sailed >= s)

        for currents in ({}, against):
            got = hours_lightening(route, speed_at, currents.get)
            assert got == _hour_by_hour(route, speed_at, currents.get), (steps, base)
