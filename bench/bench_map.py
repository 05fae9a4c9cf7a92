"""Benchmark: a 200 x 200 sea map loaded, validated and queried; the bundled map rendered.

Every figure is printed beside a baseline measured in the same run, as a ratio, so the
numbers mean something on any machine:

* loading + validating the map file  vs  ``yaml.safe_load`` of the same text alone
* ``sea_map.hex(name)`` lookups        vs  the same names looked up in a plain dict
* ``is_sea`` and a cross-map route     vs  a dict lookup loop / a plain BFS over a dict grid
* rendering the bundled map to PNG     vs  saving an empty matplotlib figure of the same size

Run: ``python bench/bench_map.py`` (add ``--size 100`` for a smaller map). Nothing here is
a test: no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import yaml

from voyage import hexmap
from voyage.maps import load_map, parse_map
from voyage.paths import campaigns_dir
from voyage.render import MapGeometry, render_map


def best_of(func: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def make_map_text(size: int, seed: int = 1) -> str:
    """A size x size map: ocean with islands, reefs, shoals, wrecks and coastal ports."""
    rng = random.Random(seed)  # a private generator: benchmark data, not a game roll
    grid = [["~"] * size for _ in range(size)]
    for _ in range(size * size // 60):  # islands grown from random seeds
        col, row = rng.randrange(size), rng.randrange(size)
        for _ in range(rng.randrange(4, 30)):
            grid[row][col] = "#"
            col = min(size - 1, max(0, col + rng.choice((-1, 0, 1))))
            row = min(size - 1, max(0, row + rng.choice((-1, 0, 1))))
    for ch, count in (("%", size * 2), (":", size * 2), ("x", size)):
        for _ in range(count):
            col, row = rng.randrange(size), rng.randrange(size)
            if grid[row][col] == "~":
                grid[row][col] = ch
    sea = parse_map("rows: |\n" + "".join(f"  {''.join(r)}\n" for r in grid), "probe")
    coastal = [h.name for h in sea.hexes() if h.terrain == "sea" and h.coastal]
    ports = rng.sample(coastal, min(len(coastal), size))
    entries = []
    for i, name in enumerate(sorted(ports, key=hexmap.parse_hex)):
        col, row = hexmap.parse_hex(name)
        grid[row - 1][col - 1] = "P"
        entries.append(f'  "{name}": {{port: Port {i}, fuel: {{price: {1 + i % 5}}}}}\n')
    for name in rng.sample([c for c in coastal if c not in ports], size // 2):
        entries.append(f'  "{name}": {{narrow_passage: true, label: Strait {name}}}\n')
    return (
        f"name: Bench {size}\nseabed: sandy\nrows: |\n"
        + "".join(f"  {''.join(r)}\n" for r in grid)
        + "hexes:\n"
        + "".join(entries)
    )


def bfs_baseline(grid: dict[tuple[int, int], bool], start: str, goal: str) -> int:
    """A plain breadth-first search over a dict of offset -> water, for the route baseline."""
    s, g = hexmap.parse_hex(start), hexmap.parse_hex(goal)
    seen = {s: 0}
    queue = deque([s])
    while queue:
        here = queue.popleft()
        if here == g:
            return seen[here]
        for n in hexmap.neighbours(hexmap.hex_name(*here)):
            o = hexmap.parse_hex(n)
            if grid.get(o) and o not in seen:
                seen[o] = seen[here] + 1
                queue.append(o)
    return -1


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table of figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="map side in hexes")
    parser.add_argument("--queries", type=int, default=100_000, help="hex lookups to time")
    args = parser.parse_args(argv)
    size, queries = args.size, args.queries

    text = make_map_text(size)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(text)
        t_yaml = best_of(lambda: yaml.safe_load(text))
        t_load = best_of(lambda: load_map(path))
        sea = load_map(path)

        rng = random.Random(2)
        names = [
            hexmap.hex_name(rng.randrange(1, size + 1), rng.randrange(1, size + 1))
            for _ in range(queries)
        ]
        plain = {name: (sea.terrain(name), sea.is_coastal(name)) for name in set(names)}
        t_dict = best_of(lambda: [plain[n] for n in names])
        fresh = [load_map(path) for _ in range(3)]  # each timed once, its record cache cold
        t_hex_cold = min(best_of(lambda m=m: [m.hex(n) for n in names], repeat=1) for m in fresh)
        t_hex = best_of(lambda: [sea.hex(n) for n in names])
        t_sea = best_of(lambda: [sea.is_sea(n) for n in names])

        water = {hexmap.parse_hex(n): sea.is_sea(n) for n in sea.names()}
        ports = sea.ports()
        a, b = ports[0].name, ports[-1].name
        t_bfs = best_of(lambda: bfs_baseline(water, a, b), repeat=1)
        t_route = best_of(lambda: sea.route(a, b), repeat=1)
        route = sea.route(a, b)

        bundled = load_map(campaigns_dir() / "salt_reach")
        out = Path(tmp) / "salt.png"
        t_render = best_of(lambda: render_map(bundled, out, labels=True), repeat=2)
        geometry = MapGeometry.for_map(bundled)

        def empty_figure() -> None:
            import matplotlib

            matplotlib.use("Agg")
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure

            fig = Figure(figsize=(geometry.image_w / 100, geometry.image_h / 100), dpi=100)
            FigureCanvasAgg(fig)
            fig.savefig(Path(tmp) / "empty.png")

        t_empty = best_of(empty_figure, repeat=2)

    rows = [
        ("map file", f"{size}x{size} hexes, {len(text) / 1024:.0f} KiB, {len(ports)} ports", ""),
        ("load + validate", f"{t_load * 1000:.0f} ms", f"{t_load / t_yaml:.2f}x yaml.safe_load"),
        ("  (yaml.safe_load alone)", f"{t_yaml * 1000:.0f} ms", "baseline"),
        (
            f"{queries} hex(), cold cache",
            f"{t_hex_cold / queries * 1e6:.2f} us each",
            f"{t_hex_cold / t_dict:.1f}x dict lookup",
        ),
        (
            f"{queries} hex(), warm",
            f"{t_hex / queries * 1e6:.2f} us each",
            f"{t_hex / t_dict:.1f}x dict lookup",
        ),
        (
            f"{queries} sea_map.is_sea()",
            f"{t_sea / queries * 1e6:.2f} us each",
            f"{t_sea / t_dict:.1f}x dict lookup",
        ),
        ("  (dict lookup)", f"{t_dict / queries * 1e6:.3f} us each", "baseline"),
        (
            f"route {a}->{b}",
            f"{t_route * 1000:.0f} ms, {len(route) - 1 if route else '-'} hexes",
            f"{t_route / t_bfs:.2f}x plain BFS",
        ),
        ("  (plain BFS, same grid)", f"{t_bfs * 1000:.0f} ms", "baseline"),
        (
            "render salt_reach PNG",
            f"{t_render * 1000:.0f} ms ({geometry.image_w}x{geometry.image_h})",
            f"{t_render / t_empty:.1f}x empty figure",
        ),
        ("  (empty figure PNG)", f"{t_empty * 1000:.0f} ms", "baseline"),
    ]
    width = max(len(r[0]) for r in rows)
    middle = max(len(r[1]) for r in rows)
    print(f"voyage map bench (python {sys.version.split()[0]})")
    for label, figure, ratio in rows:
        print(f"  {label.ljust(width)}  {figure.ljust(middle)}  {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
