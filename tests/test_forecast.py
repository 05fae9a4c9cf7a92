"""voyage forecast: the same seed gives the same bytes with any number of workers; the
campaign file is not touched; the chances agree with exact odds where they can be worked
out; bad input gets one line and changes nothing."""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import db_contents, ok, refused, trawler_at
from engine_helpers import COAST_ROUTE, OPEN_ROUTE, ship, voyage, world

from voyage.actions.forecast import Setup, forecast, run_seed, wilson
from voyage.dice.roller import CheckOptions, check_odds
from voyage.rules.aground import coast_hazard_odds
from voyage.rules.capsize import capsize_advantages, capsize_modifiers
from voyage.tables.rulebook import load_rulebook

SHIP = "Sea Witch"


@pytest.fixture
def campaign(db: Path, runner) -> Path:
    """The Salt Reach with a trawler in Gullhaven (0305) and a storm over the Reach."""
    trawler_at(runner, "0305", SHIP, crew=5, fuel=60)
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "48")
    return db


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_same_seed_same_bytes_and_any_number_of_workers(campaign: Path, runner):
    args = ("forecast", SHIP, "--to", "2812", "--inshore", "--runs", "600", "--seed", "11")
    one = ok(runner, *args, "--workers", "1")
    again = ok(runner, *args, "--workers", "1")
    two = ok(runner, *args, "--workers", "2")
    assert one == again == two
    assert "600 runs, seed 11" in one
    js1 = json.loads(ok(runner, *args, "--workers", "1", "--json"))
    js2 = json.loads(ok(runner, *args, "--workers", "2", "--json"))
    assert js1 == js2
    assert js1["runs"] == 600 and js1["route"][0] == "0305" and js1["route"][-1] == "2812"
    other = json.loads(ok(runner, *args[:-1], "12", "--json"))
    assert other["chances"] != js1["chances"] or other["arrival_hours"] != js1["arrival_hours"]


def test_the_campaign_file_is_byte_identical_afterwards(campaign: Path, runner):
    ok(runner, "sail", SHIP, "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "5")
    with sqlite3.connect(campaign) as conn:  # the WAL folded in first: only a write can
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # change the file's bytes now
    before, rows = _digest(campaign), db_contents(campaign)
    siblings = sorted(p.name for p in campaign.parent.iterdir())
    out = json.loads(ok(runner, "forecast", SHIP, "--runs", "300", "--json"))
    ok(runner, "forecast", SHIP, "--to", "2420", "--runs", "100", "--workers", "2")
    assert _digest(campaign) == before and db_contents(campaign) == rows
    assert sorted(p.name for p in campaign.parent.iterdir()) == siblings
    assert out["clock"] == 5 and out["from"] != "0305"  # from where she is now
    # the default seed comes from the campaign seed and the clock: the same forecast again
    assert json.loads(ok(runner, "forecast", SHIP, "--runs", "300", "--json")) == out


def test_seeds_are_a_stable_hash_of_seed_and_index():
    assert run_seed(5, 0) == run_seed(5, 0) != run_seed(5, 1) != run_seed(6, 1)
    assert run_seed(5, 3) == int.from_bytes(hashlib.blake2b(b"5:3", digest_size=8).digest(), "big")


def _within_4_sigma(count: int, runs: int, exact: Fraction) -> None:
    p = float(exact)
    sigma = math.sqrt(p * (1 - p) / runs)
    assert abs(count / runs - p) <= 4 * sigma, (count, runs, p)


def test_open_sea_through_a_storm_loses_her_as_the_exact_odds_say():
    """Every hex of an open-sea route is storm-tossed: each entry is one capsize Check
    (R32, R41) and a capsized ship sinks (R40), so P(lost) = 1 - P(holds)^hexes."""
    book = load_rulebook()
    s = ship(fuel=40, cargo=0)
    state = voyage(s, OPEN_ROUTE)
    storm = set(OPEN_ROUTE[1:])
    setup = Setup(world(lambda h, c: h in storm), state, 0)
    from voyage.dice.roller import Roller
    from voyage.engine.clock import Engine

    category = Engine(setup.world, [state], Roller(0)).category(state)
    mods = sum(m.value for m in capsize_modifiers(s.tier, category, book))
    holds = check_odds(16, mods, len(capsize_advantages(s.traits, book, [])), CheckOptions())
    exact_lost = 1 - holds ** (len(OPEN_ROUTE) - 1)
    runs = 1500
    data, _ = forecast(setup, runs, seed=4, workers=1)
    _within_4_sigma(data["chances"]["lost"]["runs"], runs, exact_lost)
    _within_4_sigma(data["chances"]["arrives"]["runs"], runs, 1 - exact_lost)
    assert data["chances"]["aground"]["runs"] == 0


def test_all_inshore_runs_aground_as_the_exact_odds_say():
    """Every hex entered inshore rolls for a hazard (R33); nothing else stops her before
    her first grounding, so P(aground at least once) = 1 - (5/6)^hexes."""
    book = load_rulebook()
    state = voyage(ship(fuel=40), COAST_ROUTE, inshore=True)
    setup = Setup(world(), state, 0)
    exact = 1 - (1 - coast_hazard_odds(book)) ** (len(COAST_ROUTE) - 1)
    runs = 1500
    data, _ = forecast(setup, runs, seed=9, workers=1)
    _within_4_sigma(data["chances"]["aground"]["runs"], runs, exact)


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        # --runs and --workers out of range are usage errors (exit 2) naming the range:
        # rows of tests/test_bad_inputs.py
        (("--to", "9999"), "off the map"),
        (("--route", "0305,0306,0307"), "land"),
        ((), "with no route"),
        (("--to", "2812", "--plot", "nowhere/x.png"), "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(campaign: Path, runner, args, words):
    # every table's rows, not the file's bytes: a connection the setup left open may
    # checkpoint its WAL into the file at any moment without changing a row
    before = db_contents(campaign)
    line = refused(runner, "forecast", SHIP, *args)
    assert words in line
    assert db_contents(campaign) == before


def test_forecast_plot_writes_one_png(campaign: Path, runner, tmp_path: Path):
    out = tmp_path / "forecast.png"
    text = ok(
        runner, "forecast", SHIP, "--to", "2812", "--runs", "200", "--seed", "2", "--plot", str(out)
    )
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"Drew {out}" in text


def test_a_file_that_is_not_a_campaign_is_refused_untouched(tmp_path: Path, runner):
    other = tmp_path / "notes.db"
    other.write_bytes(b"not a database at all, just some notes\n" * 20)
    before = _digest(other)
    line = refused(runner, "forecast", SHIP, "--to", "2812", "--db", str(other))
    assert "not a voyage campaign" in line
    assert _digest(other) == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]


def _calm_trawler_at_0305(runner) -> None:
    """A crewed, fuelled trawler at 0305 on the Salt Reach, with no rolled weather and no
    encounter checks, so that her voyage's hours are certain."""
    trawler_at(runner, "0305", SHIP, crew=5, fuel=60)
    ok(runner, "settings", "rolled_weather", "false")
    ok(runner, "settings", "encounter_interval", "0")


def test_arrival_is_the_hour_by_which_she_has_arrived_as_sail_expects_it(db: Path, runner):
    """A ship arriving at minute 43 of her second hour has arrived 2 hours from now, as
    `voyage sail` expects her; the forecast used to floor the minutes ("1 h") and said she
    arrives the hour the clock shows now for a voyage under an hour ("0 h")."""
    _calm_trawler_at_0305(runner)
    data = json.loads(ok(runner, "forecast", SHIP, "--to", "0405", "--runs", "20", "--json"))
    expected = json.loads(ok(runner, "sail", SHIP, "--to", "0405", "--json"))["expected_hours"]
    assert expected == 2  # 12 miles at 7 knots: in at 01:43
    arrival = data["arrival_hours"]
    assert arrival["p10"] == arrival["p50"] == arrival["p90"] == arrival["mean"] == expected
    out = ok(runner, "advance", "--until", "arrival")
    assert "Advanced 2 hours" in out


def test_a_leaking_ship_is_forecast_to_the_hour_she_arrives_not_one_more(db: Path, runner):
    """R36: a leak runs on after she arrives (she stays in trouble), but the voyage is over:
    the forecast's water taken on is the voyage's, as the advance to her arrival takes it
    (it sailed one hour more and counted its water too)."""
    _calm_trawler_at_0305(runner)
    ok(runner, "sail", SHIP, "--to", "0405")
    ok(runner, "roll", "hull-hit", SHIP, "--apply", "--weapon-mod", "3")
    data = json.loads(ok(runner, "forecast", SHIP, "--runs", "5", "--json"))
    before = json.loads(ok(runner, "ship", "show", SHIP, "--json"))["water"]
    assert "Stopped: Sea Witch: arrived" in ok(runner, "advance", "--until", "arrival")
    taken = json.loads(ok(runner, "ship", "show", SHIP, "--json"))["water"] - before
    assert taken > 0
    assert data["water_taken_on"]["p10"] == data["water_taken_on"]["p90"] == taken
