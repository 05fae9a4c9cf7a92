"""`voyage export SHIP --out -`: one text export printed to standard output.

A Unix user reads ``-`` as standard output; it was a file called "-" in the current
folder. Only one text format can be printed: Markdown, HTML, JSON or CSV. A PNG, or
several formats at once, need files, and ``-`` is refused in one line naming the fix.
Nothing here goes through :mod:`voyage.base.atomicfile`: there is no file to put in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from voyage.outputs.csvexport import to_csv
from voyage.outputs.export import ExportError, RollsMode
from voyage.outputs.exportjson import json_text
from voyage.outputs.exportmd import to_markdown
from voyage.outputs.exportpicture import html_page

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap
    from voyage.outputs.export import VoyageLog

#: what ``--out -`` can print
TEXT_FORMATS = ("md", "html", "json", "csv")


def printable_format(formats: Sequence[str], *, as_json: bool = False) -> str:
    """The one text format ``--out -`` prints; ExportError naming the fix otherwise."""
    chosen = list(dict.fromkeys(formats))
    if len(chosen) > 1:
        raise ExportError(
            f"--out - prints one export, not {len(chosen)} ({', '.join(chosen)}): give "
            "one --format, or a file name with --out for several"
        )
    if chosen[0] not in TEXT_FORMATS:
        raise ExportError(
            f"a {chosen[0].upper()} picture cannot go to standard output: give a file "
            f"name, such as --out track.{chosen[0]}"
        )
    if as_json:
        raise ExportError(
            "--json and --out - would both print: leave out --json, or give a file name with --out"
        )
    return chosen[0]


def export_text(
    log: VoyageLog,
    fmt: str,
    *,
    rolls: RollsMode = "shown",
    sea_map: SeaMap | None = None,
    validate_json: bool = False,
    audience: str = "players",
    json_for: str = "referee",
) -> str:
    """The export in ``fmt`` as the file would hold it (an HTML page with the track drawn
    inside, as `voyage export -f html` writes it without a PNG beside it); the JSON for
    ``json_for`` (the whole record unless the players' is asked for)."""
    if validate_json and fmt != "json":
        raise ExportError("--validate checks the JSON export: add --format json")
    if fmt == "json":
        return json_text(log, check=validate_json, audience=json_for)
    if fmt == "csv":
        return to_csv(log, audience)
    text = to_markdown(log, rolls=rolls, picture=None, audience=audience)
    if fmt == "html":
        # a page printed has no folder of its own: the track is drawn in a scratch folder
        text = html_page(log, text, {"html": Path("-")}, sea_map)
    return text
