"""``voyage forecast --plot``'s histograms: a bar centred on each whole value with whole
ticks, and when every run ends at one value a single bar labelled with it (it was a lone
bar over a 14.0-15.0 axis)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ok, trawler_at

from voyage.outputs import forecast_plot


def figure_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure()
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def test_one_value_is_one_labelled_bar_on_a_whole_tick():
    fig, ax = figure_axes()
    forecast_plot.runs_by_value(ax, [14] * 30, "green", "hlbs")
    fig.canvas.draw()
    (bar,) = ax.patches
    assert bar.get_x() + bar.get_width() / 2 == 14 and bar.get_height() == 30
    assert list(ax.get_xticks()) == [14]
    (label,) = [t for t in ax.texts if t.get_gid() == "single-value"]
    assert label.get_text() == "all 30 runs: 14 hlbs"
    inside = ax.get_window_extent()
    box = label.get_window_extent()
    assert inside.x0 <= box.x0 and box.x1 <= inside.x1 and box.y1 <= inside.y1
    assert all(float(t).is_integer() for t in ax.get_yticks())


def test_many_values_are_bars_centred_on_whole_values():
    fig, ax = figure_axes()
    forecast_plot.runs_by_value(ax, [3, 5, 5, 9, 9, 9], "blue", "hours")
    fig.canvas.draw()
    centres = {p.get_x() + p.get_width() / 2: p.get_height() for p in ax.patches}
    assert centres == {3: 1, 5: 2, 9: 3}
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert all(float(t).is_integer() for t in ax.get_yticks())
    assert not [t for t in ax.texts if t.get_gid() == "single-value"]


def test_a_calm_forecast_draws_its_one_fuel_value_labelled(
    db, runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    trawler_at(runner, "0305", "Gull", crew=4, fuel=50)
    drawn = []
    real = forecast_plot.runs_by_value

    def spy(ax, values, colour, unit):
        real(ax, values, colour, unit)
        drawn.append((ax, list(values), unit))

    monkeypatch.setattr(forecast_plot, "runs_by_value", spy)
    out = tmp_path / "calm.png"
    text = ok(
        runner,
        "forecast",
        "Gull",
        "--to",
        "0806",
        "--runs",
        "40",
        "--seed",
        "3",
        "--plot",
        str(out),
    )
    assert "Fuel burnt (hlbs): mean 5; 10th 5, 50th 5, 90th 5" in text  # every run the same
    ax, values, unit = drawn[-1]  # the fuel left
    assert set(values) == {45} and unit == "hlbs"
    labels = [t.get_text() for t in ax.texts if t.get_gid() == "single-value"]
    assert labels == ["all 40 runs: 45 hlbs"] and list(ax.get_xticks()) == [45]


def test_the_forecast_picture_draws_the_storms_on_the_way_and_names_the_plan(
    db, runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The storm over the route (the losses' cause) is shaded as `map render` shades its
    sea state, named in the legend, and the title names the plan forecast."""
    from matplotlib.figure import Figure
    from matplotlib.patches import RegularPolygon

    from voyage.outputs.palette import STATE_COLOURS, rgb

    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "V")
    ok(runner, "ship", "load", "Gull", "--crew", "4", "--fuel", "50")
    ok(runner, "ship", "place", "Gull", "0305")
    storm = ["weather", "storm", "--around", "1510", "--radius", "2", "--hours", "72"]
    ok(runner, *storm, "--state", "major")
    saved: list[Figure] = []
    real = Figure.savefig

    def keep(self, *args, **kw):
        saved.append(self)
        return real(self, *args, **kw)

    monkeypatch.setattr(Figure, "savefig", keep)
    picture = tmp_path / "gull.png"
    args = ["--to", "2812", "--runs", "40", "--seed", "1", "--plot", str(picture)]
    ok(runner, "forecast", "Gull", "--plan", "1", *args)
    (fig,) = saved
    assert "plan 1, shortest sea route" in fig._suptitle.get_text()
    major = rgb(STATE_COLOURS[2])
    shaded = [
        p
        for p in fig.axes[0].patches
        if isinstance(p, RegularPolygon) and tuple(p.get_facecolor()[:3]) == pytest.approx(major)
    ]
    assert len(shaded) >= 7 and all(p.get_hatch() for p in shaded)
    words = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "major storm on the way" in words
