"""The ``depths:`` block of a map file (R83): charted depths in feet for many hexes at once.

Each entry is one hex with its depth, or a named set of hexes with ``hexes`` (single hexes
and rectangles ``"1910-2111"``, corner to corner, as for weather regions) and ``feet``::

    depths:
      "2010": 12                   # one hex, 12 ft
      the Middle Ground:
        hexes: ["1910-2111", "2212"]
        feet: 12
        notes: Sand banks in the open Reach.

A hex's own ``depth:`` under ``hexes`` wins; where sets overlap, the one listed later wins
(an entry that a later one hides whole is refused: it would chart nothing).
Land inside a rectangle is left uncharted; a single land hex is refused. Depths are 0 or
more (a negative depth is one line naming the line and the column). The sets are kept as
rectangles (:data:`DepthSets`), so the map cache never lists every hex of a wide trench.
"""

from __future__ import annotations

from typing import Any

import yaml

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.map.mapreader import MAX_MAP_NUMBER, MapHexes, MapReader, map_number

DEPTH_KEYS = ("hexes", "feet", "notes")
#: (rectangles (col1, row1, col2, row2), feet) in the map's order
DepthSets = list[tuple[tuple[tuple[int, int, int, int], ...], float]]


def read_depths(
    reader: MapReader, node: yaml.Node, sea_map: MapHexes, new: bool = False
) -> DepthSets:
    """Every entry of ``depths:`` checked: its hexes on the map and water, its feet >= 0;
    ``new`` (a file being loaded, voyage.map.seamap.parse_map): none hidden whole by a later one."""
    out: DepthSets = []
    keys: list[tuple[str, Any]] = []
    for key, (key_node, value_node) in reader.mapping(node, "depths", None).items():
        if hexmap.is_hex_name(key) and not isinstance(reader.value(value_node), dict):
            items, feet_node, what = [key], value_node, f"depth of hex {key}"
        else:
            spec = reader.mapping(value_node, f"depths {key!r}", DEPTH_KEYS)
            if "hexes" not in spec or "feet" not in spec:
                raise reader.error(
                    value_node,
                    f'depths {key!r} needs hexes and feet, e.g. {{hexes: ["1910-2111"], feet: 12}}',
                )
            items = reader.value(spec["hexes"][1])
            if not isinstance(items, list) or not items:
                raise reader.error(
                    spec["hexes"][1], f'depths {key!r} hexes: a list like ["1910-2111", "2212"]'
                )
            feet_node, what = spec["feet"][1], f"depths {key!r}"
        feet = map_number(
            reader,
            feet_node,
            f"{what}: a depth is in feet, 0 or more (at most {MAX_MAP_NUMBER}); got",
        )
        rects = []
        for item in items:
            try:
                rects.append(_rect(str(item), sea_map))
            except MapError as exc:
                raise reader.error(key_node, f"{what}: {exc}") from None
        out.append((tuple(rects), feet))
        keys.append((key, key_node))
    if new:  # a campaign that stored such a map before this check still reads it
        _check_hidden(reader, out, keys)
    return out


def _check_hidden(reader: MapReader, sets: DepthSets, keys: list[tuple[str, Any]]) -> None:
    """An entry every hex of which a later one charts again would chart nothing (the later
    wins): a map written "0504": 8 above a rectangle holding 0504 lost its 8 ft without a
    word. One line naming the entry, what hides it and the fix."""
    for i, (rects, feet) in enumerate(sets):
        later = [(j, r) for j in range(i + 1, len(sets)) for r in sets[j][0]]
        hiders: list[int] = []
        for c1, r1, c2, r2 in rects:
            found = next(
                (
                    j
                    for j, (a1, b1, a2, b2) in later
                    if a1 <= c1 and b1 <= r1 and c2 <= a2 and r2 <= b2
                ),
                None,
            )
            if found is None:
                break
            hiders.append(found)
        else:
            key, node = keys[i]
            names = ", ".join(repr(keys[j][0]) for j in sorted(set(hiders)))
            raise reader.error(
                node,
                f"depths {key!r} ({feet:g} ft) is charted over by {names}, listed after it "
                "(where entries overlap, the later wins): list it after, or give the hex its "
                "own depth under hexes (which wins over every entry)",
            )


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
