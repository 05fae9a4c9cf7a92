"""The forecast's picture: the map around the route with the losses as a heat over the
hexes, and histograms of arrival time and fuel left (one PNG).

matplotlib is imported here only, when a picture is asked for. The map is drawn with
voyage.outputs.render's geometry and colours (MapGeometry, hex_colour), so it looks like
`voyage map render`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from voyage.actions.forecast import RunResult, Setup, pct
from voyage.base.atomicfile import FileBatch
from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.outputs.palette import STATE_ALPHA, STATE_COLOURS, STATE_HATCH, hex_colour, rgb
from voyage.outputs.render import HEX_RADIUS, MapGeometry
from voyage.tables.world import SEA_STATES
from voyage.world.cells import STATE_WORDS

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


#: The most hours of weather looked at for the storms drawn (a forecast of a long voyage
#: still draws in a moment).
MOST_STORM_HOURS = 24 * 60


def storms_on_the_way(
    setup: Setup, results: Sequence[RunResult], names: Sequence[str]
) -> dict[str, int]:
    """Hex -> the worst sea-state level (R60: 1-3) it reaches while the runs are at sea:
    from the forecast's hour to the last run's arrival or loss (a week when none ends),
    the storms that toss the route and cause its losses."""
    ends = [-(-r.arrival // 60) for r in results if r.arrival is not None]
    last = max(ends, default=setup.clock + 7 * 24)
    hours = range(setup.clock, min(max(last, setup.clock + 1), setup.clock + MOST_STORM_HOURS))
    world = getattr(setup, "world", None)
    if world is None:  # a setup with no world to ask: no storms to draw
        return {}
    state = world.sea_state
    worst: dict[str, int] = {}
    for name in names:
        level = max((state(name, hour) for hour in hours), default=0)
        if level:
            worst[name] = level
    return worst


def runs_by_value(ax: Any, values: Sequence[int | float], colour: Any, unit: str) -> None:
    """How many runs ended at each value: one bar centred on each whole value (a value of
    14 is drawn over 14, not from 14 to 15), whole-number ticks on both axes. When every
    run ends at the same value it is one bar, labelled with that value, on an axis ticked
    at it alone (a lone bar over "14.0 ... 15.0" read as a spread)."""
    from matplotlib.ticker import MaxNLocator

    if not values:
        return
    whole = all(float(v).is_integer() for v in values)
    counts = Counter(int(v) if whole else round(float(v), 2) for v in values)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if len(counts) == 1:
        ((value, runs),) = counts.items()
        ax.bar([value], [runs], width=0.6, color=colour)
        ax.set_xlim(value - 2, value + 2)
        ax.set_xticks([value])
        ax.set_ylim(0, runs * 1.25)
        every = f"all {runs} runs" if runs > 1 else "the one run"
        ax.text(
            value,
            runs,
            f"{every}: {value} {unit}",
            ha="center",
            va="bottom",
            fontsize=9,
            gid="single-value",
        )
    elif whole:
        ax.bar(list(counts), list(counts.values()), width=1.0, color=colour, edgecolor="white")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:  # a built boat's charge (R82) may end between whole power units
        ax.hist([float(v) for v in values], bins=min(40, len(counts)), color=colour)


def plot_forecast(
    chart: Any,
    setup: Setup,
    data: dict[str, Any],
    results: Sequence[RunResult],
    path: str | Path,
    plan: int | None = None,
) -> Path:
    """Draw the forecast to ``path`` (a .png, written whole or not at all) and return it:
    the map round the route with the storms met on the way (shaded by sea state as `voyage
    map render` shades them) and the losses over them, the histograms, and a title naming
    the voyage and the plan (``plan``, its number in `voyage plan`)."""
    out = check_plot_path(path)
    from voyage.outputs.drawingkit import figure_classes

    Figure, FigureCanvasAgg = figure_classes()
    from matplotlib.colors import to_rgba
    from matplotlib.patches import RegularPolygon

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
    storms = storms_on_the_way(setup, results, geometry.names)
    for name in geometry.names:
        h = chart.hex(name)
        x, y = geometry.hex_center(name)
        ax.add_patch(
            RegularPolygon(
                (x, y),
                6,
                radius=HEX_RADIUS,
                orientation=orientation,
                facecolor=rgb(hex_colour(h)),
                edgecolor=(0.5, 0.55, 0.6),
                linewidth=0.3,
            )
        )
        if storms.get(name) and chart.is_sea(name):
            level = storms[name]  # shaded and hatched as `voyage map render` shades it
            ax.add_patch(
                RegularPolygon(
                    (x, y),
                    6,
                    radius=HEX_RADIUS,
                    orientation=orientation,
                    facecolor=(*rgb(STATE_COLOURS[level]), STATE_ALPHA[level] * 0.6),
                    edgecolor=(0.1, 0.1, 0.1, 0.5),
                    hatch=STATE_HATCH[level],
                    linewidth=0.3,
                    zorder=2,
                )
            )
        if losses.get(name):
            share = losses[name] / worst
            ax.add_patch(
                RegularPolygon(
                    (x, y),
                    6,
                    radius=HEX_RADIUS * 0.95,
                    orientation=orientation,
                    facecolor=to_rgba((0.35, 0.0, 0.45), 0.25 + 0.7 * share),
                    edgecolor="none",
                    zorder=3,
                )
            )
            ax.text(
                x,
                y,
                pct(losses[name] / n),
                ha="center",
                va="center",
                fontsize=6,
                color="white" if share > 0.5 else "black",
                zorder=5,
            )
        if h.port:
            ax.text(
                x,
                y - 0.55,
                h.port,
                ha="center",
                va="top",
                fontsize=7,
                weight="bold",
                color=(0.45, 0.05, 0.05),
                zorder=6,
            )
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
    ax.set_title(
        f"Losses over the route ({pct(data['chances']['lost']['chance'])} of runs)", fontsize=10
    )
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = [
        Line2D([], [], color=(0.1, 0.1, 0.1), marker="o", label="route (start)"),
        Patch(facecolor=to_rgba((0.35, 0.0, 0.45), 0.7), label="runs lost here"),
    ]
    handles += [
        Patch(
            facecolor=(*rgb(STATE_COLOURS[level]), STATE_ALPHA[level] * 0.6),
            hatch=STATE_HATCH[level],
            label=f"{STATE_WORDS[SEA_STATES[level]]} on the way",
        )
        for level in sorted(set(storms.values()))
    ]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=8)

    arrivals = [-(-r.arrival // 60) - setup.clock for r in results if r.arrival is not None]
    hist = fig.add_axes((0.64, 0.56, 0.33, 0.32))
    if arrivals:
        runs_by_value(hist, arrivals, (0.2, 0.4, 0.7), "hours")
    else:
        hist.text(0.5, 0.5, "no run arrived", ha="center", va="center", transform=hist.transAxes)
    hist.set_title(f"Arrival, hours from now ({pct(len(arrivals) / n)} arrive)", fontsize=10)
    hist.set_ylabel("runs")
    fuel = fig.add_axes((0.64, 0.10, 0.33, 0.32))
    unit = data.get("fuel_unit", "hlbs")  # R82: a built boat's charge, in power units
    runs_by_value(fuel, [r.fuel_left for r in results], (0.3, 0.6, 0.3), unit)
    what = "Fuel" if unit == "hlbs" else "Charge"
    fuel.set_title(f"{what} left at the end ({unit})", fontsize=10)
    fuel.set_ylabel("runs")
    ports = {h.name: str(h.port) for h in chart.ports()} if hasattr(chart, "ports") else {}

    def place(hex_name: str) -> str:  # the ports by name, as the text report gives them
        return f"{ports[hex_name]} ({hex_name})" if hex_name in ports else hex_name

    # the plan's name as `voyage plan` gives it ("plan 4, fastest with the currents")
    named = f"plan {plan}, " if plan is not None else ""
    label = getattr(setup, "label", "")  # the plan's name (voyage.actions.plan.setup_for)
    plan_words = f", {named}{label}" if label else ""
    fig.suptitle(
        f"Forecast: {data['ship']} from {place(data['from'])} to {place(data['to'])}{plan_words}, "
        f"{data['runs']:,} runs (seed {data['seed']})",
        fontsize=12,
    )

    try:
        with FileBatch() as batch:  # whole or not at all: the old picture stays till then
            fig.savefig(batch.add(out), format="png")
    except OSError as exc:
        raise MapError(f"cannot write {out}: {exc.strerror or exc}") from None
    return out
