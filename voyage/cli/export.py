"""The export command: a voyage's log as Markdown, JSON, CSV or a PNG of its track."""

from __future__ import annotations

import click

from voyage.cli.common import (
    NUMBER,
    SHIP,
    STDOUT,
    TEXT_OUT,
    Choice,
    db_option,
    emit_json,
    handles_errors,
    json_option,
    read_campaign,
)

_FORMATS = ("md", "html", "json", "csv", "png")


@click.command()
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@click.option(
    "--voyage",
    "voyage_id",
    type=NUMBER,
    default=None,
    help="Voyage number (see `voyage log`); the ship's latest if left out.",
)
@click.option(
    "--format",
    "-f",
    "formats",
    type=Choice(_FORMATS),
    multiple=True,
    default=("md",),
    show_default=True,
    help="md (a log to share), html (the same as one self-contained page, the "
    "picture inside), json (everything, with a schema), csv (one row per "
    "ship-hour) or png (the track on the map). Repeat for several.",
)
@click.option(
    "--out",
    "out",
    type=TEXT_OUT,
    default=None,
    help="File to write, or - to print one text format (md, html, json, csv) "
    "instead. With several formats, each gets this name with its own "
    "suffix. Default: SHIP-voyage-N.FORMAT in the current folder.",
)
@click.option(
    "--for",
    "audience",
    type=Choice(["players", "referee"]),
    default=None,
    help="players (the default for md, html and csv): what happened, in the sea's "
    "words (no routine lines, no ruling codes, no dice); referee: every event, "
    "roll and ruling. JSON is the referee's whole record unless --for players "
    "is given.",
)
@click.option(
    "--rolls",
    type=Choice(["shown", "folded", "none"]),
    default=None,
    help="Markdown/HTML: show each event's rolls, fold them in <details>, or leave "
    "them out. Default: none for players, shown for the referee. JSON "
    "keeps every roll whatever this says (a note says so).",
)
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
@click.option(
    "--validate",
    "validate_json",
    is_flag=True,
    help="Check the JSON export against its shipped schema before writing it (with --format json).",
)
@json_option
@handles_errors
def export(
    db_path: str,
    ship_name: str,
    voyage_id: int | None,
    formats: tuple[str, ...],
    out: str | None,
    audience: str | None,
    rolls: str | None,
    force: bool,
    validate_json: bool,
    as_json: bool,
) -> None:
    """Write a ship's voyage log to a file: Markdown, HTML, JSON, CSV or PNG.

    Markdown, HTML and CSV are for players unless --for referee is given; JSON is the
    whole record, every roll kept (the referee's) unless --for players is given.

    Nothing is written but the files named (or the default names in the current
    folder), and an existing file is left alone unless --force is given. --out - prints
    one text export instead (Markdown, HTML, JSON or CSV), to pipe or redirect. The Markdown
    links the track picture when a PNG is exported with it. Each file is written whole,
    and all of them or none: an export that fails or is interrupted half-way leaves the
    files as they were (no half-written file, nothing to --force next time).

    Examples:

        voyage export "Sea Witch" --format md --format png

        voyage export "Sea Witch" -f html -f png --for referee

        voyage export "Sea Witch" --voyage 2 --format json --out witch.json --validate

        voyage export "Sea Witch" -f csv --out -
    """
    from voyage.outputs.export import load_voyage
    from voyage.outputs.export import sea_map_for as _sea_map
    from voyage.outputs.handouts import write_exports

    printed = None
    if out == STDOUT:  # before the campaign is read: a refusal costs nothing
        from voyage.outputs.exportstdout import printable_format

        printed = printable_format(formats, as_json=as_json)
    camp = read_campaign(db_path)
    try:
        log = load_voyage(camp, ship_name, voyage_id)
        # an HTML page carries the track picture inside it when there is a map
        sea_map = _sea_map(camp) if "png" in formats or "html" in formats else None
    finally:
        camp.close()
    # the JSON is the referee's whole record (R4) unless the players' one is asked for
    json_for = audience or "referee"
    audience = audience or "players"
    shown = rolls or ("none" if audience == "players" else "shown")
    untouched = [fmt for fmt in dict.fromkeys(formats) if fmt not in ("md", "html")]
    if rolls is not None and untouched:
        # the JSON is the whole record, validated by its schema: every roll stays (R4)
        click.echo(
            f"Note: --rolls applies to md and html only; {', '.join(untouched)} "
            f"{'is' if len(untouched) == 1 else 'are'} written whole"
            f"{', every roll kept (R4)' if 'json' in untouched and json_for == 'referee' else ''}.",
            err=True,
        )
    if printed is not None:  # `--out -`: the export itself to stdout, no file, no "Wrote"
        from voyage.outputs.exportstdout import export_text

        text = export_text(
            log,
            printed,
            rolls=shown,  # type: ignore[arg-type]
            sea_map=sea_map,
            validate_json=validate_json,
            audience=audience,
            json_for=json_for,
        )
        click.echo(text, nl=False)
        return
    from voyage.cli.progress import progress_bar
    from voyage.outputs.render import RENDER_STEPS

    with progress_bar(RENDER_STEPS, "Drawing", "png" in formats) as progress:
        paths = write_exports(
            log,
            formats,
            out,
            force=force,
            rolls=shown,  # type: ignore[arg-type]
            sea_map=sea_map,
            validate_json=validate_json,
            audience=audience,
            progress=progress,
            json_for=json_for,
        )
    if as_json:
        emit_json(
            {
                "ship": log.ship,
                "voyage": log.id,
                "files": {fmt: str(path) for fmt, path in paths.items()},
            }
        )
        return
    from voyage.base.voyagenames import voyage_name

    for fmt, path in paths.items():
        click.echo(f"Wrote {path} ({fmt}): {log.ship}, {voyage_name(log.id, log.nth)}.")
