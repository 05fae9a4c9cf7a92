"""Pictures of the weather (R60-R62): an hour's sea states on the map, a week's cell tracks.

Both draw through :func:`voyage.outputs.render.render_map` with an overlay, so the map looks the
same as `voyage map render`; matplotlib is imported only inside the overlays, when a
picture is actually drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from voyage.map import hexes as hexmap
from voyage.outputs import render
from voyage.outputs.encountermarks import overlay as encounter_overlay
from voyage.outputs.palette import STATE_ALPHA, STATE_HATCH, rgb
from voyage.outputs.palette import STATE_COLOURS as PALETTE_STATES
from voyage.outputs.render import HEX_RADIUS, SQRT3
from voyage.tables.world import SEA_STATES, WIND_SIDES
from voyage.world.cells import LEVEL, STATE_WORDS, StormCell, downwind
from voyage.world.seastate import SeaStates

#: Shades by sea-state level (R60), the same on every picture (voyage.outputs.palette).
STATE_COLOURS = {level: rgb(colour) for level, colour in PALETTE_STATES.items()}
Overlay = Callable[[Any, Any, set[str]], list[Any]]


def cube_xy(cube: tuple[int, int, int]) -> tuple[float, float]:
    """A cube's centre in the drawing's units (voyage.outputs.render.MapGeometry.hex_center), also
    off the map."""
    col, row = hexmap.cube_to_offset(cube)
    c0 = col - 1
    return c0 * SQRT3 / 2, -((row - 1) + 0.5 * (c0 & 1))


def _arrow(ax: Any, cell: StormCell, hour: int, colour: Any) -> None:
    centre = cell.centre(hour)
    d = hexmap.CUBE_DIRECTIONS[downwind(cell.wind)]
    x0, y0 = cube_xy(centre)
    x1, y1 = cube_xy((centre[0] + d[0], centre[1] + d[1], centre[2] + d[2]))
    ax.annotate(
        "",
        xy=(x0 + (x1 - x0) * 1.4, y0 + (y1 - y0) * 1.4),
        xytext=(x0, y0),
        arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2},
        zorder=6,
    )


def weather_overlay(sea: SeaStates, hour: int) -> Overlay:
    """Shade each storm-tossed hex by its sea state at ``hour``, outline each cell, and
    draw an arrow the way each drifting cell goes (R60, R62)."""

    def draw(ax: Any, geometry: Any, shown: set[str]) -> list[Any]:
        from matplotlib.patches import Circle, Patch, RegularPolygon

        levels = sea.levels(hour)
        for name, level in levels.items():
            if name not in shown:
                continue
            ax.add_patch(
                RegularPolygon(
                    geometry.hex_center(name),
                    6,
                    radius=HEX_RADIUS,
                    orientation=math.radians(-30),
                    facecolor=(*STATE_COLOURS[level], STATE_ALPHA[level]),
                    edgecolor=(0.1, 0.1, 0.1, 0.6),
                    hatch=STATE_HATCH[level],
                    linewidth=0.3,
                    zorder=3,
                )
            )
        cells = sea.cells_between(hour, hour + 1)
        for cell in cells:
            x, y = cube_xy(cell.centre(hour))
            ax.add_patch(
                Circle(
                    (x, y),
                    cell.radius + 0.5,
                    fill=False,
                    linestyle="--",
                    linewidth=1.5,
                    edgecolor=STATE_COLOURS[3 if cell.state == "hurricane" else 2],
                    zorder=6,
                )
            )
            if cell.drift_every:
                _arrow(ax, cell, hour, (0.1, 0.1, 0.1))
        for storm in sea.storms:
            hexes = storm.footprint(hour, sea.width, sea.height)
            if storm.moving and hexes:
                # the referee's moving storm: an arrow from its middle the way it goes
                points = [geometry.hex_center(h) for h in hexes]
                x0 = sum(p[0] for p in points) / len(points)
                y0 = sum(p[1] for p in points) / len(points)
                d = hexmap.CUBE_DIRECTIONS[WIND_SIDES.index(storm.moving)]
                dx, dy = (
                    cube_xy(d)[0] - cube_xy((0, 0, 0))[0],
                    cube_xy(d)[1] - cube_xy((0, 0, 0))[1],
                )
                ax.annotate(
                    "",
                    xy=(x0 + dx * 1.4, y0 + dy * 1.4),
                    xytext=(x0, y0),
                    arrowprops={"arrowstyle": "-|>", "color": (0.1, 0.1, 0.1), "lw": 2},
                    zorder=6,
                )
        present = sorted(set(levels.values()))
        handles: list[Any] = [
            Patch(
                facecolor=(*STATE_COLOURS[lv], STATE_ALPHA[lv]),
                hatch=STATE_HATCH[lv],
                label=STATE_WORDS[_key(lv)],
            )
            for lv in present
        ]
        if cells:
            handles.append(Patch(fill=False, linestyle="--", label="storm cell"))
        return handles

    return draw


def _key(level: int) -> str:
    return SEA_STATES[level]


def cell_level(cell: StormCell) -> int:
    """The sea-state level (R60: 1 stormy seas, 2 major storm, 3 hurricane) of a cell."""
    return max(1, LEVEL.get(cell.state, 1))


def tracks_overlay(cells: Sequence[StormCell]) -> Overlay:
    """Each cell's track in its sea state's colour (as `voyage map render` shades it): the
    cell itself drawn to scale where it forms (a shaded circle of its radius, the hexes
    it tosses) and outlined where it dies out, its centre's path with a dot each drift,
    its name at the start."""

    def draw(ax: Any, geometry: Any, shown: set[str]) -> list[Any]:
        from matplotlib.lines import Line2D
        from matplotlib.patches import Circle

        handles: list[Any] = []
        for cell in cells:
            level = cell_level(cell)
            colour = STATE_COLOURS[level]
            hours = [cell.start_hour]
            if cell.drift_every:
                hours += list(
                    range(cell.start_hour + cell.drift_every, cell.end_hour, cell.drift_every)
                )
            points = [cube_xy(cell.centre(h)) for h in hours]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            # R62: radius N covers every hex within N of the centre: a circle through the
            # outer hexes' far edges, at the scale of the map (a hex is 1 across)
            reach = cell.radius + 0.5
            ax.add_patch(
                Circle(
                    points[0],
                    reach,
                    facecolor=(*colour, STATE_ALPHA[level] * 0.5),
                    edgecolor=colour,
                    hatch=STATE_HATCH[level],
                    linewidth=1.5,
                    zorder=5,
                )
            )
            if len(points) > 1:
                ax.add_patch(
                    Circle(
                        points[-1],
                        reach,
                        fill=False,
                        edgecolor=colour,
                        linestyle="--",
                        linewidth=1.5,
                        zorder=5,
                    )
                )
            ax.plot(xs, ys, "-o", color=colour, markersize=4, linewidth=2, zorder=6)
            ax.text(
                xs[0],
                ys[0] + reach + 0.2,
                cell.name,
                fontsize=7,
                color=colour,
                ha="center",
                weight="bold",
                zorder=7,
            )
            if cell.drift_every:
                _arrow(ax, cell, hours[-1], colour)
            handles.append(
                Line2D([], [], color=colour, marker="o", label=f"{cell.name} {cell.label}")
            )
        return handles

    return draw


def render_weather(
    sea_map: Any,
    sea: SeaStates,
    hour: int,
    out: str | Path,
    encounters: Sequence[tuple[str, str]] = (),
    **kw: Any,
) -> Path:
    """`voyage map render --at`: the map with the sea of ``hour`` (and the ``encounters``
    marked, voyage.outputs.encountermarks)."""
    weather = weather_overlay(sea, hour)
    return render.render_map(sea_map, out, overlay=encounter_overlay(encounters, weather), **kw)


def plot_tracks(sea_map: Any, cells: Sequence[StormCell], out: str | Path, title: str) -> Path:
    """`voyage weather forecast --plot`: the cells' tracks over the map."""
    return render.render_map(sea_map, out, overlay=tracks_overlay(cells), title=title)
