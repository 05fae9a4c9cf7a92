"""Foreign keys declared (voyage.store.foreignkeys m190): SQLite knows which rows
point at which, undo and every delete path keep the keys whole, an older campaign upgrades with
its rowids, values and undo journal intact, and rows that pointed nowhere are kept and named."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import ok, refused

from voyage.actions import doctor
from voyage.store import campaign as store
from voyage.store import campaigndb, campaignfile
from voyage.store.campaign import open_campaign
from voyage.store.foreignkeys import FOREIGN_KEYS, declared, undeclared
from voyage.store.migrations import migrations

SHIP = ("--class", "trawler", "--tier", "4", "--engine", "3")
NEW_STEPS = ("m190_foreign_keys", "m191_class_label")


def contents(path: Path, skip_columns: tuple[str, ...] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table with its rowid, each value with its storage type."""
    skip_tables = {"_sqlite_migrations", "voyage_file", "map_cache"}  # map_cache: derived
    out = {}
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in tables:
            if t in skip_tables or t.startswith("sqlite_"):
                continue
            cols = [c[1] for c in conn.execute(f"PRAGMA table_info([{t}])")]
            cols = [c for c in cols if c not in skip_columns]
            picks = ", ".join(f"[{c}], typeof([{c}])" for c in cols)
            out[t] = sorted(conn.execute(f"SELECT rowid, {picks} FROM [{t}]").fetchall(), key=repr)
    return out


def play(runner) -> None:
    """A little of everything that writes: a map, ships, named crew, a storm, a voyage."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", *SHIP)
    ok(runner, "ship", "add", "Tern", "--class", "dinghy", "--tier", "1")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "40")
    ok(runner, "crew", "add", "Anna", "--ship", "Gull")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "1", "--hours", "30")
    ok(runner, "sail", "Gull", "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "12")


def test_every_link_is_a_declared_key_with_its_child_column_indexed(db: Path):
    camp = open_campaign(db)
    conn = camp.db.conn
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # enforcement stays on
    for fk in FOREIGN_KEYS:
        assert declared(conn, fk), fk.name
        row = [
            r for r in conn.execute(f"PRAGMA foreign_key_list([{fk.child}])") if r[3] == fk.column
        ][0]
        assert row[2] == fk.parent and row[4] == fk.key
        # deleting a parent row finds its children through an index led by the column
        led = [
            conn.execute(f"PRAGMA index_xinfo([{i[1]}])").fetchone()
            for i in conn.execute(f"PRAGMA index_list([{fk.child}])")
        ]
        assert any(x[2] == fk.column for x in led), fk.name
    plan = " ".join(
        str(r)
        for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT 1 FROM people WHERE ship = 'Gull' COLLATE NOCASE"
        )
    )
    assert "USING" in plan and "INDEX" in plan  # a ship's people found by index, any case
    camp.close()


def test_sqlite_refuses_a_row_that_points_nowhere(runner, db: Path):
    ok(runner, "ship", "add", "Gull", *SHIP)
    camp = open_campaign(db)
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"), camp.transaction():
        camp.db.execute(
            "INSERT INTO voyages (ship, origin, destination, started) "
            "VALUES ('Nobody', '0305', '2812', 0)"
        )
    # a ship her voyages point at cannot simply go
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"), camp.transaction():
        camp.db.execute(
            "INSERT INTO voyages (ship, origin, destination, started) "
            "VALUES ('gull', '0305', '2812', 0)"  # the key compares as names do
        )
        camp.db.execute("DELETE FROM ships WHERE name = 'Gull'")
    assert camp.db.execute("SELECT count(*) FROM voyages").fetchone()[0] == 0
    camp.close()


def test_undo_of_every_action_passes_the_keys_and_restores_exactly(runner, db: Path):
    states = [contents(db)]
    steps = [
        ("map", "load", "salt_reach"),
        ("ship", "add", "Gull", *SHIP),
        ("ship", "add", "Tern", "--class", "dinghy", "--tier", "1"),
        ("ship", "load", "Gull", "--crew", "6", "--fuel", "40"),
        ("crew", "add", "Anna", "--ship", "Tern"),
        ("ship", "place", "Gull", "0305"),
        ("sail", "Gull", "--to", "2812", "--inshore"),
        ("advance", "--hours", "12"),
        ("ship", "remove", "Tern"),  # deleted (never sailed): Anna goes ashore
    ]
    for step in steps:
        ok(runner, *step)
        states.append(contents(db))
    assert ("Tern",) not in [r[1:2] for r in states[-1]["ships"]]
    for before in reversed(states[:-1]):
        ok(runner, "undo")
        assert contents(db) == before
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


def test_ship_remove_archives_what_points_at_her_and_frees_a_name_otherwise(runner, db: Path):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Tern", "--class", "dinghy", "--tier", "1")
    ok(runner, "ship", "place", "Tern", "0305")  # an event names her (the log keeps names)
    assert ok(runner, "ship", "remove", "Tern") == "Removed Tern.\n"
    ok(runner, "ship", "add", "Tern", "--class", "dinghy", "--tier", "1")  # her name is free
    with sqlite3.connect(db) as conn:  # a raft off her, abandoned in port
        conn.execute("INSERT INTO floaters (kind, ship, hex) VALUES ('raft', 'Tern', '0305')")
    before = contents(db)
    assert "archived, the rafts and people off her stay" in ok(runner, "ship", "remove", "Tern")
    assert "Tern" not in ok(runner, "ship", "list")
    assert "Tern" in ok(runner, "ship", "list", "--all")
    ok(runner, "undo")
    assert contents(db) == before


def test_a_sailed_ship_removed_with_force_keeps_her_voyages(runner, db: Path):
    play(runner)
    ok(runner, "act", "Gull", "abandon")
    assert "add --force" in refused(runner, "ship", "remove", "Gull")
    assert "archived" in ok(runner, "ship", "remove", "Gull", "--force")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT ship FROM people WHERE name = 'Anna'").fetchone() == (None,)


# -- older campaigns ---------------------------------------------------------------------


@contextmanager
def voyage_before_foreign_keys() -> Iterator[None]:
    """This voyage as it was before m190: campaigns it makes and plays have no keys."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            migrations,
            "_migrations",
            [m for m in migrations._migrations if m.name not in NEW_STEPS],
        )
        mp.setattr(store, "_KNOWN", [])
        mp.setattr(campaigndb, "ship_labels", lambda book, key: {})
        yield


def test_an_older_campaign_upgrades_keeping_rowids_values_and_its_undo(runner, db: Path):
    db.unlink()
    with voyage_before_foreign_keys():
        ok(runner, "init", "--name", "Old", "--seed", "7")
        states = [contents(db)]
        for step in [
            ("map", "load", "salt_reach"),
            ("ship", "add", "Gull", *SHIP),
            ("ship", "load", "Gull", "--crew", "6", "--fuel", "40"),
            ("crew", "add", "Anna", "--ship", "Gull"),
            ("ship", "place", "Gull", "0305"),
            ("sail", "Gull", "--to", "2812", "--inshore"),
            ("advance", "--hours", "12"),
        ]:
            ok(runner, *step)
            states.append(contents(db))
        with sqlite3.connect(db) as conn:
            # a fight's sides: the one rebuilt table whose rowid has no name of its own
            conn.execute("INSERT INTO fights (id, clock, hex) VALUES (3, 0, '0305')")
            conn.execute(
                "INSERT INTO fighters (rowid, fight, name, kind, tier, speed, declared, seat) "
                "VALUES (41, 3, 'Gull', 'ship', 4, 2.5, 0, 1)"
            )
            assert conn.execute("PRAGMA foreign_key_list(hours)").fetchall() == []
    old = contents(db)
    assert "Gull" in ok(runner, "ship", "list")  # opened: upgraded
    camp = open_campaign(db)
    assert all(declared(camp.db.conn, fk) for fk in FOREIGN_KEYS)
    assert camp.db.execute("SELECT class_label FROM ships").fetchone() == ("Fishing Trawler",)
    camp.close()
    assert contents(db, skip_columns=("class_label",)) == old  # same rowids, values, types
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM fighters")
        conn.execute("DELETE FROM fights")
    # the journal written before the upgrade still takes every action back exactly
    for before in reversed(states[:-1]):
        ok(runner, "undo")
        assert contents(db, skip_columns=("class_label",)) == before


def test_an_older_campaign_with_rows_pointing_nowhere_keeps_them(runner, db: Path):
    db.unlink()
    with voyage_before_foreign_keys():
        ok(runner, "init", "--name", "Old", "--seed", "7")
        play(runner)
        with sqlite3.connect(db) as conn:
            # a ship deleted under her crew by an old voyage; an hour of a voyage that is gone
            conn.execute("UPDATE people SET ship = 'Ghost' WHERE name = 'Anna'")
            conn.execute("UPDATE hours SET voyage_id = 99 WHERE id = (SELECT max(id) FROM hours)")
    old = contents(db)
    ok(runner, "ship", "list")  # upgraded
    assert contents(db, skip_columns=("class_label",)) == old  # not a row lost or changed
    camp = open_campaign(db)
    left = {fk.name: n for fk, n in undeclared(camp.db.conn)}
    # the hours' keys are hour_days' (m102: hours a view of the ship-days)
    assert left == {"people.ship -> ships.name": 1, "hour_days.voyage_id -> voyages.id": 1}
    # the table's other keys are declared
    assert declared(camp.db.conn, next(f for f in FOREIGN_KEYS if f.child == "hour_days"))
    camp.close()
    ok(runner, "advance", "--hours", "2")  # the campaign plays on
    ok(runner, "undo")
    report = doctor.examine(db)
    wheres = {f.where for f in report.findings}
    assert {"people.ship", "hour_days.voyage_id"} <= wheres
    text = doctor.summary(report)
    assert "note: people.ship -> ships.name not declared (1 row pointing at missing ships)" in text


def test_doctor_names_rows_a_hand_edit_left_pointing_nowhere(runner, db: Path):
    play(runner)
    with sqlite3.connect(db) as conn:  # keys are off in a bare connection
        conn.execute("DELETE FROM ships WHERE name = 'Gull'")
        conn.execute("UPDATE hours SET action_id = 99")  # many hours: a few listed
    report = doctor.examine(db)
    found = [(f.where, f.problem) for f in report.findings]
    assert ("people row 1", "ship 'Gull' is gone") in found  # named by the older checks
    assert ("voyages row 1", "ship 'Gull' is gone") in found
    assert ("hours row 1", "its action is gone") in found
    assert sum(w.startswith("hours row") for w, _ in found) == doctor.MAX_PER_CHECK
    with sqlite3.connect(db) as conn:  # one the older checks never looked at
        first = conn.execute("SELECT min(id) FROM undo_journal").fetchone()[0]
        conn.execute("UPDATE undo_journal SET action_id = 98 WHERE id = ?", [first])
    found = [(f.where, f.problem) for f in doctor.examine(db).findings]
    assert (f"undo_journal row {first}", "the actions row it points at is gone") in found


def test_a_healthy_campaign_declares_every_key(runner, db: Path):
    play(runner)
    report = doctor.examine(db)
    assert report.healthy, doctor.summary(report)
    assert report.facts["keys_not_declared"] == []


def test_json_columns_hold_json_in_a_played_campaign(runner, db: Path):
    play(runner)
    ok(runner, "advance", "--hours", "24")
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        applied = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations")]
        doctors = {
            f"{t}.{c}"
            for t, cols in campaignfile.json_columns(conn, tables, applied).items()
            for c in cols
        }
        holding = set()  # columns with a value that looks like JSON
        for table in tables - {"undo_journal"}:  # the journal: old values of every column
            for col in [c[1] for c in conn.execute(f"PRAGMA table_info([{table}])")]:
                if conn.execute(
                    f"SELECT 1 FROM [{table}] WHERE substr([{col}], 1, 1) IN ('[', '{{') LIMIT 1"
                ).fetchone():
                    holding.add(f"{table}.{col}")
        assert holding >= {"ships.equipment", "events.rolls", "events.changes"}
        # a route is text since m106 (voyage.map.routetext), which doctor checks on its own
        assert not {"voyage_routes.route", "voyage_routes.inshore"} & (holding | doctors)
        assert holding <= doctors  # voyage doctor checks every column that holds JSON
        for name in doctors:
            table, col = name.split(".")
            # a JSON column holds nothing else (actions.snapshot: '' when the action is
            # undone by journal and keeps no snapshot)
            bad = conn.execute(
                f"SELECT count(*) FROM [{table}] WHERE [{col}] IS NOT NULL AND "
                f"json_valid([{col}]) = 0 AND NOT ([{col}] = '' AND ? = 'actions.snapshot')",
                [name],
            ).fetchone()[0]
            assert bad == 0, name


def test_class_label_follows_the_campaigns_rule_book(runner, db: Path, tmp_path: Path):
    from voyage.base.paths import tables_dir

    ok(runner, "ship", "add", "Gull", *SHIP)
    ok(runner, "ship", "add", "Tern", "--class", "dinghy", "--tier", "1")
    house = tmp_path / "house"
    house.mkdir()
    text = (tables_dir() / "classes.yaml").read_text()
    (house / "classes.yaml").write_text(text.replace("name: Fishing Trawler", "name: Drifter"))
    before = contents(db)
    ok(runner, "tables", "load", str(house))

    def labels() -> dict[str, str]:
        with sqlite3.connect(db) as conn:
            return dict(conn.execute("SELECT name, class_label FROM ships").fetchall())

    assert labels() == {"Gull": "Drifter", "Tern": "Dinghy"}
    ok(runner, "ship", "add", "Skua", *SHIP)
    assert labels()["Skua"] == "Drifter"
    ok(runner, "undo")
    ok(runner, "undo")  # the names come back with the tables
    assert contents(db) == before and labels()["Gull"] == "Fishing Trawler"
