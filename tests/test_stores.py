"""Food and fresh water at sea (R100-R102): carried, used hour by hour, missed."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

from conftest import FaceRoller, invoke, ok

from voyage.rules.stores import dawn, death_target, two_d6_at_most, use_hour, working_crew
from voyage.vessels.stores import Stores, stores_from_text


def test_a_person_day_weighs_a_fifth_and_four_fifths_of_an_hlb():
    # R100: 0.2 hlb of food, 0.8 hlb of fresh water a person-day, fractions kept
    assert Stores(Fraction(10), Fraction(12)).weight() == Fraction(2) + Fraction(48, 5)


def test_six_people_use_a_quarter_person_day_an_hour_and_run_dry_at_hour_48():
    # R101: 1/24 of a person-day a head an hour; twelve person-days last six people 48 hours
    stores = Stores(Fraction(100), Fraction(12))
    for _hour in range(47):
        assert use_hour(stores, 6) == []
    assert stores.fresh_water == Fraction(1, 4)
    assert use_hour(stores, 6) == ["fresh water"]
    assert stores.fresh_water == 0 and stores.food == Fraction(100) - 2 * 6


def test_half_rations_halve_the_use_of_water_only():
    stores = Stores(Fraction(10), Fraction(10), half_water=True)  # R101
    use_hour(stores, 6)
    assert stores.fresh_water == 10 - Fraction(1, 8) and stores.food == 10 - Fraction(1, 4)


def test_the_dying_roll_starts_on_the_third_dry_day_at_1_in_36():
    stores = Stores(Fraction(10), Fraction(0))
    roller = FaceRoller([1, 1, 6, 6, 3, 4])
    assert dawn(stores, 3, roller) == ([], 0)  # R102: day 1
    assert dawn(stores, 3, roller) == ([], 0)  # day 2
    rolls, dead = dawn(stores, 3, roller)  # day 3: each rolls 2d6, dies on 2 or less
    assert stores.dry_water == 3 and death_target(stores) == 2
    assert dead == 1 and [r.total for r in rolls] == [2, 12, 7]
    assert rolls[0].probability == two_d6_at_most(2) == Fraction(1, 36)


def test_half_water_counts_half_a_day_and_food_from_day_21():
    stores = Stores(Fraction(0), Fraction(5), half_water=True)
    stores.dry_food = Fraction(20)
    rolls, _ = dawn(stores, 1, FaceRoller([6, 6]))
    assert stores.dry_water == Fraction(1, 2) and stores.dry_food == 21
    assert death_target(stores) == 2 and len(rolls) == 1  # R102: 21 - 19


def test_a_thirsty_crew_counts_half_for_fire_and_leaks():
    stores = Stores(dry_water=Fraction(5, 2))
    assert working_crew(5, stores) == 2 and working_crew(5, None) == 5  # R102


def test_stores_survive_the_ships_row_exactly():
    s = Stores(Fraction(7, 3), Fraction(1, 24), True, False, Fraction(1, 2), Fraction(0), 4)
    assert stores_from_text(s.to_text()) == s and stores_from_text(None) is None


def _ship_row(db) -> tuple:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT stores, crew, fuel FROM ships WHERE name = 'Gull'").fetchone()


def test_a_day_and_a_half_of_water_runs_dry_at_hour_36_and_undo_restores(runner, reach):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    before = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert "food" not in before  # untracked until the referee loads some
    shown = json.loads(
        ok(runner, "ship", "load", "Gull", "--food", "60", "--fresh-water", "9", "--json")
    )
    assert shown["fresh_water"] == 9 and shown["fresh_water_days"] == 1.5  # R100: 6 aboard
    # 12 + 7.2 hlbs, the Load shown whole (R100)
    assert shown["food_days"] == 10 and shown["load"] == before["load"] + 12 + 7
    card = ok(runner, "ship", "show", "Gull")
    assert "Stores: food 60 person-days (10 days), fresh water 9 person-days (1.5 days)" in card
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812")
    loaded = _ship_row(reach)
    out = ok(runner, "advance", "--hours", "200")
    assert "Stopped: Gull: out of fresh water." in out  # R104: as every stop is said
    status = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert status["fresh_water"] == 0 and status["food"] == 60 - 9
    with sqlite3.connect(reach) as conn:
        (clock,) = conn.execute(
            "SELECT clock FROM events WHERE kind = 'stores' AND text LIKE '%fresh water%'"
        ).fetchone()
    assert clock == 35  # the 36th hour (clock 35 to 36): R101
    ok(runner, "undo")
    assert _ship_row(reach) == loaded  # every person-day back exactly


def test_stores_are_taken_on_in_port_only_and_a_raft_holds_four_days(runner, reach):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI")
    result = invoke(runner, "ship", "load", "Gull", "--raft-stores", "5")
    assert result.exit_code != 0 and "0 to 4 person-days" in result.output  # R100
    ok(runner, "ship", "load", "Gull", "--crew", "4", "--fuel", "100")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    row = _ship_row(reach)
    result = invoke(runner, "ship", "load", "Gull", "--food", "10")
    assert result.exit_code != 0 and "taken on in port (R103)" in result.output
    assert _ship_row(reach) == row  # nothing changed
