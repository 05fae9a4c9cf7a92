"""Writing a voyage's exports: each format the referee asked for to its file, every target
checked before anything is written and all put in place together (voyage.base.atomicfile).
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from voyage.base.atomicfile import FileBatch
from voyage.base.paths import no_folder
from voyage.outputs.csvexport import to_csv
from voyage.outputs.export import FORMATS, ExportError, RollsMode, VoyageLog, refuse_other_suffix
from voyage.outputs.exportjson import json_text
from voyage.outputs.exportmd import to_markdown
from voyage.outputs.exportpicture import html_page, to_png

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap


def default_stem(log: VoyageLog) -> str:
    """``sea-witch-voyage-3``: the ship's name made file-safe, and the voyage number."""
    slug = re.sub(r"[^a-z0-9]+", "-", log.ship.lower()).strip("-") or "ship"
    return f"{slug}-voyage-{log.id}"


def plan_paths(log: VoyageLog, formats: Sequence[str], out: str | Path | None) -> dict[str, Path]:
    """Where each format goes: ``out`` for one format (with the format's suffix added when
    it has none: ``--out handout`` writes ``handout.md``); for several, ``out`` with each
    format's suffix; by default ``<ship>-voyage-<N>.<format>`` in the current folder."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ExportError(f"unknown format {unknown[0]!r}: use {', '.join(FORMATS)}")
    if not formats:
        raise ExportError(f"give at least one format: {', '.join(FORMATS)}")
    chosen = list(dict.fromkeys(formats))
    if out is None:
        return {f: Path(f"{default_stem(log)}.{f}") for f in chosen}
    target = Path(out)
    if len(chosen) == 1:
        refuse_other_suffix(target, chosen[0], ExportError)
        if not target.suffix and not target.exists():  # a program opens it by its suffix
            # (a file or device that is there already, /dev/stdout, is the referee's choice)
            target = target.with_name(f"{target.name}.{chosen[0]}")
        return {chosen[0]: target}
    stem = target.with_suffix("") if target.suffix.lstrip(".") in FORMATS else target
    return {f: stem.with_name(f"{stem.name}.{f}") for f in chosen}


def write_exports(
    log: VoyageLog,
    formats: Sequence[str],
    out: str | Path | None = None,
    *,
    force: bool = False,
    rolls: RollsMode = "shown",
    sea_map: SeaMap | None = None,
    validate_json: bool = False,
    audience: str = "referee",
    progress: Callable[[int], None] | None = None,
    json_for: str = "referee",
) -> dict[str, Path]:
    """Write the voyage in each format; refuse to overwrite a file unless ``force``.
    ``progress`` is told the steps of drawing the picture (voyage.outputs.render.RENDER_STEPS).

    Every target is checked before anything is written, so a refusal leaves no file behind.
    The Markdown links the picture when a PNG is written with it or already lies beside it.
    With ``validate_json`` the JSON export is checked against its schema before anything is
    written (and there must be a JSON export to check). The JSON is for ``json_for`` (the
    referee's whole record unless the players' is asked for).
    """
    paths = plan_paths(log, formats, out)
    if validate_json and "json" not in paths:
        raise ExportError("--validate checks the JSON export: add --format json")
    for fmt, path in paths.items():
        if path.exists() and not force:
            raise ExportError(
                f"{path} already exists: add --force to overwrite it, or choose another --out"
            )
        if path.exists() and path.is_dir():
            raise ExportError(f"{path} is a folder: give a file name with --out")
        if not path.parent.is_dir():
            raise ExportError(no_folder(path.parent))
        if fmt == "png" and sea_map is None:
            raise ExportError("no map to draw on: load one with `voyage map load` first")
    texts: dict[str, str] = {}
    if "json" in paths:
        texts["json"] = json_text(
            log, check=validate_json, audience=json_for
        )  # before anything is written
    if "csv" in paths:
        texts["csv"] = to_csv(log, audience)
    for fmt in ("md", "html"):
        if fmt not in paths:
            continue
        picture = None
        page = paths[fmt]
        png = paths.get("png") or page.with_suffix(".png")
        if "png" in paths or png.is_file():
            picture = _relative(png, page.parent).replace(" ", "%20")
        texts[fmt] = to_markdown(log, rolls=rolls, picture=picture, audience=audience)

    with FileBatch(force=force) as files:  # every format whole, all put in place together
        if "png" in paths:
            assert sea_map is not None

            to_png(log, sea_map, paths["png"], progress, files)  # render_map: one line
        if "html" in paths:
            texts["html"] = html_page(log, texts["html"], paths, sea_map, files)
        files.write_texts({paths[f]: t for f, t in texts.items()}, ExportError, write_problem)
    return paths


def write_problem(exc: OSError) -> str:
    """What went wrong writing a file, in a referee's words."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the disk (free some, then export again)"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "not allowed to write there (choose another --out)"
    return exc.strerror or str(exc)


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()
