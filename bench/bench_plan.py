"""Benchmark: `voyage plan` and `voyage sail --to` across a 999 x 999 sea, against B.

    python bench/bench_plan.py [--size 999] [--repeat 3] [--root PATH]

The sea is open water with one long peninsula running up from the bottom edge, a port in
the top-left corner (0101) and one in the far corner (999999), each beside a hex of land
(a port must touch the coast). The shortest route goes up and round the peninsula's tip:
about 1,800 hexes. The map is loaded into a temporary campaign with the project's own
commands (`init`, `map load`, `ship roll`, `ship load`, `ship place`), and a trawler
loaded as bench_map.py loads hers (crew 6, cargo 100, fuel 400: she runs dry about 400
hexes out, so the forecasts are short and the route search is most of the work) waits in
the first port.

Timed, each in a fresh child process, alternately with the baseline so that a busy machine
slows both alike:

* B: ``python -c "import click, sqlite_utils, yaml"``, the floor every command stands on;
* ``voyage plan Skiff --to 999999`` with its defaults (target: <= 15x B, <= 300 MB);
* ``voyage sail Skiff --to 999999`` on the campaign as saved (target: <= 2x B).

Each figure is wall and CPU time (user + system, the command's workers included) and peak
memory (the largest resident set of the command or any of its workers, read from
``getrusage(RUSAGE_CHILDREN).ru_maxrss`` in a small wrapper process that runs only it).
The ratios to B are CPU against CPU: on a shared machine they swing far less than wall
time. ``--root`` times another checkout's code (its ``voyage`` package) on the same
campaign and map; a digest of the routes `plan` offers is printed, so two checkouts can be
seen to offer the very same routes. Nothing here is a test: no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Runs one command and prints its CPU seconds (its children included) and peak RSS in KB.
#: A wrapper of its own, so ru_maxrss is this command's and not the bench's.
WRAPPER = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - start
use = resource.getrusage(resource.RUSAGE_CHILDREN)
if done.returncode:
    sys.exit(f"{sys.argv[1:]} failed: {done.stdout}{done.stderr}")
print(wall, use.ru_utime + use.ru_stime, use.ru_maxrss)
"""


def sea_text(size: int) -> str:
    """A ``size`` x ``size`` map: open sea, a peninsula up from the bottom edge a fifth of
    the way in from the right, and a port in two opposite corners."""
    tip = size // 10  # the peninsula's top row (0-based): it runs from there to the bottom
    left = size * 4 // 5  # its first column (0-based); six columns wide
    land_row = "~" * left + "#" * 6 + "~" * (size - left - 6)
    rows = []
    for r in range(size):
        row = land_row if r >= tip else "~" * size
        if r == 0:
            row = "P#" + row[2:]
        if r == size - 1:
            row = row[: size - 2] + "#P"
        rows.append(row)
    last = f"{size:03d}{size:03d}" if size > 99 else f"{size:02d}{size:02d}"
    return (
        f"name: Bench {size}\nseabed: sandy\nrows: |\n"
        + "".join(f"  {row}\n" for row in rows)
        + f'hexes:\n  "0101": {{port: Northwick}}\n  "{last}": {{port: Southmere}}\n'
    )


def voyage_argv(root: Path) -> list[str]:
    """The command line that runs ``root``'s voyage package."""
    code = f"import sys; sys.path.insert(0, {str(root)!r}); from voyage.entry import main; main()"
    return [sys.executable, "-c", code]


def campaign(folder: Path, size: int, env: dict[str, str]) -> tuple[Path, str]:
    """The campaign with the big sea loaded and the trawler in Northwick; the goal hex."""
    path = folder / f"sea{size}.yaml"
    path.write_text(sea_text(size))
    db = folder / "bench.db"
    for args in (
        ["init", "--name", "Bench", "--seed", "1"],
        ["map", "load", str(path)],
        ["ship", "roll", "--class", "trawler", "--name", "Skiff"],
        ["ship", "load", "Skiff", "--crew", "6", "--cargo", "100", "--fuel", "400"],
        ["ship", "place", "Skiff", "0101"],
    ):
        subprocess.run(
            [*voyage_argv(ROOT), "--db", str(db), *args], check=True, capture_output=True, env=env
        )
    goal = f"{size:03d}{size:03d}" if size > 99 else f"{size:02d}{size:02d}"
    return db, goal


def measure(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MB) of one command in a fresh wrapper process."""
    out = subprocess.run(
        [sys.executable, "-c", WRAPPER, *argv], check=True, capture_output=True, text=True, env=env
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]) / 1024


def main(argv: list[str] | None = None) -> int:
    """Build the sea, time the commands against B, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=999, help="the sea's side in hexes")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is timed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(folder / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code cached, as an installed copy
        env.pop("VOYAGE_DB", None)
        db, goal = campaign(folder, args.size, env)
        saved = db.read_bytes()
        code = voyage_argv(args.root.resolve())
        base = [sys.executable, "-c", "import click, sqlite_utils, yaml"]
        commands = {
            "plan": [*code, "--db", str(db), "plan", "Skiff", "--to", goal],
            "sail": [*code, "--db", str(db), "sail", "Skiff", "--to", goal],
        }
        route = json.loads(
            subprocess.run(
                [*code, "--db", str(db), "plan", "Skiff", "--to", goal, "--runs", "1", "--json"],
                check=True,
                capture_output=True,
                text=True,
                env=env,
            ).stdout
        )["plans"]
        db.write_bytes(saved)
        measure(base, env)  # untimed: byte code cached on both sides
        figures: dict[str, list[tuple[float, float, float]]] = {k: [] for k in ("B", *commands)}
        for _ in range(args.repeat):
            figures["B"].append(measure(base, env))
            for name, command in commands.items():
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{db}{suffix}").unlink(missing_ok=True)
                db.write_bytes(saved)  # each command on the campaign as saved
                figures[name].append(measure(command, env))

        def median(name: str, i: int) -> float:
            return statistics.median(f[i] for f in figures[name])

        b_wall, b_cpu = median("B", 0), median("B", 1)
        print(f"code: {args.root.resolve()}; sea {args.size}x{args.size}, {args.repeat} runs each")
        for plan in sorted(route, key=lambda p: p["plan"]):
            print(f"  plan {plan['plan']} {plan['kind']}: {plan['hexes']} hexes")
        routes = json.dumps([[p["plan"], p["route"]] for p in route], sort_keys=True)
        print(
            f"  routes' SHA-256 (the same for any code that finds the same routes): "
            f"{hashlib.sha256(routes.encode()).hexdigest()[:16]}"
        )
        print(f"B (import click, sqlite_utils, yaml): {b_wall:.2f} s wall, {b_cpu:.2f} s CPU")
        for name, target, mb in (("plan", 15, 300), ("sail", 2, None)):
            wall, cpu, peak = median(name, 0), median(name, 1), max(f[2] for f in figures[name])
            ratios = sorted(f[1] for f in figures[name])
            goal_text = f"target <= {target}x" + (f", <= {mb} MB" if mb else "")
            met = cpu / b_cpu <= target and (mb is None or peak <= mb)
            print(
                f"{' '.join(commands[name][len(code) + 2 :])}: {wall:.2f} s wall, {cpu:.2f} s CPU "
                f"= {cpu / b_cpu:.1f}x B CPU ({wall / b_wall:.1f}x wall; CPU tries "
                f"{', '.join(f'{r:.2f}' for r in ratios)} s), peak {peak:.0f} MB ({goal_text}: "
                f"{'met' if met else 'NOT met'})"
            )
        print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
