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
