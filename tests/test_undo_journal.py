"""Undo by journal: each action journals only what it changed, undo replays it
backwards exactly (every table, the roller state too, R5), old snapshot actions still undo,
``undo_keep`` prunes, ``voyage history`` lists the actions."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import invoke, ok, refused
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from voyage.actions import voyages
from voyage.dice.roller import Roller
from voyage.outputs import export
from voyage.store import campaign as store
from voyage.store import campaigndb, mapstore
from voyage.store.mapstore import add_storm, load_into_campaign
from voyage.store.migrations import migrations
from voyage.vessels.ships import make_ship


def dump(path: Path) -> list[str]:
    """Every table of the campaign, schema and rows, as SQL (the journal and actions too)."""
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


def temp_triggers(camp: campaigndb.Campaign) -> set[str]:
    sql = "SELECT name FROM sqlite_temp_master WHERE type = 'trigger'"
    return {r[0] for r in camp.db.conn.execute(sql)}


def journal_rows(camp: campaigndb.Campaign, action_id: int) -> list[tuple]:
    return camp.db.conn.execute(
        "SELECT tbl, op, col, length(value) FROM undo_journal WHERE action_id = ? ORDER BY id",
        [action_id],
    ).fetchall()


def last_action(camp: campaigndb.Campaign) -> int:
    return int(camp.db.conn.execute("SELECT max(id) FROM actions").fetchone()[0])


@pytest.fixture
def camp(tmp_path: Path) -> campaigndb.Campaign:
    c = store.create_campaign(tmp_path / "c.db", "Journal", seed=11)
    load_into_campaign(c, "salt_reach")
    return c


def test_a_read_only_open_makes_no_triggers_and_an_action_covers_every_table(camp):
    path = camp.path
    camp.close()
    reader = store.open_campaign(path)
    reader.ships()
    reader.settings  # noqa: B018 - reading only
    assert temp_triggers(reader) == set()
    with reader.action("test", "nothing"):
        pass
    # voyage.store.lazyjournal: a table's triggers are made just before an action first writes it
    tables = set(reader.db.table_names())
    with reader.action("test", "a statement writing each table (and changing nothing)"):
        for table in tables:
            reader.db.execute(f"DELETE FROM [{table}] WHERE 0")
    names = {n.split("voyage_undo_", 1)[1].rsplit("_", 1)[0] for n in temp_triggers(reader)}
    # every table but the journal, the actions, the append-only logs (R5: undo deletes an
    # action's log rows by its id) and derived caches keyed by hash (the parsed map)
    skipped = {"undo_journal", "actions", "_sqlite_migrations"}
    assert names == tables - skipped - set(campaigndb.LOG_TABLES) - set(campaigndb.DERIVED_TABLES)
    assert "map_cache" in campaigndb.DERIVED_TABLES


def test_an_advance_journals_changed_columns_only_never_the_map_or_the_route(camp):
    with camp.action("fleet", "fleet"):
        for i, (start, goal) in enumerate([("0305", "2812"), ("2420", "0419")]):
            ship = make_ship(camp.rulebook, f"Ship {i}", "trawler", 4, 5, [])
            ship.crew, ship.fuel, ship.hex = 5, 60, start
            camp.add_ship(ship)
            voyages.sail(camp, ship.name, to=goal)
    camp.db.execute("UPDATE sea_map SET loaded_clock = 0")  # outside an action: not journaled
    voyages.advance(camp, 1)
    rows = journal_rows(camp, last_action(camp))
    assert {r[0] for r in rows} <= {"campaign", "ships", "voyages"}
    changed = {(r[0], r[2]) for r in rows}
    assert ("voyages", "route") not in changed and ("ships", "name") not in changed
    assert ("campaign", "clock") in changed and ("voyages", "progress_miles") in changed
    assert max(r[3] or 0 for r in rows) < 8000  # at most the roller's state (R5)
    with camp.action("clock", "map clock"):
        camp.db.execute("UPDATE sea_map SET loaded_clock = 5")
    assert journal_rows(camp, last_action(camp)) == [("sea_map", "U", "loaded_clock", 1)]


def test_sqlite_utils_writes_on_a_new_table_are_undone_exactly(camp):
    """A table added later (by any part of voyage) is journaled with no registration, for
    every way the codebase writes: insert_all, update, upsert, replace, executemany,
    DELETE; REAL, BLOB, NULL and a case change in a NOCASE column come back bit for bit."""
    camp.db.execute(
        "CREATE TABLE drifters (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, "
        "x REAL, blob BLOB, note)"
    )
    camp.db.execute("CREATE TABLE tags (name TEXT PRIMARY KEY, n INTEGER)")
    path = camp.path
    camp.close()
    camp = store.open_campaign(path)
    with camp.action("seed", "rows"):
        camp.db["drifters"].insert_all(
            [
                {"id": 1, "name": "raft", "x": 0.1 + 0.2, "blob": b"\x00\x01", "note": 3},
                {"id": 2, "name": "Gull", "x": 1e-300, "blob": None, "note": "3"},
            ]
        )
        camp.db["tags"].insert({"name": "a", "n": 1})
    before = dump(path)
    steps = [
        lambda: camp.db["drifters"].update(1, {"name": "RAFT", "x": 2.5, "note": 3.0}),
        lambda: camp.db["drifters"].upsert({"id": 2, "x": 0.30000000000000004}, pk="id"),
        lambda: camp.db["drifters"].upsert({"id": 3, "name": "new"}, pk="id"),
        lambda: camp.db["drifters"].insert({"id": 1, "name": "over"}, replace=True),
        lambda: camp.db.conn.executemany(
            "INSERT INTO tags (name, n) VALUES (?, ?)", [("b", 2), ("c", 3)]
        ),
        lambda: camp.db.execute("DELETE FROM drifters WHERE id = 2"),
        lambda: camp.db["tags"].delete_where("n > ?", [1]),
        lambda: camp.db.execute("UPDATE drifters SET id = 9 WHERE id = 1"),  # the rowid moves
        lambda: camp.db.execute("DELETE FROM tags"),
    ]
    for i, step in enumerate(steps):
        with camp.action("step", str(i)):
            step()
    assert camp.db.execute("SELECT count(*) FROM drifters").fetchone()[0] == 2
    for _ in steps:
        camp.undo()
    assert dump(path) == before
    x = camp.db.execute("SELECT x, typeof(note), blob FROM drifters WHERE id = 1").fetchone()
    assert x == (0.1 + 0.2, "integer", b"\x00\x01")


def fleet(path: Path, ships: int = 4, strainers: int = 2) -> campaigndb.Campaign:
    """Ships sailing back and forth on the Salt Reach, some straining (R14)."""
    camp = store.create_campaign(path, "Fleet", seed=20260612)
    load_into_campaign(camp, "salt_reach")
    add_storm(camp, [], 24 * 400, around="1510", radius=2)
    chart = mapstore.campaign_chart(camp)[0]
    legs = [("0305", "2812"), ("2420", "0419"), ("3016", "0804"), ("2906", "0419")]
    with camp.action("fleet", "fleet"):
        for i in range(ships):
            start, goal = legs[i % len(legs)]
            ship = make_ship(camp.rulebook, f"Ship {i + 1}", "freighter", 10, 9 + i % 2, [])
            ship.crew, ship.cargo, ship.fuel, ship.hex = 12, 600, 400, start
            camp.add_ship(ship)
            there = chart.route(start, goal)
            assert there is not None
            pace, strain = ("strain", 1) if i < strainers else ("normal", 0)
            loop = there + there[-2:0:-1]  # there and back, ending next to the start
            voyages.sail(
                camp,
                ship.name,
                route=loop * 20 + [start],
                chart=chart,
                pace=pace,
                strain=strain,
                inshore=i % 2 == 0,
            )
    return camp


def test_undo_is_exact_after_advances_with_capsizing_and_sinking(tmp_path):
    path = tmp_path / "fleet.db"
    camp = fleet(path)
    dumps = [dump(path)]
    kinds: set[str] = set()
    while not {"capsize", "sinking", "sunk", "strain"} <= kinds and len(dumps) < 30:
        result = voyages.advance(camp, 24)
        kinds |= {e.event.kind for e in result.events}
        dumps.append(dump(path))
    assert {"capsize", "sinking", "sunk", "strain"} <= kinds
    while len(dumps) > 1:
        dumps.pop()
        camp.undo()
        assert dump(path) == dumps[-1]


def test_ship_at_departure_comes_from_the_journal(camp):
    with camp.action("ship add", "Gull"):
        ship = make_ship(camp.rulebook, "Gull", "trawler", 4, 5, [])
        ship.crew, ship.fuel, ship.hex = 5, 60, "0305"
        camp.add_ship(ship)
    voyages.sail(camp, "Gull", to="2812")
    voyages.advance(camp, 5)
    now = camp.get_ship("Gull")
    then = export.ship_at_departure(camp, "Gull", 1)
    assert then is not None and then.fuel == 60 and now.fuel < 60
    assert then.hex == "0305" and now.hex != "0305"


def test_undo_keep_prunes_older_journals(camp, runner):
    path = camp.path
    camp.set_setting("undo_keep", "3")
    for hours in range(1, 6):
        with camp.action("clock", f"clock {hours}"):
            camp.set_clock(hours)
    undoable = [a["undoable"] for a in camp.history()]
    assert undoable == [True, True, True, False, False, False, False]
    journaled = {r[0] for r in camp.db.execute("SELECT DISTINCT action_id FROM undo_journal")}
    assert journaled == {a["id"] for a in camp.history() if a["undoable"]}
    camp.close()
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    for _ in range(3):
        ok(runner, "undo")
    message = refused(runner, "undo")
    assert "only the latest 3 actions are kept for undo" in message and "undo_keep" in message
    assert "from 1 to 1000000" in refused(runner, "settings", "undo_keep", "0")


def _old_campaign(path: Path) -> None:
    """A campaign made before the journal (migrations to m021), with one action taken the
    old way: a snapshot of its tables saved with it."""
    db = Database(sqlite3.connect(path))
    migrations.apply(db, stop_before="m030_undo_journal")
    db["campaign"].insert(
        {
            "id": 1,
            "name": "Old",
            "seed": 3,
            "rng_state": Roller(3).get_state(),
            "clock": 0,
            "tables": None,
            "created": "2026-01-01T00:00:00+00:00",
        }
    )
    snapshot = {
        t: [dict(r) for r in db.query(f"SELECT * FROM [{t}]")]
        for t in campaigndb.SNAPSHOT_TABLES
        if db[t].exists()
    }
    db.execute(
        "INSERT INTO actions (kind, summary, clock, at, snapshot) VALUES (?, ?, 0, '', ?)",
        ["clock", "old clock", json.dumps(snapshot)],
    )
    db.execute("UPDATE campaign SET clock = 7")
    db.conn.commit()
    db.close()


def test_an_old_campaign_still_undoes_its_snapshot_actions(tmp_path):
    path = tmp_path / "old.db"
    _old_campaign(path)
    camp = store.open_campaign(path)
    assert camp.db.execute("SELECT undo FROM actions").fetchall() == [("snapshot",)]
    with camp.action("clock", "new clock"):
        camp.set_clock(9)
    assert camp.db.execute("SELECT snapshot FROM actions WHERE id = 2").fetchone() == ("",)
    camp.undo()
    assert camp.clock == 7
    camp.undo()  # the old way: the snapshot is put back
    assert camp.clock == 0


def test_history_lists_actions_newest_first(db, runner):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "V")
    ok(runner, "settings", "natural_rolls", "true")
    rows = json.loads(ok(runner, "history", "--json"))
    assert [r["kind"] for r in rows] == ["settings", "ship add", "map load"]
    assert rows[0]["summary"] == "natural_rolls = true" and rows[0]["undoable"] is True
    assert {"id", "kind", "summary", "clock", "time", "at", "undoable"} <= set(rows[0])
    text = ok(runner, "history", "--limit", "1")
    assert "natural_rolls = true" in text and "Gull" not in text
    ok(runner, "undo")
    assert len(json.loads(ok(runner, "history", "--json"))) == 2


def test_history_of_a_new_campaign(db, runner):
    assert "No actions yet" in ok(runner, "history")
    assert json.loads(ok(runner, "history", "--json")) == []


# -- any order of real commands, then undo them all ---------------------------------------

COMMANDS = [
    ("ship", "roll", "--class", "dinghy", "--no-rolls"),
    ("ship", "add", "Petrel", "--class", "motorboat", "--tier", "III", "--engine", "II"),
    ("ship", "load", "Sea Witch", "--cargo", "150"),
    ("ship", "load", "Gull", "--fuel", "40"),
    ("ship", "place", "Gull", "2420"),
    ("sail", "Gull", "--to", "0419"),
    ("advance", "--hours", "3"),
    ("advance", "--hours", "30"),
    ("advance", "--until", "event"),
    ("pace", "Sea Witch", "strain", "2"),
    ("weather", "storm", "--around", "0807", "--radius", "2", "--hours", "24"),
    ("weather", "clear", "--all"),
    ("settings", "natural_rolls", "true"),
    ("settings", "undo_keep", "50"),
    ("map", "load", "salt_reach"),
    ("act", "Sea Witch", "jettison", "20"),
    ("ship", "remove", "Petrel"),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("journal") / "template.db"
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    for args in (
        ("init", "--name", "Test", "--seed", "7"),
        ("map", "load", "salt_reach"),
        ("ship", "add", "Sea Witch", "--class", "trawler", "--tier", "IV", "--engine", "V"),
        ("ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "V"),
        ("ship", "load", "Sea Witch", "--crew", "5", "--cargo", "200", "--fuel", "60"),
        ("ship", "load", "Gull", "--crew", "4"),
        ("ship", "place", "Sea Witch", "0305"),
        ("sail", "Sea Witch", "--to", "2812", "--inshore"),
    ):
        ok(runner, *args)
    return path


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@example(steps=[6, 9, 7, 8, 16, 1, 14, 10], seed=3)
@given(st.lists(st.integers(0, len(COMMANDS) - 1), min_size=1, max_size=8), st.integers(0, 2**31))
def test_any_commands_then_undo_all_give_back_the_campaign(template, tmp_path, steps, seed):
    path = tmp_path / f"c{seed}.db"
    path.unlink(missing_ok=True)
    with sqlite3.connect(template) as src, sqlite3.connect(path) as dst:
        src.backup(dst)
    with sqlite3.connect(path) as conn:  # the example's dice
        conn.execute("UPDATE campaign SET rng_state = ?", [Roller(seed).get_state()])
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    before = dump(path)
    done = 0
    for i in steps:
        result = invoke(runner, *COMMANDS[i])
        assert result.exit_code in (0, 1), (COMMANDS[i], result.output)
        done += result.exit_code == 0
    for _ in range(done):
        ok(runner, "undo")
    assert dump(path) == before


def test_the_roller_state_is_compact_exact_and_reads_the_old_form():
    """R5: the saved state gives back the same dice; it is half the old JSON's size (the
    journal keeps it for every action that rolls), and old campaigns' JSON still loads."""
    import random

    a = Roller(99)
    a._random.gauss()  # a cached Gaussian is part of the state too
    state = a.get_state()
    assert len(state) < 3400
    b = Roller.from_state(state)
    assert b._random.getstate() == a._random.getstate()
    old = random.Random(5).getstate()
    legacy = json.dumps([old[0], list(old[1]), old[2]])
    assert Roller.from_state(legacy)._random.getstate() == old
    assert Roller.from_state(Roller(5).get_state())._random.getstate() == old


def test_pruning_clears_old_snapshots(tmp_path):
    path = tmp_path / "old.db"
    _old_campaign(path)
    camp = store.open_campaign(path)
    camp.set_setting("undo_keep", "1")  # pruning starts with the next action
    with camp.action("clock", "new clock"):
        camp.set_clock(9)
    rows = camp.db.execute("SELECT undo, length(snapshot) FROM actions ORDER BY id").fetchall()
    assert rows == [(None, 0), (None, 0), ("journal", 0)]
