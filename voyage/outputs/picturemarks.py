"""Marks on a voyage's picture: what a player reads off the track.

A :class:`Mark` is a kind, a hex and its words: the start and end of the voyage, the
numbered events (numbered as the Markdown log numbers them), the day marks (where the ship
was at 00:00 each day). Each kind (:data:`MARK_KINDS`) says how its mark is drawn, how its
words are written, where they rank when labels compete for room, and what the legend calls
it. Another kind (encounters, say) is one more entry in :data:`MARK_KINDS` and marks of
that kind in the list: :func:`draw_marks` draws them all, and their words go through the
same placement pass as every other label (voyage.outputs.picturelabels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from voyage.map import hexes as hexmap
from voyage.outputs.palette import WRECK_COLOUR, WRECK_MARKER, rgb
from voyage.outputs.picturelabels import Label


class Mark(NamedTuple):
    """A mark on the picture: its kind (a key of :data:`MARK_KINDS`), hex and words."""

    kind: str
    hex: str
    text: str


@dataclass(frozen=True)
class MarkKind:
    """How marks of one kind are drawn, labelled and named in the legend."""

    legend: str  #: words in the legend ("" for none: the mark's own words say it)
    marker: str  #: a matplotlib marker
    size: float  #: marker points at a full-size hex
    face: tuple[float, float, float]
    edge: tuple[float, float, float] = (0.0, 0.0, 0.0)
    edge_width: float = 0.6
    fontsize: float = 7.0
    text_colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    weight: str = "normal"
    rank: int = 1  #: lower is placed first (and so is never the one pushed aside)
    required: bool = True  #: False: dropped, mark and all, where its words find no room
    zorder: int = 8


GOLD = (0.9, 0.75, 0.0)
MARK_KINDS: dict[str, MarkKind] = {
    "start": MarkKind("", "o", 7, (1.0, 1.0, 1.0), weight="bold", rank=0),
    "end": MarkKind("", "s", 7, (1.0, 1.0, 1.0), weight="bold", rank=0),
    "event": MarkKind("events, numbered as in the log", "*", 11, GOLD, weight="bold", rank=0),
    # a ship lost: where she sank or was abandoned, as the map of ships draws a wreck
    "wreck": MarkKind(
        "wreck (sunk or abandoned)",
        WRECK_MARKER,
        11,
        rgb(WRECK_COLOUR),
        edge=(1.0, 1.0, 1.0),
        weight="bold",
        rank=0,
    ),
    "day": MarkKind(
        "where she was at 00:00",
        "o",
        5,
        (0.15, 0.15, 0.15),
        edge=(1.0, 1.0, 1.0),
        edge_width=0.8,
        fontsize=7,
        text_colour=(0.1, 0.1, 0.1),
        rank=4,
        required=False,
        zorder=7,
    ),
}


def as_marks(marks: Sequence[Mark | tuple[str, str]]) -> list[Mark]:
    """Marks from render_map's ``marks``: (hex, words) pairs are events."""
    return [m if isinstance(m, Mark) else Mark("event", m[0], m[1]) for m in marks]


def draw_marks(
    ax: Any, geometry: Any, marks: Sequence[Mark], shown: set[str], scale: float, outline: list[Any]
) -> tuple[list[Label], list[Any]]:
    """Draw each mark in the area shown; its words as a Label for the placement pass, and
    a legend handle for each kind on the picture that the legend names."""
    from matplotlib.lines import Line2D

    labels: list[Label] = []
    present: list[str] = []
    for mark in marks:
        if hexmap.canonical(mark.hex) not in shown:
            continue
        kind = MARK_KINDS[mark.kind]
        x, y = geometry.hex_center(mark.hex)
        (drawn,) = ax.plot(
            [x],
            [y],
            marker=kind.marker,
            color=kind.face,
            markersize=kind.size * scale,
            markeredgecolor=kind.edge,
            markeredgewidth=kind.edge_width,
            linestyle="none",
            zorder=kind.zorder,
        )
        drawn.set_gid(f"mark:{mark.kind}")
        if mark.kind not in present:
            present.append(mark.kind)
        if not mark.text:
            continue
        labels.append(
            Label(
                mark.kind,
                x,
                y,
                mark.text,
                kind.fontsize * scale,
                {
                    "color": kind.text_colour,
                    "weight": kind.weight,
                    "path_effects": outline,
                    "zorder": kind.zorder,
                },
                gap=kind.size * scale * geometry_dpi(ax) / 72 / 2,
                rank=kind.rank,
                required=kind.required,
                companions=[] if kind.required else [drawn],
            )
        )
    handles = [
        Line2D(
            [],
            [],
            marker=k.marker,
            color=k.face,
            markeredgecolor=k.edge,
            linewidth=0,
            markeredgewidth=k.edge_width,
            label=k.legend,
        )
        for k in (MARK_KINDS[name] for name in present)
        if k.legend
    ]
    return labels, handles


def geometry_dpi(ax: Any) -> float:
    return float(ax.figure.dpi)
