"""The forecast's runs count the rain a rain catcher catches in the storms on her way (R103,
R104): each run finds the first storm hour of each day she starts in a storm-tossed hex,
and her fresh water is counted again from there; stepping those hours one by one changes
nothing else that happens in a run."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FaceRoller, ok

from voyage.actions.forecast import prepare, simulate, went_without
from voyage.rules.storesplan import outlook
from voyage.store.campaign import open_campaign
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.stores import Stores, store_rules

RULES = store_rules(load_rulebook())


@pytest.fixture
def stormy(runner: CliRunner, db: Path) -> Path:
    """Gull (Tier V: a rain catcher, R103) in Gullhaven, six aboard, 15 person-days of fresh
    water (60 hours) for a 75-hour passage to Ironport; a storm over the first hexes out."""
    _gull_in_a_storm(runner, "V")
    return db


def _gull_in_a_storm(runner: CliRunner, tier: str) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", tier, "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "load", "Gull", "--food", "100", "--fresh-water", "15")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "weather", "storm", "--around", "0506", "--radius", "1", "--hours", "200")


def _setup(db: Path):
    camp = open_campaign(db)
    try:
        return prepare(camp, "Gull", to="2812")
    finally:
        camp.close()


def test_the_runs_that_arrive_caught_rain_and_did_not_run_dry(runner, stormy):
    setup = _setup(stormy)
    assert setup.storm_clocks is not None and setup.storm_clocks[0] == 0
    runs = simulate(setup, 60, seed=1, workers=1)
    arrived = [r for r in runs if r.outcome == "arrived"]
    assert arrived and all("out of fresh water" not in r.halts for r in arrived)
    # without the rain counted, every run that arrives has run dry at hour 60 (R101)
    dry = simulate(replace(setup, storm_clocks=None, storms_ahead=None), 60, seed=1, workers=1)
    assert all("out of fresh water" in r.halts for r in dry if r.outcome == "arrived")
    out = ok(runner, "forecast", "Gull", "--to", "2812", "--runs", "60", "--seed", "1")
    assert "Rain: the runs count the fresh water she catches in the storms" in out


def test_stepping_the_storm_hours_changes_nothing_else(runner, stormy):
    setup = _setup(stormy)
    every = replace(setup, storm_clocks=tuple(range(0, 400)), storms_ahead=None)  # each hour
    fast = replace(setup, storm_clocks=None, storms_ahead=None)
    for a, b, c in zip(
        simulate(every, 40, seed=3, workers=1),
        simulate(setup, 40, seed=3, workers=1),
        simulate(fast, 40, seed=3, workers=1),
        strict=True,
    ):
        assert (a.outcome, a.arrival, a.loss_hex, a.fuel_left) == (
            c.outcome, c.arrival, c.loss_hex, c.fuel_left,
        )  # fmt: skip
        assert (b.outcome, b.arrival, b.loss_hex, b.fuel_left) == (
            c.outcome, c.arrival, c.loss_hex, c.fuel_left,
        )  # fmt: skip
        assert a.halts == b.halts and a.died == b.died  # the same rain found either way


def test_no_catcher_no_rain_counted(runner, db):
    _gull_in_a_storm(runner, "II")
    assert _setup(db).storm_clocks is None  # Tier II: no rain catcher (R103, our reading)


class _Setup:
    def __init__(self, stores: Stores, people: int = 6) -> None:
        self.stores, self.people, self.clock = stores, people, 0
        self.store_rules = RULES
        self.outlook = outlook(stores, people, 0, 2000, RULES)
        self.legs: list = []


def test_rain_caught_before_she_runs_dry_keeps_her_from_it():
    # 12 person-days last six 48 hours; rain at hour 30 gives six more: dry at hour 72
    setup = _Setup(Stores(Fraction(100), Fraction(12)))
    assert went_without(setup, [70], FaceRoller([]), [30]) == ([], 0)  # type: ignore[arg-type]
    gone, _ = went_without(setup, [73], FaceRoller([]), [30])  # type: ignore[arg-type]
    assert gone == ["out of fresh water"]
    gone, _ = went_without(setup, [60], FaceRoller([]))  # type: ignore[arg-type]
    assert gone == ["out of fresh water"]


def test_the_dawn_of_the_rain_hour_rolls_before_the_rain():
    """Dry since hour 0; 06:00 of day 3 (clock 54) is the third dry dawn: everyone rolls
    (R102, target 2) before the rain of that hour resets the count (R103)."""
    setup = _Setup(Stores(Fraction(100), Fraction(0), dry_water=Fraction(0)))
    faces = [1, 1] + [6, 6] * 5  # the first of six dies
    gone, died = went_without(setup, [80], FaceRoller(faces), [54])  # type: ignore[arg-type]
    assert gone == ["out of fresh water"] and died == 1
    # with the rain a day earlier, at the second dry dawn, nobody rolls at all
    gone, died = went_without(setup, [80], FaceRoller([]), [30])  # type: ignore[arg-type]
    assert died == 0
