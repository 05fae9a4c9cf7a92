"""The campaign database: SQLite through sqlite-utils.

- One file per campaign: ``--db PATH``, else ``$VOYAGE_DB``, else ``./campaign.db``.
- Schema made and upgraded by sqlite-utils ``Migrations("voyage")``; functions ``mNNN_what``
  are only ever appended, and applied on every open.
- WAL mode; every write that belongs together is one ``BEGIN IMMEDIATE`` transaction
  (:meth:`Campaign.action`). A second process waits a moment for the lock, then fails
  with a clear message, so two commands never interleave.
- Every change a referee makes is an *action*: what it changes in the campaign's tables is
  written to the undo journal (:mod:`voyage.store.undojournal`: rows inserted, old values of rows
  updated or deleted), and rows it adds to the log tables carry its id, so ``voyage undo``
  restores the campaign exactly, roller state included (R5). The setting ``undo_keep``
  keeps the journal of the latest N actions; older entries are pruned by a later action.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.errors import CampaignError, ShipError, VoyageError, quoted
from voyage.store import undojournal
from voyage.store.sqlitedb import Database, Migrations

if TYPE_CHECKING:
    from voyage.dice.roller import CheckOptions, Roller
    from voyage.tables.rulebook import RuleBook
    from voyage.vessels.vessel import Ship

DEFAULT_DB = "campaign.db"
LOCK_WAIT_SECONDS = 2.0
#: Write transactions this process has committed: a command stopped by Ctrl-C says whether
#: its change was saved (voyage.cli.interrupted_line).
commits = 0

migrations = Migrations("voyage")

#: The tables a snapshot held, when each action saved one (before the journal, m030): kept
#: for the storage bench's baseline. Undo needs no list now: every table is journaled.
SNAPSHOT_TABLES: list[str] = [
    "campaign", "settings", "ships", "sea_map", "storms", "voyages", "port_fuel",
    "house_tables", "weather_rerolls", "people", "floaters",
]  # fmt: skip
#: Append-only tables whose rows carry ``action_id``; an undo deletes the action's rows.
#: They are not journaled row by row (an advance writes thousands of hour rows).
LOG_TABLES: list[str] = ["rolls", "hour_days", "events"]  # hours: voyage.store.hourdays
#: Tables an action of this kind writes whenever it runs (besides the campaign row, which
#: every action writes): their journal triggers are made with the campaign row's, in one
#: change of the temp schema (each change makes SQLite prepare again every statement it
#: had prepared), not one by one as each is first written (voyage.store.lazyjournal, issue 14).
ACTION_WRITES: dict[str, tuple[str, ...]] = {"advance": ("ships", "voyages")}
#: How many of the latest actions stay undoable when the campaign has no ``undo_keep``.
UNDO_KEEP = 1000


@migrations()
def m001_campaign(db: Database) -> None:
    db.execute(
        """CREATE TABLE campaign (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            seed INTEGER NOT NULL,
            rng_state TEXT NOT NULL,
            clock INTEGER NOT NULL DEFAULT 0,
            tables TEXT,
            created TEXT NOT NULL
        )"""
    )
    db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        """CREATE TABLE actions (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            summary TEXT NOT NULL,
            clock INTEGER NOT NULL,
            at TEXT NOT NULL,
            snapshot TEXT NOT NULL
        )"""
    )


@migrations()
def m002_ships(db: Database) -> None:
    db.execute(
        """CREATE TABLE ships (
            name TEXT PRIMARY KEY COLLATE NOCASE,
            class TEXT NOT NULL,
            tier INTEGER NOT NULL,
            engine_tier INTEGER,
            traits TEXT NOT NULL,
            equipment TEXT NOT NULL,
            crew INTEGER NOT NULL DEFAULT 0,
            passengers INTEGER NOT NULL DEFAULT 0,
            cargo INTEGER NOT NULL DEFAULT 0,
            fuel INTEGER NOT NULL DEFAULT 0,
            water INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'in port',
            hex TEXT,
            engine_broken INTEGER NOT NULL DEFAULT 0,
            pace TEXT NOT NULL DEFAULT 'normal',
            strain INTEGER NOT NULL DEFAULT 0,
            created INTEGER NOT NULL
        )"""
    )
    # Rolls made outside a voyage (ship generation, table rolls): R4, every roll is kept.
    db.execute(
        """CREATE TABLE rolls (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            clock INTEGER NOT NULL,
            ship TEXT,
            label TEXT NOT NULL,
            line TEXT NOT NULL,
            record TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX rolls_action ON rolls(action_id)")


@migrations()
def m010_map(db: Database) -> None:
    # The campaign's sea map (one), kept as the validated YAML text it was loaded from, so
    # it reads back exactly (voyage.store.mapstore); undo restores it (every table is journaled).
    db.execute(
        """CREATE TABLE sea_map (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            source TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            text TEXT NOT NULL,
            loaded_clock INTEGER NOT NULL,
            action_id INTEGER NOT NULL
        )"""
    )


@migrations()
def m011_storms(db: Database) -> None:
    # R32: storm-tossed hexes, one row per hex, live for start_hour <= hour < end_hour.
    # ``storm`` groups the hexes placed together; ``source`` is 'referee' for storms set by
    # hand, so generated weather can add rows of the same shape.
    db.execute(
        """CREATE TABLE storms (
            id INTEGER PRIMARY KEY,
            storm INTEGER NOT NULL,
            hex TEXT NOT NULL,
            start_hour INTEGER NOT NULL,
            end_hour INTEGER NOT NULL,
            source TEXT NOT NULL DEFAULT 'referee',
            note TEXT,
            action_id INTEGER NOT NULL
        )"""
    )
    db.execute("CREATE INDEX storms_hours ON storms(start_hour, end_hour)")


# -- voyages (issue 4: m020-m029) -----------------------------------------------------
@migrations()
def m020_voyages(db: Database) -> None:
    db.execute(
        """CREATE TABLE voyages (
            id INTEGER PRIMARY KEY,
            ship TEXT NOT NULL COLLATE NOCASE,
            origin TEXT NOT NULL,
            destination TEXT NOT NULL,
            route TEXT NOT NULL,
            position INTEGER NOT NULL DEFAULT 0,
            progress_miles INTEGER NOT NULL DEFAULT 0,
            inshore TEXT NOT NULL DEFAULT '[]',
            pace TEXT NOT NULL DEFAULT 'normal',
            strain INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'under way',
            started INTEGER NOT NULL,
            ended INTEGER,
            state TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    db.execute("CREATE INDEX voyages_ship ON voyages(ship)")
    db.execute(
        """CREATE TABLE hours (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            voyage_id INTEGER,
            ship TEXT NOT NULL,
            clock INTEGER NOT NULL,
            day INTEGER NOT NULL,
            hour INTEGER NOT NULL,
            hex TEXT,
            miles INTEGER NOT NULL,
            speed INTEGER NOT NULL,
            pace TEXT NOT NULL,
            fuel INTEGER NOT NULL,
            load INTEGER NOT NULL,
            load_category TEXT NOT NULL,
            water INTEGER NOT NULL,
            leaks INTEGER NOT NULL,
            status TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX hours_action ON hours(action_id)")
    db.execute("CREATE INDEX hours_ship ON hours(ship, clock)")
    db.execute(
        """CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            voyage_id INTEGER,
            ship TEXT,
            clock INTEGER NOT NULL,
            day INTEGER NOT NULL,
            hour INTEGER NOT NULL,
            minute INTEGER NOT NULL DEFAULT 0,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            rolls TEXT NOT NULL DEFAULT '[]',
            changes TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    db.execute("CREATE INDEX events_action ON events(action_id)")
    db.execute("CREATE INDEX events_ship ON events(ship, clock)")


@migrations()
def m021_port_fuel(db: Database) -> None:
    # Fuel sold at each port (a port's stock on the map, less what ships have bought).
    db.execute("CREATE TABLE port_fuel (hex TEXT PRIMARY KEY, sold INTEGER NOT NULL DEFAULT 0)")


# -- undo journal (issue 14.1: m030-m039) ----------------------------------------------
@migrations()
def m030_undo_journal(db: Database) -> None:
    # Undo by journal instead of a snapshot of the whole campaign per action. actions.undo
    # says how an action is taken back: 'journal' (undo_journal rows), 'snapshot' (an
    # action made before this migration: its snapshot is still restored), or NULL (pruned
    # by undo_keep: it can no longer be undone). New actions write snapshot = ''.
    undojournal.create_tables(db.conn)


# -- calendar, currents and anchors (issue 8: m055-m059) -------------------------------
@migrations()
def m055_calendar(db: Database) -> None:
    # The campaign's calendar (voyage.tables.calendar): a copy of its definition as it was when the
    # campaign was made (so editing tables/calendars.yaml later moves no dates) and the date
    # of day 1. No row: the campaign counts days (Day 3, 14:00).
    db.execute(
        """CREATE TABLE calendar (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            key TEXT NOT NULL,
            definition TEXT NOT NULL,
            year INTEGER NOT NULL,
            month INTEGER NOT NULL,
            day INTEGER NOT NULL
        )"""
    )


# -- derived caches (mapscale: m070-m074) --------------------------------------------
#: Tables of derived data that undo leaves alone: each row is keyed by a hash of what it was
#: derived from, so it is right whatever undo does (voyage.store.mapcache). Keep them out of any
#: snapshot or journal.
DERIVED_TABLES: list[str] = ["map_cache"]


@migrations()
def m070_map_cache(db: Database) -> None:
    # The parsed sea map, keyed by the SHA-256 of sea_map.text (voyage.store.mapcache): a derived
    # cache keyed by hash, so it is safe to leave out of undo (DERIVED_TABLES).
    db.execute(
        """CREATE TABLE map_cache (
            hash TEXT PRIMARY KEY,
            format INTEGER NOT NULL,
            blob BLOB NOT NULL
        )"""
    )


# rule book, dice and ships are imported where used: undo needs none of them (issue 14)
def _ship_from_row(row: dict[str, Any]) -> Ship:
    from voyage.vessels.ships import ship_from_row

    return ship_from_row(row)


def _ship_to_row(ship: Ship) -> dict[str, Any]:
    from voyage.vessels.ships import ship_to_row

    return ship_to_row(ship)


def resolve_path(db: str | os.PathLike[str] | None) -> Path:
    """``--db`` if given, else ``$VOYAGE_DB``, else ``./campaign.db``."""
    if db:
        return Path(db)
    env = os.environ.get("VOYAGE_DB")
    if env:
        return Path(env)
    return Path(DEFAULT_DB)


def _connect(path: Path) -> Database:
    """Open a campaign that :func:`voyage.store.campaignfile.inspect` has accepted, for writing.

    In a read-only folder no WAL can be made beside the file, so it is opened read-only, as
    it stands: reading works, and a change is refused in one line (campaignfile.explain).
    """
    from voyage.store.campaignfile import connect_readonly, mend_side_files
    from voyage.store.lazyjournal import JournalConnection

    if path.exists() and not os.access(path, os.W_OK):
        # a file we may not write: read as it stands, so SQLite leaves no read-only WAL
        # files beside it that would refuse every change once it is made writable again
        return _tuned(connect_readonly(path, peek=True))
    mend_side_files(path)
    # journal triggers made as the tables are first written (voyage.store.lazyjournal)
    conn: sqlite3.Connection = sqlite3.connect(
        str(path), timeout=LOCK_WAIT_SECONDS, factory=JournalConnection
    )
    try:
        conn.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as exc:
        conn.close()
        if "readonly" not in str(exc) and "unable to open" not in str(exc):
            raise
        conn = connect_readonly(path, peek=True)
    return _tuned(conn)


def _tuned(conn: sqlite3.Connection) -> Database:
    """The campaign's connection settings, on a connection just opened."""
    # In WAL mode NORMAL is as safe against a killed process or a crash of the program (the
    # campaign is never corrupted, a commit is whole or absent); only a power cut may lose
    # the last commits. It spares an fsync on every commit (issue 14.5).
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    # The undo journal's TEMP objects live in memory (voyage.store.undojournal.install). Said now,
    # before anything opens the temp database: said once it is open, SQLite closes it and
    # resets every schema of the connection, and the campaign's (some 40 tables) is parsed
    # again, ~1 ms of every command that takes an action (issue 14).
    conn.execute("PRAGMA temp_store = MEMORY")
    # voyage uses no sqlite-utils plugins: skipping their discovery (a scan of every installed
    # package's entry points) saves ~30 ms on every command
    return Database(conn, execute_plugins=False)


def _busy(path: Path) -> CampaignError:
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
            from voyage.store.housetables import campaign_rulebook

            self._book = campaign_rulebook(self)
        return self._book

    @property
    def settings(self) -> dict[str, Any]:
        """The campaign's options: the rule book's defaults, overridden by stored values."""
        if self._settings is None:
            values = self.rulebook.option_defaults()
            for row in self.db.query("SELECT key, value FROM settings"):
                values[row["key"]] = json.loads(row["value"])
            self._settings = values
        return self._settings

    def set_setting(self, key: str, raw: str) -> Any:
        """Change an option (as an action); the value must be one of its choices, or a
        whole number within its range."""
        options = self.rulebook.options
        if key not in options:
            raise VoyageError(f"unknown setting {key!r}: use one of {', '.join(options)}")
        from voyage.tables.rulebook import option_value

        value = option_value(key, options[key], raw)
        with self.action("settings", f"{key} = {json.dumps(value)}"):
            self.db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, json.dumps(value)],
            )
        self._settings = None
        self._roller = None
        return value

    def check_options(self) -> CheckOptions:
        from voyage.dice.roller import CheckOptions

        s = self.settings
        return CheckOptions(natural=bool(s["natural_rolls"]), advantage_mode=s["advantage_mode"])

    @property
    def water_in_load(self) -> bool:
        return bool(self.settings["water_in_load"])

    @property
    def roller(self) -> Roller:
        """The campaign's roller, at its saved state; saved again when an action ends."""
        if self._roller is None:
            from voyage.dice.roller import Roller

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
                raise _busy(self.path) from None
            raise
        global commits
        committing = False
        try:
            yield self.db
            committing = True
            conn.execute("COMMIT")  # a deferred foreign key (m190) that fails here rolls back
            commits += 1
        except BaseException as exc:
            if committing and not conn.in_transaction and not isinstance(exc, sqlite3.Error):
                commits += 1  # a signal (Ctrl-C, SIGTERM) just after the COMMIT: it is saved
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
                [kind, summary, self.clock, _now()],
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

    def _install_journal(self, first: tuple[str, ...] = ()) -> None:
        """The journal's TEMP triggers, once per connection that writes (never for a read),
        outside the action's transaction so that a rollback cannot take them away; those of
        the tables ``first`` (ACTION_WRITES) at once, the others as they are first written."""
        if self._journal_ready:
            return
        from voyage.store.lazyjournal import JournalConnection

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
        return _ship_from_row(rows[0])

    def ships(self, *, archived: bool = False) -> list[Ship]:
        """The campaign's ships in the order they were made; archived ones only if asked."""
        where = "" if archived else "WHERE NOT archived "
        return [
            _ship_from_row(r)
            for r in self.db.query(f"SELECT * FROM ships {where}ORDER BY created, rowid")
        ]

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
        row = _ship_to_row(ship)
        row["created"] = self.current_action.id if self.current_action else 0
        row.update(fkschema.ship_labels(self.rulebook, ship.ship_class))  # m191
        self.db.table("ships").insert(row)

    def save_ship(self, ship: Ship) -> None:
        """Write the ship's row back (one UPDATE: every advance saves every ship at sea)."""
        row = _ship_to_row(ship)
        assignments = ", ".join(f"[{column}] = ?" for column in row)  # the Ship's own fields
        cursor = self.db.execute(
            f"UPDATE ships SET {assignments} WHERE name = ?", [*row.values(), ship.name]
        )
        if cursor.rowcount == 0:
            raise ShipError(f"no ship named {ship.name!r} in this campaign")

    def remove_ship(self, name: str, force: bool = False) -> tuple[Ship, int]:
        """Remove a ship; one with voyages in the log is archived, and only with ``force``
        (issue 15: her history stays readable). Returns the ship and her voyage count."""
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
        return ship, sailed

    def close(self) -> None:
        self.db.close()


def name_key(name: str) -> str:
    """A ship name as matched: lower case, letters and digits only."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_seed() -> int:
    """A fresh campaign seed (shown to the referee so the campaign can be replayed)."""
    return int.from_bytes(os.urandom(4), "big")


def create_campaign(
    path: Path,
    name: str,
    seed: int | None = None,
    tables: str | None = None,
    setup: Callable[[Database], None] | None = None,
) -> Campaign:
    """Make a new campaign file at ``path``, whole or not at all; never touch an existing file.

    ``tables``: a folder of override tables, validated now and copied into the campaign
    (voyage.store.housetables), which never reads the folder again. ``setup`` writes anything
    else the new campaign starts with (its calendar) inside the same atomic build.
    """
    from voyage.dice.roller import Roller
    from voyage.store import campaignfile, housetables

    if path.exists():
        raise CampaignError(f"{path} already exists: choose another --db path, or remove it")
    if not path.parent.is_dir():
        from voyage.base.paths import no_folder

        raise CampaignError(no_folder(path.parent))
    texts: dict[str, str] = {}
    sources: dict[str, str] = {}
    if tables:
        # a bad override folder stops here, before any file is made
        texts, sources, _ = housetables.read_folder(tables)
    seed = new_seed() if seed is None else seed

    def populate(db: Database) -> None:
        migrations.apply(db)
        with db.atomic():
            db.table("campaign").insert(
                {
                    "id": 1,
                    "name": name,
                    "seed": seed,
                    "rng_state": Roller(seed).get_state(),
                    "clock": 0,
                    "tables": None,  # the tables themselves are in house_tables
                    "created": _now(),
                }
            )
            housetables.store(db, texts, sources, 0)
            if setup is not None:
                setup(db)
            campaignfile.stamp(db, len(migrations.applied(db)), created=True)

    campaignfile.build_atomically(path, populate)
    return open_campaign(path)


#: Tables a campaign cannot be used without (checked on every open; `voyage doctor` checks all).
NEEDED_TABLES = ["campaign", "settings", "actions", "ships", "rolls"]


def open_campaign(path: str | os.PathLike[str] | None = None) -> Campaign:
    """Open the campaign at ``path`` (see :func:`resolve_path`), upgrading an older file.

    What is not a campaign is refused from its header (voyage.store.campaignfile.identify) before
    SQLite opens it for writing; a campaign from a newer voyage, or a damaged one, is
    refused before anything is written.
    """
    from voyage.store import campaignfile, housetables

    resolved = resolve_path(path)
    campaignfile.check_path(resolved)
    campaignfile.identify(resolved)  # what is not a campaign is refused untouched
    campaignfile.remember(resolved)
    try:
        db = _connect(resolved)
    except sqlite3.DatabaseError as exc:
        raise campaignfile.explain(exc, resolved) or CampaignError(
            f"{resolved} cannot be opened ({exc})"
        ) from None
    try:
        # read before anything is written: a newer or damaged campaign is refused as it is
        info = campaignfile.describe(db.conn, resolved)
        campaignfile.refuse_newer(info, known_migrations())
        problem = campaignfile.damage(info, NEEDED_TABLES)
        if problem:
            raise campaignfile.damaged(resolved, problem)
        pending = migrations.pending(db)
        if pending:
            try:
                migrations.apply(db)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc):
                    raise _busy(resolved) from None
                raise
        applied = len(info.applied) + len(pending)
        if campaignfile.needs_stamp(info, applied):
            try:
                with db.atomic():
                    campaignfile.stamp(db, applied)
            except sqlite3.OperationalError as exc:
                if not pending and ("readonly" in str(exc) or "locked" in str(exc)):
                    pass  # a read-only file of this schema can still be read
                else:
                    raise
        housetables.adopt_folder(db, resolved)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise campaignfile.refusal(exc, resolved, "opened") from None
    except BaseException:
        db.close()
        raise
    return Campaign(resolved, db)


_KNOWN: list[str] = []


def known_migrations() -> list[str]:
    """Names of every schema step this voyage knows, oldest first."""
    if not _KNOWN:
        # no plugin discovery: it scans every installed package (~30 ms a command)
        _KNOWN.extend(
            m.name for m in migrations.pending(Database(memory=True, execute_plugins=False))
        )
    return _KNOWN


# registered last, in this order: campaign files and weather (m040-m051, voyage.store.fileschema);
# people and boats (m071, m080), fights (m075-m079), issue
# 15's (m090-m099), boats under way (m120), voyage routes (m100-m109); then the foreign keys
# (m190-m199) after every other table; the hours packed a day to a row (m102) before them;
# last, old ships at anchor given their voyages (m130, voyage.store.oldanchors: today's code)
from voyage.store import fileschema  # noqa: E402, F401, I001
from voyage.store import worldschema  # noqa: E402, F401, I001
from voyage.store import fightschema, sharemigrations, boatsailschema, perfschema  # noqa: E402, F401, I001
from voyage.store import hourdays  # noqa: E402, I001

migrations()(hourdays.m102_hour_days)  # here: hourdays imports nothing of the store
from voyage.store import fkschema  # noqa: E402, F401, I001
from voyage.store import oldanchors  # noqa: E402, F401, I001
