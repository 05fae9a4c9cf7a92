"""Worldographer maps (``.wxx``): gzip of UTF-16 XML with a byte-order mark.

The ``<tiles>`` element holds ``tilesWide`` ``<tilerow>`` elements, each one *column* of
``tilesHigh`` lines; a line is tab-separated: terrain index, elevation, icy, GM-only,
animals, then ``Z`` or six resource values, then an optional colour. ``<terrainmap>`` names
the indexes (``name<TAB>index`` pairs). Features, labels and notes are placed by
coordinates on an ideal hex 300 units across: hex (0, 0) is centred at (150, 150), columns
step 225 and odd columns (0-based) sit 150 lower. With ``hexOrientation="COLUMNS"`` that is
voyage's own layout (R30): column c, row r is hex (c + 1, r + 1).
"""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from voyage.base.errors import MapError
from voyage.base.readlimits import GZIP_MAGIC
from voyage.map import hexes as hexmap
from voyage.map.importers.model import ImportedMap, Placed, check_drawn_size, plain_text
from voyage.map.importers.source import unpack
from voyage.map.importers.xmlsafe import parse_xml

#: Feature types that are settlements: a town on the coast becomes a port.
TOWN_WORDS = ("city", "town", "village", "hamlet", "port", "harbor", "harbour", "capital",
              "settlement")  # fmt: skip
_FIELD_COUNTS = (6, 7, 11, 12)
ROWS_REFUSAL = (
    "{source}: Worldographer draws this map's hexes in rows (pointy-topped); voyage uses "
    "flat-topped hexes in columns, even columns half a hex lower (R30): make the map with "
    "Hex Orientation 'Columns Line Up' in Worldographer and import that"
)


def decode_text(data: bytes, source: str) -> str:
    """The XML text of a .wxx file's bytes: gunzipped, then UTF-16 of either byte order."""
    if not data.startswith(GZIP_MAGIC):
        raise MapError(
            f"{source}: not a Worldographer file (not gzip-compressed): save it again from "
            "Worldographer as .wxx"
        )
    raw = unpack(data, source)
    if raw.startswith(b"\xfe\xff"):
        codec, raw = "utf-16-be", raw[2:]
    elif raw.startswith(b"\xff\xfe"):
        codec, raw = "utf-16-le", raw[2:]
    elif raw[:2] == b"\x00<":
        codec = "utf-16-be"
    elif raw[:2] == b"<\x00":
        codec = "utf-16-le"
    else:
        raise MapError(
            f"{source}: the file inside the gzip is not UTF-16 text, so it is not a "
            "Worldographer map: save it again from Worldographer as .wxx"
        )
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        raise MapError(
            f"{source}: not valid UTF-16 at byte {exc.start}: the file is damaged; save it "
            "again from Worldographer"
        ) from None


def read_wxx(data: bytes, source: str, name: str) -> ImportedMap:
    """A Worldographer map in voyage's layout, or one MapError line."""
    root = parse_xml(decode_text(data, source), source, "Worldographer map")
    if root.tag != "map":
        raise MapError(f"{source}: not a Worldographer map (its XML starts <{root.tag}>)")
    orientation = root.get("hexOrientation", "COLUMNS")
    if orientation != "COLUMNS":
        raise MapError(ROWS_REFUSAL.format(source=source))
    names = _terrain_names(root.findtext("terrainmap") or "", source)
    tiles = root.find("tiles")
    if tiles is None:
        raise MapError(f"{source}: the Worldographer map has no <tiles>: save it again")
    wide, high = _size(tiles.get("tilesWide"), source), _size(tiles.get("tilesHigh"), source)
    columns = tiles.findall("tilerow")
    if len(columns) != wide:
        raise MapError(
            f"{source}: the map says it is {wide} hexes wide but holds {len(columns)} columns "
            "(<tilerow>): the file is damaged; save it again from Worldographer"
        )
    check_drawn_size(wide, high, source, "Worldographer")
    terrain = [[""] * wide for _ in range(high)]
    gm_only: set[tuple[int, int]] = set()
    for c, column in enumerate(columns):
        lines = [line for line in (column.text or "").splitlines() if line.strip()]
        if len(lines) != high:
            raise MapError(
                f"{source}: column {c + 1} holds {len(lines)} hexes, not the map's {high}: "
                "the file is damaged; save it again from Worldographer"
            )
        for r, line in enumerate(lines):
            fields = line.strip("\r\n").split("\t")
            where = hexmap.hex_name(c + 1, r + 1) if c < 999 and r < 999 else f"({c}, {r})"
            if len(fields) not in _FIELD_COUNTS or (len(fields) < 11 and fields[5] != "Z"):
                raise MapError(
                    f"{source}: hex {where} has {len(fields)} values where Worldographer "
                    "writes 6, 7, 11 or 12: the file is damaged; save it again"
                )
            try:
                index = int(fields[0])
            except ValueError:
                raise MapError(
                    f"{source}: hex {where}: terrain {fields[0]!r} is not a number: the file "
                    "is damaged; save it again from Worldographer"
                ) from None
            if index not in names:
                raise MapError(
                    f"{source}: hex {where}: terrain index {index} is not in the terrain map "
                    f"(it names {_index_span(names)}): the file is damaged; save it again"
                )
            terrain[r][c] = names[index]
            if fields[3].strip().lower() in ("1", "true"):
                gm_only.add((c, r))
    found = ImportedMap("Worldographer", source, name, terrain, gm_only=gm_only)
    _placements(root, found)
    return found


def _size(text: str | None, source: str) -> int:
    try:
        value = int(text or "")
    except ValueError:
        value = -1
    if value < 1:
        raise MapError(
            f"{source}: the map's size ({text!r}) is not a number of hexes: save it again"
        )
    return value


def _terrain_names(text: str, source: str) -> dict[int, str]:
    parts = text.strip("\r\n").split("\t") if text.strip() else []
    if len(parts) % 2:
        raise MapError(f"{source}: the terrain map is not name/number pairs: save it again")
    names: dict[int, str] = {}
    for name, number in zip(parts[::2], parts[1::2], strict=True):
        try:
            names[int(number)] = name.strip()
        except ValueError:
            raise MapError(
                f"{source}: the terrain map gives {name!r} the number {number!r}: save it again"
            ) from None
    return names


def _index_span(names: dict[int, str]) -> str:
    return f"{min(names)}-{max(names)}" if names else "none"


def hex_at(x: float, y: float) -> tuple[int, int]:
    """The 0-based column and row of the hex nearest to Worldographer coordinates."""
    best: tuple[float, int, int] | None = None
    guess = round((x - 150) / 225)
    for c in (guess - 1, guess, guess + 1):
        r = round((y - 150 - 150 * (c % 2)) / 300)
        cx, cy = 150 + 225 * c, 150 + 300 * r + 150 * (c % 2)
        d = (cx - x) ** 2 + (cy - y) ** 2
        if best is None or d < best[0]:
            best = (d, c, r)
    assert best is not None
    return best[1], best[2]


def centre(col: int, row: int) -> tuple[float, float]:
    """The Worldographer coordinates of a 0-based hex's centre."""
    return 150.0 + 225 * col, 150.0 + 300 * row + 150 * (col % 2)


def _location(element: ET.Element) -> tuple[int, int] | None:
    loc = element.find("location")
    x, y = (loc.get("x"), loc.get("y")) if loc is not None else (element.get("x"), element.get("y"))
    try:
        fx, fy = float(x or ""), float(y or "")
    except ValueError:
        return None
    # a point far off the map (or infinite, or not a number) is on no hex
    if not (abs(fx) < 1e12 and abs(fy) < 1e12):
        return None
    return hex_at(fx, fy)


def _gm(element: ET.Element) -> bool:
    return element.get("isGMOnly", "false").lower() == "true"


def _placements(root: ET.Element, found: ImportedMap) -> None:
    off = 0
    for feature in root.iterfind("features/feature"):
        at = _location(feature)
        label = feature.find("label")
        text = plain_text("".join(label.itertext())) if label is not None else ""
        kind = feature.get("type", "")
        if at is None or not _inside(at, found):
            off += 1
            continue
        gm = _gm(feature) or (label is not None and _gm(label))
        if any(word in kind.lower() for word in TOWN_WORDS):
            found.towns.append(Placed(*at, text, gm, kind))
        elif text:
            found.labels.append(Placed(*at, text, gm, kind))
    for label in root.iterfind("labels/label"):
        at, text = _location(label), plain_text("".join(label.itertext()))
        if at is None or not _inside(at, found):
            off += bool(text)
            continue
        if text:
            found.labels.append(Placed(*at, text, _gm(label)))
    for note in root.iterfind("notes/note"):
        at = _location(note)
        text = plain_text(note.findtext("notetext") or "", multiline=True)
        title = plain_text(note.get("title", ""))
        if at is None or not _inside(at, found):
            off += 1
            continue
        if text or title:
            found.notes.append(Placed(*at, text, _gm(note), title))
    if off:
        found.report.append(f"left out {off} feature(s), label(s) or note(s) placed off the map")
    shapes = len(root.findall("shapes/shape"))
    if shapes:
        found.report.append(f"left out {shapes} shape(s) (roads, rivers, borders): voyage has none")


def _inside(at: tuple[int, int], found: ImportedMap) -> bool:
    return 0 <= at[0] < found.width and 0 <= at[1] < found.height


# ----------------------------------------------------------------------------- writing


def write_wxx(
    terrain: list[list[str]],
    towns: Iterable[Placed],
    labels: Iterable[Placed],
    notes: Iterable[Placed],
    tracks: Iterable[tuple[str, list[tuple[int, int]]]] = (),
) -> bytes:
    """A Worldographer map (.wxx bytes) of a grid of terrain names in voyage's layout, with
    towns (features), labels and notes (GM-only when the Placed says so), and tracks (a
    name and the 0-based hexes sailed) as path shapes through the hex centres."""
    high, wide = len(terrain), len(terrain[0])
    order: dict[str, int] = {"Blank": 0}
    for row in terrain:
        for name in row:
            order.setdefault(name, len(order))
    root = ET.Element(
        "map",
        {
            "type": "WORLD",
            "version": "1.77",
            "lastViewLevel": "WORLD",
            "hexWidth": "46.18",
            "hexHeight": "40.0",
            "hexOrientation": "COLUMNS",
            "mapProjection": "FLAT",
            "showNotes": "true",
            "showGMOnly": "true",
            "showFeatureLabels": "true",
            "showGrid": "true",
            "showGridNumbers": "true",
        },
    )
    ET.SubElement(root, "terrainmap").text = "\t".join(f"{n}\t{i}" for n, i in order.items())
    tiles = ET.SubElement(
        root, "tiles", {"viewLevel": "WORLD", "tilesWide": str(wide), "tilesHigh": str(high)}
    )
    for c in range(wide):
        lines = (f"{order[terrain[r][c]]}\t0\t0\t0\t0\tZ" for r in range(high))
        ET.SubElement(tiles, "tilerow").text = "\n" + "\n".join(lines) + "\n"
    features = ET.SubElement(root, "features")
    for town in towns:
        feature = ET.SubElement(
            features,
            "feature",
            {"type": town.kind or "City", "mapLayer": "Features", "isGMOnly": _flag(town)},
        )
        ET.SubElement(feature, "location", _where(town))
        label = ET.SubElement(feature, "label", {"mapLayer": "Features", "style": "City",
                                                 "isGMOnly": _flag(town)})  # fmt: skip
        ET.SubElement(label, "location", _where(town) | {"scale": "25.0"}).tail = town.text
    label_block = ET.SubElement(root, "labels")
    for item in labels:
        label = ET.SubElement(label_block, "label", {"mapLayer": "Labels", "style": "Geography",
                                                     "isGMOnly": _flag(item)})  # fmt: skip
        ET.SubElement(label, "location", _where(item) | {"scale": "25.0"}).tail = item.text
    note_block = ET.SubElement(root, "notes")
    for note in notes:
        x, y = centre(note.col, note.row)
        element = ET.SubElement(
            note_block,
            "note",
            {"key": f"WORLD,{x},{y}", "viewLevel": "WORLD", "x": str(x), "y": str(y),
             "title": note.kind, "isGMOnly": _flag(note)},
        )  # fmt: skip
        ET.SubElement(element, "notetext").text = note.text
    shapes = ET.SubElement(root, "shapes")
    for name, hexes in tracks:
        # a path shape, one point per hex centre; the reader leaves shapes out
        shape = ET.SubElement(
            shapes,
            "shape",
            {"type": "Path", "isCurve": "false", "isGMOnly": "false", "mapLayer": "Tracks",
             "tags": name, "strokeColor": "0.8,0.1,0.1,1.0", "strokeWidth": "0.05",
             "highestViewLevel": "WORLD", "currentShapeViewLevel": "WORLD"},
        )  # fmt: skip
        for i, (col, down) in enumerate(hexes):
            x, y = centre(col, down)
            point = {"x": str(x), "y": str(y)}
            ET.SubElement(shape, "p", ({"type": "m"} if i == 0 else {}) | point)
    body = ET.tostring(root, encoding="unicode")
    text = "<?xml version='1.0' encoding='utf-16'?>\n" + body + "\n"
    return gzip.compress(b"\xfe\xff" + text.encode("utf-16-be"), mtime=0)


def _flag(item: Placed) -> str:
    return "true" if item.gm_only else "false"


def _where(item: Placed) -> dict[str, str]:
    x, y = centre(item.col, item.row)
    return {"viewLevel": "WORLD", "x": str(x), "y": str(y)}
