"""Weather commands: storm, list, clear (R32)."""

from __future__ import annotations

from typing import Any

import click

from .common import db_option, emit_json, handles_errors, json_option, open_campaign, table


@click.group()
def weather() -> None:
    """Put storms on the map, list them, clear them (R32).

    Example:

        voyage weather storm --around 1510 --radius 2 --hours 24
    """


def _hexes_text(hexes: list[str], limit: int = 8) -> str:
    shown = " ".join(hexes[:limit])
    return shown + (f" ... ({len(hexes)} hexes)" if len(hexes) > limit else "")


@weather.command("storm")
@db_option
@click.argument("hexes", nargs=-1, metavar="[CCRR]...")
@click.option("--around", default=None, metavar="HEX", help="Centre of a round storm.")
@click.option("--radius", type=click.IntRange(min=0), default=None, help="Hexes from --around.")
@click.option(
    "--hours", type=click.IntRange(min=1), required=True, help="How long it blows, from now."
)
@click.option("--note", default=None, help="A note kept with the storm.")
@json_option
@handles_errors
def storm(
    db_path: str,
    hexes: tuple[str, ...],
    around: str | None,
    radius: int | None,
    hours: int,
    note: str | None,
    as_json: bool,
) -> None:
    """Make hexes storm-tossed from the campaign's hour for some hours (R32).

    Ships there may capsize once per hex travelled or per 6 hours in the hex.

    Examples:

        voyage weather storm 0304 0305 --hours 12

        voyage weather storm --around 1010 --radius 2 --hours 24
    """
    from ..mapstore import add_storm
    from ..voyages import clock_text

    if not hexes and around is None:
        raise click.UsageError("name the hexes, or give --around HEX --radius N")
    camp = open_campaign(db_path)
    made = add_storm(camp, list(hexes), hours, around=around, radius=radius, note=note)
    if as_json:
        emit_json(made)
        return
    click.echo(
        f"Storm {made['storm']} over {_hexes_text(made['hexes'])} from "
        f"{clock_text(camp, made['start_hour'])} to {clock_text(camp, made['end_hour'])}."
    )


@weather.command("list")
@db_option
@json_option
@handles_errors
def list_command(db_path: str, as_json: bool) -> None:
    """List the storms: hexes, hours, and whether each is blowing now.

    Example:

        voyage weather list
    """
    from ..mapstore import list_storms
    from ..voyages import clock_text

    camp = open_campaign(db_path)
    storms = list_storms(camp)
    now = clock_text(camp, camp.clock)
    if as_json:
        for s in storms:
            s["start_time"] = clock_text(camp, s["start_hour"])
            s["end_time"] = clock_text(camp, s["end_hour"])
        emit_json({"hour": camp.clock, "time": now, "storms": storms})
        return
    if not storms:
        click.echo(f"No storms ({now}).")
        return
    rows: list[list[Any]] = [
        [
            s["storm"],
            s["status"],
            f"{clock_text(camp, s['start_hour'])} to {clock_text(camp, s['end_hour'])}",
            s["source"],
            _hexes_text(s["hexes"]),
            s["note"] or "",
        ]
        for s in storms
    ]
    click.echo(now)
    click.echo(table(rows, ["storm", "now", "blows", "source", "hexes", "note"]))


@weather.command("clear")
@db_option
@click.argument("storm_number", type=int, required=False, metavar="[STORM]")
@click.option("--all", "everything", is_flag=True, help="Clear every storm.")
@handles_errors
def clear(db_path: str, storm_number: int | None, everything: bool) -> None:
    """Clear one storm (its number from `voyage weather list`) or --all.

    Examples:

        voyage weather clear 2

        voyage weather clear --all
    """
    from ..mapstore import clear_storms

    if storm_number is not None and everything:
        raise click.UsageError("give a storm number or --all, not both")
    camp = open_campaign(db_path)
    removed = clear_storms(camp, storm_number, everything=everything)
    what = "all storms" if everything else f"storm {storm_number}"
    click.echo(f"Cleared {what} ({removed} hexes).")
