"""House rules kept in the campaign file.

``voyage init --tables DIR`` validates the folder's override tables once and copies their
text into the campaign's ``house_tables`` table (migration m041); from then on the campaign
reads its rules only from itself. Moving the file keeps its rules, and editing or deleting
the folder cannot rewrite past play. Changing them mid-campaign is an explicit action
(:func:`load_folder`): validated, logged in the actions, undone by ``voyage undo``.

Campaigns made before this copied nothing (``campaign.tables`` named the folder): the first
open copies the folder in (:func:`adopt_folder`), or says in one line that it is gone.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.errors import CampaignError
from voyage.store.campaignfile import META_TABLE
from voyage.tables.rulebook import RuleBook, read_override_folder, rulebook_from_texts
from voyage.tables.world import check_calendar_limits

if TYPE_CHECKING:
    from sqlite_utils import Database

#: ``voyage_file`` key saying the campaign keeps its own tables (no folder is read).
IN_FILE_KEY = "house_tables"
IN_FILE = "in file"


def read_folder(folder: str | Path) -> tuple[dict[str, str], dict[str, str], RuleBook]:
    """A folder's override tables, validated: (texts, where each came from, the book)."""
    path = Path(folder).resolve()
    texts = read_override_folder(path)
    sources = {name: str(path / f"{name}.yaml") for name in texts}
    book = rulebook_from_texts(texts, sources)
    if "calendars" in texts:  # new tables: a calendar within its limits
        check_calendar_limits(book.calendars, sources["calendars"])
    return texts, sources, book


def store(db: Database, texts: dict[str, str], sources: dict[str, str], clock: int) -> None:
    """Make ``texts`` the campaign's house tables (all others built-in)."""
    db.execute("DELETE FROM house_tables")
    db.conn.executemany(
        "INSERT INTO house_tables (name, text, source, loaded_clock) VALUES (?, ?, ?, ?)",
        [(name, texts[name], sources.get(name, ""), clock) for name in sorted(texts)],
    )
    mark_in_file(db)


def mark_in_file(db: Database) -> None:
    db.execute(
        f"INSERT INTO {META_TABLE} (key, value) VALUES (?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [IN_FILE_KEY, IN_FILE],
    )


def stored(db: Database) -> list[dict[str, Any]]:
    """The campaign's house tables: name, text, source, loaded_clock; sorted by name."""
    return [dict(r) for r in db.query("SELECT * FROM house_tables ORDER BY name")]


def _in_file(db: Database) -> bool:
    row = db.execute(f"SELECT value FROM {META_TABLE} WHERE key = ?", [IN_FILE_KEY]).fetchone()
    return bool(row and row[0] == IN_FILE)


def _old_folder(camp_path: Path, folder: str) -> Path:
    path = Path(folder)
    return path if path.is_absolute() else (camp_path.parent / path).resolve()


def campaign_rulebook(db: Database, camp_path: Path) -> RuleBook:
    """The rule book of the campaign at ``camp_path``: built-in tables, replaced by the
    ones it keeps."""
    if not _in_file(db):
        row = db.execute("SELECT tables FROM campaign WHERE id = 1").fetchone()
        folder = row[0] if row else None
        if folder:
            old = _old_folder(camp_path, folder)
            if not old.is_dir():
                raise CampaignError(
                    f"{camp_path} was made with the house rules in {old}, which is gone: put "
                    "the folder back and run the command again (the campaign then keeps its "
                    "own copy), or `voyage tables load DIR` with a copy of those tables"
                )
            # a read-only campaign from before m041 that could not take its copy yet
            texts, sources, book = read_folder(old)
            return book
    rows = stored(db)
    texts = {r["name"]: r["text"] for r in rows}
    origin = {r["name"]: f"{camp_path} (house table {r['name']}.yaml)" for r in rows}
    return rulebook_from_texts(texts, origin)


def adopt_folder(db: Database, camp_path: Path) -> None:
    """Copy an older campaign's override folder into it, once (nothing if it has none).

    A folder that is gone is left for :func:`campaign_rulebook` to report when the rules
    are needed, so the campaign can still be given new tables with ``voyage tables load``.
    """
    if _in_file(db):
        return
    row = db.execute("SELECT tables FROM campaign WHERE id = 1").fetchone()
    folder = row[0] if row else None
    texts: dict[str, str] = {}
    sources: dict[str, str] = {}
    if folder:
        old = _old_folder(camp_path, folder)
        if not old.is_dir():
            return
        texts, sources, _ = read_folder(old)
    clock_row = db.execute("SELECT clock FROM campaign WHERE id = 1").fetchone()
    try:
        with db.atomic():
            store(db, texts, sources, clock_row[0] if clock_row else 0)
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "locked" in str(exc):
            return  # read-only or busy: copied by the next command that can write
        raise


def relabel_ships(db: Database, book: RuleBook) -> None:
    """Each ship's class name beside its key, as the rule book ``book`` names it."""
    if "class_label" not in {c.name for c in db["ships"].columns}:  # type: ignore[union-attr]
        return
    for (key,) in db.execute("SELECT DISTINCT class FROM ships").fetchall():
        db.execute(
            "UPDATE ships SET class_label = ? WHERE class = ?", [class_label(book, key), key]
        )


def class_label(book: object, key: str) -> str:
    """A ship class's name in the rule book ("Fishing Boat" for ``fishing_boat``)."""
    if key == "built":
        return "Built boat"  # R80: a built boat's class (voyage.vessels.boatships.BUILT_CLASS)
    classes = getattr(book, "classes", {}) or {}
    return str(classes.get(key, {}).get("name") or key.replace("_", " ").capitalize())


def ship_labels(book: object, key: str) -> dict[str, str]:
    """The columns that name a new ship's keys in words (m191): her class's name."""
    return {"class_label": class_label(book, key)}
