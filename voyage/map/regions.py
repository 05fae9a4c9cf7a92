"""Weather regions of a sea map (R61): named sets of hexes, each with a climate.

A map may name regions under ``regions:``, each with a ``climate`` and its hexes, given as
listed hexes and ranges (``"0101-3612"`` is the rectangle from column 01 row 01 to column
36 row 12) and/or as a character of a second drawing, ``region_rows:``, drawn like ``rows``.
Without ``regions`` the whole map is one region, ``sea``, with the temperate climate.
Climate names are checked against the campaign's climates table when the map is loaded into
a campaign (:func:`check_climates`): a map file does not know which tables it will meet.

A region holds no Python object per hex (a 999 x 999 map has a million): its
hexes are a :class:`HexSet`, one byte per hex of the map naming the region each is in (or
"every hex of the map" for the one region of a map without ``regions``), and its open sea
an :class:`OpenSea`, worked out from those bytes and the map's terrain and coast bytes only
when a storm cell forms, with whole-array operations in C.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, overload

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.map.cells import TERRAIN_CODE, WATER_TABLE
from voyage.map.mapreader import row_positions

DEFAULT_REGION = "sea"
DEFAULT_CLIMATE = "temperate"
REGION_KEYS = ("climate", "hexes", "char", "description", "season_names")


@dataclass(frozen=True)
class Region:
    """A weather region: its name, climate, hexes and the open-sea hexes cells form in."""

    name: str
    climate: str
    hexes: Set[str]
    #: R62: in hex-name order (column, then row), as the cell-hex roll numbers them
    open_sea: Sequence[str]
    description: str = ""
    #: calendar season -> the climate's row for this region (overrides the climate's own
    #: ``season_names``: a map may put its rains in winter)
    season_names: tuple[tuple[str, str], ...] = ()


def _and(a: bytes, b: bytes) -> bytes:
    """Two 0/1 byte arrays of one length, and-ed byte by byte (as two big integers, in C)."""
    if len(a) != len(b):
        raise ValueError("masks of different lengths")
    both = int.from_bytes(a, "little") & int.from_bytes(b, "little")
    return both.to_bytes(len(a), "little")


def _equal_table(code: int) -> bytes:
    """``bytes.translate`` table: ``code`` -> 1, every other byte -> 0."""
    return bytes(1 if i == code else 0 for i in range(256))


class HexSet(Set[str]):
    """The hexes of one region as a set of canonical hex names, held as bytes.

    ``planes`` hold one byte per hex of a ``width`` x ``height`` map, row by row from 0101
    (several planes: the low byte first); the region is the hexes whose bytes spell
    ``code``. No planes: every hex of the map (the one region of a map without regions).
    Membership is one index; length, iteration and masks are whole-array scans in C.
    """

    __slots__ = ("width", "height", "planes", "code", "_mask", "_len")

    def __init__(self, width: int, height: int, planes: tuple[bytes, ...] = (), code: int = 0):
        self.width, self.height, self.planes, self.code = width, height, planes, code
        self._mask: bytes | None = None
        self._len: int | None = None

    def index(self, name: object) -> int | None:
        """The hex's place in the map's byte arrays, None unless a canonical name on it."""
        if not isinstance(name, str):
            return None
        try:
            col, row = hexmap.parse_hex(name)
        except MapError:
            return None
        if col > self.width or row > self.height or hexmap.hex_name(col, row) != name:
            return None  # a set of names holds each hex once, spelled canonically
        return (row - 1) * self.width + col - 1

    def __contains__(self, name: object) -> bool:
        index = self.index(name)
        if index is None:
            return False
        code = self.code
        for plane in self.planes:
            if plane[index] != code % 256:
                return False
            code //= 256
        return True

    def mask(self) -> bytes:
        """1 for each hex of the region, else 0 (row by row from 0101)."""
        if self._mask is None:
            size = self.width * self.height
            mask = b"\x01" * size
            code = self.code
            for plane in self.planes:
                mask = _and(mask, plane.translate(_equal_table(code % 256)))
                code //= 256
            self._mask = mask
        return self._mask

    def __len__(self) -> int:
        if self._len is None:
            self._len = self.width * self.height if not self.planes else self.mask().count(1)
        return self._len

    def __iter__(self) -> Iterator[str]:
        """The region's hexes row by row from 0101."""
        mask, width = self.mask(), self.width
        at = mask.find(1)
        while at != -1:
            yield hexmap.hex_name(at % width + 1, at // width + 1)
            at = mask.find(1, at + 1)

    def __hash__(self) -> int:
        return self._hash()

    def __repr__(self) -> str:
        return f"HexSet({len(self)} hexes of a {self.width}x{self.height} map)"


class OpenSea(Sequence[str]):
    """Hex names in hex-name order (column by column, each from its top row), chosen by a
    0/1 ``mask`` of the map's hexes (row by row): worked out when first asked, in C."""

    def __init__(self, width: int, height: int, mask: Callable[[], bytes]) -> None:
        self.width, self.height = width, height
        self._make = mask
        self._columns: bytes = b""  # the mask column by column
        self._before: list[int] = []  # hexes chosen in the columns before each column

    def _ready(self) -> bytes:
        if not self._before:
            mask, width, height = self._make(), self.width, self.height
            self._columns = b"".join(mask[c::width] for c in range(width))
            total, before = 0, []
            for c in range(width):
                before.append(total)
                total += self._columns.count(1, c * height, (c + 1) * height)
            self._before = [*before, total]
        return self._columns

    def __len__(self) -> int:
        self._ready()
        return self._before[-1]

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[str]: ...

    def __getitem__(self, k: int | slice) -> str | Sequence[str]:
        if isinstance(k, slice):
            return tuple(self)[k]
        columns, size = self._ready(), len(self)
        if k < 0:
            k += size
        if not 0 <= k < size:
            raise IndexError("open sea index out of range")
        col = bisect_right(self._before, k) - 1
        at = columns.find(1, col * self.height)
        for _ in range(k - self._before[col]):
            at = columns.find(1, at + 1)
        return hexmap.hex_name(col + 1, at - col * self.height + 1)

    def __iter__(self) -> Iterator[str]:
        columns, height = self._ready(), self.height
        at = columns.find(1)
        while at != -1:
            yield hexmap.hex_name(at // height + 1, at % height + 1)
            at = columns.find(1, at + 1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"OpenSea({len(self)} hexes)"


def open_sea_mask(sea_map: Any, region: bytes | None) -> bytes:
    """R62: where a new cell may form, as a 0/1 mask: the region's open-sea hexes (``~``,
    not touching land); if it has none, any of its open-sea hexes; if none, any water.
    ``region``: the region's own mask (None: every hex of the map)."""
    sea = sea_map.cells.translate(_equal_table(TERRAIN_CODE["sea"]))
    if region is not None:
        sea = _and(sea, region)
    offshore = _and(sea, sea_map.coastal_cells.translate(_equal_table(0)))
    if offshore.count(1):
        return offshore
    if sea.count(1):
        return sea
    water = sea_map.cells.translate(WATER_TABLE)
    return water if region is None else _and(water, region)


def coded_region(
    sea_map: Any, name: str, spec: Sequence[Any], planes: tuple[bytes, ...], code: int
) -> Region:
    """Region ``name`` (``spec``: climate, description, season names) of a map whose
    regions are numbered in ``planes`` (see :class:`HexSet`)."""
    climate, description, seasons = spec
    hexes = HexSet(sea_map.width, sea_map.height, planes, code)
    open_sea = OpenSea(sea_map.width, sea_map.height, lambda: open_sea_mask(sea_map, hexes.mask()))
    return Region(name, climate, hexes, open_sea, description, tuple(map(tuple, seasons)))


def region_planes(regions: Mapping[str, Region], width: int, height: int) -> tuple[bytes, ...]:
    """The byte planes numbering ``regions`` (region *i*, from 0, is code *i* + 1): the
    planes their hexes already share, else worked out from their hexes."""
    sets = [r.hexes for r in regions.values()]
    if not sets:
        return ()
    if all(isinstance(s, HexSet) for s in sets):
        first = sets[0]
        assert isinstance(first, HexSet)
        if first.planes and all(
            isinstance(s, HexSet) and s.planes is first.planes and s.code == i + 1
            for i, s in enumerate(sets)
        ):
            return first.planes
    owner = {h: i + 1 for i, s in enumerate(sets) for h in s}
    return _planes(owner, len(sets), width, height)


def _planes(owner: Mapping[str, int], count: int, width: int, height: int) -> tuple[bytes, ...]:
    """Byte planes giving each hex of ``owner`` its code (0 elsewhere)."""
    n_planes = 1  # codes 1-255 in one plane (0: in no region); more regions, more planes
    while 256**n_planes <= count:
        n_planes += 1
    planes = [bytearray(width * height) for _ in range(n_planes)]
    for h, code in owner.items():
        col, row = hexmap.parse_hex(h)
        index = (row - 1) * width + col - 1
        for plane in planes:
            plane[index] = code % 256
            code //= 256
    return tuple(bytes(p) for p in planes)


def _range(text: str, width: int, height: int) -> list[str]:
    """``"0101-3612"``: every hex of the rectangle between two corners (inclusive)."""
    first, _, last = text.partition("-")
    c1, r1 = hexmap.parse_hex(first.strip())
    c2, r2 = hexmap.parse_hex(last.strip())
    if c2 < c1 or r2 < r1:
        raise MapError(f"range {text!r} runs backwards: give the top-left corner first")
    for col, row in ((c1, r1), (c2, r2)):
        if col > width or row > height:
            raise MapError(
                f"range {text!r} goes off the map (last hex {hexmap.hex_name(width, height)})"
            )
    return [hexmap.hex_name(c, r) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def default_regions(sea_map: Any) -> dict[str, Region]:
    """The whole map as one temperate region (a map without ``regions``): every hex, held
    as the map's size alone."""
    width, height = sea_map.width, sea_map.height
    open_sea = OpenSea(width, height, lambda: open_sea_mask(sea_map, None))
    return {
        DEFAULT_REGION: Region(DEFAULT_REGION, DEFAULT_CLIMATE, HexSet(width, height), open_sea)
    }


def read_regions(reader: Any, regions_node: Any, rows_node: Any, sea_map: Any) -> dict[str, Region]:
    """Read ``regions`` (and ``region_rows``) with the map reader, so errors name a line."""
    width, height = sea_map.width, sea_map.height
    spec = reader.mapping(regions_node, "regions", None)
    if not spec:
        raise reader.error(regions_node, "regions: name at least one region, or leave it out")
    owner: dict[str, str] = {}
    chars: dict[str, str] = {}
    read: dict[str, dict[str, Any]] = {}

    def claim(hex_name: str, region: str, node: Any) -> None:
        if hex_name in owner and owner[hex_name] != region:
            raise reader.error(
                node, f"hex {hex_name} is in two regions ({owner[hex_name]} and {region})"
            )
        owner[hex_name] = region

    for name, (key_node, value_node) in spec.items():
        fields = reader.mapping(value_node, f"region {name}", REGION_KEYS)
        if "climate" not in fields:
            raise reader.error(key_node, f"region {name} needs a climate, e.g. climate: temperate")
        climate = reader.text_value(fields["climate"][1], f"region {name} climate")
        description = (
            reader.text_value(fields["description"][1], f"region {name} description")
            if "description" in fields
            else ""
        )
        names_map: dict[str, str] = {}
        if "season_names" in fields:
            raw = reader.value(fields["season_names"][1])
            if not isinstance(raw, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in raw.items()
            ):
                raise reader.error(
                    fields["season_names"][1],
                    f"region {name} season_names: a mapping like {{winter: wet, summer: dry}}",
                )
            names_map = dict(raw)
        read[name] = {
            "climate": climate,
            "description": description,
            "node": key_node,
            "season_names": tuple(sorted(names_map.items())),
        }
        if "char" in fields:
            char = reader.value(fields["char"][1])
            if not isinstance(char, str) or len(char) != 1 or char.isspace():
                raise reader.error(fields["char"][1], f"region {name} char must be one character")
            if char in chars:
                raise reader.error(
                    fields["char"][1], f"regions {chars[char]} and {name} share the char {char!r}"
                )
            chars[char] = name
        if "hexes" in fields:
            node = fields["hexes"][1]
            items = reader.value(node)
            if not isinstance(items, list) or not items:
                raise reader.error(node, f'region {name} hexes: a list like ["0101-3612", "1714"]')
            for item in items:
                text = str(item)
                try:
                    names = _range(text, width, height) if "-" in text else [hexmap.canonical(text)]
                except MapError as exc:
                    raise reader.error(node, f"region {name}: {exc}") from None
                for h in names:
                    if not sea_map.in_bounds(h):
                        raise reader.error(node, f"region {name}: {sea_map.off_map_message(h)}")
                    claim(h, name, node)
    if chars:
        if rows_node is None:
            raise reader.error(
                regions_node, "a region has a char but there is no region_rows drawing"
            )
        drawn = row_positions(reader, rows_node)
        if len(drawn) != height:
            raise reader.error(
                rows_node, f"region_rows has {len(drawn)} rows; the map has {height}"
            )
        for r, (text, line_no, col_no) in enumerate(drawn, start=1):
            if len(text) != width:
                raise reader.error(
                    None,
                    f"region_rows row {r} has {len(text)} hexes; the map has {width}",
                    line_no,
                    col_no,
                )
            for c, ch in enumerate(text, start=1):
                if ch in chars:
                    claim(hexmap.hex_name(c, r), chars[ch], None)
                elif ch not in (".", "#"):
                    raise reader.error(
                        None,
                        f"region_rows: unknown character {ch!r}: use a region's char or .",
                        line_no,
                        col_no + c - 1,
                    )
    elif rows_node is not None:
        raise reader.error(rows_node, "region_rows is drawn but no region has a char")
    for h in sea_map.names():
        if sea_map.is_sea(h) and h not in owner:
            raise reader.error(
                regions_node,
                f"sea hex {h} is in no region: add it to a region's hexes (or region_rows)",
            )
    codes = {name: i + 1 for i, name in enumerate(read)}
    planes = _planes({h: codes[r] for h, r in owner.items()}, len(read), width, height)
    out: dict[str, Region] = {}
    for name, info in read.items():
        spec = (info["climate"], info["description"], info["season_names"])
        region = out[name] = coded_region(sea_map, name, spec, planes, codes[name])
        hexes = region.hexes
        assert isinstance(hexes, HexSet)
        if not _and(hexes.mask(), sea_map.water).count(1):
            raise reader.error(info["node"], f"region {name} has no sea hexes")
    return out


def check_climates(
    regions: Mapping[str, Region],
    climates: Mapping[str, Any],
    where: str,
    seasons: Sequence[str] = (),
    implicit: bool = False,
) -> None:
    """Every region's climate is in the climates table, and has a row for each of the
    calendar's ``seasons`` (R61: the day's roll reads it); else one line naming the fix
    (``implicit``: the map declares no regions, and this is its default one)."""
    for region in regions.values():
        if region.climate not in climates:
            raise MapError(
                f"{where}: region {region.name}: unknown climate {region.climate!r}: use one of "
                f"{', '.join(climates)} (tables/climates.yaml, or the campaign's override)"
            )
        rows = climates[region.climate]["seasons"]
        for season, row in region.season_names:
            if row not in rows:
                raise MapError(
                    f"{where}: region {region.name}: season {season} -> {row!r}, but the "
                    f"{region.climate} climate has no such row (rows: {', '.join(rows)})"
                )
        for season in seasons:
            if _season_row(climates[region.climate], season, region) is None:
                fix = (
                    "the map has no regions: block, so its whole sea is this one; give it "
                    f"one with season_names: {{{season}: {next(iter(rows))}, ...}} (docs/maps.md)"
                    if implicit
                    else f"give the region season_names: {{{season}: {next(iter(rows))}, ...}}"
                )
                raise MapError(
                    f"{where}: region {region.name}: the {region.climate} climate has no "
                    f"row for the calendar's season {season!r} (rows: {', '.join(rows)}): "
                    f"{fix} or add a {season!r} row to the climates table (R61)"
                )


def _season_row(climate: Mapping[str, Any], season: str, region: Region) -> str | None:
    """As voyage.world.cells.season_row, None where it has no row."""
    mapped = dict(region.season_names)
    if season in mapped:
        return mapped[season]
    if season in climate["seasons"]:
        return season
    return climate.get("season_names", {}).get(season) or None


def find_region(regions: Mapping[str, Region], name: str) -> Region:
    """A region by name (case-insensitive); one line listing the regions if unknown."""
    for region in regions.values():
        if region.name.lower() == name.strip().lower():
            return region
    raise MapError(f"no region {name!r} on this map (regions: {', '.join(regions)})")
