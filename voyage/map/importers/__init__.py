"""Maps drawn in other tools, read into voyage's own map file (docs/maps.md, "Bring your own map").

One module per format, each a pure function from a file's bytes to an
:class:`~voyage.map.importers.model.ImportedMap` in voyage's layout (R30): :mod:`.wxx`
(Worldographer), :mod:`.hexfriend`, :mod:`.tiled`. :func:`detect_format` tells them apart by
content; :mod:`.convert` maps the terrain names and writes the map file; :mod:`.source` is the
one place a file is read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voyage.base.errors import MapError
from voyage.base.readlimits import GZIP_MAGIC
from voyage.map.importers.convert import (
    TerrainMap,
    export_wxx,
    read_terrain_map,
    terrain_map_from_table,
    to_map_file,
)
from voyage.map.importers.hexfriend import looks_like_hexfriend, read_hexfriend
from voyage.map.importers.model import ImportedMap
from voyage.map.importers.source import read_map_file
from voyage.map.importers.tiled import read_tiled
from voyage.map.importers.wxx import read_wxx
from voyage.map.seamap import SeaMap, parse_map

FORMATS = ("wxx", "hexfriend", "tiled")
__all__ = ["FORMATS", "Imported", "detect_format", "export_wxx", "import_file", "import_map"]


def detect_format(data: bytes) -> str | None:
    """``wxx``, ``hexfriend`` or ``tiled`` from a file's content (not its name), else None."""
    if data.startswith(GZIP_MAGIC):
        return "wxx"
    head = data[:4096]
    if head[:2] in (b"\xfe\xff", b"\xff\xfe") or head[:2] in (b"\x00<", b"<\x00"):
        return "wxx"  # UTF-16 XML outside its gzip: read_wxx says what is wrong
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    if text.startswith("{"):
        try:
            loaded = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError):
            return None
        return "hexfriend" if looks_like_hexfriend(loaded) else None
    if text.startswith("<"):
        if "hexOrientation" in text or "<terrainmap" in text:
            return "wxx"
        if "<map" in text and ("tiledversion" in text or "orientation=" in text):
            return "tiled"
    return None


def import_map(data: bytes, source: str, *, fmt: str | None = None) -> ImportedMap:
    """A drawing tool's map (bytes) in voyage's layout, or one MapError line."""
    fmt = fmt or detect_format(data)
    name = Path(source).stem or "imported sea"
    if fmt == "wxx":
        return read_wxx(data, source, name)
    if fmt == "hexfriend":
        return read_hexfriend(data, source, name)
    if fmt == "tiled":
        return read_tiled(data, source, name)
    if data.lstrip()[:1] == b"{":
        raise MapError(
            f"{source}: a JSON file, but not a Hexfriend save (no TerrainField and "
            "saveVersion): voyage imports Worldographer .wxx, Hexfriend saves and Tiled .tmx"
        )
    raise MapError(
        f"{source}: not a map voyage can import: it reads Worldographer .wxx, Hexfriend saves "
        "(.json) and hexagonal Tiled maps (.tmx)"
    )


@dataclass
class Imported:
    """An imported map: voyage's map file for it, that file parsed, and the report."""

    text: str
    sea: SeaMap
    report: list[str]


def import_file(
    path: str,
    *,
    terrain_map: str | None = None,
    window: str | None = None,
    table: dict[str, Any] | None = None,
) -> Imported:
    """Read, convert and check the map at ``path``; nothing is written. ``table`` is a
    campaign's terrain table; a ``terrain_map`` file goes over it."""
    data = read_map_file(path)
    terrains = terrain_map_from_table(table) if table else TerrainMap()
    if terrain_map:
        terrains = read_terrain_map(read_map_file(terrain_map), terrain_map, terrains)
    found = import_map(data, path)
    if window:
        found.window(window)
    found.check_size()
    converted = to_map_file(found, terrains)
    sea = parse_map(converted.text, path, new=True)
    return Imported(converted.text, sea, converted.report)


def is_importable(path: str) -> bool:
    """Whether the regular file at ``path`` is in one of the formats above (by content)."""
    target = Path(path)
    if not target.is_file():
        return False
    try:
        with open(target, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    if head.lstrip()[:1] == b"{":
        try:
            return detect_format(read_map_file(path)) is not None
        except MapError:
            return False
    found = detect_format(head)
    # UTF-16 text outside a gzip is no tool's map file: `map load` reads it as a map file
    return found is not None and (found != "wxx" or head.startswith(GZIP_MAGIC))
