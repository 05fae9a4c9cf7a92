"""The referee's work on a campaign's house tables (`voyage tables`): a folder loaded as
one undoable action, the tables shown, and written out to a folder for editing.

The tables themselves, as the campaign keeps them, are voyage.store.housetables'.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from voyage.base.atomicfile import FileBatch
from voyage.base.errors import TableError
from voyage.base.paths import no_folder, tables_dir
from voyage.base.readlimits import check_writable
from voyage.store.campaigndb import Campaign
from voyage.store.housetables import read_folder
from voyage.store.mapstore import tables_fit_map
from voyage.tables.boatdesigns import sheet
from voyage.tables.rulebook import TABLE_NAMES, RuleBook, read_table_text


def check_fits(camp: Campaign, book: RuleBook, folder: Path) -> None:
    """New tables must still know every ship's class and traits and every stored setting."""
    for ship in camp.ships():
        if ship.design is not None:
            # R80: a built boat has no class table (class "built"); her design's body,
            # plant and parts must still be in boats.yaml (built already: limits not re-run)
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
    for key, raw in camp.setting_rows():
        option = book.options.get(key)
        value = json.loads(raw)
        if option is None or value not in option["choices"]:
            raise TableError(
                f"the tables in {folder} do not allow the campaign's setting "
                f"{key} = {raw} (options.yaml)"
            )


def load_folder(camp: Campaign, folder: str | Path) -> dict[str, Any]:
    """Make the tables in ``folder`` the campaign's house rules: one logged, undoable action.

    The folder is validated whole first; a bad table, or tables that no longer know a
    ship's class or trait, change nothing. Tables not in the folder go back to built-in.
    """
    path = Path(folder).resolve()
    texts, sources, book = read_folder(path)
    check_fits(camp, book, path)
    warnings = tables_fit_map(camp, book)  # R61 refuses here; R93 warns
    names = sorted(texts)
    summary = f"house tables from {path}: {', '.join(names) if names else 'none (built-in)'}"
    camp._book = book  # the action's roller reads the options of the new tables
    camp._settings = None
    try:
        with camp.action("tables", summary):
            camp.keep_house_tables(texts, sources, book)  # class labels follow (m191)
    except BaseException:
        camp._book = None
        camp._settings = None
        raise
    return {"folder": str(path), "tables": names, "warnings": warnings}


def overview(camp: Campaign) -> list[dict[str, Any]]:
    """Every rule table: whether the campaign overrides it, and from where."""
    rows = {r["name"]: r for r in camp.house_tables()}
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
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise TableError(f"{out} is a file: give a folder to write the tables into")
    if not out.parent.is_dir():
        raise TableError(no_folder(out.parent))
    texts = {r["name"]: r["text"] for r in camp.house_tables()}
    if every:
        for name in TABLE_NAMES:
            if name not in texts:
                texts[name] = read_table_text(tables_dir() / f"{name}.yaml")
    if not texts:
        raise TableError(
            "this campaign has no house tables (it uses the built-in ones): add --all to "
            "write every table as a starting point"
        )
    files = [out / f"{name}.yaml" for name in sorted(texts)]
    for file in files:  # a pipe or a device there would block the write or swallow it
        check_writable(file, "table file", TableError)
    in_the_way = [f for f in files if f.exists()]
    if in_the_way and not force:
        raise TableError(f"{in_the_way[0]} already exists: add --force to replace it")
    made = not out.exists()
    out.mkdir(exist_ok=True)
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
