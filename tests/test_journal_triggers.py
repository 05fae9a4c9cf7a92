"""The undo journal's triggers made as each table is first written
(voyage.store.lazyjournal, so a command pays only for the tables it writes): every write of
an action is still journaled and undone exactly, whatever happened to the connection before
(statements prepared before the action, an action rolled back with the triggers it made, a
savepoint rolled back)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_undo_journal import dump

from voyage.store import campaign as store
from voyage.store import campaigndb
from voyage.store.lazyjournal import JournalConnection
from voyage.store.mapstore import load_into_campaign
from voyage.vessels.ships import make_ship


def triggers(camp: campaigndb.Campaign) -> set[str]:
    sql = "SELECT tbl_name FROM sqlite_temp_master WHERE type = 'trigger'"
    return {r[0] for r in camp.db.conn.execute(sql)}


@pytest.fixture
def camp(tmp_path: Path) -> campaigndb.Campaign:
    c = store.create_campaign(tmp_path / "c.db", "Lazy", seed=5)
    load_into_campaign(c, "salt_reach")
    with c.action("ship", "a ship"):
        ship = make_ship(c.rulebook, "Gull", "trawler", 4, 5, [])
        ship.crew, ship.fuel, ship.hex = 5, 60, "0305"
        c.add_ship(ship)
    path = c.path
    c.close()
    return store.open_campaign(path)


def test_only_the_tables_an_action_writes_get_triggers_and_undo_is_exact(camp):
    assert isinstance(camp.db.conn, JournalConnection)
    before = dump(camp.path)
    with camp.action("fuel", "fuel"):
        camp.db.execute("UPDATE ships SET fuel = fuel + 1 WHERE name = 'Gull'")
    assert triggers(camp) == {"ships", "campaign"}  # the dice state is saved with each action
    camp.undo()
    assert dump(camp.path) == before


def test_an_advance_makes_the_triggers_of_the_tables_it_writes_at_once(camp):
    """store.ACTION_WRITES: an advance's ships and voyages journaled from its start, in one
    change of the temp schema with the campaign row's; undo still exact."""
    before = dump(camp.path)
    with camp.action("advance", "an advance that writes only the clock"):
        assert triggers(camp) == {"ships", "voyages", "campaign"}
        camp.set_clock(5)
    camp.undo()
    assert dump(camp.path) == before


def test_a_statement_prepared_before_the_action_is_journaled_in_it(camp):
    sql = "UPDATE ships SET crew = crew + 1 WHERE name = ?"
    camp.db.execute(sql, ["Gull"])  # prepared and cached before any action, unjournaled
    before = dump(camp.path)
    with camp.action("crew", "crew"):
        camp.db.execute(sql, ["Gull"])
        camp.db.conn.executemany(sql, (["Gull"] for _ in range(3)))  # a generator, read once
    assert camp.db.execute("SELECT crew FROM ships").fetchone()[0] == 5 + 1 + 4
    camp.undo()
    assert dump(camp.path) == before


def test_triggers_lost_with_a_rolled_back_action_are_made_again(camp):
    with pytest.raises(RuntimeError), camp.action("lost", "rolled back"):
        camp.db.execute("UPDATE ships SET fuel = 1")  # its triggers are made in the action
        raise RuntimeError("the action fails")
    assert "ships" not in triggers(camp)  # gone with the rollback
    before = dump(camp.path)
    with camp.action("kept", "journaled"):
        camp.db.execute("UPDATE ships SET fuel = 2")
    assert "ships" in triggers(camp)
    camp.undo()
    assert dump(camp.path) == before


def test_triggers_lost_with_a_savepoint_rolled_back_are_made_again(camp):
    before = dump(camp.path)
    with camp.action("savepoint", "a savepoint rolled back, then a write"):
        with pytest.raises(RuntimeError), camp.db.atomic():
            camp.db.execute("UPDATE ships SET fuel = 3")
            raise RuntimeError("undo the savepoint")
        assert "ships" not in triggers(camp)
        camp.db.execute("UPDATE ships SET fuel = 4")
    camp.undo()
    assert dump(camp.path) == before


def test_a_statement_failing_half_way_is_not_run_again(camp):
    """Only a statement the authorizer refused (it never ran) is run again: one that fails
    on its third row keeps its first two, each journaled once, and undo takes them back."""
    before = dump(camp.path)
    with camp.action("fail", "a failing insert") as act, pytest.raises(sqlite3.IntegrityError):
        camp.db.conn.executemany(
            "INSERT INTO port_fuel (hex, sold) VALUES (?, ?)",
            [("0305", 1), ("0306", 2), ("0306", 3)],
        )
    assert camp.db.execute("SELECT count(*) FROM port_fuel").fetchone()[0] == 2
    inserts = camp.db.execute(
        "SELECT count(*) FROM undo_journal WHERE action_id = ? AND tbl = 'port_fuel'", [act.id]
    ).fetchone()[0]
    assert inserts == 2
    camp.undo()
    assert dump(camp.path) == before
