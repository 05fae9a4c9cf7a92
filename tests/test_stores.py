"""Food and fresh water at sea (R100-R102): carried, used hour by hour, missed."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

from conftest import FaceRoller, db_contents, invoke, ok, refused

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
            "SELECT clock FROM events WHERE kind = 'stores' AND text LIKE '%run out of fresh%'"
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


def _clock(db) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT clock FROM campaign").fetchone()[0])


def _stores(db) -> dict:
    return json.loads(_ship_row(db)[0])


def test_done_when_a_trawler_with_two_days_of_water_runs_dry_at_48_and_dies_from_day_3(
    runner, reach
):
    # R100-R102, R104: six aboard, 12 person-days of fresh water, a 75-hour passage
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "load", "Gull", "--food", "100", "--fresh-water", "12")
    ok(runner, "ship", "place", "Gull", "0305")
    assert "Expected: 75 hours" in ok(runner, "sail", "Gull", "--to", "2812")
    loaded = _ship_row(reach)
    out = ok(runner, "advance", "--hours", "200")
    assert "Advanced 48 hours" in out and "Stopped: Gull: out of fresh water." in out
    assert _stores(reach)["fresh_water"] == "0"
    ok(runner, "act", "Gull", "anchor")  # kept at sea
    advances = 2
    while _clock(reach) < 110 and advances < 6:
        ok(runner, "advance", "--until", "day 5, 14:00")  # on to Ironport, lying there dry
        advances += 1
    with sqlite3.connect(reach) as conn:
        rows = conn.execute(
            "SELECT clock, text, rolls FROM events WHERE kind = 'stores' ORDER BY id"
        ).fetchall()
    rain = [r for r in rows if "catches the rain" in r[1]]
    dying = [r for r in rows if r[1].startswith("Going without")]
    if rain:  # R103: rain caught resets the count; nobody rolls before 3 dry days after it
        assert all(r[0] > rain[-1][0] for r in dying)
    else:
        # dry at clock 48; 06:00 of days 3, 4, 5 count 1, 2, 3: the first roll at clock 102
        assert dying and dying[0][0] == 102
        first = json.loads(dying[0][2])
        assert len(first) == 6 and all(r["probability"] == 1 / 36 for r in first)  # R102
        deaths = sum(r["total"] <= 2 for r in first)
        assert f"{deaths} of 6 die" in dying[0][1]
    for _ in range(advances + 1):
        ok(runner, "undo")
    assert _ship_row(reach) == loaded  # every person-day back exactly


def test_half_rations_are_logged_and_undone(runner, reach):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--food", "60", "--fresh-water", "12")
    before = _ship_row(reach)
    assert "half rations of fresh water" in ok(runner, "act", "Gull", "rations", "half", "--water")
    shown = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert shown["rations"] == {"food": "full", "fresh_water": "half"}
    assert shown["fresh_water_days"] == 4  # R101: twice as long
    ok(runner, "undo")
    assert _ship_row(reach) == before


def test_found_and_transfer_between_ships_in_one_hex(runner, reach):
    for name in ("Gull", "Tern"):
        ok(runner, "ship", "add", name, "--class", "trawler", "--tier", "V", "--engine", "VI")
        ok(runner, "ship", "load", name, "--crew", "4")
        ok(runner, "ship", "place", name, "0305")
    ok(runner, "ship", "load", "Gull", "--food", "40", "--fresh-water", "20")
    out = ok(runner, "act", "Gull", "transfer", "Tern", "--fresh-water", "8")
    assert "hands 8 person-days of fresh water over to Tern" in out  # R103
    with sqlite3.connect(reach) as conn:
        tern = json.loads(
            conn.execute("SELECT stores FROM ships WHERE name = 'Tern'").fetchone()[0]
        )
    assert tern["fresh_water"] == "8" and _stores(reach)["fresh_water"] == "12"
    ok(runner, "act", "Gull", "found", "--food", "5")
    assert _stores(reach)["food"] == "45"
    result = invoke(runner, "act", "Gull", "transfer", "Tern", "--food", "99")
    assert result.exit_code != 0 and "only 45 person-days of food" in result.output


def test_a_ports_stock_of_stores_limits_loading_and_undo_puts_it_back(runner, db, tmp_path):
    text = (Path(__file__).parent.parent / "campaigns/salt_reach/map.yaml").read_text()
    text = text.replace(
        "    fuel: {price: 2, stock: 600}\n",
        "    fuel: {price: 2, stock: 600}\n    stores: {fresh_water: 30}\n",
        1,
    )
    (tmp_path / "reach.yaml").write_text(text)
    ok(runner, "map", "load", str(tmp_path / "reach.yaml"))
    for name in ("Gull", "Tern"):
        ok(runner, "ship", "add", name, "--class", "trawler", "--tier", "V", "--engine", "VI")
        ok(runner, "ship", "place", name, "0305")
    ok(runner, "ship", "load", "Gull", "--fresh-water", "20", "--food", "500")  # food: no limit
    result = invoke(runner, "ship", "load", "Tern", "--fresh-water", "11")
    assert result.exit_code != 0
    assert "Gullhaven has only 10 person-days of fresh water left (R103)" in result.output
    ok(runner, "ship", "load", "Tern", "--fresh-water", "10")
    ok(runner, "undo")
    ok(runner, "ship", "load", "Tern", "--fresh-water", "10")


def test_rain_refills_a_rain_catcher_once_a_day():
    from voyage.rules.stores import catch_rain, rain_catcher
    from voyage.tables.rulebook import load_rulebook
    from voyage.vessels.stores import store_rules
    from voyage.vessels.vessel import Ship

    rules = store_rules(load_rulebook())
    stores = Stores(Fraction(10), Fraction(0), dry_water=Fraction(3))
    assert catch_rain(stores, 6, 4, rules) == 6 and stores.dry_water == 0  # R103, R102
    assert catch_rain(stores, 6, 4, rules) == 0  # once a day
    ship = Ship(name="Gull", ship_class="trawler", tier=3, engine_tier=3)
    assert rain_catcher(ship, rules) and not rain_catcher(
        Ship(name="Dory", ship_class="dinghy", tier=2, engine_tier=0), rules
    )


def test_a_campaigns_table_changes_the_numbers(tmp_path):
    from voyage.tables.rulebook import TableError, checked_text, load_rulebook
    from voyage.vessels.stores import store_rules

    book = load_rulebook()
    procedures = dict(book.procedures)
    procedures["stores"] = {"water_deadly": 2, "water_less": 0}
    import yaml

    data = checked_text("procedures", yaml.safe_dump(procedures), "procedures.yaml")
    house = type(book)(**{**book.__dict__, "procedures": data, "stores_cache": None})
    rules = store_rules(house)
    assert rules.water_deadly == 2 and rules.hourly == Fraction(1, 24)  # the rest as built in
    stores = Stores(dry_water=Fraction(2))
    assert death_target(stores, rules) == 2  # R102 as the house rules it: 2 - 0
    procedures["stores"] = {"dawn_hour": 25}
    try:
        checked_text("procedures", yaml.safe_dump(procedures), "procedures.yaml")
    except TableError as exc:
        assert "stores.dawn_hour" in str(exc)
    else:
        raise AssertionError("a dawn hour of 25 was taken")


def test_status_gives_the_stores_and_says_when_one_runs_low(runner, reach):
    """Must include 1 (R100, R101): `status` and its JSON give food and fresh water and the
    days they last; the trouble column names a store that lasts two days or less (R101's
    ``low_days``) or is gone."""
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "load", "Gull", "--food", "30", "--fresh-water", "9")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812")
    row = json.loads(ok(runner, "status", "--json"))["ships"][0]
    assert (row["food"], row["fresh_water"], row["fresh_water_days"]) == (30, 9, 1.5)
    assert "fresh water 1.5 days" in ok(runner, "status")
    ok(runner, "ship", "add", "Tern", "--class", "trawler", "--tier", "IV", "--engine", "III")
    assert "food" not in json.loads(ok(runner, "status", "--json", "--all"))["ships"][1]


def test_half_rations_on_a_ship_with_nobody_aboard_is_one_line_and_changes_nothing(runner, reach):
    """Must include 8: a counted ship with no crew (R101: nobody to go on half rations)."""
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "0", "--food", "30", "--fresh-water", "9")
    ok(runner, "ship", "place", "Gull", "0305")
    before = db_contents(reach)
    said = refused(runner, "act", "Gull", "rations", "half", "--water")
    assert "nobody is aboard Gull to go on half rations" in said
    assert db_contents(reach) == before


def test_a_built_boats_load_counts_her_stores_once():
    # R100: a person-day weighs 2 lbs of food and 8 lbs of fresh water on a built boat (her
    # Load is her weight over her body's in tens of lbs, R81), 0.2 and 0.8 hlb on a rolled
    # ship; the engine's Load counts them once, and follows them as they are used
    from engine_helpers import ship, voyage, world

    from voyage.dice.roller import Roller
    from voyage.engine.clock import Engine
    from voyage.tables.boatdesigns import sample_spec
    from voyage.tables.rulebook import load_rulebook
    from voyage.vessels import ships as shipfig
    from voyage.vessels.boatships import make_built_ship, present_weight

    book = load_rulebook()

    def engine_load(vessel: Any) -> Any:
        state = voyage(vessel)
        return Engine(world(), [state], Roller(1)).load(state)

    boat = make_built_ship("Fox", sample_spec("Moray", book.boats), book)
    bare, bare_lbs = engine_load(boat), present_weight(boat, book)
    boat.stores = Stores(Fraction(10), Fraction(10))
    assert present_weight(boat, book) == bare_lbs + 10 * 2 + 10 * 8
    assert engine_load(boat) == bare + 10 == shipfig.load(boat, book)
    state = voyage(boat)
    engine = Engine(world(), [state], Roller(1))
    boat.stores.food = boat.stores.fresh_water = Fraction(5)  # used at sea since
    assert engine.load(state) == bare + 5 == shipfig.load(boat, book)
    boat.stores.raft, boat.equipment["life_rafts"] = 2, 1  # R100: 2 person-days of each
    assert engine_load(boat) == bare + 5 + 2 == shipfig.load(boat, book)

    trawler = ship()
    bare = engine_load(trawler)
    trawler.stores = Stores(Fraction(10), Fraction(10))
    assert engine_load(trawler) == bare + 10 == shipfig.load(trawler, book)


def test_status_shows_the_load_in_whole_hlbs_as_ship_show_does(runner, reach):
    """R100: stores keep their fractions, the Load shows whole hlbs: `status` (text and
    JSON, at sea and in port) gives the Load `ship show` gives, not 330.6."""
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "load", "Gull", "--food", "100", "--fresh-water", "12")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "ship", "add", "Tern", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Tern", "--crew", "6", "--food", "7", "--fresh-water", "1")
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "advance", "--hours", "5")  # 6 x 5/24 of each used: fractions aboard
    rows = json.loads(ok(runner, "status", "--json", "--all"))["ships"]
    for row in rows:
        shown = json.loads(ok(runner, "ship", "show", row["ship"], "--json"))["load"]
        assert row["load"] == shown and isinstance(shown, int), row["ship"]
    assert f" {rows[0]['load']} half " in ok(runner, "status")


def test_person_days_read_in_figures_never_in_powers_of_ten(runner, reach):
    # A thousand person-days an hour into the voyage read "1e+03" in the found line,
    # and `ship show` gave 999.833 beside it: one way of saying them everywhere.
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI")
    ok(runner, "ship", "load", "Gull", "--crew", "4", "--food", "1000", "--fresh-water", "20")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "advance", "--hours", "1")  # R101: 4/24 of a person-day of each used in port
    out = ok(runner, "act", "Gull", "found", "--food", "2")
    assert "food 1002, fresh water 19.8 person-days aboard" in out
    shown = ok(runner, "ship", "show", "Gull")
    assert "food 1002 person-days (250.46 days), fresh water 19.8 person-days (4.96 days)" in shown


def test_one_person_day_and_one_day_are_said_in_the_singular(runner, reach):
    # "fresh water 1 person-days (1 days)" in ship show, sail and status.
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI")
    ok(
        runner,
        "ship",
        "load",
        "Gull",
        "--crew",
        "1",
        "--food",
        "46",
        "--fresh-water",
        "1",
        "--fuel",
        "20",
    )
    ok(runner, "ship", "place", "Gull", "0305")
    assert "fresh water 1 person-day (1 day)" in ok(runner, "ship", "show", "Gull")
    sail = ok(runner, "sail", "Gull", "--to", "0506")
    assert "fresh water 1 person-day (1 day);" in sail
    status = ok(runner, "status")
    assert "fresh water 1 day" in status and "1 days" not in status


def test_fresh_water_found_alone_is_said_in_person_days(runner, reach):
    # "takes on stores found ...: 500 of fresh water" lacked its unit.
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI")
    ok(runner, "ship", "load", "Gull", "--crew", "4", "--food", "10", "--fresh-water", "10")
    out = ok(runner, "act", "Gull", "found", "--fresh-water", "5")
    assert "R103): 5 person-days of fresh water; food 10, fresh water 15" in out
    out = ok(runner, "act", "Gull", "found", "--food", "1")
    assert "R103): 1 person-day of food; food 11" in out
