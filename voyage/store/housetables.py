"""House rules kept in the campaign file (issue 13.2).

``voyage init --tables DIR`` validates the folder's override tables once and copies their
text into the campaign's ``house_tables`` table (migration m041); from then on the campaign
reads its rules only from itself. Moving the file keeps its rules, and editing or deleting
the folder cannot rewrite past play. Changing them mid-campaign is an explicit action
(:func:`load_folder`): validated, logged in the actions, undone by ``voyage undo``.

Campaigns made before this copied nothing (``campaign.tables`` named the folder): the first
open copies the folder in (:func:`adopt_folder`), or says in one line that it is gone.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.errors import CampaignError, TableError

# voyage.tables.rulebook (the YAML rule book) is imported where it is used: opening a campaign
# (`adopt_folder`) needs it only for an older campaign's folder (issue 14: undo's start-up).
from voyage.store.campaignfile import META_TABLE

if TYPE_CHECKING:
    from sqlite_utils import Database

    from voyage.store.campaign import Campaign
    from voyage.tables.rulebook import RuleBook

#: ``voyage_file`` key saying the campaign keeps its own tables (no folder is read).
IN_FILE_KEY = "house_tables"
IN_FILE = "in file"


def read_folder(folder: str | Path) -> tuple[dict[str, str], dict[str, str], RuleBook]:
    """A folder's override tables, validated: (texts, where each came from, the book)."""
    from voyage.tables.rulebook import read_override_folder, rulebook_from_texts

    path = Path(folder).resolve()
    texts = read_override_folder(path)
    sources = {name: str(path / f"{name}.yaml") for name in texts}
    book = rulebook_from_texts(texts, sources)
    if "calendars" in texts:  # new tables: a calendar within its limits
        from voyage.tables.world import check_calendar_limits

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


def campaign_rulebook(camp: Campaign) -> RuleBook:
    """The campaign's rule book: built-in tables, replaced by the ones it keeps."""
    from voyage.tables.rulebook import rulebook_from_texts

    db = camp.db
    if not _in_file(db):
        folder = camp.row["tables"]
        if folder:
            old = _old_folder(camp.path, folder)
            if not old.is_dir():
                raise CampaignError(
                    f"{camp.path} was made with the house rules in {old}, which is gone: put "
                    "the folder back and run the command again (the campaign then keeps its "
                    "own copy), or `voyage tables load DIR` with a copy of those tables"
                )
            # a read-only campaign from before m041 that could not take its copy yet
            texts, sources, book = read_folder(old)
            return book
    rows = stored(db)
    texts = {r["name"]: r["text"] for r in rows}
    origin = {r["name"]: f"{camp.path} (house table {r['name']}.yaml)" for r in rows}
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


def check_fits(camp: Campaign, book: RuleBook, folder: Path) -> None:
    """New tables must still know every ship's class and traits and every stored setting."""
    for ship in camp.ships():
        if ship.design is not None:
            # R80: a built boat has no class table (class "built"); her design's body,
            # plant and parts must still be in boats.yaml (built already: limits not re-run)
            from voyage.tables.boatdesigns import sheet

            try:
                sheet(ship.design, book.boats, check=False)
            except Exception as exc:  # a part the new boats.yaml lacks
                raise TableError(
                    f"the tables in {folder} do not fit {ship.name}: her design needs "
                    f"{exc} in boats.yaml (R80)"
                ) from None
            continue
        try:
            book.ship_class(ship.ship_class)
            for trait in ship.traits:
                book.trait(trait)
        except Exception as exc:  # a VoyageError naming the unknown class or trait
            raise TableError(f"the tables in {folder} do not fit {ship.name}: {exc}") from None
    for row in camp.db.query("SELECT key, value FROM settings"):
        option = book.options.get(row["key"])
        value = json.loads(row["value"])
        if option is None or value not in option["choices"]:
            raise TableError(
                f"the tables in {folder} do not allow the campaign's setting "
                f"{row['key']} = {row['value']} (options.yaml)"
            )


def load_folder(camp: Campaign, folder: str | Path) -> dict[str, Any]:
    """Make the tables in ``folder`` the campaign's house rules: one logged, undoable action.

    The folder is validated whole first; a bad table, or tables that no longer know a
    ship's class or trait, change nothing. Tables not in the folder go back to built-in.
    """
    path = Path(folder).resolve()
    texts, sources, book = read_folder(path)
    check_fits(camp, book, path)
    from voyage.store.mapstore import tables_fit_map

    warnings = tables_fit_map(camp, book)  # R61 refuses here; R93 warns
    names = sorted(texts)
    summary = f"house tables from {path}: {', '.join(names) if names else 'none (built-in)'}"
    camp._book = book  # the action's roller reads the options of the new tables
    camp._settings = None
    try:
        with camp.action("tables", summary):
            store(camp.db, texts, sources, camp.clock)
            relabel_ships(camp.db, book)  # ships.class_label follows the new names (m191)
    except BaseException:
        camp._book = None
        camp._settings = None
        raise
    return {"folder": str(path), "tables": names, "warnings": warnings}


def relabel_ships(db: Database, book: RuleBook) -> None:
    """Each ship's class name beside its key, as the rule book ``book`` names it."""
    from voyage.store.fkschema import class_label

    if "class_label" not in {c.name for c in db["ships"].columns}:  # type: ignore[union-attr]
        return
    for (key,) in db.execute("SELECT DISTINCT class FROM ships").fetchall():
        db.execute(
            "UPDATE ships SET class_label = ? WHERE class = ?", [class_label(book, key), key]
        )


def overview(camp: Campaign) -> list[dict[str, Any]]:
    """Every rule table: whether the campaign overrides it, and from where."""
    from voyage.tables.rulebook import TABLE_NAMES

    rows = {r["name"]: r for r in stored(camp.db)}
    out = []
    for name in TABLE_NAMES:
        row = rows.get(name)
        out.append(
            {
                "table": name,
                "overridden": row is not None,
                "source": row["source"] if row else "built-in",
                "loaded_clock": row["loaded_clock"] if row else None,
                "lines": len(row["text"].splitlines()) if row else None,
            }
        )
    return out


def export_tables(
    camp: Campaign, folder: str | Path, every: bool = False, force: bool = False
) -> list[Path]:
    """Write the campaign's house tables (``every``: all tables) to ``folder`` for editing.

    The folder is made if missing (its parent must exist); an existing file is left alone
    unless ``force``. Nothing is written if any file is in the way.
    """
    from voyage.base.paths import tables_dir
    from voyage.tables.rulebook import TABLE_NAMES

    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise TableError(f"{out} is a file: give a folder to write the tables into")
    if not out.parent.is_dir():
        from voyage.base.paths import no_folder

        raise TableError(no_folder(out.parent))
    texts = {r["name"]: r["text"] for r in stored(camp.db)}
    if every:
        for name in TABLE_NAMES:
            if name not in texts:
                texts[name] = (tables_dir() / f"{name}.yaml").read_text(encoding="utf-8")
    if not texts:
        raise TableError(
            "this campaign has no house tables (it uses the built-in ones): add --all to "
            "write every table as a starting point"
        )
    files = [out / f"{name}.yaml" for name in sorted(texts)]
    in_the_way = [f for f in files if f.exists()]
    if in_the_way and not force:
        raise TableError(f"{in_the_way[0]} already exists: add --force to replace it")
    made = not out.exists()
    out.mkdir(exist_ok=True)
    import contextlib

    from voyage.base.atomicfile import FileBatch

    # every file whole, and all of them or none (voyage.base.atomicfile): an interrupted write
    # leaves the folder as it was, so the next one needs no --force
    batch = FileBatch(force=force)
    try:
        batch.write_texts({f: texts[f.stem] for f in files}, TableError, newline=None)
    except BaseException:
        if made and not batch.written:
            with contextlib.suppress(OSError):
                out.rmdir()  # the folder this command made, left empty: gone again
        raise
    return files
