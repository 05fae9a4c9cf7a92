"""The campaign file itself: what makes a file a campaign, its versions, how it is made.

A campaign is one SQLite file. This module keeps it safe as a file:

- **Recognised before it is touched.** :func:`inspect` reads the file's header and then
  opens it read-only (``mode=ro``), so another program's database, an empty file or a text
  file is refused with nothing written: no switch to WAL, no migration, the same bytes and
  the same modification time.
- **Versioned.** The file carries ``PRAGMA application_id`` (:data:`APPLICATION_ID`, so
  ``file(1)`` and this module know it), ``PRAGMA user_version`` (how many schema steps it
  has) and a small ``voyage_file`` table naming the voyage that made it and the one that
  last wrote it. A file from a newer voyage is refused; an older one is upgraded.
- **Made whole or not at all.** :func:`build_atomically` builds a new campaign under a
  temporary name in the same folder and links it into place only when it is complete.
- **Failures in one line.** :func:`explain` turns what SQLite or the disk says (read-only,
  full, a table gone, a value that is not JSON) into one line naming the file and the fix.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from voyage import __version__
from voyage.base.atomicfile import clear_stale, fsync
from voyage.base.errors import CampaignError, VoyageError
from voyage.base.readlimits import file_mode, kind_of_file
from voyage.store.sqlitedb import Database

if TYPE_CHECKING:
    from sqlite_utils import Database

#: ``PRAGMA application_id`` of a voyage campaign: "VYG1" in ASCII.
APPLICATION_ID = 0x56594731
META_TABLE = "voyage_file"
MIGRATION_SET = "voyage"
#: Suffix of a campaign being built by ``voyage init`` (``.NAME.PID.voyage-init``).
BUILD_SUFFIX = ".voyage-init"
RECOVER = "restore it from a backup copy (`voyage doctor --db {path}` lists every problem)"


def version_tuple(version: str) -> tuple[int, ...]:
    """``"0.10.2"`` -> ``(0, 10, 2)``; anything after the numbers (``rc1``) is ignored."""
    parts = []
    for piece in version.split("."):
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


@dataclass
class FileInfo:
    """What a read-only look at a campaign file found."""

    path: Path
    application_id: int
    user_version: int
    tables: set[str]
    applied: list[str]
    meta: dict[str, str] = field(default_factory=dict)
    has_campaign_row: bool = False

    @property
    def written_by(self) -> str | None:
        return self.meta.get("written_by")


def readonly_uri(path: Path, immutable: bool = False) -> str:
    """An SQLite URI opening ``path`` read-only (nothing can be written through it)."""
    uri = "file:" + quote(str(path.absolute())) + "?mode=ro"
    return uri + "&immutable=1" if immutable else uri


def connect_readonly(path: Path, peek: bool = False) -> sqlite3.Connection:
    """A read-only connection; in a read-only folder without the WAL's shared-memory file,
    the file is read as it stands on disk (``immutable``).

    ``peek`` (or a file this process may not write): a file with no WAL beside it is
    complete on disk, and is read as it stands (``immutable``), so that not even the WAL's
    side files are made next to another program's data.
    """
    # a file we may not write, too: SQLite would leave read-only WAL files beside it, which
    # refuse every change once the campaign is writable again
    if (peek or not os.access(path, os.W_OK)) and not Path(f"{path}-wal").exists():
        return sqlite3.connect(readonly_uri(path, immutable=True), uri=True)
    try:
        conn = sqlite3.connect(readonly_uri(path), uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        if "unable to open" not in str(exc):
            raise
    return sqlite3.connect(readonly_uri(path, immutable=True), uri=True)


def mend_side_files(path: Path) -> None:
    """Make the WAL's side files of a campaign we may write writable again, where they are
    ours: SQLite makes them with the campaign's mode, so a campaign read while it was
    read-only (by an older voyage) left them read-only, and every change was refused."""

    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            found = side.stat()
            if found.st_uid == os.getuid() and not os.access(side, os.W_OK):
                side.chmod(stat.S_IMODE(path.stat().st_mode) | stat.S_IWUSR)
        except OSError:  # gone meanwhile, or not ours to change: SQLite says what it finds
            continue


def not_a_campaign(path: Path, why: str) -> CampaignError:
    return CampaignError(
        f"{path} is {why}, not a voyage campaign: nothing in it was changed; point --db "
        "(or VOYAGE_DB) at your campaign file"
    )


def identify(path: Path) -> int:
    """Whether ``path`` is a campaign: its application id, read without writing anything.

    What is not a campaign is refused in one line: an empty file, a file that is not
    SQLite, another program's database. A file marked as a campaign (:data:`APPLICATION_ID`)
    needs nothing more; one with no mark may be a campaign from before m040, told apart
    from another program's database by its schema steps.

    The file is read only through SQLite: opening and closing it any other way (Python's
    ``open``) would drop this process's locks on a campaign it already has open, so another
    process could fold the WAL away under it.
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CampaignError(f"{path} cannot be read ({exc.strerror})") from None
    if size == 0:
        raise not_a_campaign(path, "an empty file")
    try:
        conn = connect_readonly(path, peek=True)
    except sqlite3.Error as exc:
        raise explain(exc, path) or CampaignError(f"{path} cannot be opened ({exc})") from None
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id == APPLICATION_ID:
            return app_id
        if app_id != 0:
            raise not_a_campaign(path, f"another program's SQLite database (id {app_id:#x})")
        if not _applied(conn):
            raise not_a_campaign(path, "an SQLite database of another program")
        return app_id
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise not_a_campaign(path, "not an SQLite database") from None
        raise explain(exc, path) or damaged(path, f"SQLite cannot read it ({exc})") from None
    finally:
        conn.close()


def _applied(conn: sqlite3.Connection) -> list[str]:
    """The names of the voyage schema steps applied to the file, in order."""
    found = conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlite_migrations'"
    ).fetchone()[0]
    if not found:
        return []
    return [
        r[0]
        for r in conn.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY rowid",
            [MIGRATION_SET],
        )
    ]


def describe(conn: sqlite3.Connection, path: Path) -> FileInfo:
    """What an identified campaign holds (only read: the connection may be a writer's)."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        applied = _applied(conn)
        meta: dict[str, str] = {}
        if META_TABLE in tables:
            meta = {str(k): str(v) for k, v in conn.execute(f"SELECT key, value FROM {META_TABLE}")}
        has_row = "campaign" in tables and bool(
            conn.execute("SELECT count(*) FROM campaign WHERE id = 1").fetchone()[0]
        )
        user_version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise explain(exc, path) or damaged(path, f"SQLite cannot read it ({exc})") from None
    return FileInfo(path, app_id, user_version, tables, applied, meta, has_row)


def inspect(path: Path) -> FileInfo:
    """Identify and describe ``path`` through a read-only connection (nothing is written).

    A campaign whose tables are damaged is still returned (see :func:`damage`), so that
    ``voyage doctor`` can report on it.
    """
    identify(path)
    try:
        conn = connect_readonly(path)
    except sqlite3.Error as exc:
        raise explain(exc, path) or CampaignError(f"{path} cannot be opened ({exc})") from None
    try:
        return describe(conn, path)
    finally:
        conn.close()


def refuse_newer(info: FileInfo, known: list[str]) -> None:
    """A file written by a newer voyage is refused: this one could misread or damage it."""
    ours = __version__
    written = info.written_by
    if written and version_tuple(written) > version_tuple(ours):
        raise CampaignError(
            f"this campaign was written by voyage {written} (newer than this {ours}): "
            f"upgrade voyage (pip install -U voyage) to open {info.path}"
        )
    unknown = [name for name in info.applied if name not in known]
    if unknown:
        raise CampaignError(
            f"this campaign was written by a newer voyage ({written or 'unknown version'}, "
            f"with changes this {ours} does not know: {', '.join(unknown[:3])}): "
            f"upgrade voyage to open {info.path}"
        )


def damage(info: FileInfo, needed: list[str]) -> str | None:
    """The first thing that stops this campaign from being used, or None."""
    for table in needed:
        if table not in info.tables:
            return f"table {table} is missing"
    if not info.has_campaign_row:
        return "the campaign row (name, seed, clock, dice state) is gone"
    return None


def damaged(path: Path, what: str) -> CampaignError:
    return CampaignError(f"{path} is damaged: {what}; " + RECOVER.format(path=path))


def stamp(db: Database, applied: int, created: bool = False) -> None:
    """Record the schema version and this voyage as the file's last writer."""
    rows = {"format": "voyage campaign", "written_by": __version__, "schema": str(applied)}
    if created:
        rows["created_by"] = __version__
        rows["created"] = datetime.now(UTC).isoformat(timespec="seconds")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {int(applied)}")
    db.conn.executemany(
        f"INSERT INTO {META_TABLE} (key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        list(rows.items()),
    )


def needs_stamp(info: FileInfo, applied: int) -> bool:
    return (
        info.written_by != __version__
        or info.user_version != applied
        or info.application_id != APPLICATION_ID
    )


def path_problem(resolved: Path) -> str | None:
    """Why ``resolved`` cannot be a campaign file ("does not exist", "is a folder", "is a
    device, not a regular file"), or None for a regular file. Never opens it, so a pipe
    cannot block."""
    mode = file_mode(resolved)
    if mode is None:
        return "does not exist"
    if stat.S_ISDIR(mode):
        return "is a folder"
    if not stat.S_ISREG(mode):
        return f"is {kind_of_file(mode)}, not a regular file"
    return None


def check_path(resolved: Path) -> None:
    """Refuse in one line what cannot be a campaign file: a folder, a device or a pipe
    (``/dev/null``), or no file at all (every command that opens one says the same)."""
    problem = path_problem(resolved)
    if problem == "is a folder":
        raise CampaignError(f"{resolved} is a folder: point --db at a campaign file in it")
    if problem == "does not exist":
        raise CampaignError(
            f"no campaign at {resolved}: run `voyage init` there first, or point --db "
            "(or VOYAGE_DB) at your campaign file"
        )
    if problem is not None:  # /dev/null, a FIFO
        raise CampaignError(
            f"{resolved} is not a file (a device or a pipe), not a voyage campaign: point "
            "--db (or VOYAGE_DB) at your campaign file"
        )


# ----------------------------------------------------------------------------- making one


def clear_stale_builds(path: Path) -> None:
    """Remove what a killed ``voyage init`` for ``path`` left (its temporary file)."""
    clear_stale(path, BUILD_SUFFIX)


def build_atomically(path: Path, populate: Callable[[Database], None]) -> None:
    """Make the campaign file ``path`` whole or not at all.

    ``populate`` fills a fresh database built under a temporary name beside ``path``; only
    when it has returned and the file is on disk is it linked to ``path`` (a link, not a
    rename, so a file that appeared at ``path`` meanwhile is never replaced). A kill at any
    moment leaves no file at ``path`` or a complete campaign.
    """

    folder = path.parent
    clear_stale_builds(path)
    temp = folder / f".{path.name}.{os.getpid()}{BUILD_SUFFIX}"
    leftovers = [temp] + [Path(f"{temp}{s}") for s in ("-journal", "-wal", "-shm")]
    for leftover in leftovers:
        leftover.unlink(missing_ok=True)
    try:
        try:
            conn = sqlite3.connect(str(temp))
        except sqlite3.OperationalError:
            raise CampaignError(
                f"cannot make {path}: the folder {folder} is read-only (or not yours)"
            ) from None
        # Nobody sees this file until it is complete and synced (below), so building it
        # needs neither a journal on disk nor a sync per step.
        conn.execute("PRAGMA journal_mode=MEMORY")
        conn.execute("PRAGMA synchronous=OFF")
        db = Database(conn, execute_plugins=False)
        try:
            populate(db)
            # WAL is a property of the file: set it now, so the campaign appears as it
            # will be used; closing checkpoints and removes the temporary WAL.
            conn.execute("PRAGMA journal_mode=WAL")
        finally:
            conn.close()
        fsync(temp)
        try:
            os.link(temp, path)
        except FileExistsError:
            raise CampaignError(
                f"{path} already exists: choose another --db path, or remove it"
            ) from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise
            # a file system without hard links: rename, having checked the name is free
            if path.exists():
                raise CampaignError(
                    f"{path} already exists: choose another --db path, or remove it"
                ) from None
            os.replace(temp, path)
        fsync(folder, directory=True)
    except (sqlite3.Error, OSError) as exc:
        known = explain(exc, path)
        if known is None:
            raise
        raise known from None
    finally:
        for leftover in leftovers:
            leftover.unlink(missing_ok=True)


# ----------------------------------------------------------------------------- reading


# ----------------------------------------------------------------------------- stored JSON
# The values a campaign stores as JSON, checked without opening it as a campaign: `voyage
# doctor` runs this check among its others, and :func:`explain` names the value behind a
# JSONDecodeError with it.

#: Columns that hold JSON, by table; columns whose default is '[]' or '{}' are added.
#: (campaign.rng_state is not JSON since the journal: _campaign_row restores it instead.)
JSON_COLUMNS: dict[str, list[str]] = {
    "settings": ["value"],
    "actions": ["snapshot"],
    "ships": ["traits", "equipment", "design"],
    "rolls": ["record"],
    "voyages": ["state"],
    "voyage_routes": ["route", "inshore"],  # JSON until m106 (ROUTE_TEXT_STEP), text since
    "events": ["rolls", "changes"],
    "hour_days": ["hours"],
    "fights": ["turn_order"],
    "fighters": ["damage"],
}
#: The schema step after which voyage_routes holds text, not JSON (voyage.map.routetext).
ROUTE_TEXT_STEP = "m106_route_text"
#: The most problems listed for one check.
MAX_PER_CHECK = 5


@dataclass
class Finding:
    """One problem: which check found it, where, and what is wrong."""

    check: str
    where: str
    problem: str

    def line(self) -> str:
        return f"{self.check}: {self.where}: {self.problem}"


def json_columns(
    conn: sqlite3.Connection, tables: set[str], applied: list[str]
) -> dict[str, list[str]]:
    """The columns of ``tables`` that hold JSON, by table (:data:`JSON_COLUMNS`)."""
    found: dict[str, list[str]] = {}
    for table in sorted(tables):
        if table.startswith("sqlite_"):
            continue
        if table == "voyage_routes" and ROUTE_TEXT_STEP in applied:
            continue  # text since m106 (voyage.map.routetext): _route_texts checks it
        info = list(conn.execute(f"PRAGMA table_info([{table}])"))
        named = set(JSON_COLUMNS.get(table, []))
        cols = [c[1] for c in info if c[1] in named or (c[4] or "").strip() in ("'[]'", "'{}'")]
        if cols:
            found[table] = cols
    return found


def _row_name(conn: sqlite3.Connection, table: str) -> str:
    """The column that names a row to a person: a text primary key, else rowid."""
    for col in conn.execute(f"PRAGMA table_info([{table}])"):
        if col[5] == 1 and str(col[2]).upper() == "TEXT":
            return f"[{col[1]}]"
    return "rowid"


def json_problems(
    conn: sqlite3.Connection, columns: dict[str, list[str]], out: list[Finding]
) -> int:
    """Add a Finding to ``out`` for each value of ``columns`` that is not valid JSON (at
    most :data:`MAX_PER_CHECK` a column); the number of rows looked at."""
    checked = 0
    for table, cols in columns.items():
        name = _row_name(conn, table)
        for col in cols:
            # an empty snapshot is none kept: the action is undone by journal (or pruned)
            empty_ok = "AND [snapshot] != '' " if (table, col) == ("actions", "snapshot") else ""
            bad = conn.execute(
                f"SELECT {name} FROM [{table}] WHERE [{col}] IS NOT NULL {empty_ok}"
                f"AND (typeof([{col}]) != 'text' OR json_valid([{col}]) = 0) LIMIT ?",
                [MAX_PER_CHECK],
            ).fetchall()
            checked += conn.execute(f"SELECT count(*) FROM [{table}]").fetchone()[0]
            label = "row" if name == "rowid" else name.strip("[]")
            for (key,) in bad:
                out.append(Finding("json", f"{table}.{col} of {label} {key!r}", "not valid JSON"))
    return checked


def json_findings(path: Path) -> list[Finding]:
    """Only the JSON check (for naming the value behind a JSONDecodeError in one line)."""
    info = inspect(path)
    conn = connect_readonly(path)
    try:
        found: list[Finding] = []
        json_problems(conn, json_columns(conn, info.tables, info.applied), found)
        return found
    finally:
        conn.close()


# ----------------------------------------------------------------------------- failures


def refusal(exc: sqlite3.DatabaseError, path: Path, doing: str) -> VoyageError:
    """The one line for a database error met while ``doing`` (opened, read) a campaign."""
    return explain(exc, path) or CampaignError(f"{path} cannot be {doing} ({exc})")


def says_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite finding no room to write (an error no command foresaw)."""
    return isinstance(exc, sqlite3.OperationalError) and "full" in str(exc)


def explain(exc: BaseException, path: Path | None) -> VoyageError | None:
    """One line for a failure of the file or the disk, or None if it is something else."""
    where = str(path) if path is not None else "the campaign file"
    if isinstance(exc, json.JSONDecodeError):
        # a value the campaign stores is not JSON: name it (a JSON error from anything
        # else is not the file's fault, and is not hidden)
        if path is None:
            return None
        try:
            found = json_findings(path)
        except (VoyageError, sqlite3.Error):
            return None
        return damaged(path, f"{found[0].where} is not valid JSON") if found else None
    if isinstance(exc, sqlite3.Error):
        message = str(exc)
        lower = message.lower()
        if "readonly" in lower or "read-only" in lower:
            return CampaignError(
                f"{where} is read-only (the file or its folder): nothing was changed; make "
                "it writable, or copy the campaign somewhere you can write"
            )
        if "disk is full" in lower or "database or disk is full" in lower:
            return CampaignError(
                f"the disk holding {where} is full: nothing was changed; free some space "
                "and run the command again"
            )
        if "disk i/o error" in lower:
            return CampaignError(
                f"the disk holding {where} failed to write (disk I/O error; is it full?): "
                "nothing was changed; free some space or check the disk, then try again"
            )
        if "unable to open" in lower:
            return CampaignError(
                f"{where} cannot be opened for writing (is its folder read-only?): nothing "
                "was changed"
            )
        if lower.startswith("no such table:"):
            return damaged(Path(where), f"table {message.split(':', 1)[1].strip()} is missing")
        if lower.startswith("no such column:") or "has no column named" in lower:
            return damaged(Path(where), f"a column is missing ({message})")
        if "malformed" in lower or "not a database" in lower or "corrupt" in lower:
            return damaged(Path(where), f"SQLite says: {message}")
        if "locked" in lower or "busy" in lower:
            return CampaignError(
                f"campaign {where} is busy: another voyage command is changing it; "
                "try again when it has finished"
            )
        return None
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return CampaignError(
            f"no space left on the disk for {exc.filename or where}: nothing more was "
            "written; free some space and try again"
        )
    if isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return CampaignError(f"{exc.filename or where} cannot be written ({exc.strerror})")
    return None


#: The campaign most recently opened in this process, for :func:`explain`'s messages.
LAST_OPENED: list[Path] = []


def remember(path: Path) -> None:
    LAST_OPENED[:] = [path]


def last_opened() -> Path | None:
    return LAST_OPENED[0] if LAST_OPENED else None
