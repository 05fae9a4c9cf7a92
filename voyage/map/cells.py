"""A map's hexes as byte arrays: one byte a hex, row by row from 0101.

:class:`voyage.map.seamap.SeaMap` keeps its terrain as codes (:data:`TERRAIN_CODE`) and its coast
as 0/1 flags in ``bytes``, worked out from the drawing with whole-string and whole-row
operations; :mod:`voyage.store.mapcache` stores them with the campaign, and route finding
(:func:`voyage.map.hexes.shortest_path_cells`) searches them with integer indexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TERRAINS = ("sea", "land", "port", "reef", "shoal", "wreck")
# Everything but land is water a ship can be in. Ports are harbour hexes on the coast.
SEA_TERRAINS = frozenset({"sea", "port", "reef", "shoal", "wreck"})
#: A terrain's one-byte code in :attr:`SeaMap.cells` (its place in TERRAINS).
TERRAIN_CODE = {t: i for i, t in enumerate(TERRAINS)}
LAND_CODE = TERRAIN_CODE["land"]
#: ``bytes.translate`` table from terrain codes: water -> 1, land (and anything else) -> 0.
WATER_TABLE = bytes(
    1 if i < len(TERRAINS) and TERRAINS[i] in SEA_TERRAINS else 0 for i in range(256)
)


def terrain_cells(rows: list[str], legend: Mapping[str, Any]) -> bytes:
    """The terrain code (TERRAIN_CODE) of every hex, row by row from 0101, as bytes."""
    table = str.maketrans({ch: chr(TERRAIN_CODE[entry.terrain]) for ch, entry in legend.items()})
    return "".join(rows).translate(table).encode("latin-1")


def coastal_cells(cells: bytes, width: int, height: int) -> bytes:
    """1 for every water hex with land beside it (R33), else 0: one byte per hex.

    Each row is held as a Python integer with one bit per column (bit ``c`` is column
    ``c + 1``), so the six neighbour tests are shifts and ors of whole rows rather than a
    million small steps: a hex in an odd column (bit ``c`` even) touches the columns beside
    it in its own row and the row above, an even column (half a hex lower, R30) its own row
    and the row below.
    """
    full = (1 << width) - 1
    odd_columns = int(("01" * ((width + 1) // 2))[-width:], 2)  # bits 0, 2, 4 ...
    even_columns = full ^ odd_columns
    land_table = bytes(0x31 if i == LAND_CODE else 0x30 for i in range(256))
    water_table = bytes(0x31 if WATER_TABLE[i] else 0x30 for i in range(256))

    def bits(table: bytes) -> list[int]:
        return [
            int(cells[r * width : (r + 1) * width].translate(table)[::-1], 2) for r in range(height)
        ]

    land, water = bits(land_table), bits(water_table)
    beside = [((row << 1) | (row >> 1)) & full for row in land]
    out = []
    to_bytes = bytes.maketrans(b"01", b"\x00\x01")
    for r in range(height):
        above = r - 1 >= 0
        below = r + 1 < height
        touching = beside[r]
        if above:
            touching |= land[r - 1] | (beside[r - 1] & odd_columns)
        if below:
            touching |= land[r + 1] | (beside[r + 1] & even_columns)
        row_bits = format(touching & water[r], f"0{width}b")[::-1]
        out.append(row_bits.encode("ascii").translate(to_bytes))
    return b"".join(out)
