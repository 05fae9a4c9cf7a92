"""The calendar command: the campaign's date, season, dawn and dusk, and its months."""

from __future__ import annotations

import click

from voyage.cli.common import (
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
    table,
)


@click.command("calendar")
@db_option
@json_option
@handles_errors
def calendar_command(db_path: str, as_json: bool) -> None:
    """Show the campaign's date and time, season, dawn and dusk, and its calendar.

    A campaign keeps a calendar when it is made with a start date (`voyage init --start
    1492-06-01`, or `--start "1 Highsun 1042" --calendar reckoning`); without one it counts
    days, and dawn and dusk are 06:00 and 18:00.

    Example:

        voyage calendar
    """
    from voyage.store.calendarrow import campaign_calendar
    from voyage.tables.calendar import calendar_info

    camp = open_campaign(db_path)
    info = calendar_info(campaign_calendar(camp), camp.clock)
    if as_json:
        emit_json(info)
        return
    click.echo(
        f"{camp.name}: {info['time']} ({info['season']}; dawn {info['dawn']:02d}:00, "
        f"dusk {info['dusk']:02d}:00)"
    )
    cal = info["calendar"]
    if cal is None:
        click.echo("No calendar: the campaign counts days (`voyage init --start DATE` keeps one).")
        return
    click.echo(f"{cal['name']} calendar; day 1 was {cal['start']}.")
    seasons = cal["seasons"]
    rows = [
        [
            m["name"],
            m["short"],
            m["days"],
            m["season"],
            f"{seasons[m['season']]['dawn']:02d}:00",
            f"{seasons[m['season']]['dusk']:02d}:00",
        ]
        for m in cal["months"]
    ]
    click.echo(table(rows, ["month", "short", "days", "season", "dawn", "dusk"]))
    if cal["leap"]:
        from voyage.tables.calendar import leap_text

        year = campaign_calendar(camp).date_at(camp.clock)[0]  # type: ignore[union-attr]
        click.echo(leap_text(cal["leap"], year))
