"""The ``depths:`` block of a map file (R83): charted depths in feet for many hexes at once.

Each entry is one hex with its depth, or a named set of hexes with ``hexes`` (single hexes
and rectangles ``"1910-2111"``, corner to corner, as for weather regions) and ``feet``::

    depths:
      "2010": 12                   # one hex, 12 ft
      the Middle Ground:
        hexes: ["1910-2111", "2212"]
        feet: 12
        notes: Sand banks in the open Reach.

A hex's own ``depth:`` under ``hexes`` wins; where sets overlap, the one listed later wins.
Land inside a rectangle is left uncharted; a single land hex is refused. Depths are 0 or
more (a negative depth is one line naming the line and the column). The sets are kept as
rectangles (:data:`DepthSets`), so the map cache never lists every hex of a wide trench.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import hexmap
from .errors import MapError

if TYPE_CHECKING:
    import yaml

    from .maps import SeaMap, _Reader

DEPTH_KEYS = ("hexes", "feet", "notes")
#: (rectangles (col1, row1, col2, row2), feet) in the map's order
DepthSets = list[tuple[tuple[tuple[int, int, int, int], ...], float]]


def read_depths(reader: _Reader, node: yaml.Node, sea_map: SeaMap) -> DepthSets:
    """Every entry of ``depths:`` checked: its hexes on the map and water, its feet >= 0."""
    from .maps import MAX_MAP_NUMBER, _map_number

    out: DepthSets = []
    for key, (key_node, value_node) in reader.mapping(node, "depths", None).items():
        if hexmap.is_hex_name(key) and not isinstance(reader.value(value_node), dict):
            items, feet_node, what = [key], value_node, f"depth of hex {key}"
        else:
            spec = reader.mapping(value_node, f"depths {key!r}", DEPTH_KEYS)
            if "hexes" not in spec or "feet" not in spec:
                raise reader.error(value_node, f"depths {key!r} needs hexes and feet, e.g. "
                                   '{hexes: ["1910-2111"], feet: 12}')
            items = reader.value(spec["hexes"][1])
            if not isinstance(items, list) or not items:
                raise reader.error(spec["hexes"][1],
                                   f'depths {key!r} hexes: a list like ["1910-2111", "2212"]')
            feet_node, what = spec["feet"][1], f"depths {key!r}"
        feet = _map_number(reader, feet_node,
                           f"{what}: a depth is in feet, 0 or more (at most {MAX_MAP_NUMBER}); got")
        rects = []
        for item in items:
            try:
                rects.append(_rect(str(item), sea_map))
            except MapError as exc:
                raise reader.error(key_node, f"{what}: {exc}") from None
        out.append((tuple(rects), feet))
    return out


def _rect(text: str, sea_map: Any) -> tuple[int, int, int, int]:
    first, dash, last = text.partition("-")
    c1, r1 = hexmap.parse_hex(first.strip())
    c2, r2 = hexmap.parse_hex(last.strip()) if dash else (c1, r1)
    if c2 < c1 or r2 < r1:
        raise MapError(f"range {text!r} runs backwards: give the top-left corner first")
    for col, row in ((c1, r1), (c2, r2)):
        name = hexmap.hex_name(col, row)
        if not sea_map.in_bounds(name):
            raise MapError(sea_map.off_map_message(name))
    if not dash and not sea_map.is_sea(hexmap.hex_name(c1, r1)):
        raise MapError(f"hex {hexmap.hex_name(c1, r1)} is land: it has no depth")
    return (c1, r1, c2, r2)


def depth_in_sets(sets: DepthSets, col: int, row: int) -> float | None:
    """The depth the sets chart at a hex (the last set holding it), or None."""
    for rects, feet in reversed(sets):
        for c1, r1, c2, r2 in rects:
            if c1 <= col <= c2 and r1 <= row <= r2:
                return feet
    return None
