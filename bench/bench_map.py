"""Benchmark: a 200 x 200 sea map loaded, validated and queried; the bundled map rendered.

Every figure is printed beside a baseline measured in the same run, as a ratio, so the
numbers mean something on any machine:

* loading + validating the map file  vs  ``yaml.safe_load`` of the same text alone
* ``sea_map.hex(name)`` lookups        vs  the same names looked up in a plain dict
* ``is_sea`` and a cross-map route     vs  a dict lookup loop / a plain BFS over a dict grid
* rendering the bundled map to PNG     vs  saving an empty matplotlib figure of the same size
* the parsed-map cache: reading the cached parse of a ``--big`` map vs parsing its text
* ``voyage advance --hours 1`` on a ``--big`` (999 x 999) map, a fresh process each time,
  vs ``python -c "import click, sqlite_utils, yaml"`` (target: at most 1.5x, issue 14.2;
  that baseline loads numpy through sqlite-utils, which voyage no longer does, so the same
  imports with numpy hidden are timed and printed too: the "lean" ratio),
  and ``status``, ``undo`` (of such an advance) and ``map show --around`` on it; the
  children run with their byte code cached, as an installed copy has it, alternately with
  the baseline
* ``voyage map render`` of a ``--render-size`` (200 x 200) map in a child process: wall
  time and peak memory vs a child that saves an empty figure of the same size
  (targets: within 3 s and 300 MB, issue 14.3); and the ``--big`` map's one-line refusal

Run: ``python bench/bench_map.py`` (add ``--size 100`` for a smaller map, ``--big 0`` to
skip the campaign figures). Nothing here is a test: no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import yaml
from bench_engine import LEAN_IMPORT

from voyage.base.paths import campaigns_dir
from voyage.map import hexes as hexmap
from voyage.map.seamap import TERRAIN_CODE, load_map, parse_map
from voyage.outputs.render import MapGeometry, render_map


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
    open_sea = TERRAIN_CODE["sea"]
    coastal = [  # row by row, as sea.hexes() gives them, without a Hex per hex
        hexmap.hex_name(i % size + 1, i // size + 1)
        for i, (cell, coast) in enumerate(zip(sea.cells, sea.coastal_cells, strict=True))
        if coast and cell == open_sea
    ]
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


def installed_env(folder: Path) -> dict[str, str]:
    """The environment of the timed children: byte code cached (in ``folder``), as an
    installed copy has it (pip compiles at install time; a sandbox with
    PYTHONDONTWRITEBYTECODE would otherwise recompile voyage's own modules on every run but
    not its dependencies', and time the compiler)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(folder / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    root = Path(__file__).resolve().parent.parent / "voyage"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root)], check=True, env=env)
    return env


#: CPU seconds (user + system) of the last child :func:`run` waited for: on a machine shared
#: with other work this swings far less than its wall time
LAST_CPU = [0.0]


def run(*args: str, env: dict[str, str] | None = None) -> float:
    """Wall time of one child process (which must succeed), in seconds."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, env=env, text=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode:
        raise SystemExit(f"{args[3:]} failed: {done.stdout}{done.stderr}")
    return took


VOYAGE = [sys.executable, "-c", "import sys; from voyage.cli import main; sys.exit(main())"]


class SailingCampaign:
    """A campaign in ``tmp`` with ``map_path`` loaded and one ship at sea on it."""

    def __init__(self, tmp: Path, name: str, map_path: Path) -> None:
        self.db = tmp / f"{name}.db"
        self.env = {**installed_env(tmp), "VOYAGE_DB": str(self.db)}
        self.voyage("init", "--name", "Bench", "--seed", "1")
        self.ports = json.loads(self.voyage("map", "load", str(map_path), "--json"))["ports"]
        self.voyage("ship", "roll", "--class", "trawler", "--name", "Gull")
        self.voyage("ship", "load", "Gull", "--crew", "6", "--cargo", "100", "--fuel", "400")
        self.voyage("ship", "place", "Gull", self.ports[0]["hex"])
        # The farthest port she can reach (islands may cut some off), so she stays at sea.
        home = self.ports[0]["hex"]
        far = sorted(self.ports[1:], key=lambda p: -hexmap.distance(home, p["hex"]))
        if not any(self.voyage("sail", "Gull", "--to", p["hex"], check=False) for p in far):
            raise SystemExit(f"{map_path}: no port reachable from the first")
        self.saved = self.db.read_bytes()

    def voyage(self, *args: str, check: bool = True) -> str:
        """Run a voyage command on this campaign; its output ('' if it failed unchecked)."""
        done = subprocess.run([*VOYAGE, *args], capture_output=True, env=self.env, text=True)
        if check and done.returncode:
            raise SystemExit(f"voyage {' '.join(args)} failed: {done.stdout}{done.stderr}")
        return done.stdout if not done.returncode else ""

    def timed(self, *args: str, after: tuple[str, ...] = ()) -> float:
        """Wall time of one command, run on the campaign as saved (the copy is not timed);
        ``after``: a command run first, untimed (``advance`` before a timed ``undo``)."""
        self.db.write_bytes(self.saved)
        for suffix in ("-wal", "-shm"):
            Path(f"{self.db}{suffix}").unlink(missing_ok=True)
        if after:
            self.voyage(*after)
        return run(*VOYAGE, *args, env=self.env)


def big_map_figures(size: int, tmp: Path, repeat: int) -> list[tuple[str, str, str]]:
    """The parsed-map cache, and ``advance --hours 1`` on a ``size`` x ``size`` map against
    the import baseline and against the same advance on the bundled map."""
    from voyage.store import mapcache, mapstore
    from voyage.store.campaign import open_campaign

    path = tmp / f"big{size}.yaml"
    path.write_text(make_map_text(size))
    big = SailingCampaign(tmp, "big", path)
    small = SailingCampaign(tmp, "small", campaigns_dir() / "salt_reach")

    camp = open_campaign(big.db)
    row = mapstore.map_row(camp)
    assert row is not None
    key = mapcache.map_hash(row["text"])
    t_parse = best_of(lambda: parse_map(row["text"], row["source"]), repeat=2)
    t_cached = best_of(lambda: mapcache.read(camp, key, row["text"], row["source"]))
    camp.close()

    home = big.ports[0]["hex"]
    commands: dict[str, tuple[SailingCampaign, tuple[str, ...], tuple[str, ...]]] = {
        "advance": (big, ("advance", "--hours", "1"), ()),
        "small": (small, ("advance", "--hours", "1"), ()),
        "hex": (big, ("map", "hex", home), ()),
        "status": (big, ("status",), ()),
        "undo": (big, ("undo",), ("advance", "--hours", "1")),
        "around": (big, ("map", "show", "--around", home, "--radius", "5"), ()),
    }
    base = (sys.executable, "-c", "import click, sqlite_utils, yaml")
    # the same imports as voyage makes them (voyage.store.sqlitedb: numpy hidden from sqlite-utils)
    lean = (sys.executable, "-c", LEAN_IMPORT)
    run(*base, env=big.env)  # untimed: the byte code of both sides cached
    run(*lean, env=big.env)
    for camp, args, after in commands.values():
        camp.timed(*args, after=after)
    # alternately, so that a busy machine slows the baseline and the commands alike
    times: dict[str, list[float]] = {name: [] for name in ("import", "lean", *commands)}
    cpus: dict[str, list[float]] = {name: [] for name in times}
    for _ in range(repeat):
        times["import"].append(run(*base, env=big.env))
        cpus["import"].append(LAST_CPU[0])
        times["lean"].append(run(*lean, env=big.env))
        cpus["lean"].append(LAST_CPU[0])
        for name, (camp, args, after) in commands.items():
            times[name].append(camp.timed(*args, after=after))
            cpus[name].append(LAST_CPU[0])
    best = {name: min(found) for name, found in times.items()}
    cpu = {name: min(found) for name, found in cpus.items()}
    t_import, t_advance, t_small = (best[k] for k in ("import", "advance", "small"))

    def against(name: str, label: str, target: str = "") -> tuple[str, str, str]:
        return (
            label,
            f"{best[name] * 1000:.0f} ms (CPU {cpu[name] * 1000:.0f} ms)",
            f"{best[name] / t_import:.2f}x import baseline{target}; CPU "
            f"{cpu[name] / cpu['import']:.2f}x; {best[name] / best['lean']:.2f}x the lean "
            "imports",
        )

    return [
        (f"parse {size}x{size} map text", f"{t_parse * 1000:.0f} ms", "what the cache saves"),
        (
            "  read the cached parse",
            f"{t_cached * 1000:.0f} ms",
            f"{t_cached / t_parse:.2f}x parsing",
        ),
        against("advance", f"advance --hours 1, {size}x{size}", " (target <= 1.5x)"),
        (
            "",
            "",
            f"{t_advance / t_small:.2f}x on salt_reach; CPU {cpu['advance'] / cpu['small']:.2f}x",
        ),
        against("small", "  advance --hours 1, salt_reach"),
        against("hex", f"map hex, {size}x{size}"),
        against("status", f"status, {size}x{size}"),
        against("undo", f"undo (an advance), {size}x{size}", " (target <= 1.2x)"),
        against("around", f"map show --around, {size}x{size}"),
        (
            "  (import click, sqlite_utils, yaml)",
            f"{t_import * 1000:.0f} ms (CPU {cpu['import'] * 1000:.0f} ms)",
            "baseline",
        ),
        (
            "  (the same, numpy hidden: lean)",
            f"{best['lean'] * 1000:.0f} ms (CPU {cpu['lean'] * 1000:.0f} ms)",
            "as voyage.store.sqlitedb imports them",
        ),
    ]


PEAK = """
import resource, sys, time

def peak_kb():
    # The peak RSS of this process since it started (VmHWM). ru_maxrss would do elsewhere,
    # but on Linux a child started by vfork/exec inherits its parent's ru_maxrss, and this
    # bench's own peak (a 999x999 map in memory) would hide the child's.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""

RENDER_CHILD = (
    PEAK
    + """
from voyage.map.seamap import load_map
from voyage.outputs.render import MapGeometry, render_map
sea = load_map(sys.argv[1])
start = time.perf_counter()
cpu = resource.getrusage(resource.RUSAGE_SELF)
render_map(sea, sys.argv[2])
g = MapGeometry.for_map(sea)
use = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - start, peak_kb(), g.image_w, g.image_h, g.pixels_per_hex,
      use.ru_utime + use.ru_stime - cpu.ru_utime - cpu.ru_stime)
"""
)

EMPTY_CHILD = (
    PEAK
    + """
import matplotlib
matplotlib.use("Agg")
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
start = time.perf_counter()
fig = Figure(figsize=(int(sys.argv[1]) / 100, int(sys.argv[2]) / 100), dpi=100)
FigureCanvasAgg(fig)
fig.savefig(sys.argv[3], pil_kwargs={"compress_level": 3})
print(time.perf_counter() - start, peak_kb())
"""
)


def render_figures(size: int, big: int, tmp: Path, repeat: int) -> list[tuple[str, str, str]]:
    """A ``size`` x ``size`` map rendered in a child process: time and peak memory."""
    path = tmp / f"render{size}.yaml"
    path.write_text(make_map_text(size))
    best: tuple[float, float, float] = (1e9, 0.0, 0.0)
    shape = ""
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", RENDER_CHILD, str(path), str(tmp / "render.png")],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        best = min(best, (float(out[0]), int(out[1]) / 1024, float(out[5])))
        shape = f"{out[2]}x{out[3]} px, {out[4]} px a hex"
    width, height = shape.split(" ")[0].split("x")
    empty: tuple[float, float] = (1e9, 0.0)
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", EMPTY_CHILD, width, height, str(tmp / "empty.png")],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        empty = min(empty, (float(out[0]), int(out[1]) / 1024))
    rows = [
        (
            f"render {size}x{size} PNG ({shape})",
            f"{best[0]:.2f} s ({best[2]:.2f} s CPU), peak {best[1]:.0f} MB",
            f"{best[0] / empty[0]:.1f}x time, {best[1] / empty[1]:.1f}x memory of empty figure"
            " (targets: 3 s, 300 MB)",
        ),
        ("  (empty figure, same size)", f"{empty[0]:.2f} s, peak {empty[1]:.0f} MB", "baseline"),
    ]
    if big:
        from voyage.base.errors import MapError

        sea = load_map(tmp / f"big{big}.yaml") if (tmp / f"big{big}.yaml").exists() else None
        if sea is not None:
            start = time.perf_counter()
            try:
                render_map(sea, tmp / "big.png")
                verdict, said = "drawn", "within the picture budget"
            except MapError as exc:
                verdict, said = "refused", str(exc)
            took = time.perf_counter() - start
            rows.append((f"render {big}x{big}", f"{verdict} in {took * 1000:.0f} ms", said))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table of figures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="map side in hexes")
    parser.add_argument("--queries", type=int, default=100_000, help="hex lookups to time")
    parser.add_argument(
        "--big", type=int, default=999, help="map side for the cache/advance figures (0: skip)"
    )
    parser.add_argument(
        "--render-size", type=int, default=200, help="map side for the render figures (0: skip)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each child process")
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
        extra: list[tuple[str, str, str]] = []
        if args.big:
            extra += big_map_figures(args.big, Path(tmp), args.repeat)
        if args.render_size:
            extra += render_figures(args.render_size, args.big, Path(tmp), args.repeat)

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
        *extra,
    ]
    width = max(len(r[0]) for r in rows)
    middle = max(len(r[1]) for r in rows)
    print(f"voyage map bench (python {sys.version.split()[0]})")
    for label, figure, ratio in rows:
        print(f"  {label.ljust(width)}  {figure.ljust(middle)}  {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
