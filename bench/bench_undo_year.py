"""Issue 14's "done when", checked whole: a year of daily advances with ten ships on a
200 x 200 map, then every day undone with ``voyage undo``, one command at a time.

    python bench/bench_undo_year.py [--ships 10] [--days 365] [--size 200] [--marks 4]

Prints:

1. the year: its seconds and the file's size (target: <= 30 MB), and the first and last
   day's advance (target: the last as quick as the first);
2. after undoing back to each of ``--marks`` days spread over the year (and day 0, the fleet
   just set sailing), whether the whole campaign (every table, schema and rows, the undo
   journal and the dice state too: ``sqlite3``'s ``iterdump``) equals its dump on that day
   before (target: equal every time);
3. ``voyage undo`` on the last day, the median and the first day, against
   ``python -c "import click, sqlite_utils, yaml"`` timed in the same run, beside every tenth
   undo (target: <= 1.2x, whatever the history).

The fleet and the days are bench_storage.py's (its ``make_fleet`` and ``one_day``). Exits 1
if an undo is not exact. About a minute on an idle 2-core machine (365 undo commands).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_engine import LEAN_IMPORT  # noqa: E402
from bench_map import make_map_text  # noqa: E402
from bench_storage import make_fleet, one_day  # noqa: E402

BASELINE = "import click, sqlite_utils, yaml"


def campaign_digest(path: Path) -> str:
    """SHA-256 of every table of the campaign, schema and rows, as SQL."""
    digest = hashlib.sha256()
    with sqlite3.connect(path) as conn:
        for line in conn.iterdump():
            digest.update(line.encode())
            digest.update(b"\n")
    conn.close()
    return digest.hexdigest()


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--marks", type=int, default=4, help="days checked after undoing")
    args = parser.parse_args()
    marked = {round(args.days * k / (args.marks + 1)) for k in range(1, args.marks + 1)}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        big_map = folder / "big.yaml"
        big_map.write_text(make_map_text(args.size))
        path = folder / "year.db"
        make_fleet(path, big_map, args.ships)
        digests = {0: campaign_digest(path)}
        t0, c0 = time.perf_counter(), time.process_time()
        days = []
        for day in range(1, args.days + 1):
            days.append(one_day(path))
            if day in marked:
                digests[day] = campaign_digest(path)
        year, year_cpu = time.perf_counter() - t0, time.process_time() - c0
        size = path.stat().st_size / 2**20
        print(
            f"year     : {args.ships} ships, {args.size}x{args.size} map, {args.days} daily "
            f"advances in {year:.1f} s ({year_cpu:.1f} s CPU, the checks' dumps included), "
            f"file {size:.1f} MB (target <= 30 MB: {'met' if size <= 30 else 'NOT met'})"
        )
        print(
            f"advance  : day 1 {days[0] * 1000:.0f} ms, day {args.days} {days[-1] * 1000:.0f} ms "
            f"= {days[-1] / days[0]:.2f}x (target: about 1x or less)"
        )
        env["VOYAGE_DB"] = str(path)
        undo = [sys.executable, "-c", "from voyage.entry import main; main()", "undo"]
        base = [sys.executable, "-c", BASELINE]
        lean = [sys.executable, "-c", LEAN_IMPORT]
        timed(base, env)  # untimed: warms the byte-code cache of both sides
        undone, bases, leans, exact = [], [], [], True
        for day in range(args.days, 0, -1):
            if day % 10 == 0:  # the baselines beside every tenth undo
                bases.append(timed(base, env))
                leans.append(timed(lean, env))
            undone.append(timed(undo, env))
            if day - 1 in digests:
                same = campaign_digest(path) == digests[day - 1]
                exact = exact and same
                print(
                    f"undo     : back to day {day - 1:>3}: the campaign equals its dump of that "
                    f"day: {'yes' if same else 'NO'}"
                )
        floor, lean_floor = statistics.median(bases), statistics.median(leans)
        for label, seconds in (
            (f"day {args.days}", undone[0]),
            ("median", statistics.median(undone)),
            ("day 1", undone[-1]),
        ):
            print(
                f"undo     : {label:<8} {seconds * 1000:.0f} ms vs {BASELINE} "
                f"{floor * 1000:.0f} ms = {seconds / floor:.2f}x (target <= 1.2x); numpy "
                f"hidden as voyage imports them {lean_floor * 1000:.0f} ms = "
                f"{seconds / lean_floor:.2f}x"
            )
    sys.exit(0 if exact else 1)


if __name__ == "__main__":
    main()
