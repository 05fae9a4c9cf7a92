"""Encounter checks (R93): tables, odds, the engine's phase and its own dice, the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused, trawler_at

from voyage.actions import voyages
from voyage.base.errors import TableError
from voyage.store import campaign as store
from voyage.tables.calendar import is_night
from voyage.tables.rulebook import check_table, read_yaml
from voyage.world.encounters import (
    chance_for,
    encounter_check,
    face_odds,
    stream,
    terrain_of,
)

pytestmark = pytest.mark.encounters

TABLES = Path(__file__).resolve().parent.parent / "tables"


@pytest.fixture
def sea(runner: CliRunner, db: Path) -> Path:
    """The Salt Reach with the Sea Witch in Gullhaven (0305), crewed, fuelled and laden."""
    trawler_at(runner, "0305", crew=5, cargo=200, fuel=60)
    return db


# -- the tables -------------------------------------------------------------------------


def _encounters() -> dict:
    return read_yaml(TABLES / "encounters.yaml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["ships"].append({"faces": [6, 6], "value": "dinghy"}), "face 6 is doubled"),
        (lambda d: d["dispositions"].pop(), "face 5 is missing"),
        (
            lambda d: d["regions"]["all"]["open sea"]["results"][0]["value"].update(kind="mermaid"),
            "unknown kind 'mermaid'",
        ),
        (lambda d: d["regions"]["all"].update(reef={"results": []}), "unknown terrain"),
        (lambda d: d["regions"]["all"]["coastal"].update(night=7), "expected at most 6"),
        (lambda d: d.update(castaways="d6+x"), "castaways"),
    ],
)
def test_a_bad_encounter_table_is_refused_naming_the_key(change, message):
    data = _encounters()
    change(data)
    with pytest.raises(TableError) as err:
        check_table("encounters", data, "house/encounters.yaml")
    assert "house/encounters.yaml" in str(err.value) and message in str(err.value)


def test_a_leviathan_table_naming_an_unknown_beast_is_refused():
    data = read_yaml(TABLES / "leviathans.yaml")
    data["table"][0]["value"] = "mermaid"
    with pytest.raises(TableError, match="unknown leviathan 'mermaid'"):
        check_table("leviathans", data, "leviathans.yaml")


def test_bundled_face_odds(book):
    # written by hand from tables/encounters.yaml: open sea 1-2 ship, 3 leviathan, 4 wreckage,
    # 5 castaways, 6 sight
    table = book.encounters["regions"]["all"]["open sea"]["results"]
    assert [(v["kind"], p) for v, p in face_odds(table)] == [
        ("ship", Fraction(2, 6)),
        ("leviathan", Fraction(1, 6)),
        ("wreckage", Fraction(1, 6)),
        ("castaways", Fraction(1, 6)),
        ("sight", Fraction(1, 6)),
    ]


# -- odds -------------------------------------------------------------------------------


def test_chances_by_terrain_day_and_night(book):
    defaults = book.option_defaults()
    assert chance_for(book, defaults, "all", "open sea", night=False) == 1
    assert chance_for(book, defaults, "all", "open sea", night=True) == 1
    assert chance_for(book, defaults, "all", "coastal", night=True) == 2
    assert chance_for(book, defaults, "all", "port approach", night=True) == 2
    assert chance_for(book, defaults, "all", "coastal", night=False) == 1
    assert chance_for(book, defaults, "elsewhere", "coastal", night=True) == 2  # region "all"
    assert is_night(None, 5) and not is_night(None, 6) and is_night(None, 18)


@pytest.mark.parametrize(("chance", "p"), [(1, Fraction(1, 6)), (2, Fraction(2, 6))])
def test_check_rate_matches_the_exact_odds(book, binomial, chance, p):
    trials = 2400
    met = sum(
        encounter_check(book, stream(11, "Gull", clock), chance, "all", "coastal", "0101").met
        for clock in range(trials)
    )
    assert binomial(met, trials, p, 4)


def test_face_rates_match_the_exact_odds(book, binomial):
    trials = 2400
    seen: dict[str, int] = {}
    for clock in range(trials):
        result = encounter_check(
            book, stream(3, "Heron", clock), 1, "all", "open sea", "0101", sure=True
        )
        seen[result.encounter["kind"]] = seen.get(result.encounter["kind"], 0) + 1
    odds = {
        "ship": Fraction(2, 6),
        "leviathan": Fraction(1, 6),
        "wreckage": Fraction(1, 6),
        "castaways": Fraction(1, 6),
        "sight": Fraction(1, 6),
    }
    for kind, p in odds.items():
        assert binomial(seen.get(kind, 0), trials, p, 4), (kind, seen)
    ships = [
        encounter_check(
            book, stream(5, "Tern", c), 1, "all", "port approach", "0101", sure=True
        ).encounter
        for c in range(600)
    ]
    classes = {e["ship_class"] for e in ships if e["kind"] == "ship"}
    assert {"Fishing Trawler", "Warship"} <= classes


def test_the_stream_is_its_own_and_repeatable(book):
    a = encounter_check(book, stream(9, "Gull", 40), 6, "all", "open sea", "0101")
    b = encounter_check(book, stream(9, "GULL", 40), 6, "all", "open sea", "0101")
    assert a.to_dict() == b.to_dict() and a.met  # 6-in-6: always
    others = {
        encounter_check(book, stream(9, "Gull", c), 6, "all", "open sea", "0101", sure=True)
        .rolls[0]
        .natural
        for c in range(30)
    }
    assert len(others) > 1  # the hour is part of the key


def test_terrain_of_a_hex():
    class Hex:
        def __init__(self, port=None, coastal=False, narrow_passage=False, terrain="sea"):
            self.port, self.coastal, self.narrow_passage, self.terrain = (
                port,
                coastal,
                narrow_passage,
                terrain,
            )

    assert terrain_of(Hex(port="Ironport", terrain="port")) == "port approach"
    assert terrain_of(Hex(coastal=True)) == "coastal"
    assert terrain_of(Hex()) == "open sea"


# -- the engine ---------------------------------------------------------------------------


def _encounter_events(path: Path) -> list[tuple]:
    import sqlite3

    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT ship, clock, minute, kind, text, rolls FROM events "
            "WHERE kind LIKE 'encounter%' ORDER BY clock, id"
        ).fetchall()


def test_checks_fall_every_interval_and_an_encounter_stops_the_advance(runner, sea):
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    out = json.loads(ok(runner, "advance", "--until", "event", "--json"))
    events = _encounter_events(sea)
    assert events, "a check every 4 hours"
    assert all((clock + 1) % 4 == 0 and minute == 59 for _, clock, minute, *_ in events)
    assert [e[3] for e in events] == ["encounter"] and "encounter" in out["stopped"]
    assert out["end"] == events[0][1] + 1  # stopped at the end of that hour
    # a check that meets nothing is not logged and stops nothing: with 6-in-6 every check
    # meets something, so the next stop is exactly one interval on
    ok(runner, "settings", "encounter_chance", "6")
    ok(runner, "settings", "encounter_chance_night_coast", "6")
    again = json.loads(ok(runner, "advance", "--until", "event", "--json"))
    assert again["hours"] == 4 and _encounter_events(sea)[-1][1] == out["end"] + 3


def test_checks_late_or_after_an_undo_give_the_same_encounters(runner, sea, tmp_path):
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "12")
    first = _encounter_events(sea)
    ok(runner, "undo")
    for _ in range(12):
        result = json.loads(ok(runner, "advance", "--hours", "1", "--json"))
        if result["stopped"]:
            break
    assert _encounter_events(sea)[: len(first)] == first


def test_options_change_the_interval_and_zero_turns_checks_off(runner, sea):
    ok(runner, "settings", "encounter_chance", "6")
    ok(runner, "settings", "encounter_chance_night_coast", "6")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "12")
    assert _encounter_events(sea) == []
    ok(runner, "settings", "encounter_interval", "6")
    ok(runner, "advance", "--hours", "12")
    assert [e[1] for e in _encounter_events(sea)] == [17]  # 12 + 6 hours, then it stops


def test_the_engine_phase_never_shifts_the_main_dice(sea):
    camp = store.open_campaign(sea)
    voyages.sail(camp, "Sea Witch", to="2812")
    camp.close()
    runs = []
    for interval in ("4", "0"):
        camp = store.open_campaign(sea)
        camp.set_setting("encounter_interval", interval)
        result = voyages.advance(camp, 12)  # checks after hours 3, 7, 11 with 4
        runs.append([r.to_dict() for r in result.rows])
        camp.close()
        camp = store.open_campaign(sea)
        camp.undo()
        camp.close()
    with_checks, without = runs
    assert len(with_checks) >= 4 and with_checks == without[: len(with_checks)]


# -- by hand and the list -------------------------------------------------------------------


def test_check_by_hand_is_logged_listed_and_undone_exactly(runner, sea):
    before = db_contents(sea)
    out = ok(runner, "encounter", "check", "Sea Witch", "--sure", "--json")
    data = json.loads(out)
    assert data["kind"] == "encounter" and data["terrain"] == "port approach"
    assert data["rolls"][0]["label"] == "encounter"
    listed = json.loads(ok(runner, "encounter", "list", "--json"))["encounters"]
    assert len(listed) == 1 and listed[0]["ship"] == "Sea Witch"
    assert "Sea Witch" in ok(runner, "encounter", "list")
    ok(runner, "undo")
    assert db_contents(sea) == before


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("encounter", "check", "Nobody"), "Nobody"),
        (("encounter", "list", "--ship", "Nobody"), "Nobody"),
    ],
)
def test_check_refuses_with_one_line_and_changes_nothing(runner, sea, args, reason):
    before = db_contents(sea)
    assert reason in refused(runner, *args)
    assert db_contents(sea) == before


def test_a_ship_nowhere_on_the_map_is_refused(runner, sea):
    ok(runner, "ship", "add", "Drifter", "--class", "dinghy", "--tier", "I")
    before = db_contents(sea)
    assert "place her first" in refused(runner, "encounter", "check", "Drifter")
    assert db_contents(sea) == before


def test_an_abandoned_ship_is_refused_as_a_sunk_one_is(runner, sea):
    """R93: nobody is aboard a derelict to meet anything (the advance checks only ships on
    voyages); a check by hand rolled for her as if she were crewed."""
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    ok(runner, "act", "Sea Witch", "abandon")
    before = db_contents(sea)
    assert "Sea Witch was abandoned: nobody aboard her meets anything" in refused(
        runner, "encounter", "check", "Sea Witch", "--sure"
    )
    assert db_contents(sea) == before


def test_ships_on_crossing_courses_meet_and_ships_in_company_do_not(runner, sea):
    ok(runner, "settings", "encounter_chance", "0")  # only meetings stop the advance
    ok(runner, "settings", "encounter_chance_night_coast", "0")
    for name, cls, tier, engine in (
        ("Tern", "trawler", "IV", "V"),
        ("Iron Harpy", "warship", "VII", "IX"),
    ):
        ok(runner, "ship", "add", name, "--class", cls, "--tier", tier, "--engine", engine)
        ok(runner, "ship", "load", name, "--crew", "6", "--fuel", "80")
    ok(runner, "ship", "place", "Tern", "0305")
    ok(runner, "ship", "place", "Iron Harpy", "2812")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "sail", "Tern", "--to", "2812")  # in company with the Sea Witch
    ok(runner, "sail", "Iron Harpy", "--to", "0305")  # coming the other way
    out = json.loads(ok(runner, "advance", "--until", "event", "--json"))
    met = [e for e in out["events"] if e["kind"] == "encounter"]
    assert met and "encounter" in out["stopped"]
    pairs = {tuple(e["changes"]["encounter"]["ships"]) for e in met}
    assert all("Iron Harpy" in pair for pair in pairs)  # never the two in company
    assert {e["ship"] for e in met} >= {"Iron Harpy"}
    hexes = {e["changes"]["encounter"]["hex"] for e in met}
    assert len(hexes) == 1 and all("meet in" in e["text"] for e in met)


# -- the engine's shortcuts give what the long way gives ---------------------


def test_a_stream_resumed_after_its_peeked_first_die_draws_on_as_the_stream() -> None:
    # R93: the engine hashes the first block to peek at the first d6, then resumes the
    # stream from that block: the same dice as a stream started afresh, block after block
    import hashlib

    from voyage.world.encounters import StreamRoller

    for clock in range(0, 400, 7):
        fresh = stream(11, "Sea Witch", clock)
        faces = [fresh.die(6) for _ in range(20)]
        key = f"11\0encounter\0sea witch\0{clock}".encode()
        block = hashlib.sha256(key + b"\0\0\0\0").digest()
        first = int.from_bytes(block[:4], "big") % 6 + 1
        resumed = StreamRoller.after_first(key, block)
        assert [first] + [resumed.die(6) for _ in range(19)] == faces


def test_the_engines_d6_records_are_the_rollers_own() -> None:
    # R4/R93: _on_face makes the engine stream's record itself; a roller of another type
    # rolls it with Roller.roll: the same faces, entries and records
    from voyage.tables.rulebook import load_rulebook
    from voyage.world.encounters import StreamRoller, _on_face

    class Other(StreamRoller):
        pass

    table = load_rulebook().encounters["ships"]
    for clock in range(60):
        key = f"5\0encounter\0x\0{clock}".encode()
        quick, slow = StreamRoller(key), Other(key)
        for _ in range(3):
            got, want = (
                _on_face(quick, "ship met: class", table),
                _on_face(slow, "ship met: class", table),
            )
            assert got[0] == want[0] and got[1].to_json() == want[1].to_json()
        assert [r.to_json() for r in quick.records] == [r.to_json() for r in slow.records]


def test_meetings_come_hex_by_hex_in_the_order_the_ships_are_listed() -> None:
    # R93: two hexes shared (the second's ships listed first and last), ships in company
    # passed over; the events come by the hex of the first ship listed, pair by pair
    from types import SimpleNamespace

    from voyage.tables.rulebook import load_rulebook
    from voyage.world.encounters import EncounterChecks

    def ship(name: str, here: str, there: str, status: str = "under way") -> SimpleNamespace:
        return SimpleNamespace(
            ship=SimpleNamespace(name=name),
            voyage_id=1,
            route=["0101", here, there],
            position=1,
            progress=0,
            status=status,
            sinking_in=None,
        )

    states = [
        ship("A", "0505", "0506"),
        ship("B", "0707", "0708"),
        ship("C", "0707", "0706"),
        ship("D", "0505", "0504"),
        ship("E", "0505", "0506"),  # in company with A: meets D only
        ship("F", "0707", "0606", status="anchored"),  # not under way
    ]
    engine = SimpleNamespace(states=states, figures=lambda s: (9, 1, 9))
    out: list = []
    EncounterChecks(1, load_rulebook(), {}).meetings(engine, 40, out)
    assert [(e.ship, e.event.changes["encounter"]["ships"]) for e in out] == [
        ("A", ["A", "D"]),
        ("D", ["A", "D"]),
        ("D", ["D", "E"]),
        ("E", ["D", "E"]),
        ("B", ["B", "C"]),
        ("C", ["B", "C"]),
    ]


def test_meetings_log_nothing_exactly_when_no_two_ships_under_way_share_a_hex() -> None:
    # R93: the common hour's one pass over the fleet (EncounterChecks.meetings stops at
    # the first shared hex) against the plain question: a set of the hexes of the ships
    # under way (not sinking) as long as their list; where two share a hex on crossing
    # courses, one of them having come in, they meet
    import random
    from types import SimpleNamespace

    from voyage.tables.rulebook import load_rulebook
    from voyage.world.encounters import EncounterChecks

    checks = EncounterChecks(1, load_rulebook(), {})
    rng = random.Random(93)
    hexes = ["0505", "0506", "0707", "0708", "0606"]
    shared = quiet = 0
    for _ in range(400):
        states = [
            SimpleNamespace(
                ship=SimpleNamespace(name=f"S{n}"),
                voyage_id=n,
                route=["0101", rng.choice(hexes), rng.choice(hexes)],
                position=1,
                progress=0,
                status=rng.choice(["under way", "under way", "anchored", "stuck"]),
                sinking_in=rng.choice([None, None, None, 5]),
            )
            for n in range(rng.randint(2, 5))
        ]
        engine = SimpleNamespace(states=states, figures=lambda s: (9, 1, 9))
        out: list = []
        checks.meetings(engine, 40, out)
        under_way = [s for s in states if s.status == "under way" and s.sinking_in is None]
        apart = len({s.route[1] for s in under_way}) == len(under_way)
        if apart:
            quiet += 1
            assert out == []
        else:
            shared += 1
            crossing = any(
                a.route[1] == b.route[1] and a.route[2] != b.route[2]
                for i, a in enumerate(under_way)
                for b in under_way[i + 1 :]
            )
            assert bool(out) == crossing
    assert shared > 30 and quiet > 30
