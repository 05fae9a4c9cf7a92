"""Rows inserted many to a statement (voyage.store.manyrows): the same rows, in the same
order, with the same rowids, values and storage types as one INSERT a row; an advance's
log written so is the log written a row at a time."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from voyage.dice.events import Event, LoggedEvent
from voyage.dice.roller import Roller
from voyage.engine.clock import AdvanceResult
from voyage.engine.shipstate import HourRow
from voyage.store import hourdays, logrows, manyrows
from voyage.store.campaign import open_campaign
from voyage.store.manyrows import CHUNK, insert_many, many_sql

SQL = "INSERT INTO t (a, b, c) VALUES (?, ?, ?)"


def _table() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c)")
    conn.execute("CREATE INDEX t_b ON t(b, a)")
    return conn


def _rows(n: int) -> list[tuple[Any, ...]]:
    """Values of every storage type, a NULL and a real that is whole among them."""
    kinds: list[Any] = [None, 1.0, 2.5, "x", b"\x00\x01", 2**62, -3]
    return [(i, f"ship {i % 7} \u00e9", kinds[i % len(kinds)]) for i in range(n)]


def _dump(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT id, a, typeof(a), b, typeof(b), c, typeof(c) FROM t ORDER BY id"
    ).fetchall()


@pytest.mark.parametrize("n", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5])
def test_insert_many_is_one_insert_a_row(n: int) -> None:
    one, many = _table(), _table()
    one.executemany(SQL, _rows(n))
    insert_many(many, SQL, _rows(n))
    assert _dump(many) == _dump(one)
    assert len(_dump(many)) == n


def test_rows_from_a_generator_are_read_in_order_once() -> None:
    read: list[int] = []

    def made() -> Iterator[tuple[Any, ...]]:
        for row in _rows(2 * CHUNK + 3):
            read.append(row[0])
            yield row

    conn = _table()
    insert_many(conn, SQL, made())
    assert read == list(range(2 * CHUNK + 3))
    assert [r[1] for r in _dump(conn)] == read


def test_a_failing_row_fails_the_statement() -> None:
    conn = _table()
    conn.execute("CREATE UNIQUE INDEX t_a ON t(a)")
    rows = _rows(CHUNK) + [(5, "again", None)]
    with pytest.raises(sqlite3.IntegrityError):
        insert_many(conn, SQL, rows)


def test_many_sql() -> None:
    assert many_sql(SQL, 2) == "INSERT INTO t (a, b, c) VALUES (?, ?, ?), (?, ?, ?)"
    assert many_sql(logrows._EVENT_SQL).count("?") == 12 * CHUNK
    with pytest.raises(ValueError, match="one-row INSERT"):
        many_sql("INSERT INTO t (a) SELECT 1")


def test_chunk_within_sqlites_limit() -> None:
    # the widest insert (the events: 12 columns) stays under SQLite's smallest default
    # limit of host parameters (32,766 since 3.32; 999 before)
    assert 12 * manyrows.CHUNK <= 999


def test_an_advances_log_is_stored_as_a_row_at_a_time(db: Path) -> None:
    """More events and hours than a chunk (and a part chunk after): every stored value and
    its type as executemany of the one-row INSERT stores them, ids in order (R4)."""
    roller = Roller(7)
    rows, events = [], []
    for clock in range(3 * CHUNK + 5):
        for ship in ("Gull", "Tern"):
            rows.append(HourRow(None, ship, clock, "0305", 3, 3, "normal", 40 - clock % 9,
                                300, "half", 0, 0, "under way"))  # fmt: skip
            roll = roller.roll("coastal hazard", "d6", target=6, success="a hazard")
            changes = {"hazard": True} if clock % 5 == 0 else {}
            event = Event("coast", "Clear.", [roll], clock % 60, changes)
            events.append(LoggedEvent(None, ship, clock, event))
    result = AdvanceResult(0, rows=rows, events=events)
    camp = open_campaign(db)
    with camp.action("advance", "test") as act:
        logrows.write_log(camp, act, result)
        aid = act.id
    cols = "action_id, voyage_id, ship, clock, day, hour, minute, kind, text, rolls, changes, hex"
    typed = ", ".join(f"typeof({c})" for c in cols.split(", "))
    stored = camp.db.execute(f"SELECT id, {cols}, {typed} FROM events ORDER BY id").fetchall()
    hours = hourdays.read_hours(camp.db.conn)
    camp.close()
    one = sqlite3.connect(":memory:")
    one.execute(f"CREATE TABLE events (id INTEGER PRIMARY KEY, {cols})")
    made = list(logrows._event_rows(aid, events, logrows._hexes(rows, events)))
    one.executemany(logrows._EVENT_SQL, made)
    assert [r[1:] for r in stored] == one.execute(
        f"SELECT {cols}, {typed} FROM events ORDER BY id"
    ).fetchall()
    assert [r[0] for r in stored] == list(range(stored[0][0], stored[0][0] + len(events)))
    assert [(h["ship"], h["clock"], h["fuel"]) for h in hours] == [
        (r.ship, r.clock, r.fuel) for r in rows
    ]
