"""What ``voyage doctor`` (voyage.actions.doctor) reads of a campaign file, and only reads.

The file is opened through a read-only connection (campaignfile.connect_readonly) in one
read transaction, so every check sees the same moment even while an advance is writing, and
it is never upgraded: a doctor can look at any file, one from a newer voyage or one that is
not a campaign at all. Each query answers one question in plain values; what the answers
mean (a finding, a fact) is the doctor's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from voyage.store.campaignfile import (
    MAX_PER_CHECK,
    Finding,
    connect_readonly,
    json_columns,
    json_problems,
)
from voyage.store.foreignkeys import ForeignKey, undeclared
from voyage.store.migrations import migrations
from voyage.store.oldanchors import LYING_WITHOUT_VOYAGE
from voyage.store.sqlitedb import Database


class Unreadable(Exception):
    """SQLite could not read the file while it was being checked (its message says why)."""


@contextmanager
def reading(path: Path) -> Iterator[FileReads]:
    """The file at ``path`` opened read-only in one read transaction; any SQLite error met
    while it is read comes out as :class:`Unreadable`."""
    conn = connect_readonly(path)
    try:
        conn.execute("BEGIN")  # every check sees the same moment, even during an advance
        yield FileReads(conn)
    except sqlite3.DatabaseError as exc:
        raise Unreadable(str(exc)) from exc
    finally:
        conn.close()


def expected_schema(applied: list[str]) -> dict[str, list[str]]:
    """Tables and columns the schema steps ``applied`` make (built in memory)."""

    db = Database(memory=True, execute_plugins=False)
    for step in migrations.pending(db):
        if step.name in applied:
            step.fn(db)
    return {
        t: [c[1] for c in db.execute(f"PRAGMA table_info([{t}])")]
        for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }


def _row_key(table: str) -> str:
    """How a finding names a row: its rowid, an hour by its id (hours is a view, m102)."""
    return "id" if table == "hours" else "rowid"


class FileReads:
    """The doctor's questions of one open, read-only campaign file."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    # -- SQLite's own view, and the schema -------------------------------------------------
    def integrity(self) -> list[str]:
        """``PRAGMA integrity_check`` (at most 20 lines; ``["ok"]`` when sound)."""
        return [r[0] for r in self._conn.execute("PRAGMA integrity_check(20)")]

    def columns(self, table: str) -> set[str]:
        """The names of ``table``'s columns."""
        return {c[1] for c in self._conn.execute(f"PRAGMA table_info([{table}])")}

    def json_columns(self, tables: set[str], applied: list[str]) -> dict[str, list[str]]:
        """The columns of ``tables`` that hold JSON (campaignfile.json_columns)."""
        return json_columns(self._conn, tables, applied)

    def json_problems(self, columns: dict[str, list[str]], out: list[Finding]) -> int:
        """Values of ``columns`` that are not JSON, added to ``out``; rows looked at."""
        return json_problems(self._conn, columns, out)

    # -- rows ----------------------------------------------------------------------------
    def routes_not_text(self, column: str, glob: str) -> list[Any]:
        """Voyages whose ``voyage_routes.column`` is not text or matches the bad ``glob``."""
        return [
            r[0]
            for r in self._conn.execute(
                f"SELECT voyage_id FROM voyage_routes WHERE typeof({column}) != 'text' "
                f"OR {column} GLOB ? LIMIT ?",
                [glob, MAX_PER_CHECK],
            ).fetchall()
        ]

    def campaign_rows(self) -> list[tuple[Any, ...]]:
        """Every campaign row: id, clock, rng_state, rng_words (NULL before m101)."""
        words = "rng_words" if "rng_words" in self.columns("campaign") else "NULL"  # m101
        return self._conn.execute(f"SELECT id, clock, rng_state, {words} FROM campaign").fetchall()

    def _first_few(self, sql: str) -> list[Any]:
        return [r[0] for r in self._conn.execute(sql + f" LIMIT {MAX_PER_CHECK}")]

    def voyages_missing_ship(self) -> list[tuple[Any, Any]]:
        """Voyages not over whose ship is gone: (id, ship)."""
        return list(
            self._conn.execute(
                "SELECT id, ship FROM voyages WHERE ended IS NULL "
                "AND ship NOT IN (SELECT name FROM ships) LIMIT ?",
                [MAX_PER_CHECK],
            )
        )

    def rows_missing_voyage(self, table: str) -> list[Any]:
        """Rows of ``table`` (hours, events, floaters) naming a voyage that is gone."""
        return self._first_few(
            f"SELECT {_row_key(table)} FROM [{table}] WHERE voyage_id IS NOT NULL "
            "AND voyage_id NOT IN (SELECT id FROM voyages)"
        )

    def people_missing_ship(self) -> list[tuple[Any, Any]]:
        """People aboard a ship that is gone: (id, ship)."""
        return list(
            self._conn.execute(
                "SELECT id, ship FROM people WHERE ship IS NOT NULL "
                "AND ship NOT IN (SELECT name FROM ships) LIMIT ?",
                [MAX_PER_CHECK],
            )
        )

    def lowest_action(self) -> Any:
        """The id of the oldest action kept (None when there is none)."""
        return self._conn.execute("SELECT min(id) FROM actions").fetchone()[0]

    def rows_missing_action(self, table: str, lowest: int) -> list[Any]:
        """Rows of ``table`` naming an action at or after ``lowest`` that is gone."""
        return self._first_few(
            f"SELECT {_row_key(table)} FROM [{table}] WHERE action_id >= {int(lowest)} "
            "AND action_id NOT IN (SELECT id FROM actions)"
        )

    def hours_at_or_after_clock(self) -> int:
        """How many hours are logged at or after the campaign clock."""
        return int(
            self._conn.execute(
                # day first: only the packed rows of the clock's day on are unpacked (m102)
                "SELECT count(*) FROM hours, (SELECT clock AS now FROM campaign WHERE id = 1) "
                "WHERE day >= now / 24 + 1 AND clock >= now"
            ).fetchone()[0]
        )

    # -- foreign keys (m190, voyage.store.foreignkeys) -------------------------------------
    def key_violations(self) -> list[tuple[Any, ...]]:
        """``PRAGMA foreign_key_check``: (table, rowid, parent, key index) for each row."""
        return list(self._conn.execute("PRAGMA main.foreign_key_check"))

    def packed_hours(self, rowid: int) -> list[Any]:
        """The ids of the hours a row of hour_days holds."""
        return [
            r[0]
            for r in self._conn.execute(
                "SELECT h.value ->> 0 FROM hour_days AS d JOIN json_each(d.hours) AS h "
                "WHERE d.id = ?",
                [rowid],
            )
        ]

    def undeclared_keys(self) -> list[tuple[ForeignKey, int]]:
        """The keys m190 left undeclared, with the rows pointing nowhere now."""
        return undeclared(self._conn)

    def only_pruned(self, fk: ForeignKey) -> bool:
        """Whether every orphan of ``fk`` names an action older than the oldest kept
        (pruned long ago)."""
        lowest = self.lowest_action()
        return (
            lowest is not None
            and not self._conn.execute(
                f"SELECT 1 FROM [{fk.child}] WHERE [{fk.column}] >= ? AND [{fk.column}] NOT IN "
                "(SELECT id FROM actions) LIMIT 1",
                [lowest],
            ).fetchone()
        )

    # -- the world: tables, calendar, map, ships, storms ------------------------------------
    def house_table_texts(self) -> dict[str, str]:
        """The house tables kept in the file, name -> YAML text."""
        return {
            str(n): str(t) for n, t in self._conn.execute("SELECT name, text FROM house_tables")
        }

    def settings_rows(self) -> list[tuple[str, str]]:
        """The stored settings as (key, value as stored: JSON text), by key."""
        return [
            (str(k), v)
            for k, v in self._conn.execute("SELECT key, value FROM settings ORDER BY key")
        ]

    def calendar_row(self) -> tuple[Any, ...] | None:
        """The kept calendar: key, definition (JSON text), year, month, day; or None."""
        row = self._conn.execute(
            "SELECT key, definition, year, month, day FROM calendar WHERE id = 1"
        )
        found: tuple[Any, ...] | None = row.fetchone()
        return found

    def sea_map_row(self) -> tuple[Any, ...] | None:
        """The stored map: text, source; or None."""
        found: tuple[Any, ...] | None = self._conn.execute(
            "SELECT text, source FROM sea_map WHERE id = 1"
        ).fetchone()
        return found

    def ships_lying_without_voyage(self) -> list[tuple[Any, ...]]:
        """Ships lying at sea with no open voyage (voyage.store.oldanchors): rowid, name,
        hex, status."""
        return list(self._conn.execute(LYING_WITHOUT_VOYAGE).fetchall())

    def storm_rows(self) -> list[tuple[Any, ...]]:
        """Every storm row's storm, state, moving and every (m050), storm by storm."""
        return list(
            self._conn.execute("SELECT storm, state, moving, every FROM storms ORDER BY storm, id")
        )
