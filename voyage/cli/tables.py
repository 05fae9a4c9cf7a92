"""House-rule tables kept in the campaign: show them, write them out, load new ones."""

from __future__ import annotations

import click

from voyage.cli.common import (
    FilePath,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
    read_campaign,
)


def show_tables(db_path: str, as_json: bool) -> None:
    """Print which rule tables the campaign overrides (shared with `voyage settings tables`)."""
    from voyage.actions.housetables import overview

    camp = read_campaign(db_path)
    rows = overview(camp)
    if as_json:
        emit_json(rows)
        return
    from voyage.cli.common import table

    click.echo(
        table(
            [
                [
                    r["table"],
                    "house" if r["overridden"] else "built-in",
                    "" if r["loaded_clock"] is None else r["loaded_clock"],
                    r["source"] if r["overridden"] else "",
                ]
                for r in rows
            ],
            ["table", "rules", "since hour", "copied from"],
        )
    )


@click.group()
def tables() -> None:
    """The campaign's house-rule tables: show, write out for editing, load new ones.

    The tables given to `voyage init --tables DIR` are copied into the campaign file, so a
    campaign keeps its rules when it is moved and editing the folder changes nothing.

    Example:

        voyage tables show
    """


@tables.command("show")
@db_option
@json_option
@handles_errors
def show(db_path: str, as_json: bool) -> None:
    """Show which rule tables the campaign overrides, and where each was copied from.

    Example:

        voyage tables show
    """
    show_tables(db_path, as_json)


@tables.command("export")
@db_option
@click.argument("folder", type=FilePath(file_okay=False))
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="Write every table, built-in ones too (a starting point for house rules).",
)
@click.option("--force", is_flag=True, help="Replace files that already exist.")
@json_option
@handles_errors
def export(db_path: str, folder: str, every: bool, force: bool, as_json: bool) -> None:
    """Write the campaign's house tables into FOLDER as YAML files, to edit them.

    Only FOLDER/NAME.yaml files are written (FOLDER is made if missing); nothing is
    written if one is in the way, unless --force. Load the edited folder back with
    `voyage tables load FOLDER`.

    Examples:

        voyage tables export house

        voyage tables export all-tables --all
    """
    from voyage.actions.housetables import export_tables

    camp = read_campaign(db_path)
    files = export_tables(camp, folder, every=every, force=force)
    if as_json:
        emit_json({"folder": folder, "files": [str(f) for f in files]})
        return
    for file in files:
        click.echo(f"Wrote {file}")


@tables.command("load")
@db_option
@click.argument("folder", type=FilePath(file_okay=False, exists=True))
@json_option
@handles_errors
def load(db_path: str, folder: str, as_json: bool) -> None:
    """Make the tables in FOLDER the campaign's house rules from now on (undoable).

    Every table in FOLDER is validated first, and must still know every ship's class and
    traits; a table not in FOLDER goes back to the built-in one (an empty folder means no
    house rules). The change is one action: `voyage undo` takes it back.

    Example:

        voyage tables load house
    """
    from voyage.actions.housetables import load_folder

    camp = open_campaign(db_path)
    done = load_folder(camp, folder)
    camp.close()
    if as_json:
        emit_json(done)
        return
    names = ", ".join(done["tables"]) or "none: the built-in tables"
    click.echo(f"House tables now {names} (from {done['folder']}); `voyage undo` takes it back.")
    for line in done["warnings"]:
        click.echo(line, err=True)
