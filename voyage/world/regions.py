"""Weather regions of a sea map (R61): named sets of hexes, each with a climate.

A map may name regions under ``regions:``, each with a ``climate`` and its hexes, given as
listed hexes and ranges (``"0101-3612"`` is the rectangle from column 01 row 01 to column
36 row 12) and/or as a character of a second drawing, ``region_rows:``, drawn like ``rows``.
Without ``regions`` the whole map is one region, ``sea``, with the temperate climate.
Climate names are checked against the campaign's climates table when the map is loaded into
a campaign (:func:`check_climates`): a map file does not know which tables it will meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import hexmap
from ..errors import MapError

DEFAULT_REGION = "sea"
DEFAULT_CLIMATE = "temperate"
REGION_KEYS = ("climate", "hexes", "char", "description", "season_names")


@dataclass(frozen=True)
class Region:
    """A weather region: its name, climate, hexes and the open-sea hexes cells form in."""

    name: str
    climate: str
    hexes: frozenset[str]
    open_sea: tuple[str, ...]
    description: str = ""
    #: calendar season -> the climate's row for this region (overrides the climate's own
    #: ``season_names``: a map may put its rains in winter)
    season_names: tuple[tuple[str, str], ...] = ()


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


def open_sea_hexes(sea_map: Any, hexes: Iterable[str]) -> tuple[str, ...]:
    """R62: where a new cell may form: open-sea hexes (``~``, not touching land) of the
    region; if it has none, any of its open-sea hexes; if none, any of its water."""
    names = sorted(hexes, key=hexmap.parse_hex)
    sea = [h for h in names if sea_map.terrain(h) == "sea"]
    offshore = [h for h in sea if not sea_map.is_coastal(h)]
    return tuple(offshore or sea or [h for h in names if sea_map.is_sea(h)])


def default_regions(sea_map: Any) -> dict[str, Region]:
    """The whole map as one temperate region (a map without ``regions``)."""
    names = frozenset(sea_map.names())
    return {
        DEFAULT_REGION: Region(
            DEFAULT_REGION, DEFAULT_CLIMATE, names, open_sea_hexes(sea_map, names)
        )
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
        from ..maps import _row_positions

        drawn = _row_positions(reader, rows_node)
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
    out: dict[str, Region] = {}
    for name, info in read.items():
        hexes = frozenset(h for h, region in owner.items() if region == name)
        if not any(sea_map.is_sea(h) for h in hexes):
            raise reader.error(info["node"], f"region {name} has no sea hexes")
        out[name] = Region(
            name,
            info["climate"],
            hexes,
            open_sea_hexes(sea_map, hexes),
            info["description"],
            info["season_names"],
        )
    return out


def check_climates(regions: Mapping[str, Region], climates: Mapping[str, Any], where: str) -> None:
    """Every region's climate is in the climates table; else one line naming the fix."""
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


def find_region(regions: Mapping[str, Region], name: str) -> Region:
    """A region by name (case-insensitive); one line listing the regions if unknown."""
    for region in regions.values():
        if region.name.lower() == name.strip().lower():
            return region
    raise MapError(f"no region {name!r} on this map (regions: {', '.join(regions)})")
