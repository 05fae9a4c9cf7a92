"""Benchmark of `voyage forecast` against baselines measured in the same run.

    python bench/bench_forecast.py [--runs 10000] [--workers 2]

On the demo voyage (voyage/demo.py: the Salt Reach, Gullhaven to Ironport, 25 hexes, about
60 hours, inshore where the coast allows, through the demo's storm) it prints:

1. ``voyage forecast --runs 10000 --workers 2`` as a command, start-up included
   (target: at most 2 s on a 2-core machine; the aim is 1 s), beside ``python -c "import
   click, sqlite_utils, yaml"`` as the floor every command stands on;
2. the runs alone, in this process on one core (CPU time): the cost of one run;
3. the cost of one run as a ratio to one real ``voyage advance`` of the same voyage
   (in-process: the engine, the campaign's roller and the writes of every hour and event,
   advanced until the voyage is over);
4. the README's inshore example, ``voyage forecast "Sea Witch" --to 2812 --inshore`` on the
   README's quick-tour campaign (seed 7, the trawler in Gullhaven), 10,000 runs with the
   default workers, as a ratio to the import floor measured in the same run (target
   <= 7x), with its CPU time;
5. the same forecast with the Sea Witch's food and fresh water counted (R100-R104: two
   days of fresh water for her six, so every run runs dry), beside the same without and the
   import floor, in the same run (target: within 2 s; stores read from each run's hours
   should cost next to nothing).

The machine is shared, so every figure is a median of ``--repeat`` tries, and the
ratios (measured side by side) mean more than the seconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voyage.actions import forecast as fc  # noqa: E402
from voyage.outputs.demo import run_demo  # noqa: E402
from voyage.store.campaign import read_only_campaign  # noqa: E402


def demo_campaign(folder: Path) -> tuple[Path, str]:
    """The demo's campaign just after she sails (no hour advanced), and the ship's name."""
    result = run_demo(folder, max_days=0)
    return result.campaign, result.ship


def runs_in_process(db: Path, ship: str, runs: int) -> float:
    """CPU seconds for ``runs`` runs on one core (the setup is not timed)."""
    camp = read_only_campaign(db)
    setup = fc.prepare(camp, ship)
    t0 = time.process_time()  # CPU time: the machine is shared
    fc.simulate(setup, runs, seed=1, workers=1)
    return time.process_time() - t0


def real_advance(db: Path, folder: Path) -> float:
    """CPU seconds for the real thing: advance a copy of the campaign until the voyage ends
    (each advance stops for the referee; the next goes on, as the demo does)."""
    from voyage.actions.voyages import advance
    from voyage.base.errors import VoyageError
    from voyage.store.campaign import open_campaign
    from voyage.store.voyagerows import open_voyages

    copy = folder / "advance.db"
    shutil.copyfile(db, copy)
    camp = open_campaign(copy)
    t0 = time.process_time()
    for _ in range(50):
        try:
            advance(camp, until="arrival")
        except VoyageError:
            break
        if not any(s.active for s in open_voyages(camp)):
            break
    took = time.process_time() - t0
    camp.close()
    copy.unlink()
    return took


def readme_campaign(folder: Path, stores: bool = False) -> Path:
    """The README's quick tour up to its `voyage sail`: seed 7, the Salt Reach, the Sea
    Witch rolled, loaded and placed in Gullhaven (0305); with ``stores``, 100 person-days
    of food and 12 of fresh water loaded too (R100)."""
    from click.testing import CliRunner

    from voyage.cli import cli

    db = folder / ("readme-stores.db" if stores else "readme.db")
    runner = CliRunner()
    steps = [
        ["init", "--name", "The Salt Reach", "--seed", "7", "--start", "1492-06-01"],
        ["map", "load", "salt_reach"],
        ["ship", "roll", "--class", "trawler", "--name", "Sea Witch"],
        ["ship", "load", "Sea Witch", "--crew", "6", "--cargo", "200", "--fuel", "40"],
        ["ship", "place", "Sea Witch", "0305"],
    ]
    if stores:
        steps.insert(4, ["ship", "load", "Sea Witch", "--food", "100", "--fresh-water", "12"])
    for args in steps:
        result = runner.invoke(cli, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output
    return db


def _timed_apart(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one command (a second campaign's forecast, timed beside the first)."""
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def median_of(repeat: int, measure) -> float:  # type: ignore[no-untyped-def]
    return statistics.median(measure() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db, ship = demo_campaign(folder / "demo")
        env = dict(os.environ, VOYAGE_DB=str(db))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cmd = [
            py,
            "-c",
            "from voyage.cli import main; main()",
            "forecast",
            ship,
            "--runs",
            str(args.runs),
            "--workers",
            str(args.workers),
            "--seed",
            "1",
        ]
        floor = [py, "-c", "import click, sqlite_utils, yaml"]
        for warm in (floor, cmd):
            subprocess.run(warm, check=True, capture_output=True, env=env)

        cpu: dict[str, list[float]] = {}

        def timed(argv: list[str]) -> float:
            """Wall seconds; the CPU seconds of the command and its workers are noted."""
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            took = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            cpu.setdefault(argv[-1], []).append(used)
            return took

        base = median_of(args.repeat, lambda: timed(floor))
        whole = median_of(args.repeat, lambda: timed(cmd))
        used = statistics.median(cpu[cmd[-1]])
        start_cpu = statistics.median(cpu[floor[-1]])
        print(
            f"voyage forecast   : {args.runs:,} runs of the demo voyage on {args.workers} "
            f"workers in {whole:.2f} s, start-up included (target <= 2 s, aim 1 s: "
            f"{'met' if whole <= 2 else 'NOT met'}); import click, sqlite_utils, yaml "
            f"{base:.2f} s = {whole / base:.1f}x"
        )
        print(
            f"  on a busy machine: {used:.2f} CPU s in all (import floor {start_cpu:.2f}); "
            f"idle, {args.workers} cores would take about "
            f"{start_cpu + (used - start_cpu) / args.workers:.2f} s (load now "
            f"{os.getloadavg()[0]:.1f})"
        )
        inshore = [
            py,
            "-c",
            "from voyage.cli import main; main()",
            "--db",
            str(readme_campaign(folder)),
            "forecast",
            "Sea Witch",
            "--to",
            "2812",
            "--inshore",
            "--runs",
            str(args.runs),
            "--seed",
            "1",
            "--json",  # the same work; its last word keys its CPU times (timed)
        ]
        subprocess.run(inshore, check=True, capture_output=True, env=env)
        pairs = [(timed(floor), timed(inshore)) for _ in range(args.repeat)]
        ratios = sorted(b / a for a, b in pairs)
        inshore_cpu = statistics.median(cpu[inshore[-1]])
        floor_now = statistics.median(a for a, _ in pairs)
        print(
            f"inshore (README) : voyage forecast 'Sea Witch' --to 2812 --inshore, "
            f"{args.runs:,} runs, default workers: "
            f"{statistics.median(b for _, b in pairs):.2f} s wall, {inshore_cpu:.2f} CPU s; "
            f"{statistics.median(ratios):.1f}x the import floor ({floor_now:.2f} s) in the "
            f"same run (tries {', '.join(f'{r:.1f}x' for r in ratios)}; target <= 7x: "
            f"{'met' if statistics.median(ratios) <= 7 else 'NOT met'}; load "
            f"{os.getloadavg()[0]:.1f})"
        )
        counted = list(inshore)
        counted[4] = str(readme_campaign(folder, stores=True))  # its --db
        subprocess.run(counted, check=True, capture_output=True, env=env)
        trios = [
            (timed(floor), _timed_apart(inshore, env), _timed_apart(counted, env))
            for _ in range(args.repeat)
        ]
        floor_now = statistics.median(a for a, _, _ in trios)
        without = statistics.median(b for _, b, _ in trios)
        with_stores = statistics.median(c for _, _, c in trios)
        print(
            f"with stores      : the same forecast with two days of fresh water for six "
            f"(R100-R104; every run runs dry): {with_stores:.2f} s wall against "
            f"{without:.2f} s without ({with_stores / without:.2f}x) and the import floor "
            f"{floor_now:.2f} s ({with_stores / floor_now:.1f}x) in the same run (target "
            f"<= 2 s: {'met' if with_stores <= 2 else 'NOT met'}; load {os.getloadavg()[0]:.1f})"
        )
        some = max(500, args.runs // 10)
        per_run = median_of(args.repeat, lambda: runs_in_process(db, ship, some)) / some
        print(f"runs, one core    : {per_run * 1e6:.0f} us a run")
        advance = median_of(args.repeat, lambda: real_advance(db, folder))
        print(
            f"vs a real advance : one `voyage advance` of the same voyage (until it ends, "
            f"written to the campaign) {advance * 1000:.1f} ms; a forecast run costs "
            f"{per_run / advance:.3f} of it ({advance / per_run:.0f} runs per advance)"
        )


if __name__ == "__main__":
    main()
