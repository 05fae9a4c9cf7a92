"""`voyage journal`: the campaign's story over a stretch of time, for players or referee."""

from __future__ import annotations

import click

from voyage.cli.common import (
    SHIP,
    STDOUT,
    TEXT_OUT,
    Choice,
    db_option,
    force_option,
    handles_errors,
    read_campaign,
    refuse_existing,
    whole_output,
)


@click.command()
@db_option
@click.option(
    "--since",
    default=None,
    metavar="WHEN",
    help="From when: 'day 3', '12 Jun 1492' (a date in the campaign's calendar; "
    "'12 Jun' is in its current year), '-12h' (back from now), '+0h' (now)... "
    "Default: a week before now.",
)
@click.option(
    "--until",
    "until",
    default=None,
    metavar="WHEN",
    help="Up to when (not included). Default: now.",
)
@click.option(
    "--for",
    "audience",
    type=Choice(["players", "referee"]),
    default="players",
    show_default=True,
    help="players: what happened, in the sea's words; referee: every roll and ruling.",
)
@click.option(
    "--ship",
    "ship",
    type=SHIP,
    multiple=True,
    metavar="SHIP",
    help="Only this ship's story (repeat for several): the players' own, and "
    "nothing of the other ships at sea. Default: every ship.",
)
@click.option(
    "-f",
    "--format",
    "fmt",
    type=Choice(["md", "html", "json"]),
    default="md",
    show_default=True,
    help="Markdown, one self-contained HTML page, or JSON.",
)
@click.option("--out", type=TEXT_OUT, default=None, help="File to write (default, or -: print it).")
@force_option
@handles_errors
@whole_output
def journal(
    db_path: str,
    since: str | None,
    until: str | None,
    audience: str,
    ship: tuple[str, ...],
    fmt: str,
    out: str | None,
    force: bool,
) -> None:
    """Every ship's story over a stretch of the campaign, day by day.

    What a referee posts after a session. Nothing in the campaign changes.

    Examples:

        voyage journal --since "day 1"

        voyage journal --since "day 2" --for referee -f html --out session-3.html

        voyage journal --since "day 1" --ship "Sea Witch" -f html --out for-players.html

    Every ship's story is in it unless --ship names the ships to tell: give the
    players' ship when the journal is for them, so they read nothing of the others.

    An existing --out file is kept unless --force is given; --out - prints the journal,
    as no --out does.
    """
    from pathlib import Path

    from voyage.actions.weather import parse_when
    from voyage.outputs.chronicle import JournalError, gather, to_markdown
    from voyage.store.calendarrow import campaign_calendar

    if out == STDOUT:  # `--out -` prints, as a Unix user expects (no file called "-")
        out = None
    if out is not None:
        from voyage.outputs.export import refuse_other_suffix

        refuse_other_suffix(out, fmt, JournalError)  # -f json --out j.html: refused
        refuse_existing(out, force)
    camp = read_campaign(db_path)
    cal = campaign_calendar(camp)
    now = camp.clock
    start = parse_when(since, now, cal, option="--since") if since else max(0, now - 7 * 24)
    # Without --until the journal runs to now (the clock), the referee's actions at this
    # hour included; its header said an hour past now when this was now + 1.
    end = parse_when(until, now, cal, option="--until") if until else now
    if until is None and start > end:  # no --until to blame: the journal tells the past
        from voyage.store.calendarrow import clock_text

        raise JournalError(
            f"--since {since!r} has not come yet (it is now "
            f"{clock_text(camp, now)}): give an earlier --since"
        )
    # archived ships too: a ship removed since may still be in the stretch told
    only = [camp.get_ship(name, archived=True).name for name in ship] or None
    record = gather(camp, start, end, audience, to_now=until is None, ships=only)
    if fmt == "json":
        from voyage.base.escape import json_text

        text = json_text(record.to_dict()) + "\n"  # as the exports write JSON
    else:
        text = to_markdown(record, cal)
        if fmt == "html":
            from voyage.outputs.htmlpage import markdown_to_html

            text = markdown_to_html(text, f"{record.campaign}: the journal")
    if out is None:
        click.echo(text, nl=False)
        return
    target = Path(out)
    if not target.parent.is_dir():
        from voyage.base.paths import no_folder

        raise JournalError(no_folder(target.parent))
    try:
        from voyage.base.atomicfile import write_text

        write_text(target, text, force=force)  # whole or not at all
    except OSError as exc:
        raise JournalError(f"cannot write {target}: {exc.strerror or exc}") from None
    click.echo(f"Wrote {target}: {sum(len(e) for _, e in record.days)} entries.")
