"""Benchmark of people in the water (R72-R74) against the same hours with nobody in it,
measured in the same run.

    python bench/bench_water.py [--people 200] [--hours 24] [--ships 10] [--repeat 5]

Both runs advance the same ``--ships`` ships on the bundled Salt Reach for ``--hours`` calm
hours through the engine and write the hour rows, events and floaters to SQLite in one
transaction. The second run also carries ``--people`` people afloat in calm seas: a quarter
in rafts (four to a raft), the rest in the water with life jackets, swimmers and
non-swimmers (who roll once an hour). Nobody rolls every minute in calm seas with a jacket,
so the minute schedule (R52) is never used. A third run has the same people in rafts and
jacketed swimmers only (nobody rolls). Target: at most 2.0x the run with nobody.

The engine runs without stopping for the referee (``halt=False``), so a drowning does not
end the run early. Times are the process's CPU time (``time.process_time``): the machine is
shared, and wall time there measures the neighbours.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voyage.actions import voyages  # noqa: E402
from voyage.engine.clock import Engine  # noqa: E402
from voyage.store import campaign as store  # noqa: E402
from voyage.store import campaigndb  # noqa: E402
from voyage.store.mapstore import load_into_campaign  # noqa: E402
from voyage.store.peoplerows import floaters, roster, save_floaters  # noqa: E402
from voyage.vessels.ships import make_ship  # noqa: E402
from voyage.world.water import Floater  # noqa: E402
from voyage.world.waterphase import WaterPhase  # noqa: E402

LEGS = [("0305", "2812"), ("2420", "0419"), ("3016", "0804"), ("2812", "0305"), ("0419", "2420")]
AFLOAT_HEXES = ["1208", "1309", "1409", "1108", "1007"]


def make_campaign(
    folder: Path, name: str, ships: int, people: int, rollers: bool = True
) -> campaigndb.Campaign:
    camp = store.create_campaign(folder / f"{name}.db", "Bench", seed=20260612)
    load_into_campaign(camp, "salt_reach")
    camp.set_setting("rolled_weather", "false")  # calm hours: no storm cells form (R61)
    book = camp.rulebook
    for i in range(ships):
        start, to = LEGS[i % len(LEGS)]
        with camp.action("ship add", "bench"):
            s = make_ship(book, f"Ship {i}", "trawler", 4, 5, [])
            s.crew, s.fuel, s.hex, s.status = 5, 200, start, "in port"
            camp.add_ship(s)
        voyages.sail(camp, s.name, to=to)
    rows: list[Floater] = []
    rafts = people // 4 // 4  # a quarter of the people, four to a raft
    for r in range(rafts):
        hex_name = AFLOAT_HEXES[r % len(AFLOAT_HEXES)]
        rows.append(
            Floater(len(rows) + 1, "raft", "Lost", f"raft {r + 1} of Lost", count=0, hex=hex_name)
        )
        rows.append(
            Floater(
                len(rows) + 1,
                "people",
                "Lost",
                None,
                "crew",
                4,
                1,
                True,
                raft=rows[-1].id,
                hex=hex_name,
            )
        )
    left = people - 4 * rafts
    for i in range(left):
        hex_name = AFLOAT_HEXES[i % len(AFLOAT_HEXES)]
        swimmer = 1 if not rollers else i % 2  # non-swimmers with jackets roll each hour
        # one row each, as named people would be: the most rows the phase can meet
        rows.append(
            Floater(
                len(rows) + 1, "people", "Lost", f"P{i}", "crew", 1, swimmer, True, hex=hex_name
            )
        )
    with camp.action("bench", "people afloat"):
        save_floaters(camp, rows, [])
    return camp


def advance(camp: campaigndb.Campaign, hours: int) -> float:
    """CPU seconds to advance ``hours`` hours and write everything (one transaction)."""
    began = time.process_time()
    with camp.action("advance", "bench") as act:
        states = voyages.open_voyages(camp)
        engine = Engine(voyages.world_for(camp), states, camp.roller)
        people = roster(camp)
        engine.water = WaterPhase(engine, floaters(camp), people, camp.settings)
        result = engine.run(camp.clock, hours, halt=False)
        save_floaters(camp, engine.water.floaters, people, result.end)
        voyages.write_log(camp, act, result)
        for s in states:
            voyages.save_state(camp, s, camp.clock + hours - 1)
        camp.set_clock(result.end)
    return time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--hours", type=int, default=24)
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    nobody: list[float] = []
    afloat: list[float] = []
    quiet: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            base = make_campaign(Path(tmp), f"nobody{i}", args.ships, 0)
            full = make_campaign(Path(tmp), f"people{i}", args.ships, args.people)
            safe = make_campaign(Path(tmp), f"safe{i}", args.ships, args.people, rollers=False)
            nobody.append(advance(base, args.hours))
            afloat.append(advance(full, args.hours))
            quiet.append(advance(safe, args.hours))
            gone = sum(f.count for f in floaters(full) if f.kind == "people" and not f.afloat)
    a, b, c = statistics.median(nobody), statistics.median(afloat), statistics.median(quiet)
    print(f"{args.hours} calm hours, {args.ships} ships at sea (median of {args.repeat}):")
    print(f"  nobody in the water:                       {a * 1000:8.1f} ms")
    print(
        f"  {args.people} afloat, none rolling (rafts, jacketed swimmers): {c * 1000:8.1f} ms"
        f"  ratio {c / a:.2f}x (target <= 2.0)"
    )
    print(
        f"  {args.people} afloat, a third rolling every hour:        {b * 1000:8.1f} ms"
        f"  ratio {b / a:.2f}x ({gone} drowned in the last run; every roll recorded, R4)"
    )


if __name__ == "__main__":
    main()
