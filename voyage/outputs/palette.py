"""The map pictures' colours and the words for them: each terrain's fill, open sea tinted by
its seabed, the edges, passages, storms and ships. The picture (voyage.outputs.render), its
legend (voyage.outputs.picturelegend) and the forecast's map (voyage.outputs.forecast_plot)
share them, so a legend patch is the colour of the hexes it names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voyage.map.seamap import Hex


# Terrain colours (RGB 0-255): clear, and far enough apart to tell in a test pixel.
TERRAIN_COLOURS: dict[str, tuple[int, int, int]] = {
    "sea": (158, 202, 225),
    "land": (214, 196, 140),
    "port": (203, 40, 40),
    "reef": (231, 118, 172),
    "shoal": (246, 232, 163),
    "wreck": (102, 90, 78),
}

# Open sea is tinted by its seabed where that is not sand (R33), so rocky water shows.
SEABED_COLOURS: dict[str, tuple[int, int, int]] = {
    "rocky": (110, 160, 196),
    "wreckage": (135, 150, 190),
    "ruins": (135, 150, 190),
}

SEABED_WORDS = {
    "rocky": "rocky bottom",
    "wreckage": "wreckage / ruins bottom",
    "ruins": "wreckage / ruins bottom",
}

EDGE_COLOUR = (90, 110, 125)

NARROW_COLOUR = (20, 40, 140)

#: Storms on every picture (`map render`, the weather forecast's cells, the forecast's
#: map, a voyage's export), by sea-state level (R60): 1 stormy seas, 2 major storm,
#: 3 hurricane. Hatched, so that a shade is never mistaken for a terrain (sand, rocks)
#: under it. A storm whose state a picture does not know is drawn as stormy seas.
STATE_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (77, 77, 217),
    2: (255, 115, 0),
    3: (204, 0, 0),
}
STATE_ALPHA = {1: 0.45, 2: 0.65, 3: 0.75}
STATE_HATCH = {1: "..", 2: "//", 3: "xx"}
STORM_COLOUR = STATE_COLOURS[1]

#: A wreck (a ship sunk or abandoned) on every picture: a dark X, never a ship's triangle.
WRECK_COLOUR = (50, 50, 50)
WRECK_MARKER = "X"

SHIP_COLOURS = [
    (0, 0, 0),
    (230, 110, 0),
    (0, 130, 60),
    (120, 40, 160),
    (0, 90, 200),
    (170, 0, 60),
]


def hex_colour(h: Hex) -> tuple[int, int, int]:
    """The fill colour of a hex in the picture (RGB 0-255)."""
    if h.terrain == "sea" and h.seabed in SEABED_COLOURS:
        return SEABED_COLOURS[h.seabed]
    return TERRAIN_COLOURS[h.terrain]


def rgb(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


def kind_colour(kind: tuple[str, str | None]) -> tuple[int, int, int]:
    """The fill colour of a (terrain, seabed) pair, as :func:`hex_colour` gives it."""
    terrain, seabed = kind
    if terrain == "sea" and seabed in SEABED_COLOURS:
        return SEABED_COLOURS[seabed]
    return TERRAIN_COLOURS[terrain]
