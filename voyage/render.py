"""Map pictures (PNG/SVG/PDF through hexalattice and matplotlib) and terminal maps.

matplotlib and hexalattice are imported inside :func:`render_map` only, so that importing
this module (and running ``voyage --help``) stays fast.

Geometry, shared by the picture and the tests (R30): hexes are flat-topped, one unit across
from flat side to flat side, so neighbouring centres are exactly 1 apart. Column ``c`` is at
``x = (c - 1) * sqrt(3) / 2``; row ``r`` at ``y = -(r - 1)``, and even columns sit half a
hex lower (``y - 0.5``). y grows upwards, so row 01 is at the top of the picture.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import hexmap
from .errors import MapError
from .maps import TERRAIN_WORDS

if TYPE_CHECKING:
    from .maps import Hex, SeaMap

SQRT3 = math.sqrt(3)
HEX_RADIUS = 1 / SQRT3  # centre to corner, for a hex 1 across its flats

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
STORM_COLOUR = (40, 40, 60)
SHIP_COLOURS = [
    (0, 0, 0),
    (230, 110, 0),
    (0, 130, 60),
    (120, 40, 160),
    (0, 90, 200),
    (170, 0, 60),
]
FORMATS = {".png", ".svg", ".pdf"}


def hex_colour(h: Hex) -> tuple[int, int, int]:
    """The fill colour of a hex in the picture (RGB 0-255)."""
    if h.terrain == "sea" and h.seabed in SEABED_COLOURS:
        return SEABED_COLOURS[h.seabed]
    return TERRAIN_COLOURS[h.terrain]


def _rgb(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


#: Width of one legend entry, and the most entries a legend has (terrains, seabeds,
#: passage, storm, ships, a few tracks, event): the picture leaves room for them.
LEGEND_ENTRY_PX = 170
LEGEND_MAX_ENTRIES = 14


@dataclass
class MapGeometry:
    """Where each hex of a map (or of an area of it) lies, in drawing units and in pixels.

    The picture's map area starts ``left`` pixels from the image's left and ``top`` pixels
    from its top; one hex is ``pixels_per_hex`` pixels across its flats.
    """

    width: int
    height: int
    around: str | None = None
    radius: int | None = None
    pixels_per_hex: int = 36
    title_px: int = 40
    legend_px: int = 90
    min_width_px: int = 640
    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if (self.around is None) != (self.radius is None):
            raise MapError("give both --around HEX and --radius N, or neither")
        if self.around is not None:
            assert self.radius is not None
            if self.radius < 0:
                raise MapError(f"radius must be 0 or more (got {self.radius})")
            col, row = hexmap.parse_hex(self.around)
            if col > self.width or row > self.height:
                raise MapError(
                    f"hex {self.around} is off the map (0101 to "
                    f"{hexmap.hex_name(self.width, self.height)})"
                )
            self.around = hexmap.canonical(self.around)
            self.names = hexmap.within(self.around, self.radius, self.width, self.height)
            self.names.sort(key=lambda n: hexmap.parse_hex(n)[::-1])
        else:
            self.names = [
                hexmap.hex_name(c, r)
                for r in range(1, self.height + 1)
                for c in range(1, self.width + 1)
            ]
        xs = [self.hex_center(n)[0] for n in self.names]
        ys = [self.hex_center(n)[1] for n in self.names]
        pad = 0.25
        ppu = self.pixels_per_hex
        self.xmin = min(xs) - HEX_RADIUS - pad
        self.ymax = max(ys) + 0.5 + pad
        self.map_w = math.ceil((max(xs) + HEX_RADIUS + pad - self.xmin) * ppu)
        self.map_h = math.ceil((self.ymax - (min(ys) - 0.5 - pad)) * ppu)
        self.xmax = self.xmin + self.map_w / ppu
        self.ymin = self.ymax - self.map_h / ppu
        self.image_w = max(self.map_w + 40, self.min_width_px)
        self.left = (self.image_w - self.map_w) // 2
        self.top = self.title_px
        # The legend wraps to the picture's width (an entry is about 170 px wide), and the
        # picture grows to hold its rows, so a small crop never clips it.
        self.legend_cols = max(1, min(5, self.image_w // LEGEND_ENTRY_PX))
        rows = math.ceil(LEGEND_MAX_ENTRIES / self.legend_cols)
        self.legend_px = max(self.legend_px, 30 + 20 * rows)
        self.image_h = self.title_px + self.map_h + self.legend_px

    @classmethod
    def for_map(
        cls, sea_map: SeaMap, around: str | None = None, radius: int | None = None, **kw: int
    ) -> MapGeometry:
        """The geometry of ``sea_map`` (or the area within ``radius`` of ``around``)."""
        return cls(sea_map.width, sea_map.height, around, radius, **kw)  # type: ignore[arg-type]

    def contains(self, name: str) -> bool:
        """Whether this picture shows the hex ``name``."""
        if self.around is None:
            col, row = hexmap.parse_hex(name)
            return col <= self.width and row <= self.height
        assert self.radius is not None
        return hexmap.distance(self.around, name) <= self.radius and self._on_map(name)

    def _on_map(self, name: str) -> bool:
        col, row = hexmap.parse_hex(name)
        return col <= self.width and row <= self.height

    @staticmethod
    def hex_center(name: str) -> tuple[float, float]:
        """The centre of hex ``name`` in drawing units (neighbours are 1 apart)."""
        col, row = hexmap.parse_hex(name)
        c0 = col - 1
        return c0 * SQRT3 / 2, -((row - 1) + 0.5 * (c0 & 1))

    def pixel(self, name: str) -> tuple[float, float]:
        """The centre of hex ``name`` in image pixels: (x from the left, y from the top)."""
        x, y = self.hex_center(name)
        ppu = self.pixels_per_hex
        return self.left + (x - self.xmin) * ppu, self.top + (self.ymax - y) * ppu


CURRENT_COLOUR = (0.05, 0.35, 0.6)


def _draw_currents(
    ax: Any, currents: Sequence[tuple[str, int, float]], shown: set[str], scale: float
) -> None:
    """R64: an arrow across each hex with a current, the way it flows, and its knots."""
    for name, side, knots in currents:
        if hexmap.canonical(name) not in shown:
            continue
        x, y = MapGeometry.hex_center(name)
        q, r, _ = hexmap.CUBE_DIRECTIONS[side]
        # the unit step toward that side, in drawing units (flat-top: N is straight up)
        dx, dy = q * SQRT3 / 2, -(r + q / 2)
        ax.annotate(
            "",
            xy=(x + 0.32 * dx, y + 0.32 * dy),
            xytext=(x - 0.32 * dx, y - 0.32 * dy),
            arrowprops={"arrowstyle": "-|>", "color": CURRENT_COLOUR, "lw": 1.2 * scale},
            zorder=6,
        )
        ax.text(x + 0.22, y - 0.3, f"{knots:g}", fontsize=6 * scale, color=CURRENT_COLOUR, zorder=6)


def hex_center(where: SeaMap | MapGeometry | None, name: str) -> tuple[float, float]:
    """Centre of hex ``name`` in the drawing's coordinates (the same for every map)."""
    return MapGeometry.hex_center(name)


def hex_pixel(geometry: MapGeometry, name: str) -> tuple[int, int]:
    """Image pixel (column, row from the top) at the centre of hex ``name``."""
    x, y = geometry.pixel(name)
    return int(x), int(y)


# ----------------------------------------------------------------------------- the picture


def render_map(
    sea_map: SeaMap,
    out_path: str | Path,
    *,
    labels: bool = False,
    around: str | None = None,
    radius: int | None = None,
    storms: Iterable[str] = (),
    ships: Sequence[tuple[str, str]] = (),
    tracks: Sequence[tuple[str, Sequence[str]]] = (),
    title: str | None = None,
    marks: Sequence[tuple[str, str]] = (),
    pixels_per_hex: int = 36,
    currents: Sequence[tuple[str, int, float]] = (),
) -> Path:
    """Draw ``sea_map`` to ``out_path`` (.png, .svg or .pdf) and return the path.

    ``storms`` are hex names (hatched), ``ships`` (name, hex) pairs, ``tracks`` (ship name,
    hexes in order) drawn as a line through hex centres, ``marks`` (hex, text) for events,
    ``currents`` (hex, side 0-5 clockwise from N, knots) as arrows the way they flow (R64).
    ``labels`` writes every hex's CCRR name. With ``around``/``radius`` only that area is
    drawn. Nothing is written but ``out_path`` (its folder must already exist).
    """
    out = Path(out_path)
    if out.suffix.lower() not in FORMATS:
        raise MapError(f"{out}: write the picture as .png, .svg or .pdf")
    if not out.parent.is_dir():
        raise MapError(f"{out}: the folder {out.parent} does not exist")
    geometry = MapGeometry.for_map(sea_map, around, radius, pixels_per_hex=pixels_per_hex)
    storm_set = {hexmap.canonical(h) for h in storms}
    for name in [
        *storm_set,
        *(h for _, h in ships),
        *(h for h, _ in marks),
        *(h for _, hexes in tracks for h in hexes),
    ]:
        if not sea_map.in_bounds(name):
            raise MapError(sea_map.off_map_message(name))

    import matplotlib

    matplotlib.use("Agg")
    import numpy as np
    from hexalattice.hexalattice import plot_single_lattice_custom_colors
    from matplotlib import patheffects
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, RegularPolygon

    dpi = 100
    fig = Figure(figsize=(geometry.image_w / dpi, geometry.image_h / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    fig.patch.set_facecolor("white")
    ax = fig.add_axes(
        (
            geometry.left / geometry.image_w,
            geometry.legend_px / geometry.image_h,
            geometry.map_w / geometry.image_w,
            geometry.map_h / geometry.image_h,
        )
    )
    hexes = [sea_map.hex(n) for n in geometry.names]
    centres = np.array([geometry.hex_center(h.name) for h in hexes])
    faces = np.array([_rgb(hex_colour(h)) for h in hexes])
    edges = np.array([_rgb(EDGE_COLOUR)] * len(hexes))
    # hexalattice draws one RegularPolygon per centre; we give it our own centres (flat-top,
    # even columns lower, R30) because its create_hex_grid lays out pointy-top rows.
    # rotate_deg=30 turns its pointy-top polygons flat-top; min_diam=1 is our unit.
    plot_single_lattice_custom_colors(
        centres[:, 0],
        centres[:, 1],
        face_color=faces,
        edge_color=edges,
        min_diam=1.0,
        plotting_gap=0.0,
        rotate_deg=30,
        line_width=0.4,
        h_ax=ax,
    )
    ax.set_aspect("auto")
    ax.set_xlim(geometry.xmin, geometry.xmax)
    ax.set_ylim(geometry.ymin, geometry.ymax)
    ax.set_axis_off()

    scale = pixels_per_hex / 36
    outline = [patheffects.withStroke(linewidth=2.5 * scale, foreground="white")]
    shown = set(geometry.names)
    orientation = math.radians(-30)

    for h in hexes:
        x, y = geometry.hex_center(h.name)
        if h.narrow_passage:
            ax.add_patch(
                RegularPolygon(
                    (x, y),
                    6,
                    radius=HEX_RADIUS * 0.82,
                    orientation=orientation,
                    fill=False,
                    edgecolor=_rgb(NARROW_COLOUR),
                    linewidth=1.4 * scale,
                    linestyle="--",
                )
            )
        if labels:
            ax.text(
                x,
                y + 0.3,
                h.name,
                ha="center",
                va="center",
                fontsize=5.5 * scale,
                color=(0.2, 0.2, 0.2),
            )
        if h.port:
            ax.text(
                x,
                y - 0.62,
                h.port,
                ha="center",
                va="top",
                fontsize=8 * scale,
                weight="bold",
                color=(0.45, 0.05, 0.05),
                path_effects=outline,
                zorder=6,
            )
        if h.label:
            ax.text(
                x,
                y - 0.3,
                h.label,
                ha="center",
                va="center",
                fontsize=7 * scale,
                style="italic",
                color=(0.15, 0.15, 0.3),
                path_effects=outline,
                zorder=5,
            )

    for name in sorted(storm_set & shown):
        x, y = geometry.hex_center(name)
        ax.add_patch(
            RegularPolygon(
                (x, y),
                6,
                radius=HEX_RADIUS,
                orientation=orientation,
                facecolor=(*_rgb(STORM_COLOUR), 0.18),
                edgecolor=(*_rgb(STORM_COLOUR), 0.8),
                hatch="////",
                linewidth=0.6,
                zorder=3,
            )
        )

    _draw_currents(ax, currents, shown, scale)

    # Ships outside the area drawn are left out (their tracks are clipped at its edge).
    ships = [(n, h) for n, h in ships if hexmap.canonical(h) in shown]
    colour_of: dict[str, tuple[float, float, float]] = {}
    for ship_name in [n for n, _ in ships] + [n for n, _ in tracks]:
        if ship_name not in colour_of:
            colour_of[ship_name] = _rgb(SHIP_COLOURS[len(colour_of) % len(SHIP_COLOURS)])
    for ship_name, hexes_on_track in tracks:
        points = [geometry.hex_center(h) for h in hexes_on_track]
        if len(points) >= 2:
            ax.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                "-",
                color=colour_of[ship_name],
                linewidth=2.2 * scale,
                alpha=0.85,
                zorder=7,
            )
        elif points:
            ax.plot(
                [points[0][0]],
                [points[0][1]],
                "o",
                color=colour_of[ship_name],
                markersize=4 * scale,
                zorder=7,
            )
    for ship_name, name in ships:
        x, y = geometry.hex_center(name)
        ax.plot(
            [x],
            [y],
            marker="^",
            color=colour_of[ship_name],
            markersize=10 * scale,
            markeredgecolor="white",
            markeredgewidth=1.0,
            zorder=9,
        )
        ax.text(
            x + 0.3,
            y + 0.18,
            ship_name,
            fontsize=8 * scale,
            weight="bold",
            color=colour_of[ship_name],
            path_effects=outline,
            zorder=9,
        )
    for name, text in marks:
        if hexmap.canonical(name) not in shown:
            continue
        x, y = geometry.hex_center(name)
        ax.plot(
            [x],
            [y],
            marker="*",
            color=(0.9, 0.75, 0.0),
            markersize=11 * scale,
            markeredgecolor="black",
            markeredgewidth=0.6,
            zorder=8,
        )
        ax.text(x + 0.3, y - 0.2, text, fontsize=7 * scale, path_effects=outline, zorder=8)

    # -- legend and title
    present = [t for t in TERRAIN_COLOURS if any(h.terrain == t for h in hexes)]
    handles: list[object] = [
        Patch(
            facecolor=_rgb(TERRAIN_COLOURS[t]), edgecolor=_rgb(EDGE_COLOUR), label=TERRAIN_WORDS[t]
        )
        for t in present
    ]
    for word in dict.fromkeys(
        SEABED_WORDS[h.seabed] for h in hexes if h.terrain == "sea" and h.seabed in SEABED_WORDS
    ):
        colour = next(SEABED_COLOURS[k] for k, w in SEABED_WORDS.items() if w == word)
        handles.append(Patch(facecolor=_rgb(colour), edgecolor=_rgb(EDGE_COLOUR), label=word))
    if any(h.narrow_passage for h in hexes):
        handles.append(
            Patch(fill=False, edgecolor=_rgb(NARROW_COLOUR), linestyle="--", label="narrow passage")
        )
    if any(hexmap.canonical(h) in shown for h, _, _ in currents):
        handles.append(
            Line2D([], [], color=CURRENT_COLOUR, marker=">", linewidth=1.5, label="current")
        )
    if storm_set & shown:
        handles.append(
            Patch(
                facecolor=(*_rgb(STORM_COLOUR), 0.18),
                hatch="////",
                edgecolor=_rgb(STORM_COLOUR),
                label="storm",
            )
        )
    for ship_name, ship_colour in colour_of.items():
        handles.append(Line2D([], [], color=ship_colour, marker="^", linewidth=2, label=ship_name))
    if marks:
        handles.append(
            Line2D(
                [],
                [],
                color=(0.9, 0.75, 0.0),
                marker="*",
                linewidth=0,
                markeredgecolor="black",
                label="event",
            )
        )
    fig.legend(
        handles=handles,
        loc="lower center",
        ncol=min(len(handles), geometry.legend_cols),
        frameon=False,
        fontsize=9,
        bbox_to_anchor=(0.5, 0.02),
    )
    heading = title or sea_map.name
    if around is not None:
        heading += f" (within {radius} of {geometry.around})"
    fig.text(
        0.5,
        1 - (geometry.title_px / 2) / geometry.image_h,
        heading,
        ha="center",
        va="center",
        fontsize=14,
        weight="bold",
    )
    fig.savefig(out, dpi=dpi, format=out.suffix.lower().lstrip("."))
    return out


# ----------------------------------------------------------------------------- terminal

STORM_CHAR = "!"
SHIP_MARKS = "123456789ABCDEFGHJKLMNPQRSTUVWXYZ"


def text_map(
    sea_map: SeaMap,
    *,
    around: str | None = None,
    radius: int | None = None,
    storms: Iterable[str] = (),
    ships: Sequence[tuple[str, str]] = (),
    legend: bool = True,
) -> str:
    """The map as text, one character per hex laid out as in the map file.

    Ships are marked 1, 2, 3 ... (listed under the map), storms with ``!`` (over water;
    land and ports keep their own character so they stay readable). Rows carry their
    number on the left and columns their number on top (tens over units); even columns sit
    half a hex lower on the real map (R30). Outside ``around``/``radius`` hexes are blank.
    """
    geometry = MapGeometry.for_map(sea_map, around, radius)
    shown = set(geometry.names)
    cols = sorted({hexmap.parse_hex(n)[0] for n in shown})
    rows = sorted({hexmap.parse_hex(n)[1] for n in shown})
    storm_set = {hexmap.canonical(h) for h in storms}
    ship_at: dict[str, str] = {}
    key_lines: list[str] = []
    for ship_name, name in ships:
        canonical = hexmap.canonical(name)
        if canonical not in shown:
            continue
        if canonical not in ship_at:  # ships sharing a hex share its mark
            n = len(ship_at)
            ship_at[canonical] = SHIP_MARKS[n] if n < len(SHIP_MARKS) else "@"
        key_lines.append(f"  {ship_at[canonical]}  {ship_name} ({canonical})")
    wide = max(cols) > 99 or max(rows) > 99
    digits = 3 if wide else 2
    pad = " " * (digits + 1)
    out = []
    if wide:
        out.append(pad + "".join(str(c // 100 % 10) for c in cols))
    out.append(pad + "".join(str(c // 10 % 10) for c in cols))
    out.append(pad + "".join(str(c % 10) for c in cols))
    for r in rows:
        chars = []
        for c in cols:
            name = hexmap.hex_name(c, r)
            if name not in shown:
                chars.append(" ")
            elif name in ship_at:
                chars.append(ship_at[name])
            elif name in storm_set and sea_map.terrain(name) not in ("land", "port"):
                chars.append(STORM_CHAR)
            else:
                chars.append(sea_map.rows[r - 1][c - 1])
        out.append(f"{r:0{digits}d} " + "".join(chars).rstrip())
    if legend:
        out.append("")
        used = {sea_map.rows[hexmap.parse_hex(n)[1] - 1][hexmap.parse_hex(n)[0] - 1] for n in shown}
        out.append("Legend:")
        for ch, entry in sea_map.legend.items():
            if ch in used:
                out.append(f"  {ch}  {entry.description}")
        if storm_set & shown:
            out.append(f"  {STORM_CHAR}  storm")
        out.extend(key_lines)
        ports = [p for p in sea_map.ports() if p.name in shown]
        if ports:
            out.append("Ports:")
            for p in ports:
                fuel = f", fuel {p.fuel.price:g}/hlb" if p.fuel else ", no fuel"
                out.append(f"  {p.name}  {p.port}{fuel}")
    return "\n".join(out)
