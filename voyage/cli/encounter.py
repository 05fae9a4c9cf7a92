"""Encounter commands (R93, R94): check, list."""

from __future__ import annotations

from typing import Any

import click

from .common import db_option, emit_json, handles_errors, json_option, open_campaign, read_campaign


@click.group()
def encounter() -> None:
    """Encounters at sea: roll a check, list what ships have met (R93).

    Example:

        voyage encounter check "Sea Witch"
    """


@encounter.command("check")
@db_option
@click.argument("ship")
@click.option("--sure", is_flag=True, help="Something is met: skip the x-in-6, roll the table.")
@json_option
@handles_errors
def check(db_path: str, ship: str, sure: bool, as_json: bool) -> None:
    """Roll an encounter check for a ship where she is, with the campaign's dice (R93).

    The chance is the campaign's (`voyage settings`): 1-in-6, by night 2-in-6 near the
    coast; on an encounter the table of her terrain in tables/encounters.yaml says what
    she meets. Logged on her voyage; `voyage undo` takes it back.

    Examples:

        voyage encounter check "Sea Witch"

        voyage encounter check "Sea Witch" --sure
    """
    from ..encounters import check_by_hand
    from ..voyages import clock_text

    camp = open_campaign(db_path)
    result, where = check_by_hand(camp, ship, sure)
    if as_json:
        emit_json({**where, "time": clock_text(camp, where["clock"]), **result.to_dict()})
        return
    when = "night" if where["night"] else "day"
    click.echo(
        f"{where['ship']} at {where['hex']} ({where['terrain']}, {when}, "
        f"{clock_text(camp, where['clock'])}):"
    )
    for line in result.lines():
        click.echo(f"  {line}")


@encounter.command("list")
@db_option
@click.option("--ship", default=None, help="Only this ship's encounters.")
@json_option
@handles_errors
def list_command(db_path: str, ship: str | None, as_json: bool) -> None:
    """List every encounter ships have met, oldest first (R93).

    Example:

        voyage encounter list --ship "Sea Witch"
    """
    from ..encounters import encounter_rows
    from ..voyages import clock_text

    camp = read_campaign(db_path)
    rows = encounter_rows(camp, ship)
    for r in rows:
        r["time"] = clock_text(camp, r["clock"], r["minute"])
    if as_json:
        emit_json({"encounters": rows})
        return
    if not rows:
        click.echo("No encounters yet.")
        return
    from .common import table

    shown: list[list[Any]] = [[r["time"], r["ship"], r["hex"], r["kind"], r["text"]] for r in rows]
    click.echo(table(shown, ["time", "ship", "hex", "kind", "what"]))
