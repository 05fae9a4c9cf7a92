"""Weather commands: forecast, show, reroll (R60-R63); the referee's storm, list, clear."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    HOURS,
    NOTE,
    NUMBER,
    RADIUS,
    Choice,
    NamedFile,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
    plural,
    read_campaign,
    table,
    whole_output,
)


@click.group()
def weather() -> None:
    """Weather: forecast, sea states, rerolls and storms placed by hand (R60-R63).

    Each region rolls its weather every day at 06:00 (R61); storm cells form, drift
    downwind and die out (R62). The referee may place, move, reroll or clear storms (R63).

    Examples:

        voyage weather forecast --days 7

        voyage weather storm --around 1510 --radius 2 --hours 24 --state major
    """


def _hexes_text(hexes: list[str], limit: int = 8) -> str:
    shown = " ".join(hexes[:limit])
    return shown + (f" ... ({len(hexes)} hexes)" if len(hexes) > limit else "")


@weather.command("storm")
@db_option
@click.argument("hexes", nargs=-1, metavar="[CCRR]...")
@click.option(
    "--around", default=None, metavar="HEX", help="Centre of a round storm (a hex or a port)."
)
@click.option("--radius", type=RADIUS, default=None, help="Hexes from --around (0 to 999).")
@click.option("--hours", type=HOURS, required=True, help="How long it blows, from now (1 to 8784).")
@click.option("--note", type=NOTE, default=None, help="A note kept with the storm.")
@click.option(
    "--state",
    type=Choice(["stormy", "major", "hurricane"]),
    default="stormy",
    show_default=True,
    help="Sea state (R60): stormy seas, major storm or hurricane.",
)
@click.option(
    "--moving",
    default=None,
    metavar="SIDE",
    help="Hex side it moves towards, one hex per --every hours: N NE SE S SW NW.",
)
@click.option(
    "--every",
    type=Whole(1, 8784),
    default=3,
    show_default=True,
    help="Hours per hex when --moving (1 to 8784).",
)
@json_option
@handles_errors
def storm(
    db_path: str,
    hexes: tuple[str, ...],
    around: str | None,
    radius: int | None,
    hours: int,
    note: str | None,
    state: str,
    moving: str | None,
    every: int,
    as_json: bool,
) -> None:
    """Make hexes storm-tossed from the campaign's hour for some hours (R32, R60).

    Ships there may capsize once per hex travelled or per 6 storm hours in the hex (a
    major storm: 3 hours and one Disadvantage; a hurricane: 1 hour and two, R60).

    Examples:

        voyage weather storm 0404 0405 --hours 12

        voyage weather storm --around 1010 --radius 2 --hours 24 --state major --moving SE
    """
    from voyage.store.calendarrow import clock_text
    from voyage.store.mapstore import add_storm

    if not hexes and around is None:
        raise click.UsageError("name the hexes, or give --around HEX --radius N")
    camp = open_campaign(db_path)
    from voyage.cli.hexarg import hex_or_port, hexes_or_ports

    made = add_storm(
        camp,
        list(hexes_or_ports(camp, hexes)),
        hours,
        around=hex_or_port(camp, around),
        radius=radius,
        note=note,
        state=state,
        moving=moving,
        every=every,
    )
    if as_json:
        emit_json(made)
        return
    from voyage.world.cells import STATE_WORDS

    moves = f", moving {made['moving']} a hex every {made['every']} h" if made["moving"] else ""
    click.echo(
        f"Storm {made['storm']} ({STATE_WORDS[made['state']]}{moves}) over "
        f"{_hexes_text(made['hexes'])} from {clock_text(camp, made['start_hour'])} to "
        f"{clock_text(camp, made['end_hour'])}."
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
    from voyage.store.calendarrow import clock_text
    from voyage.store.mapstore import list_storms

    camp = read_campaign(db_path)
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
            s["state"] + (f", moving {s['moving']}/{s['every']}h" if s["moving"] else ""),
            s["source"],
            _hexes_text(s["hexes"]),
            s["note"] or "",
        ]
        for s in storms
    ]
    click.echo(now)
    click.echo(table(rows, ["storm", "now", "blows", "sea state", "source", "hexes", "note"]))


@weather.command("clear")
@db_option
@click.argument("storm_number", type=NUMBER, required=False, metavar="[STORM]")
@click.option("--all", "everything", is_flag=True, help="Clear every storm.")
@handles_errors
def clear(db_path: str, storm_number: int | None, everything: bool) -> None:
    """Clear one storm (its number from `voyage weather list`) or --all.

    Examples:

        voyage weather clear 2

        voyage weather clear --all
    """
    from voyage.store.mapstore import clear_storms

    if storm_number is not None and everything:
        raise click.UsageError("give a storm number or --all, not both")
    camp = open_campaign(db_path)
    removed = clear_storms(camp, storm_number, everything=everything)
    what = "all storms" if everything else f"storm {storm_number}"
    click.echo(f"Cleared {what} ({plural(removed, 'hex', 'hexes')}).")


@weather.command("forecast")
@db_option
@click.option("--days", type=Whole(1, 366), default=7, show_default=True, help="Days ahead.")
@click.option(
    "--plot",
    "plot_path",
    type=NamedFile("a picture", "--plot week.png", dir_okay=False),
    default=None,
    help="Also draw the cells' tracks to this PNG (a file: not - for standard output).",
)
@json_option
@handles_errors
def forecast_command(db_path: str, days: int, plot_path: str | None, as_json: bool) -> None:
    """The weather of the coming days: each region's roll, the cells and their tracks.

    Weather is rolled from its own dice (R63), so what the forecast shows is what the
    advance will meet (unless the referee rerolls or places storms).

    Examples:

        voyage weather forecast --days 7

        voyage weather forecast --days 3 --plot week.png
    """
    from voyage.actions.weather import forecast, when_text

    camp = open_campaign(db_path)
    data = forecast(camp, days)
    if plot_path:
        from voyage.outputs.weatherplot import plot_tracks
        from voyage.store.mapstore import current_map, sea_states_for

        sea_map = current_map(camp)
        first = (data["days"][0]["day"] - 1) * 24
        cells = sea_states_for(camp, sea_map).cells_between(first, first + days * 24)
        plot_tracks(sea_map, cells, plot_path, f"{sea_map.name}: storm cells, {data['from']}")
    if as_json:
        emit_json(data)
        return
    click.echo(f"Weather from {data['from']} for {plural(days, 'day')}:")
    if not data["rolled_weather"]:
        click.echo("(rolled weather is off: `voyage settings rolled_weather true`)")
    rows: list[list[Any]] = []
    for day in data["days"]:
        for r in day["regions"]:
            roll = r["roll"]
            season = day["season"]
            if roll is not None and roll.get("season_row", season) != season:
                # R61: the climate's row, where the region reads the season as another
                # (the tropical south's summer is its dry row): the row the 2d6 is read on
                season = f"{season} ({roll['season_row']})"
            rows.append(
                [
                    day["date"],
                    season,
                    r["region"],
                    "" if roll is None else roll["roll"],
                    "" if roll is None else roll["text"],
                    r["worst_text"],
                ]
            )
    click.echo(table(rows, ["day", "season", "region", "2d6", "06:00 roll", "worst sea"]))
    if data["cells"]:
        click.echo("")
        click.echo("Cells and their tracks (the centre after each drift; - off the map):")
        for c in data["cells"]:
            centres = " ".join(p["centre"] or "-" for p in c["track"])
            every = (
                f"drifts {c['drift_to']} every {c['drift_every_hours']} h"
                if c["drift_every_hours"]
                else "stays put"
            )
            click.echo(
                f"  {c['cell']}: {c['sea_state']}, radius {c['radius']}, "
                f"{when_text(camp, c['start_hour'])} to {when_text(camp, c['end_hour'])}; "
                f"{every}: {centres}"
            )
    if plot_path:
        click.echo(f"Wrote {plot_path}.")


@weather.command("show")
@db_option
@click.option("--at", "when", default="now", help="When: now, 'day 3, 14:00', '14:00', '+6h'.")
@json_option
@handles_errors
@whole_output
def show_command(db_path: str, when: str, as_json: bool) -> None:
    """The sea at one hour: cells and storms blowing, and the hexes by sea state (R60).

    Examples:

        voyage weather show

        voyage weather show --at "day 3, 14:00" --json
    """
    from voyage.actions.weather import parse_when, show, when_text
    from voyage.store.calendarrow import campaign_calendar

    camp = open_campaign(db_path)
    data = show(camp, parse_when(when, camp.clock, campaign_calendar(camp)))
    if as_json:
        emit_json(data)
        return
    click.echo(f"{data['at']} ({data['season']})")
    from voyage.world.cells import ROLL_HOUR

    # R61: the day's weather is rolled at 06:00; before it, the roll is still to come
    to_come = data["hour"] % 24 < ROLL_HOUR
    label = "today's roll (at 06:00, to come)" if to_come else "today's roll"
    for name, roll in data["today"].items():
        click.echo(f"  {name}: {label}: {roll['text']}")
    for c in data["cells"]:
        where = c["centre"] or "off the map"
        click.echo(
            f"  cell {c['cell']}: {c['sea_state']} centred on {where}, radius {c['radius']}, "
            f"blows until {when_text(camp, c['end_hour'])}"
        )
    for st in data["storms"]:
        click.echo(f"  storm {st['storm']} (placed): {st['state']} over {_hexes_text(st['hexes'])}")
    counts = ", ".join(f"{len(v)} {k}" for k, v in data["hexes"].items() if v)
    click.echo(f"  storm-tossed hexes: {counts or 'none, the sea is calm'}")


@weather.command("reroll")
@db_option
@click.argument("day", type=Whole(1, 100_000))
@click.option("--region", default=None, help="Only this region (default: every region).")
@json_option
@handles_errors
def reroll_command(db_path: str, day: int, region: str | None, as_json: bool) -> None:
    """Roll a day's weather again (R63): logged, and undone by `voyage undo`.

    DAY is the day's number (day 1 is the campaign's first: `voyage calendar` tells
    today's date). Only a day whose 06:00 roll has come can be rerolled.

    Example:

        voyage weather reroll 3 --region south
    """
    from voyage.actions.weather import date_text, reroll

    camp = open_campaign(db_path)
    changed = reroll(camp, day, region)
    if as_json:
        emit_json(changed)
        return
    # the day as every time is written: "3 Jun 1492" in a campaign with a calendar
    when = date_text(camp, (day - 1) * 24)
    for c in changed:
        click.echo(f"{when}, {c['region']}: was {c['was']['text']}; now {c['now']['text']}.")
