"""Hexfriend saves (JSON): ``TerrainField.hexes`` keyed ``"q:r:s"``, cube coordinates.

A hex is ``{q, r, s, tile}``; a tile is ``{id, display, bgColor, tileset_id, ...}`` and a hex
with no tile is blank. ``raised`` says which columns of a flat-topped map sit higher: with
``odd`` the first column (0-based 0) is raised and the second lower, voyage's layout (R30);
with ``even`` (Hexfriend's default) the stagger is the other way round, and a column is added
on the left to keep every hex beside its neighbours. Saves from version 1 on are read (older
ones lack ``tileset_id`` and ``raised``; the tiles carry their names either way). Texts are
labels; an icon named for a settlement is a town, named by the text in its hex.
"""

from __future__ import annotations

import json
import math
from typing import Any

from voyage.base.errors import MapError
from voyage.map.importers.model import BLANK, ImportedMap, Placed, check_drawn_size, plain_text
from voyage.map.importers.wxx import TOWN_WORDS

#: A cube coordinate past every map a point can be on (a point further out is on no hex).
OFF_MAP = 10**9
#: The save version of the Hexfriend release voyage was checked against.
LATEST_SAVE_VERSION = 13
POINTY_REFUSAL = (
    "{source}: this Hexfriend map has pointy-topped hexes; voyage uses flat-topped hexes in "
    "columns, even columns half a hex lower (R30): in Hexfriend set the orientation to "
    "flat-top (Map settings) and save again"
)


def looks_like_hexfriend(data: Any) -> bool:
    return isinstance(data, dict) and "TerrainField" in data and "saveVersion" in data


def read_hexfriend(data: bytes, source: str, name: str) -> ImportedMap:
    """A Hexfriend save in voyage's layout, or one MapError line."""
    try:
        save = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MapError(f"{source}: not a Hexfriend save (not valid JSON: {exc})") from None
    if not looks_like_hexfriend(save):
        raise MapError(
            f"{source}: a JSON file, but not a Hexfriend save (no TerrainField and saveVersion): "
            "save the map from Hexfriend and import that"
        )
    version = save["saveVersion"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise MapError(f"{source}: Hexfriend saveVersion {version!r} is not a version number")
    field = save["TerrainField"]
    if not isinstance(field, dict) or not isinstance(field.get("hexes"), dict):
        raise MapError(f"{source}: the Hexfriend save has no hexes (TerrainField.hexes)")
    if field.get("orientation", "flatTop") != "flatTop":
        raise MapError(POINTY_REFUSAL.format(source=source))
    raised = field.get("raised", "even")
    if raised not in ("odd", "even"):
        raise MapError(f"{source}: TerrainField.raised is {raised!r}, not odd or even")
    displays = _tile_names(save.get("tilesets"))
    cells: dict[tuple[int, int], str] = {}
    for key, hex_ in field["hexes"].items():
        try:
            q, r = int(hex_["q"]), int(hex_["r"])
        except (TypeError, KeyError, ValueError, OverflowError):
            raise MapError(f"{source}: hex {key!r} has no whole q and r coordinates") from None
        cells[_offset(q, r, raised)] = _tile_name(hex_.get("tile"), displays)
    if not cells:
        raise MapError(f"{source}: the Hexfriend map has no hexes")
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    c0, r0 = min(cols), min(rows)
    check_drawn_size(max(cols) - c0 + 1, max(rows) - r0 + 1, source, "Hexfriend")
    terrain = [
        [cells.get((c, r), BLANK) for c in range(c0, max(cols) + 1)]
        for r in range(r0, max(rows) + 1)
    ]
    found = ImportedMap("Hexfriend", source, _title(save, name), terrain)
    if version > LATEST_SAVE_VERSION:
        found.report.append(
            f"Hexfriend save version {version} is newer than voyage knows ({LATEST_SAVE_VERSION}): "
            "check the result"
        )
    gap = _number(field.get("grid", {}).get("gap", 0) if isinstance(field.get("grid"), dict) else 0)
    width, height = _number(field.get("hexWidth", 50)), _number(field.get("hexHeight", 44))

    def placed(item: dict[str, Any]) -> tuple[int, int] | None:
        q, r = _world_to_cube(
            _number(item.get("x")), _number(item.get("y")), width + gap, height + gap
        )
        c, rr = _offset(q, r, raised)
        inside = 0 <= c - c0 < len(terrain[0]) and 0 <= rr - r0 < len(terrain)
        return (c - c0, rr - r0) if inside else None

    texts: dict[tuple[int, int], str] = {}
    for text in _items(save.get("texts")):
        words = plain_text(str(text.get("text", "")))
        at = placed(text)
        if words and at is not None:
            texts.setdefault(at, words)
            found.labels.append(Placed(*at, words))
    # an icon whose name is a settlement's (Town, City, Village …) is a town, named by the
    # text written in its hex if there is one
    for icon in _items(save.get("icons")):
        kind = plain_text(str(icon.get("display", "")))
        at = placed(icon)
        if at is None or not any(word in kind.lower() for word in TOWN_WORDS):
            continue
        name = texts.get(at, "")
        found.labels = [p for p in found.labels if (p.col, p.row, p.text) != (*at, name)]
        found.towns.append(Placed(*at, name, False, kind))
    # the stagger: which 0-based column of the new grid sits lower
    lower_parity = (0 if raised == "even" else 1) - c0
    if lower_parity % 2 == 0:
        found.shift_columns()
    return found


def _offset(q: int, r: int, raised: str) -> tuple[int, int]:
    """Hexfriend's own cube-to-offset conversion for flat-topped maps (0-based)."""
    if raised == "even":
        return q, r + (q + (q & 1)) // 2
    return q, r + (q - (q & 1)) // 2


def _world_to_cube(x: float, y: float, width: float, height: float) -> tuple[int, int]:
    """The cube q and r of a point on a flat-topped Hexfriend map (its own rounding)."""
    if width <= 0 or height <= 0:
        return 0, 0
    q = x / (width * 0.75)
    r = ((2 * y) / height - q) / 2
    if not (abs(q) < OFF_MAP and abs(r) < OFF_MAP):
        return OFF_MAP, 0  # far beyond any map: on no hex
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr


def _items(value: Any) -> list[dict[str, Any]]:
    """The objects of a save's list (texts, icons); anything else in it is skipped."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0.0
    return float(value)


def _tile_names(tilesets: Any) -> dict[tuple[str, str], str]:
    names: dict[tuple[str, str], str] = {}
    for tileset in tilesets if isinstance(tilesets, list) else []:
        if not isinstance(tileset, dict):
            continue
        for tile in tileset.get("tiles") or []:
            if isinstance(tile, dict) and tile.get("display"):
                names[(str(tileset.get("id")), str(tile.get("id")))] = str(tile["display"])
    return names


def _tile_name(tile: Any, displays: dict[tuple[str, str], str]) -> str:
    if not isinstance(tile, dict):
        return BLANK
    display = tile.get("display")
    if isinstance(display, str) and display.strip():
        return plain_text(display)
    key = (str(tile.get("tileset_id")), str(tile.get("id")))
    return displays.get(key) or plain_text(str(tile.get("id", BLANK))) or BLANK


def _title(save: dict[str, Any], name: str) -> str:
    title = save.get("title")
    return plain_text(title) if isinstance(title, str) and plain_text(title) else name
