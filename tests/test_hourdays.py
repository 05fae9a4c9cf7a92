"""The hours packed a ship-day to a row (voyage.store.hourdays m102): the view ``hours``
gives the rows, columns, values, storage types and ids the table gave; an older campaign
upgrades with its log, exports and undo unchanged; undo takes an advance's hours back; the
view takes writes one hour at a time like the table did."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import ok, without_steps

from voyage.actions import voyages
from voyage.store import campaign as store
from voyage.store import campaigndb, hourdays, logrows, mapstore
from voyage.store.campaign import open_campaign

SHIP = ("--class", "trawler", "--tier", "4", "--engine", "3")
OLD_COLUMNS = hourdays.COLUMNS


def hour_rows(path: Path) -> list[tuple[Any, ...]]:
    """Every hour in the readers' order (clock, id), each value with its storage type."""
    picks = ", ".join(f"{c}, typeof({c})" for c in OLD_COLUMNS)
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT {picks} FROM hours ORDER BY clock, id").fetchall()


def _old_write_hours(conn: sqlite3.Connection, action_id: int, rows: list[Any]) -> None:
    """The hour rows as voyage wrote them before m102: a row each."""
    conn.executemany(
        "INSERT INTO hours (action_id, voyage_id, ship, clock, day, hour, hex, miles, speed, "
        "pace, fuel, load, load_category, water, leaks, status) VALUES "
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (action_id, r.voyage_id, r.ship, r.clock, r.clock // 24 + 1, r.clock % 24, r.hex,
             r.miles, r.speed, r.pace, r.fuel, r.load, r.load_category, r.water, r.leaks,
             r.status)
            for r in rows
        ],
    )  # fmt: skip


def _old_read_hours(conn: sqlite3.Connection, where: str, args: Any) -> list[dict[str, Any]]:
    """The hour rows as voyage read them before m102."""
    cur = conn.execute(f"SELECT * FROM hours {where} ORDER BY clock, id", list(args))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row, strict=True)) for row in cur]


@contextmanager
def voyage_before_hour_days() -> Iterator[None]:
    """This voyage as it was before m102: an hour a row in the table hours."""
    with pytest.MonkeyPatch.context() as mp:
        without_steps(mp, "m102_hour_days")
        mp.setattr(campaigndb, "LOG_TABLES", ["rolls", "hours", "events"])
        mp.setattr(logrows, "write_hours", _old_write_hours)
        from voyage.store import voyagelog  # (after voyage.actions.voyages, which it imports from)

        for reader in (voyagelog, hourdays):  # hourdays.voyage_hours: the export's
            mp.setattr(reader, "read_hours", _old_read_hours)
        yield


def play(runner) -> None:
    """Two ships at sea over a day's end (a ship-day packed per action), an event by hand."""
    ok(runner, "map", "load", "salt_reach")
    for name, start in (("Gull", "0305"), ("Tern", "2812")):
        ok(runner, "ship", "add", name, *SHIP)
        ok(runner, "ship", "load", name, "--crew", "6", "--fuel", "40")
        ok(runner, "ship", "place", name, start)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "advance", "--hours", "5")
    ok(runner, "sail", "Tern", "--to", "0305", "--inshore")
    ok(runner, "advance", "--hours", "22")  # over midnight
    ok(runner, "advance", "--hours", "3")


def outputs(runner, tmp: Path) -> list[str]:
    """What readers make of the hours: the log, the JSON and Markdown exports, the doctor."""
    out = [
        ok(runner, "log", "Gull"),
        ok(runner, "log", "Tern", "--json"),
        ok(runner, "status"),
    ]
    tmp.mkdir()
    for ship in ("Gull", "Tern"):
        for fmt in ("json", "md", "csv"):
            target = tmp / f"{ship}.{fmt}"
            ok(runner, "export", ship, "--format", fmt, "--out", str(target))
            out.append(target.read_text())
    return out


def test_an_older_campaign_upgrades_with_every_hour_and_output_unchanged(runner, db, tmp_path):
    db.unlink()
    with voyage_before_hour_days():
        ok(runner, "init", "--name", "Old", "--seed", "7")
        play(runner)
        with sqlite3.connect(db) as conn:  # a fuel that is not whole, kept to the bit
            conn.execute("UPDATE hours SET fuel = 0.1 + 0.2 WHERE id = 3")
        before_rows = hour_rows(db)
        before_out = outputs(runner, tmp_path / "a")
    assert len(before_rows) > 20 and before_rows[2][22:24] == (0.1 + 0.2, "real")
    ok(runner, "ship", "list")  # upgraded
    with sqlite3.connect(db) as conn:
        kinds = dict(conn.execute("SELECT name, type FROM sqlite_master WHERE name LIKE 'hour%'"))
        assert kinds["hours"] == "view" and kinds["hour_days"] == "table"
        days = conn.execute("SELECT count(*) FROM hour_days").fetchone()[0]
        groups = {(r[2], r[4], r[6], r[10]) for r in before_rows}  # action, voyage, ship, day
        assert days == len(groups) < len(before_rows)
    assert hour_rows(db) == before_rows
    assert outputs(runner, tmp_path / "b") == before_out
    # the hours of actions made before the upgrade are undone like any
    ok(runner, "undo")
    last = max(r[2] for r in before_rows)
    assert hour_rows(db) == [r for r in before_rows if r[2] != last]
    ok(runner, "advance", "--hours", "3")  # written packed now: the same hours, the same ids
    assert hour_rows(db) == before_rows
    assert outputs(runner, tmp_path / "c") == before_out


def test_an_advance_writes_the_rows_the_table_got(tmp_path):
    """The view's rows of an advance are the table's (same ids, values and storage types)."""
    camp = store.create_campaign(tmp_path / "c.db", "Packed", seed=3)
    from voyage.store.mapstore import load_into_campaign
    from voyage.vessels.ships import make_ship

    load_into_campaign(camp, "salt_reach")
    chart = mapstore.campaign_chart(camp)[0]
    with camp.action("fleet", "fleet"):
        for i, (a, b) in enumerate((("0305", "2812"), ("2812", "0305"), ("0419", "2420"))):
            ship = make_ship(camp.rulebook, f"S{i}", "freighter", 10, 9, ["Steady"])
            ship.crew, ship.cargo, ship.fuel, ship.hex = 12, 600, 400, a
            camp.add_ship(ship)
            voyages.sail(camp, ship.name, route=chart.route(a, b), chart=chart)
    seen: list[Any] = []
    real = logrows.write_hours

    def spy(conn: sqlite3.Connection, action_id: int, rows: list[Any]) -> None:
        first = hourdays.next_id(conn)
        seen.extend(
            (first + i, action_id, r.voyage_id, r.ship, r.clock, r.clock // 24 + 1, r.clock % 24,
             r.hex, r.miles, r.speed, r.pace, r.fuel, r.load, r.load_category, r.water, r.leaks,
             r.status)
            for i, r in enumerate(rows)
        )  # fmt: skip
        real(conn, action_id, rows)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(logrows, "write_hours", spy)
        voyages.advance(camp, 30)
        voyages.advance(camp, 20)
    got = camp.db.execute("SELECT * FROM hours ORDER BY id").fetchall()
    assert got == seen and len(got) > 100
    kinds = camp.db.execute(
        "SELECT DISTINCT typeof(id), typeof(clock), typeof(hex), typeof(fuel), typeof(status) "
        "FROM hours"
    ).fetchall()
    assert kinds == [("integer", "integer", "text", "integer", "text")]
    assert [tuple(r) for r in camp.db.execute("SELECT id FROM hours ORDER BY clock, id")] == [
        (r[0],) for r in sorted(seen, key=lambda r: (r[4], r[0]))
    ]
    # undo takes the last advance's ship-days back; the ids are given again as before
    camp.undo()
    assert camp.db.execute("SELECT * FROM hours ORDER BY id").fetchall() == [
        r for r in seen if r[1] == seen[0][1]
    ]
    assert hourdays.next_id(camp.db.conn) == 1 + max(r[0] for r in seen if r[1] == seen[0][1])
    camp.close()


def test_a_whole_float_is_stored_as_an_integer_column_stores_it():
    rows = hourdays.pack(
        1,
        [
            _Row(fuel=400.0, load=12.5),
            _Row(fuel=3, load=7.0, clock=1),
        ],
        10,
    )
    ((*_, first, last, text),) = rows
    assert (first, last) == (10, 11)
    assert json.loads(text)[0][7:9] == [400, 12.5] and json.loads(text)[1][7:9] == [3, 7]
    assert "400," in text and "7," in text


class _Row:
    def __init__(self, fuel: Any, load: Any, clock: int = 0) -> None:
        self.voyage_id, self.ship, self.clock, self.hex = 1, "Gull", clock, "0305"
        self.miles, self.speed, self.pace, self.fuel, self.load = 6, 6, "normal", fuel, load
        self.load_category, self.water, self.leaks, self.status = "half", 0, 0, "under way"


def test_the_view_takes_writes_like_the_table_did(db):
    """Tools write hours a row at a time: insert, update and delete through the view give
    what the table gave (ids numbered on from the highest)."""
    camp = open_campaign(db)
    conn = camp.db.conn
    table = sqlite3.connect(":memory:")
    columns = ", ".join(
        f"{c} {'TEXT' if c in ('ship', 'hex', 'pace', 'load_category', 'status') else 'INTEGER'}"
        for c in OLD_COLUMNS[1:]
    )  # noqa: E501
    table.execute(f"CREATE TABLE hours (id INTEGER PRIMARY KEY, {columns})")
    with camp.action("hand", "hand-written hours"):
        conn.execute("PRAGMA defer_foreign_keys = ON")
        statements = [
            ("INSERT INTO hours (action_id, voyage_id, ship, clock, day, hour, hex, miles, speed, "
             "pace, fuel, load, load_category, water, leaks, status) VALUES "
             "(?, NULL, ?, ?, ?, ?, '0305', 6, 6, 'normal', ?, 10, 'half', 0, 0, 'under way')",
             [act, ship, clock, clock // 24 + 1, clock % 24, 40 - clock])
            for act in [camp.current_action.id]  # type: ignore[union-attr]
            for clock in range(3)
            for ship in ("Gull", "Tern")
        ]  # fmt: skip
        statements += [
            ("UPDATE hours SET fuel = 99, hex = NULL WHERE id = 2", []),
            ("UPDATE hours SET load = 12.0, water = 2.5 WHERE id = 1", []),
            ("DELETE FROM hours WHERE id = 6", []),
            ("DELETE FROM hours WHERE id = 5", []),  # the last of its ship-day
            ("UPDATE hours SET ship = 'Skua' WHERE clock = 1", []),
            ("INSERT INTO hours (action_id, ship, clock, day, hour, miles, speed, pace, fuel, "
             "load, load_category, water, leaks, status) SELECT action_id, ship, 9, 1, 9, 0, 0, "
             "pace, 1, 1, 'empty', 0, 0, 'anchored' FROM hours WHERE id = 1", []),
        ]  # fmt: skip
        for sql, args in statements:
            conn.execute(sql, args)
            table.execute(sql, args)
        got = conn.execute("SELECT * FROM hours ORDER BY clock, id").fetchall()
    want = table.execute("SELECT * FROM hours ORDER BY clock, id").fetchall()
    assert [[(v, type(v)) for v in r] for r in got] == [[(v, type(v)) for v in r] for r in want]
    assert len(got) == 5 and got[-1][0] == 5  # the highest id left was 4
    camp.close()


def test_the_readers_unpack_what_the_view_gives(db):
    """voyage log and export read hour_days in Python (read_hours): the view's rows, in its
    order, values and types, whatever the values (a fraction of fuel, no hex, a flag)."""
    camp = open_campaign(db)
    conn = camp.db.conn
    odd = [_Row(fuel=12.25, load=3.0, clock=c) for c in (30, 5, 6)]
    odd[1].hex, odd[2].leaks, odd[0].ship = None, True, "Tern"
    for r in odd:
        r.voyage_id = None  # type: ignore[assignment]
    with camp.action("hand", "odd hours"):
        conn.execute("PRAGMA defer_foreign_keys = ON")
        hourdays.write_hours(conn, camp.current_action.id, odd[:2])  # type: ignore[union-attr]
        hourdays.write_hours(conn, camp.current_action.id, odd[2:])  # type: ignore[union-attr]
        for where, args in (("", []), ("WHERE ship = ? COLLATE NOCASE", ["gull"])):
            view = [dict(zip(OLD_COLUMNS, r, strict=True)) for r in conn.execute(
                f"SELECT * FROM hours {where} ORDER BY clock, id", args)]  # fmt: skip
            got = hourdays.read_hours(conn, where, args)
            assert got == view and [list(map(type, r.values())) for r in got] == [
                list(map(type, r.values())) for r in view
            ]
        assert [(r["id"], r["clock"], r["hex"], r["leaks"]) for r in view] == [
            (2, 5, None, 0), (3, 6, "0305", 1)
        ]  # fmt: skip
    camp.close()
