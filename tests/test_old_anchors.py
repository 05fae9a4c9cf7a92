"""Ships an older campaign left "at anchor" with no voyage (m130, voyage.store.oldanchors; R65,
R64, R60): upgraded, each lies anchored (or adrift, where no anchor holds) on the open
one-hex voyage `voyage ship place` gives her today; storms reach her, undo and history
behave as before, and a second run changes nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import ok, refused

from voyage.actions import voyages
from voyage.rules import arrival
from voyage.store import campaign as store
from voyage.store.migrations import migrations

STEP = "m130_anchored_voyages"
TRAWLER = ("--class", "trawler", "--tier", "IV", "--engine", "V")


def contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table with its rowid, but the schema's own bookkeeping (the
    steps applied, the file's stamp) and the derived map cache."""
    skip = {"_sqlite_migrations", "voyage_file", "map_cache"}
    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            n: sorted(conn.execute(f"SELECT rowid, * FROM [{n}]").fetchall(), key=repr)
            for n in names
            if n not in skip and not n.startswith("sqlite_")
        }


def _old_place(camp: Any, ship: Any, info: Any, opening: str | None = None) -> str:
    ship.status = "at anchor"  # `ship place` at an anchorage before R65's voyages
    return f"{ship.name} is at {info.name}."


def _old_lie_at(ship: Any, s: Any, info: Any, book: Any, opening: str) -> tuple[str, str]:
    s.status, ship.status = "arrived", "at anchor"  # her voyage closed, no storm reached her
    return s.status, f"{opening}."


@contextmanager
def voyage_before_m130() -> Iterator[None]:
    """This voyage as it was before R65's anchored voyages, and without m130."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            migrations,
            "_migrations",
            [m for m in migrations._migrations if m.name != STEP],
        )
        mp.setattr(store, "_KNOWN", [])
        mp.setattr(voyages, "place_at_sea", _old_place)
        mp.setattr(arrival, "lie_at", _old_lie_at)
        yield


def _voyages(path: Path) -> dict[str, tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT v.ship, v.status, r.route, v.started, s.status, s.hex FROM voyages v "
            "JOIN voyage_routes r ON r.voyage_id = v.id JOIN ships s ON s.name = v.ship "
            "WHERE v.ended IS NULL"
        ).fetchall()
    return {r[0]: r[1:] for r in rows}


#: The index of the action that left the Sea Witch at anchor, in _old_campaign's steps.
PLACED = 4


def _but_sea_witch(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """The contents without the Sea Witch's row and her m130 voyage (id 2), its route and
    its event, nor the journal (checked whole once her action is undone)."""
    out = dict(rows, undo_journal=[])
    out["ships"] = [r for r in rows["ships"] if r[1] != "Sea Witch"]
    out["voyages"] = [r for r in rows["voyages"] if r[0] != 2]
    out["voyage_routes"] = [r for r in rows["voyage_routes"] if r[1] != 2]
    out["events"] = [r for r in rows["events"] if r[3] != 2]
    return out


def _old_campaign(runner) -> tuple[list[dict[str, Any]], int]:
    """Sea Witch placed at the shoal 0404 (an anchorage), Gull arrived in open deep sea
    at 0806, Tern in Gullhaven, all by the older voyage. The contents before each action,
    and the clock at the end."""
    states = []
    ok(runner, "init", "--name", "Old", "--seed", "7")
    for step in [
        ("map", "load", "salt_reach"),
        ("settings", "encounter_interval", "0"),
        ("ship", "add", "Sea Witch", *TRAWLER),
        ("ship", "load", "Sea Witch", "--crew", "5", "--fuel", "60"),
        ("ship", "place", "Sea Witch", "0404"),
        ("ship", "add", "Gull", *TRAWLER),
        ("ship", "load", "Gull", "--crew", "5", "--fuel", "60"),
        ("ship", "place", "Gull", "0305"),
        ("ship", "add", "Tern", *TRAWLER),
        ("ship", "place", "Tern", "0305"),
        ("sail", "Gull", "--to", "0806"),
        ("advance", "--until", "arrival"),
    ]:
        states.append(contents(runner.db))
        ok(runner, *step)
    with sqlite3.connect(runner.db) as conn:
        clock = conn.execute("SELECT clock FROM campaign").fetchone()[0]
    return states, clock


@pytest.fixture
def old(runner, db: Path):
    db.unlink()
    runner.db = db
    with voyage_before_m130():
        states, clock = _old_campaign(runner)
        assert _voyages(db) == {}  # at anchor, out of every storm
        with sqlite3.connect(db) as conn:
            ships = dict(conn.execute("SELECT name, status FROM ships").fetchall())
        assert ships == {"Sea Witch": "at anchor", "Gull": "at anchor", "Tern": "in port"}
        history = ok(runner, "history")
    return states, clock, history


def test_an_older_campaigns_ships_at_anchor_lie_on_open_voyages(runner, db: Path, old):
    states, clock, history = old
    before = contents(db)
    # a forecast reads an older campaign upgraded in memory only: she sails on from 0404
    assert "Sea Witch" in ok(runner, "forecast", "Sea Witch", "--to", "0305", "--runs", "20")
    assert contents(db) == before
    ok(runner, "ship", "list")  # opened: upgraded
    # R65: anchored where an anchor holds (a shoal); adrift in open deep sea (R64), as a
    # ship arriving there is today; each from the hour she came to rest
    assert _voyages(db) == {
        "Sea Witch": ("anchored", "0404", 0, "at sea", "0404"),
        "Gull": ("adrift", "0806", clock, "at sea", "0806"),
    }
    after = contents(db)
    assert {t: rows for t, rows in after.items() if rows != before[t]}.keys() == {
        "voyages",
        "voyage_routes",
        "ships",
        "events",
        "undo_journal",
    }
    log = ok(runner, "log", "Sea Witch")
    assert (
        'Sea Witch lies at 0404 (an older campaign\'s "at anchor", m130) and drops anchor (R65).'
    ) in log
    gull = ok(runner, "log", "Gull")
    assert 'Gull lies at 0806 (an older campaign\'s "at anchor", m130) but cannot anchor' in gull
    assert ok(runner, "history") == history  # no action of its own: the referee's stay
    # a second run finds nothing to do
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [STEP])
    ok(runner, "ship", "list")
    assert contents(db) == after


def test_a_storm_reaches_her_and_undo_takes_back_every_action_as_before(runner, db: Path, old):
    states, _, _ = old
    ok(runner, "ship", "list")
    upgraded = contents(db)
    ok(
        runner,
        "weather",
        "storm",
        "--around",
        "0404",
        "--radius",
        "1",
        "--hours",
        "6",
        "--state",
        "hurricane",
    )
    out = ok(runner, "advance", "--hours", "1")
    assert "anchor cable: 2d6=" in out  # R65: she rolls for her cable each storm hour
    ok(runner, "undo")
    ok(runner, "undo")
    assert contents(db) == upgraded
    # each older action undone leaves the campaign as it was before it, the Sea Witch's
    # voyage apart until the action that left her at anchor is undone, which takes it away
    for i, before in reversed(list(enumerate(states))):
        ok(runner, "undo")
        now = contents(db)
        if i > PLACED:
            assert _voyages(db)["Sea Witch"] == ("anchored", "0404", 0, "at sea", "0404")
            now, before = _but_sea_witch(now), _but_sea_witch(before)
        assert now == before, i
    assert "nothing to undo" in refused(runner, "undo")


def test_a_ship_whose_resting_action_is_too_old_to_undo_keeps_her_voyage(runner, db: Path):
    db.unlink()
    runner.db = db
    with voyage_before_m130():
        ok(runner, "init", "--name", "Old", "--seed", "7")
        ok(runner, "map", "load", "salt_reach")
        ok(runner, "ship", "add", "Sea Witch", *TRAWLER)
        ok(runner, "ship", "load", "Sea Witch", "--crew", "5")  # R70: hands to drop anchor
        ok(runner, "ship", "place", "Sea Witch", "0404")
        ok(runner, "settings", "undo_keep", "2")
        ok(runner, "advance", "--hours", "3")
        ok(runner, "advance", "--hours", "3")  # the place action is no longer undoable
    ok(runner, "ship", "list")
    assert _voyages(db) == {"Sea Witch": ("anchored", "0404", 0, "at sea", "0404")}
    ok(runner, "undo")
    ok(runner, "undo")  # neither is the action that left her there
    assert _voyages(db)["Sea Witch"][0] == "anchored"
    assert "only the latest 2 actions" in refused(runner, "undo")
    assert '(an older campaign\'s "at anchor", m130)' in ok(runner, "log", "Sea Witch")


def test_a_ship_on_what_is_land_now_is_left_as_she_was_and_doctor_names_her(runner, db: Path):
    from voyage.actions import doctor

    db.unlink()
    runner.db = db
    with voyage_before_m130():
        ok(runner, "init", "--name", "Old", "--seed", "7")
        ok(runner, "map", "load", "salt_reach")
        ok(runner, "ship", "add", "Sea Witch", *TRAWLER)
        ok(runner, "ship", "place", "Sea Witch", "0404")
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE ships SET hex = '0101'")  # land on the Salt Reach (a hand edit)
    conn.close()
    before = contents(db)
    ok(runner, "ship", "list")  # upgraded: she cannot lie on land
    assert contents(db) == before
    found = [(f.check, f.where, f.problem) for f in doctor.examine(db).findings]
    assert found == [
        (
            "ship",
            "Sea Witch",
            "'at anchor' at 0101 with no open voyage: storms (R60), her cable (R65) and the "
            "current (R64) pass her by; `voyage ship place 'Sea Witch' CCRR` lays her there "
            "as a ship arriving does (in a port she moors)",
        )
    ]
    ok(runner, "ship", "place", "Sea Witch", "0404")
    assert doctor.examine(db).healthy
