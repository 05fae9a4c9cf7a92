"""The hour rows packed a ship-day to a row, so that a year of ten ships saves in time; and
migration m102, which packs the rows of a campaign made before (voyage.store.migrations).

An advance of a year writes 87,600 hour rows (ten ships); as rows of their own, with three
indexes, storing them was most of the time an advance spent saving. They are kept in
``hour_days`` instead: one row per action, voyage, ship and day, its hours one JSON array
(each hour an array of :data:`PACKED` in that order, the ``id`` of the hour first). The
view ``hours`` unpacks them: the same columns in the same order, the same values with the
same storage types, and the same ``id`` of each hour, so every reader (``voyage log``,
``export``, ``doctor``, Datasette) orders them by ``clock, id`` as before.

- An advance writes its hours with :func:`pack` (voyage.store.logrows.write_log): each hour's
  ``id`` is the next one as SQLite gave it to a row of the old table (the highest so far
  plus one), in the order the hours come.
- Undo deletes an action's packed rows by ``action_id``, like every log table
  (voyage.store.campaigndb.LOG_TABLES).
- The view takes writes too (INSTEAD OF triggers), for tools and tests that write hours
  one at a time: an insert adds a one-hour packed row, an update moves the hour into one
  of its own, a delete takes the hour out of its packed row. (A fraction written this way
  keeps the 15 significant digits SQLite's JSON functions write; voyage writes its own.)
  Each such write looks its hour up among the packed rows: to delete many hours, delete
  their rows of ``hour_days`` (as undo does), not the view's.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from voyage.store.manyrows import insert_many

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sqlite_utils import Database

    from voyage.engine.clock import HourRow
    from voyage.store.campaigndb import Campaign

TABLE = "hour_days"
#: What each packed hour holds, in order (the rest is the packed row's).
PACKED = [
    "id", "clock", "hour", "hex", "miles", "speed", "pace", "fuel", "load", "load_category",
    "water", "leaks", "status",
]  # fmt: skip
#: The columns of ``hours``, in the order the table had them.
COLUMNS = [
    "id", "action_id", "voyage_id", "ship", "clock", "day", "hour", "hex", "miles", "speed",
    "pace", "fuel", "load", "load_category", "water", "leaks", "status",
]  # fmt: skip
#: Columns whose values an INTEGER column would have stored as integers when whole.
_INTEGER = {"id", "clock", "hour", "miles", "speed", "fuel", "load", "water", "leaks"}

INSERT_SQL = (
    f"INSERT INTO {TABLE} (action_id, voyage_id, ship, day, first_id, last_id, hours) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)

# compact, keys unsorted (arrays only), non-ASCII kept as it is: SQLite reads it back
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_encode = _JSON.encode
_WORD = json.encoder.encode_basestring  # what _JSON.encode writes a str with
_decode = json.JSONDecoder().decode


def _table_sql(keys: str = "") -> str:
    return f"""CREATE TABLE {TABLE} (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            voyage_id INTEGER,
            ship TEXT NOT NULL,
            day INTEGER NOT NULL,
            first_id INTEGER NOT NULL,
            last_id INTEGER NOT NULL,
            hours TEXT NOT NULL{keys}
        )"""


def _view_sql() -> str:
    own = {"action_id", "voyage_id", "ship", "day"}
    cols = ", ".join(
        f"d.{c} AS {c}" if c in own else f"h.value ->> {PACKED.index(c)} AS {c}" for c in COLUMNS
    )
    return f"CREATE VIEW hours AS SELECT {cols} FROM {TABLE} AS d JOIN json_each(d.hours) AS h"


def _trigger_sql() -> list[str]:
    """INSTEAD OF triggers: the view written one hour at a time."""
    next_id = f"coalesce((SELECT max(last_id) FROM {TABLE}), 0) + 1"
    one = "json_array(json_array({}))"
    # a whole real in an INTEGER column is stored as an integer (SQLite's column affinity)
    values = ", ".join(
        f"CASE WHEN typeof(new.{c}) = 'real' AND new.{c} = CAST(new.{c} AS INTEGER) "
        f"THEN CAST(new.{c} AS INTEGER) ELSE new.{c} END"
        if c in _INTEGER
        else f"new.{c}"
        for c in PACKED[1:]
    )
    insert = (
        f"INSERT INTO {TABLE} (action_id, voyage_id, ship, day, first_id, last_id, hours) "
        "SELECT new.action_id, new.voyage_id, new.ship, new.day, n, n, "
        + one.format(f"n, {values}")
        + f" FROM (SELECT coalesce(new.id, {next_id}) AS n)"
    )
    # the packed rows that may hold the hour (ids between their first and last), and the
    # hour's place in its row
    remove = (
        f"UPDATE {TABLE} SET hours = json_remove(hours, '$[' || (SELECT h.key FROM "
        f"json_each({TABLE}.hours) AS h WHERE h.value ->> 0 = old.id) || ']') "
        "WHERE old.id BETWEEN first_id AND last_id AND EXISTS (SELECT 1 FROM "
        f"json_each({TABLE}.hours) AS h WHERE h.value ->> 0 = old.id)"
    )
    # the first and last ids follow (the next id is the highest left plus one, as a table's)
    ends = (
        f"UPDATE {TABLE} SET first_id = (SELECT min(h.value ->> 0) FROM json_each(hours) AS h), "
        f"last_id = (SELECT max(h.value ->> 0) FROM json_each(hours) AS h) "
        "WHERE old.id BETWEEN first_id AND last_id AND hours <> '[]'"
    )
    drop_empty = f"DELETE FROM {TABLE} WHERE hours = '[]'; {ends}"
    return [
        f"CREATE TRIGGER hours_insert INSTEAD OF INSERT ON hours BEGIN {insert}; END",
        f"CREATE TRIGGER hours_delete INSTEAD OF DELETE ON hours BEGIN {remove}; {drop_empty}; END",
        f"CREATE TRIGGER hours_update INSTEAD OF UPDATE ON hours BEGIN {remove}; "
        f"{drop_empty}; {insert.replace('coalesce(new.id,', 'coalesce(new.id, old.id,')}; END",
    ]


def _indexes() -> list[str]:
    return [
        f"CREATE INDEX hour_days_action ON {TABLE}(action_id)",
        f"CREATE INDEX hour_days_voyage ON {TABLE}(voyage_id)",
        f"CREATE INDEX hour_days_last ON {TABLE}(last_id)",
    ]


def next_id(conn: sqlite3.Connection) -> int:
    """The id the next hour gets: as SQLite numbered the rows of the old table."""
    row = conn.execute(f"SELECT max(last_id) FROM {TABLE}").fetchone()
    return (row[0] or 0) + 1


def _whole(value: Any) -> Any:
    """A number as an INTEGER column stores it (a whole float as an integer)."""
    if type(value) is float and value.is_integer() and -(2**63) <= value < 2**63:
        return int(value)
    return value


def _tail_text(tail: tuple[Any, ...]) -> str | None:
    """The JSON of an hour from its hex on, closing bracket included, as :data:`_encode`
    writes those values (ensure_ascii=False), when its words are plain strs (the caller has
    checked that its numbers are ints); None otherwise (the hour is then encoded in full)."""
    hx, miles, speed, pace, fuel, load, cat, water, leaks, status = tail
    if not (type(hx) is str and type(pace) is str and type(cat) is str and type(status) is str):
        return None
    n = int.__repr__
    return (
        f"{_WORD(hx)},{n(miles)},{n(speed)},{_WORD(pace)},{n(fuel)},{n(load)},{_WORD(cat)},"
        f"{n(water)},{n(leaks)},{_WORD(status)}]"
    )


def pack(action_id: int, rows: Iterable[HourRow], first: int) -> list[tuple[Any, ...]]:
    """The packed rows (parameters of :data:`INSERT_SQL`) of an advance's hour rows, the
    hours numbered from ``first`` in the order they come.

    An hour whose numbers are plain ints is written as its id, clock and hour followed by
    the text of the rest (hex to status), kept by those values (a year of ten
    ships has 87,600 hours but some 4,500 distinct rests; a kept text is found only for
    equal values, and the numbers are checked to be ints first, so a bool or a float equal
    to one is never given an int's text; an equal str subclass is written as its str, as
    the encoder does). Any other hour is encoded in full, so the text is :data:`_encode`'s
    of the whole day either way (tests/test_hourdays.py, tests/test_savecost.py and
    tests/test_savecost_fast.py compare)."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    get = groups.get
    tails: dict[tuple[Any, ...], str] = {}  # a plain dict: a subclass's [] is several times slower
    tail_of = tails.get
    when, head = None, ""  # the clock of the hour before, and its text with the hour's
    n = first
    for r in rows:
        clock, miles, speed, fuel = r.clock, r.miles, r.speed, r.fuel
        load, water, leaks = r.load, r.water, r.leaks
        hour = None
        if (
            type(clock) is int
            and type(fuel) is int
            and type(load) is int
            and type(miles) is int
            and type(speed) is int
            and type(water) is int
            and type(leaks) is int
        ):
            tail = (r.hex, miles, speed, r.pace, fuel, load, r.load_category, water, leaks,
                    r.status)  # fmt: skip
            text = tail_of(tail)
            if text is None:
                text = _tail_text(tail)
                if text is not None:
                    if len(tails) > 16384:  # bounded: a year of ten ships has ~4,500
                        tails.clear()
                    tails[tail] = text
            if text is not None:
                if clock != when:  # the ships' hours of a clock come together
                    when, head = clock, f",{clock},{clock % 24},"
                hour = f"[{n}{head}{text}"
        if hour is None:
            if type(fuel) is not int:
                fuel = _whole(fuel)
            if type(load) is not int:
                load = _whole(load)
            hour = _encode((n, clock, clock % 24, r.hex, miles, speed, r.pace, fuel, load,
                            r.load_category, water, leaks, r.status))  # fmt: skip
        key = (r.voyage_id, r.ship, clock // 24)
        found = get(key)
        if found is None:
            groups[key] = [n, n, hour]  # the first id, the last, the hours
        else:
            found[1] = n
            found.append(hour)
        n += 1
    return [
        (action_id, voyage, ship, day + 1, hours[0], hours[1], "[" + ",".join(hours[2:]) + "]")
        for (voyage, ship, day), hours in groups.items()
    ]


def read_hours(
    conn: sqlite3.Connection, where: str = "", args: Iterable[Any] = ()
) -> list[dict[str, Any]]:
    """The rows ``SELECT * FROM hours {where} ORDER BY clock, id`` gives, unpacked here (the
    view unpacks each value with SQL's JSON functions, several times slower for a long
    voyage). ``where`` may name only the packed row's columns (ship, voyage_id)."""
    out: list[dict[str, Any]] = []
    add = out.append
    sql = f"SELECT action_id, voyage_id, ship, day, hours FROM {TABLE} {where}"
    for aid, vid, ship, day, text in conn.execute(sql, list(args)):
        hours = _decode(text)
        if "true" in text or "false" in text:  # SQL reads a JSON true as the integer 1
            hours = [[int(v) if type(v) is bool else v for v in h] for h in hours]
        for i, clock, hour, hx, miles, speed, pace, fuel, load, cat, water, leaks, st in hours:
            add({"id": i, "action_id": aid, "voyage_id": vid, "ship": ship, "clock": clock,
                 "day": day, "hour": hour, "hex": hx, "miles": miles, "speed": speed,
                 "pace": pace, "fuel": fuel, "load": load, "load_category": cat,
                 "water": water, "leaks": leaks, "status": st})  # fmt: skip
    out.sort(key=_order)
    return out


def _order(row: dict[str, Any]) -> tuple[Any, Any]:
    return row["clock"], row["id"]


def write_hours(conn: sqlite3.Connection, action_id: int, rows: list[HourRow]) -> None:
    """An advance's hour rows, packed a ship-day to a row (one executemany)."""
    if rows:
        insert_many(conn, INSERT_SQL, pack(action_id, rows, next_id(conn)))


def _foreign_keys(conn: sqlite3.Connection) -> str:
    """The foreign keys the old table declared (m190), for the packed one."""
    return "".join(
        f',\n            FOREIGN KEY ("{r[3]}") REFERENCES "{r[2]}" ("{r[4]}") '
        "DEFERRABLE INITIALLY DEFERRED"
        for r in conn.execute("PRAGMA main.foreign_key_list(hours)").fetchall()[::-1]
    )


def m102_hour_days(db: Database) -> None:
    # The hour rows packed a ship-day to a row, read through the view ``hours`` (the same
    # rows, columns, values and ids); the old table's keys carried over (a campaign made
    # before m190 gets them from m190, which names hour_days).
    conn = db.conn
    conn.execute(_table_sql(_foreign_keys(conn)))
    groups: dict[tuple[Any, ...], list[list[Any]]] = {}
    for row in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM hours ORDER BY id"):
        rec = dict(zip(COLUMNS, row, strict=True))
        key = (rec["action_id"], rec["voyage_id"], rec["ship"], rec["day"])
        hour = [_whole(rec[c]) if c in _INTEGER else rec[c] for c in PACKED]
        groups.setdefault(key, []).append(hour)
    if groups:  # (an INSERT, even of no rows, would open a transaction)
        conn.executemany(
            INSERT_SQL,
            [
                (*key, hours[0][0], hours[-1][0], _encode(hours))
                for key, hours in sorted(groups.items(), key=lambda kv: kv[1][0][0])
            ],
        )
    conn.execute("DROP TABLE hours")
    for sql in [_view_sql(), *_trigger_sql(), *_indexes()]:
        conn.execute(sql)


def voyage_hours(camp: Campaign, voyage_id: int) -> list[dict[str, Any]]:
    """The hours of voyage ``voyage_id``, in order (``SELECT * FROM hours WHERE voyage_id = ?
    ORDER BY clock, id``, unpacked as :func:`read_hours` does)."""
    return read_hours(camp.db.conn, "WHERE voyage_id = ?", [voyage_id])
