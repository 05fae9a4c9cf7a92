"""Map pictures (PNG/SVG/PDF through hexalattice and matplotlib) and terminal maps.

matplotlib and hexalattice are imported inside the drawing functions only, so that
importing this module (and running ``voyage --help``) stays fast.

Geometry, shared by the picture and the tests (R30): hexes are flat-topped, one unit across
from flat side to flat side, so neighbouring centres are exactly 1 apart. Column ``c`` is at
``x = (c - 1) * sqrt(3) / 2``; row ``r`` at ``y = -(r - 1)``, and even columns sit half a
hex lower (``y - 0.5``). y grows upwards, so row 01 is at the top of the picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.atomicfile import FileBatch
from voyage.base.errors import MapError
from voyage.base.escape import visible
from voyage.base.gctune import collector_paused
from voyage.base.paths import no_folder
from voyage.map import hexes as hexmap
from voyage.map.seamap import SEA_TERRAINS
from voyage.outputs.palette import (
    EDGE_COLOUR,
    NARROW_COLOUR,
    SHIP_COLOURS,
    STORM_COLOUR,
    WRECK_COLOUR,
    WRECK_MARKER,
    kind_colour,
    rgb,
)
from voyage.outputs.picturelabels import BELOW_FIRST, Label, drawn_obstacles, place_labels
from voyage.outputs.picturelegend import (
    place_legend,
    terrain_handles,
    track_and_ship_handles,
    track_owner,
)
from voyage.outputs.picturemarks import Mark, as_marks, draw_marks
from voyage.store.portfuel import fuel_words

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap

SQRT3 = math.sqrt(3)
HEX_RADIUS = 1 / SQRT3  # centre to corner, for a hex 1 across its flats

FORMATS = {".png", ".svg", ".pdf"}

#: Picture budget. A hex is drawn ``DEFAULT_PIXELS_PER_HEX`` across when the map fits in
#: ``MAX_PICTURE_PIXELS`` that way; a bigger map is drawn smaller, down to
#: ``MIN_PIXELS_PER_HEX``; past that the picture is refused with the way out (--around
#: HEX --radius N), never drawn until memory runs out (a 200x200 map is drawn at about 21
#: pixels a hex, a 999x999 map is refused).
DEFAULT_PIXELS_PER_HEX = 36
MIN_PIXELS_PER_HEX = 8
MAX_PICTURE_PIXELS = 10_000_000
#: ``--labels`` writes a name in every hex: past this many hexes it is unreadable and slow.
MAX_LABELLED_HEXES = 3_000
#: Port names and labels smaller than this (points) are left out: on a big map drawn small
#: they cannot be read, and each costs milliseconds to draw (a 200x200 map has hundreds).
#: The port hexes keep their colour; ``--around`` draws an area at full size, names and all.
MIN_NAME_POINTS = 4.5
#: Up to this many hexes hexalattice draws a map picture's grid (one patch per hex is cheap
#: there); above it, and in a voyage's track picture, one polygon collection per fill colour.
HEXALATTICE_MAX_HEXES = 5_000


#: Width of one legend entry, and the entries the picture leaves room for at first
#: (terrains, seabeds, passage, storm, ships, a few tracks, event); a legend with more rows
#: makes the picture taller (voyage.outputs.picturelegend.place_legend), never covers the map.
LEGEND_ENTRY_PX = 170
LEGEND_MAX_ENTRIES = 14


@dataclass
class MapGeometry:
    """Where each hex of a map (or of an area of it) lies, in drawing units and in pixels.

    The picture's map area starts ``left`` pixels from the image's left and ``top`` pixels
    from its top; one hex is ``pixels_per_hex`` pixels across its flats. Left as None,
    ``pixels_per_hex`` is chosen to fit the picture budget (:func:`picture_scale`), and a
    picture that cannot fit is refused with :class:`MapError` before any hex is listed.
    """

    width: int
    height: int
    around: str | None = None
    radius: Radius | None = None
    pixels_per_hex: int | None = None
    title_px: int = 40
    legend_px: int = 90
    min_width_px: int = 640
    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.around = check_area(self.width, self.height, self.around, self.radius)
        # The budget is checked on the area's bounding box before a single hex is listed,
        # so a picture far too big is refused at once.
        box_w, box_h = _box_units(self.width, self.height, self.around, self.radius)
        picture_scale(box_w, box_h, self.pixels_per_hex, self)
        self.names = area_names(self.width, self.height, self.around, self.radius)
        if self.around is None:  # the whole map: its corners bound it (fast on big maps)
            xs = [0.0, (self.width - 1) * SQRT3 / 2]
            ys = [0.0, -((self.height - 1) + (0.5 if self.width > 1 else 0.0))]
        else:
            xs = [self.hex_center(n)[0] for n in self.names]
            ys = [self.hex_center(n)[1] for n in self.names]
        pad = 0.25
        self.xmin = min(xs) - HEX_RADIUS - pad
        self.ymax = max(ys) + 0.5 + pad
        units_w = max(xs) + HEX_RADIUS + pad - self.xmin
        units_h = self.ymax - (min(ys) - 0.5 - pad)
        ppu = self.pixels_per_hex = picture_scale(units_w, units_h, self.pixels_per_hex, self)
        self.map_w = math.ceil(units_w * ppu)
        self.map_h = math.ceil(units_h * ppu)
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

    @property
    def scale(self) -> int:
        """Pixels per hex, as chosen (never None once the geometry is made)."""
        assert self.pixels_per_hex is not None
        return self.pixels_per_hex

    def describe(self) -> str:
        """``999x999 hexes`` or ``the area within 300 of 0505``: for refusals."""
        if self.around is None:
            return f"{self.width}x{self.height} hexes"
        assert self.radius is not None
        cols, rows = reach(self.radius)
        return f"the area within {cols if cols == rows else self.radius} of {self.around}"

    @classmethod
    def for_map(
        cls,
        sea_map: SeaMap,
        around: str | None = None,
        radius: Radius | None = None,
        **kw: int | None,
    ) -> MapGeometry:
        """The geometry of ``sea_map`` (or the area within ``radius`` of ``around``)."""
        return cls(sea_map.width, sea_map.height, around, radius, **kw)  # type: ignore[arg-type]

    def cells(self) -> tuple[Any, Any]:
        """numpy arrays of the (column, row) of every hex drawn, in :attr:`names` order."""
        import numpy as np

        if self.around is None:
            rows, cols = np.divmod(np.arange(self.width * self.height), self.width)
            return cols + 1, rows + 1
        pairs = np.array([hexmap.parse_hex(n) for n in self.names], dtype=np.int64)
        return pairs[:, 0], pairs[:, 1]

    def contains(self, name: str) -> bool:
        """Whether this picture shows the hex ``name``."""
        if self.around is None:
            col, row = hexmap.parse_hex(name)
            return col <= self.width and row <= self.height
        assert self.radius is not None
        (c0, c1), (r0, r1) = crop_box(self.width, self.height, self.around, self.radius)
        col, row = hexmap.parse_hex(name)
        return c0 <= col <= c1 and r0 <= row <= r1

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
        ppu = self.scale
        return self.left + (x - self.xmin) * ppu, self.top + (self.ymax - y) * ppu


CURRENT_COLOUR = (0.05, 0.35, 0.6)


def _draw_currents(
    ax: Any,
    currents: Sequence[tuple[str, int, float]],
    shown: set[str],
    scale: float,
    outline: float,
) -> list[Label]:
    """R64: an arrow across each hex with a current, the way it flows; its knots as labels
    (written where no other word is)."""
    words = []
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
        words.append(
            Label(
                "current",
                x,
                y,
                f"{knots:g}",
                6 * scale,
                {"color": CURRENT_COLOUR, "outline": outline, "zorder": 6},
                home=(0.3, -0.3),
                gap=0.25 * 36 * scale,
                rank=5,
                required=False,
                rings=1,
            )
        )
    return words


def hex_center(where: SeaMap | MapGeometry | None, name: str) -> tuple[float, float]:
    """Centre of hex ``name`` in the drawing's coordinates (the same for every map)."""
    return MapGeometry.hex_center(name)


def hex_pixel(geometry: MapGeometry, name: str) -> tuple[int, int]:
    """Image pixel (column, row from the top) at the centre of hex ``name``."""
    x, y = geometry.pixel(name)
    return int(x), int(y)


#: How far a crop reaches from its middle hex: hexes each way, or (columns, rows) each way.
Radius = int | tuple[int, int]


def reach(radius: Radius) -> tuple[int, int]:
    """(columns, rows) each way of a crop's ``radius``."""
    return (radius, radius) if isinstance(radius, int) else radius


def check_area(width: int, height: int, around: str | None, radius: Radius | None) -> str | None:
    """Check an --around/--radius pair against a map; the canonical name of ``around``."""
    if (around is None) != (radius is None):
        raise MapError("give both --around HEX and --radius N, or neither")
    if around is None:
        return None
    assert radius is not None
    if min(reach(radius)) < 0:
        raise MapError(f"radius must be 0 or more (got {radius})")
    col, row = hexmap.parse_hex(around)
    if col > width or row > height:
        raise MapError(f"hex {around} is off the map (0101 to {hexmap.hex_name(width, height)})")
    return hexmap.canonical(around)


def area_names(
    width: int, height: int, around: str | None = None, radius: Radius | None = None
) -> list[str]:
    """The hexes of a map (or of the rectangle ``radius`` hexes each way from ``around``),
    row by row, left to right. A crop is always a rectangle of the map, never the ragged
    edge of a hex circle: a picture for players is a rectangle."""
    if around is None:
        return [hexmap.hex_name(c, r) for r in range(1, height + 1) for c in range(1, width + 1)]
    assert radius is not None
    (c0, c1), (r0, r1) = crop_box(width, height, around, radius)
    return [hexmap.hex_name(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def crop_box(
    width: int, height: int, around: str, radius: Radius
) -> tuple[tuple[int, int], tuple[int, int]]:
    """((first, last column), (first, last row)) of the crop around ``around``: every hex
    within ``radius`` of it fits inside (``radius`` columns and rows each way, or a
    (columns, rows) pair), and the box stays on the map."""
    col, row = hexmap.parse_hex(around)
    cols, rows = reach(radius)
    return (
        (max(1, col - cols), min(width, col + cols)),
        (max(1, row - rows), min(height, row + rows)),
    )


def _box_units(
    width: int, height: int, around: str | None, radius: Radius | None
) -> tuple[float, float]:
    """Drawing units (wide, high) of the box holding the map or the area: at least the
    size :class:`MapGeometry` works out from the hexes themselves."""
    if around is None:
        return _units(width, height)
    assert radius is not None
    col, row = hexmap.parse_hex(around)
    each_col, each_row = reach(radius)
    cols = min(width, col + each_col) - max(1, col - each_col) + 1
    rows = min(height, row + each_row + 1) - max(1, row - each_row - 1) + 1
    return _units(cols, rows)


def _units(cols: int, rows: int) -> tuple[float, float]:
    """Drawing units (wide, high) of ``cols`` x ``rows`` hexes with the picture's margin."""
    pad = 0.25
    wide = (cols - 1) * SQRT3 / 2 + 2 * HEX_RADIUS + 2 * pad
    high = (rows - 1) + (0.5 if cols > 1 else 0.0) + 1 + 2 * pad
    return wide, high


def picture_scale(
    units_w: float, units_h: float, wanted: int | None, geometry: MapGeometry | None = None
) -> int:
    """Pixels per hex for a picture ``units_w`` x ``units_h`` drawing units across.

    ``wanted`` if given, else the default size shrunk to fit :data:`MAX_PICTURE_PIXELS`.
    MapError (one line: the size, the limit, the way out) when even the smallest size
    would not fit, or ``wanted`` would not.
    """
    area = units_w * units_h
    if wanted is None:
        fit = math.floor(math.sqrt(MAX_PICTURE_PIXELS / area))
        ppu = min(DEFAULT_PIXELS_PER_HEX, fit)
        if ppu >= MIN_PIXELS_PER_HEX:
            return ppu
        ppu = MIN_PIXELS_PER_HEX
    else:
        ppu = wanted
        if area * ppu * ppu <= MAX_PICTURE_PIXELS:
            return ppu
    what = geometry.describe() if geometry is not None else "this area"
    size = f"{math.ceil(units_w * ppu)}x{math.ceil(units_h * ppu)}"
    limit = f"{MAX_PICTURE_PIXELS / 1e6:g} million"
    return _refuse(
        f"a picture of {what} would be {size} pixels at {ppu} pixels a hex, over the "
        f"{limit}-pixel limit: draw part of it with --around HEX --radius N "
        f"(N up to {largest_radius()})"
    )


def _refuse(message: str) -> int:
    raise MapError(message)


def largest_radius() -> int:
    """The largest ``--radius`` whose picture always fits the budget."""
    radius = 0
    while True:
        wide, high = _units(2 * radius + 3, 2 * radius + 5)  # the box of radius + 1
        if wide * high * MIN_PIXELS_PER_HEX**2 > MAX_PICTURE_PIXELS:
            return radius
        radius += 1


# ----------------------------------------------------------------------------- the picture


Progress = Callable[[int], None]
#: Steps of a picture told to ``progress`` (voyage/cli/progress.py shows them on a
#: terminal): the hexes, the marks and words, the legend and title, the file written.
RENDER_STEPS = 4


def render_map(
    sea_map: SeaMap,
    out_path: str | Path,
    *,
    progress: Progress | None = None,
    force: bool = True,
    files: FileBatch | None = None,
    **kw: Any,
) -> Path:
    """Draw ``sea_map`` to ``out_path`` (.png, .svg or .pdf) and return the path.

    Takes :func:`draw_map`'s keywords. Nothing is written but ``out_path`` (its folder must
    already exist), whole or not at all (voyage.base.atomicfile: an interrupted or failed write
    leaves the old file, or none); without ``force`` a file that appeared meanwhile is
    kept. With ``files`` the picture is one of that batch, put in
    place when the batch is. ``progress`` is told each of the :data:`RENDER_STEPS` steps.
    """
    out = Path(out_path)
    if out.suffix.lower() not in FORMATS:
        raise MapError(f"{out}: write the picture as .png, .svg or .pdf")
    if not out.parent.is_dir():
        raise MapError(f"{out}: {no_folder(out.parent)}")
    fmt = out.suffix.lower().lstrip(".")
    # zlib level 3 instead of PIL's 6: a big map's PNG is written in about half the time,
    # for a file a little larger.
    extra: dict[str, Any] = {"pil_kwargs": {"compress_level": 3}} if fmt == "png" else {}
    with collector_paused():  # its objects all live until the picture is saved
        fig = draw_map(sea_map, progress=progress, **kw)
        try:
            with nullcontext(files) if files is not None else FileBatch(force=force) as batch:
                fig.savefig(batch.add(out), dpi=fig.dpi, format=fmt, **extra)
        except OSError as exc:  # a full disk, /dev/full, a folder without write permission
            problem = "no space left on the disk" if exc.errno == 28 else exc.strerror or str(exc)
            raise MapError(f"cannot write {out}: {problem}") from None
    if progress is not None:
        progress(1)
    return out


def draw_map(
    sea_map: SeaMap,
    *,
    labels: bool = False,
    around: str | None = None,
    radius: Radius | None = None,
    storms: Iterable[str] = (),
    ships: Sequence[tuple[str, str]] = (),
    tracks: Sequence[tuple[str, Sequence[str]]] = (),
    title: str | None = None,
    marks: Sequence[Mark | tuple[str, str]] = (),
    wrecks: Collection[str] = (),
    numbered: Collection[str] | None = None,
    pixels_per_hex: int | None = None,
    overlay: Any = None,
    currents: Sequence[tuple[str, int, float]] = (),
    progress: Progress | None = None,
    lattice: bool = True,
) -> Any:
    """The picture of ``sea_map`` as a matplotlib Figure (Agg canvas), ready to save.

    ``storms`` are hex names (hatched), ``ships`` (name, hex) pairs (those named in
    ``wrecks``, sunk or abandoned, drawn as a wreck: an X, not a ship's triangle),
    ``tracks`` (label, hexes in order) drawn as a line through hex centres ("voyage 2 of Sea
    Witch" shares Sea Witch's colour), ``marks`` voyage.outputs.picturemarks.Mark (kind,
    hex, words) or (hex, words) events, ``currents`` (hex, side 0-5 clockwise from N, knots)
    as arrows the way they flow (R64). ``labels`` writes every hex's CCRR name where no
    other word is. With ``around``/``radius`` only that area is drawn. ``overlay(ax,
    geometry, shown)`` may draw more (the weather of an hour, voyage.outputs.weatherplot)
    and returns legend handles. Every word is placed in one pass so none covers another
    (voyage.outputs.picturelabels). ``numbered`` writes the CCRR names of just those hexes
    (near a track, say), as ``labels`` does every hex's. With ``lattice`` (a map picture)
    hexalattice draws the grid of an area up to :data:`HEXALATTICE_MAX_HEXES`; without it (a
    voyage's track picture, drawn with every handout) the grid is one polygon collection per
    fill, the same hexagons drawn in a fraction of the time.
    """
    geometry = MapGeometry.for_map(sea_map, around, radius, pixels_per_hex=pixels_per_hex)
    if labels and len(geometry.names) > MAX_LABELLED_HEXES:
        raise MapError(
            f"--labels writes the name of every hex: {len(geometry.names)} hexes are too many "
            f"to read (at most {MAX_LABELLED_HEXES}): label part of the map with "
            f"--around HEX --radius N (N up to {labelled_radius()})"
        )
    marks = as_marks(marks)
    storm_set = {hexmap.canonical(h) for h in storms}
    for name in [
        *storm_set,
        *(h for _, h in ships),
        *(m.hex for m in marks),
        *(h for _, hexes in tracks for h in hexes),
    ]:
        if not sea_map.in_bounds(name):
            raise MapError(sea_map.off_map_message(name))
    tell = progress or (lambda n: None)
    fig, ax = _figure(geometry)
    used = _draw_hexes(ax, sea_map, geometry, lattice)
    tell(1)

    scale = geometry.scale / 36
    # A white outline (points wide) keeps names readable over the hexes; on a big map drawn
    # small the names are tiny and the outline is left off.
    outline = 2.5 * scale if scale >= 0.6 else 0.0
    shown = set(geometry.names)
    if labels:
        numbered = geometry.names
    words, narrow = _map_words(ax, sea_map, geometry, numbered or (), scale, outline)
    stormy = _draw_storms(ax, storm_set & shown)
    words += _draw_currents(ax, currents, shown, scale, outline)
    extra_handles = list(overlay(ax, geometry, shown)) if overlay is not None else []
    colour_of, ship_words = _draw_ships_and_tracks(
        ax, geometry, ships, tracks, shown, scale, outline, set(wrecks)
    )
    mark_words, mark_handles = draw_marks(ax, geometry, marks, shown, scale, outline)
    obstacles, lines = drawn_obstacles(ax)
    place_labels(ax, [*mark_words, *ship_words, *words], obstacles, lines)
    tell(1)

    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = terrain_handles(sea_map, used)
    if narrow:
        handles.append(
            Patch(fill=False, edgecolor=rgb(NARROW_COLOUR), linestyle="--", label="narrow passage")
        )
    if any(hexmap.canonical(h) in shown for h, _, _ in currents):
        handles.append(
            Line2D([], [], color=CURRENT_COLOUR, marker=">", linewidth=1.5, label="current")
        )
    if stormy:
        handles.append(
            Patch(
                facecolor=(*rgb(STORM_COLOUR), 0.18),
                hatch="////",
                edgecolor=rgb(STORM_COLOUR),
                label="storm",
            )
        )
    handles.extend(extra_handles)
    drawn = [n for n, h in ships if hexmap.canonical(h) in shown]
    handles += track_and_ship_handles([n for n, _ in tracks], drawn, colour_of, set(wrecks))
    handles += mark_handles
    place_legend(fig, ax, handles, geometry)  # grows the picture, never covers the map
    dpi = fig.dpi
    heading = visible(title or sea_map.name)  # (as every label: voyage.base.escape)
    if around is not None and title is None:
        heading += f", around {geometry.around}"
    fig.text(
        0.5,
        1 - (geometry.title_px / 2) / geometry.image_h,
        heading,
        ha="center",
        va="center",
        # a long title on a narrow crop shrinks to fit (a bold character is about 0.62 em)
        fontsize=min(14.0, max(7.0, (geometry.image_w - 20) * 72 / (dpi * 0.62 * len(heading)))),
        weight="bold",
        gid="title",
    )
    tell(1)
    return fig


def _figure(geometry: MapGeometry) -> tuple[Any, Any]:
    """A white figure of the picture's size (Agg canvas) and the axes of its map area."""
    from voyage.outputs.drawingkit import figure_classes

    Figure, FigureCanvasAgg = figure_classes()
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
    ax.set_aspect("auto")
    ax.set_xlim(geometry.xmin, geometry.xmax)
    ax.set_ylim(geometry.ymin, geometry.ymax)
    ax.set_axis_off()
    return fig, ax


def _draw_hexes(
    ax: Any, sea_map: SeaMap, geometry: MapGeometry, lattice: bool
) -> list[tuple[str, str | None]]:
    """Fill every hex of the area; the (terrain, seabed) fills used, in order of first use."""
    import numpy as np
    from matplotlib.collections import PolyCollection

    cols, rows = geometry.cells()
    fills, kinds = fill_kinds(sea_map, cols, rows)
    xs = (cols - 1) * (SQRT3 / 2)
    ys = -((rows - 1) + 0.5 * ((cols - 1) & 1))
    face_of = np.array([rgb(kind_colour(k)) for k in kinds])
    edge = rgb(EDGE_COLOUR)
    if lattice and len(cols) <= HEXALATTICE_MAX_HEXES:
        from hexalattice.hexalattice import plot_single_lattice_custom_colors

        # hexalattice draws one RegularPolygon per centre; we give it our own centres
        # (flat-top, even columns lower, R30) because its create_hex_grid lays out
        # pointy-top rows. rotate_deg=30 turns its pointy-top polygons flat-top;
        # min_diam=1 is our unit.
        plot_single_lattice_custom_colors(
            xs,
            ys,
            face_color=face_of[fills],
            edge_color=np.array([edge] * len(cols)),
            min_diam=1.0,
            plotting_gap=0.0,
            rotate_deg=30,
            line_width=0.4,
            h_ax=ax,
        )
        # hexalattice sets its own limits: the picture's are put back
        ax.set_aspect("auto")
        ax.set_xlim(geometry.xmin, geometry.xmax)
        ax.set_ylim(geometry.ymin, geometry.ymax)
        ax.set_axis_off()
    else:
        # One polygon collection per fill colour, the corners worked out for all hexes at
        # once: a handful of shapes to draw, not a patch object per hex (a thousand on a
        # long voyage's crop, 40,000 on a 200x200 map).
        for kind in np.unique(fills):
            chosen = fills == kind
            ax.add_collection(
                PolyCollection(
                    hex_corners(xs[chosen], ys[chosen], HEX_RADIUS),
                    facecolors=[face_of[kind]],
                    edgecolors=[edge],
                    linewidths=0.4,
                ),
                autolim=False,  # the limits are set already: skip measuring every hex
            )
    return [kinds[k] for k in _in_order_of_first_use(fills)]


def _map_words(
    ax: Any,
    sea_map: SeaMap,
    geometry: MapGeometry,
    numbered: Collection[str],
    scale: float,
    outline: float,
) -> tuple[list[Label], list[str]]:
    """The map's own words as labels (port names, place labels, the number of each hex of
    ``numbered`` shown), and the narrow passages drawn (their hexes are returned for the
    legend)."""
    import numpy as np
    from matplotlib.collections import PolyCollection

    shown = set(geometry.names)
    ppu = geometry.scale
    # Ports, labels and passages are all per-hex entries: those in the area, in the same
    # row-by-row order as the hexes, without a Hex record for every hex.
    marked = sorted(
        (hexmap.parse_hex(n)[::-1], n) for n, e in sea_map.entries.items() if n in shown and e
    )
    narrow = [n for _, n in marked if sea_map.entries[n].get("narrow_passage")]
    if narrow:
        centres = np.array([geometry.hex_center(n) for n in narrow])
        ax.add_collection(
            PolyCollection(
                hex_corners(centres[:, 0], centres[:, 1], HEX_RADIUS * 0.82),
                facecolors="none",
                edgecolors=[rgb(NARROW_COLOUR)],
                linewidths=1.4 * scale,
                linestyles="--",
            )
        )
    words: list[Label] = []
    for _, name in marked:
        entry = sea_map.entries[name]
        x, y = geometry.hex_center(name)
        if entry.get("port") and 8 * scale >= MIN_NAME_POINTS:
            words.append(
                Label(
                    "port",
                    x,
                    y,
                    entry["port"],
                    8 * scale,
                    {
                        "weight": "bold",
                        "color": (0.45, 0.05, 0.05),
                        "outline": outline,
                        "zorder": 6,
                    },
                    home=(0.0, -0.77),
                    gap=0.3 * ppu,
                    rank=2,
                    directions=BELOW_FIRST,
                )
            )
        if entry.get("label") and 7 * scale >= MIN_NAME_POINTS:
            words.append(
                Label(
                    "place",
                    x,
                    y,
                    entry["label"],
                    7 * scale,
                    {
                        "style": "italic",
                        "color": (0.15, 0.15, 0.3),
                        "outline": outline,
                        "zorder": 5,
                    },
                    home=(0.0, -0.3),
                    gap=0.2 * ppu,
                    rank=3,
                )
            )
    if numbered:
        # R30: hex numbers sit at the top of their hex and give way to every other word;
        # never smaller than a name can be read (on a map drawn small, those with no
        # room are left out rather than written over each other)
        wanted = {hexmap.canonical(n) for n in numbered} & shown
        words.extend(
            Label(
                "hex",
                *geometry.hex_center(name),
                name,
                max(5.5 * scale, MIN_NAME_POINTS),
                {"color": (0.2,) * 3},
                home=(0.0, 0.3),
                rank=9,
                required=False,
                fixed=True,
            )
            for name in geometry.names
            if name in wanted
        )
    return words, narrow


def _draw_storms(ax: Any, stormy: set[str]) -> list[str]:
    """Hatch the storm hexes in the area; the hexes hatched. They are one shape (every
    storm hex a closed hexagon of one path), hatched once: a collection hatches each hex on
    its own, most of the drawing time of a long voyage's picture."""
    import matplotlib
    import numpy as np
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    hexes = sorted(stormy)
    if hexes:
        centres = np.array([MapGeometry.hex_center(n) for n in hexes])
        corners = hex_corners(centres[:, 0], centres[:, 1], HEX_RADIUS)
        # each hexagon: its six corners and back to the first
        vertices = np.concatenate([corners, corners[:, :1]], axis=1).reshape(-1, 2)
        codes = np.tile([Path.MOVETO] + [Path.LINETO] * 5 + [Path.CLOSEPOLY], len(hexes)).astype(
            Path.code_type
        )
        # The hatch colour is read from the rc settings when a patch is made.
        with matplotlib.rc_context({"hatch.color": (*rgb(STORM_COLOUR), 0.8)}):
            ax.add_artist(  # the limits are set: no need to measure the shape
                PathPatch(
                    Path(vertices, codes),
                    facecolor=(*rgb(STORM_COLOUR), 0.18),
                    edgecolor=(*rgb(STORM_COLOUR), 0.8),
                    hatch="////",
                    linewidth=0.6,
                    zorder=3,
                )
            )
    return hexes


def _draw_ships_and_tracks(
    ax: Any,
    geometry: MapGeometry,
    ships: Sequence[tuple[str, str]],
    tracks: Sequence[tuple[str, Sequence[str]]],
    shown: set[str],
    scale: float,
    outline: float,
    wrecks: Collection[str] = (),
) -> tuple[dict[str, tuple[float, float, float]], list[Label]]:
    """Each track as a line through hex centres and each ship in the area as a triangle, a
    ship and her tracks in one colour (a wreck as a dark X with a ring of her colour); the
    colours, and the ships' names as labels ("Grey Widow (wreck)")."""
    # Ships outside the area drawn are left out (their tracks are clipped at its edge).
    ships = [(n, h) for n, h in ships if hexmap.canonical(h) in shown]
    colour_of: dict[str, tuple[float, float, float]] = {}
    for owner in [n for n, _ in ships] + [track_owner(n) for n, _ in tracks]:
        if owner not in colour_of:
            colour_of[owner] = rgb(SHIP_COLOURS[len(colour_of) % len(SHIP_COLOURS)])
    for label, hexes_on_track in tracks:
        points = [geometry.hex_center(h) for h in hexes_on_track]
        colour = colour_of[track_owner(label)]
        if len(points) >= 2:
            xs, ys = legs_once(points)
            ax.plot(
                xs,
                ys,
                "-",
                color=colour,
                linewidth=2.2 * scale,
                alpha=0.85,
                zorder=7,
                solid_capstyle="round",  # a leg's end as round as the line's bends
            )
        elif points:
            ax.plot(
                [points[0][0]], [points[0][1]], "o", color=colour, markersize=4 * scale, zorder=7
            )
    words = []
    for ship_name, name in ships:
        x, y = geometry.hex_center(name)
        lost = ship_name in wrecks
        ax.plot(
            [x],
            [y],
            marker=WRECK_MARKER if lost else "^",
            color=rgb(WRECK_COLOUR) if lost else colour_of[ship_name],
            markersize=(11 if lost else 10) * scale,
            markeredgecolor=colour_of[ship_name] if lost else "white",
            markeredgewidth=1.5 if lost else 1.0,
            zorder=9,
        )
        words.append(
            Label(
                "ship",
                x,
                y,
                f"{ship_name} (wreck)" if lost else ship_name,
                8 * scale,
                {
                    "weight": "bold",
                    "color": colour_of[ship_name],
                    "outline": outline,
                    "zorder": 9,
                },
                gap=10 * scale * 100 / 72 / 2,
                rank=1,
            )
        )
    return colour_of, words


def legs_once(points: Sequence[tuple[float, float]]) -> tuple[list[float], list[float]]:
    """The x and the y of a line through ``points`` that draws each leg (from one point to
    the next, either way) once: a long voyage sails the same legs again and again, and the
    line drawn over itself a hundred times looks the same as once, for a hundredth of the
    work. The legs sailed one after the other stay one line (NaN between the runs)."""
    nan = math.nan
    xs: list[float] = []
    ys: list[float] = []
    seen: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    joined = False  # whether the line drawn so far ends where the next leg starts
    for a, b in zip(points[:-1], points[1:], strict=True):
        leg = (a, b) if a <= b else (b, a)
        if leg in seen:
            joined = False
            continue
        seen.add(leg)
        if not joined:
            if xs:
                xs.append(nan)
                ys.append(nan)
            xs.append(a[0])
            ys.append(a[1])
        xs.append(b[0])
        ys.append(b[1])
        joined = True
    return xs, ys


def fill_kinds(sea_map: SeaMap, cols: Any, rows: Any) -> tuple[Any, list[tuple[str, str | None]]]:
    """Per hex drawn, an index into a list of (terrain, seabed) pairs: its fill.

    Worked out per map character, then per-hex seabed entries on top, so a big map needs
    no Hex record per hex. The seabed is found as :meth:`SeaMap.hex` finds it (R33).
    """
    import numpy as np

    kinds: list[tuple[str, str | None]] = []
    index: dict[tuple[str, str | None], int] = {}

    def kind_of(terrain: str, seabed: str | None) -> int:
        key = (terrain, seabed if terrain in SEA_TERRAINS else None)
        if key not in index:
            index[key] = len(kinds)
            kinds.append(key)
        return index[key]

    table = {
        ord(ch): chr(kind_of(e.terrain, e.seabed or sea_map.default_seabed))
        for ch, e in sea_map.legend.items()
    }
    # Four bytes a hex, so a legend of any length (and any seabed overrides) fits.
    drawing = "".join(sea_map.rows).translate(table).encode("utf-32-le")
    every = np.frombuffer(drawing, dtype="<u4").copy()
    for name, entry in sea_map.entries.items():
        if entry.get("seabed"):
            col, row = hexmap.parse_hex(name)
            at = (row - 1) * sea_map.width + col - 1
            every[at] = kind_of(kinds[every[at]][0], entry["seabed"])
    return every[(rows - 1) * sea_map.width + (cols - 1)], kinds


def hex_corners(xs: Any, ys: Any, radius: float) -> Any:
    """The six corners of flat-topped hexes centred at ``xs``, ``ys``: an (n, 6, 2) array."""
    import numpy as np

    angles = np.radians(np.arange(6) * 60.0)
    out = np.empty((len(xs), 6, 2))
    out[:, :, 0] = np.asarray(xs)[:, None] + radius * np.cos(angles)
    out[:, :, 1] = np.asarray(ys)[:, None] + radius * np.sin(angles)
    return out


def _in_order_of_first_use(fills: Any) -> list[int]:
    import numpy as np

    found, first = np.unique(fills, return_index=True)
    return [int(k) for _, k in sorted(zip(first.tolist(), found.tolist(), strict=True))]


def labelled_radius() -> int:
    """The largest --radius that --labels accepts wherever --around is: a crop is a
    rectangle of (2N + 1) x (2N + 1) hexes (:func:`crop_box`), at most
    :data:`MAX_LABELLED_HEXES` of them."""
    radius = 0
    while (2 * (radius + 1) + 1) ** 2 <= MAX_LABELLED_HEXES:
        radius += 1
    return radius


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
    fuel_left: dict[str, int | None] | None = None,
) -> str:
    """The map as text, one character per hex laid out as in the map file.

    The ports are listed under it with their fuel: price, and what is left of a limited
    stock (``fuel_left``, voyage.store.mapstore.fuel_left: the stock itself where not given).

    Ships are marked 1, 2, 3 ... (listed under the map), storms with ``!`` (over water;
    land and ports keep their own character so they stay readable). Rows carry their
    number on the left and columns their number on top (tens over units); even columns sit
    half a hex lower on the real map (R30). Outside the box ``radius`` hexes each way from
    ``around``, hexes are blank.
    """
    around = check_area(sea_map.width, sea_map.height, around, radius)
    shown = set(area_names(sea_map.width, sea_map.height, around, radius))
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
        here = [n for n, e in sea_map.entries.items() if n in shown and e.get("port")]
        # as sea_map.ports() lists them, without a Hex for every port of the map
        ports = [sea_map.hex(n) for n in sorted(here, key=hexmap.parse_hex)]
        if ports:
            out.append("Ports:")

            for p in ports:
                out.append(f"  {p.name}  {p.port}, {fuel_words(p, fuel_left or {})}")
    return "\n".join(out)
