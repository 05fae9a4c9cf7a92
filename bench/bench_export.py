"""Benchmark of the voyage exports on a long voyage, against a baseline measured in the
same run.

    python bench/bench_export.py [--days 1000] [--events-per-day 6] [--repeat 3] [--root DIR]

Makes a campaign with one voyage of ``--days`` days (24 hour rows a day, and
``--events-per-day`` events a day carrying real rolls: coastline checks, capsize Checks,
leaks), then times, best of ``--repeat``:

- the baseline: ``json.dumps`` of the same hour and event rows (one C-speed pass over the
  data, the least any export can cost);
- reading the voyage back (``load_voyage``);
- the Markdown export and the JSON export (text only, then written with ``write_exports``,
  reading included), and the JSON schema check that ``export --validate`` adds;
- ``voyage export`` as a command in a fresh process, each format (md, json, csv, html,
  png), against B = ``python -c "import click, sqlite_utils, yaml"`` run between them, wall
  and CPU, the least of each over the runs (a loaded machine stretches the one, not the
  other); with ``--root DIR`` (another checkout, main's: ``--root /work/main``) each command
  is also run on that checkout's code, right after this one's, on the same campaign file;
  with ``--compiled`` the commands load every module compiled, as an installed voyage does
  (bytecode kept in a scratch folder, PYTHONPYCACHEPREFIX, filled by a first run of each
  command that is not counted), even where PYTHONDONTWRITEBYTECODE is set.

The voyage sails the Salt Reach from port to port, four hexes a day, so its picture is a
long campaign's: most of the map crossed again and again, hundreds of storm hexes.

Targets: the Markdown and the JSON export of a 1,000-day voyage each in at most 1.5 s, and
both linear in the voyage's length (the ratio to the baseline stays flat when ``--days``
grows); the HTML handout (the picture inside) in at most 1.5 s as a command, about as
quick as the Markdown one.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voyage.dice.roller import Modifier, Roller  # noqa: E402
from voyage.engine.clock import HourRow  # noqa: E402
from voyage.map.routetext import route_text  # noqa: E402
from voyage.map.seamap import SeaMap  # noqa: E402
from voyage.outputs import export, exportjson, exportmd, handouts  # noqa: E402
from voyage.store.campaign import create_campaign  # noqa: E402
from voyage.store.campaigndb import Campaign  # noqa: E402
from voyage.store.hourdays import write_hours  # noqa: E402
from voyage.store.mapstore import load_into_campaign  # noqa: E402
from voyage.vessels.ships import make_ship  # noqa: E402

SHIP = "Long Haul"
#: The formats timed as a `voyage export` command.
PROCESS_FORMATS = ("md", "json", "csv", "html", "png")
ROUTE = ["0305", "0405", "0506", "0606", "0707", "0807"]


def _event_rows(roller: Roller, day: int, per_day: int) -> list[tuple[int, int, str, str, list]]:
    """``per_day`` events of one day: (clock, minute, kind, text, rolls)."""
    out = []
    for n in range(per_day):
        clock = (day - 1) * 24 + (n * 24) // max(1, per_day)
        if n % 3 == 0:
            roll = roller.chance("coastal hazard", 1, success="a hazard", failure="clear water")
            out.append((clock, 0, "coast", "The shallows are clear.", [roll]))
        elif n % 3 == 1:
            roll = roller.check(
                "capsize check (storm)", 16, [Modifier(4, "Tier IV"), Modifier(2, "Half")]
            )
            out.append(
                (clock, 30, "capsize", "The helmsman holds her: the ship stays upright.", [roll])
            )
        else:
            leak = roller.roll("hull leak", "d6", [Modifier(1, "weapon")])
            blast = roller.roll(
                "explosion", "d20", [Modifier(5, "lethal zone"), Modifier(-4, "Tier IV")], target=20
            )
            out.append(
                (clock, 45, "hull", "The hull is holed: the ship takes on water.", [leak, blast])
            )
    return out


def touring_route(sea_map: SeaMap, hexes: int) -> list[str]:
    """A route of ``hexes`` hexes from port to port round the map's ports, again and again
    (a long campaign's voyage criss-crosses its sea)."""
    ports = [p.name for p in sea_map.ports()]
    route = [ports[0]]
    leg = 0
    while len(route) < hexes:
        found = sea_map.route(ports[leg % len(ports)], ports[(leg + 1) % len(ports)])
        route += (found or [])[1:]
        leg += 1
    return route[:hexes]


def make_campaign(
    path: Path, days: int, per_day: int, on_map: bool = True, status: str = "arrived"
) -> Campaign:
    """A campaign whose one ship has sailed a voyage of ``days`` days: on the Salt Reach,
    four hexes a day from port to port round the map (``on_map``), else to and fro on a
    six-hex route with no map loaded; ended ``status`` (``sunk``: a wreck mark)."""
    camp = create_campaign(path, "Bench Reach", 7)
    route = ROUTE
    if on_map:
        route = touring_route(load_into_campaign(camp, "salt_reach"), days * 4)
    with camp.action("ship add", f"add {SHIP}"):
        ship = make_ship(camp.rulebook, SHIP, "trawler", 4, engine_tier=5)
        ship.crew, ship.fuel, ship.cargo = 6, 400, 100
        camp.add_ship(ship)
    db = camp.db
    roller = Roller(11)
    hours_total = days * 24
    with camp.action("advance", "the long voyage") as act:
        db["voyages"].insert(
            {
                "ship": SHIP,
                "origin": route[0],
                "destination": route[-1],
                "position": len(route) - 1,
                "progress_miles": 0,
                "pace": "normal",
                "strain": 0,
                "status": status,
                "started": 0,
                "ended": hours_total - 1,
                "state": json.dumps({"leaks": []}),
            }
        )
        vid = int(next(db.query("SELECT max(id) AS id FROM voyages"))["id"])
        # the route has its own row (m100, voyage.store.voyagerows)
        # as text since m106 (voyage.map.routetext)
        db["voyage_routes"].insert({"voyage_id": vid, "route": route_text(route), "inshore": ""})
        hours = []
        for clock in range(hours_total):
            hours.append(
                {
                    "action_id": act.id,
                    "voyage_id": vid,
                    "ship": SHIP,
                    "clock": clock,
                    "day": clock // 24 + 1,
                    "hour": clock % 24,
                    "hex": route[min(len(route) - 1, clock * len(route) // hours_total)],
                    "miles": 6,
                    "speed": 6,
                    "pace": "normal",
                    "fuel": 400 - clock // 100,
                    "load": 200,
                    "load_category": "half",
                    "water": clock % 7,
                    "leaks": 0,
                    "status": "under way" if clock < hours_total - 1 else status,
                }
            )
        # as voyage.store.logrows writes them: packed a ship-day to a row (m102)
        write_hours(
            db.conn,
            act.id,
            [
                HourRow(**{k: v for k, v in h.items() if k not in ("action_id", "day", "hour")})
                for h in hours
            ],
        )
        events = []
        for day in range(1, days + 1):
            for clock, minute, kind, text, rolls in _event_rows(roller, day, per_day):
                events.append(
                    {
                        "action_id": act.id,
                        "voyage_id": vid,
                        "ship": SHIP,
                        "clock": clock,
                        "day": day,
                        "hour": clock % 24,
                        "minute": minute,
                        "kind": kind,
                        "text": text,
                        "rolls": json.dumps([r.to_dict() for r in rolls]),
                        "changes": json.dumps({}),
                    }
                )
        db["events"].insert_all(events, batch_size=2000)
    return camp


def best(fn: Callable[[], Any], repeat: int) -> float:
    """The best of ``repeat`` timings of ``fn()``, in seconds (wall clock); the CPU seconds
    of that same run are kept in :data:`CPU` (a busy machine stretches the one, not the
    other)."""
    times = []
    for _ in range(repeat):
        began, cpu = time.perf_counter(), time.process_time()
        fn()
        times.append((time.perf_counter() - began, time.process_time() - cpu))
    wall, cpu = min(times)
    CPU[fn] = cpu
    return wall


CPU: dict[Any, float] = {}


def command_seconds(db: Path, fmt: str, out: Path, root: Path = ROOT) -> tuple[float, float]:
    """``voyage export`` in a fresh process (start-up included) on the code of the checkout
    ``root``: (wall, CPU) seconds."""
    return process_seconds(
        [
            "-c",
            "from voyage.cli import main; main()",
            "export",
            "--db",
            str(db),
            SHIP,
            "--format",
            fmt,
            "--out",
            str(out),
            "--force",
        ],
        root,
    )


def least(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """(the least wall, the least CPU) of a command's runs."""
    return min(w for w, _ in runs), min(c for _, c in runs)


#: The commands' environment (:func:`main` sets it for ``--compiled``).
ENV: dict[str, str] | None = None

#: B: the imports every command pays, the issue's yardstick for a command's time.
IMPORTS = ["-c", "import click, sqlite_utils, yaml"]


def process_seconds(args: list[str], root: Path = ROOT) -> tuple[float, float]:
    """(wall, CPU of the child) seconds of ``python ARGS`` in a fresh process, in the folder
    ``root`` (``python -c`` imports the voyage package of the folder it runs in)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True, cwd=root, env=ENV)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=1000)
    parser.add_argument("--events-per-day", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help="another voyage checkout whose commands are timed beside this one's",
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="run the commands with their modules compiled, as an installed voyage has them",
    )
    args = parser.parse_args()
    if args.root is not None and not (args.root / "voyage" / "cli").is_dir():
        parser.error(f"--root {args.root}: no voyage checkout there (no voyage/cli folder)")
    for root in {ROOT, args.root or ROOT}:
        if (
            sys.flags.dont_write_bytecode
            and not args.compiled
            and any((root / "voyage").rglob("*.pyc"))
        ):
            # read though not written: that checkout's commands would skip some compiling
            print(
                f"note: {root} holds compiled modules (__pycache__) that its commands load "
                "while the other's compile theirs: compare on a clean copy "
                "(git archive), or with --compiled"
            )
    with tempfile.TemporaryDirectory(prefix="voyage-bench-export-") as tmp:
        folder = Path(tmp)
        db = folder / "bench.db"
        camp = make_campaign(db, args.days, args.events_per_day)
        log = export.load_voyage(camp, SHIP)
        rows = {"hours": log.hours, "events": log.events}
        data = exportjson.to_json(log)

        def written(fmt: str) -> Callable[[], Any]:
            return lambda: handouts.write_exports(
                export.load_voyage(camp, SHIP), [fmt], folder / f"out.{fmt}", force=True
            )

        timed: list[tuple[str, Callable[[], Any], int]] = [
            ("baseline json.dumps of the rows", lambda: json.dumps(rows), args.repeat),
            ("load_voyage (read the log)", lambda: export.load_voyage(camp, SHIP), args.repeat),
            ("Markdown text", lambda: exportmd.to_markdown(log), args.repeat),
            ("JSON text", lambda: exportjson.json_text(log), args.repeat),
            ("JSON schema check (--validate)", lambda: exportjson.validate(data), 1),
            ("Markdown: read + write the file", written("md"), args.repeat),
            ("JSON: read + write the file", written("json"), args.repeat),
        ]
        results = [(name, best(fn, n), CPU[fn]) for name, fn, n in timed]
        camp.close()
        # each format as a command, with B measured between them in the same run: the
        # best of --repeat of each: the least wall and the least CPU, each on its own (a
        # run slowed by the machine's other work is slowed in one, the other, or both)
        commands: dict[str, list[tuple[float, float]]] = {"B": []}
        if args.compiled:
            global ENV
            ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            ENV["PYTHONPYCACHEPREFIX"] = str(folder / "bytecode")
            for fmt in PROCESS_FORMATS:  # compiles each command's modules, not counted
                for root in (ROOT, args.root or ROOT):
                    command_seconds(db, fmt, folder / f"cmd.{fmt}", root)
        for _ in range(args.repeat):
            commands["B"].append(process_seconds(IMPORTS))
            for fmt in PROCESS_FORMATS:
                out = folder / f"cmd.{fmt}"
                commands.setdefault(fmt, []).append(command_seconds(db, fmt, out))
                if args.root is not None:
                    commands.setdefault(f"root {fmt}", []).append(
                        command_seconds(db, fmt, out, args.root)
                    )
    hours, events = len(log.hours), len(log.events)
    print(
        f"a voyage of {args.days} days: {hours} hour rows, {events} events "
        f"(best of {args.repeat}; wall clock, CPU, wall as a ratio to the baseline)"
    )
    baseline = results[0][1]
    for name, wall, cpu in results:
        print(f"{name:36} {wall:7.3f} s  cpu {cpu:6.3f} s  {wall / baseline:6.1f}x baseline")
    b_wall, b_cpu = least(commands.pop("B"))
    print(
        f'\n`voyage export` as a process, against B = `python -c "import click, '
        f'sqlite_utils, yaml"` in the same run: {b_wall:.3f} s wall, {b_cpu:.3f} s CPU'
    )
    best_of = {fmt: least(runs) for fmt, runs in commands.items()}
    for fmt in PROCESS_FORMATS:
        for label in (fmt, f"root {fmt}"):
            if label not in best_of:
                continue
            wall, cpu = best_of[label]
            where = f"  ({args.root}'s code)" if label != fmt else ""
            print(
                f"  --format {fmt:5} {wall:7.3f} s wall ({wall / b_wall:4.1f}x B)  "
                f"{cpu:6.3f} s CPU ({cpu / b_cpu:4.1f}x B){where}"
            )
    slowest = max(results[5][1], results[6][1])
    verdict = "met" if slowest <= 1.5 else "NOT met (see the CPU column on a busy machine)"
    print(
        f"target: each export of a 1,000-day voyage within 1.5 s (read + write); "
        f"{args.days} days: {verdict}"
    )
    html_cpu, md_cpu = best_of["html"][1], best_of["md"][1]
    print(
        f"target: the HTML handout within 1.5 s as a command (CPU {html_cpu:.2f} s, "
        f"{html_cpu / b_cpu:.1f}x B: {'met' if html_cpu <= 1.5 else 'NOT met'}), about as "
        f"quick as the Markdown one (CPU {html_cpu / md_cpu:.1f}x the Markdown's)"
    )
    if args.root is not None:
        root_html = best_of["root html"][1]
        print(f"the HTML handout's CPU: {html_cpu / root_html:.2f}x {args.root}'s code")
    if args.compiled:
        print("every command loaded its modules compiled (--compiled)")
    elif sys.flags.dont_write_bytecode:
        # B's modules come compiled from site-packages; voyage's are compiled every run
        print(
            "note: PYTHONDONTWRITEBYTECODE is set, so each command compiles voyage's modules "
            "from source (an installed voyage loads them compiled; B is not affected)"
        )


if __name__ == "__main__":
    main()
