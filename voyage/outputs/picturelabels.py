"""Labels on a picture that keep out of each other's way (pictures for players).

Every word written on a map picture (event numbers and the start and end, day marks, ship
names, port names, the map's own place labels, current knots, hex numbers) is a
:class:`Label`: an anchor in drawing units, its text and style, and where it may go. One
placement pass (:func:`place_labels`) writes them in order of importance; each takes the
first of its candidate spots (its own usual spot, then the eight directions round its
anchor, then further rings) whose box, in the picture's pixels, meets no label already
placed and no mark drawn on the map, and keeps clear of the tracks where it can. A label
with nowhere to go is dropped when it may be (hex numbers, day marks, current knots), and
otherwise written where it covers least. The order and the candidates are fixed, so the
same picture is drawn the same way every time.

Only :func:`place_labels` and :func:`draw_words` touch matplotlib (through the axes they
are given); the box arithmetic is plain Python.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from voyage.base.escape import visible

#: A box in the picture's pixels: (left, bottom, right, top), y upwards (matplotlib's
#: display coordinates).
Box = tuple[float, float, float, float]
Segment = tuple[float, float, float, float]
#: Letter outlines made so far: (text, face (:func:`_face`), size in pixels) -> (vertices,
#: codes).
Glyphs = dict[tuple[str, Any, float], tuple[Any, Any]]
#: A text's runs of digits and of other letters.
_RUNS = re.compile(r"[0-9]+|[^0-9]+")

#: The eight directions round an anchor, in the order tried: right, left, above, below,
#: then the diagonals (a label beside its mark reads best).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 1),
    (-1, 1),
)
#: Below first, then above, then the sides: the order for names under their hex (ports).
BELOW_FIRST: tuple[tuple[int, int], ...] = (
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (-1, -1),
    (1, 1),
    (-1, 1),
)
#: Pixels of white kept round each label (its outline is drawn about this wide).
PAD = 1.5


@dataclass
class Label:
    """One thing to write on the picture.

    ``x``, ``y`` is the anchor in drawing units (a hex centre); ``home`` the offset, in
    drawing units, of the text's centre from the anchor where the label is written when
    nothing is in the way (None: it has no usual spot and starts with ``directions``);
    ``gap`` the pixels kept between the anchor and the text (the radius of its mark).
    ``rank`` orders the pass (lower first); ``required`` labels are written even where
    every spot is taken (over the least they cover), the others are dropped, and with them
    their ``companions`` (the mark they name). ``fixed`` labels only ever go ``home``.
    """

    kind: str
    x: float
    y: float
    text: str
    fontsize: float
    style: dict[str, Any] = field(default_factory=dict)
    home: tuple[float, float] | None = None
    gap: float = 0.0
    rank: int = 5
    required: bool = True
    fixed: bool = False
    directions: Sequence[tuple[int, int]] = DIRECTIONS
    rings: int = 3
    companions: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        # a name may hold what no font draws (a control character from an imported map or
        # a hand-edited campaign): shown as U+FFFD, as every other output shows it
        self.text = visible(self.text)


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlap_area(a: Box, b: Box) -> float:
    """The area two boxes share (0 when apart)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def inside(box: Box, bounds: Box) -> bool:
    """Whether ``box`` lies wholly within ``bounds``."""
    return (
        box[0] >= bounds[0] and box[1] >= bounds[1] and box[2] <= bounds[2] and box[3] <= bounds[3]
    )


def segment_crosses(seg: Segment, box: Box) -> bool:
    """Whether the straight segment (x0, y0, x1, y1) passes through ``box`` (Liang-Barsky)."""
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


class BoxIndex:
    """Boxes (and segments) bucketed on a grid of ``cell`` pixels, so a picture with
    thousands of labels checks each against its neighbours only."""

    def __init__(self, cell: float = 48.0) -> None:
        self.cell = cell
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.segments: dict[tuple[int, int], list[Segment]] = {}

    def _cells(self, box: Box) -> Iterable[tuple[int, int]]:
        c = self.cell
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in range(int(box[1] // c), int(box[3] // c) + 1):
                yield i, j

    def add(self, box: Box) -> None:
        for key in self._cells(box):
            self.boxes.setdefault(key, []).append(box)

    def add_segment(self, seg: Segment) -> None:
        span = (min(seg[0], seg[2]), min(seg[1], seg[3]), max(seg[0], seg[2]), max(seg[1], seg[3]))
        for key in self._cells(span):
            self.segments.setdefault(key, []).append(seg)

    def hits(self, box: Box) -> bool:
        """Whether ``box`` overlaps any box added."""
        return any(overlaps(box, b) for key in self._cells(box) for b in self.boxes.get(key, ()))

    def covered(self, box: Box) -> float:
        """The area of ``box`` covered by boxes added (overlaps counted once per box)."""
        seen = {b for key in self._cells(box) for b in self.boxes.get(key, ())}
        return sum(overlap_area(box, b) for b in seen)

    def crosses_line(self, box: Box) -> bool:
        """Whether a segment added passes through ``box``."""
        return any(
            segment_crosses(s, box) for key in self._cells(box) for s in self.segments.get(key, ())
        )


def candidates(
    label: Label,
    anchor: tuple[float, float],
    home: tuple[float, float] | None,
    w: float,
    h: float,
) -> list[tuple[float, float]]:
    """Centres (pixels) to try for a ``w`` x ``h`` label anchored at ``anchor``: its home
    spot, then each direction at the mark's gap, then further out ring by ring."""
    out = [home] if home is not None else []
    if label.fixed:
        return out
    ax, ay = anchor
    for ring in range(label.rings):
        gap = label.gap + ring * h * 1.1 + PAD
        for sx, sy in label.directions:
            out.append((ax + sx * (gap + w / 2), ay + sy * (gap + h / 2)))
    return out


def box_at(centre: tuple[float, float], w: float, h: float) -> Box:
    cx, cy = centre
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def choose(
    label: Label,
    spots: list[tuple[float, float]],
    w: float,
    h: float,
    taken: BoxIndex,
    bounds: Box,
) -> Box | None:
    """The first spot free of labels and marks and inside the map, preferring one clear of
    the tracks; for a required label with none free, the one covering least."""
    crossing: Box | None = None
    for spot in spots:
        box = box_at(spot, w, h)
        if not inside(box, bounds) or taken.hits(box):
            continue
        if not taken.crosses_line(box):
            return box
        crossing = crossing or box
    if crossing is not None or not label.required or not spots:
        return crossing
    boxes = [box_at(s, w, h) for s in spots]
    fits = [b for b in boxes if inside(b, bounds)] or boxes
    return min(fits, key=taken.covered)


def measure(
    ax: Any,
    label: Label,
    cache: dict[tuple[Any, ...], tuple[float, float, float]],
    glyphs: Glyphs | None = None,
) -> tuple[float, float, float]:
    """(wide, high) pixels of a label's text with its padding, and how far above the bottom
    of its text the baseline lies. The width is that of the letters drawn for it (their
    outline, :func:`_letters`, kept in ``glyphs`` for drawing: a text is laid out once, not
    once to measure and again to draw); the line is as high and reaches as low as those
    letters or as "lp" does as the font measures it, whichever is more. Digits are all one
    width in the picture's font, so hex numbers are measured once per length."""
    text = label.text
    key = ("0" * len(text) if text.isdigit() else text, *_look(label))
    if key not in cache:
        font = _font(label)
        if (None, *key[1:]) not in cache:
            renderer = ax.figure.canvas.get_renderer()
            cache[(None, *key[1:])] = renderer.get_text_width_height_descent(
                "lp", font, ismath=False
            )
        _, lp_high, lp_low = cache[(None, *key[1:])]
        size = label.fontsize * ax.figure.dpi / 72
        verts = _letters(key[0], font, size, {} if glyphs is None else glyphs)[0]
        if len(verts):
            # the ink's box, the baseline in it (as the font's own measure has it)
            low = min(0.0, float(verts[:, 1].min()))
            high = max(0.0, float(verts[:, 1].max())) - low
            wide = float(verts[:, 0].max() - verts[:, 0].min())
        else:  # nothing to draw (spaces only)
            low = high = wide = 0.0
        cache[key] = (wide + 2 * PAD, max(high, float(lp_high)) + 2 * PAD, max(-low, float(lp_low)))
    return cache[key]


def _look(label: Label) -> tuple[float, Any, Any]:
    return (
        label.fontsize,
        str(label.style.get("weight", "normal")),
        str(label.style.get("style", "normal")),
    )


class Written(NamedTuple):
    """A label as written: its kind, its words, the box (pixels, y upwards) its text
    fills, the padding left out, and its size in points."""

    kind: str
    text: str
    box: Box
    fontsize: float


def place_labels(
    ax: Any, labels: Sequence[Label], obstacles: Iterable[Box] = (), lines: Iterable[Segment] = ()
) -> list[Written]:
    """Write ``labels`` on ``ax`` (limits already set) without overlaps; what was written,
    in the order placed. ``obstacles`` are boxes (pixels) no label may cover (the marks);
    ``lines`` segments (pixels) a label keeps clear of where it can. The words are drawn as
    outlines of their letters, one layer for each look (:func:`draw_words`)."""
    renderer = ax.figure.canvas.get_renderer()
    taken = BoxIndex()
    for box in obstacles:
        taken.add(box)
    for seg in lines:
        taken.add_segment(seg)
    to_pixels = ax.transData.transform
    bounds: Box = tuple(ax.get_window_extent(renderer).extents)  # type: ignore[assignment]
    placed: list[tuple[Label, Box, float]] = []
    sizes: dict[tuple[Any, ...], tuple[float, float, float]] = {}
    glyphs: Glyphs = {}  # each outline made once, for measuring and for drawing
    ordered = sorted(labels, key=lambda lb: lb.rank)  # stable: equal ranks keep order
    if not ordered:
        return []
    # every anchor and home spot to pixels in one call, not two calls a label
    at = to_pixels(
        [(lb.x, lb.y) for lb in ordered]
        + [(lb.x + lb.home[0], lb.y + lb.home[1]) if lb.home else (lb.x, lb.y) for lb in ordered]
    ).tolist()
    for label, (ax_, ay_), (hx, hy) in zip(ordered, at, at[len(ordered) :], strict=False):
        w, h, descent = measure(ax, label, sizes, glyphs)
        home = (hx, hy) if label.home is not None else None
        spots = candidates(label, (ax_, ay_), home, w, h)
        spot = choose(label, spots, w, h, taken, bounds)
        if spot is None:
            for artist in label.companions:
                artist.remove()
            continue
        taken.add(spot)
        inner = (spot[0] + PAD, spot[1] + PAD, spot[2] - PAD, spot[3] - PAD)
        placed.append((label, inner, descent))
    draw_words(ax, placed, glyphs)
    return [Written(label.kind, label.text, box, label.fontsize) for label, box, _ in placed]


def _font(label: Label) -> Any:
    from matplotlib.font_manager import FontProperties

    size, weight, style = _look(label)
    return FontProperties(size=size, weight=weight, style=style)


def draw_words(
    ax: Any, placed: Sequence[tuple[Label, Box, float]], glyphs: Glyphs | None = None
) -> list[Any]:
    """Draw each label's text filling its box (its baseline the given pixels above the
    box's bottom, as :func:`measure` found it), as the outlines of its letters: all the
    labels of one look (size, weight, slant, colour, white outline, layer) as one path, so
    a picture with hundreds of hex numbers draws a handful of shapes, not hundreds of texts.
    Each path's gid is ``label:<kind>`` of its first label; the patches drawn are returned.
    The ink of the letters fills the box from side to side (:func:`measure` made it as wide
    as the ink), on the baseline :func:`measure` found."""
    import numpy as np
    from matplotlib.colors import to_rgba
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    if not placed:
        return []
    pixels_per_point = ax.figure.dpi / 72
    to_data = ax.transData.inverted().transform
    layers: dict[tuple[Any, ...], list[tuple[Label, Box, float]]] = {}
    for label, box, descent in placed:
        style = label.style
        look = (
            label.fontsize,
            str(style.get("weight", "normal")),
            str(style.get("style", "normal")),
            to_rgba(style.get("color", "black")),
            float(style.get("outline", 0.0)),
            float(style.get("zorder", 3)),
        )
        layers.setdefault(look, []).append((label, box, descent))
    glyphs = {} if glyphs is None else glyphs
    drawn = []
    for (_, _, _, colour, outline, zorder), members in layers.items():
        vertices, codes = [], []
        font = _font(members[0][0])  # one look: one font
        for label, box, descent in members:
            verts, kinds = _letters(label.text, font, label.fontsize * pixels_per_point, glyphs)
            # the ink starts at the box's left edge: the box is as wide as the ink
            left = float(verts[:, 0].min()) if len(verts) else 0.0
            vertices.append(verts + (box[0] - left, box[1] + descent))
            codes.append(kinds)
        shape = Path(to_data(np.concatenate(vertices)), np.concatenate(codes))
        gid = f"label:{members[0][0].kind}"
        if outline:
            halo = PathPatch(
                shape,
                facecolor="none",
                edgecolor="white",
                linewidth=outline,
                joinstyle="round",
                capstyle="round",
                zorder=zorder,
            )
            halo.set_gid(gid)
            drawn.append(ax.add_artist(halo))
        fill: Any = PathPatch(shape, facecolor=colour, edgecolor="none", linewidth=0, zorder=zorder)
        fill.set_gid(gid)
        fill.words = [Written(lb.kind, lb.text, box, lb.fontsize) for lb, box, _ in members]
        # add_artist, not add_patch: the limits are set, and measuring every curve of
        # every letter to widen them would cost more than drawing them
        drawn.append(ax.add_artist(fill))
    return drawn


def _put_together(text: str) -> bool:
    """Whether :func:`_letters` puts ``text`` together from its parts: a number, or digits
    among words ("start 58, 173 and 15 more", "Day 62-122")."""
    return text.isascii() and len(text) > 1 and any(c.isdigit() for c in text)


def _face(font: Any) -> tuple[Any, ...]:
    """What the letters' shapes depend on in a font, besides the size given with them: a
    text's outlines are looked up by it, made once per text (a FontProperties, as a key,
    hashes all its properties at every lookup: 24,000 lookups on a long voyage's picture)."""
    return (
        tuple(font.get_family()),
        font.get_style(),
        font.get_variant(),
        font.get_weight(),
        font.get_stretch(),
        font.get_file(),
    )


def _letters(text: str, font: Any, size: float, cache: Glyphs) -> tuple[Any, Any]:
    """(vertices, codes) of ``text``'s letters at ``size`` pixels, the baseline's start at
    (0, 0). Text with digits in it is put together from its digits, each outlined once, and
    the words between them (", ", " and ", " more": a handful on a whole picture), each
    outlined once: the font's digits are all one width and never kerned, so the shape is
    the whole text's, for a fraction of the work on a picture numbering hundreds of hexes
    and events (laying out a text costs about a millisecond)."""
    import numpy as np
    from matplotlib.textpath import TextPath

    face = _face(font)

    def whole(words: str) -> tuple[Any, Any]:
        if (words, face, size) not in cache:
            path = TextPath((0, 0), words, size=size, prop=font)
            cache[words, face, size] = (path.vertices, path.codes)
        return cache[words, face, size]

    if not _put_together(text):
        return whole(text)
    zero = whole("0")[0]
    one, two = zero, whole("00")[0]
    step = (two[:, 0].max() - two[:, 0].min()) - (one[:, 0].max() - one[:, 0].min())
    parts, shifts = [], []
    pen = 0.0
    for run in _RUNS.findall(text):
        if run[0].isdigit():
            for digit in run:
                parts.append(whole(digit))
                shifts.append(pen)
                pen += step
        else:
            parts.append(whole(run))
            shifts.append(pen)
            # where the pen stands after the words: where a digit written after them starts
            followed = whole(run + "0")[0]
            pen += float(followed[-len(zero), 0] - zero[0, 0])
    shift = np.repeat(shifts, [len(v) for v, _ in parts])
    vertices = np.concatenate([v for v, _ in parts])
    vertices[:, 0] += shift
    return vertices, np.concatenate([c for _, c in parts])


def written_labels(ax: Any) -> list[Written]:
    """Every label :func:`draw_words` wrote on ``ax``: what a test or a caller reads back
    (the words are shapes on the picture, not texts)."""
    return [w for artist in ax.get_children() for w in getattr(artist, "words", ())]


def marker_box(centre: tuple[float, float], points: float, dpi: float) -> Box:
    """The box (pixels) of a marker ``points`` across drawn at ``centre`` (pixels)."""
    r = points * dpi / 72 / 2
    return (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)


def drawn_obstacles(ax: Any) -> tuple[list[Box], list[Segment]]:
    """What is already on ``ax`` that labels must not cover: the box of every marker drawn
    (events, ships, day marks, anything an overlay marked) and of any text an overlay wrote;
    and the segments of every line (the tracks), which labels avoid where they can."""
    renderer = ax.figure.canvas.get_renderer()
    dpi = ax.figure.dpi
    boxes: list[Box] = []
    segments: list[Segment] = []
    seen: set[Segment] = set()
    to_pixels = ax.transData.transform
    for line in ax.lines:
        xy = line.get_xydata()
        if len(xy) == 0:
            continue
        pts = to_pixels(xy)
        if line.get_marker() not in (None, "None", "", " "):
            size = float(line.get_markersize()) + float(line.get_markeredgewidth())
            boxes.extend(marker_box((float(px), float(py)), size, dpi) for px, py in pts)
        if line.get_linestyle() not in ("None", "", " ") and len(pts) > 1:
            # a long voyage sails the same legs again and again: each leg is kept once
            # (either way round), not once for every time she sailed it
            for a, b in zip(pts[:-1].tolist(), pts[1:].tolist(), strict=True):
                leg = (a[0], a[1], b[0], b[1]) if a <= b else (b[0], b[1], a[0], a[1])
                if leg not in seen and not any(math.isnan(v) for v in leg):  # NaN: a gap
                    seen.add(leg)
                    segments.append(leg)
    for text in ax.texts:
        if text.get_text():
            boxes.append(tuple(text.get_window_extent(renderer).extents))  # type: ignore[arg-type]
    return boxes, segments
