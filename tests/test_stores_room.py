"""The room a ship has for food and fresh water (R100, R103): her Load (twice her
Deadweight, R12; a built boat's maximum load, R80) and a built boat's free spaces, a
Galley's 28 person-days of food aside. Over it, `ship load`, `act found` and `act transfer`
refuse in one line naming the ship, the most she can take and the fix; nothing changes."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused

from voyage.vessels.boatships import make_built_ship
from voyage.vessels.stores import Stores
from voyage.vessels.storesroom import free_spaces, galleys, room


@pytest.fixture
def port(runner: CliRunner, db: Path) -> Path:
    """The Salt Reach; in Gullhaven: Cook, a Dinghy (10 spaces) with a Galley and six
    Sonars (no space free), and Cook2, the same with five (one space free)."""
    ok(runner, "map", "load", "salt_reach")
    for name, sonars in (("Cook", 6), ("Cook2", 5)):
        ok(
            runner,
            *("ship", "build", name, "--body", "dinghy", "--plant", "small"),
            *("--with", f"galley,sonar:{sonars}", "--crew", "1"),
        )
        ok(runner, "ship", "place", name, "0305")
    return db


def _stores(runner: CliRunner, name: str) -> tuple[Fraction, Fraction]:
    shown = json.loads(ok(runner, "ship", "show", name, "--json"))
    return Fraction(shown["food_exact"]), Fraction(shown["fresh_water_exact"])


def test_a_galley_holds_28_person_days_of_food_without_space_but_not_without_weight(book):
    spec = {"body": "dinghy", "plant": "small", "propellers": 1, "crew": 1}
    spec["accessories"] = {"galley": 1, "sonar": 6}
    cook = make_built_ship("Cook", spec, book)
    assert galleys(cook) == 1 and free_spaces(cook, book) == 0
    r = room(cook, book)
    assert r.galley == 28 and r.spaces == 0  # R100: the seed's week for four, in the Galley
    assert r.fits(28, 0) and not r.fits(29, 0) and not r.fits(0, 1)
    # R100 names no exception for the weight: the Galley's food weighs 2 lbs a person-day
    cook.stores = Stores(Fraction(28), Fraction(0))
    assert room(cook, book).hlbs == r.hlbs  # the room is for the stores, theirs counted
    without = make_built_ship("Plain", {**spec, "accessories": {"sonar": 6}}, book)
    assert galleys(without) == 0 and free_spaces(without, book) == 1
    assert room(without, book).most_food(0) == 28  # one free space: 28 person-days (our reading)


def test_a_rolled_ships_room_is_her_load_alone(book):
    from voyage.vessels.ships import Ship, load, sinking_load

    ship = Ship(name="Gull", ship_class="trawler", tier=4, engine_tier=3, crew=6, fuel=40)
    r = room(ship, book)
    assert r.spaces is None and r.galley == 0
    spare = sinking_load(ship, book) - load(ship, book)
    assert r.most_water(0) == int(spare / Fraction(4, 5)) and r.most_food(0) == spare * 5


def test_loading_past_the_galley_and_the_free_spaces_is_one_line_and_changes_nothing(runner, port):
    ok(runner, "ship", "load", "Cook", "--food", "28")  # all in the Galley
    assert _stores(runner, "Cook") == (28, 0)
    before = db_contents(port)
    said = refused(runner, "ship", "load", "Cook", "--food", "29")
    assert said.strip().count("\n") == 0  # one line
    assert "Cook has room for at most 28 person-days of food" in said
    assert "free spaces (0 person-days, her Galley's 28 of food besides; R100, R103)" in said
    assert "`voyage ship load 'Cook' --food 28` at most" in said
    said = refused(runner, "ship", "load", "Cook", "--fresh-water", "1")
    assert "room for at most 0 person-days of fresh water beside 28 of food" in said
    assert db_contents(port) == before


def test_a_free_space_holds_28_more_and_the_galley_the_first_28_of_food(runner, port):
    ok(runner, "ship", "load", "Cook2", "--food", "56")  # 28 in the Galley, 28 in the space
    ok(runner, "ship", "load", "Cook2", "--food", "30", "--fresh-water", "26")
    before = db_contents(port)
    said = refused(runner, "ship", "load", "Cook2", "--fresh-water", "27")
    assert "Cook2 has room for at most 26 person-days of fresh water beside 30 of food" in said
    assert db_contents(port) == before


def test_found_and_transfer_say_how_much_more_she_has_room_for(runner, port):
    ok(runner, "ship", "load", "Cook2", "--food", "28", "--fresh-water", "20")
    ok(runner, "ship", "load", "Cook", "--food", "10")
    before = db_contents(port)
    said = refused(runner, "act", "Cook2", "found", "--fresh-water", "9")
    assert "Cook2 has room for at most 8 person-days more of fresh water" in said
    assert "`voyage act 'Cook2' found --fresh-water 8` at most" in said
    said = refused(runner, "act", "Cook2", "transfer", "Cook", "--food", "19")
    assert "Cook has room for at most 18 person-days more of food" in said
    assert db_contents(port) == before
    ok(runner, "act", "Cook2", "found", "--fresh-water", "8")
    assert _stores(runner, "Cook2") == (28, 28)


def test_a_rolled_ship_over_twice_her_deadweight_is_told_the_most_she_can_load(runner, db):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "40")
    ok(runner, "ship", "place", "Gull", "0305")
    shown = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    most = int((shown["sinking_load"] - Fraction(str(shown["load"]))) / Fraction(4, 5))
    before = db_contents(db)
    said = refused(runner, "ship", "load", "Gull", "--fresh-water", str(most + 1))
    assert f"Gull has room for at most {most} person-days of fresh water beside 0 of food" in said
    assert "twice her Deadweight (1500 hlbs, R12, R103)" in said
    assert db_contents(db) == before
    ok(runner, "ship", "load", "Gull", "--fresh-water", str(most))
    assert _stores(runner, "Gull") == (0, most)


def test_the_warning_keeps_its_fix_within_her_room(runner, db):
    """R104's warning in port names a `ship load` she has room for (R100, R103): a rowboat
    at oars whose two free spaces hold 56 person-days, 54 of them food past her Galley's."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "build", "Oar", "--body", "rowboat", "--with", "oars,galley,sonar:2")
    ok(runner, "ship", "place", "Oar", "0305")
    ok(runner, "ship", "load", "Oar", "--crew", "1", "--food", "82", "--fresh-water", "2")
    out = ok(runner, "forecast", "Oar", "--to", "2812", "--runs", "20", "--seed", "1")
    (warned,) = [line for line in out.splitlines() if line.startswith("Warning: her fresh")]
    assert "she has room for at most 2 person-days of fresh water (R100, R103), not the 5" in warned
    assert "ship load" not in warned  # no room for more: a stop, or less aboard
    ok(runner, "ship", "load", "Oar", "--food", "81")
    out = ok(runner, "forecast", "Oar", "--to", "2812", "--runs", "20", "--seed", "1")
    (warned,) = [line for line in out.splitlines() if line.startswith("Warning: her fresh")]
    assert "`voyage ship load 'Oar' --fresh-water 3` at most and `voyage plan` a stop" in warned
    ok(runner, "ship", "load", "Oar", "--fresh-water", "3")  # and she has room for it


def test_a_table_that_makes_food_weigh_nothing_leaves_food_unlimited_on_a_rolled_ship():
    from voyage.vessels.storesroom import Room

    r = Room("Gull", Fraction(8), Fraction(0), Fraction(4, 5), 0, None, "twice")
    assert r.most_food(10) >= 10**9 and r.most_water(10**6) == 10
    assert r.most_food(11) == -1  # 11 of fresh water weigh 8.8 hlbs: no room for any food


def test_ship_show_gives_a_built_boats_room_for_stores(runner, port):
    # R100: Cook2's Galley holds 28 person-days of food beside her one free space's 28
    ok(runner, "ship", "load", "Cook2", "--food", "30", "--fresh-water", "10")
    room = json.loads(ok(runner, "ship", "show", "Cook2", "--json"))["stores_room"]
    assert room["galley_food"] == 28 and room["spaces"] == 28
    assert room["spaces_left"] == 28 - 2 - 10  # the food past the Galley's, and the water
    assert room["food_more"] == 16 and room["fresh_water_more"] == 16
    assert "maximum load" in room["limit"]
    line = (
        "  Room for stores: 16 more person-days of food or 16 of fresh water; her Galley "
        "holds 28 of food (R100), her free spaces 28 (16 left); "
    )
    assert line in ok(runner, "ship", "show", "Cook2")
    # Cook: no space free, her Galley's food alone
    room = json.loads(ok(runner, "ship", "show", "Cook", "--json"))["stores_room"]
    assert (room["spaces"], room["spaces_left"], room["food_more"]) == (0, 0, 28)
    assert room["fresh_water_more"] == 0


def test_ship_show_gives_a_rolled_ships_room_within_twice_her_deadweight(runner, port):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "40")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "ship", "load", "Gull", "--fresh-water", "10")
    shown = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert (shown["sinking_load"], shown["load"]) == (1500, 160)  # 10 of water: 8 hlbs
    room = shown["stores_room"]
    assert room["galley_food"] is None and room["spaces"] is None  # R103: her Load alone
    # 1500 - 160 = 1340 hlbs left: 0.2 hlb a person-day of food, 0.8 of fresh water (R100)
    assert (room["hlbs_left"], room["food_more"], room["fresh_water_more"]) == (1340, 6700, 1675)
    assert room["limit"] == "a Load of twice her Deadweight (1500 hlbs, R12, R103)"
    assert (
        "  Room for stores: 6,700 more person-days of food or 1,675 of fresh water; 1,340 hlbs "
        "left within a Load of twice her Deadweight (1500 hlbs, R12, R103)"
    ) in ok(runner, "ship", "show", "Gull")


def test_every_refusal_of_too_many_person_days_ends_with_the_command_at_its_most(
    runner, db, tmp_path
):
    # R103: ship load past the port's stock and past her room (R12), found and transfer
    # past her room, transfer past what she has: one wording, naming the option and the fix
    text = (Path(__file__).parent.parent / "campaigns/salt_reach/map.yaml").read_text()
    stock = "    fuel: {price: 2, stock: 600}\n"
    (tmp_path / "reach.yaml").write_text(
        text.replace(stock, stock + "    stores: {fresh_water: 30}\n", 1)
    )
    ok(runner, "map", "load", str(tmp_path / "reach.yaml"))
    for name in ("Gull", "Tern"):
        ok(runner, "ship", "add", name, "--class", "trawler", "--tier", "V", "--engine", "VI")
        ok(runner, "ship", "load", name, "--crew", "4")
        ok(runner, "ship", "place", name, "0305")
    ok(runner, "ship", "load", "Gull", "--food", "10")
    ok(runner, "ship", "load", "Tern", "--food", "9540")  # all she has room for (R12)
    said = [
        refused(runner, "ship", "load", "Gull", "--fresh-water", "31"),  # the stock
        refused(runner, "ship", "load", "Gull", "--food", "999999"),
        refused(runner, "act", "Gull", "found", "--food", "999999"),
        refused(runner, "act", "Gull", "transfer", "Tern", "--food", "11"),  # she has 10
        refused(runner, "act", "Gull", "transfer", "Tern", "--food", "1"),  # Tern's room
    ]
    fixes = [
        "`voyage ship load 'Gull' --fresh-water 30` at most",
        "`voyage ship load 'Gull' --food 9540` at most",
        "`voyage act 'Gull' found --food 9530` at most",
        "`voyage act 'Gull' transfer 'Tern' --food 10` at most",
        "`voyage act 'Gull' transfer 'Tern' --food 0` at most",
    ]
    for line, fix in zip(said, fixes, strict=True):
        assert line.strip().count("\n") == 0 and line.strip().endswith(fix), line
        assert re.search(r", not (the )?\d+", line), line  # what was asked, said back
