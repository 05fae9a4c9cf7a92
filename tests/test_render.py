"""Map pictures and terminal maps: the picture shows what the engine means (R30)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from PIL import Image

from voyage.base.errors import MapError
from voyage.base.paths import campaigns_dir
from voyage.map import hexes as hexmap
from voyage.map.seamap import load_map, parse_map
from voyage.outputs.palette import SEABED_COLOURS, STORM_COLOUR, TERRAIN_COLOURS
from voyage.outputs.render import (
    MapGeometry,
    hex_center,
    hex_pixel,
    render_map,
    text_map,
)

TINY = textwrap.dedent(
    """\
    name: Tiny
    rows: |
      ~~~~~
      ~P#~~
      ~~~o~
      ~~~~~
    legend:
      o: {terrain: sea, seabed: rocky}
    hexes:
      "0202": {port: Dot, fuel: {price: 1}}
    """
)


@pytest.fixture
def tiny():
    return parse_map(TINY, "tiny.yaml")


def pixel(path, geometry, name):
    with Image.open(path) as image:
        return image.convert("RGB").getpixel(hex_pixel(geometry, name))


def close(a, b, tolerance=6):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_picture_has_the_geometry_size_and_terrain_colours(tmp_path, tiny):
    out = render_map(tiny, tmp_path / "tiny.png")
    assert out == tmp_path / "tiny.png" and out.is_file()
    geometry = MapGeometry.for_map(tiny)
    with Image.open(out) as image:
        assert image.size == (geometry.image_w, geometry.image_h)
    assert close(pixel(out, geometry, "0202"), TERRAIN_COLOURS["port"])
    assert close(pixel(out, geometry, "0302"), TERRAIN_COLOURS["land"])
    assert close(pixel(out, geometry, "0101"), TERRAIN_COLOURS["sea"])
    assert close(pixel(out, geometry, "0403"), SEABED_COLOURS["rocky"])
    # Only the file asked for was written (R: never writes anywhere but the path given).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.png"]


def test_orientation_in_the_picture_matches_the_names(tmp_path, tiny):
    geometry = MapGeometry.for_map(tiny)
    x1, y1 = geometry.pixel("0101")
    x2, y2 = geometry.pixel("0201")
    x3, y3 = geometry.pixel("0102")
    assert x2 > x1 and y2 > y1  # 0201 is right of 0101 and half a hex lower (pixels go down)
    assert x3 == x1 and y3 - y1 == pytest.approx(geometry.pixels_per_hex)
    assert hex_center(tiny, "0201") == geometry.hex_center("0201")


def test_storm_and_ship_change_the_picture(tmp_path, tiny):
    geometry = MapGeometry.for_map(tiny)
    plain = render_map(tiny, tmp_path / "plain.png")
    stormy = render_map(
        tiny,
        tmp_path / "stormy.png",
        storms={"0404"},
        ships=[("Gull", "0501")],
        tracks=[("Gull", ["0101", "0201", "0301", "0401", "0501"])],
        marks=[("0104", "fire")],
        title="Storm test",
    )
    sea = pixel(plain, geometry, "0404")
    storm = pixel(stormy, geometry, "0404")
    assert close(sea, TERRAIN_COLOURS["sea"]) and not close(storm, sea, 10)
    assert sum(storm) < sum(sea)  # darker: the storm's hatch and shade
    ship = pixel(stormy, geometry, "0501")
    assert not close(ship, TERRAIN_COLOURS["sea"], 10)
    assert STORM_COLOUR  # the storm colour is defined for the legend


def test_around_draws_only_the_area(tmp_path):
    sea = load_map(campaigns_dir() / "salt_reach")
    whole = MapGeometry.for_map(sea)
    part = MapGeometry.for_map(sea, "1510", 2)
    # a rectangle, never a ragged hex circle: columns 13-17, rows 8-12, which
    # holds every hex within 2 of 1510
    assert part.names == [hexmap.hex_name(c, r) for r in range(8, 13) for c in range(13, 18)]
    assert set(hexmap.within("1510", 2)) <= set(part.names)
    out = render_map(sea, tmp_path / "part.png", around="1510", radius=2, labels=True)
    with Image.open(out) as image:
        assert image.size == (part.image_w, part.image_h)
        assert image.size[0] * image.size[1] < whole.image_w * whole.image_h
    assert close(pixel(out, part, "1510"), TERRAIN_COLOURS["sea"], 40)


def test_bundled_map_renders_ports(tmp_path):
    sea = load_map(campaigns_dir() / "salt_reach")
    out = render_map(sea, tmp_path / "reach.png", labels=True)
    geometry = MapGeometry.for_map(sea)
    for port in sea.ports():
        assert close(pixel(out, geometry, port.name), TERRAIN_COLOURS["port"], 30), port.name


def test_render_refuses_bad_paths_and_hexes(tmp_path, tiny):
    with pytest.raises(MapError, match=r"\.png, \.svg or \.pdf"):
        render_map(tiny, tmp_path / "map.gif")
    with pytest.raises(MapError, match="does not exist"):
        render_map(tiny, tmp_path / "missing" / "map.png")
    with pytest.raises(MapError, match="off the map"):
        render_map(tiny, tmp_path / "map.png", ships=[("Lost", "0909")])
    with pytest.raises(MapError, match="both"):
        render_map(tiny, tmp_path / "map.png", around="0202")
    assert list(tmp_path.iterdir()) == []


def test_text_map_marks_ships_storms_and_lists_ports(tiny):
    text = text_map(tiny, ships=[("Gull", "0501")], storms={"0404", "0302"})
    lines = text.splitlines()
    assert lines[0] == "   00000" and lines[1] == "   12345"
    assert lines[2] == "01 ~~~~1"
    assert lines[3] == "02 ~P#~~"  # a storm over land leaves the land showing
    assert lines[5] == "04 ~~~!~"
    assert "  1  Gull (0501)" in lines and "  !  storm" in lines
    assert "  0202  Dot, fuel 1/hlb (no limit)" in lines


def test_text_map_around(tiny):
    text = text_map(tiny, around="0101", radius=1, legend=False)
    assert text.splitlines() == ["   00", "   12", "01 ~~", "02 ~P"]  # the whole 2x2 box


def test_importing_render_does_not_import_matplotlib():
    code = "import sys, voyage.outputs.render; print('matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr


def test_text_map_ships_sharing_a_hex_share_a_mark_and_offview_ships_are_left_out(tiny):
    text = text_map(
        tiny, ships=[("A", "0101"), ("B", "0404"), ("C", "0101")], around="0101", radius=1
    )
    lines = text.splitlines()
    assert lines[2] == "01 1~"
    assert "  1  A (0101)" in lines and "  1  C (0101)" in lines
    assert not any("B (0404)" in line for line in lines)


def test_ships_outside_the_area_are_not_drawn(tmp_path, tiny):
    # Rendering the same area with and without an off-area ship gives the same picture.
    a = render_map(tiny, tmp_path / "a.png", around="0101", radius=1)
    b = render_map(tiny, tmp_path / "b.png", around="0101", radius=1, ships=[("Far", "0504")])
    with Image.open(a) as first, Image.open(b) as second:
        assert first.tobytes() == second.tobytes()


# ----------------------------------------------------------------------------- big maps (14.3)


def sea_of(width, height, land_row=None):
    """An all-sea map, with a row of land and a reef if asked (cheap to build at any size)."""
    rows = ["~" * width for _ in range(height)]
    if land_row:
        rows[land_row - 1] = "#" * (width // 2) + "%" + "~" * (width - width // 2 - 1)
    return parse_map("name: Wide\nrows: |\n" + "".join(f"  {r}\n" for r in rows), "wide.yaml")


def test_hexes_are_drawn_as_one_shape_per_fill_each_a_flat_topped_hexagon(tiny):
    """The grid is a handful of shapes, one per fill colour (not a patch per hex), and
    each hex in them is the hexagon a flat-topped RegularPolygon of our unit would be
    (R30: one unit across the flats, centred where the hex's name says)."""
    import numpy as np
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import RegularPolygon

    from voyage.outputs.render import HEX_RADIUS, draw_map

    geometry = MapGeometry.for_map(tiny)
    ax = draw_map(tiny, lattice=False).axes[0]
    grid = [
        c
        for c in ax.collections
        if isinstance(c, PolyCollection) and c.get_facecolor()[:, 3].min() > 0
    ]
    faces = {tuple(c.get_facecolor()[0]) for c in grid}
    assert len(grid) == len(faces) == 4  # sea, land, port, rocky seabed
    drawn = sorted(
        tuple(sorted((round(x, 6), round(y, 6)) for x, y in path.vertices[:6]))
        for c in grid
        for path in c.get_paths()
    )
    wanted = sorted(
        tuple(
            sorted(
                (round(x, 6), round(y, 6))
                for x, y in RegularPolygon(
                    hex_center(tiny, name), 6, radius=HEX_RADIUS, orientation=np.radians(-30)
                ).get_verts()[:6]
            )
        )
        for name in geometry.names
    )
    assert drawn == wanted


def test_collections_draw_what_hexalattice_draws(tmp_path, tiny, monkeypatch):
    """A map picture's grid drawn by hexalattice and a track picture's grid drawn as one
    collection per fill give the same picture: each hex's colour, and the edges between."""
    from voyage.outputs import render

    geometry = MapGeometry.for_map(tiny)
    calls: list[int] = []
    import hexalattice.hexalattice as hl

    real = hl.plot_single_lattice_custom_colors
    monkeypatch.setattr(
        hl, "plot_single_lattice_custom_colors", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    lattice = render_map(tiny, tmp_path / "lattice.png", storms={"0404"})
    polygons = render_map(tiny, tmp_path / "polygons.png", storms={"0404"}, lattice=False)
    assert calls == [1]  # hexalattice drew the first, and only the first
    assert len(geometry.names) <= render.HEXALATTICE_MAX_HEXES
    for name in geometry.names:
        assert close(pixel(lattice, geometry, name), pixel(polygons, geometry, name), 3), name
    for name in ("0201", "0302"):  # and the edges: a point between two hex centres
        (x1, y1), (x2, y2) = geometry.pixel("0101"), geometry.pixel(name)
        middle = (int((x1 + x2) / 2), int((y1 + y2) / 2))
        with Image.open(lattice) as a, Image.open(polygons) as b:
            assert close(a.convert("RGB").getpixel(middle), b.convert("RGB").getpixel(middle), 40)


def test_a_200x200_map_is_drawn_smaller_within_the_budget(tmp_path):
    from voyage.outputs.render import DEFAULT_PIXELS_PER_HEX, MAX_PICTURE_PIXELS

    sea = sea_of(200, 200, land_row=100)
    out = render_map(sea, tmp_path / "wide.png")
    geometry = MapGeometry.for_map(sea)
    assert geometry.pixels_per_hex < DEFAULT_PIXELS_PER_HEX
    assert geometry.map_w * geometry.map_h <= MAX_PICTURE_PIXELS
    with Image.open(out) as image:
        assert image.size == (geometry.image_w, geometry.image_h)
    assert close(pixel(out, geometry, "001050"), TERRAIN_COLOURS["sea"])
    assert close(pixel(out, geometry, "050100"), TERRAIN_COLOURS["land"])
    assert close(pixel(out, geometry, "101100"), TERRAIN_COLOURS["reef"])
    assert close(pixel(out, geometry, "200200"), TERRAIN_COLOURS["sea"])


def test_a_999x999_render_is_refused_in_one_line_with_the_way_out(runner, db, tmp_path):
    from voyage.cli import cli

    big = tmp_path / "big.yaml"
    big.write_text("name: Vast\nrows: |\n" + ("  " + "~" * 999 + "\n") * 999)
    assert runner.invoke(cli, ["map", "load", str(big)]).exit_code == 0
    out = tmp_path / "vast.png"
    result = runner.invoke(cli, ["map", "render", "--out", str(out)])
    assert result.exit_code == 1 and not out.exists()
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert "999x999 hexes" in lines[0] and "--around HEX --radius N" in lines[0]
    assert "pixel" in lines[0]
    # The way out works: a part of the same map is drawn.
    part = tmp_path / "part.png"
    result = runner.invoke(
        cli, ["map", "render", "--out", str(part), "--around", "500500", "--radius", "12"]
    )
    assert result.exit_code == 0, result.output
    assert part.is_file()


def test_budget_refusals_name_the_limit(tmp_path):
    sea = sea_of(120, 120)
    with pytest.raises(MapError, match=r"--labels .* 14400 hexes .* --around HEX --radius N"):
        render_map(sea, tmp_path / "labels.png", labels=True)
    with pytest.raises(MapError, match=r"at 36 pixels a hex, over the 10 million-pixel limit"):
        render_map(sea, tmp_path / "big.png", pixels_per_hex=36)
    assert list(tmp_path.iterdir()) == []
    # Well inside the limits nothing is refused: a labelled area of the same map.
    render_map(sea, tmp_path / "area.png", labels=True, around="6060", radius=5)


def test_labels_advice_and_limit_are_one_number():
    """--labels advises "--radius N (N up to R)": radius R is drawn with labels anywhere on
    a big map, R + 1 is refused, with the same advice (both from MAX_LABELLED_HEXES)."""
    from voyage.outputs.render import MAX_LABELLED_HEXES, draw_map

    sea = sea_of(120, 120)
    with pytest.raises(MapError) as whole:
        draw_map(sea, labels=True)
    advised = int(str(whole.value).split("N up to ")[1].split(")")[0])
    assert (2 * advised + 1) ** 2 <= MAX_LABELLED_HEXES < (2 * advised + 3) ** 2
    draw_map(sea, labels=True, around="6060", radius=advised)
    with pytest.raises(MapError) as over:
        draw_map(sea, labels=True, around="6060", radius=advised + 1)
    assert f"N up to {advised})" in str(over.value)
