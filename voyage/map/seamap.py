"""Sea maps: the map file format, its validation, and the :class:`SeaMap` model.

A map file is YAML (read with PyYAML's safe loader only) with the map drawn as rows of
characters, one character a hex, and per-hex entries for what a character cannot say (port
names and fuel, narrow passages, seabed overrides, labels, notes). docs/maps.md describes
the format for referees. Every error is one line naming the file, the line and the column::

    map.yaml, line 14, column 9: unknown map character 'Q' (hex 0903): ...

Hex names and orientation follow R30 (see :mod:`voyage.map.hexes`). Seabeds follow R33.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from voyage.base.errors import MapError, VoyageRuleError
from voyage.base.paths import campaigns_dir
from voyage.base.readlimits import load_yaml, read_text
from voyage.map import hexes as hexmap
from voyage.map.cells import (
    LAND_CODE,
    SEA_TERRAINS,
    TERRAIN_CODE,
    TERRAINS,
    WATER_TABLE,
    coastal_cells,
    terrain_cells,
)
from voyage.map.currents import read_currents
from voyage.map.depths import depth_in_sets, read_depths
from voyage.map.mapreader import MAX_MAP_NUMBER, MapReader, kind_of, map_number, row_positions
from voyage.map.regions import default_regions, read_regions

# R33: the seabed decides the aground modifiers (R34) and whether a hazard can hurt the hull.
# Wreckage and ruins count alike (R34: +5); rocky, wreckage and ruins can damage a hull.
SEABEDS = ("sandy", "rocky", "wreckage", "ruins")
#: Largest fuel price, stock or depth a map may give (a runaway one is a typo, not a sea).
DAMAGING_SEABEDS = frozenset({"rocky", "wreckage", "ruins"})
# What a drawn feature says about the bottom under it (can be overridden per hex).
IMPLIED_SEABED = {"reef": "rocky", "shoal": "sandy", "wreck": "wreckage"}

TERRAIN_WORDS = {
    "sea": "open sea",
    "land": "land",
    "port": "port",
    "reef": "reef",
    "shoal": "shoal / sandbank",
    "wreck": "wrecks",
}

DEFAULT_LEGEND: dict[str, str] = {
    "~": "sea",
    "#": "land",
    "P": "port",
    "%": "reef",
    ":": "shoal",
    "x": "wreck",
}

TOP_KEYS: tuple[str, ...] = ("name", "description", "legend", "seabed", "rows", "hexes", "notes")
TOP_KEYS += ("currents",)  # R64
TOP_KEYS += ("regions", "region_rows")  # R61 weather regions (voyage.map.regions)
TOP_KEYS += ("depths",)  # R83 charted depths (voyage.map.depths)
HEX_KEYS = ("port", "fuel", "stores", "seabed", "narrow_passage", "label", "notes", "depth")
#: R103: a port's stock of stores, person-days of each (a store left out: unlimited)
STORES_KEYS = ("food", "fresh_water")
FUEL_KEYS = ("price", "stock")
LEGEND_KEYS = ("terrain", "seabed", "name")
MAX_SIDE = hexmap.MAX_INDEX


@dataclass(frozen=True)
class LegendEntry:
    """What a map character means: a terrain and, for water, the seabed it implies."""

    char: str
    terrain: str
    seabed: str | None = None
    name: str | None = None

    @property
    def description(self) -> str:
        """A few words for a printed legend: ``reef (rocky)``."""
        text = self.name or TERRAIN_WORDS[self.terrain]
        if self.seabed and self.terrain not in ("land", "port"):
            text += f" ({self.seabed})"
        return text


@dataclass(frozen=True)
class Fuel:
    """Fuel sold at a port: the price per hlb and, if limited, the hlbs in stock."""

    price: float
    stock: int | None = None


@dataclass(frozen=True)
class Hex:
    """Everything the map says about one hex."""

    name: str
    col: int
    row: int
    char: str
    terrain: str
    seabed: str | None
    coastal: bool
    port: str | None = None
    fuel: Fuel | None = None
    #: R103: the port's stock of stores in person-days ("food", "fresh_water"); a store
    #: not written (or no ``stores`` at all) is unlimited
    stores: dict[str, int] | None = None
    narrow_passage: bool = False
    label: str | None = None
    notes: str | None = None
    depth: float | None = None  # charted depth in feet (R65: anchoring needs <= 150 ft)

    @property
    def is_sea(self) -> bool:
        """Water a ship can be in (every terrain but land)."""
        return self.terrain in SEA_TERRAINS

    @property
    def fuel_price(self) -> float | None:
        """Price per hlb of fuel here, None where none is sold."""
        return self.fuel.price if self.fuel else None

    @property
    def inshore(self) -> bool:
        """R33: a hex where a ship can be within a mile of a coastline (coastal waters)."""
        return self.coastal or self.narrow_passage

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description with stable keys."""
        return {
            "hex": self.name,
            "terrain": self.terrain,
            "char": self.char,
            "seabed": self.seabed,
            "coastal": self.coastal,
            "sea": self.is_sea,
            "port": self.port,
            "fuel": None
            if self.fuel is None
            else {"price": self.fuel.price, "stock": self.fuel.stock},
            **({} if self.stores is None else {"stores": dict(self.stores)}),
            "narrow_passage": self.narrow_passage,
            "label": self.label,
            "notes": self.notes,
            "depth": self.depth,
        }


@dataclass
class SeaMap:
    """A validated sea map with fast lookups by hex name.

    Build one with :func:`load_map` or :func:`parse_map`; the constructor trusts its input.
    """

    name: str
    width: int
    height: int
    rows: list[str]
    legend: dict[str, LegendEntry]
    default_seabed: str
    entries: dict[str, dict[str, Any]]
    description: str = ""
    notes: str = ""
    source: str = "<map>"
    text: str = ""
    #: One byte per hex, row by row from 0101: the terrain's code (TERRAIN_CODE).
    cells: bytes = field(default=b"", repr=False)
    #: One byte per hex in the same order: 1 where a water hex touches land (R33).
    coastal_cells: bytes = field(default=b"", repr=False)
    _cache: dict[str, Hex] = field(default_factory=dict, repr=False)
    #: R64: hex -> voyage.map.currents.Current (the map's ``currents:`` block)
    currents: dict[str, Any] = field(default_factory=dict)
    _water: bytes = field(default=b"", repr=False)
    regions: dict[str, Any] = field(default_factory=dict)  #: R61, as the map names them
    depth_sets: list[Any] = field(default_factory=list)  #: R83 (voyage.map.depths.DepthSets)
    _default_regions: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def weather_regions(self) -> dict[str, Any]:
        """The weather regions (R61); without any, one temperate region, kept apart from
        ``regions`` (what the map says and the map cache stores)."""
        if self.regions:
            return self.regions
        if not self._default_regions:
            self._default_regions = default_regions(self)
        return self._default_regions

    def region_of(self, name: str) -> Any:
        """The weather region a hex is in (None for a hex in none, e.g. land)."""
        key = hexmap.canonical(name)
        for region in self.weather_regions().values():
            if key in region.hexes:
                return region
        return None

    def __post_init__(self) -> None:
        # Both arrays are derived from the drawing; voyage.store.mapcache stores them with the
        # campaign so a big map is not worked out again on every command.
        if not self.cells:
            self.cells = terrain_cells(self.rows, self.legend)
        if not self.coastal_cells:
            self.coastal_cells = coastal_cells(self.cells, self.width, self.height)

    # -- lookups -------------------------------------------------------------------------
    def _index(self, name: str) -> int:
        col, row = hexmap.parse_hex(name)
        if not (col <= self.width and row <= self.height):
            raise MapError(self.off_map_message(name))
        return (row - 1) * self.width + (col - 1)

    def off_map_message(self, name: str) -> str:
        """The one-line error for a hex outside this map."""
        last = hexmap.hex_name(self.width, self.height)
        return (
            f"hex {name} is off the map: {self.name} runs from 0101 to {last} "
            f"({_count(self.width, 'column')}, {_count(self.height, 'row')})"
        )

    def in_bounds(self, name: str) -> bool:
        """Whether ``name`` is a hex name inside this map (False for bad names too)."""
        try:
            col, row = hexmap.parse_hex(name)
        except MapError:
            return False
        return col <= self.width and row <= self.height

    def terrain(self, name: str) -> str:
        """The terrain of a hex (``sea``, ``land``, ``port``, ``reef``, ``shoal``, ``wreck``)."""
        return TERRAINS[self.cells[self._index(name)]]

    def is_sea(self, name: str) -> bool:
        """Whether a ship can be in this hex (in bounds and not land)."""
        if not self.in_bounds(name):
            return False
        return self.cells[self._index(name)] != LAND_CODE

    def is_coastal(self, name: str) -> bool:
        """A sea hex touching land (derived from the drawing, never drawn)."""
        return bool(self.coastal_cells[self._index(name)])

    @property
    def water(self) -> bytes:
        """One byte per hex (row by row from 0101): 1 where a ship can be, 0 on land."""
        if not self._water:
            self._water = self.cells.translate(WATER_TABLE)
        return self._water

    def hex(self, name: str) -> Hex:
        """Everything the map says about ``name``; MapError for bad or off-map names."""
        key = hexmap.canonical(name)
        found = self._cache.get(key)
        if found is not None:
            return found
        index = self._index(key)
        col, row = hexmap.parse_hex(key)
        char = self.rows[row - 1][col - 1]
        entry = self.legend[char]
        extra = self.entries.get(key, {})
        terrain = entry.terrain
        seabed = None
        if terrain in SEA_TERRAINS:
            seabed = extra.get("seabed") or entry.seabed or self.default_seabed
        found = Hex(
            name=key,
            col=col,
            row=row,
            char=char,
            terrain=terrain,
            seabed=seabed,
            coastal=bool(self.coastal_cells[index]),
            port=extra.get("port"),
            fuel=extra.get("fuel"),
            stores=extra.get("stores"),
            narrow_passage=bool(extra.get("narrow_passage", False)),
            label=extra.get("label"),
            notes=extra.get("notes"),
            depth=extra["depth"] if "depth" in extra else self._set_depth(col, row),
        )
        self._cache[key] = found
        return found

    def _set_depth(self, col: int, row: int) -> float | None:
        """R83: the depth the ``depths:`` block charts at a water hex, or None."""
        if not self.depth_sets or self.cells[(row - 1) * self.width + col - 1] == LAND_CODE:
            return None
        return depth_in_sets(self.depth_sets, col, row)

    def hexes(self) -> Iterator[Hex]:
        """Every hex, row by row from 0101."""
        for row in range(1, self.height + 1):
            for col in range(1, self.width + 1):
                yield self.hex(hexmap.hex_name(col, row))

    def names(self) -> Iterator[str]:
        """Every hex name, row by row from 0101."""
        for row in range(1, self.height + 1):
            for col in range(1, self.width + 1):
                yield hexmap.hex_name(col, row)

    def ports(self) -> list[Hex]:
        """The ports, in hex-name order."""
        return [
            self.hex(n)
            for n in sorted(self.entries, key=hexmap.parse_hex)
            if self.entries[n].get("port")
        ]

    def port(self, name_or_hex: str) -> Hex:
        """A port by its name (case-insensitive) or its hex."""
        wanted = name_or_hex.strip().lower()
        for found in self.ports():
            if found.port and found.port.lower() == wanted or found.name == name_or_hex:
                return found
        names = ", ".join(p.port or p.name for p in self.ports()) or "none"
        raise MapError(f"no port {name_or_hex!r} on {self.name} (ports: {names})")

    def labelled(self) -> list[Hex]:
        """Hexes with a label, in hex-name order."""
        return [
            self.hex(n)
            for n in sorted(self.entries, key=hexmap.parse_hex)
            if self.entries[n].get("label")
        ]

    def neighbours(self, name: str) -> list[str]:
        """The hexes next to ``name`` that are on this map."""
        return hexmap.neighbours(name, self.width, self.height)

    def route(
        self,
        start: str,
        goal: str,
        *,
        avoid: Iterable[str] = (),
        avoid_ids: Iterable[int] = (),
    ) -> list[str] | None:
        """The shortest all-water route (hex names, both ends), never crossing land.

        ``avoid`` holds terrains (``reef``) or hex names to stay out of (a storm, say);
        ``avoid_ids`` more hexes to stay out of, as hex ids (:meth:`hex_id`), which a
        caller keeping out of thousands of hexes gives without naming each.
        The search runs on integer cells (:func:`voyage.map.hexes.shortest_path_cells`): no
        hex name is built or parsed in its inner loop.
        """
        avoid_set = set(avoid)
        for name in (start, goal):
            if not self.in_bounds(name):
                raise MapError(self.off_map_message(name))
        open_water = self.water
        avoid_codes = {TERRAIN_CODE[t] for t in avoid_set if t in TERRAIN_CODE}
        if avoid_codes:
            table = bytes(0 if i in avoid_codes else WATER_TABLE[i] for i in range(256))
            open_water = self.cells.translate(table)
        blocked = {
            self._index(name)
            for name in avoid_set
            if name not in TERRAIN_CODE and self.in_bounds(name)
        }
        blocked.update(avoid_ids)
        return hexmap.shortest_path_cells(
            start, goal, open_water, self.width, self.height, blocked=blocked
        )

    def inshore_ids(self, terrains: Iterable[str] = ()) -> list[int]:
        """The hex ids (:meth:`hex_id`) of the water a ship is inshore in (R33: coastal
        hexes and narrow passages) or of any of ``terrains``, in map order; found in the
        byte arrays, with no :class:`Hex` made."""
        found = {m.start() for m in re.finditer(b"\x01", self.coastal_cells)}
        codes = {TERRAIN_CODE[t] for t in terrains if t in TERRAIN_CODE}
        if codes:
            table = bytes(1 if i in codes and WATER_TABLE[i] else 0 for i in range(256))
            found.update(m.start() for m in re.finditer(b"\x01", self.cells.translate(table)))
        water = self.water
        for name, extra in self.entries.items():
            if extra.get("narrow_passage"):
                index = self._index(name)
                if water[index]:
                    found.add(index)
        return sorted(found)

    def hex_id(self, name: str) -> int:
        """A hex of this map as one integer, ``row0 * width + col0`` (MapError off the map)."""
        return self._index(name)

    def passable(self) -> Callable[[str], bool]:
        """A predicate for :func:`voyage.map.hexes.shortest_path`: in bounds and not land."""
        return self.is_sea


# ----------------------------------------------------------------------------- reading files


def _read_legend(reader: MapReader, node: yaml.Node | None) -> dict[str, LegendEntry]:
    legend = {ch: LegendEntry(ch, t, IMPLIED_SEABED.get(t)) for ch, t in DEFAULT_LEGEND.items()}
    if node is None:
        return legend
    for key, (key_node, value_node) in reader.mapping(node, "legend", None).items():
        if len(key) != 1 or key.isspace():
            raise reader.error(key_node, f"legend: {key!r} must be a single character")
        spec: dict[str, tuple[yaml.Node, yaml.Node]]
        if isinstance(value_node, yaml.ScalarNode):
            spec = {"terrain": (key_node, value_node)}
        else:
            spec = reader.mapping(value_node, f"legend entry {key!r}", LEGEND_KEYS)
        if "terrain" not in spec:
            raise reader.error(value_node, f"legend entry {key!r} needs a terrain")
        terrain = reader.value(spec["terrain"][1])
        if terrain not in TERRAINS:
            raise reader.error(
                spec["terrain"][1],
                f"legend {key!r}: unknown terrain {terrain!r}: use one of {', '.join(TERRAINS)}",
            )
        seabed = IMPLIED_SEABED.get(terrain)
        if "seabed" in spec:
            seabed = reader.value(spec["seabed"][1])
            if seabed not in SEABEDS:
                raise reader.error(
                    spec["seabed"][1],
                    f"legend {key!r}: unknown seabed {seabed!r}: use one of {', '.join(SEABEDS)}",
                )
            if terrain == "land":
                raise reader.error(spec["seabed"][1], f"legend {key!r}: land has no seabed")
        label = reader.text_value(spec["name"][1], "a legend name") if "name" in spec else None
        legend[key] = LegendEntry(key, terrain, seabed, label)
    return legend


def _read_hex_entry(reader: MapReader, name: str, node: yaml.Node) -> dict[str, Any]:
    spec = reader.mapping(node, f"hex {name}", HEX_KEYS)
    entry: dict[str, Any] = {}
    for key, (_, value_node) in spec.items():
        value = reader.value(value_node)
        if key in ("port", "label", "notes"):
            many = key == "notes"
            entry[key] = reader.text_value(value_node, f"hex {name} {key}", multiline=many)
        elif key == "seabed":
            if value not in SEABEDS:
                raise reader.error(
                    value_node,
                    f"hex {name}: unknown seabed {value!r}: use one of {', '.join(SEABEDS)}",
                )
            entry[key] = value
        elif key == "depth":
            what = f"hex {name}: depth is in feet, 0 or more (at most {MAX_MAP_NUMBER}); got"
            entry[key] = map_number(reader, value_node, what)
        elif key == "narrow_passage":
            if not isinstance(value, bool):
                raise reader.error(
                    value_node,
                    f"hex {name}: narrow_passage must be true or false, got {kind_of(value)}",
                )
            entry[key] = value
        elif key == "fuel":
            fuel = reader.mapping(value_node, f"hex {name} fuel", FUEL_KEYS)
            if "price" not in fuel:
                raise reader.error(
                    value_node, f"hex {name} fuel: give its price per hlb, e.g. fuel: {{price: 3}}"
                )
            what = f"hex {name} fuel price must be a finite number from 0 to {MAX_MAP_NUMBER}, got"
            price = map_number(reader, fuel["price"][1], what)
            stock = None
            if "stock" in fuel:
                what = f"hex {name} fuel stock must be whole hlbs from 0 to {MAX_MAP_NUMBER}, got"
                stock = int(map_number(reader, fuel["stock"][1], what, whole=True))
            entry[key] = Fuel(price=price, stock=stock)
        elif key == "stores":
            given = reader.mapping(value_node, f"hex {name} stores", STORES_KEYS)
            entry[key] = {
                store: int(
                    map_number(
                        reader,
                        node_[1],
                        f"hex {name} stores {store} must be whole person-days from 0 to "
                        f"{MAX_MAP_NUMBER}, got",
                        whole=True,
                    )
                )
                for store, node_ in given.items()
            }
    return entry


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def parse_map(text: str, source: str = "<map>", *, new: bool = False) -> SeaMap:
    """Read and validate map YAML; raise a one-line :class:`MapError` naming line and column.
    ``new``: a file being loaded, held to checks added since older campaigns stored theirs
    (two ports of one name), so a stored map always reads back."""
    reader = MapReader(text, source)
    top = reader.mapping(reader.root(), "the map file", TOP_KEYS)
    if "rows" not in top:
        raise reader.error(None, "the map has no 'rows': draw it under 'rows: |'")

    name = Path(source).stem if source != "<map>" else "sea map"
    if "name" in top:
        name = reader.text_value(top["name"][1], "name")
    description = (
        reader.text_value(top["description"][1], "description", multiline=True)
        if "description" in top
        else ""
    )
    notes = reader.text_value(top["notes"][1], "notes", multiline=True) if "notes" in top else ""
    default_seabed = "sandy"
    if "seabed" in top:
        default_seabed = reader.value(top["seabed"][1])
        if default_seabed not in SEABEDS:
            raise reader.error(
                top["seabed"][1],
                f"unknown seabed {default_seabed!r}: use one of {', '.join(SEABEDS)}",
            )
    legend = _read_legend(reader, top["legend"][1] if "legend" in top else None)

    # -- the drawing
    drawn = row_positions(reader, top["rows"][1])
    if not drawn:
        raise reader.error(top["rows"][1], "rows: the map has no rows")
    width = len(drawn[0][0])
    height = len(drawn)
    if width == 0:
        raise reader.error(
            None, "row 1 is empty: draw one character per hex", drawn[0][1], drawn[0][2]
        )
    if width > MAX_SIDE or height > MAX_SIDE:
        raise reader.error(
            top["rows"][1], f"the map is {width}x{height} hexes: at most {MAX_SIDE} each way"
        )
    known = "".join(legend)
    legend_chars = set(legend)
    port_chars = {ch for ch, entry in legend.items() if entry.terrain == "port"}
    char_positions: dict[str, tuple[int, int]] = {}
    for r, (row_text, line_no, col_no) in enumerate(drawn, start=1):
        used = set(row_text)
        if used <= legend_chars and not used & port_chars and len(row_text) == width:
            continue  # the common row: nothing to report, no port to note (fast on big maps)
        if len(row_text) != width:
            raise reader.error(
                None,
                f"row {r} has {len(row_text)} hexes but row 1 has {width}: every row must "
                "be as long as the first (ragged rows)",
                line_no,
                col_no + min(len(row_text), width),
            )
        for c, ch in enumerate(row_text, start=1):
            if ch not in legend:
                shown = "a space" if ch == " " else repr(ch)
                raise reader.error(
                    None,
                    f"unknown map character {shown} (hex {hexmap.hex_name(c, r)}): add it to "
                    f"the legend or use one of {' '.join(known)}",
                    line_no,
                    col_no + c - 1,
                )
            if legend[ch].terrain == "port":
                char_positions[hexmap.hex_name(c, r)] = (line_no, col_no + c - 1)
    rows = [row_text for row_text, _, _ in drawn]

    # -- per-hex entries
    entries: dict[str, dict[str, Any]] = {}
    entry_nodes: dict[str, yaml.Node] = {}
    if "hexes" in top:
        for key, (key_node, value_node) in reader.mapping(top["hexes"][1], "hexes", None).items():
            try:
                col, row = hexmap.parse_hex(key)
            except MapError as exc:
                raise reader.error(key_node, str(exc)) from None
            canonical = hexmap.hex_name(col, row)
            if col > width or row > height:
                last = hexmap.hex_name(width, height)
                raise reader.error(
                    key_node,
                    f"hex {key} is off the map: it runs from 0101 to "
                    f"{last} ({_count(width, 'column')}, {_count(height, 'row')})",
                )
            if canonical in entries:
                raise reader.error(key_node, f"hex {canonical} is listed twice under hexes")
            entries[canonical] = _read_hex_entry(reader, canonical, value_node)
            entry_nodes[canonical] = key_node

    sea_map = SeaMap(
        name=name,
        width=width,
        height=height,
        rows=rows,
        legend=legend,
        default_seabed=default_seabed,
        entries=entries,
        description=description,
        notes=notes,
        source=source,
        text=text,
    )

    if "regions" in top:
        rows_node = top["region_rows"][1] if "region_rows" in top else None
        sea_map.regions = read_regions(reader, top["regions"][1], rows_node, sea_map)
    elif "region_rows" in top:
        raise reader.error(top["region_rows"][1], "region_rows needs regions with a char each")

    # -- checks that need the whole map
    for hex_id, (line_no, col_no) in char_positions.items():
        if not entries.get(hex_id, {}).get("port"):
            raise reader.error(
                None,
                f"the port drawn at {hex_id} has no name: add hexes: '{hex_id}': {{port: Name}}",
                line_no,
                col_no,
            )
        if not sea_map.is_coastal(hex_id):
            raise reader.error(
                None,
                f"port {entries[hex_id]['port']} at {hex_id} is not on "
                "the coast: a port must touch land",
                line_no,
                col_no,
            )
    port_names: dict[str, str] = {}
    for hex_id, entry in entries.items():
        node = entry_nodes[hex_id]
        terrain = sea_map.terrain(hex_id)
        if entry.get("port") and terrain != "port":
            raise reader.error(
                node,
                f"hex {hex_id} has a port name but the map draws "
                f"{terrain} there: draw it with the port character",
            )
        if new and entry.get("port"):
            # the log, plans and status name a port, not its hex: two of one name would
            # leave the players (and the referee) guessing which harbour is meant
            key = str(entry["port"]).casefold()
            if key in port_names:
                raise reader.error(
                    node,
                    f"port name {entry['port']!r} at {hex_id} is already the port at "
                    f"{port_names[key]}: give each port its own name",
                )
            port_names[key] = hex_id
        if "fuel" in entry and terrain != "port":
            raise reader.error(node, f"hex {hex_id} sells fuel but is not a port")
        if "stores" in entry and terrain != "port":
            raise reader.error(node, f"hex {hex_id} has stores of food and water but is not a port")
        if "depth" in entry and terrain == "land":
            raise reader.error(node, f"hex {hex_id} is land: it has no depth")
        if "seabed" in entry and terrain == "land":
            raise reader.error(node, f"hex {hex_id} is land: it has no seabed")
        if entry.get("narrow_passage"):
            if terrain == "land":
                raise reader.error(node, f"hex {hex_id} is land: a narrow passage is water")
            # R33: a narrow passage is always within a mile of the coast.
            if not sea_map.is_coastal(hex_id):
                raise reader.error(
                    node,
                    f"hex {hex_id} is marked a narrow passage but does "
                    "not touch land (R33: passages are within a mile of a coast)",
                )
    if "currents" in top:
        sea_map.currents = read_currents(reader, top["currents"][1], sea_map)
    if "depths" in top:
        sea_map.depth_sets = read_depths(reader, top["depths"][1], sea_map, new=new)  # R83
    return sea_map


def load_map(path: str | Path) -> SeaMap:
    """Load a map file, or the map of a campaign folder (its campaign.yaml's ``map``)."""
    target = Path(path)
    if target.is_dir():
        target = campaign_map_path(target)
    # a regular file of at most 20 MB, checked before reading (/dev/zero, a FIFO: refused)
    text = read_text(target, what="map file", error=MapError)
    return parse_map(text, str(target), new=True)


# ----------------------------------------------------------------------------- campaign folders


def read_campaign_file(folder: str | Path) -> dict[str, Any]:
    """The campaign.yaml of a campaign folder as a dict (only its shape is checked here)."""
    path = Path(folder) / "campaign.yaml"
    if not os.path.lexists(path):
        raise MapError(f"{folder}: not a campaign folder (no campaign.yaml)")
    text = read_text(path, what="campaign file", error=MapError)
    data = load_yaml(text, source=str(path), error=MapError)
    if not isinstance(data, dict):
        raise MapError(f"{path}: a campaign file is a mapping (name, map, seed, ...)")
    return data


def campaign_map_path(folder: str | Path) -> Path:
    """The map file a campaign folder names (``map:`` in campaign.yaml, else map.yaml)."""
    folder = Path(folder)
    if os.path.lexists(folder / "campaign.yaml"):  # read (or refused) whatever it is
        data = read_campaign_file(folder)
        name = data.get("map", "map.yaml")
        if not isinstance(name, str):
            raise MapError(f"{folder / 'campaign.yaml'}: 'map' must be a file name")
        return folder / name
    if (folder / "map.yaml").is_file():
        return folder / "map.yaml"
    raise MapError(f"{folder}: no campaign.yaml or map.yaml here")


def bundled_campaign(name: str) -> Path:
    """The folder of a campaign shipped with voyage (``campaigns/<name>``)."""
    folder = campaigns_dir() / name
    if not (folder / "campaign.yaml").is_file():
        available = sorted(
            p.name for p in campaigns_dir().iterdir() if (p / "campaign.yaml").is_file()
        )
        raise MapError(f"no bundled campaign {name!r} (there are: {', '.join(available)})")
    return folder


def sea_hex(chart: Any, name: str) -> str:
    """A hex name checked against a chart (the map, or a chart for a ship's draft): a real
    name, on the map, and not land; its canonical spelling."""
    key = hexmap.canonical(name)
    if not chart.in_bounds(key):
        raise VoyageRuleError(chart.off_map_message(key))
    if not chart.is_sea(key):
        raise VoyageRuleError(f"hex {key} is land: a ship cannot sail there")
    return key
