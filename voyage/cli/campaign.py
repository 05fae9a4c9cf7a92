"""Campaign commands: init, settings, undo, history."""

from __future__ import annotations

import json

import click

from voyage.cli.common import (
    NAME,
    SEED,
    FilePath,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    open_campaign,
    read_campaign,
    table,
)


@click.command()
@db_option
@click.option("--name", type=NAME, default="New Campaign", show_default=True, help="Campaign name.")
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed for every roll of the campaign (R5), 0 to 4294967295; random if left out.",
)
@click.option(
    "--tables",
    "tables",
    type=FilePath(file_okay=False, exists=True),
    default=None,
    help="Folder of override rule tables (house rules): validated and copied into the "
    "campaign, which never reads the folder again.",
)
@click.option(
    "--start",
    default=None,
    metavar="DATE",
    help='Date of day 1: YYYY-MM-DD or DAY MONTH YEAR ("1 Highsun 1042"). '
    "Without it the campaign counts days (Day 3, 14:00).",
)
@click.option(
    "--calendar",
    "calendar_name",
    default=None,
    metavar="NAME",
    help="Calendar of the start date: gregorian (the default) or reckoning, or one of your "
    "own in FOLDER/calendars.yaml given with --tables FOLDER.",
)
@json_option
@handles_errors
def init(
    db_path: str,
    name: str,
    seed: int | None,
    tables: str | None,
    start: str | None,
    calendar_name: str | None,
    as_json: bool,
) -> None:
    """Make a new campaign database, with a calendar if you give a start date.

    Examples:

        voyage init --name "The Salt March" --seed 7

        voyage init --start 1492-06-01

        voyage init --start "1 Highsun 1042" --calendar reckoning
    """
    from pathlib import Path

    from voyage.store.campaign import create_campaign, resolve_path
    from voyage.tables.calendar import choose_calendar, format_time
    from voyage.tables.rulebook import load_rulebook

    path = resolve_path(db_path)
    tables_dir = str(Path(tables).resolve()) if tables else None
    # a bad date or calendar stops here, before any file is made
    book = load_rulebook(tables_dir)
    if tables_dir and (Path(tables_dir) / "calendars.yaml").is_file():
        from voyage.tables.world import check_calendar_limits

        check_calendar_limits(book.calendars, Path(tables_dir) / "calendars.yaml")
    calendar = choose_calendar(book, start, calendar_name)
    # the calendar is written inside the atomic build: the file appears with it or not at all
    camp = create_campaign(
        Path(path),
        name,
        seed,
        tables_dir,
        calendar=calendar,
    )
    house = [r["name"] for r in camp.house_tables()]
    info = {
        "name": camp.name,
        "seed": camp.seed,
        "db": str(path),
        "settings": camp.settings,
        "calendar": calendar.definition.key if calendar else None,
        "start": format_time(calendar, 0),
        "house_tables": house,
    }
    camp.close()
    if as_json:
        emit_json(info)
        return
    click.echo(f"Campaign {info['name']!r} made in {path} (seed {info['seed']}).")
    if calendar is not None:
        click.echo(f"Day 1 is {calendar.start_text()} ({calendar.definition.name} calendar).")
    if house:
        click.echo(f"House tables kept in the campaign: {', '.join(house)}.")


@click.command()
@db_option
@click.argument("key", required=False)
@click.argument("value", required=False)
@json_option
@handles_errors
def settings(db_path: str, key: str | None, value: str | None, as_json: bool) -> None:
    """Show the campaign's options (rulings marked "option"), or one, or change one.

    `voyage settings tables` shows which rule tables the campaign overrides (its house
    tables, kept in the campaign file; see `voyage tables`).

    Examples:

        voyage settings

        voyage settings crew_swimming

        voyage settings natural_rolls true

        voyage settings track_armor true

        voyage settings tables
    """
    if key == "tables" and value is None:
        from voyage.cli.tables import show_tables

        show_tables(db_path, as_json)
        return
    camp = open_campaign(db_path)
    options = camp.rulebook.options
    if key is not None and key not in options:  # "" too: it once showed them all
        from voyage.base.errors import VoyageError

        raise VoyageError(f"unknown setting {key!r}: use one of {', '.join(options)}")
    if key and value is not None:
        camp.set_setting(key, value)
    elif key:  # one setting, with what it does: the row of the list and its description
        options = {key: options[key]}
    values = camp.settings
    if as_json:
        emit_json(
            [
                {
                    "key": k,
                    "value": values[k],
                    "default": o["default"],
                    "ruling": o.get("ruling"),
                    "choices": o.get("choices"),
                    "range": o.get("range"),
                    "description": o["description"],
                }
                for k, o in options.items()
            ]
        )
        return
    rows = [
        [
            k,
            json.dumps(values[k]),
            json.dumps(o["default"]),
            o.get("ruling", ""),
            _choices(o["choices"]) if "choices" in o else "{} to {}".format(*o["range"]),
        ]
        for k, o in options.items()
    ]
    click.echo(table(rows, ["setting", "value", "default", "ruling", "choices"]))
    if key and value is None:
        click.echo(f"{options[key]['description']}")
        click.echo(f"Change it with `voyage settings {key} VALUE`.")


@click.command()
@db_option
@click.argument("count", type=Whole(1, 1_000_000), required=False)
@click.option(
    "--to",
    "to_action",
    type=Whole(1, 1_000_000_000),
    default=None,
    metavar="ACTION",
    help="Take back every action after ACTION (its number in `voyage history`), leaving "
    "the campaign just as it was when ACTION ended.",
)
@json_option
@handles_errors
def undo(db_path: str, count: int | None, to_action: int | None, as_json: bool) -> None:
    """Take back the last advance or referee action exactly, rolls and all.

    With COUNT, take back the last COUNT actions (the same as COUNT single undos, in one
    go: all of them or, if fewer can be undone, none). With --to ACTION, take back every
    action after ACTION. `voyage history` numbers the actions and shows which COUNT takes
    each back. With COUNT or --to, --json gives "undone" as a list, newest first.

    Examples:

        voyage undo

        voyage undo 3

        voyage undo --to 2
    """
    if count is not None and to_action is not None:
        from voyage.base.errors import VoyageError

        raise VoyageError("give COUNT or --to ACTION, not both")
    camp = open_campaign(db_path)
    if count is None and to_action is None:  # one action, printed as it always was
        act = camp.undo()
        if as_json:
            emit_json({"undone": act})
        else:
            click.echo(f"Undone: {act['kind']}: {act['summary']}")
        return
    acts = camp.undo_many(count or 0, after=to_action)
    if as_json:
        emit_json({"undone": acts})
        return
    for act in acts[:UNDO_LINES]:
        click.echo(f"Undone: {act['kind']}: {act['summary']}")
    if len(acts) > UNDO_LINES:
        click.echo(f"... and {len(acts) - UNDO_LINES} older actions (back to #{acts[-1]['id']}).")
    if len(acts) > 1:
        from voyage.store.calendarrow import campaign_calendar
        from voyage.tables.calendar import format_time

        when = format_time(campaign_calendar(camp), acts[-1]["clock"])
        click.echo(
            f"Undid {len(acts)} actions (#{acts[0]['id']} back to #{acts[-1]['id']}): "
            f"the campaign is at {when} again."
        )


#: the actions `voyage undo COUNT` names a line each (the rest are counted)
UNDO_LINES = 20


@click.command()
@db_option
@click.option(
    "--limit",
    type=Whole(1, 1_000_000),
    default=20,
    show_default=True,
    help="How many of the latest actions to list.",
)
@json_option
@handles_errors
def history(db_path: str, limit: int, as_json: bool) -> None:
    """List the campaign's actions, newest first: what `voyage undo` would take back.

    Each action shows its number, kind, summary, the campaign time when it was taken and
    the real time. Only the latest actions (setting undo_keep, default 1000) can still be
    undone; older ones stay listed, marked "no". The "undo N" column gives the N of
    `voyage undo N` that takes an action back (with every later one). Undone actions are
    gone from the list.

    Examples:

        voyage history

        voyage history --limit 100 --json
    """
    from voyage.store.calendarrow import campaign_calendar
    from voyage.tables.calendar import format_time

    camp = read_campaign(db_path)  # one moment, even while another terminal advances
    calendar = campaign_calendar(camp)
    rows = [{**a, "time": format_time(calendar, a["clock"])} for a in camp.history(limit)]
    # undo_count: the COUNT of `voyage undo COUNT` that takes the action back (the undoable
    # actions are always the latest ones)
    for n, a in enumerate(rows, 1):
        a["undo_count"] = n if a["undoable"] and (n == 1 or rows[n - 2]["undo_count"]) else None
    # the summary last and cut (a rescue's or a dive's ran to 200 characters and pushed the
    # other columns off a terminal), the real time to the minute: --json keeps them whole
    shown = [
        [
            a["id"],
            a["kind"],
            a["time"],
            _minute(a["at"]),
            a["undo_count"] or "no",
            _cut(a["summary"], HISTORY_SUMMARY),
        ]
        for a in rows
    ]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("No actions yet: this campaign has nothing to undo.")
        return
    click.echo(
        table(
            shown,
            ["#", "kind", "campaign time", "taken at (UTC)", "undo N", "summary"],
        )
    )
    if len(rows) > 1 and rows[1]["undo_count"]:
        click.echo(
            "`voyage undo N` takes back the actions down to the one marked N; "
            "`voyage undo --to #` every action after action #."
        )


#: the characters of an action's summary `voyage history` prints (its --json has them all)
HISTORY_SUMMARY = 80


def _cut(text: str, most: int) -> str:
    """``text`` cut at a word to ``most`` characters with an ellipsis, when longer."""
    if len(text) <= most:
        return text
    return text[: most - 1].rsplit(" ", 1)[0].rstrip(",;:") + "\u2026"


def _minute(stamp: str) -> str:
    """'2026-12-04T15:51:15+00:00' as '2026-12-04 15:51' (the time is UTC)."""
    return stamp[:16].replace("T", " ") if len(stamp) >= 16 and stamp[10:11] == "T" else stamp


def _choices(choices: list[object]) -> str:
    """The allowed values, a run of whole numbers shortened ("0 to 20")."""
    ints = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
    if len(ints) == len(choices) > 3 and ints == list(range(ints[0], ints[0] + len(ints))):
        return f"{ints[0]} to {ints[-1]}"
    return " | ".join(json.dumps(c) for c in choices)
