"""An open campaign: its database, rules, options and roller, its transactions and undo,
and its ships.

- WAL mode; every write that belongs together is one ``BEGIN IMMEDIATE`` transaction
  (:meth:`Campaign.action`). A second process waits a moment for the lock, then fails
  with a clear message, so two commands never interleave.
- Every change a referee makes is an *action*: what it changes in the campaign's tables is
  written to the undo journal (:mod:`voyage.store.undojournal`: rows inserted, old values of rows
  updated or deleted), and rows it adds to the log tables carry its id, so ``voyage undo``
  restores the campaign exactly, roller state included (R5). The setting ``undo_keep``
  keeps the journal of the latest N actions; older entries are pruned by a later action.
- Read at one moment: :func:`begin_reading` starts one read transaction, so a read command
  sees the campaign as it was at one instant even while ``voyage advance`` runs in another
  terminal.

A campaign is opened or made by :mod:`voyage.store.campaign`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from voyage.base import stopsignals
from voyage.base.errors import CampaignError, ShipError, VoyageError, quoted
from voyage.dice.roller import CheckOptions, Roller
from voyage.store import undojournal
from voyage.store.housetables import campaign_rulebook, relabel_ships, ship_labels, store, stored
from voyage.store.lazyjournal import JournalConnection
from voyage.store.sqlitedb import Database
from voyage.tables.rulebook import RuleBook, option_value, stored_option
from voyage.vessels.ships import Ship, ship_from_row, ship_to_row

#: Write transactions this process has committed: a command stopped by Ctrl-C says whether
#: its change was saved (voyage.cli.interrupted_line).

#: The tables a snapshot held, when each action saved one (before the journal, m030): kept
#: for the storage bench's baseline. Undo needs no list now: every table is journaled.
SNAPSHOT_TABLES: list[str] = [
    "campaign", "settings", "ships", "sea_map", "storms", "voyages", "port_fuel",
    "house_tables", "weather_rerolls", "people", "floaters",
    "fights", "fighters",
]  # fmt: skip
#: Append-only tables whose rows carry ``action_id``; an undo deletes the action's rows.
#: They are not journaled row by row (an advance writes thousands of hour rows).
LOG_TABLES: list[str] = ["rolls", "hour_days", "events"]  # hours: voyage.store.hourdays
#: Tables an action of this kind writes whenever it runs (besides the campaign row, which
#: every action writes): their journal triggers are made with the campaign row's, in one
#: change of the temp schema (each change makes SQLite prepare again every statement it
#: had prepared), not one by one as each is first written (voyage.store.lazyjournal).
ACTION_WRITES: dict[str, tuple[str, ...]] = {"advance": ("ships", "voyages")}
#: How many of the latest actions stay undoable when the campaign has no ``undo_keep``.
UNDO_KEEP = 1000


#: Tables of derived data that undo leaves alone: each row is keyed by a hash of what it was
#: derived from, so it is right whatever undo does (voyage.store.mapcache). Keep them out of any
#: snapshot or journal.
DERIVED_TABLES: list[str] = ["map_cache"]


def busy_error(path: Path) -> CampaignError:
    return CampaignError(
        f"campaign {path} is busy: another voyage command is changing it; "
        "try again when it has finished"
    )


@dataclass
class Action:
    """An undoable change in progress; tag rows added to log tables with ``id``."""

    id: int
    kind: str
    summary: str


class Campaign:
    """An open campaign database."""

    def __init__(self, path: Path, db: Database) -> None:
        self.path = path
        self.db = db
        self._roller: Roller | None = None
        self._book: RuleBook | None = None
        self._settings: dict[str, Any] | None = None
        self.current_action: Action | None = None
        self._journal_ready = False
        #: Values read from the campaign that a writer may compare against before writing
        #: again (voyages: the stored routes); dropped on rollback and undo.
        self.cache: dict[Any, Any] = {}

    # -- campaign row ----------------------------------------------------------------
    @property
    def row(self) -> dict[str, Any]:
        return next(self.db.query("SELECT * FROM campaign WHERE id = 1"))

    @property
    def name(self) -> str:
        return self.row["name"]

    @property
    def seed(self) -> int:
        return self.row["seed"]

    @property
    def clock(self) -> int:
        """Campaign time in hours since day 1, 00:00."""
        return self.row["clock"]

    def set_clock(self, hours: int) -> None:
        self.db.execute("UPDATE campaign SET clock = ? WHERE id = 1", [hours])

    # -- rules, options, roller ------------------------------------------------------
    @property
    def rulebook(self) -> RuleBook:
        """The rules: built-in tables, replaced by the house tables the campaign keeps
        (voyage.store.housetables; never read from a folder after ``init``)."""
        if self._book is None:
            self._book = campaign_rulebook(self.db, self.path)
        return self._book

    @property
    def settings(self) -> dict[str, Any]:
        """The campaign's options: the rule book's defaults, overridden by stored values."""
        if self._settings is None:
            self._settings = self._stored_settings()
        return self._settings

    def _stored_settings(self, mending: str | None = None) -> dict[str, Any]:
        """The options' defaults, overridden by the stored values, each checked as it is
        read (voyage.tables.rulebook.stored_option: a value edited in by hand is one line
        naming the setting and its fix); ``mending``: a setting being set again, not read.
        A stored key no option has is not one any rule reads: it is left out."""
        options = self.rulebook.options
        values = self.rulebook.option_defaults()
        for key, value in self.db.execute("SELECT key, value FROM settings").fetchall():
            if key in options and key != mending:
                values[key] = stored_option(key, options[key], value)
        return values

    def set_setting(self, key: str, raw: str) -> Any:
        """Change an option (as an action); the value must be one of its choices, or a
        whole number within its range."""
        options = self.rulebook.options
        if key not in options:
            raise VoyageError(f"unknown setting {key!r}: use one of {', '.join(options)}")
        value = option_value(key, options[key], raw)
        # the action reads the settings (the dice's options, how many actions to keep): the
        # one being set is read as its new value, so a stored value no option takes is
        # mended by setting it again
        self._settings = {**self._stored_settings(mending=key), key: value}
        with self.action("settings", f"{key} = {json.dumps(value)}"):
            self.db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, json.dumps(value)],
            )
        self._settings = None
        self._roller = None
        return value

    def setting_rows(self) -> list[tuple[str, str]]:
        """The options the campaign has set, as stored: (key, value as JSON text)."""
        return [(r["key"], r["value"]) for r in self.db.query("SELECT key, value FROM settings")]

    def house_tables(self) -> list[dict[str, Any]]:
        """The campaign's house tables: name, text, source, loaded_clock; sorted by name."""
        return stored(self.db)

    def keep_house_tables(
        self, texts: dict[str, str], sources: dict[str, str], book: RuleBook
    ) -> None:
        """Make ``texts`` the campaign's house tables (all others built-in), inside the
        caller's action; each ship's class name follows ``book``'s (m191)."""
        store(self.db, texts, sources, self.clock)
        relabel_ships(self.db, book)

    def check_options(self) -> CheckOptions:
        s = self.settings
        return CheckOptions(natural=bool(s["natural_rolls"]), advantage_mode=s["advantage_mode"])

    @property
    def water_in_load(self) -> bool:
        return bool(self.settings["water_in_load"])

    @property
    def roller(self) -> Roller:
        """The campaign's roller, at its saved state; saved again when an action ends."""
        if self._roller is None:
            row = self.row
            self._roller = Roller.from_saved(
                row["rng_state"], row.get("rng_words"), self.check_options()
            )
        return self._roller

    # -- transactions and undo -------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Database]:
        """One IMMEDIATE transaction; a busy campaign fails with a clear message."""
        conn = self.db.conn
        if conn.in_transaction:
            with self.db.atomic():
                yield self.db
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise busy_error(self.path) from None
            raise
        committing = False
        try:
            yield self.db
            committing = True
            conn.execute("COMMIT")  # a deferred foreign key (m190) that fails here rolls back
            stopsignals.count_commit()
        except BaseException as exc:
            if committing and not conn.in_transaction and not isinstance(exc, sqlite3.Error):
                # a signal (Ctrl-C, SIGTERM) just after the COMMIT: it is saved
                stopsignals.count_commit()
                raise
            conn.rollback()
            self._forget()
            raise

    def _forget(self) -> None:
        """Drop cached state after a rollback so nothing stale is used."""
        self._roller = None
        self._settings = None
        self.cache.clear()

    @contextmanager
    def action(self, kind: str, summary: str) -> Iterator[Action]:
        """An undoable referee action: one transaction, journaled, the roller saved."""
        if self.current_action is not None:
            yield self.current_action
            return
        self._install_journal(ACTION_WRITES.get(kind, ()))
        conn = self.db.conn
        with self.transaction():
            self._prune_journal()
            cursor = conn.execute(
                "INSERT INTO actions (kind, summary, clock, at, snapshot, undo) "
                "VALUES (?, ?, ?, ?, '', 'journal')",
                [kind, summary, self.clock, utc_now()],
            )
            act = Action(int(cursor.lastrowid or 0), kind, summary)
            self.current_action = act
            undojournal.begin(conn, act.id)
            try:
                roller = self.roller
                yield act
                words, state = roller.split_state()  # the key journaled only when it changed
                self.db.execute(
                    "UPDATE campaign SET rng_state = ?, rng_words = ? WHERE id = 1",
                    [state, words],
                )
            finally:
                undojournal.end(conn)
                self.current_action = None

    def set_summary(self, act: Action, summary: str) -> None:
        """What ``voyage history`` and ``voyage undo`` say of the action ``act``, once it is
        known (the action's outcome, not what was asked)."""
        self.db.execute("UPDATE actions SET summary = ? WHERE id = ?", [summary, act.id])

    def _install_journal(self, first: tuple[str, ...] = ()) -> None:
        """The journal's TEMP triggers, once per connection that writes (never for a read),
        outside the action's transaction so that a rollback cannot take them away; those of
        the tables ``first`` (ACTION_WRITES) at once, the others as they are first written."""
        if self._journal_ready:
            return
        conn = self.db.conn
        if isinstance(conn, JournalConnection):  # each table's triggers when first written
            conn.arm_journal(LOG_TABLES + DERIVED_TABLES, first)
        else:
            undojournal.install(conn, LOG_TABLES + DERIVED_TABLES)
        self._journal_ready = not conn.in_transaction

    @property
    def undo_keep(self) -> int:
        """How many of the latest actions stay undoable (setting ``undo_keep``)."""
        return int(self.settings.get("undo_keep", UNDO_KEEP))

    def _prune_journal(self) -> None:
        """Forget how to undo actions older than the latest ``undo_keep``
        (voyage.store.undojournal)."""
        undojournal.prune(self.db.conn, self.undo_keep)

    def undo(self) -> dict[str, Any]:
        """Take back the last action exactly: its journal replayed, its log rows gone."""
        return self.undo_many(1)[0]

    def undo_many(self, count: int, after: int | None = None) -> list[dict[str, Any]]:
        """Take back the latest ``count`` actions (every one ``after`` that action), newest
        first, in one transaction: as many single undos, or none (voyage.store.undojournal)."""
        with self.transaction():
            tables = [t for t in LOG_TABLES if self.db[t].exists()]
            # the setting is read only to explain a refusal: it loads the rule book
            acts = undojournal.undo_many(self.db.conn, tables, count, lambda: self.undo_keep, after)
        self._forget()
        self._book = None
        return acts

    def history(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The actions taken, newest first: id, kind, summary, clock, at, undoable."""
        return undojournal.history(self.db.conn, limit)

    def row_before(self, table: str, rowid: int, action_id: int) -> dict[str, Any] | None:
        """A row as it was just before ``action_id`` ran (None if it did not exist then, or
        if the journal no longer reaches back that far)."""
        return undojournal.row_before(self.db.conn, table, rowid, action_id)

    def action_row(self, action_id: int) -> dict[str, Any] | None:
        """The stored row of action ``action_id`` (None if it was pruned or never was)."""
        rows = list(self.db.query("SELECT * FROM actions WHERE id = ?", [action_id]))
        return rows[0] if rows else None

    def ship_rowid(self, name: str) -> int | None:
        """The rowid of ship ``name``'s row (exactly as named), or None."""
        found = self.db.execute("SELECT rowid FROM ships WHERE name = ?", [name]).fetchone()
        return int(found[0]) if found else None

    def record_rolls(self, rolls: list[Any], ship: str | None = None) -> None:
        """Keep rolls made outside a voyage (R4), tagged with the current action."""
        if self.current_action is None:
            raise CampaignError("rolls can only be recorded inside an action")
        self.db.table("rolls").insert_all(
            [
                {
                    "action_id": self.current_action.id,
                    "clock": self.clock,
                    "ship": ship,
                    "label": r.label,
                    "line": r.line(),
                    "record": json.dumps(r.to_dict()),
                }
                for r in rolls
            ]
        )

    # -- ships -----------------------------------------------------------------------
    def ship_names(self) -> set[str]:
        return {r["name"].lower() for r in self.db.query("SELECT name FROM ships")}

    def _name_taken(self, name: str) -> str | None:
        wanted = name_key(name)
        for row in self.db.query("SELECT name FROM ships"):
            if name_key(row["name"]) == wanted:
                return row["name"]
        return None

    def get_ship(self, name: str, *, archived: bool = False) -> Ship:
        """A ship by name: case-insensitive, and spaces/punctuation don't matter
        (``SEA-WITCH`` finds "Sea Witch"). An archived ship (removed with --force after she
        sailed) is found only for reading her past (``archived=True``)."""
        rows = list(self.db.query("SELECT * FROM ships WHERE name = ?", [name]))
        if not rows:
            wanted = name_key(name)
            rows = [
                r for r in self.db.query("SELECT * FROM ships") if name_key(r["name"]) == wanted
            ]
        if not rows:
            known = sorted(r["name"] for r in self.db.query("SELECT name FROM ships"))
            hint = (
                f" (ships: {', '.join(known[:8])}{', ...' if len(known) > 8 else ''})"
                if known
                else " (no ships yet: `voyage ship roll` or `voyage ship add`)"
            )
            raise ShipError(f"no ship named {quoted(name)} in this campaign{hint}")
        if rows[0].get("archived") and not archived:
            raise ShipError(
                f"{rows[0]['name']} was removed (archived with her voyages): `voyage log` and "
                "`voyage export` still reach her, but she cannot sail, load or act"
            )
        return ship_from_row(rows[0])

    def ships(self, *, archived: bool = False) -> list[Ship]:
        """The campaign's ships in the order they were made; archived ones only if asked."""
        where = "" if archived else "WHERE NOT archived "
        return [
            ship_from_row(r)
            for r in self.db.query(f"SELECT * FROM ships {where}ORDER BY created, rowid")
        ]

    def lost_ships(self) -> dict[str, str]:
        """The ships sunk or abandoned, by name: their status."""
        rows = self.db.execute(
            "SELECT name, status FROM ships WHERE status IN ('sunk', 'abandoned')"
        ).fetchall()
        return {name: status for name, status in rows}

    def is_archived(self, name: str) -> bool:
        row = self.db.execute("SELECT archived FROM ships WHERE name = ?", [name]).fetchone()
        return bool(row and row[0])

    def add_ship(self, ship: Ship) -> None:
        if not name_key(ship.name):
            raise ShipError(f"ship name {quoted(ship.name)} needs at least one letter or digit")
        taken = self._name_taken(ship.name)
        if taken:
            raise ShipError(
                f"a ship named {taken!r} is already in this campaign: choose another name"
            )
        row = ship_to_row(ship)
        row["created"] = self.current_action.id if self.current_action else 0
        row.update(ship_labels(self.rulebook, ship.ship_class))  # m191
        self.db.table("ships").insert(row)

    def save_ship(self, ship: Ship) -> None:
        """Write the ship's row back (one UPDATE: every advance saves every ship at sea)."""
        row = ship_to_row(ship)
        assignments = ", ".join(f"[{column}] = ?" for column in row)  # the Ship's own fields
        cursor = self.db.execute(
            f"UPDATE ships SET {assignments} WHERE name = ?", [*row.values(), ship.name]
        )
        if cursor.rowcount == 0:
            raise ShipError(f"no ship named {ship.name!r} in this campaign")

    def remove_ship(self, name: str, force: bool = False) -> tuple[Ship, int]:
        """Remove a ship; one with voyages in the log is archived, and only with ``force``
        (her history stays readable). Returns the ship and her voyage count."""
        ship = self.get_ship(name)
        at_sea = self.db.execute(
            "SELECT id FROM voyages WHERE ship = ? AND ended IS NULL "
            "AND status NOT IN ('sunk', 'abandoned')",
            [ship.name],
        ).fetchone()
        if at_sea:
            raise ShipError(
                f"{ship.name} is at sea (voyage {at_sea[0]}): bring her in (sail her to a port; "
                f"lying anchored or adrift, `voyage ship place {ship.name!r} PORT`), or "
                f"`voyage act {ship.name!r} abandon`, before removing her"
            )
        sailed = self.db.execute(
            "SELECT COUNT(*) FROM voyages WHERE ship = ?", [ship.name]
        ).fetchone()[0]
        if sailed and not force:
            plural = "voyage" if sailed == 1 else "voyages"
            raise ShipError(
                f"{ship.name} has {sailed} {plural} in the log: add --force to remove her "
                "(she is archived: her log and exports stay readable)"
            )
        # rafts or people off her (without a voyage: abandoned in port) point at her (m190)
        off = self.db.execute("SELECT 1 FROM floaters WHERE ship = ? LIMIT 1", [ship.name])
        if sailed or off.fetchone():
            self.db.execute("UPDATE ships SET archived = 1 WHERE name = ?", [ship.name])
        else:
            self.db.execute("DELETE FROM ships WHERE name = ?", [ship.name])
        self.db.execute("UPDATE people SET ship = NULL WHERE ship = ?", [ship.name])
        return ship, sailed

    def close(self) -> None:
        self.db.close()


def name_key(name: str) -> str:
    """A ship name as matched: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def begin_reading(camp: Campaign) -> None:
    """Start one read transaction: what is read until :func:`end_reading` is one moment.

    In WAL mode the snapshot is taken at the first read, so one is made here at once.
    """
    conn = camp.db.conn
    if conn.in_transaction:
        return
    conn.execute("BEGIN DEFERRED")
    conn.execute("SELECT count(*) FROM campaign").fetchone()


def end_reading(camp: Campaign) -> None:
    """End the read transaction (committing, in case a read command wrote something)."""
    conn = camp.db.conn
    try:
        if conn.in_transaction:
            conn.execute("COMMIT")
    except sqlite3.ProgrammingError:  # already closed
        pass


@contextmanager
def one_moment(camp: Campaign) -> Iterator[Campaign]:
    """``with one_moment(camp):`` everything read inside sees the campaign at one instant."""
    begin_reading(camp)
    try:
        yield camp
    finally:
        end_reading(camp)
