"""The forecast's picture: the map around the route with the losses as a heat over the
hexes, and histograms of arrival time and fuel left (one PNG).

matplotlib is imported here only, when a picture is asked for. The map is drawn with
voyage.render's geometry and colours (MapGeometry, hex_colour), so it looks like
`voyage map render`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import hexmap
from .errors import MapError
from .forecast import RunResult, Setup, pct

#: Hexes of sea shown around the route.
MARGIN = 2


def check_plot_path(path: str | Path) -> Path:
    """A .png path in a folder that exists (checked before the runs, so a bad path costs
    nothing)."""
    out = Path(path)
    if out.suffix.lower() != ".png":
        raise MapError(f"{out}: the forecast picture is a .png")
    if not out.parent.is_dir():
        raise MapError(f"{out}: the folder {out.parent} does not exist")
    return out


def _area(route: Sequence[str]) -> tuple[str, int]:
    """A centre hex and radius that hold the whole route with a margin."""
    cubes = [hexmap.to_cube(h) for h in route]
    best, radius = route[0], math.inf
    for name in route:
        far = max(hexmap.cube_distance(hexmap.to_cube(name), c) for c in cubes)
        if far < radius:
            best, radius = name, far
    return best, int(radius) + MARGIN


def plot_forecast(
    chart: Any,
    setup: Setup,
    data: dict[str, Any],
    results: Sequence[RunResult],
    path: str | Path,
) -> Path:
    """Draw the forecast to ``path`` (a .png, written whole or not at all) and return it."""
    out = check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.patches import RegularPolygon

    from .render import HEX_RADIUS, MapGeometry, _rgb, hex_colour

    route = data["route"]
    around, radius = _area(route)
    geometry = MapGeometry.for_map(chart, around, radius)
    fig = Figure(figsize=(12, 7.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.02, 0.08, 0.56, 0.82))
    n = max(1, len(results))
    losses = Counter(r.loss_hex for r in results if r.loss_hex)
    worst = max(losses.values(), default=0)
    orientation = math.radians(-30)
    for name in geometry.names:
        h = chart.hex(name)
        x, y = geometry.hex_center(name)
        ax.add_patch(
            RegularPolygon(
                (x, y), 6, radius=HEX_RADIUS, orientation=orientation,
                facecolor=_rgb(hex_colour(h)), edgecolor=(0.5, 0.55, 0.6), linewidth=0.3,
            )
        )
        if losses.get(name):
            share = losses[name] / worst
            ax.add_patch(
                RegularPolygon(
                    (x, y), 6, radius=HEX_RADIUS * 0.95, orientation=orientation,
                    facecolor=to_rgba((0.35, 0.0, 0.45), 0.25 + 0.7 * share), edgecolor="none",
                    zorder=3,
                )
            )
            ax.text(x, y, pct(losses[name] / n), ha="center", va="center", fontsize=6,
                    color="white" if share > 0.5 else "black", zorder=5)
        if h.port:
            ax.text(x, y - 0.55, h.port, ha="center", va="top", fontsize=7, weight="bold",
                    color=(0.45, 0.05, 0.05), zorder=6)
    xs = [geometry.hex_center(h)[0] for h in route]
    ys = [geometry.hex_center(h)[1] for h in route]
    ax.plot(xs, ys, color=(0.1, 0.1, 0.1), linewidth=1.6, zorder=4)
    ax.plot(xs[:1], ys[:1], "o", color="black", zorder=4)
    ax.plot(xs[-1:], ys[-1:], "s", color="black", zorder=4)
    for stop in data.get("stops", []):
        x, y = geometry.hex_center(stop)
        ax.plot([x], [y], "D", color=(0.1, 0.3, 0.8), zorder=4)
    ax.set_xlim(geometry.xmin, geometry.xmax)
    ax.set_ylim(geometry.ymin, geometry.ymax)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(f"Losses over the route ({pct(data['chances']['lost']['chance'])} of runs)",
                 fontsize=10)

    arrivals = [-(-r.arrival // 60) - setup.clock for r in results if r.arrival is not None]
    hist = fig.add_axes((0.64, 0.56, 0.33, 0.32))
    if arrivals:
        low, high = min(arrivals), max(arrivals)
        hist.hist(arrivals, bins=range(low, high + 2), color=(0.2, 0.4, 0.7))
    else:
        hist.text(0.5, 0.5, "no run arrived", ha="center", va="center",
                  transform=hist.transAxes)
    hist.set_title(f"Arrival, hours from now ({pct(len(arrivals) / n)} arrive)", fontsize=10)
    hist.set_ylabel("runs")
    fuel = fig.add_axes((0.64, 0.10, 0.33, 0.32))
    left = [r.fuel_left for r in results]
    low, high = int(min(left, default=0)), int(max(left, default=0))
    fuel.hist(left, bins=range(low, high + 2), color=(0.3, 0.6, 0.3))
    fuel.set_title("Fuel left at the end (hlbs)", fontsize=10)
    fuel.set_ylabel("runs")
    ports = {h.name: str(h.port) for h in chart.ports()} if hasattr(chart, "ports") else {}

    def place(hex_name: str) -> str:  # the ports by name, as the text report gives them
        return f"{ports[hex_name]} ({hex_name})" if hex_name in ports else hex_name

    fig.suptitle(
        f"Forecast: {data['ship']} from {place(data['from'])} to {place(data['to'])}, "
        f"{data['runs']:,} runs (seed {data['seed']})",
        fontsize=12,
    )
    from .atomicfile import FileBatch

    try:
        with FileBatch() as batch:  # whole or not at all: the old picture stays till then
            fig.savefig(batch.add(out), format="png")
    except OSError as exc:
        raise MapError(f"cannot write {out}: {exc.strerror or exc}") from None
    return out
