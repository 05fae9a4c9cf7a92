"""Benchmark of the campaign's storage (issue 14): bytes per action, a year of daily
advances, and the cost of ``voyage undo``, against baselines measured in the same run.

    python bench/bench_storage.py [--ships 10] [--days 365] [--size 200] [--repeat 7]
                                  [--no-big-year]

Prints:

1. bytes the campaign file grows by per one-hour advance of ``--ships`` ships (measured over
   50 advances, WAL checkpointed), on the bundled Salt Reach, on a ``--size`` square map and
   on the Salt Reach after the year below, against the snapshot of the campaign the store
   saved with every action before the undo journal (target: <= 10 KB whatever the map
   size or history), and the bytes each advance writes (its WAL: every page it changed);
2. a year as ``--days`` daily advances of the fleet on the Salt Reach, and another on the
   ``--size`` map (issue 14's "done when": ten ships on a 200 x 200 map; ``--no-big-year``
   skips it), each day opening the campaign as a command does (target: <= 20 s and a file
   <= 30 MB), and the cost of the next day's advance against the same advance on a copy
   without the year's history (target: flat, about 1x);
3. ``voyage undo`` on day 1 and on day ``--days`` (and on the big map's last day) against
   ``python -c "import click, sqlite_utils, yaml"`` (target: <= 1.2x whatever the history).

The fleet is the engine bench's (bench_engine.py): freighters sailing back and forth between
ports at normal pace, kept at sea all year as that bench does (see :func:`one_day`).

The days run with the garbage collector as ``voyage advance`` sets it in its process
(voyage.base.gctune: what is loaded frozen, young objects collected every 50,000 rather than
700), since each day stands for one such command; ``--gc default`` keeps CPython's own
settings (the year's figure before 3 Dec 2026: the collector then walked each ship's route,
10,001 hex names, several times a day).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_engine import LEGS, _referee, lean_time, timed_pair  # noqa: E402
from bench_map import make_map_text  # noqa: E402

from voyage.actions import voyages  # noqa: E402
from voyage.engine.clock import AdvanceResult, Engine, dumps  # noqa: E402
from voyage.map.routetext import inshore_from_text, route_from_text  # noqa: E402
from voyage.store import campaign as store  # noqa: E402
from voyage.store import campaigndb, mapstore  # noqa: E402
from voyage.store.mapstore import load_into_campaign  # noqa: E402
from voyage.vessels.ships import make_ship  # noqa: E402

KB = 1024


def legs_for(camp: campaigndb.Campaign, count: int) -> list[tuple[str, str]]:
    """Start and goal hexes for the fleet: the engine bench's on the Salt Reach, else pairs
    of open-sea hexes far apart on the map (a private generator: benchmark data)."""
    chart = mapstore.campaign_chart(camp)[0]
    if chart.name == "The Salt Reach":
        return [LEGS[i % len(LEGS)] for i in range(count)]
    rng = random.Random(14)
    sea = [h.name for h in chart.hexes() if h.terrain == "sea" and not h.coastal]
    legs: list[tuple[str, str]] = []
    while len(legs) < count:
        start, goal = rng.sample(sea, 2)
        route = chart.route(start, goal)
        if route is not None and len(route) > 20:
            legs.append((start, goal))
    return legs


def make_fleet(path: Path, map_source: str | Path, ships: int) -> None:
    """A campaign with ``ships`` freighters at sea for a year, each in its own actions (as a
    referee would add them)."""
    camp = store.create_campaign(path, "Storage bench", seed=20260612)
    load_into_campaign(camp, map_source)
    book = camp.rulebook
    chart = mapstore.campaign_chart(camp)[0]
    for i, (start, goal) in enumerate(legs_for(camp, ships)):
        with camp.action("ship add", f"Ship {i + 1}"):
            ship = make_ship(book, f"Ship {i + 1}", "freighter", 10, 9 + i % 2, ["Steady"])
            ship.crew, ship.cargo, ship.fuel, ship.hex = 12, 600, 400, start
            camp.add_ship(ship)
        there = chart.route(start, goal)
        assert there is not None, f"no sea route {start} -> {goal}"
        loop = there + there[-2:0:-1]  # there and back, ending next to the start
        voyages.sail(camp, ship.name, route=loop * 200 + [start], chart=chart)
    camp.close()


@contextmanager
def connected(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection, committed and closed at the end of the block (``with
    sqlite3.connect()`` alone leaves it open until the collector finds it: the bench
    then copies over a campaign whose WAL is still held)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def used_bytes(path: Path) -> int:
    """The bytes the campaign's pages hold, after a checkpoint (free pages not counted)."""
    with connected(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size, count, free = (
            conn.execute(f"PRAGMA {p}").fetchone()[0]
            for p in ("page_size", "page_count", "freelist_count")
        )
    return int(size * (count - free))


def snapshot_bytes(camp: campaigndb.Campaign) -> int:
    """What the store before the journal saved with every action: these tables, whole."""
    # a voyage's route and inshore flags were in its row then (voyage_routes since m100),
    # as JSON (text since m106)
    snapshot = {
        t: [dict(r) for r in camp.db.query(f"SELECT * FROM [{t}]")]
        for t in [*campaigndb.SNAPSHOT_TABLES, "voyage_routes"]
        if camp.db[t].exists()
    }
    for r in snapshot.get("voyage_routes", []):
        r["route"] = dumps(route_from_text(r["route"]))
        r["inshore"] = dumps(inshore_from_text(r["inshore"]))
    return len(json.dumps(snapshot).encode())


def per_advance(path: Path, count: int = 50) -> tuple[float, float, float, float, int]:
    """Bytes the file grows by per one-hour advance, of which undo journal and events (what
    happened: a sinking with people in the water logs every roll, R4); the bytes the advance
    writes (its WAL frames: every page it changed, once); the snapshot."""
    camp = store.open_campaign(path)
    voyages.advance(camp, 1)  # the journal's triggers and the first pages are made
    camp.close()
    before = used_bytes(path)
    camp = store.open_campaign(path)
    baseline = snapshot_bytes(camp)
    first = camp.db.execute("SELECT coalesce(max(id), 0) FROM actions").fetchone()[0]
    wal = Path(f"{path}-wal")
    written = 0
    for _ in range(count):
        camp.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        voyages.advance(camp, 1)
        written += wal.stat().st_size if wal.exists() else 0
    log = camp.db.execute(
        "SELECT coalesce(sum(length(text) + length(rolls) + length(changes) + 40), 0) "
        "FROM events WHERE action_id > ?",
        [first],
    ).fetchone()[0]
    journal = camp.db.execute(
        "SELECT coalesce(sum(length(tbl) + length(op) + length(col) + length(value) + 16), 0) "
        "FROM undo_journal WHERE action_id > ?",
        [first],
    ).fetchone()[0]
    camp.close()
    grown = (used_bytes(path) - before) / count
    return grown, journal / count, log / count, written / count, baseline


def one_day(path: Path, hours: int = 24) -> float:
    """One daily advance as a command does it (open, one action, close); its seconds.

    The engine runs as in bench_engine.py: without stopping for the referee, who tops up
    the fuel at the day's start and, after each hour, saves a sinking ship, pumps, patches
    and mends (bench_engine._referee), so all ten ships sail every hour of the year; the
    hours, events, ships and voyages are written as ``voyage advance`` writes them."""
    t0 = time.perf_counter()
    camp = store.open_campaign(path)
    with camp.action("advance", f"advance {hours} hour(s)") as act:
        states = voyages.open_voyages(camp, hours)  # as `voyage advance --hours N`
        for s in states:
            s.ship.fuel = max(s.ship.fuel, 400)
        engine = Engine(voyages.world_for(camp), states, camp.roller)
        start = camp.clock
        total = AdvanceResult(start)
        for hour in range(hours):
            result = engine.run(start + hour, 1, halt=False)
            total.rows.extend(result.rows)
            total.events.extend(result.events)
            _referee(states)
        voyages.write_log(camp, act, total)
        for s in states:
            voyages.save_state(camp, s, start + hours - 1)
        camp.set_clock(start + hours)
    camp.close()
    return time.perf_counter() - t0


def a_year(path: Path, days: int) -> tuple[list[float], float, float, int, int]:
    """``days`` daily advances of the campaign at ``path``: each day's seconds, the wall and
    CPU seconds of them all, the ship-hours logged and the file's size (WAL checkpointed)."""
    times: list[float] = []
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(days):
        times.append(one_day(path))
    year, year_cpu = time.perf_counter() - t0, time.process_time() - c0
    with connected(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        hours = conn.execute("SELECT count(*) FROM hours").fetchone()[0]
    return times, year, year_cpu, hours, path.stat().st_size


def against_no_history(path: Path, folder: Path, probe: Path, repeat: int) -> tuple[float, float]:
    """Median seconds of the same day's advance (same ships, same dice) on a copy without
    the history (log, actions, journal) and on the campaign itself, one after the other,
    so that only the history differs and a busy machine slows both alike."""
    fresh = folder / "fresh.db"
    shutil.copy(path, fresh)
    with connected(fresh) as conn:
        for table in ("hour_days", "events", "rolls", "undo_journal", "actions"):
            conn.execute(f"DELETE FROM {table}")
    with connected(fresh) as conn:
        conn.execute("VACUUM")
    early_times: list[float] = []
    late_times: list[float] = []
    for _ in range(repeat):
        for source, into in ((fresh, early_times), (path, late_times)):
            shutil.copy(source, probe)
            into.append(one_day(probe))
    return statistics.median(early_times), statistics.median(late_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--size", type=int, default=200, help="Side of the big square map.")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--gc",
        choices=["command", "default"],
        default="command",
        help="The collector as `voyage advance` sets it (voyage.base.gctune), or CPython's own.",
    )
    parser.add_argument(
        "--big-year",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="The year of daily advances on the big map too (issue 14's 'done when').",
    )
    args = parser.parse_args()
    py = sys.executable
    if args.gc == "command":  # as voyage.cli.main and the advance command do, once
        from voyage.base import gctune

        gctune.whole_process = True
        gctune.for_long_run()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        reach = folder / "reach.db"
        make_fleet(reach, "salt_reach", args.ships)
        day1 = folder / "day1.db"
        shutil.copy(reach, day1)

        # 1. bytes per one-hour advance, a fresh campaign on two map sizes
        big_map = folder / "big.yaml"
        big_map.write_text(make_map_text(args.size))
        big = folder / "big.db"
        make_fleet(big, big_map, args.ships)
        probe = folder / "probe.db"
        rows = []
        for label, source in (("Salt Reach", reach), (f"{args.size}x{args.size} map", big)):
            shutil.copy(source, probe)
            rows.append((label, *per_advance(probe)))

        # 2. a year of daily advances, on the Salt Reach and on the big map (issue 14's
        # "done when": ten ships on a 200 x 200 map), each year's last day against the same
        # day without the history
        years = [("Salt Reach", reach)]
        if args.big_year:
            years.append((f"{args.size}x{args.size} map", big))
        year_lines = []
        for label, path in years:
            times, year, year_cpu, hours, size = a_year(path, args.days)
            early, late = against_no_history(path, folder, probe, args.repeat)
            year_lines.append(
                f"year              : {label}: {len(times)} daily advances (collector: "
                f"{args.gc}), {hours:,} ship-hours in {year:.1f} s ({year_cpu:.1f} s CPU), "
                f"file {size / KB / KB:.1f} MB (target <= 20 s and <= 30 MB: "
                f"{'met' if year <= 20 and size <= 30 * KB * KB else 'NOT met'})"
            )
            year_lines.append(
                f"advance per day   : {label}: after {len(times)} days {late * 1000:.0f} ms vs "
                f"the same day with no history {early * 1000:.0f} ms = {late / early:.2f}x "
                "(target: flat, about 1x)"
            )

        shutil.copy(reach, probe)
        rows.append((f"Salt Reach, day {args.days}", *per_advance(probe)))
        for label, grown, journal, log, written, snapshot in rows:
            print(
                f"bytes/advance     : {label:<22} {grown / KB:5.1f} KB (journal {journal / KB:.1f}"
                f" KB, events {log / KB:.1f} KB) vs snapshot {snapshot / KB:7.1f} KB = "
                f"{grown / snapshot:.3f}x "
                f"(target <= 10 KB: {'met' if grown <= 10 * KB else 'NOT met'}); "
                f"written (WAL) {written / KB:.0f} KB"
            )
        for line in year_lines:
            print(line)

        # 3. undo on day 1 and at the end of the year (redone, untimed, after each)
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(folder / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        voyage_cmd = [py, "-c", "from voyage.cli import main; main()"]
        base_cmd = [py, "-c", "import click, sqlite_utils, yaml"]
        one_day(day1)
        undone = [("day 1", day1), (f"day {args.days}", reach)]
        if args.big_year:
            undone.append((f"{args.size}x{args.size}, day {args.days}", big))
        for label, path in undone:
            with_db = dict(env, VOYAGE_DB=str(path))
            base, undo = timed_pair(
                base_cmd,
                [*voyage_cmd, "undo"],
                args.repeat,
                with_db,
                after=[*voyage_cmd, "advance", "--hours", "24", "--quiet"],
            )
            lean = lean_time(args.repeat, with_db)
            print(
                f"undo, {label:<11}: {undo * 1000:.0f} ms vs import click, sqlite_utils, yaml "
                f"{base * 1000:.0f} ms = {undo / base:.2f}x (target <= 1.2x); numpy hidden "
                f"as voyage imports them {lean * 1000:.0f} ms = {undo / lean:.2f}x"
            )


if __name__ == "__main__":
    main()
