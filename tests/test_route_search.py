"""Route search that costs by the route: the same routes as a plain A* over the whole map.

The route search (voyage.map.hexes.shortest_path_cells) runs its A* only on the hexes that
lie on some shortest route (shortest_corridor), with its keys partly worked out once per
row and column; offshore routes keep out of hex ids. Each must give exactly the routes, ties
broken the same way, as the plain search over every hex kept here as the reference, on
random seas, with hexes and terrains avoided, and for the bundled campaign's plans.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from conftest import ok
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.actions import plan as planning
from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.map.seamap import parse_map
from voyage.store.campaign import open_campaign


def reference_cells(
    start: str,
    goal: str,
    water: bytes,
    width: int,
    height: int,
    *,
    limit: int = hexmap.DEFAULT_SEARCH_LIMIT,
) -> list[str] | None:
    """The reference: the same A* over every water hex of the map, its costs and ways back
    in dicts, every key worked out in full for each hex pushed. The route search must
    return exactly what this returns."""
    sc, sr = hexmap.parse_hex(start)
    gc, gr = hexmap.parse_hex(goal)
    if not (sc <= width and sr <= height):
        raise MapError(f"route search: the start {start} is off the map")
    if (sc, sr) == (gc, gr):
        return [hexmap.canonical(start)]
    if not (gc <= width and gr <= height and water[(gr - 1) * width + gc - 1]):
        return None
    gq, g_r, gs = hexmap.offset_to_cube(gc, gr)  # the goal's cube, for the heuristic
    h0 = hexmap.cube_distance(hexmap.offset_to_cube(sc, sr), (gq, g_r, gs))
    start_index = (sr - 1) * width + sc - 1
    goal_index = (gr - 1) * width + gc - 1
    ax, ay = (sc - 1) * hexmap.SQRT3_HALF, -((sr - 1) + 0.5 * ((sc - 1) & 1))
    bx, by = (gc - 1) * hexmap.SQRT3_HALF, -((gr - 1) + 0.5 * ((gc - 1) & 1))
    span = math.hypot(bx - ax, by - ay) or 1.0
    dx, dy = bx - ax, by - ay
    came_from: dict[int, int] = {}
    best: dict[int, int] = {start_index: 0}
    counter = 0
    push, pop = heapq.heappush, heapq.heappop
    frontier: list[tuple[int, int, float, int, int, int]] = [(h0, h0, 0.0, 0, 0, start_index)]
    # Neighbour steps (dcol, drow) in CUBE_DIRECTIONS order (N, NE, SE, S, SW, NW), so ties
    # break as in shortest_path; odd-numbered columns (col0 even) sit half a hex higher.
    steps = (
        ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),  # col0 even
        ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),  # col0 odd
    )
    examined = 0
    while frontier:
        _, _, _, _, g, here = pop(frontier)
        if here == goal_index:
            path = [here]
            while here in came_from:
                here = came_from[here]
                path.append(here)
            path.reverse()
            return [hexmap.hex_name(i % width + 1, i // width + 1) for i in path]
        if g > best.get(here, g):
            continue  # a stale entry: a shorter way here was found later
        examined += 1
        if examined > limit:
            raise MapError(f"route search from {start} to {goal} gave up after {limit} hexes")
        r0, c0 = divmod(here, width)
        step = g + 1
        for dc, dr in steps[c0 & 1]:
            nc, nr = c0 + dc, r0 + dr
            if not (0 <= nc < width and 0 <= nr < height):
                continue
            nxt = nr * width + nc
            if step >= best.get(nxt, step + 1) or not water[nxt]:
                continue
            best[nxt] = step
            came_from[nxt] = here
            counter += 1
            # cube of the neighbour, then its distance to the goal (the heuristic)
            nq_r = nr - (nc - (nc & 1)) // 2
            h = max(abs(nc - gq), abs(nq_r - g_r), abs(-nc - nq_r - gs))
            # The off-course distance of shortest_path's off_line(), same formula.
            x = nc * hexmap.SQRT3_HALF
            y = -(nr + 0.5 * (nc & 1))
            off = abs(dx * (ay - y) - (ax - x) * dy) / span
            push(frontier, (step + h, h, off, counter, step, nxt))
    return None


def reference_offshore(chart: Any, start: str, goal: str, avoid: list[str]) -> list[str] | None:
    """The reference offshore route: every hex of the map looked at as a Hex, the coast
    kept out of by name."""
    inshore = [h.name for h in chart.hexes() if h.is_sea and (h.inshore or h.terrain in avoid)]
    for reach in range(0, 4):
        keep_out = [
            h
            for h in inshore
            if hexmap.distance(h, start) > reach and hexmap.distance(h, goal) > reach
        ]
        route = chart.route(start, goal, avoid=[*avoid, *keep_out])
        if route:
            return list(route)
    return None


def reference_with_blocked(
    start: str,
    goal: str,
    water: bytes,
    width: int,
    height: int,
    *,
    limit: int = hexmap.DEFAULT_SEARCH_LIMIT,
    blocked: Any = (),
) -> list[str] | None:
    """:func:`reference_cells` with the ``blocked`` ids taken out of the water first."""
    grid = bytearray(water)
    for index in blocked:
        grid[index] = 0
    return reference_cells(start, goal, bytes(grid), width, height, limit=limit)


def name_of(index: int, width: int) -> str:
    return hexmap.hex_name(index % width + 1, index // width + 1)


def random_sea(rng: random.Random, width: int, height: int) -> bytearray:
    """Open water with scattered land, and sometimes walls with gaps (peninsulas, straits),
    where many routes tie."""
    water = bytearray(0 if rng.random() < rng.random() * 0.5 else 1 for _ in range(width * height))
    for _ in range(rng.randrange(4)):
        if rng.random() < 0.5:  # a wall down a column, from the top or the bottom
            col = rng.randrange(width)
            lo, hi = sorted((rng.randrange(height + 1), rng.randrange(height + 1)))
            for row in range(lo, hi):
                water[row * width + col] = 0
        else:  # a wall along a row
            row = rng.randrange(height)
            lo, hi = sorted((rng.randrange(width + 1), rng.randrange(width + 1)))
            for col in range(lo, hi):
                water[row * width + col] = 0
    return water


def test_the_same_routes_as_the_reference_on_random_seas() -> None:
    rng = random.Random(32)  # a private generator: test data, not a game roll
    found = 0
    for _ in range(1500):
        width, height = rng.randint(1, 26), rng.randint(1, 26)
        water = random_sea(rng, width, height)
        blocked = {rng.randrange(width * height) for _ in range(rng.randrange(8))}
        start = name_of(rng.randrange(width * height), width)  # on land too: she leaves it
        goal = name_of(rng.randrange(width * height), width)
        got = hexmap.shortest_path_cells(start, goal, bytes(water), width, height, blocked=blocked)
        want = reference_with_blocked(start, goal, bytes(water), width, height, blocked=blocked)
        assert got == want, (width, height, start, goal, sorted(blocked), bytes(water))
        found += got is not None and len(got) > 2
    assert found > 500  # most seas have a route of some length


def test_the_same_routes_on_open_seas_where_every_route_ties() -> None:
    for width, height in ((1, 9), (9, 1), (12, 12), (31, 17), (17, 31)):
        water = bytes([1]) * (width * height)
        for start in (0, width - 1, width * height - 1, (height // 2) * width):
            for goal in range(0, width * height, 7):
                a, b = name_of(start, width), name_of(goal, width)
                assert hexmap.shortest_path_cells(a, b, water, width, height) == reference_cells(
                    a, b, water, width, height
                )


def test_round_a_peninsula() -> None:
    """The bench's sea in small: a peninsula up from the bottom, ports in two corners."""
    for size in (20, 41, 60):
        water = bytearray([1]) * (size * size)
        for row in range(size // 10, size):
            for col in range(size * 4 // 5, size * 4 // 5 + 2):
                water[row * size + col] = 0
        water[1] = water[size * size - 2] = 0
        goal = hexmap.hex_name(size, size)
        got = hexmap.shortest_path_cells("0101", goal, bytes(water), size, size)
        assert got is not None
        assert got == reference_cells("0101", goal, bytes(water), size, size)


@settings(deadline=None, max_examples=300)
@given(
    st.integers(1, 10),
    st.integers(1, 10),
    st.data(),
)
def test_the_same_routes_as_the_reference_generated(width: int, height: int, data: Any) -> None:
    cells = width * height
    water = bytes(data.draw(st.lists(st.integers(0, 1), min_size=cells, max_size=cells)))
    start = name_of(data.draw(st.integers(0, cells - 1)), width)
    goal = name_of(data.draw(st.integers(0, cells - 1)), width)
    blocked = data.draw(st.sets(st.integers(0, cells - 1), max_size=4))
    got = hexmap.shortest_path_cells(start, goal, water, width, height, blocked=blocked)
    assert got == reference_with_blocked(start, goal, water, width, height, blocked=blocked)


def _bfs(water: bytes, width: int, height: int, origin: int, start: int) -> list[int]:
    """Steps from ``origin`` to every hex (-1: none), entering water or ``start``."""
    steps = [-1] * (width * height)
    steps[origin] = 0
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for name in hexmap.neighbours(name_of(here, width), width, height):
            there = hexmap.hex_id(name, width)
            if steps[there] < 0 and (water[there] or there == start):
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def test_the_corridor_is_every_hex_on_a_shortest_route() -> None:
    rng = random.Random(7)
    for _ in range(300):
        width, height = rng.randint(1, 20), rng.randint(1, 20)
        water = bytes(random_sea(rng, width, height))
        start, goal = rng.randrange(width * height), rng.randrange(width * height)
        if start == goal or not water[goal]:
            continue
        corridor = hexmap.shortest_corridor(water, width, height, start, goal)
        ahead = _bfs(water, width, height, start, start)
        if ahead[goal] < 0:
            assert corridor is None
            continue
        behind = _bfs(water, width, height, goal, start)
        length = ahead[goal]
        assert corridor is not None
        # on a shortest route: 1 + its steps from the start modulo 3; elsewhere 0
        want = [
            1 + a % 3 if a >= 0 and b >= 0 and a + b == length else 0
            for a, b in zip(ahead, behind, strict=True)
        ]
        assert list(corridor) == want


def test_no_step_wraps_round_a_rows_end() -> None:
    """The breadth-first search holds each row's even and odd columns as runs of bits, one
    row after another: a wall of land down one column must part the sea for maps of either
    parity, the wall on an even or an odd column (a step off a row's end may not come back
    on the next row)."""
    for width in range(2, 9):
        for wall in range(width):
            water = bytearray([1]) * (width * 5)
            for row in range(5):
                water[row * width + wall] = 0
            for start in (0, width - 1, 2 * width + wall - 1, 4 * width):
                for goal in (width - 1, 3 * width, 5 * width - 1, wall + 1):
                    if not (0 <= start < width * 5 and 0 <= goal < width * 5):
                        continue
                    a, b = name_of(start, width), name_of(goal, width)
                    got = hexmap.shortest_path_cells(a, b, bytes(water), width, 5)
                    assert got == reference_cells(a, b, bytes(water), width, 5), (width, wall, a, b)
                    if got is not None and water[start]:
                        sides = {(hexmap.hex_id(h, width) % width) < wall for h in got}
                        assert len(sides) == 1  # never across the wall


def test_hex_ids_and_their_distances() -> None:
    rng = random.Random(9)
    for _ in range(500):
        width = rng.randint(1, 120)
        a, b = rng.randrange(width * 120), rng.randrange(width * 120)
        name_a, name_b = name_of(a, width), name_of(b, width)
        assert hexmap.hex_id(name_a, width) == a
        assert hexmap.id_distance(a, b, width) == hexmap.distance(name_a, name_b)


def test_a_search_past_its_limit_still_gives_up() -> None:
    water = bytes([1]) * 400
    with pytest.raises(MapError, match="gave up"):
        hexmap.shortest_path_cells("0101", "2020", water, 20, 20, limit=5)


def sea_text(rng: random.Random, width: int, height: int) -> str:
    """A map file: sea, land, reefs and shoals, with some coastal hexes narrow passages."""
    grid = [[rng.choice("~~~~~~#%:") for _ in range(width)] for _ in range(height)]
    probe = parse_map("rows: |\n" + "".join(f"  {''.join(r)}\n" for r in grid))
    coastal = [name for name in probe.names() if probe.is_sea(name) and probe.is_coastal(name)]
    entries = "".join(
        f'  "{name}": {{narrow_passage: true}}\n'
        for name in rng.sample(coastal, min(len(coastal), 3))
    )
    return (
        "rows: |\n"
        + "".join(f"  {''.join(r)}\n" for r in grid)
        + (f"hexes:\n{entries}" if entries else "")
    )


def test_avoided_hexes_by_name_or_id_and_terrains() -> None:
    rng = random.Random(11)
    for _ in range(80):
        width, height = rng.randint(3, 18), rng.randint(3, 18)
        sea = parse_map(sea_text(rng, width, height))
        names = [n for n in sea.names() if sea.is_sea(n)]
        if len(names) < 2:
            continue
        start, goal = rng.sample(names, 2)
        avoid_names = rng.sample(names, min(len(names), rng.randrange(6)))
        terrains = rng.choice([[], ["reef"], ["reef", "shoal"]])
        by_name = sea.route(start, goal, avoid=[*terrains, *avoid_names])
        by_id = sea.route(
            start, goal, avoid=terrains, avoid_ids=[sea.hex_id(n) for n in avoid_names]
        )
        assert by_name == by_id
        water = bytearray(sea.water)
        for name in names:
            if sea.terrain(name) in terrains or name in avoid_names:
                water[sea.hex_id(name)] = 0
        assert by_name == reference_cells(start, goal, bytes(water), width, height)


def test_offshore_routes_as_the_reference() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        width, height = rng.randint(4, 18), rng.randint(4, 18)
        sea = parse_map(sea_text(rng, width, height))
        names = [n for n in sea.names() if sea.is_sea(n)]
        if len(names) < 2:
            continue
        start, goal = rng.sample(names, 2)
        avoid = rng.choice([[], ["reef", "shoal"]])
        got = planning._offshore(sea, start, goal, avoid)
        assert got == reference_offshore(sea, start, goal, avoid)
        checked += got is not None
    assert checked > 10


def test_inshore_ids_are_the_inshore_hexes() -> None:
    rng = random.Random(3)
    for _ in range(30):
        sea = parse_map(sea_text(rng, rng.randint(2, 15), rng.randint(2, 15)))
        for terrains in ([], ["reef"], ["reef", "shoal"]):
            want = [
                sea.hex_id(h.name)
                for h in sea.hexes()
                if h.is_sea and (h.inshore or h.terrain in terrains)
            ]
            assert sea.inshore_ids(terrains) == want


#: What main's plan offered the README's Sea Witch in Gullhaven (0305) for Ironport (2812).
IRONPORT = [
    (
        "shortest",
        False,
        "0305 0405 0506 0605 0706 0806 0907 1007 1108 1208 1309 1409 1510 1609 1709 1809 "
        "1910 2010 2110 2210 2311 2411 2512 2611 2712 2812",
    ),
    (
        "offshore",
        False,
        "0305 0405 0506 0606 0707 0807 0908 1008 1109 1110 1210 1310 1410 1510 1609 1709 "
        "1809 1910 2010 2110 2210 2311 2411 2512 2611 2712 2812",
    ),
    (
        "inshore",
        True,
        "0305 0405 0506 0605 0706 0806 0907 1007 1108 1208 1309 1409 1510 1609 1709 1809 "
        "1910 2010 2110 2210 2311 2411 2512 2611 2712 2812",
    ),
]


@pytest.fixture
def sea_witch(runner: Any, reach: Path) -> Path:
    """The README's quick tour up to its `voyage sail`."""
    ok(runner, "ship", "roll", "--class", "trawler", "--name", "Sea Witch")
    ok(runner, "ship", "load", "Sea Witch", "--crew", "6", "--cargo", "200", "--fuel", "40")
    ok(runner, "ship", "place", "Sea Witch", "0305")
    return reach


def _offered(camp: Any, to: str) -> list[tuple[str, bool, str, list[str]]]:
    return [
        (c.kind, c.inshore, " ".join(c.route), [" ".join(leg.route) for leg in c.legs])
        for c in planning.candidates(camp, "Sea Witch", to)
    ]


def test_the_bundled_campaigns_plans_are_unchanged(
    sea_witch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    camp = open_campaign(sea_witch)
    ports = ["0804", "0419", "2420", "3016", "2812", "2906", "1409", "2020"]
    now = {to: _offered(camp, to) for to in ports}
    assert [(k, i, r) for k, i, r, _ in now["2812"]] == IRONPORT
    monkeypatch.setattr(hexmap, "shortest_path_cells", reference_with_blocked)
    monkeypatch.setattr(planning, "_offshore", reference_offshore)
    assert {to: _offered(camp, to) for to in ports} == now
    camp.close()
