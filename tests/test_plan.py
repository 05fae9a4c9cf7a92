"""voyage plan: candidate routes side by side, the fuel-port route when the tanks will not
reach (R16), and `voyage sail --plan N` sailing the same route the plan showed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import db_contents, ok, refused, trawler_at

SHIP = "Sea Witch"


@pytest.fixture
def campaign(db: Path, runner) -> Path:
    """A trawler in Gullhaven (0305) with 15 hlbs of fuel: not enough for the 25 hexes to
    Ironport (2812) at 1 hlb a hex."""
    trawler_at(runner, "0305", SHIP, crew=5, fuel=15)
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "48")
    return db


def test_plan_offers_routes_and_a_fuel_stop(campaign: Path, runner):
    before = db_contents(campaign)
    data = json.loads(ok(runner, "plan", SHIP, "--to", "2812", "--runs", "200", "--json"))
    assert db_contents(campaign) == before
    kinds = {p["kind"]: p for p in data["plans"]}
    assert {"shortest", "inshore", "storms", "fuel"} <= set(kinds)
    fuel = kinds["fuel"]
    stop = fuel["stops"][0]
    assert stop["buy"] > 0 and stop["hex"] in fuel["route"]
    # the tanks do not reach on the shortest route: she never arrives there
    assert (
        kinds["shortest"]["arrives"] == 0
        and kinds["shortest"]["out_of_fuel"] + kinds["shortest"]["lost"] > 0
    )
    assert fuel["arrives"] > 0.5
    # safest first: the likeliest to arrive leads
    assert data["plans"][0]["arrives"] == max(p["arrives"] for p in data["plans"])
    assert sorted(p["plan"] for p in data["plans"]) == list(range(1, len(data["plans"]) + 1))
    # the plan, and its order, are the same when asked again
    again = json.loads(ok(runner, "plan", SHIP, "--to", "2812", "--runs", "200", "--json"))
    assert again == data
    text = ok(runner, "plan", SHIP, "--to", "2812", "--runs", "100")
    assert f"buy {stop['buy']} hlbs" in text


def test_sail_plan_sails_the_route_the_plan_showed(campaign: Path, runner):
    data = json.loads(ok(runner, "plan", SHIP, "--to", "2812", "--runs", "50", "--json"))
    fuel = next(p for p in data["plans"] if p["kind"] == "fuel")
    out = json.loads(
        ok(runner, "sail", SHIP, "--plan", str(fuel["plan"]), "--to", "2812", "--json")
    )
    stop = fuel["stops"][0]["hex"]
    assert out["route"] == fuel["route"][: fuel["route"].index(stop) + 1]
    assert out["stops"] == fuel["stops"]


def test_forecast_plan_matches_the_plan_row(campaign: Path, runner):
    data = json.loads(
        ok(runner, "plan", SHIP, "--to", "2812", "--runs", "300", "--seed", "3", "--json")
    )
    fuel = next(p for p in data["plans"] if p["kind"] == "fuel")
    one = json.loads(
        ok(
            runner,
            "forecast",
            SHIP,
            "--plan",
            str(fuel["plan"]),
            "--to",
            "2812",
            "--runs",
            "300",
            "--seed",
            "3",
            "--json",
        )
    )
    assert one["route"] == fuel["route"] and one["stops"] == [fuel["stops"][0]["hex"]]
    assert one["chances"]["arrives"]["chance"] == fuel["arrives"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        # --runs 0: a usage error naming the range (tests/test_bad_inputs.py)
        (("plan", SHIP, "--to", "9999"), "off the map"),
        (("plan", SHIP, "--to", "0101"), "land"),
        (("plan", SHIP, "--to", "0305"), "already at 0305"),
        (("sail", SHIP, "--plan", "99", "--to", "2812"), "there is no plan 99"),
        (("forecast", SHIP, "--plan", "1"), "--plan N goes with --to HEX"),
    ],
)
def test_plan_bad_input(campaign: Path, runner, args, words):
    before = db_contents(campaign)
    assert words in refused(runner, *args)
    assert db_contents(campaign) == before


def test_with_the_currents_the_plan_offers_the_fastest_way(campaign: Path, runner):
    """Cinder Quay (0419) to Saltholm (2420): the Southern Set runs east along the bay's
    mouth (R64); the route of fewest hours with it beats the shortest route's hours."""
    from voyage.actions.plan import candidates
    from voyage.rules.drift import current_lookup, route_hours
    from voyage.store.campaign import read_only_campaign
    from voyage.store.mapstore import campaign_chart
    from voyage.vessels import ships as shipfig

    ok(runner, "ship", "place", SHIP, "0419")
    camp = read_only_campaign(campaign)
    found = {c.kind: c for c in candidates(camp, SHIP, "2420")}
    assert "currents" in found
    current_at = current_lookup(campaign_chart(camp)[0])
    ship = camp.get_ship(SHIP)
    speed = shipfig.speed(ship, camp.rulebook, "normal", 0, camp.water_in_load)
    fast = route_hours(found["currents"].route, speed, current_at)
    short = route_hours(found["shortest"].route, speed, current_at)
    assert fast is not None and short is not None and fast < short


def _random_current_sea(seed: int, width: int = 14, height: int = 10) -> str:
    """A sea map with a coast round it, a few islands and shallows, and a current of 1 to 9
    knots (whole or half) in about half its hexes: drawn from ``random.Random(seed)`` so the
    same seed is the same map (test data, not a roll of the game)."""
    import random

    rng = random.Random(seed)
    rows = []
    for r in range(height):
        line = ""
        for c in range(width):
            edge = r in (0, height - 1) or c in (0, width - 1)
            line += "#" if edge else rng.choice("~~~~~~~~~~#%")
        rows.append(line)
    sides = ["N", "NE", "SE", "S", "SW", "NW"]
    currents = [
        f'  "{c + 1:02d}{r + 1:02d}": {{flows: {rng.choice(sides)}, knots: '
        f"{rng.choice([1, 1.5, 2, 3, 4.5, 6, 9])}}}"
        for r in range(1, height - 1)
        for c in range(1, width - 1)
        if rows[r][c] == "~" and rng.random() < 0.5
    ]
    return (
        "name: Random currents\nrows: |\n"
        + "".join(f"  {row}\n" for row in rows)
        + ("currents:\n" + "\n".join(currents) + "\n")
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_currents_route_is_never_slower_than_a_route_it_could_take(seed: int):
    """R64 as the engine steps it (voyage.rules.drift.route_hours: the current of the hex
    she starts each hour in holds for the whole hour): on a seeded random map, the route
    of fewest hours is as fast as the shortest route and as every detour through another
    hex of the sea, at every speed from a rowboat's to a fast boat's."""
    from voyage.actions.plan import _with_currents
    from voyage.map.seamap import parse_map
    from voyage.rules.drift import current_lookup, route_hours

    chart = parse_map(_random_current_sea(seed), "random.yaml")
    current_at = current_lookup(chart)
    seas = [h.name for h in chart.hexes() if h.is_sea]
    pairs = [(seas[i], seas[-1 - i]) for i in range(0, len(seas) // 2, 7)]
    checked = 0
    for speed in (3, 5, 7, 13, 25):
        for start, goal in pairs:
            fast = _with_currents(chart, start, goal, speed, ["shoal"])
            others = [chart.route(start, goal, avoid=["shoal"])]
            for via in seas[::9]:
                first = chart.route(start, via, avoid=["shoal"])
                then = chart.route(via, goal, avoid=["shoal"])
                if first and then and via not in (start, goal) and goal not in first:
                    others.append(first + then[1:])
            for other in others:
                taken = route_hours(other, speed, current_at) if other else None
                if taken is None:
                    continue
                checked += 1
                assert fast is not None, (speed, start, goal)
                best = route_hours(fast, speed, current_at)
                assert best is not None and best <= taken, (speed, start, goal, fast, other)
    assert checked > 200


def test_the_plan_offers_the_currents_route_only_when_it_is_faster(db: Path, runner):
    """A whaler from Gullhaven (0305) to Ironport (2812): the route of fewest hours with
    the currents takes no fewer hours than the shortest, through a narrow passage (R33) the
    shortest keeps out of: it is not offered as the fastest. Every route offered is at
    least as slow as the currents route, by hours and in the forecast."""
    from voyage.actions.plan import candidates
    from voyage.actions.voyages import shallows
    from voyage.rules.drift import current_lookup, route_hours
    from voyage.store.campaign import read_only_campaign
    from voyage.store.mapstore import campaign_chart
    from voyage.vessels import ships as shipfig

    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Tern", "--class", "whaler", "--tier", "5", "--engine", "7")
    ok(runner, "ship", "load", "Tern", "--crew", "8", "--fuel", "400")
    ok(runner, "ship", "place", "Tern", "0305")
    camp = read_only_campaign(db)
    chart = campaign_chart(camp)[0]
    ship = camp.get_ship("Tern")
    speed = shipfig.speed(ship, camp.rulebook, "normal", 0, camp.water_in_load)
    avoid = shallows(camp.rulebook)

    def route_cost(chart, route, speed, avoid):  # hours, then R33 rolls off the coast
        risky = sum(chart.terrain(h) in avoid or chart.hex(h).narrow_passage for h in route[1:])
        return route_hours(route, speed, current_lookup(chart)), risky

    for goal in ("2812", "2420", "0419", "3118"):
        found = candidates(camp, "Tern", goal)
        fastest = [c for c in found if c.kind == "currents"]
        for cand in fastest:
            mine = route_cost(chart, cand.route, speed, avoid)
            for other in found:
                if other is not cand and not other.legs:
                    assert mine < route_cost(chart, other.route, speed, avoid), (goal, other)
    data = json.loads(
        ok(runner, "plan", "Tern", "--to", "2812", "--runs", "200", "--seed", "5", "--json")
    )
    by_kind = {p["kind"]: p for p in data["plans"]}
    if "currents" in by_kind:
        assert all(by_kind["currents"]["hours"] <= p["hours"] for p in data["plans"])
    else:
        assert min(p["hours"] for p in data["plans"]) == by_kind["shortest"]["hours"]
