"""The ``currents:`` block of a map file (R64), read with line-and-column errors.

Each entry is either one hex or a named set of hexes, with the hex side the current flows
towards and its speed in knots::

    currents:
      "3118": {flows: S, knots: 3}
      the Needle Race:
        hexes: ["3117-3123"]        # a hex, or FROM-TO: the straight line between them
        flows: S                    # N, NE, SE, S, SW or NW: the way it flows
        knots: 3

A hex may be in one current only, and only sea hexes (any terrain but land) have one.
docs/maps.md describes the block for referees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import yaml

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.map.mapreader import MapHexes, MapReader

#: The six hex sides, clockwise from north (the order of hexmap.CUBE_DIRECTIONS).
HEX_SIDES = ("N", "NE", "SE", "S", "SW", "NW")
SIDE_WORDS = ("north", "north-east", "south-east", "south", "south-west", "north-west")


@dataclass(frozen=True)
class Current:
    """A current: the side it flows towards (index into :data:`HEX_SIDES`) and its knots."""

    side: int
    knots: Fraction

    @property
    def direction(self) -> str:
        """``NE``: the way it flows."""
        return HEX_SIDES[self.side]

    def text(self) -> str:
        """``2 knots to the NE``."""
        return f"{knots_text(self.knots)} knots to the {self.direction}"


def knots_text(knots: Fraction) -> str:
    """``2``, ``2.5``; other fractions as decimals to one place."""
    if knots.denominator == 1:
        return str(knots.numerator)
    return f"{float(knots):.1f}".rstrip("0").rstrip(".")


def parse_side(text: Any) -> int | None:
    """``NE`` (any case) -> 1; None for anything that is not one of the six hex sides."""
    if not isinstance(text, str):
        return None
    word = text.strip().upper().replace("-", "")
    if word in HEX_SIDES:
        return HEX_SIDES.index(word)
    long = [w.replace("-", "").upper() for w in SIDE_WORDS]
    return long.index(word) if word in long else None


CURRENT_KEYS = ("hexes", "flows", "knots", "notes")
#: The fastest current a map may give (AquaWars: about 5 in the ocean, 5-10 in rivers).
MAX_CURRENT_KNOTS = 100


def read_currents(reader: MapReader, node: yaml.Node, sea_map: MapHexes) -> dict[str, Current]:
    """hex name -> :class:`Current`, every entry checked."""
    out: dict[str, Current] = {}
    for key, (key_node, value_node) in reader.mapping(node, "currents", None).items():
        one_hex = hexmap.is_hex_name(key)
        what = f"current {key}" if one_hex else f"current {key!r}"
        spec = reader.mapping(value_node, what, CURRENT_KEYS)
        for needed in ("flows", "knots"):
            if needed not in spec:
                raise reader.error(
                    value_node,
                    f"{what} needs '{needed}': e.g. {{flows: NE, knots: 2}} (the hex side it "
                    "flows towards, and its speed)",
                )
        flows_node = spec["flows"][1]
        side = parse_side(reader.value(flows_node))
        if side is None:
            raise reader.error(
                flows_node,
                f"{what}: direction {reader.value(flows_node)!r} is not a hex side: use one of "
                f"{', '.join(HEX_SIDES)} (the way it flows)",
            )
        knots_node = spec["knots"][1]
        knots = reader.value(knots_node)
        if (
            isinstance(knots, bool)
            or not isinstance(knots, int | float)
            or not math.isfinite(knots)
            or knots > MAX_CURRENT_KNOTS
        ):
            # .nan and .inf are floats to YAML; a runaway current is a typo, not a sea
            raise reader.error(
                knots_node,
                f"{what}: knots must be a number from 0 to {MAX_CURRENT_KNOTS}, got {knots!r}",
            )
        if knots < 0:
            raise reader.error(
                knots_node,
                f"{what}: a speed of {knots:g} knots is negative: give 0 or more knots and "
                "turn the direction round to make it flow the other way",
            )
        current = Current(side, Fraction(str(knots)).limit_denominator(1000))
        if one_hex:
            if "hexes" in spec:
                raise reader.error(spec["hexes"][0], f"{what} is one hex: it takes no 'hexes'")
            names = [(key, key_node)]
        else:
            if "hexes" not in spec:
                raise reader.error(
                    value_node, f"{what} needs 'hexes': a list of CCRR or FROM-TO lines"
                )
            names = _hex_list(reader, spec["hexes"][1], what)
        for name, where in names:
            _add(reader, out, sea_map, name, where, current, what)
    return out


def _hex_list(reader: MapReader, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node]]:
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    out: list[tuple[str, yaml.Node]] = []
    for item in items:
        text = str(reader.value(item)).strip()
        ends = [t.strip() for t in text.split("-")] if "-" in text else [text]
        if len(ends) > 2 or not all(hexmap.is_hex_name(e) for e in ends):
            raise reader.error(
                item, f"{what}: {text!r} is not a hex or a FROM-TO line: write CCRR or CCRR-CCRR"
            )
        hexes = hexmap.line(ends[0], ends[-1]) if len(ends) == 2 else [hexmap.canonical(text)]
        out.extend((h, item) for h in hexes)
    return out


def _add(
    reader: MapReader,
    out: dict[str, Current],
    sea_map: MapHexes,
    name: str,
    node: Any,
    current: Current,
    what: str,
) -> None:
    try:
        key = hexmap.canonical(name)
    except MapError as exc:
        raise reader.error(node, f"{what}: {exc}") from None
    if not sea_map.in_bounds(key):
        raise reader.error(node, f"{what}: {sea_map.off_map_message(key)}")
    if not sea_map.is_sea(key):
        raise reader.error(node, f"{what}: hex {key} is land: currents flow in sea hexes")
    if key in out and out[key] != current:
        raise reader.error(node, f"{what}: hex {key} already has a current: give each hex one")
    out[key] = current
