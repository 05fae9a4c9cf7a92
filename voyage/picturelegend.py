"""The picture's legend (issue 15): entries that name what they show.

Terrains are called what the map calls them (a legend character's ``name:`` in the map
file, "rocky shallows", "drowned ruins"), else in plain words ("open sea", "reef"); a track
is "voyage 2 of Sea Witch"; a ship is her name; the marks say what they mark
(voyage.picturemarks). matplotlib is imported only when a legend is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .maps import TERRAIN_WORDS

if TYPE_CHECKING:
    from .maps import SeaMap

Kind = tuple[str, str | None]  # (terrain, seabed) as voyage.render.fill_kinds gives them


def kind_names(sea_map: SeaMap, kinds: Sequence[Kind]) -> dict[Kind, str]:
    """What the legend calls each (terrain, seabed) fill: the map's own name for it (the
    first legend character of that fill with a ``name``), else the plain words."""
    from .maps import SEA_TERRAINS
    from .render import SEABED_WORDS

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

    from .render import EDGE_COLOUR, TERRAIN_COLOURS, _rgb, kind_colour

    order = list(TERRAIN_COLOURS)
    names = kind_names(sea_map, used)
    by_colour: dict[tuple[int, int, int], list[str]] = {}
    plain = set(TERRAIN_COLOURS.values())  # terrains first, then sea tinted by its seabed
    ranked = sorted(used, key=lambda k: (kind_colour(k) not in plain, order.index(k[0])))
    for kind in ranked:
        words = by_colour.setdefault(kind_colour(kind), [])
        if names[kind] not in words:
            words.append(names[kind])
    return [Patch(facecolor=_rgb(colour), edgecolor=_rgb(EDGE_COLOUR), label=" / ".join(words))
            for colour, words in by_colour.items()]


def track_owner(label: str) -> str:
    """The ship a track belongs to ("voyage 2 of Sea Witch" -> "Sea Witch"), so her track
    and her mark share a colour."""
    found = re.fullmatch(r"voyage \d+ of (.+)", label)
    return found.group(1) if found else label


def track_and_ship_handles(tracks: Sequence[str], ships: Sequence[str],
                           colour_of: dict[str, Any]) -> list[Any]:
    """A line for each track named as it is ("voyage 2 of Sea Witch") and a triangle for
    each ship (her name)."""
    from matplotlib.lines import Line2D

    out: list[Any] = []
    for label in dict.fromkeys(tracks):
        out.append(Line2D([], [], color=colour_of[track_owner(label)], linewidth=2, label=label))
    for name in dict.fromkeys(ships):
        out.append(Line2D([], [], color=colour_of[name], marker="^", linewidth=0,
                          markeredgecolor="white", label=legend_words(name)))
    return out


#: the most characters of a mark's name the legend shows: a hex of rafts and people in the
#: water is named whole on the map, and a legend column as wide pushed the legend off the
#: picture's sides
LEGEND_WORDS = 40


def legend_words(name: str) -> str:
    """``name`` as the legend shows it: cut at a word to :data:`LEGEND_WORDS` characters,
    with an ellipsis, when longer."""
    if len(name) <= LEGEND_WORDS:
        return name
    cut = name[: LEGEND_WORDS - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "\u2026"
