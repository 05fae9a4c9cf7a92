"""`voyage doctor`'s checks of the world (voyage.actions.doctor_world): what newer voyage refuses
when it comes in - a calendar beyond its limits, seasons the climates lack, a map that no
longer reads, a ship at sea with no voyage, a storm no command makes - named in one line
each with its fix, and no backup suggested (none of it is damage)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from conftest import BRINE_CALENDARS, ok, refused, trawler_at
from test_doctor import change, doctor

RECOVERY = "To recover: restore the campaign from a backup copy"


def _findings(path: Path) -> list[tuple[str, str, str]]:
    report = json.loads(doctor(path, "--json")[1])
    return [(f["check"], f["where"], f["problem"]) for f in report["findings"]]


def _one(path: Path, sql: str) -> tuple:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchone()
    finally:
        conn.close()


def _brine(runner, tmp_path: Path) -> Path:
    house = tmp_path / "house"
    house.mkdir()
    (house / "calendars.yaml").write_text(BRINE_CALENDARS, encoding="utf-8")
    db = tmp_path / "brine.db"
    ok(
        runner,
        "init",
        "--db",
        str(db),
        "--tables",
        str(house),
        "--start",
        "1 Saltmoon 3",
        "--calendar",
        "brine",
    )
    return db


def test_a_calendar_campaign_is_healthy(runner, tmp_path):
    db = _brine(runner, tmp_path)
    assert doctor(db)[0] == 0
    greg = tmp_path / "greg.db"
    ok(runner, "init", "--db", str(greg), "--start", "1492-06-01")
    ok(runner, "map", "load", "--db", str(greg), "salt_reach")
    assert doctor(greg) == (0, doctor(greg)[1]) and "healthy" in doctor(greg)[1]


def test_a_calendar_beyond_the_limits_of_new_ones_is_named_with_its_fix(runner, tmp_path):
    """A campaign made before the limits (a 100,000-day month) still runs (test_referee_
    world); the doctor says where it is beyond them, and what corrects each copy."""
    db = _brine(runner, tmp_path)
    huge = BRINE_CALENDARS.replace("days: 45,", "days: 100000,")
    definition = json.loads(_one(db, "SELECT definition FROM calendar")[0])
    definition["months"][1]["days"] = 100_000
    change(
        db,
        f"UPDATE house_tables SET text = '{huge}' WHERE name = 'calendars'",
        f"UPDATE calendar SET definition = '{json.dumps(definition)}'",
    )
    code, out = doctor(db)
    assert code == 1 and RECOVERY not in out
    assert _findings(db) == [
        (
            "calendar",
            "house_tables",
            "house table calendars.yaml at 'calendars.brine.months[1].days': month Sunmoon has "
            "100,000 days: give it at most 1,000 (room for a whole year as one month); correct "
            "calendars.yaml in the campaign's tables folder and `voyage tables load FOLDER`",
        ),
        (
            "calendar",
            "calendar",
            "the campaign's calendar at 'calendars.brine.months[1].days': month Sunmoon has "
            "100,000 days: give it at most 1,000 (room for a whole year as one month); it runs "
            "as it is (its dates never move): a corrected calendar needs a new campaign "
            "(`voyage init --tables FOLDER --calendar brine`)",
        ),
    ]
    # 101 months, and a stored calendar that no longer validates at all
    definition["months"] = [
        dict(definition["months"][0], name=f"M{i}", short=f"M{i}") for i in range(101)
    ]
    change(
        db,
        f"UPDATE calendar SET definition = '{json.dumps(definition)}'",
        "DELETE FROM house_tables",
    )
    ((_, _, problem),) = _findings(db)
    assert problem.startswith(
        "the campaign's calendar at 'calendars.brine.months': 101 "
        "months: give at most 100; it runs as it is"
    )
    definition["months"][0]["season"] = "monsoon"
    change(db, f"UPDATE calendar SET definition = '{json.dumps(definition)}'")
    ((_, _, problem),) = _findings(db)
    assert problem.startswith(
        "the campaign's calendar at 'calendars.brine.months[0].season': "
        "unknown season 'monsoon': use one of wet, dry; a corrected"
    )


def test_a_season_the_maps_climates_lack_is_named_as_every_advance_says_it(runner, tmp_path):
    """R61: the weather reads each region's climate by the calendar's season. A campaign
    whose calendar came (by hand, or before the check) with seasons the Salt Reach's
    temperate north has no row for cannot advance: the doctor says so, with the fix."""
    db = _brine(runner, tmp_path)
    greg = tmp_path / "greg.db"
    ok(runner, "init", "--db", str(greg))
    ok(runner, "map", "load", "--db", str(greg), "salt_reach")
    key, definition, year, month, day = _one(db, "SELECT * FROM calendar")[1:]
    change(
        greg, f"INSERT INTO calendar VALUES (1, '{key}', '{definition}', {year}, {month}, {day})"
    )
    code, out = doctor(greg)
    assert code == 1 and RECOVERY not in out
    ((check, where, problem),) = _findings(greg)
    assert (check, where) == ("calendar", "seasons")
    assert problem.startswith(
        "the campaign's map: region north: the temperate climate has no "
        "row for the calendar's season 'wet'"
    )
    assert problem in refused(runner, "advance", "--db", str(greg), "--hours", "1")


def test_a_stored_map_that_no_longer_reads_is_named(runner, db: Path):
    ok(runner, "map", "load", "salt_reach")
    change(db, "UPDATE sea_map SET text = 'name: Broken'")
    ((check, where, problem),) = _findings(db)
    assert (check, where) == ("map", "sea_map")
    assert problem.endswith(
        "map.yaml: the map has no 'rows': draw it under 'rows: |'; load a "
        "corrected map: `voyage map load FILE`"
    )


def test_a_ship_at_anchor_with_no_voyage_is_named_and_ship_place_settles_her(runner, db):
    trawler_at(
        runner, "0404", crew=5, fuel=60
    )  # a shoal: she lies anchored on a one-hex voyage (R65)
    assert doctor(db)[0] == 0
    change(
        db,
        "UPDATE voyages SET status = 'arrived', ended = 0",
        "UPDATE ships SET status = 'at anchor'",
    )  # as a voyage before R65 left her
    code, out = doctor(db)
    assert code == 1 and RECOVERY not in out
    assert _findings(db) == [
        (
            "ship",
            "Sea Witch",
            "'at anchor' at 0404 with no open voyage: storms (R60), her cable (R65) and the "
            "current (R64) pass her by; `voyage ship place 'Sea Witch' 0404` lays her there as a "
            "ship arriving does (in a port she moors)",
        )
    ]
    ok(runner, "ship", "place", "Sea Witch", "0404")
    assert doctor(db)[0] == 0
    change(
        db,
        "UPDATE voyages SET status = 'arrived', ended = 0",
        "UPDATE ships SET status = 'at anchor', hex = '0101'",
    )  # land
    assert "`voyage ship place 'Sea Witch' CCRR`" in _findings(db)[0][2]


def test_a_storm_no_command_makes_is_named_with_its_fix(runner, db):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "1", "--hours", "6")
    ok(
        runner,
        "weather",
        "storm",
        "--around",
        "0505",
        "--radius",
        "0",
        "--hours",
        "6",
        "--moving",
        "SE",
    )
    change(
        db,
        "UPDATE storms SET state = 'typhoon' WHERE storm = 1",
        "UPDATE storms SET moving = 'E' WHERE storm = 2",
    )
    code, out = doctor(db)
    assert code == 1 and RECOVERY not in out
    fix = "`voyage weather clear {}` and place it again with `voyage weather storm`"
    assert _findings(db) == [
        (
            "storm",
            "storm 1",
            "sea state 'typhoon' is not one of calm, stormy, major, hurricane: " + fix.format(1),
        ),
        (
            "storm",
            "storm 2",
            "it moves towards 'E', not a hex side (N NE SE S SW NW): " + fix.format(2),
        ),
    ]


def test_an_encounter_region_the_map_lacks_is_a_note_as_map_load_warns(runner, db: Path):
    """R93: a region the encounter table names that the map has not is never rolled: `map
    load` and `tables load` warn of it; the doctor notes it, and the campaign is healthy."""
    from voyage.base.paths import tables_dir

    ok(runner, "map", "load", "salt_reach")
    text = (tables_dir() / "encounters.yaml").read_text(encoding="utf-8")
    nrth = "regions:\n  nrth:\n    open sea:\n      results:\n"
    text = text.replace(
        "regions:\n  all:", nrth + "        - {faces: [1, 6], value: {kind: sight}}\n  all:", 1
    )
    folder = db.parent / "house"
    folder.mkdir()
    (folder / "encounters.yaml").write_text(text, encoding="utf-8")
    ok(runner, "tables", "load", str(folder))
    code, out = doctor(db)
    assert code == 0 and out.splitlines()[1] == (
        "  note: the encounter table's region 'nrth' is not a region of The Salt Reach "
        "(north, south): it is never rolled (a region it does not list uses 'all', R93)"
    )
