"""Opening and making a campaign file.

- One file per campaign: ``--db PATH``, else ``$VOYAGE_DB``, else ``./campaign.db``.
- A new campaign is built whole or not at all; an older one is upgraded as it opens, by the
  schema steps it lacks (voyage.store.migrations); one from a newer voyage, or a damaged
  one, is refused before anything is written (voyage.store.campaignfile).
- The open campaign is a :class:`voyage.store.campaigndb.Campaign`; its names (the log
  tables, Action ...) are imported from there.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from voyage.base.errors import CampaignError
from voyage.base.paths import no_folder
from voyage.dice.roller import Roller
from voyage.store import campaignfile, housetables
from voyage.store.calendarrow import write_calendar
from voyage.store.campaigndb import Campaign, busy_error, utc_now
from voyage.store.lazyjournal import JournalConnection
from voyage.store.migrations import migrations
from voyage.store.sqlitedb import Database
from voyage.tables.calendar import CampaignCalendar

__all__ = [
    "campaign_title", "create_campaign", "known_migrations", "new_seed", "open_campaign",
    "read_only_campaign", "resolve_path",
]  # fmt: skip

DEFAULT_DB = "campaign.db"
LOCK_WAIT_SECONDS = 2.0


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
    if path.exists() and not os.access(path, os.W_OK):
        # a file we may not write: read as it stands, so SQLite leaves no read-only WAL
        # files beside it that would refuse every change once it is made writable again
        return _tuned(campaignfile.connect_readonly(path, peek=True))
    campaignfile.mend_side_files(path)
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
        conn = campaignfile.connect_readonly(path, peek=True)
    return _tuned(conn)


def _tuned(conn: sqlite3.Connection) -> Database:
    """The campaign's connection settings, on a connection just opened."""
    # In WAL mode NORMAL is as safe against a killed process or a crash of the program (the
    # campaign is never corrupted, a commit is whole or absent); only a power cut may lose
    # the last commits. It spares an fsync on every commit.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    # The undo journal's TEMP objects live in memory (voyage.store.undojournal.install). Said now,
    # before anything opens the temp database: said once it is open, SQLite closes it and
    # resets every schema of the connection, and the campaign's (some 40 tables) is parsed
    # again, ~1 ms of every command that takes an action.
    conn.execute("PRAGMA temp_store = MEMORY")
    # voyage uses no sqlite-utils plugins: skipping their discovery (a scan of every installed
    # package's entry points) saves ~30 ms on every command
    return Database(conn, execute_plugins=False)


def new_seed() -> int:
    """A fresh campaign seed (shown to the referee so the campaign can be replayed)."""
    return int.from_bytes(os.urandom(4), "big")


def create_campaign(
    path: Path,
    name: str,
    seed: int | None = None,
    tables: str | None = None,
    calendar: CampaignCalendar | None = None,
) -> Campaign:
    """Make a new campaign file at ``path``, whole or not at all; never touch an existing file.

    ``tables``: a folder of override tables, validated now and copied into the campaign
    (voyage.store.housetables), which never reads the folder again. ``calendar``, if any, is
    kept in the file inside the same atomic build (voyage.store.calendarrow).
    """
    if path.exists():
        raise CampaignError(f"{path} already exists: choose another --db path, or remove it")
    if not path.parent.is_dir():
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
                    "created": utc_now(),
                }
            )
            housetables.store(db, texts, sources, 0)
            if calendar is not None:
                write_calendar(db, calendar)
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
                    raise busy_error(resolved) from None
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
    """Names of every schema step this voyage knows, in the order they are applied."""
    if not _KNOWN:
        # no plugin discovery: it scans every installed package (~30 ms a command)
        _KNOWN.extend(
            m.name for m in migrations.pending(Database(memory=True, execute_plugins=False))
        )
    return _KNOWN


def campaign_title(path: Path) -> str:
    """The campaign's name, read without writing anything (``mode=ro``), for read-only
    viewers such as ``voyage browse``; a file that is not a campaign, or one a newer voyage
    wrote, fails in one line."""
    if not path.is_file():
        raise CampaignError(f"no campaign at {path}: point --db (or VOYAGE_DB) at your file")
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
            row = conn.execute("SELECT name FROM campaign WHERE id = 1").fetchone()
    except sqlite3.DatabaseError:
        row = None
    if row is None:
        raise CampaignError(f"{path} is not a voyage campaign")
    # a newer voyage's campaign is refused here too, not shown half-understood (its tables
    # described as this voyage knows them)
    campaignfile.refuse_newer(campaignfile.inspect(path), known_migrations())
    return str(row[0])


def read_only_campaign(path: str | os.PathLike[str] | None) -> Campaign:
    """The campaign at ``path`` read into memory through a read-only connection: nothing a
    forecast or a plan does can reach the file (no lock taken, no journal, no migration written).

    The file is checked as every command checks it (voyage.store.campaignfile: not a campaign,
    from a newer voyage, damaged: one line), read through a read-only connection (as it
    stands on disk when no WAL is beside it: no side files are made), and copied into
    memory; an older campaign is brought up to date there, and only there."""

    resolved = resolve_path(path)
    campaignfile.check_path(resolved)  # a folder, /dev/null, no file: as every command says
    campaignfile.identify(resolved)
    memory = sqlite3.connect(":memory:")
    try:
        source = campaignfile.connect_readonly(resolved, peek=True)
        try:
            info = campaignfile.describe(source, resolved)
            campaignfile.refuse_newer(info, known_migrations())
            problem = campaignfile.damage(info, NEEDED_TABLES)
            if problem:
                raise campaignfile.damaged(resolved, problem)
            source.backup(memory)
        finally:
            source.close()
        db = Database(memory, execute_plugins=False)
        migrations.apply(db)  # in memory only: an older campaign reads as a current one
        housetables.adopt_folder(db, resolved)  # likewise: its old override folder
    except sqlite3.DatabaseError as exc:
        memory.close()
        raise campaignfile.refusal(exc, resolved, "read") from None
    except BaseException:
        memory.close()
        raise
    return Campaign(resolved, db)
