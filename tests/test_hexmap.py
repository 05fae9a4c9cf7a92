"""Hex geometry (R30): CCRR names, flat-topped hexes with even columns half a hex lower."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap

# Hexes far enough from the 0101 corner that rings and lines never fall off the named grid.
inner = st.builds(hexmap.hex_name, st.integers(12, 88), st.integers(12, 88))
anywhere = st.builds(hexmap.hex_name, st.integers(1, 999), st.integers(1, 999))
radii = st.integers(0, 10)


# ----------------------------------------------------------------------------- names


def test_parse_and_name_known_values():
    assert hexmap.parse_hex("0812") == (8, 12)
    assert hexmap.parse_hex("0101") == (1, 1)
    assert hexmap.hex_name(8, 12) == "0812"
    assert hexmap.hex_name(120, 45) == "120045"
    assert hexmap.parse_hex("120045") == (120, 45)
    assert hexmap.canonical("008012") == "0812"


@pytest.mark.parametrize("bad", ["12A4", "812", "08125", "", "08 12", "abcd", "0812x"])
def test_bad_names_raise_one_line_map_error(bad):
    with pytest.raises(MapError) as err:
        hexmap.parse_hex(bad)
    message = str(err.value)
    assert "\n" not in message
    assert "is not a CCRR name" in message and "0812" in message


def test_twelve_a_four_message_is_exact():
    with pytest.raises(MapError, match=r"hex '12A4' is not a CCRR name: write 4 digits"):
        hexmap.parse_hex("12A4")


def test_zero_column_or_row_is_not_a_hex():
    with pytest.raises(MapError, match="start at 01"):
        hexmap.parse_hex("0012")
    with pytest.raises(MapError, match="start at 01"):
        hexmap.parse_hex("1200")
    assert not hexmap.is_hex_name("0000")
    assert hexmap.is_hex_name("0101")


@given(anywhere)
def test_name_round_trips(name):
    assert hexmap.hex_name(*hexmap.parse_hex(name)) == name
    assert hexmap.from_cube(hexmap.to_cube(name)) == name
    cube = hexmap.to_cube(name)
    assert sum(cube) == 0


# ----------------------------------------------------------------------------- the orientation


def test_even_columns_sit_lower():
    # R30, as printed hexcrawl maps: 0201 is down-right of 0101, so they touch; 0202 does not.
    assert "0201" in hexmap.neighbours("0101")
    assert "0202" not in hexmap.neighbours("0101")
    assert sorted(hexmap.neighbours("0202")) == sorted(
        ["0201", "0203", "0102", "0103", "0302", "0303"]
    )
    # An odd column's neighbours in the columns beside it are the row above and its own row.
    assert sorted(hexmap.neighbours("0303")) == sorted(
        ["0302", "0304", "0202", "0203", "0402", "0403"]
    )


def test_neighbours_clip_to_the_map():
    assert sorted(hexmap.neighbours("0101")) == ["0102", "0201"]
    assert sorted(hexmap.neighbours("0303", width=3, height=3)) == ["0202", "0203", "0302"]


def test_known_distances():
    assert hexmap.distance("0101", "0101") == 0
    assert hexmap.distance("0101", "0103") == 2
    assert hexmap.distance("0101", "0501") == 4
    assert hexmap.distance("0101", "0201") == 1
    assert hexmap.distance("0101", "0202") == 2
    assert hexmap.distance("0305", "2812") == 25


def test_line_known():
    assert hexmap.line("0101", "0501") == ["0101", "0201", "0301", "0401", "0501"]
    assert hexmap.line("0505", "0509") == ["0505", "0506", "0507", "0508", "0509"]


# ----------------------------------------------------------------------------- properties


@given(inner, inner)
def test_distance_symmetric(a, b):
    assert hexmap.distance(a, b) == hexmap.distance(b, a)
    assert (hexmap.distance(a, b) == 0) == (a == b)


@given(inner, inner, inner)
def test_triangle_inequality(a, b, c):
    assert hexmap.distance(a, c) <= hexmap.distance(a, b) + hexmap.distance(b, c)


@given(inner)
def test_neighbours_are_at_distance_one(name):
    around = hexmap.neighbours(name)
    assert len(set(around)) == 6
    assert all(hexmap.distance(name, n) == 1 for n in around)
    assert all(name in hexmap.neighbours(n) for n in around)


@given(inner, radii)
def test_ring_has_six_n_hexes_all_at_distance_n(center, n):
    hexes = hexmap.ring(center, n)
    assert len(hexes) == (6 * n if n else 1)
    assert len(set(hexes)) == len(hexes)
    assert all(hexmap.distance(center, h) == n for h in hexes)


@given(inner, radii)
def test_within_is_the_union_of_rings(center, n):
    hexes = hexmap.within(center, n)
    assert len(hexes) == 3 * n * (n + 1) + 1
    assert set(hexes) == {h for k in range(n + 1) for h in hexmap.ring(center, k)}


@given(inner, inner)
def test_line_is_a_chain_of_neighbours(a, b):
    hexes = hexmap.line(a, b)
    assert hexes[0] == a and hexes[-1] == b
    assert len(hexes) == hexmap.distance(a, b) + 1
    assert all(hexmap.distance(x, y) == 1 for x, y in zip(hexes, hexes[1:], strict=False))


# ----------------------------------------------------------------------------- routes


def test_open_water_path_is_as_long_as_the_distance():
    path = hexmap.shortest_path("0101", "0909", lambda h: True)
    assert path is not None
    assert path[0] == "0101" and path[-1] == "0909"
    assert hexmap.path_length(path) == hexmap.distance("0101", "0909")


def test_path_goes_round_a_wall_and_never_enters_it():
    wall = {hexmap.hex_name(5, row) for row in range(1, 9)}  # column 05, rows 1-8

    def sea(h):
        col, row = hexmap.parse_hex(h)
        return h not in wall and col <= 10 and row <= 10

    path = hexmap.shortest_path("0303", "0703", sea)
    assert path is not None
    assert not wall & set(path)
    assert all(hexmap.distance(x, y) == 1 for x, y in zip(path, path[1:], strict=False))
    # Around the bottom of the wall (row 9) and back: longer than the straight 4 hexes.
    assert hexmap.path_length(path) > hexmap.distance("0303", "0703")
    assert any(hexmap.parse_hex(h)[1] >= 9 for h in path)


def test_no_path_returns_none():
    wall = {hexmap.hex_name(5, row) for row in range(1, 11)}

    def sea(h):
        col, row = hexmap.parse_hex(h)
        return h not in wall and col <= 10 and row <= 10

    assert hexmap.shortest_path("0303", "0703", sea) is None
    assert hexmap.shortest_path("0303", "0503", sea) is None  # the goal itself is land


def test_path_to_self_and_determinism():
    assert hexmap.shortest_path("0404", "0404", lambda h: False) == ["0404"]
    first = hexmap.shortest_path("0101", "1208", lambda h: True)
    assert first == hexmap.shortest_path("0101", "1208", lambda h: True)


def test_search_limit_raises_instead_of_running_forever():
    # The goal is walled in, and the sea beyond has no edge: only the limit stops the search.
    walled = set(hexmap.ring("0150", 1))
    with pytest.raises(MapError, match="gave up"):
        hexmap.shortest_path("0101", "0150", lambda h: h not in walled, limit=500)


@settings(deadline=None)
@given(inner, inner)
def test_path_length_matches_distance_in_open_sea(a, b):
    path = hexmap.shortest_path(a, b, lambda h: True)
    assert path is not None
    assert hexmap.path_length(path) == hexmap.distance(a, b)


def test_geometry_matches_the_picture():
    # The render's hex centres: neighbours are exactly one hex (flat to flat) apart, and
    # 0201 is to the right of and below 0101 (R30 orientation).
    from voyage.outputs.render import MapGeometry

    geometry = MapGeometry(width=20, height=20)
    for name in ["0505", "0606", "1010", "0707"]:
        x0, y0 = geometry.hex_center(name)
        for n in hexmap.neighbours(name):
            x1, y1 = geometry.hex_center(n)
            assert math.isclose(math.hypot(x1 - x0, y1 - y0), 1.0, rel_tol=1e-9)
    (x1, y1), (x2, y2) = geometry.hex_center("0101"), geometry.hex_center("0201")
    assert x2 > x1 and y2 < y1  # y grows upwards in the drawing


def _bfs_length(start, goal, passable):
    from collections import deque

    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        for n in hexmap.neighbours(here):
            if n not in seen and passable(n):
                seen[n] = seen[here] + 1
                queue.append(n)
    return None


@settings(deadline=None)
@given(
    st.sets(st.tuples(st.integers(1, 12), st.integers(1, 12)), max_size=70),
    st.tuples(st.integers(1, 12), st.integers(1, 12)),
    st.tuples(st.integers(1, 12), st.integers(1, 12)),
)
def test_route_is_as_short_as_breadth_first_search(rocks, a, b):
    land = {hexmap.hex_name(*r) for r in rocks} - {hexmap.hex_name(*a)}
    start, goal = hexmap.hex_name(*a), hexmap.hex_name(*b)

    def sea(h):
        col, row = hexmap.parse_hex(h)
        return col <= 12 and row <= 12 and h not in land

    path = hexmap.shortest_path(start, goal, sea)
    expected = _bfs_length(start, goal, sea)
    if expected is None:
        assert path is None
    else:
        assert path is not None and hexmap.path_length(path) == expected
        assert path[0] == start and path[-1] == goal
        assert all(sea(h) for h in path[1:])
        assert all(hexmap.distance(x, y) == 1 for x, y in zip(path, path[1:], strict=False))
