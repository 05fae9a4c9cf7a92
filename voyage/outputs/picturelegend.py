"""The picture's legend: entries that name what they show.

Terrains are called what the map calls them (a legend character's ``name:`` in the map
file, "rocky shallows", "drowned ruins"), else in plain words ("open sea", "reef"); a track
is "voyage 2 of Sea Witch"; a ship is her name; the marks say what they mark
(voyage.outputs.picturemarks). matplotlib is imported only when a legend is drawn.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from voyage.base.escape import visible
from voyage.map.seamap import SEA_TERRAINS, TERRAIN_WORDS
from voyage.outputs.palette import (
    EDGE_COLOUR,
    SEABED_WORDS,
    TERRAIN_COLOURS,
    WRECK_COLOUR,
    WRECK_MARKER,
    kind_colour,
    rgb,
)

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap

Kind = tuple[str, str | None]  # (terrain, seabed) as voyage.outputs.render.fill_kinds gives them


def kind_names(sea_map: SeaMap, kinds: Sequence[Kind]) -> dict[Kind, str]:
    """What the legend calls each (terrain, seabed) fill: the map's own name for it (the
    first legend character of that fill with a ``name``), else the plain words."""
    named: dict[Kind, str] = {}
    for entry in sea_map.legend.values():
        seabed = entry.seabed or sea_map.default_seabed
        key = (entry.terrain, seabed if entry.terrain in SEA_TERRAINS else None)
        if entry.name and key not in named:
            named[key] = entry.name
    out = {}
    for kind in kinds:
        terrain, bottom = kind
        if kind in named:
            out[kind] = named[kind]
        elif terrain == "sea" and bottom is not None and bottom in SEABED_WORDS:
            out[kind] = SEABED_WORDS[bottom]
        else:
            out[kind] = TERRAIN_WORDS[terrain]
    return out


def terrain_handles(sea_map: SeaMap, used: Sequence[Kind]) -> list[Any]:
    """One legend patch per fill colour on the picture, named as the map names it (fills
    sharing a colour share the entry: "drowned ruins / wreckage bottom")."""
    from matplotlib.patches import Patch

    order = list(TERRAIN_COLOURS)
    names = kind_names(sea_map, used)
    by_colour: dict[tuple[int, int, int], list[str]] = {}
    plain = set(TERRAIN_COLOURS.values())  # terrains first, then sea tinted by its seabed
    ranked = sorted(used, key=lambda k: (kind_colour(k) not in plain, order.index(k[0])))
    for kind in ranked:
        words = by_colour.setdefault(kind_colour(kind), [])
        if names[kind] not in words:
            words.append(names[kind])
    return [
        Patch(facecolor=rgb(colour), edgecolor=rgb(EDGE_COLOUR), label=" / ".join(words))
        for colour, words in by_colour.items()
    ]


def track_owner(label: str) -> str:
    """The ship a track belongs to ("voyage 2 of Sea Witch" -> "Sea Witch", "voyage 3 of
    Gull (her 1st)" -> "Gull"), so her track and her mark share a colour."""
    found = re.fullmatch(r"voyage \d+ of (.+?)(?: \(her \d+(?:st|nd|rd|th)\))?", label)
    return found.group(1) if found else label


def track_and_ship_handles(
    tracks: Sequence[str],
    ships: Sequence[str],
    colour_of: dict[str, Any],
    wrecks: Collection[str] = (),
) -> list[Any]:
    """A line for each track named as it is ("voyage 2 of Sea Witch"), a triangle for
    each ship (her name), a dark X for each wreck ("Grey Widow (wreck)")."""
    from matplotlib.lines import Line2D

    out: list[Any] = []
    for label in dict.fromkeys(tracks):
        out.append(
            Line2D([], [], color=colour_of[track_owner(label)], linewidth=2, label=visible(label))
        )
    for name in dict.fromkeys(ships):
        lost = name in wrecks
        out.append(
            Line2D(
                [],
                [],
                color=rgb(WRECK_COLOUR) if lost else colour_of[name],
                marker=WRECK_MARKER if lost else "^",
                linewidth=0,
                markeredgecolor=colour_of[name] if lost else "white",
                label=legend_words(f"{name} (wreck)" if lost else name),
            )
        )
    return out


#: the most characters of a mark's name the legend shows: a hex of rafts and people in the
#: water is named whole on the map, and a legend column as wide pushed the legend off the
#: picture's sides
LEGEND_WORDS = 40


def legend_words(name: str) -> str:
    """``name`` as the legend shows it: on one line, each character a name may not hold
    shown as U+FFFD (voyage.base.escape.visible: a font has no glyph for a control
    character), cut at a word to :data:`LEGEND_WORDS` characters, with an ellipsis, when
    longer."""
    name = visible(name)
    if len(name) <= LEGEND_WORDS:
        return name
    cut = name[: LEGEND_WORDS - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "\u2026"


#: pixels from the picture's bottom edge to the legend, and from the legend to the map
LEGEND_MARGIN_PX = 10
LEGEND_GAP_PX = 8


def place_legend(fig: Any, ax: Any, handles: Sequence[Any], geometry: Any) -> Any:
    """The legend under the map, never over it: measured as drawn, in as many columns as
    the picture's width holds (at most ``geometry.legend_cols``), and the picture grown at
    its bottom when its rows need more room than ``geometry.legend_px`` (twenty entries
    covered the map's bottom row). The map keeps its size in pixels and its place from the
    top (``MapGeometry.pixel`` holds); ``geometry.legend_px`` and ``image_h`` follow."""
    from matplotlib.backends.backend_agg import RendererAgg

    # text is measured the same on any Agg renderer: a 1 x 1 one, not the picture's buffer
    renderer = RendererAgg(1, 1, fig.dpi)
    room = geometry.image_w - 2 * LEGEND_MARGIN_PX
    ncol = max(1, min(len(handles), geometry.legend_cols))
    while True:
        legend = fig.legend(
            handles=handles,
            loc="lower center",
            ncol=ncol,
            frameon=False,
            fontsize=9,
            bbox_to_anchor=(0.5, LEGEND_MARGIN_PX / geometry.image_h),
        )
        box = legend.get_window_extent(renderer)
        if box.width <= room or ncol == 1:
            break
        legend.remove()
        ncol -= 1
    needed = math.ceil(box.y1) + LEGEND_GAP_PX  # its top, from the picture's bottom edge
    if needed > geometry.legend_px:
        grow_legend_room(fig, ax, geometry, needed)
        legend.set_bbox_to_anchor(
            (0.5, LEGEND_MARGIN_PX / geometry.image_h), transform=fig.transFigure
        )
    return legend


def grow_legend_room(fig: Any, ax: Any, geometry: Any, legend_px: int) -> None:
    """Give the legend ``legend_px`` pixels below the map: the picture grows at its bottom,
    the map's axes keep their size in pixels and their distance from the top."""
    geometry.legend_px = legend_px
    geometry.image_h = geometry.title_px + geometry.map_h + legend_px
    fig.set_size_inches(geometry.image_w / fig.dpi, geometry.image_h / fig.dpi)
    ax.set_position(
        (
            geometry.left / geometry.image_w,
            legend_px / geometry.image_h,
            geometry.map_w / geometry.image_w,
            geometry.map_h / geometry.image_h,
        )
    )
