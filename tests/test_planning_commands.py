"""What the between-sessions commands say when there is nothing to do: a forecast to the
ship's own hex names her, a plan that gets nowhere offers no `sail --plan`, and a day past
the six-digit range is refused as out of range (never read as another day)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import db_contents, ok, refused, trawler_at

SHIP = "Sea Witch"


@pytest.fixture
def campaign(db: Path, runner) -> Path:
    trawler_at(runner, "2812", SHIP, crew=5, fuel=1)
    return db


@pytest.mark.parametrize(
    "args",
    [
        ("forecast", SHIP, "--to", "2812"),
        ("forecast", SHIP, "--route", "2812"),
        ("sail", SHIP, "--to", "2812"),
        ("plan", SHIP, "--to", "2812"),
    ],
)
def test_a_voyage_to_her_own_hex_names_the_ship(campaign: Path, runner, args) -> None:
    before = db_contents(campaign)
    assert f"{SHIP} is already at 2812" in refused(runner, *args)
    assert db_contents(campaign) == before


def test_a_plan_that_gets_nowhere_offers_no_sail_line(campaign: Path, runner) -> None:
    # R16: 1 hlb of fuel at 1 hlb a hex takes her one hex; Saltholm is further
    data = json.loads(ok(runner, "plan", SHIP, "--to", "2420", "--runs", "40", "--json"))
    assert not any(p["arrives"] for p in data["plans"])
    out = ok(runner, "plan", SHIP, "--to", "2420", "--runs", "40")
    assert "Sail one with" not in out
    assert "her 1 hlb of fuel take Sea Witch 1 hex at 1 hlb a hex (R16)" in out
    ok(runner, "ship", "load", SHIP, "--fuel", "60")
    assert "Sail one with: voyage sail 'Sea Witch' --plan N --to 2420" in ok(
        runner, "plan", SHIP, "--to", "2420", "--runs", "40"
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("weather", "show", "--at", "day 9999999"), "'day 9999999' is out of range"),
        (("weather", "show", "--at", "+9999999h"), "'+9999999h' is out of range"),
        (("map", "render", "--out", "x.png", "--at", "day 12345678"), "out of range"),
        (("journal", "--since", "day 9999999"), "--since 'day 9999999' is out of range"),
    ],
)
def test_a_day_past_the_range_is_refused_as_such(campaign: Path, runner, args, words) -> None:
    # "day 9999999" was read as day 999999 at 09:00 (the last digit taken as the hour)
    before = db_contents(campaign)
    assert words in refused(runner, *args)
    assert db_contents(campaign) == before


def test_a_day_and_its_hour_still_read_with_a_space_or_a_comma(campaign: Path, runner) -> None:
    for text in ("day 3 14", "day 3, 14", "day 3,14:00", "day 3, 14:00"):
        shown = json.loads(ok(runner, "weather", "show", "--at", text, "--json"))
        assert shown["hour"] == 2 * 24 + 14, text
    assert json.loads(ok(runner, "weather", "show", "--at", "day 999999", "--json"))["hour"] == (
        999_998 * 24
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("0101", "0201", "--hours", "5"), "every hex of this storm is land (0101 0201)"),
        (
            ("--around", "0101", "--radius", "0", "--hours", "6", "--moving", "N"),
            "moving N it reaches no water in 6h",
        ),
    ],
)
def test_a_storm_over_land_alone_is_refused(campaign: Path, runner, args, words) -> None:
    # R32, R60: storms toss the sea; a storm no ship could ever meet is a slip of the hex
    before = db_contents(campaign)
    assert words in refused(runner, "weather", "storm", *args)
    assert db_contents(campaign) == before


def test_a_storm_partly_over_land_or_moving_onto_water_is_kept(campaign: Path, runner) -> None:
    ok(runner, "weather", "storm", "0101", "0305", "--hours", "5")
    # 0101 is land; moving SE a hex an hour it is over the sea of 0303-0305 within hours
    ok(runner, "weather", "storm", "0101", "--hours", "8", "--moving", "SE", "--every", "1")
    summaries = [a["summary"] for a in json.loads(ok(runner, "history", "--json"))]
    assert "storm over 1 hex for 8h" in summaries and "storm over 2 hexes for 5h" in summaries


def test_the_forecast_says_encounters_are_not_in_it(campaign: Path, runner) -> None:
    # R93: the runs meet nothing, but `advance` stops for encounters: the report says so
    ok(runner, "ship", "load", SHIP, "--fuel", "60")
    out = ok(runner, "forecast", SHIP, "--to", "2420", "--runs", "20")
    assert "Encounters (R93) are not forecast" in out and "every 4 hours" in out
    ok(runner, "settings", "encounter_interval", "0")
    assert "Encounters (R93)" not in ok(runner, "forecast", SHIP, "--to", "2420", "--runs", "20")


def test_a_built_boats_plan_shows_her_charge_left(db: Path, runner) -> None:
    # R82: her fuel_left is power units of charge, and the table says so
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "build", "Smuggler", "--design", "Moray")
    ok(runner, "ship", "place", "Smuggler", "2812")
    data = json.loads(ok(runner, "plan", "Smuggler", "--to", "2906", "--runs", "5", "--json"))
    assert data["fuel_unit"] == "power units"
    header = ok(runner, "plan", "Smuggler", "--to", "2906", "--runs", "5").splitlines()[1]
    assert header.split()[-2:] == ["charge", "left"]


@pytest.mark.parametrize("command", ["sail", "forecast", "plan"])
def test_a_ship_with_no_crew_is_refused_a_voyage(db: Path, runner, command) -> None:
    # `ship add` makes a ship with no crew: she sailed off under power with nobody aboard
    # (no one to fight a fire, R50, or to leave her, R71); the line says how to crew her
    trawler_at(runner, "2812", "Ghost", fuel=30)
    before = db_contents(db)
    out = refused(runner, command, "Ghost", "--to", "2906")
    assert "Ghost has no crew to sail her: `voyage ship load 'Ghost' --crew N`" in out
    assert db_contents(db) == before
    ok(runner, "ship", "load", "Ghost", "--crew", "1")  # the advice, followed literally
    ok(runner, command, "Ghost", "--to", "2906", *(["--runs", "5"] if command != "sail" else []))


def test_a_forecast_at_sea_routes_round_her_shoals_as_course_does(db: Path, runner) -> None:
    # R83: `act course --to` routed a 15 ft Cruiser round the Middle Ground (12 ft at
    # 1910-2110); a forecast `--to` of the same boat at sea sailed straight over it
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "ship", "build", "Heavy", "--design", "Lucky Catch (Heavy Armor Option)")
    ok(runner, "ship", "place", "Heavy", "0305")
    ok(runner, "sail", "Heavy", "--to", "0706")
    ok(runner, "advance", "--hours", "1")
    ahead = json.loads(ok(runner, "forecast", "Heavy", "--to", "2812", "--runs", "5", "--json"))
    ok(runner, "act", "Heavy", "course", "--to", "2812")
    steered = json.loads(ok(runner, "forecast", "Heavy", "--runs", "5", "--json"))
    assert ahead["route"] == steered["route"]
    assert not {"1910", "2010", "2110"} & set(ahead["route"])
