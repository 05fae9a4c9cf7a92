"""From a drawing tool's terrain names to voyage's map file, and back out to Worldographer.

Terrain names are mapped by a small table: the referee's own (``--terrain-map FILE``, YAML)
first, then the defaults below, tried in order; a name no rule knows is land, and the report
lists it. Towns become ports (R30 layout, neighbours from north clockwise), labels map
labels, notes and anything GM-only the referee's hex notes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from voyage.base.errors import MapError, TableError
from voyage.base.readlimits import load_yaml
from voyage.base.text import plural
from voyage.map import hexes as hexmap
from voyage.map.importers.model import ADDED_COLUMN, ImportedMap, Placed, plain_text
from voyage.map.importers.wxx import write_wxx
from voyage.map.seamap import SeaMap
from voyage.tables.checker import Checker
from voyage.tables.terrains import check_terrains

#: The map character each terrain a name can be mapped to is drawn with.
TARGETS = {
    "sea": "~",
    "coast": "~",  # coastal waters are worked out from the land beside them (R33)
    "land": "#",
    "port": "P",
    "reef": "%",
    "shoal": ":",
    "sandbank": ":",
    "rocky shallows": "r",
    "wreck": "x",
}
WATER_CHARS = frozenset("~P%:rx")
ROCKY_LEGEND = {"r": {"terrain": "shoal", "seabed": "rocky", "name": "rocky shallows"}}
#: The default rules, tried in order on a name's lower case: the shallows first.
DEFAULT_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("wreck",), "wreck"),
    (("reef",), "reef"),
    (("rocky shallow", "rocky shoal", "shallows rocky", "shoals rocky"), "rocky shallows"),
    (("shoal", "sandbar", "sand bar", "sandbank", "shallow"), "shoal"),
    (("water", "ocean", "sea", "lake"), "sea"),
)
#: A name that is a port or harbour as a whole word ("Port", "Sea Port", not "Transport").
PORT_NAME = re.compile(r"\b(?:port|harbou?r)s?\b")
DEFAULT_FUEL = {"price": 2}
#: The Worldographer terrain each of voyage's terrains is written as (read back by the rules).
EXPORT_NAMES = {
    "sea": "Water Sea",
    "port": "Water Sea",
    "reef": "Water Reef",
    "shoal": "Water Shoals",
    "rocky shallows": "Water Shoals Rocky",
    "wreck": "Water Wreck",
    "land": "Flat Grassland",
}


@dataclass
class TerrainMap:
    """The referee's terrain names (lower-cased) and the port fuel to give imported ports."""

    names: dict[str, str] = field(default_factory=dict)
    fuel: dict[str, Any] | None = field(default_factory=lambda: dict(DEFAULT_FUEL))

    def target(self, name: str) -> tuple[str, str]:
        """voyage's terrain for a tool's terrain name, and why: "yours", "default", "unknown"."""
        if name == ADDED_COLUMN:
            return "sea", "added"
        key = name.casefold()
        if key in self.names:
            return self.names[key], "yours"
        for words, target in DEFAULT_RULES[:4]:
            if any(word in key for word in words):
                return target, "default"
        if PORT_NAME.search(key):
            return "port", "default"
        for words, target in DEFAULT_RULES[4:]:
            if any(word in key for word in words):
                return target, "default"
        return "land", "unknown"


def terrain_map_from_table(table: dict[str, Any], under: TerrainMap | None = None) -> TerrainMap:
    """A checked terrain table (voyage.tables.terrains) over ``under`` (its names kept where
    the table does not name them; its port fuel unless the table gives one)."""
    out = TerrainMap(
        dict(under.names) if under else {},
        under.fuel if under else dict(DEFAULT_FUEL),
    )
    for name, target in (table.get("terrains") or {}).items():
        out.names[str(name).casefold()] = str(target)
    if "port_fuel" in table:
        out.fuel = dict(table["port_fuel"]) if table["port_fuel"] is not None else None
    return out


def read_terrain_map(data: bytes, source: str, under: TerrainMap | None = None) -> TerrainMap:
    """A terrain-map file (the terrain table's shape: ``terrains: {NAME: sea|coast|land|port|
    reef|shoal|sandbank|rocky shallows|wreck}`` and optionally ``port_fuel: {price: 2,
    stock: 600}`` or ``none``), over ``under``."""
    try:
        loaded = load_yaml(data.decode("utf-8-sig"), source=source, error=MapError)
    except UnicodeDecodeError as exc:
        raise MapError(
            f"{source}: not a readable YAML terrain map ({str(exc).splitlines()[0]})"
        ) from None
    try:
        table = check_terrains(loaded, Checker(Path(source)))
    except TableError as exc:
        raise MapError(str(exc)) from None
    return terrain_map_from_table(table, under)


@dataclass
class Converted:
    """voyage's map file for an imported map, and what the import did."""

    text: str
    report: list[str]


def to_map_file(found: ImportedMap, terrains: TerrainMap) -> Converted:
    """voyage's map file (YAML text) for ``found``, with the import report."""
    width, height = found.width, found.height
    counts = Counter(name for row in found.terrain for name in row)
    chosen = {name: terrains.target(name) for name in counts}
    grid = [[TARGETS[chosen[name][0]] for name in row] for row in found.terrain]
    report = [f"{found.tool} map {found.source}: {width}x{height} hexes", *found.report]
    for name in sorted(counts, key=lambda n: (-counts[n], n)):
        if name == ADDED_COLUMN:
            continue
        target, why = chosen[name]
        how = {"yours": "your terrain map", "default": "default", "unknown": "not recognised"}[why]
        report.append(f"  {name!r} -> {target}: {plural(counts[name], 'hex', 'hexes')} ({how})")
    unknown = sorted(n for n, (_, why) in chosen.items() if why == "unknown")
    if unknown:
        report.append(
            "made land because no rule knows them: "
            + ", ".join(repr(n) for n in unknown)
            + " (map them in the campaign's terrains table or with --terrain-map FILE)"
        )
    entries: dict[tuple[int, int], dict[str, Any]] = {}
    notes: dict[tuple[int, int], list[str]] = {}
    port_names: set[str] = set()

    def water(c: int, r: int) -> bool:
        return 0 <= c < width and 0 <= r < height and grid[r][c] in WATER_CHARS

    def touches_land(c: int, r: int) -> bool:
        return any(grid[rr][cc] == "#" for cc, rr in _around(c, r, width, height))

    def name_port(c: int, r: int, wanted: str) -> str:
        name = wanted
        if name.casefold() in port_names:
            name = f"{wanted} ({hexmap.hex_name(c + 1, r + 1)})"
        port_names.add(name.casefold())
        grid[r][c] = "P"
        entry = entries.setdefault((c, r), {})
        entry["port"] = name
        if terrains.fuel is not None:
            entry["fuel"] = dict(terrains.fuel)
        return name

    for town in found.towns:
        c, r = town.col, town.row
        where = hexmap.hex_name(c + 1, r + 1)
        wanted = town.text or f"{town.kind or 'Town'} {where}"
        if town.gm_only:
            notes.setdefault((c, r), []).append(f"{wanted} (GM-only town, not made a port)")
            report.append(f"{wanted} at {where} is GM-only: kept in the hex's notes, not a port")
            continue
        spot: tuple[int, int] | None = None
        if water(c, r):
            spot = (c, r) if touches_land(c, r) else None
        else:
            beside = [(cc, rr) for cc, rr in _around(c, r, width, height) if water(cc, rr)]
            open_sea = [(cc, rr) for cc, rr in beside if grid[rr][cc] == "~"]
            spot = (open_sea or beside)[0] if beside else None
        if spot is None or "port" in entries.get(spot, {}):
            entries.setdefault((c, r), {}).setdefault("labels", []).append(wanted)
            if spot:
                why = "already a port there"
            elif water(c, r):
                why = "on open water away from land (a port must touch land)"
            else:
                why = "no sea beside it"
            report.append(f"{wanted} at {where}: {why}, so it is a label")
            continue
        name = name_port(*spot, wanted)
        there = hexmap.hex_name(spot[0] + 1, spot[1] + 1)
        fuel = _fuel_words(terrains.fuel)
        if spot == (c, r):
            report.append(f"port {name} at {there} (a town on the water; {fuel})")
        else:
            report.append(f"port {name} at {there}, the sea beside the town at {where} ({fuel})")
    for r in range(height):
        for c in range(width):
            if grid[r][c] == "P" and "port" not in entries.get((c, r), {}):
                if touches_land(c, r):
                    name = name_port(c, r, f"Port {hexmap.hex_name(c + 1, r + 1)}")
                    report.append(f"port {name}: drawn as a port with no town name")
                else:
                    grid[r][c] = "~"
                    report.append(
                        f"hex {hexmap.hex_name(c + 1, r + 1)} is drawn as a port away from land: "
                        "made open sea (a port must touch land)"
                    )
    shown = 0
    for label in found.labels:
        at = (label.col, label.row)
        if label.gm_only:
            notes.setdefault(at, []).append(f"{label.text} (GM-only label)")
        else:
            entries.setdefault(at, {}).setdefault("labels", []).append(label.text)
            shown += 1
    for note in found.notes:
        text = f"{note.kind}: {note.text}" if note.kind and note.text else note.kind or note.text
        notes.setdefault((note.col, note.row), []).append(text)
    for c, r in sorted(found.gm_only):
        notes.setdefault((c, r), []).append(f"GM-only in {found.tool}")
    if shown or found.notes:
        report.append(f"{shown} label(s) made map labels, {len(found.notes)} note(s) kept as notes")
    hexes: dict[str, dict[str, Any]] = {}
    for r in range(height):
        for c in range(width):
            entry = dict(entries.get((c, r), {}))
            labels = entry.pop("labels", [])
            if labels:
                entry["label"] = "; ".join(dict.fromkeys(labels))
            if (c, r) in notes:
                entry["notes"] = "\n".join(notes[(c, r)])
            if entry:
                hexes[hexmap.hex_name(c + 1, r + 1)] = entry
    rows = ["".join(row) for row in grid]
    head: dict[str, Any] = {
        "name": found.name,
        "description": f"Imported from the {found.tool} map {found.source}.",
    }
    text = "# A voyage sea map (docs/maps.md), imported with `voyage map import`.\n"
    text += yaml.safe_dump(head, allow_unicode=True, sort_keys=False, width=1000)
    if any("r" in row for row in rows):
        text += yaml.safe_dump({"legend": ROCKY_LEGEND}, sort_keys=False)
    text += "rows: |\n" + "".join(f"  {row}\n" for row in rows)
    if hexes:
        text += yaml.safe_dump({"hexes": hexes}, allow_unicode=True, sort_keys=False, width=1000)
    return Converted(text, report)


def _around(c: int, r: int, width: int, height: int) -> list[tuple[int, int]]:
    """The 0-based neighbours on the map, from north clockwise (R30 layout)."""
    return [
        (cc - 1, rr - 1)
        for cc, rr in (
            hexmap.parse_hex(n) for n in hexmap.neighbours(hexmap.hex_name(c + 1, r + 1))
        )
        if cc <= width and rr <= height
    ]


def _fuel_words(fuel: dict[str, Any] | None) -> str:
    if fuel is None:
        return "sells no fuel"
    stock = f", {fuel['stock']} hlbs in stock" if fuel.get("stock") is not None else ", unlimited"
    return f"fuel {fuel['price']} a hlb{stock}"


def export_wxx(sea: SeaMap, tracks: Iterable[tuple[str, list[str]]] = ()) -> bytes:
    """The map's terrain, ports (as towns), labels and notes as a Worldographer map, with
    ``tracks`` (a name and the hexes sailed, CCRR) as path shapes."""
    terrain: list[list[str]] = []
    for r in range(1, sea.height + 1):
        row = []
        for c in range(1, sea.width + 1):
            kind = sea.terrain(hexmap.hex_name(c, r))
            if kind == "shoal" and sea.legend[sea.rows[r - 1][c - 1]].seabed == "rocky":
                kind = "rocky shallows"
            row.append(EXPORT_NAMES[kind])
        terrain.append(row)
    towns, labels, notes = [], [], []
    for name, entry in sea.entries.items():
        c, r = hexmap.parse_hex(name)
        if entry.get("port"):
            towns.append(Placed(c - 1, r - 1, entry["port"], kind="City"))
        if entry.get("label"):
            labels.append(Placed(c - 1, r - 1, entry["label"]))
        if entry.get("notes"):
            notes.append(Placed(c - 1, r - 1, plain_text(entry["notes"], multiline=True), True))
    paths = [
        (name, [(c - 1, r - 1) for c, r in (hexmap.parse_hex(h) for h in hexes)])
        for name, hexes in tracks
    ]
    return write_wxx(terrain, towns, labels, notes, paths)
