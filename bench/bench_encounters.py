"""Benchmark of the encounter checks (R93): a year of a fleet with the checks against the
same year without them, measured in the same run.

    python bench/bench_encounters.py [--hours 8760] [--ships 10] [--repeat 3]

The fleet is bench_engine.py's (ten ships sailing back and forth across the Salt Reach all
year, a storm, inshore legs, every pace), run without stopping for the referee
(``halt=False``) and written to SQLite as an advance writes it. "without" is the engine
with ``world.encounters = None``; "with" rolls every ship's check every 4 hours from its
own stream and logs what is met. Prints the best of ``--repeat`` runs of each, alternated
(on a shared machine the best is the least disturbed), the ratio (target: at most 1.2x)
and the ratio of medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_engine  # noqa: E402

from voyage.actions import voyages  # noqa: E402


def timed(camp, hours: int, checks: bool) -> tuple[float, int]:
    """Seconds for a year with or without the encounter phase, and the events logged."""
    original = voyages.world_for

    def world_for(c, *args, **kwargs):
        world = original(c, *args, **kwargs)
        if not checks:
            world.encounters = None
        return world

    voyages.world_for = world_for
    try:
        seconds, _rows, events = bench_engine.engine_run(camp, hours, save=True)
    finally:
        voyages.world_for = original
    camp.undo()  # the next run starts from the same campaign
    return seconds, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=8760)
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        camp = bench_engine.make_campaign(Path(tmp), args.ships)
        timed(camp, 24 * 7, True)  # warm up
        without, with_checks = [], []
        events = (0, 0)
        for _ in range(args.repeat):
            t, e0 = timed(camp, args.hours, False)
            without.append(t)
            t, e1 = timed(camp, args.hours, True)
            with_checks.append(t)
            events = (e0, e1)
        base, cost = min(without), min(with_checks)
        middle = statistics.median(with_checks) / statistics.median(without)
        print(f"a year of {args.ships} ships, {args.hours} hours, written to SQLite:")
        print(f"  without encounter checks: best {base:.2f} s ({events[0]:,} events)")
        print(f"  with encounter checks   : best {cost:.2f} s ({events[1]:,} events)")
        print(
            f"  ratio: {cost / base:.2f}x best of {args.repeat} (target <= 1.2x); "
            f"medians {middle:.2f}x"
        )


if __name__ == "__main__":
    main()
