"""Hex geometry: CCRR names, offset and cube coordinates, distance, lines, rings and routes.

The convention (R30), the one printed hexcrawl maps use and the one the pictures draw:

* A hex is 12 miles across and is named ``CCRR``: two digits of column, then two of row.
  ``0101`` is the top-left hex; columns count left to right, rows top to bottom.
* Hexes are **flat-topped**, and every even-numbered column (02, 04, ...) sits half a hex
  lower than the odd-numbered columns beside it. So 0201 is below-right of 0101, and the
  neighbours of 0202 are 0201, 0203 (above and below), 0102, 0103, 0302 and 0303.
* Maps wider or taller than 99 hexes use three digits each, ``CCCRRR`` (``120045`` is column
  120, row 45). Names are canonical in their shortest form: a hex with both numbers at most
  99 is always written with four digits, and six-digit names of such hexes are accepted.

Internally a hex is an offset ``(col, row)`` pair of 1-based integers, exactly the numbers in
its name, and for arithmetic a cube coordinate ``(q, r, s)`` with ``q + r + s == 0``.
Everything here is pure: no map, no store. Functions that take a hex accept its name; the
``cube_*`` functions work on cube tuples and know nothing of names or map edges.
"""

from __future__ import annotations

import heapq
import math
import re
from array import array
from collections.abc import Callable, Iterable
from functools import lru_cache

from voyage.base.errors import MapError

Offset = tuple[int, int]
Cube = tuple[int, int, int]

# The six cube directions, clockwise from "up" (north) for flat-topped hexes.
CUBE_DIRECTIONS: tuple[Cube, ...] = (
    (0, -1, 1),  # north
    (1, -1, 0),  # north-east
    (1, 0, -1),  # south-east
    (0, 1, -1),  # south
    (-1, 1, 0),  # south-west
    (-1, 0, 1),  # north-west
)

MAX_INDEX = 999
# [0-9], not \d: \d also matches other scripts' digits, and "٠١٠١" is not a hex name
_NAME = re.compile(r"^(?:([0-9]{2})([0-9]{2})|([0-9]{3})([0-9]{3}))\Z")
NAME_HELP = "write 4 digits, column then row, e.g. 0812"


# ----------------------------------------------------------------------------- names


@lru_cache(maxsize=65536)
def parse_hex(name: str) -> Offset:
    """``"0812"`` -> ``(8, 12)``; raise :class:`MapError` for anything that is not a hex name."""
    text = name.strip() if isinstance(name, str) else name
    match = _NAME.match(text) if isinstance(text, str) else None
    if not match:
        raise MapError(f"hex {name!r} is not a CCRR name: {NAME_HELP}")
    col_text, row_text = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
    col, row = int(col_text), int(row_text)
    if col < 1 or row < 1:
        raise MapError(f"hex {name!r} is not on any map: columns and rows start at 01 (0101)")
    return col, row


def hex_name(col: int, row: int) -> str:
    """``(8, 12)`` -> ``"0812"``; three digits each once a number passes 99 (R30)."""
    if not (1 <= col <= MAX_INDEX and 1 <= row <= MAX_INDEX):
        raise MapError(f"column {col}, row {row} is not a hex: both run from 1 to {MAX_INDEX}")
    if col <= 99 and row <= 99:
        if type(col) is int and type(row) is int:
            return _TWO[col] + _TWO[row]  # f"{col:02d}{row:02d}", looked up (see _TWO)
        return f"{col:02d}{row:02d}"  # (a bool or a float as before: "01", or refused)
    return f"{col:03d}{row:03d}"


#: "00" to "99": hex_name's two-digit halves, f"{n:02d}" made once (opening a year's
#: voyages names some 150,000 hexes, and a format with a spec is ~1,500 instructions)
_TWO = [f"{n:02d}" for n in range(100)]


def canonical(name: str) -> str:
    """The canonical spelling of a hex name (``"008012"`` -> ``"0812"``)."""
    return hex_name(*parse_hex(name))


def is_hex_name(name: object) -> bool:
    """Whether ``name`` is a valid hex name (no exception)."""
    if not isinstance(name, str):
        return False
    try:
        parse_hex(name)
    except MapError:
        return False
    return True


# ----------------------------------------------------------------------------- conversions


def offset_to_cube(col: int, row: int) -> Cube:
    """Offset ``(col, row)`` (1-based, even columns lower) -> cube ``(q, r, s)``."""
    c0, r0 = col - 1, row - 1
    q = c0
    r = r0 - (c0 - (c0 & 1)) // 2
    return q, r, -q - r


def cube_to_offset(cube: Cube) -> Offset:
    """Cube ``(q, r, s)`` -> offset ``(col, row)``, 1-based (may be < 1 off the map)."""
    q, r, _ = cube
    return q + 1, r + (q - (q & 1)) // 2 + 1


def to_cube(name: str) -> Cube:
    """A hex name -> its cube coordinate."""
    return offset_to_cube(*parse_hex(name))


def from_cube(cube: Cube) -> str:
    """A cube coordinate -> its hex name (MapError if it lies above or left of 0101)."""
    return hex_name(*cube_to_offset(cube))


def _nameable(offset: Offset, width: int | None, height: int | None) -> bool:
    col, row = offset
    if col < 1 or row < 1 or col > MAX_INDEX or row > MAX_INDEX:
        return False
    if width is not None and col > width:
        return False
    return not (height is not None and row > height)


def _names(cubes: Iterable[Cube], width: int | None, height: int | None) -> list[str]:
    out = []
    for cube in cubes:
        offset = cube_to_offset(cube)
        if _nameable(offset, width, height):
            out.append(hex_name(*offset))
    return out


# ----------------------------------------------------------------------------- cube maths


def cube_add(a: Cube, b: Cube) -> Cube:
    """Component-wise sum of two cube coordinates."""
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def cube_distance(a: Cube, b: Cube) -> int:
    """Number of hex steps between two cube coordinates."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def cube_neighbours(cube: Cube) -> list[Cube]:
    """The six cubes around ``cube``, clockwise from north."""
    return [cube_add(cube, d) for d in CUBE_DIRECTIONS]


def cube_round(q: float, r: float, s: float) -> Cube:
    """Round fractional cube coordinates to the hex that contains them."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return int(rq), int(rr), int(rs)


def cube_line(a: Cube, b: Cube) -> list[Cube]:
    """The hexes on the straight line from ``a`` to ``b``, both ends included."""
    n = cube_distance(a, b)
    if n == 0:
        return [a]
    # A tiny nudge keeps points that fall exactly on an edge on a consistent side.
    eps = (1e-6, 2e-6, -3e-6)
    aq, ar, as_ = a[0] + eps[0], a[1] + eps[1], a[2] + eps[2]
    bq, br, bs = b[0] + eps[0], b[1] + eps[1], b[2] + eps[2]
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


def cube_ring(center: Cube, radius: int) -> list[Cube]:
    """The ``6 * radius`` cubes at exactly ``radius`` steps (just the centre for 0)."""
    if radius < 0:
        raise MapError(f"a ring's radius cannot be negative (got {radius})")
    if radius == 0:
        return [center]
    out = []
    d = CUBE_DIRECTIONS[4]  # start south-west of the centre, then walk the six sides
    cube = (center[0] + d[0] * radius, center[1] + d[1] * radius, center[2] + d[2] * radius)
    for side in range(6):
        for _ in range(radius):
            out.append(cube)
            cube = cube_add(cube, CUBE_DIRECTIONS[side])
    return out


def cube_within(center: Cube, radius: int) -> list[Cube]:
    """All cubes at most ``radius`` steps from ``center`` (``3r(r+1)+1`` of them)."""
    if radius < 0:
        raise MapError(f"a radius cannot be negative (got {radius})")
    out = []
    q0, r0, s0 = center
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append((q0 + dq, r0 + dr, s0 - dq - dr))
    return out


# ----------------------------------------------------------------------------- by name


def neighbours(name: str, width: int | None = None, height: int | None = None) -> list[str]:
    """Names of the hexes next to ``name`` (those that exist: inside ``width``/``height``)."""
    return _names(cube_neighbours(to_cube(name)), width, height)


def distance(a: str, b: str) -> int:
    """Hexes between ``a`` and ``b`` (12 miles each, R30): ``distance("0101", "0103") == 2``."""
    return cube_distance(to_cube(a), to_cube(b))


def line(a: str, b: str) -> list[str]:
    """The hexes a straight line from ``a`` to ``b`` passes through, both ends included."""
    return _names(cube_line(to_cube(a), to_cube(b)), None, None)


def ring(
    center: str, radius: int, width: int | None = None, height: int | None = None
) -> list[str]:
    """Hexes exactly ``radius`` steps from ``center`` (those that exist on the map)."""
    return _names(cube_ring(to_cube(center), radius), width, height)


def within(
    center: str, radius: int, width: int | None = None, height: int | None = None
) -> list[str]:
    """Hexes at most ``radius`` steps from ``center``, the centre included."""
    if radius > 0:
        # no hex that can be named is further than this: a huge radius costs no more than
        # the whole map (without it, a typo like --radius 100000 runs for ever)
        col, row = parse_hex(center)
        radius = min(radius, max(col, width or MAX_INDEX) + max(row, height or MAX_INDEX))
    return _names(cube_within(to_cube(center), radius), width, height)


# ----------------------------------------------------------------------------- routes

DEFAULT_SEARCH_LIMIT = 1_000_000


def shortest_path(
    start: str,
    goal: str,
    passable: Callable[[str], bool],
    *,
    limit: int = DEFAULT_SEARCH_LIMIT,
) -> list[str] | None:
    """The shortest chain of hexes from ``start`` to ``goal``, entering only passable hexes.

    A* search with the hex distance as heuristic, so the path is shortest in hexes. The
    result includes both ends (``[start]`` when they are the same); None when no route
    exists. ``passable(name)`` is asked about every hex the route would enter, including
    the goal but not the start (a ship can always leave where it is), and must say False
    for hexes off the map. Ties are broken the same way every time, so the same map gives
    the same route. ``limit`` caps the hexes examined; past it :class:`MapError` is raised
    rather than searching forever on a predicate that never ends.
    """
    start_cube, goal_cube = to_cube(start), to_cube(goal)
    if start_cube == goal_cube:
        return [canonical(start)]
    verdicts: dict[Cube, bool] = {}

    def ok(cube: Cube) -> bool:
        known = verdicts.get(cube)
        if known is None:
            offset = cube_to_offset(cube)
            known = _nameable(offset, None, None) and bool(passable(hex_name(*offset)))
            verdicts[cube] = known
        return known

    if not ok(goal_cube):
        return None
    came_from: dict[Cube, Cube] = {}
    best: dict[Cube, int] = {start_cube: 0}
    counter = 0
    h0 = cube_distance(start_cube, goal_cube)
    ax, ay = _centre(start_cube)
    bx, by = _centre(goal_cube)
    span = math.hypot(bx - ax, by - ay) or 1.0

    def off_line(cube: Cube) -> float:
        # Distance of a hex centre from the straight start-goal line: among routes of equal
        # length, prefer the one nearest the straight course a navigator would lay.
        x, y = _centre(cube)
        return abs((bx - ax) * (ay - y) - (ax - x) * (by - ay)) / span

    frontier: list[tuple[int, int, float, int, int, Cube]] = [(h0, h0, 0.0, counter, 0, start_cube)]
    examined = 0
    while frontier:
        _, _, _, _, g, cube = heapq.heappop(frontier)
        if cube == goal_cube:
            path = [cube]
            while cube in came_from:
                cube = came_from[cube]
                path.append(cube)
            path.reverse()
            return [from_cube(c) for c in path]
        if g > best.get(cube, g):
            continue  # a stale entry: a shorter way here was found later
        examined += 1
        if examined > limit:
            raise MapError(f"route search from {start} to {goal} gave up after {limit} hexes")
        for nxt in cube_neighbours(cube):
            step = g + 1
            if step >= best.get(nxt, step + 1) or not ok(nxt):
                continue
            best[nxt] = step
            came_from[nxt] = cube
            counter += 1
            # Among equals prefer the hex nearer the goal, then nearer the straight course.
            h = cube_distance(nxt, goal_cube)
            heapq.heappush(frontier, (step + h, h, off_line(nxt), counter, step, nxt))
    return None


def shortest_path_cells(
    start: str,
    goal: str,
    water: bytes,
    width: int,
    height: int,
    *,
    limit: int = DEFAULT_SEARCH_LIMIT,
    blocked: Iterable[int] = (),
) -> list[str] | None:
    """:func:`shortest_path` on a map held as one byte per hex: the same route, faster.

    ``water`` has ``width * height`` bytes, row by row from 0101, non-zero where a ship may
    enter; ``blocked`` holds hex ids (``row0 * width + col0``, as :func:`hex_id` gives them)
    to keep out of as well. The hexes are popped in exactly the order of
    :func:`shortest_path`'s A*, and so take the same ways back (property tests compare the
    two on random maps), but the search runs only on the hexes of some shortest route
    (:func:`shortest_corridor`), a hex is a flat integer throughout, and the heap of keys
    is replaced by what the keys imply on those hexes (see below): no object is made per
    hex of the sea, and no hex name, tuple or cube until the route is found.
    """
    sc, sr = parse_hex(start)
    gc, gr = parse_hex(goal)
    if not (sc <= width and sr <= height):
        raise MapError(f"route search: the start {start} is off the map")
    if (sc, sr) == (gc, gr):
        return [canonical(start)]
    keep_out = set(blocked)
    goal_id = (gr - 1) * width + gc - 1
    if not (gc <= width and gr <= height and water[goal_id]) or goal_id in keep_out:
        return None
    open_water = bytearray(water)
    for hex_id in keep_out:
        if 0 <= hex_id < width * height:
            open_water[hex_id] = 0
    # Only the hexes on some shortest route can decide which one the search returns (see
    # shortest_corridor): it runs on them alone, and finds the same route.
    corridor = shortest_corridor(open_water, width, height, (sr - 1) * width + sc - 1, goal_id)
    if corridor is None:
        return None
    # The corridor (1 + steps from the start modulo 3 on it, else 0) padded with a border
    # of land one hex wide, so no step needs a bounds check: padded index
    # (row0 + 1) * stride + col0 + 1.
    stride = width + 2
    ahead = bytearray(stride * (height + 2))
    for r0 in range(height):
        at = (r0 + 1) * stride + 1
        ahead[at : at + width] = corridor[r0 * width : (r0 + 1) * width]
    gq, g_r, gs = offset_to_cube(gc, gr)  # the goal's cube, for the heuristic
    h0 = cube_distance(offset_to_cube(sc, sr), (gq, g_r, gs))
    start_at = sr * stride + sc
    goal_at = gr * stride + gc
    ax, ay = (sc - 1) * SQRT3_HALF, -((sr - 1) + 0.5 * ((sc - 1) & 1))
    bx, by = (gc - 1) * SQRT3_HALF, -((gr - 1) + 0.5 * ((gc - 1) & 1))
    span = math.hypot(bx - ax, by - ay) or 1.0
    dx, dy = bx - ax, by - ay
    # shortest_path's off_line() is abs(dx * (ay - y) - (ax - x) * dy) / span with
    # x = col0 * SQRT3_HALF and y = -(row0 + 0.5 * (col0 & 1)): its two products, each
    # the same float operations on the same values, looked up by padded row (in the list
    # for the column's parity) and by padded column.
    row_term = [[dx * (ay - -(r0 + 0.5 * odd)) for r0 in range(-1, height + 1)] for odd in (0, 1)]
    col_rows = [row_term[c0 & 1] for c0 in range(-1, width + 1)]
    col_term = [(ax - c0 * SQRT3_HALF) * dy for c0 in range(-1, width + 1)]

    def off_line(at: int) -> float:
        pr, pc = divmod(at, stride)
        return abs(col_rows[pc][pr] - col_term[pc]) / span

    # The heuristic, the hex distance to the goal in cube terms (q = col0; the cube r is
    # row0 less half the column, rounded down on even col0): with padded row ``pr`` it is
    # max(q_gap[pc], abs(pr - r_at[pc]), abs(s_at[pc] - pr)) for padded column ``pc``.
    shift = [(c0 - (c0 & 1)) // 2 for c0 in range(-1, width + 1)]
    q_gap = [abs(pc - 1 - gq) for pc in range(width + 2)]
    r_at = [1 + shift[pc] + g_r for pc in range(width + 2)]
    s_at = [2 - pc + shift[pc] - gs for pc in range(width + 2)]
    came_from = array("i", [-1]) * len(ahead)
    # Neighbour steps in CUBE_DIRECTIONS order (N, NE, SE, S, SW, NW), so ties break as in
    # shortest_path; odd-numbered columns (col0 even, padded column odd) sit half a hex
    # higher. Each as (dcol, padded index step).
    steps = tuple(
        tuple((dc, dr * stride + dc) for dc, dr in side)
        for side in (
            ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),  # col0 odd: pc even
            ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),  # col0 even: pc odd
        )
    )
    # shortest_path pops the least (f, h, off, push count), f = g + h. On the corridor:
    # * a hex popped has its least g (the heuristic is consistent), and a hex is pushed
    #   with any other g only to be popped stale later: so each hex is pushed once, by the
    #   first neighbour popped one step nearer the start (``ahead`` holds 1 + its steps
    #   modulo 3, and 0 once pushed);
    # * a hex of key (f, h) pushes its neighbours under (f, h - 1), (f + 1, h) or
    #   (f + 2, h + 1): f never falls, and no hex is pushed under a key while hexes under
    #   it wait to be popped (hexes of key (f, h) are pushed only by (f - 1, .), all popped
    #   before any of f, or by (f, h + 1), popped only once no (f, h) is left);
    # * so the hexes waiting under a key when the first of them is popped are popped
    #   together, by (off, push count): one sort by off, stable, of them in push order.
    #   Only a hex pushed under (f, h - 1), the one key below, can come first meanwhile;
    #   the batch resumes after it.
    # A heap entry is one integer, (f * 4096 + h) << 40 | push count << 20 | padded index
    # (h < 4096, and both the count and the index < 2 ** 20, on a map of at most
    # 999 x 999), so the heap compares integers, and a key's hexes come off it in push
    # order; a batch left for (f, h - 1) waits in ``resumed``, its key in the heap with
    # the index RESUME.
    ahead[start_at] = 0
    heap = [h0 * 4097 << 40 | start_at]
    resumed: dict[int, list[int]] = {}
    low = (1 << 20) - 1
    count = 1
    examined = 0
    push, pop = heapq.heappush, heapq.heappop
    batch: list[int] = []  # the rest of a key's hexes, when more than one waits under it
    while heap:
        entry = pop(heap)
        key = entry >> 40
        here = entry & low
        if here == RESUME:
            batch = resumed.pop(key)
            here = batch.pop()
        elif heap and heap[0] >> 40 == key:  # more than one hex under this key
            batch = [here]
            while heap and heap[0] >> 40 == key:
                batch.append(pop(heap) & low)
            batch.sort(key=off_line)  # popped from the end: off descending,
            batch.reverse()  # ties in push order reversed
            here = batch.pop()
        f, h = divmod(key, 4096)
        step = f - h + 1
        want = step % 3 + 1  # a neighbour one step further from the start
        base = step * 4096
        while True:
            if here == goal_at:
                path = [here]
                while came_from[here] >= 0:
                    here = came_from[here]
                    path.append(here)
                path.reverse()
                return [hex_name(i % stride, i // stride) for i in path]
            examined += 1
            if examined > limit:
                raise MapError(f"route search from {start} to {goal} gave up after {limit} hexes")
            pc = here % stride
            for dc, di in steps[pc & 1]:
                nxt = here + di
                if ahead[nxt] != want:
                    continue
                ahead[nxt] = 0
                came_from[nxt] = here
                nc = pc + dc
                pr = nxt // stride
                # hn = max(q_gap[nc], abs(pr - r_at[nc]), abs(s_at[nc] - pr)), no calls
                hn = q_gap[nc]
                gap = pr - r_at[nc]
                if gap > hn or -gap > hn:
                    hn = gap if gap > 0 else -gap
                gap = s_at[nc] - pr
                if gap > hn or -gap > hn:
                    hn = gap if gap > 0 else -gap
                push(heap, (base + 4097 * hn) << 40 | count << 20 | nxt)
                count += 1
            if not batch:
                break
            if heap[0] >> 40 < key:  # (f, h - 1) first, then the rest
                resumed[key] = batch
                batch = []
                push(heap, key << 40 | RESUME)
                break
            here = batch.pop()
    return None


#: shortest_path_cells' heap index for a batch resumed (no padded index reaches it)
RESUME = (1 << 20) - 1


def shortest_corridor(
    water: bytes | bytearray, width: int, height: int, start: int, goal: int
) -> bytes | None:
    """The hexes on at least one shortest route from hex id ``start`` to ``goal`` (ids as
    :func:`hex_id`), as one byte per hex: 1 + the hex's steps from the start modulo 3 on
    such a route, else 0; None when no route exists.

    Why the search may run on these alone and return the same route: with a consistent
    heuristic a hex's way back is set once, by the first hex popped that reaches it at its
    least cost (a neighbour one step nearer the start on a shortest route to it), and
    whether one such hex is popped before another depends only on their keys and on when
    each was pushed, which is when its own way back was set. A hex on a shortest route
    to the goal only ever takes its way back from hexes that are on one too, so the order
    in which these are popped, and every way back among them, is the same with the other
    hexes of the sea taken away (a property test compares the two on random seas).

    One breadth-first search from the start (:func:`_levels`) gives every hex's steps from
    it modulo 3; the hexes ``k - 1`` steps out on a shortest route are then those next to
    the ones ``k`` steps out on it whose steps are ``k - 1`` modulo 3 (a neighbour of a hex
    ``k`` out is ``k - 1``, ``k`` or ``k + 1`` out), found for every hex of a step at once
    by walking back from the goal.
    """
    levels = _levels(water, width, height, start, goal)
    if levels is None:
        return None
    length, stride, found = levels
    goal_bit = _bit(goal, width, stride)
    even, odd = (goal_bit, 0) if goal % width & 1 == 0 else (0, goal_bit)
    route_even, route_odd = even, odd
    near_even = near_odd = 0  # the last few steps' hexes, in integers no longer than theirs
    for k in range(length - 1, -1, -1):
        even, odd = _step(even, odd, stride)
        ring = found[k % 3]
        even &= ring[0]
        odd &= ring[1]
        near_even |= even
        near_odd |= odd
        if not k & 31:
            route_even |= near_even
            route_odd |= near_odd
            near_even = near_odd = 0
    # back to one byte a hex, row by row: 1 + its steps modulo 3 (two bits, found from the
    # rings of _levels) on a route, else 0. Each half's bits become bytes of 0 and 1,
    # summed as integers (no carry: at most 3 a byte), then the halves are interleaved.
    size = (height + 1) * stride
    to_cells = bytes.maketrans(b"01", b"\x00\x01")

    def as_bytes(bits: int) -> int:
        text = format(bits, f"0{size}b")[::-1].encode("ascii").translate(to_cells)
        return int.from_bytes(text, "little")

    halves = []
    for half, route in enumerate((route_even, route_odd)):
        low = route & (found[0][half] | found[2][half])  # 1 and 3
        high = route & (found[1][half] | found[2][half])  # 2 and 3
        total = as_bytes(low) + (as_bytes(high) << 1)
        halves.append(total.to_bytes(size, "little"))
    cells = bytearray(width * height)
    for r0 in range(height):
        at = r0 * width
        row = (r0 + 1) * stride
        cells[at : at + width : 2] = halves[0][row : row + (width + 1) // 2]
        cells[at + 1 : at + width : 2] = halves[1][row : row + width // 2]
    return bytes(cells)


def _step(even: int, odd: int, stride: int) -> tuple[int, int]:
    """The hexes of ``even`` and ``odd`` (the two halves of :func:`_levels`) and those next
    to them, the spare bits aside from none (callers mask them out).

    A hex and its six neighbours are the hex moved by each of {0, N}, {0, SE} and {0, SW}
    in turn (cube N + SE + SW = 0, so the sums of the three give the six directions), and
    each move is at most one shift a half. R30: column ``2j`` of the even half lies
    between columns ``j - 1`` and ``j`` of the odd half, each row's bits ``stride`` apart;
    an even col0's SE and SW neighbours are in its own row, an odd col0's in the row
    below. A move may pass through the spare bit at a row's end or the spare row above
    the map, never through a hex of the map it does not end beside."""
    even |= even >> stride  # N, within each half
    odd |= odd >> stride
    even, odd = even | (odd << (stride + 1)), odd | even  # SE: odd col0 down-right
    return even | (odd << stride), odd | (even >> 1)  # SW: odd col0 down, even col0 left


def _levels(
    water: bytes | bytearray, width: int, height: int, start: int, goal: int
) -> tuple[int, int, list[list[int]]] | None:
    """Breadth-first steps from hex id ``start`` over the ``water`` (a ship leaves a start
    on land) until hex id ``goal`` is reached: (the goal's steps, the row stride, and for
    each of the three residues of the steps modulo 3 the hexes at those steps); None when
    the goal cannot be reached.

    The map is held as two Python integers, one bit a hex: the even columns (col0 0, 2, 4
    ...) in one and the odd ones in the other, row after row ``stride`` bits apart with a
    bit to spare at each row's end and a row to spare above the map, never water, so a
    step never wraps round into the next row or falls off the top (:func:`_step`). Each
    step's frontier is added to one of three integers by its steps modulo 3 (enough to
    tell a hex's neighbours one step nearer, as far, and one step further apart). That
    costs by the rows of the map and the steps to the goal, not by the hex; no hex object
    or index is made.
    """
    stride = (width + 1) // 2 + 1  # the even columns, and the spare bit
    to_bits = bytes(48 if i == 0 else 49 for i in range(256))  # b"0" and b"1"
    halves = []
    for parity in (0, 1):
        rows = (
            bytes(water[r * width + parity : (r + 1) * width : 2]).ljust(stride, b"\x00")
            for r in range(height)
        )
        cells = bytes(stride) + b"".join(rows)  # a spare row above the map, then its rows
        halves.append(int(cells.translate(to_bits)[::-1], 2))
    start_bit = _bit(start, width, stride)
    goal_bit = _bit(goal, width, stride)
    sc, gc = start % width, goal % width
    even, odd = (start_bit, 0) if sc & 1 == 0 else (0, start_bit)
    unseen_even, unseen_odd = halves[0] & ~even, halves[1] & ~odd
    found = [[even, odd], [0, 0], [0, 0]]
    goal_half = gc & 1
    level = 0
    while True:
        # every third step, whether the goal is reached yet (its residue says when)
        if not level % 3 and not (unseen_odd if goal_half else unseen_even) & goal_bit:
            break
        even, odd = _step(even, odd, stride)
        even &= unseen_even
        odd &= unseen_odd
        if not (even or odd):
            break
        unseen_even ^= even
        unseen_odd ^= odd
        level += 1
        tally = found[level % 3]
        tally[0] |= even
        tally[1] |= odd
    ends = [k for k in range(3) if found[k][goal_half] & goal_bit]
    if not ends:
        return None
    # the goal was reached at most two steps before the search stopped
    return level - (level - ends[0]) % 3, stride, found


def _bit(hex_id: int, width: int, stride: int) -> int:
    """Hex id ``hex_id``'s bit in its half of :func:`_levels` (a spare row above row 0)."""
    r0, c0 = divmod(hex_id, width)
    return 1 << ((r0 + 1) * stride + (c0 >> 1))


def hex_id(name: str, width: int) -> int:
    """A hex as one integer on a map ``width`` hexes wide: ``row0 * width + col0``."""
    col, row = parse_hex(name)
    return (row - 1) * width + col - 1


def id_distance(a: int, b: int, width: int) -> int:
    """Hexes between two hex ids of a map ``width`` wide (as :func:`distance`)."""
    ar, ac = divmod(a, width)
    br, bc = divmod(b, width)
    aq, bq = ac, bc
    a_r, b_r = ar - (ac - (ac & 1)) // 2, br - (bc - (bc & 1)) // 2
    return max(abs(aq - bq), abs(a_r - b_r), abs(aq + a_r - bq - b_r))


def _centre(cube: Cube) -> tuple[float, float]:
    """Centre of a hex in drawing units (the same formula as voyage.outputs.render's geometry)."""
    col, row = cube_to_offset(cube)
    c0 = col - 1
    return c0 * SQRT3_HALF, -((row - 1) + 0.5 * (c0 & 1))


SQRT3_HALF = math.sqrt(3) / 2


def path_length(path: list[str]) -> int:
    """Number of hexes travelled along ``path`` (its steps, not its hexes)."""
    return max(0, len(path) - 1)
