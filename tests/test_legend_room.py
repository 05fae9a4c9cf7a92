"""The picture's legend never covers the map (about twenty entries covered the Salt Reach's
bottom row): checked by geometry, the legend's box as drawn against the map's axes, not by
pixels; a ship's tracks share her colour ("voyage 3 of Gull (her 1st)" is Gull's)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import add_trawler, ok
from PIL import Image

from voyage.base.paths import campaigns_dir
from voyage.map.seamap import load_map
from voyage.outputs import render
from voyage.outputs.picturelegend import track_owner

SIX = [("Sea Witch", "0305", "2812"), ("Gull", "2420", "0419"), ("Petrel", "3016", "0804"),
       ("Albatross", "2906", "0419"), ("Tern", "0305", "2420")]  # fmt: skip


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Every (figure, map axes, legend) a picture is drawn with."""
    seen: list[tuple] = []
    real = render.place_legend

    def spy(fig, ax, handles, geometry):
        legend = real(fig, ax, handles, geometry)
        seen.append((fig, ax, legend, len(handles)))
        return legend

    monkeypatch.setattr(render, "place_legend", spy)
    return seen


def assert_clear_of_the_map(fig, ax, legend) -> None:
    """The legend, as the saved picture drew it, lies below the map and inside the picture."""
    renderer = fig.canvas.get_renderer()
    box, area = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
    assert box.y1 <= area.y0, (box, area)  # display y grows upwards
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width and box.y0 >= 0


def six_at_sea(runner: CliRunner) -> None:
    """The Salt Reach with six ships at sea, one a built boat, and a storm: ~27 entries."""
    ok(runner, "map", "load", "salt_reach")
    for name, start, goal in SIX:
        add_trawler(runner, start, name, crew=5, fuel=60)
        ok(runner, "sail", name, "--to", goal)
    ok(runner, "ship", "build", "Sea Fox", "--body", "cruiser", "--plant", "large",
       "--with", "deck", "--crew", "2")  # fmt: skip
    ok(runner, "ship", "place", "Sea Fox", "2812")
    ok(runner, "sail", "Sea Fox", "--to", "0305")
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "48")
    ok(runner, "advance", "--hours", "3")


def test_six_ships_at_sea_the_legend_stays_below_the_map(db, runner, tmp_path, drawn):
    six_at_sea(runner)
    out = tmp_path / "reach.png"
    ok(runner, "map", "render", "--out", str(out))
    ((fig, ax, legend, entries),) = drawn
    assert entries >= 20
    assert_clear_of_the_map(fig, ax, legend)
    geometry = render.MapGeometry.for_map(load_map(campaigns_dir() / "salt_reach" / "map.yaml"))
    with Image.open(out) as image:  # the picture grew at its bottom to hold the rows
        assert image.size == (geometry.image_w, round(fig.bbox.height))
        assert image.size[1] > geometry.image_h
    # the map keeps its place from the top, so hex_pixel still finds every hex
    top = fig.bbox.height - ax.get_window_extent().y1
    assert abs(top - geometry.top) < 1 and ax.get_window_extent().height == pytest.approx(
        geometry.map_h, abs=1)  # fmt: skip


def test_a_small_crop_wraps_the_legend_in_the_width_it_has(db, runner, tmp_path, drawn):
    six_at_sea(runner)
    out = tmp_path / "crop.png"
    ok(runner, "map", "render", "--out", str(out), "--around", "0305", "--radius", "1")
    ((fig, ax, legend, _),) = drawn
    assert_clear_of_the_map(fig, ax, legend)


def test_long_names_take_fewer_columns_not_the_picture_sides(tmp_path, drawn):
    sea = load_map(campaigns_dir() / "salt_reach" / "map.yaml")
    ships = [(f"The Long-Named Ship Number {i} of the Reach", "1510") for i in range(8)]
    render.render_map(sea, tmp_path / "long.png", ships=ships, around="1510", radius=2)
    ((fig, ax, legend, _),) = drawn
    assert_clear_of_the_map(fig, ax, legend)


def test_a_few_entries_keep_the_picture_as_it_was(tmp_path, drawn):
    sea = load_map(campaigns_dir() / "salt_reach" / "map.yaml")
    out = render.render_map(sea, tmp_path / "plain.png")
    ((fig, ax, legend, _),) = drawn
    assert_clear_of_the_map(fig, ax, legend)
    geometry = render.MapGeometry.for_map(sea)
    with Image.open(out) as image:
        assert image.size == (geometry.image_w, geometry.image_h)


def test_a_track_is_its_ships_colour():
    assert track_owner("voyage 3 of Gull (her 1st)") == "Gull"
    assert track_owner("voyage 2 of Sea Witch") == "Sea Witch"
    assert track_owner("voyage 12 of Eel (her 2nd)") == "Eel"
    assert track_owner("Sea Witch") == "Sea Witch"
