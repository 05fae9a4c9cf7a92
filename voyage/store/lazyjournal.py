"""The undo journal's triggers made on demand (per-command cost).

:func:`voyage.store.undojournal.install` makes the three TEMP triggers of every journaled table
when a connection first takes an action: 48 triggers, ~12 ms, on every command that writes,
though a daily advance writes three tables (campaign, ships, voyages). A campaign's
connection is a :class:`JournalConnection`, which makes a table's triggers just before the
first statement that writes it runs:

- an SQLite authorizer sees every table a statement writes while the statement is
  prepared (before it runs). A write to a journaled table whose triggers are not made yet
  is refused (SQLITE_DENY: the statement never runs, nothing is changed) and remembered;
- the connection's cursors catch that refusal, make the triggers of the tables refused
  (voyage.store.undojournal.trigger_sql, the same triggers as before) and run the statement
  again, now journaled.

So no statement writes a journaled table without its triggers: what the journal records,
and how undo replays it, are exactly as before. TEMP triggers made inside a transaction go
if it is rolled back: after any error, ROLLBACK or DDL the connection reads again which
triggers it has (a refused write is then made to wait for them again, never let through).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from typing import Any

from voyage.base import stopsignals
from voyage.base.errors import CampaignError
from voyage.store.undojournal import _PREFIX, ACTIVE, JOURNAL, install, run_together, table_triggers

_WRITES = frozenset({sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE})
#: Schema changes after which the triggers present are read again.
_DDL = frozenset(
    {
        sqlite3.SQLITE_DROP_TABLE,
        sqlite3.SQLITE_ALTER_TABLE,
        sqlite3.SQLITE_CREATE_TABLE,
        sqlite3.SQLITE_DROP_TEMP_TRIGGER,
    }
)
_OK, _DENY = sqlite3.SQLITE_OK, sqlite3.SQLITE_DENY
#: Tables every action writes (the campaign row: the roller's state), journaled from the
#: start.
ALWAYS_WRITTEN = ("campaign",)


class LazyJournal:
    """Which tables of one connection have their journal triggers, and making them."""

    def __init__(self, conn: sqlite3.Connection, skip: Iterable[str]) -> None:
        self.conn = conn
        self.skipped = {s.lower() for s in skip} | {JOURNAL, "actions", "_sqlite_migrations"}
        self.ready: set[str] = set()
        #: the tables journaled: those there when the connection was armed, as
        #: undojournal.install (a table made later, even dropped again within the action,
        #: as sqlite-utils does to probe SQLite, is not followed)
        self.known: set[str] = set()
        self.denied: set[str] = set()
        self.stale = False
        self.armed = False

    def arm(self, first: Iterable[str] = ()) -> None:
        """Journal this connection from now on: recursive triggers (REPLACE fires the delete
        trigger), the table of the action under way, the authorizer; the triggers of the
        campaign row and of the tables ``first`` made at once. Idempotent."""
        conn = self.conn
        conn.execute("PRAGMA recursive_triggers = ON")
        have = conn.execute("SELECT count(*) FROM temp.sqlite_master").fetchone()[0]
        if not have:
            conn.execute("PRAGMA temp_store = MEMORY")  # see undojournal.install
        known = set()
        for name, sql in conn.execute(
            "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ).fetchall():
            self._check(name, sql)
            known.add(name.lower())
        self.known = known - self.skipped
        self.resync()
        # Every action ends by saving the roller in the campaign row (store.Campaign.action):
        # its triggers are made now, with the action table and those of the tables the
        # caller knows it writes, in one change of the temp schema rather than one per table
        # (each change makes SQLite prepare again the statements prepared so far).
        wanted = dict.fromkeys(t.lower() for t in (*ALWAYS_WRITTEN, *first))
        made = [t for t in wanted if t in self.known and t not in self.ready]
        run_together(
            conn,
            [f"CREATE TEMP TABLE IF NOT EXISTS {ACTIVE} (id INTEGER NOT NULL)"]
            + self._triggers(made),
        )
        self.ready.update(made)
        if not self.armed:
            conn.set_authorizer(self._authorize)  # expires every prepared statement
            self.armed = True

    def _check(self, name: str, sql: str | None) -> None:
        """Refuse a WITHOUT ROWID table (the journal follows rowids); skip a virtual one."""
        head = (sql or "").upper()
        if head.startswith("CREATE VIRTUAL"):
            self.skipped.add(name.lower())
        elif name.lower() not in self.skipped and re.search(r"\)\s*WITHOUT\s+ROWID", head):
            raise CampaignError(
                f"table {name} is WITHOUT ROWID, which the undo journal cannot follow: "
                "make it a rowid table"
            )

    def resync(self) -> None:
        """Read again which tables have their triggers (after a rollback or DDL)."""
        self.stale = False
        self.ready = {
            tbl.lower()
            for name, tbl in self.conn.execute(
                "SELECT name, tbl_name FROM temp.sqlite_master WHERE type = 'trigger'"
            )
            if name == f"{_PREFIX}{tbl}_d"
        }

    def _authorize(self, code: int, table: Any, _col: Any, db: Any, _src: Any) -> int:
        if code in _WRITES:
            if db == "main" and table:
                name = table.lower()
                if name in self.known and name not in self.ready:
                    self.denied.add(table)
                    return _DENY
        elif code in _DDL:
            self.stale = True
        return _OK

    def catch_up(self, exc: Exception) -> bool:
        """After a statement failed: if the authorizer refused it (it never ran), make the
        triggers of the tables it was refused and return True (run it again); else read
        the triggers present again (the error may have rolled back a transaction, and TEMP
        triggers made in it) and return False."""
        if not self.denied or "not authorized" not in str(exc):
            self.denied.clear()
            self.resync()
            return False
        tables = sorted(self.denied)
        self.denied.clear()
        run_together(self.conn, self._triggers(tables))
        self.ready.update(t.lower() for t in tables)
        return True

    def _triggers(self, tables: Iterable[str]) -> list[str]:
        """The CREATE statements of these tables' triggers (voyage.store.undojournal)."""
        conn = self.conn
        wanted: list[str] = []
        for table in tables:
            row = conn.execute(
                "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", [table]
            ).fetchone()
            if row is None:
                continue  # no such table: the statement fails again, with SQLite's message
            info = conn.execute(
                "SELECT name, type, pk FROM pragma_table_info(?, 'main') ORDER BY cid", [table]
            ).fetchall()
            wanted.extend(table_triggers(table, info))
        return wanted

    def settle(self, sql: Any) -> None:
        """After a statement ran: a ROLLBACK (TO) may have taken triggers away, DDL moved
        them; read them again."""
        if self.stale or (type(sql) is str and "ROLLBACK" in sql[:40].upper()):
            self.resync()


class JournalCursor(sqlite3.Cursor):
    """A cursor that makes the journal triggers a refused statement needs, then runs it."""

    def execute(self, sql: str, parameters: Any = (), /) -> JournalCursor:
        return self._journaled(super().execute, sql, parameters)

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> JournalCursor:
        # refused while prepared, before any parameters are read: safe to run again
        return self._journaled(super().executemany, sql, seq_of_parameters)

    def _journaled(self, run: Any, sql: str, parameters: Any) -> JournalCursor:
        journal = getattr(self.connection, "journal", None)
        while True:
            if journal is not None:
                journal.denied.clear()
            try:
                run(sql, parameters)
            except sqlite3.DatabaseError as exc:
                _signal_lost()
                if journal is None or not journal.catch_up(exc):
                    raise
                continue
            if journal is not None:
                journal.settle(sql)
            return self


def _signal_lost() -> None:
    """A Ctrl-C or SIGTERM whose exception was raised inside the authorizer (SQLite calls
    it while preparing): SQLite said "not authorized" instead, and the statement never ran;
    the interrupt is raised again (voyage.base.stopsignals)."""

    stopsignals.raise_received()


class JournalConnection(sqlite3.Connection):
    """A campaign's connection (voyage.store.campaign): journal triggers made on demand once
    :meth:`arm_journal` ran; every cursor is a :class:`JournalCursor`."""

    journal: LazyJournal | None = None

    def cursor(self, factory: Any = None) -> Any:  # type: ignore[override]
        return super().cursor(factory or JournalCursor)

    def execute(self, sql: str, parameters: Any = (), /) -> Any:  # type: ignore[override]
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:  # type: ignore[override]
        return self.cursor().executemany(sql, parameters)

    def executescript(self, script: str, /) -> Any:  # type: ignore[override]
        journal = self.journal
        if journal is None or not journal.armed:
            return super().executescript(script)
        # a script runs statement by statement: one refused half-way could not be run
        # again whole, so every table gets its triggers first
        install(self, journal.skipped)
        try:
            return super().executescript(script)
        finally:
            journal.resync()

    def rollback(self) -> None:
        super().rollback()
        if self.journal is not None:
            self.journal.resync()

    def arm_journal(self, skip: Iterable[str], first: Iterable[str] = ()) -> None:
        if self.journal is None:
            self.journal = LazyJournal(self, skip)
        self.journal.arm(first)
