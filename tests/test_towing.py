"""Towing (R92): the tower's figures exactly, moving together, the line in a storm, undo and
bad input."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TRAWLER, WHALER, db_contents, ok, refused

from voyage.store import campaign as store
from voyage.vessels import ships as shipfig


def _fleet(runner: CliRunner, strong: bool) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "ship", "add", "Sea Witch", *TRAWLER)
    ok(runner, "ship", "load", "Sea Witch", "--crew", "5", "--cargo", "200", "--fuel", "60")
    traits = ["--trait", "Strong"] if strong else []
    ok(runner, "ship", "add", "Old Faithful", *WHALER, *traits)
    ok(runner, "ship", "load", "Old Faithful", "--crew", "8", "--fuel", "120")
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "2", "--fuel", "30")
    for name in ("Sea Witch", "Old Faithful", "Gull"):
        ok(runner, "ship", "place", name, "0305")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "sail", "Old Faithful", "--to", "2812")


@pytest.mark.parametrize(
    # by hand: the Sea Witch's Load is cargo 200 + fuel 60 + 5 crew x 10 + 52 equipment = 362;
    # the tow weighs her Deadweight 750 + 362 = 1112. The whaler (Tier V, engine VII,
    # Deadweight 1000) has 120 fuel + 80 people + 50 equipment = 250 aboard.
    ("strong", "counted", "category", "speed", "fuel_use"),
    [
        # all of it: 1362 > 1000, Overloaded: speed 5 + (7 - 5) - 2 = 5; Fuel Use 1 x 2
        (False, 1112, "overloaded", 5, 2),
        # Strong, a fifth: ceil(1112 / 5) = 223; 473 <= 500 Half: 5 + 2 + 1 = 8; Fuel Use 1
        (True, 223, "half", 8, 1),
    ],
)
def test_the_towers_figures_are_exactly_r92(runner, db, strong, counted, category, speed, fuel_use):
    _fleet(runner, strong)
    out = json.loads(ok(runner, "act", "--json", "Old Faithful", "tow", "Sea Witch"))
    assert out["changes"] == {"tow": "Sea Witch", "tow_weight": 1112, "tow_counted": counted}
    camp = store.open_campaign(db)
    tower, book = camp.get_ship("Old Faithful"), camp.rulebook
    assert shipfig.load_parts(tower, book)["tow"] == counted
    assert shipfig.load(tower, book) == 250 + counted
    assert shipfig.load_category(tower, book) == category
    assert shipfig.speed(tower, book) == speed
    assert shipfig.fuel_use(tower, book) == fuel_use
    assert shipfig.sinking_load(tower, book) == 2000  # R92: not for R12's sinking
    camp.close()
    ok(runner, "advance", "--hours", "1")
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT ship, hex, speed, load, load_category FROM hours WHERE clock = 0 ORDER BY ship"
        ).fetchall()
    by_ship = {r[0]: r for r in rows}
    assert by_ship["Old Faithful"][2] == speed
    assert by_ship["Old Faithful"][4] == category  # R92: the hour's load category counts it
    checks = _events(db, "Old Faithful", "capsize")
    if category == "overloaded":
        # R92 counts the tow in her load category, and R41 is not excluded: Overloaded by
        # it, she makes R41's hourly Check (here at minute 0 of her first hour)
        assert checks[:1] == [(0, 0)]
    else:
        # 8 knots: no hex entered in her first hour, no fuel burnt: the logged Load is
        # 250 + the tow counted (R92, as `ship show`), and Half makes no hourly Check
        assert by_ship["Old Faithful"][3] == 250 + counted and checks == []
    assert by_ship["Sea Witch"][1] == by_ship["Old Faithful"][1]  # they move together


def test_a_ship_without_an_engine_is_towed_home(runner, db):
    _fleet(runner, True)
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    camp = store.open_campaign(db)
    with camp.action("test", "break her engine"):
        witch = camp.get_ship("Sea Witch")
        witch.engine_broken = True
        camp.save_ship(witch)
    camp.close()
    out = json.loads(ok(runner, "advance", "--until", "arrival", "--json"))
    assert out["stopped"].startswith("Old Faithful: arrived")
    status = {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}
    assert "Sea Witch" not in status or status["Sea Witch"]["hex"] == "2812"
    with sqlite3.connect(db) as conn:
        witch = conn.execute("SELECT hex, status FROM ships WHERE name = 'Sea Witch'").fetchone()
    assert witch[0] == "2812"


def test_the_line_is_rolled_each_storm_hour_like_an_anchor_cable(runner, db):
    _fleet(runner, True)
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    ok(runner, "weather", "storm", "--around", "0305", "--radius", "3", "--hours", "48")
    out = json.loads(ok(runner, "advance", "--hours", "6", "--json"))
    tows = [e for e in out["events"] if e["kind"] == "tow" and e["rolls"]]
    assert tows and all(e["rolls"][0]["dice"] == "2d6" for e in tows)
    for e in tows:
        parted = e["rolls"][0]["total"] in (2, 12)
        assert parted == bool(e["changes"].get("tow_parted"))
        assert (e["halt"] == "tow parted") == parted


def test_tow_and_cast_off_are_undone_exactly(runner, db):
    _fleet(runner, False)
    before = db_contents(db)
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    middle = db_contents(db)
    ok(runner, "act", "Old Faithful", "cast-off")
    ok(runner, "undo")
    assert db_contents(db) == middle
    ok(runner, "undo")
    assert db_contents(db) == before


@pytest.mark.parametrize(
    ("first", "bad", "reason"),
    [
        (None, ("act", "Old Faithful", "tow", "Gull"), "Gull is not at sea"),
        (
            ("act", "Old Faithful", "tow", "Sea Witch"),
            ("act", "Old Faithful", "tow", "Gull"),
            "one tow at a time",
        ),
        (None, ("act", "Old Faithful", "tow", "Old Faithful"), "cannot tow herself"),
        (None, ("act", "Old Faithful", "cast-off"), "nothing in tow"),
        (
            ("act", "Old Faithful", "tow", "Sea Witch"),
            ("act", "Sea Witch", "cast-off"),
            "is under tow by Old Faithful",
        ),
    ],
)
def test_bad_towing_is_one_line_and_changes_nothing(runner, db, first, bad, reason):
    _fleet(runner, False)
    if first:
        ok(runner, *first)
    before = db_contents(db)
    assert reason in refused(runner, *bad)
    assert db_contents(db) == before


def test_towing_a_ship_in_another_hex_is_refused(runner, db: Path):
    _fleet(runner, False)
    ok(runner, "sail", "Gull", "--to", "0806")
    ok(runner, "advance", "--hours", "3")
    before = db_contents(db)
    assert "a tow line is passed in one hex" in refused(
        runner, "act", "Old Faithful", "tow", "Gull"
    )
    assert db_contents(db) == before


def test_an_abandoned_ship_elsewhere_is_refused_naming_where_she_lies(runner, db: Path):
    """R92: a tow line is passed in one hex; an abandoned ship's voyage is over, and the
    refusal says where she was left (it used to call her "not at sea")."""
    _fleet(runner, False)
    ok(runner, "advance", "--hours", "3")
    ok(runner, "act", "Sea Witch", "abandon")
    before = db_contents(db)
    said = refused(runner, "act", "Old Faithful", "tow", "Sea Witch")
    assert "Sea Witch was abandoned at " in said and "a tow line is passed in one hex" in said
    assert "bring the tower to " in said and "not at sea" not in said
    assert db_contents(db) == before


def test_a_sound_derelict_in_her_hex_is_taken_in_tow(runner, db: Path):
    """R92 with "A ship with no crew" (docs/rulings.md: another ship may tow her): a sound
    ship abandoned (R71), her voyage closed, lies adrift in the tower's hex and goes with
    her; it used to be refused ("a derelict cannot be taken in tow")."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    for name, traits in (("Sea Witch", ["--trait", "Strong"]), ("Tern", [])):
        ok(runner, "ship", "add", name, *TRAWLER, *traits)  # Strong: a fifth of the tow
        ok(runner, "ship", "load", name, "--crew", "4", "--fuel", "60", "--rafts", "1")
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "0804")
    ok(runner, "advance", "--hours", "3")  # the same speed: the same hex
    ok(runner, "act", "Tern", "abandon")
    before = db_contents(db)
    said = ok(runner, "act", "Sea Witch", "tow", "Tern")
    assert "Sea Witch takes Tern in tow at " in said
    rows = {r["ship"]: r for r in json.loads(ok(runner, "status", "--json"))["ships"]}
    assert rows["Tern"]["status"] == "under tow" and rows["Tern"]["hex"] == rows["Sea Witch"]["hex"]
    ok(runner, "advance", "--hours", "2")
    rows = {r["ship"]: r for r in json.loads(ok(runner, "status", "--json"))["ships"]}
    assert rows["Tern"]["hex"] == rows["Sea Witch"]["hex"] != rows["Tern"]["destination"]
    ok(runner, "undo")
    ok(runner, "undo")
    assert db_contents(db) == before


def test_a_ship_cast_off_is_told_whither_she_gets_under_way(runner, db: Path):
    """R92: a ship taken in tow follows her tower's route; cast off and under way again
    (`act weigh`), she goes on along it, and the line says whither (it said only R65)."""
    _fleet(runner, False)
    ok(runner, "sail", "Gull", "--to", "0806")
    ok(runner, "act", "Sea Witch", "tow", "Gull")  # both in Gullhaven's hex, Sea Witch for 2812
    ok(runner, "act", "Sea Witch", "cast-off")
    said = ok(runner, "act", "Gull", "weigh")
    assert "Gull gets under way again, bound for 2812" in said
    assert "course --to CCRR" in said


def _events(db: Path, ship: str, kind: str) -> list[tuple[int, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT clock, minute FROM events WHERE ship = ? AND kind = ? ORDER BY id", [ship, kind]
        ).fetchall()


def test_the_tow_weight_follows_the_towed_ship_each_hour(runner, db):
    # R92: the tow weighs her Deadweight plus her Load as they are now: water she takes on
    # is counted in the tower's Load from the next hour (water counts in Load, R11)
    _fleet(runner, True)
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    camp = store.open_campaign(db)
    with camp.action("test", "water in the Witch"):
        witch = camp.get_ship("Sea Witch")
        witch.water = 50  # under DW/10: no capsize Check (R37)
        camp.save_ship(witch)
    camp.close()
    ok(runner, "advance", "--hours", "1")
    camp = store.open_campaign(db)
    tower, witch, book = camp.get_ship("Old Faithful"), camp.get_ship("Sea Witch"), camp.rulebook
    camp.close()
    weight = shipfig.deadweight(witch, book) + shipfig.load(witch, book)
    assert weight == 750 + 362 + witch.water
    assert tower.equipment["tow_counted"] == -(-weight // 5)  # a fifth for Strong, rounded up
    assert shipfig.load_parts(tower, book)["tow"] == -(-weight // 5)


@pytest.mark.parametrize("storm", [False, True])
def test_the_ship_in_tow_meets_the_hazards_of_each_hex_entered(runner, db, storm):
    # inshore into Silt Harbour (R33: shallows on the way) or through a storm (R32, R60):
    # the ship in tow rolls her own Check in every hex her tower enters, at the same minute
    _fleet(runner, True)
    if storm:
        ok(runner, "weather", "storm", "--around", "0305", "--radius", "3", "--hours", "48")
    else:
        ok(runner, "undo")  # the whaler's sailing: inshore to Silt Harbour instead
        ok(runner, "sail", "Old Faithful", "--to", "0804", "--inshore")
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    ok(runner, "advance", "--hours", "4" if storm else "12")
    kind = "capsize" if storm else "coast"
    tower = _events(db, "Old Faithful", kind)
    assert tower and _events(db, "Sea Witch", kind)[: len(tower)] == tower


def test_the_journal_tells_a_tow_once(runner, db: Path):
    """R92: taking in tow and casting off are logged on both ships; the journal, every
    ship's, tells each once in the tower's words (a journal for the towed ship's players
    alone keeps her own line)."""
    _fleet(runner, True)  # Strong: Half with her tow, no capsize check (R41)
    ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    ok(runner, "advance", "--hours", "1")
    ok(runner, "act", "Old Faithful", "cast-off")
    for audience in ("players", "referee"):
        told = ok(runner, "journal", "--for", audience, "--out", "-")
        assert told.count("Old Faithful takes Sea Witch in tow") == 1, told
        assert "Sea Witch is taken in tow by Old Faithful" not in told
        assert told.count("Old Faithful casts off the tow (Sea Witch)") == 1, told
        assert "Old Faithful casts Sea Witch off" not in told
    hers = ok(runner, "journal", "--ship", "Sea Witch", "--out", "-")
    assert hers.count("Sea Witch is taken in tow by Old Faithful") == 1, hers
