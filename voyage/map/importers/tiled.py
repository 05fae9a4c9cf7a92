"""Tiled hexagonal maps (``.tmx``): ``orientation="hexagonal"`` with a stagger axis and index.

``staggeraxis="x"`` staggers columns (flat-topped hexes); ``staggerindex="odd"`` puts the
odd columns (0-based) lower, voyage's layout (R30); ``even`` is the other way round and a
column is added on the left to keep every hex beside its neighbours. ``staggeraxis="y"``
(pointy-topped rows) is refused. The first tile layer is the terrain: CSV, or base64
(uncompressed, zlib or gzip); the top four bits of a tile id are flip flags, cleared. A tile's
terrain name is its type (``type=`` or ``class=``), else a ``type``, ``terrain`` or ``name``
property, else ``tileset name #id``; tile 0 is blank. Named objects of the object layers
are towns (a settlement type or class) or labels, on the hex nearest their point.
"""

from __future__ import annotations

import base64
import binascii
import struct
import xml.etree.ElementTree as ET

from voyage.base.errors import MapError
from voyage.map.importers.model import BLANK, ImportedMap, Placed, check_drawn_size, plain_text
from voyage.map.importers.source import unpack
from voyage.map.importers.wxx import TOWN_WORDS
from voyage.map.importers.xmlsafe import parse_xml

FLIP_BITS = 0xF0000000  # horizontal, vertical, diagonal (anti-diagonal), hexagonal 120°
ROWS_REFUSAL = (
    "{source}: this Tiled map staggers rows (staggeraxis y, pointy-topped hexes); voyage uses "
    "flat-topped hexes in columns, even columns half a hex lower (R30): make the map with "
    "Stagger Axis X in Tiled and import that"
)


def read_tiled(data: bytes, source: str, name: str) -> ImportedMap:
    """A hexagonal Tiled map in voyage's layout, or one MapError line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise MapError(f"{source}: a Tiled map is UTF-8 text; this file is not") from None
    root = parse_xml(text, source, "Tiled map")
    if root.tag != "map":
        raise MapError(f"{source}: not a Tiled map (its XML starts <{root.tag}>)")
    orientation = root.get("orientation")
    if orientation != "hexagonal":
        raise MapError(
            f"{source}: a {orientation} Tiled map: voyage imports hexagonal maps only "
            "(Map > Map Properties > Orientation: Hexagonal)"
        )
    if root.get("staggeraxis", "y") != "x":
        raise MapError(ROWS_REFUSAL.format(source=source))
    index = root.get("staggerindex", "odd")
    if root.get("infinite") == "1":
        raise MapError(
            f"{source}: an infinite Tiled map: uncheck Infinite in Map Properties and save again"
        )
    names, tilesets = _tile_names(root, source)
    layers = root.findall("layer")
    if not layers:
        raise MapError(f"{source}: the Tiled map has no tile layer")
    layer = layers[0]
    width, height = _whole(layer.get("width"), source), _whole(layer.get("height"), source)
    check_drawn_size(width, height, source, "Tiled")
    gids = _layer_gids(layer, width * height, source)
    terrain: list[list[str]] = []
    for r in range(height):
        row = []
        for c in range(width):
            gid = gids[r * width + c] & ~FLIP_BITS
            if gid and gid not in names:
                names[gid] = _numbered(tilesets, gid) or ""
            if gid and not names[gid]:
                raise MapError(
                    f"{source}: hex at column {c + 1}, row {r + 1} uses tile {gid}, which no "
                    "tileset in the map holds: the file is damaged; save it again"
                )
            row.append(names[gid] if gid else BLANK)
        terrain.append(row)
    found = ImportedMap("Tiled", source, name, terrain)
    if len(layers) > 1:
        found.report.append(
            f"used the first tile layer ({layer.get('name', 'unnamed')}) as the terrain; "
            f"left out {len(layers) - 1} other layer(s)"
        )
    _objects(root, found, index)
    if index == "even":
        found.shift_columns()
    return found


def _whole(text: str | None, source: str) -> int:
    try:
        value = int(text or "")
    except ValueError:
        value = 0
    if value < 1:
        raise MapError(f"{source}: the layer size {text!r} is not a number of tiles: save it again")
    return value


def _numbered(tilesets: list[tuple[int, int, str]], gid: int) -> str | None:
    """``tileset name #id`` for a tile of a tileset that gives it no type, else None."""
    for first, count, label in tilesets:
        if first <= gid < first + count:
            return f"{label} #{gid - first}"
    return None


def _tile_names(root: ET.Element, source: str) -> tuple[dict[int, str], list[tuple[int, int, str]]]:
    """The typed tiles' names by tile id, and each tileset's (first id, tile count, name):
    an untyped tile is named from its tileset when it is met, so a tile count costs nothing."""
    names: dict[int, str] = {}
    tilesets: list[tuple[int, int, str]] = []
    for tileset in root.findall("tileset"):
        if tileset.get("source"):
            raise MapError(
                f"{source}: the tileset {tileset.get('source')} is a separate file: embed it in "
                "the map (Tiled: the tileset's Embed Tileset button) and save again"
            )
        first = _whole(tileset.get("firstgid"), source)
        try:
            count = max(0, int(tileset.get("tilecount") or 0))
        except ValueError:
            count = 0
        label = tileset.get("name", "tileset")
        tilesets.append((first, count, label))
        for tile in tileset.findall("tile"):
            try:
                tid = int(tile.get("id", ""))
            except ValueError:
                continue
            kind = tile.get("type") or tile.get("class")
            if not kind:
                for prop in tile.iterfind("properties/property"):
                    if prop.get("name", "").lower() in ("type", "terrain", "name"):
                        kind = prop.get("value") or prop.text
                        break
            names[first + tid] = (plain_text(kind) if kind else "") or f"{label} #{tid}"
    return names, tilesets


def _layer_gids(layer: ET.Element, count: int, source: str) -> list[int]:
    data = layer.find("data")
    if data is None:
        raise MapError(f"{source}: the tile layer has no data")
    if data.find("chunk") is not None or data.find("tile") is not None:
        raise MapError(
            f"{source}: the layer data is stored as XML tiles or chunks: save it with Tile Layer "
            "Format CSV or Base64 (Map Properties)"
        )
    encoding = data.get("encoding")
    body = (data.text or "").strip()
    if encoding == "csv":
        try:
            gids = [int(part) for part in body.replace("\n", "").split(",") if part.strip()]
        except ValueError:
            raise MapError(
                f"{source}: the layer's CSV holds something that is not a tile number"
            ) from None
    elif encoding == "base64":
        try:
            raw = base64.b64decode(body, validate=False)
        except binascii.Error:
            raise MapError(f"{source}: the layer's base64 data is damaged: save it again") from None
        compression = data.get("compression")
        if compression in ("zlib", "gzip"):
            raw = unpack(raw, source, kind=compression)
        elif compression:
            raise MapError(
                f"{source}: layer data compressed with {compression}: save it with zlib, gzip or "
                "no compression (Map Properties > Tile Layer Format)"
            )
        if len(raw) % 4:
            raise MapError(f"{source}: the layer data is not whole tile numbers: save it again")
        gids = list(struct.unpack(f"<{len(raw) // 4}I", raw))
    else:
        raise MapError(f"{source}: layer data encoded as {encoding!r}: save it as CSV or Base64")
    if len(gids) != count:
        raise MapError(
            f"{source}: the layer holds {len(gids)} tiles but is {count} tiles big: the file is "
            "damaged; save it again"
        )
    return gids


def _number(text: str | None) -> float | None:
    try:
        value = float(text or "")
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e12 else None


def _objects(root: ET.Element, found: ImportedMap, index: str) -> None:
    """Named objects of the object layers: a town (its type or class names a settlement) or a
    label, on the hex nearest the object's point; GM-only when its layer is hidden or it has
    a true ``gm_only`` property."""
    tile_w, tile_h = _number(root.get("tilewidth")), _number(root.get("tileheight"))
    side = _number(root.get("hexsidelength")) or 0.0
    if not tile_w or not tile_h or tile_w <= 0 or tile_h <= 0:
        return
    step = (tile_w + side) / 2  # one column to the next
    lower = 1 if index == "odd" else 0  # the parity of the columns half a hex lower
    off = 0
    for layer in root.iterfind("objectgroup"):
        hidden = layer.get("visible") == "0"
        for item in layer.iterfind("object"):
            text = plain_text(item.get("name", ""))
            x, y = _number(item.get("x")), _number(item.get("y"))
            if not text or x is None or y is None:
                continue
            c = round((x - tile_w / 2) / step)
            best = None
            for col in (c - 1, c, c + 1):
                row = round((y - tile_h / 2 - (tile_h / 2 if col % 2 == lower else 0)) / tile_h)
                cx = col * step + tile_w / 2
                cy = row * tile_h + tile_h / 2 + (tile_h / 2 if col % 2 == lower else 0)
                d = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or d < best[0]:
                    best = (d, col, row)
            assert best is not None
            _, col, row = best
            if not (0 <= col < found.width and 0 <= row < found.height):
                off += 1
                continue
            gm = hidden or any(
                p.get("name", "").lower() == "gm_only" and p.get("value", "").lower() == "true"
                for p in item.iterfind("properties/property")
            )
            kind = item.get("type") or item.get("class") or ""
            if any(word in kind.lower() for word in TOWN_WORDS):
                found.towns.append(Placed(col, row, text, gm, kind))
            else:
                found.labels.append(Placed(col, row, text, gm, kind))
    if off:
        found.report.append(f"left out {off} object(s) placed off the map")
