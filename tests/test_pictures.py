"""Pictures for players: a voyage's picture read back from the matplotlib figure
after an Agg draw: its title, crop, numbered events, day marks, legend words, and labels
that never cover each other or the hex numbers."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from voyage.outputs.picturelabels import (
    BoxIndex,
    Label,
    overlaps,
    segment_crosses,
    written_labels,
)


def label_boxes(fig: Any, with_title: bool = True) -> list[tuple[str, str, tuple[float, ...]]]:
    """(gid, text, box in pixels) of every word placed on the picture (and its title)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    words = [(f"label:{w.kind}", w.text, w.box) for ax in fig.axes for w in written_labels(ax)]
    texts = [t for t in fig.texts if t.get_gid() == "title"] if with_title else []
    return words + [
        (t.get_gid(), t.get_text(), tuple(t.get_window_extent(renderer).extents)) for t in texts
    ]


def clashes(boxes: list[tuple[str, str, tuple[float, ...]]]) -> list[tuple[str, str]]:
    return [(a[1], b[1]) for a, b in itertools.combinations(boxes, 2) if overlaps(a[2], b[2])]


def legend_words(fig: Any) -> list[str]:
    return [t.get_text() for legend in fig.legends for t in legend.get_texts()]


@pytest.fixture(scope="module")
def voyage(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The demo's voyage with seed 2: three days from Gullhaven to Ironport."""
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.demo import run_demo
    from voyage.outputs.export import load_voyage
    from voyage.store.campaign import open_campaign

    result = run_demo(tmp_path_factory.mktemp("demo"), 2)
    camp = open_campaign(result.campaign)
    log = load_voyage(camp, result.ship)
    camp.close()
    return log, load_map(bundled_campaign("salt_reach"))


def test_the_voyage_picture_has_its_title_crop_marks_days_and_legend(voyage: Any) -> None:
    from voyage.map import hexes as hexmap
    from voyage.outputs.export import event_numbers, track
    from voyage.outputs.exportpicture import midnights, picture_area, picture_title, voyage_figure
    from voyage.outputs.render import MapGeometry

    log, sea = voyage
    fig = voyage_figure(log, sea)
    placed = label_boxes(fig)
    # the title in plain words
    title = [text for gid, text, _ in placed if gid == "title"]
    assert title == [picture_title(log)]
    assert title[0].startswith(f"{log.ship}, voyage 1: Gullhaven to Ironport, arrived Day 3, ")
    # the crop: the rectangle of the track's box and a margin, every hex of the track in it
    around, radius = picture_area(log)
    geometry = MapGeometry.for_map(sea, around, radius)
    ax = fig.axes[0]
    assert ax.get_xlim() == (geometry.xmin, geometry.xmax)
    assert ax.get_ylim() == (geometry.ymin, geometry.ymax)
    for name in track(log):
        x, y = geometry.hex_center(name)
        assert geometry.xmin < x < geometry.xmax and geometry.ymin < y < geometry.ymax
    cols = {hexmap.parse_hex(n)[0] for n in geometry.names}
    rows = {hexmap.parse_hex(n)[1] for n in geometry.names}
    assert len(geometry.names) == len(cols) * len(rows)
    # the track's own box and a margin of 2 (or the map's edge): a voyage east across the
    # map is a wide picture, not a square of empty sea
    sailed = [hexmap.parse_hex(n) for n in track(log)]
    for got, had, last in (
        (cols, [c for c, _ in sailed], sea.width),
        (rows, [r for _, r in sailed], sea.height),
    ):
        assert min(got) <= max(1, min(had) - 2) and max(got) >= min(last, max(had) + 2)
        assert max(got) - min(got) <= max(had) - min(had) + 2 * 2 + 2
    assert len(rows) < sea.height
    # every event number of the Markdown log is written on the picture
    written = " ".join(text for gid, text, _ in placed if gid == "label:event")
    for number in event_numbers(log).values():
        assert str(number) in written.replace("-", " ").replace(",", " ").split() or any(
            int(a) <= number <= int(b)
            for a, b in (
                part.split("-") for part in written.replace(",", " ").split() if "-" in part
            )
        )
    assert "start" in written or "start" in [t for g, t, _ in placed if g == "label:start"]
    # a day mark for each midnight at sea, in the campaign's words
    days = [text for gid, text, _ in placed if gid == "label:day"]
    assert midnights(log) and days == [f"Day {clock // 24 + 1}" for clock, _ in midnights(log)]
    # no word covers another
    assert clashes(placed) == []
    legend = legend_words(fig)
    for words in (
        "open sea",
        "rocky shallows",
        f"voyage 1 of {log.ship}",
        "events, numbered as in the log",
        "where she was at 00:00",
    ):
        assert words in legend
    assert "rocky bottom" not in legend  # the map's own name for it, not the internal word


def test_the_same_voyage_is_drawn_the_same_way(voyage: Any) -> None:
    from voyage.outputs.exportpicture import voyage_figure

    log, sea = voyage
    first = label_boxes(voyage_figure(log, sea))
    assert first == label_boxes(voyage_figure(log, sea))


def test_hex_numbers_give_way_to_names_and_marks(tmp_path: Path) -> None:
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.render import draw_map

    sea = load_map(bundled_campaign("salt_reach"))
    fig = draw_map(
        sea,
        labels=True,
        ships=[("Gull", "0305"), ("Mercy", "0405")],
        tracks=[("voyage 1 of Gull", ["0305", "0405", "0506"])],
        marks=[("0506", "1")],
    )
    placed = label_boxes(fig, with_title=False)
    assert clashes(placed) == []
    numbers = {text for gid, text, _ in placed if gid == "label:hex"}
    # most hexes keep their number; those under a port's name or a mark lose it
    assert 700 < len(numbers) < 36 * 24
    assert "0305" not in numbers  # Gullhaven's hex: the ship's mark is on it
    ports = {text for gid, text, _ in placed if gid == "label:port"}
    assert {"Gullhaven", "Ironport", "Silt Harbour", "Needle Gate"} <= ports
    assert {"Gull", "Mercy"} <= {text for gid, text, _ in placed if gid == "label:ship"}
    legend = legend_words(fig)
    assert "voyage 1 of Gull" in legend and "Gull" in legend and "drowned ruins" in legend


def test_day_marks_are_thinned_on_a_long_voyage_and_days_in_one_hex_share_a_mark() -> None:
    from voyage.outputs.export import VoyageLog
    from voyage.outputs.exportpicture import MOST_DAY_MARKS, day_marks

    route = [f"{c:02d}05" for c in range(1, 31)]
    hours = [{"clock": c, "hex": route[min(c // 48, 29)]} for c in range(60 * 24)]
    log = VoyageLog(
        "c", "Slow", {"id": 1, "route": route, "position": 29, "ended": 60 * 24}, hours, [], {}
    )
    marks = day_marks(log)
    assert 1 < len(marks) <= min(MOST_DAY_MARKS, 30 // 3)
    assert {m.kind for m in marks} == {"day"}
    # two days a hex: only every Nth midnight is kept, so no two marks share a hex here
    assert len({m.hex for m in marks}) == len(marks)
    short = VoyageLog(
        "c",
        "Stuck",
        {"id": 1, "route": route, "position": 29, "ended": 200},
        [{"clock": c, "hex": "0105" if c < 100 else "0205"} for c in range(200)],
        [],
        {},
    )
    # days 2-5 in 0105 share one mark; days 6-9 in 0205 another
    assert [(m.hex, m.text) for m in day_marks(short)] == [("0105", "Day 2-5"), ("0205", "Day 6-9")]


def test_day_words_follow_the_campaign_calendar() -> None:
    from voyage.tables.calendar import _default_gregorian, format_day, format_days

    cal = _default_gregorian()
    first = format_day(cal, 0)
    assert len(first.split()) == 2 and not first.startswith("Day")  # "1 Jun": no year
    assert format_day(None, 50) == "Day 3" and format_days(None, 24, 72) == "Day 2-4"
    day, month = format_day(cal, 24).split()
    assert format_days(cal, 24, 48) == f"{day}-{int(day) + 1} {month}"


def test_placement_keeps_words_apart_and_drops_what_may_go(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from voyage.outputs.picturelabels import place_labels

    fig = Figure(figsize=(2, 2), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    (dot,) = ax.plot([5], [5], "o")
    words = [Label("event", 5, 5, f"word {n}", 9) for n in range(4)]
    hexes = [
        Label("hex", 5, 5, "0505", 9, home=(0, 0), required=False, fixed=True, companions=[dot])
    ]
    written = place_labels(ax, words + hexes)
    assert [w.text for w in written] == ["word 0", "word 1", "word 2", "word 3"]
    assert written == written_labels(ax)  # what was written is on the picture
    assert dot not in ax.lines  # a word dropped takes its mark with it
    assert clashes([("", w.text, w.box) for w in written]) == []


def test_box_arithmetic() -> None:
    assert overlaps((0, 0, 2, 2), (1, 1, 3, 3)) and not overlaps((0, 0, 1, 1), (1, 0, 2, 1))
    assert segment_crosses((-1, 1, 3, 1), (0, 0, 2, 2))
    assert not segment_crosses((-1, 3, 3, 3), (0, 0, 2, 2))
    index = BoxIndex(cell=10)
    index.add((0, 0, 5, 5))
    index.add_segment((100, 0, 100, 50))
    assert index.hits((4, 4, 30, 30)) and not index.hits((5, 5, 30, 30))
    assert index.crosses_line((90, 10, 110, 20)) and not index.crosses_line((0, 10, 20, 20))


def _round_trip(status: str = "arrived") -> Any:
    """A voyage out of 0305 and back to it, with notable events on her last hours there."""
    from voyage.outputs.export import VoyageLog

    route = ["0305", "0405", "0505", "0405", "0305"]
    hours = [{"clock": c, "hex": route[min(c // 12, 4)]} for c in range(60)]
    events = [
        {"clock": c, "kind": "fire", "text": "Fire", "changes": {"fire": 1}} for c in (50, 55)
    ]
    voyage = {"id": 1, "route": route, "position": 4, "ended": 60, "status": status}
    return VoyageLog("c", "Loop", voyage, hours, events, {})


def test_a_voyage_ending_where_it_began_has_one_start_and_end_mark() -> None:
    from voyage.outputs.exportpicture import picture_marks

    marks = [m for m in picture_marks(_round_trip()) if m.kind != "day"]
    at_home = [m for m in marks if m.hex == "0305"]
    assert len(at_home) == 1
    assert at_home[0].text == "start & end 1-2" and at_home[0].kind == "event"
    assert not any("end start" in m.text for m in marks)


def test_a_ship_sunk_ends_in_a_wreck_mark_named_in_the_legend(tmp_path: Path) -> None:
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.exportpicture import picture_marks, voyage_figure

    log = _round_trip("sunk")
    marks = [m for m in picture_marks(log) if m.kind != "day"]
    assert [(m.kind, m.text) for m in marks if m.hex == "0305"] == [("wreck", "start & sank 1-2")]
    fig = voyage_figure(log, load_map(bundled_campaign("salt_reach")))
    assert "wreck (sunk or abandoned)" in legend_words(fig)
    assert [ln.get_marker() for ln in fig.axes[0].lines if ln.get_gid() == "mark:wreck"] == ["X"]


def test_map_render_draws_a_wreck_as_a_wreck() -> None:
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.render import draw_map

    sea = load_map(bundled_campaign("salt_reach"))
    fig = draw_map(sea, ships=[("Gull", "0305"), ("Widow", "0506")], wrecks={"Widow"})
    markers = {ln.get_marker() for ln in fig.axes[0].lines}
    assert {"^", "X"} <= markers
    legend = legend_words(fig)
    assert "Gull" in legend and "Widow (wreck)" in legend
    ships = {t for gid, t, _ in label_boxes(fig, with_title=False) if gid == "label:ship"}
    assert ships == {"Gull", "Widow (wreck)"}


def test_the_weather_plot_draws_a_cell_to_scale_in_the_map_render_colours() -> None:
    """`weather forecast --plot`: a radius-3 major storm is a circle 3.5 hexes round its
    centre (not a dot), in the colour `map render` shades a major storm (one palette)."""
    from matplotlib.patches import Circle

    from voyage.map import hexes as hexmap
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs import weatherplot
    from voyage.outputs.palette import STATE_COLOURS, rgb
    from voyage.outputs.render import draw_map
    from voyage.world.cells import StormCell

    cell = StormCell("north", 2, "major", "1510", 3, 30, 12, "N", 4, hexmap.to_cube("1510"))
    sea = load_map(bundled_campaign("salt_reach"))
    fig = draw_map(sea, overlay=weatherplot.tracks_overlay([cell]))
    circles = [p for p in fig.axes[0].patches if isinstance(p, Circle)]
    assert circles and all(c.get_radius() == 3.5 for c in circles)
    assert circles[0].get_center() == weatherplot.cube_xy(cell.centre(cell.start_hour))
    major = rgb(STATE_COLOURS[2])
    assert all(tuple(c.get_edgecolor()[:3]) == pytest.approx(major) for c in circles)
    assert weatherplot.STATE_COLOURS[2] == pytest.approx(major)  # what map render shades
    assert "north/2 major storm" in " ".join(legend_words(fig))


def test_the_voyage_picture_numbers_the_hexes_the_log_speaks_of(voyage: Any) -> None:
    """The log says "in 1208": the players' picture writes hex numbers, readable, never
    over another word, the track's hexes among them."""
    from voyage.outputs.export import track
    from voyage.outputs.exportpicture import voyage_figure

    log, sea = voyage
    fig = voyage_figure(log, sea)
    placed = label_boxes(fig)
    hexes = {text for gid, text, _ in placed if gid == "label:hex"}
    assert len(hexes) > 20
    assert len(hexes & set(track(log))) >= len(track(log)) // 3
    assert clashes(placed) == []
    sizes = {w.fontsize for w in written_labels(fig.axes[0]) if w.kind == "hex"}
    assert min(sizes) >= 4.5


def test_a_big_crop_numbers_only_the_hexes_near_the_track() -> None:
    from voyage.map import hexes as hexmap
    from voyage.outputs.exportpicture import NUMBERED_REACH, numbered_hexes

    sea = sea_of(90, 60)
    path = [f"{c:02d}30" for c in range(5, 86)]
    names = numbered_hexes(sea, path, "4530", (45, 30))
    assert names is not None and set(path) <= set(names)
    assert all(min(hexmap.distance(n, p) for p in path) <= NUMBERED_REACH for n in names)
    assert len(names) < 90 * 60 // 5


def sea_of(width: int, height: int) -> Any:
    from voyage.map.seamap import parse_map

    rows = "".join(f"  {'~' * width}\n" for _ in range(height))
    return parse_map(f"name: open\nrows: |\n{rows}", "open.yaml")


def test_a_hex_passed_again_and_again_lists_its_first_events_and_how_many_more() -> None:
    from voyage.outputs.exportpicture import _number_list

    assert _number_list([3]) == "3"
    assert _number_list([3, 4, 5]) == "3-5"
    assert _number_list([2, 7]) == "2, 7"
    assert _number_list([1, 2, 3, 7, 9]) == "1-3, 7, 9"
    assert _number_list([18, 133, 248, 363, 478]) == "18, 133 and 3 more"
    assert _number_list([1, 2, 10, 20, 21, 22]) == "1-2, 10, 20-22"  # no shorter cut
    assert _number_list([1, 2, 10, 20, 21, 22, 30]) == "1-2, 10 and 4 more"


def test_the_letters_of_a_word_fill_the_box_it_was_placed_in(tmp_path: Path) -> None:
    """Words are drawn as the outlines of their letters: the ink of each lies inside the
    box the placement gave it, and fills most of its width (a number put together digit
    by digit as much as a name)."""
    import matplotlib

    matplotlib.use("Agg")
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from voyage.outputs.picturelabels import place_labels

    fig = Figure(figsize=(4, 2), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 40)
    ax.set_ylim(0, 20)
    ax.set_axis_off()
    words = [
        Label("hex", 10, 10, "0305", 12, home=(0, 0), fixed=True),
        Label("port", 30, 10, "Gullhaven", 12, {"weight": "bold"}, home=(0, 0), fixed=True),
    ]
    written = place_labels(ax, words)
    fig.canvas.draw()
    ink = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].min(axis=2) < 128
    height = ink.shape[0]
    for word in written:
        left, bottom, right, top = word.box
        rows, cols = np.nonzero(ink[:, int(left) - 2 : int(right) + 3])
        ys = height - rows  # pixels from the bottom, as the boxes count
        assert ys.min() >= bottom - 1 and ys.max() <= top + 1, word
        assert cols.max() - cols.min() >= 0.8 * (right - left), word


def test_a_track_sailed_again_and_again_is_drawn_once_a_leg() -> None:
    """A long voyage to and fro: each leg of the line once, the legs sailed one after the
    other as one line, a gap (NaN) where the line takes up again after legs already drawn."""
    import math

    from voyage.outputs.render import legs_once

    a, b, c, d = (0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (2.0, 1.0)
    xs, ys = legs_once([a, b, c, b, a, b, c, d])
    points = [None if math.isnan(x) else (x, y) for x, y in zip(xs, ys, strict=True)]
    assert points == [a, b, c, None, c, d]
    assert legs_once([a, b]) == ([0.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("weight", ["normal", "bold"])
def test_numbers_and_words_put_together_are_the_whole_text_outlined(weight: str) -> None:
    """A label with digits is put together from its digits and the words between them,
    each outlined once: the same letters, in the same places, as the whole text outlined."""
    import matplotlib

    matplotlib.use("Agg")
    import numpy as np
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    from voyage.outputs.picturelabels import _letters

    font = FontProperties(size=8, weight=weight)
    glyphs: dict[Any, Any] = {}
    for text in ("start 58, 173 and 15 more", "9-10, 124-125 and 32 more", "Day 62-122", "0305"):
        vertices, codes = _letters(text, font, 11.1, glyphs)
        whole = TextPath((0, 0), text, size=11.1, prop=font)
        assert list(codes) == list(whole.codes), text
        assert np.abs(vertices - whole.vertices).max() < 1e-6, text
