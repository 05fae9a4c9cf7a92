"""The parsed sea map, cached in the campaign keyed by the hash of the map's text.

Every command that needs the map used to read the stored YAML again and validate it (0.6 s
on a 999 x 999 map). The parsed map (its drawing, terrain and coastal cells, legend,
per-hex entries, currents and weather regions) is kept instead as one blob in the table
``map_cache`` (m070), keyed by the SHA-256 of the map text in ``sea_map``; a command reads
the text, hashes it and takes the parsed map from the row with that hash, parsing only when
there is none.

``map_cache`` is **derived data and stays out of undo**: a row is right for its hash
whatever happens to ``sea_map``, so ``voyage undo`` never needs to put it back. Undoing a
``map load`` changes the text, hence the hash, hence the row used (the previous map's row if
it is still kept, else one parse). The last :data:`KEEP` maps are kept.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import struct
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.errors import CampaignError
from voyage.map.cells import TERRAIN_CODE
from voyage.map.currents import Current
from voyage.map.regions import coded_region, region_planes
from voyage.map.seamap import Fuel, LegendEntry, SeaMap

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign

#: Bumped whenever the blob's layout or the parser's meaning changes: old rows are misses.
#: 2: the map's currents (R64). 3: its weather regions (R61). 4: the regions' hexes as
#: byte planes (voyage.map.regions.HexSet), not a list of names. 5: its depths (R83).
FORMAT = 5
#: Cached maps kept (the current map, and the one before it for an undo of a map load).
KEEP = 3
_HEADER = struct.Struct("<4I")
_INSERT = "INSERT OR REPLACE INTO map_cache (hash, format, blob) VALUES (?, ?, ?)"
_PRUNE = (
    "DELETE FROM map_cache WHERE rowid NOT IN "
    "(SELECT rowid FROM map_cache ORDER BY rowid DESC LIMIT ?)"
)


def map_hash(text: str) -> str:
    """The cache key of a map: SHA-256 of its text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def encode(sea_map: SeaMap) -> bytes:
    """``sea_map`` as a blob: a JSON header, the drawing, the coastal cells and the byte
    planes numbering its weather regions (R61, voyage.map.regions.HexSet).

    The terrain cells are not stored: they come back from the drawing and the legend with
    one ``str.translate``.
    """
    header = {
        "name": sea_map.name,
        "description": sea_map.description,
        "notes": sea_map.notes,
        "width": sea_map.width,
        "height": sea_map.height,
        "default_seabed": sea_map.default_seabed,
        "legend": [[e.char, e.terrain, e.seabed, e.name] for e in sea_map.legend.values()],
        "entries": {
            name: {
                key: ([value.price, value.stock] if isinstance(value, Fuel) else value)
                for key, value in entry.items()
            }
            for name, entry in sea_map.entries.items()
        },
        # R64: hex -> [side, knots as numerator, denominator] (knots are exact Fractions)
        "currents": {
            name: [c.side, c.knots.numerator, c.knots.denominator]
            for name, c in sea_map.currents.items()
        },
        # R61: the map's own regions in order (none: the whole map is one region, made when
        # asked); their hexes are the planes after the coast, their open sea is worked out
        "regions": [
            [name, r.climate, r.description, [list(pair) for pair in r.season_names]]
            for name, r in sea_map.regions.items()
        ],
        # R83: the depths block as rectangles and feet (never every hex of a trench)
        "depth_sets": [[[list(r) for r in rects], feet] for rects, feet in sea_map.depth_sets],
    }
    head = json.dumps(header, separators=(",", ":")).encode("utf-8")
    drawing = "".join(sea_map.rows).encode("utf-8")
    planes = region_planes(sea_map.regions, sea_map.width, sea_map.height)
    sizes = _HEADER.pack(len(head), len(drawing), len(sea_map.coastal_cells), len(planes))
    # Not compressed: every command reads the blob, and inflating a 999 x 999 map's took
    # 20 ms of CPU where reading its 2 MB takes 1 ms; a 200 x 200 map's is 80 KB.
    return sizes + head + drawing + sea_map.coastal_cells + b"".join(planes)


def decode(blob: bytes, text: str, source: str) -> SeaMap:
    """The :class:`SeaMap` a blob from :func:`encode` holds (``text`` and ``source`` as stored)."""
    data = memoryview(blob)
    n_head, n_drawing, n_coast, n_planes = _HEADER.unpack_from(data)
    at = _HEADER.size
    header: dict[str, Any] = json.loads(bytes(data[at : at + n_head]))
    at += n_head
    raw_drawing = bytes(data[at : at + n_drawing])
    drawing = str(raw_drawing, "utf-8")
    at += n_drawing
    coastal = bytes(data[at : at + n_coast])
    at += n_coast
    width, height = header["width"], header["height"]
    size = width * height
    planes = tuple(bytes(data[at + i * size : at + (i + 1) * size]) for i in range(n_planes))
    if len(drawing) != size or len(coastal) != size or len(data) != at + n_planes * size:
        raise ValueError("map cache blob does not match its size")
    entries: dict[str, dict[str, Any]] = {}
    # Ports mostly sell at a few prices: one Fuel (frozen) for each price and stock, of the
    # same types (1 and 1.0 are told apart), shared by the ports that have it (a
    # 999 x 999 map has a thousand ports)
    fuels: dict[tuple[Any, ...], Fuel] = {}
    for name, entry in header["entries"].items():
        if "fuel" in entry:
            price, stock = entry["fuel"]
            kind = (type(price), price, type(stock), stock)
            fuel = fuels.get(kind)
            if fuel is None:
                fuel = fuels[kind] = Fuel(price=price, stock=stock)
            entry["fuel"] = fuel
        entries[name] = entry
    legend = {c: LegendEntry(c, t, s, n) for c, t, s, n in header["legend"]}
    currents = {
        name: Current(side, Fraction(numerator, denominator))
        for name, (side, numerator, denominator) in header["currents"].items()
    }
    sea_map = SeaMap(
        name=header["name"],
        width=width,
        height=height,
        rows=[drawing[r * width : (r + 1) * width] for r in range(height)],
        legend=legend,
        default_seabed=header["default_seabed"],
        entries=entries,
        description=header["description"],
        notes=header["notes"],
        source=source,
        text=text,
        cells=_ascii_cells(raw_drawing, size, legend),
        coastal_cells=coastal,
        currents=currents,
        depth_sets=[(tuple(tuple(r) for r in rects), feet) for rects, feet in header["depth_sets"]],
    )
    sea_map.regions = {
        name: coded_region(sea_map, name, spec, planes, code)
        for code, (name, *spec) in enumerate(header["regions"], start=1)
    }
    return sea_map


def _ascii_cells(drawing: bytes, size: int, legend: dict[str, LegendEntry]) -> bytes:
    """The terrain codes of a drawing of one byte a hex (ASCII: its bytes are its
    characters), by one ``bytes.translate`` (what voyage.map.cells.terrain_cells makes from
    the rows, at a quarter of the cost); ``b""`` (worked out from the rows) otherwise."""
    if len(drawing) != size:
        return b""
    table = bytearray(range(256))  # a character not in the legend stays itself, as there
    for char, entry in legend.items():
        if len(char) == 1 and ord(char) < 128:
            table[ord(char)] = TERRAIN_CODE[entry.terrain]
    return drawing.translate(table)


def read(campaign: Campaign, key: str, text: str, source: str) -> SeaMap | None:
    """The cached parse of the map whose text hashes to ``key``, or None (a miss)."""
    db = campaign.db
    found = db.execute(
        "SELECT blob FROM map_cache WHERE hash = ? AND format = ?", [key, FORMAT]
    ).fetchone()
    if found is None:
        return None
    try:
        return decode(found[0], text, source)
    except (ValueError, KeyError, TypeError, struct.error):
        return None  # a damaged row is a miss: the map is parsed again and the row rewritten


def write(campaign: Campaign, key: str, sea_map: SeaMap) -> bool:
    """Keep the parse of ``sea_map`` under ``key``; False if the campaign could not take it.

    Inside an action the row is written in its transaction (a refused action leaves no row).
    Otherwise it is a short transaction of its own (on a second connection during a read
    command's one moment), and a busy or read-only campaign is simply not cached this time:
    the cache must never make a command fail, or wait more than a moment.
    """
    conn = campaign.db.conn
    blob = encode(sea_map)
    if conn.in_transaction and campaign.current_action is None:
        # A read command's one moment (campaigndb.begin_reading): writing on its own
        # connection would take the write lock and hold it to the command's end, keeping
        # other terminals waiting. A second connection writes and lets go at once.
        return _write_aside(campaign.path, key, blob)
    # Never wait long for the lock on the cache's account (a read command in its read
    # moment, while another terminal advances): a moment, then go on uncached.
    waited = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout = 100")
    try:
        with campaign.transaction():
            campaign.db.execute(_INSERT, [key, FORMAT, blob])
            campaign.db.execute(_PRUNE, [KEEP])
    except (CampaignError, sqlite3.OperationalError):
        return False
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(waited)}")
    return True


def _write_aside(path: Path, key: str, blob: bytes) -> bool:
    """Write the cache row on a connection of its own, committed at once."""
    try:
        other = sqlite3.connect(str(path), timeout=0.1)
        try:
            with other:  # one transaction, committed (or rolled back) here
                other.execute(_INSERT, [key, FORMAT, blob])
                other.execute(_PRUNE, [KEEP])
        finally:
            other.close()
    except sqlite3.Error:
        return False
    return True
