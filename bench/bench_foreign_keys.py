"""What the declared foreign keys (issue 15.6, voyage/foreignkeys.py m190) cost the writes,
against a campaign without them measured in the same run.

    python bench/bench_foreign_keys.py [--ships 10] [--hours 8760] [--repeat 5]

For each campaign (keys and their indexes, or none) it writes a year of the engine's log
rows in one transaction as voyage.store.logrows does (``--ships`` x ``--hours`` hour rows and an
event every third ship-hour), then takes them back as ``voyage undo`` does (delete by
action), then deletes one voyage row among them (a parent: with the keys SQLite looks for
its children by index). Prints CPU seconds (median of ``--repeat``) and the ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voyage.engine.clock import HourRow  # noqa: E402
from voyage.store import campaign as store  # noqa: E402
from voyage.store import campaigndb  # noqa: E402
from voyage.store.hourdays import write_hours  # noqa: E402
from voyage.store.logrows import _EVENT_SQL  # noqa: E402
from voyage.store.migrations import migrations  # noqa: E402


def make(path: Path, keys: bool, ships: int) -> campaigndb.Campaign:
    """A campaign with ``ships`` ships, each on a voyage; without the keys if asked."""
    kept = migrations._migrations
    if not keys:  # voyage as it was before m190 (the names it knows, cached, too)
        migrations._migrations = [m for m in kept if not m.name.startswith("m19")]
        store._KNOWN.clear()
    try:
        camp = store.create_campaign(path, "FK bench", seed=1)
    finally:
        migrations._migrations = kept
        store._KNOWN.clear()
    conn = camp.db.conn
    with camp.transaction():
        conn.execute(
            "INSERT INTO actions (id, kind, summary, clock, at, snapshot, undo) "
            "VALUES (1, 'setup', 'setup', 0, '', '', 'journal')"
        )
        for i in range(ships):
            conn.execute(
                "INSERT INTO ships (name, class, tier, traits, equipment, created) "
                "VALUES (?, 'freighter', 10, '[]', '{}', 1)",
                [f"Ship {i + 1}"],
            )
            conn.execute(
                "INSERT INTO voyages (id, ship, origin, destination, started) "
                "VALUES (?, ?, '0305', '2812', 0)",
                [i + 1, f"Ship {i + 1}"],
            )
    return camp


def write_year(camp: campaigndb.Campaign, ships: int, hours: int) -> None:
    conn = camp.db.conn
    with camp.transaction():
        conn.execute(
            "INSERT INTO actions (id, kind, summary, clock, at, snapshot, undo) "
            "VALUES (2, 'advance', 'advance', 0, '', '', 'journal')"
        )
        # as voyage.store.logrows writes them: packed a ship-day to a row (m102)
        write_hours(
            conn,
            2,
            [
                HourRow(
                    s + 1,
                    f"Ship {s + 1}",
                    h,
                    "1510",
                    7,
                    7,
                    "normal",
                    100,
                    300,
                    "half",
                    0,
                    0,
                    "under way",
                )
                for h in range(hours)
                for s in range(ships)
            ],
        )
        conn.executemany(
            _EVENT_SQL,
            [
                (
                    2,
                    s + 1,
                    f"Ship {s + 1}",
                    h,
                    h // 24 + 1,
                    h % 24,
                    0,
                    "check",
                    "The sea is calm.",
                    "[]",
                    "{}",
                    "1510",
                )
                for h in range(hours)
                for s in range(ships)
                if (h + s) % 3 == 0
            ],
        )


def undo_year(camp: campaigndb.Campaign) -> None:
    conn = camp.db.conn
    with camp.transaction():
        conn.execute("PRAGMA defer_foreign_keys = ON")
        for table in ("hour_days", "events"):
            conn.execute(f"DELETE FROM {table} WHERE action_id = 2")
        conn.execute("DELETE FROM actions WHERE id = 2")


def delete_parent(camp: campaigndb.Campaign, ships: int) -> None:
    """A voyage row no hour points at, deleted among a year of hours, then put back."""
    conn = camp.db.conn
    with camp.transaction():
        conn.execute(
            "INSERT INTO voyages (id, ship, origin, destination, started) "
            "VALUES (?, 'Ship 1', '0305', '2812', 0)",
            [ships + 1],
        )
    with camp.transaction():
        conn.execute("DELETE FROM voyages WHERE id = ?", [ships + 1])


def cpu(fn: Callable[[], None]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--hours", type=int, default=8760)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    times: dict[tuple[bool, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.repeat):
            for keys in (False, True):  # alternate, so drift in the machine hits both
                camp = make(Path(tmp) / f"c{run}{keys}.db", keys, args.ships)
                times.setdefault((keys, "write"), []).append(
                    cpu(lambda c=camp: write_year(c, args.ships, args.hours))
                )
                times.setdefault((keys, "delete"), []).append(
                    cpu(lambda c=camp: delete_parent(c, args.ships))
                )
                times.setdefault((keys, "undo"), []).append(cpu(lambda c=camp: undo_year(c)))
                camp.close()
    rows = args.ships * args.hours
    for what, label in (
        ("write", f"write {rows:,} hour rows + events"),
        ("undo", "undo them (delete by action)"),
        ("delete", "delete a voyage among them"),
    ):
        off = statistics.median(times[(False, what)])
        on = statistics.median(times[(True, what)])
        print(
            f"{label:34}: no keys {off * 1000:8.1f} ms, keys {on * 1000:8.1f} ms "
            f"= {on / off if off else float('nan'):.2f}x (CPU, median of {args.repeat})"
        )


if __name__ == "__main__":
    main()
