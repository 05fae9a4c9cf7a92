"""Benchmark of a built boat's engine hour (R81-R85) against a rolled ship's, measured in the
same run.

    python bench/bench_boats.py [--hours 2000] [--rounds 5]

Two in-memory fleets of one ship each sail the bundled Salt Reach back and forth between
Gullhaven and Ironport, hour by hour through the engine (``halt=False``), for ``--hours``
hours: a rolled trawler (Tier IV, engine V) and the seed's Moray (a built Speeder, 60 mph set
by her skipper, a bilge pump). Both are topped up each hour (fuel, a full charge) and seen to
by a referee (no water, no leaks, no broken engine), so every hour is stepped under the same
rules. Nothing is written. Times are CPU time (``time.process_time``), the two fleets run
alternately each round, and the medians are compared: it prints the milliseconds an hour of
each and the ratio boat / rolled ship. (Last measured before this bench: about 1.75 ms for
the Moray, 0.39 ms for a trawler, 4.5x.) There is no target yet; the ratio is tracked.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from voyage.actions import voyages  # noqa: E402
from voyage.dice.roller import Roller  # noqa: E402
from voyage.engine.clock import Engine  # noqa: E402
from voyage.store import campaign as store  # noqa: E402
from voyage.store import campaigndb, mapstore  # noqa: E402
from voyage.store.mapstore import load_into_campaign  # noqa: E402
from voyage.tables.boatdesigns import sample_spec  # noqa: E402
from voyage.vessels.boatpower import full_charge, set_charge  # noqa: E402
from voyage.vessels.boatships import make_built_ship  # noqa: E402
from voyage.vessels.ships import make_ship  # noqa: E402

START, GOAL = "0305", "2812"


def make_campaign(folder: Path) -> campaigndb.Campaign:
    camp = store.create_campaign(folder / "bench.db", "Bench", seed=20260612)
    load_into_campaign(camp, "salt_reach")
    camp.set_setting("rolled_weather", "false")  # calm: the hours compared are alike
    camp.set_setting("encounter_interval", "0")
    book = camp.rulebook
    chart = mapstore.campaign_chart(camp)[0]
    there = chart.route(START, GOAL)
    assert there is not None
    loop = there + there[-2:0:-1]
    with camp.action("bench", "bench ships"):
        trawler = make_ship(book, "Trawler", "trawler", 4, 5, [])
        trawler.crew, trawler.fuel, trawler.hex = 5, 200, START
        camp.add_ship(trawler)
        moray = make_built_ship("Moray", sample_spec("Moray", book.boats), book)
        moray.hex = START
        camp.add_ship(moray)
    voyages.sail(camp, "Trawler", route=loop * 200 + [START], chart=chart)
    voyages.sail(camp, "Moray", route=loop * 200 + [START], chart=chart, pace="60mph")
    return camp


def hours_of(camp: campaigndb.Campaign, name: str, hours: int) -> float:
    """CPU seconds for ``hours`` engine hours of ship ``name`` alone (nothing written)."""
    world = voyages.world_for(camp)
    (s,) = [st for st in voyages.open_voyages(camp) if st.ship.name == name]
    engine = Engine(world, [s], Roller(7))
    book = camp.rulebook
    began = time.process_time()
    for hour in range(hours):
        _referee(s, book)
        engine.run(camp.clock + hour, 1, halt=False)
    return time.process_time() - began


def _referee(s: Any, book: Any) -> None:
    ship = s.ship
    if ship.design is not None:
        set_charge(ship, full_charge(ship, book))
    else:
        ship.fuel = 200
    if s.status == "sunk":
        s.status, ship.status, s.destroyed, s.capsized = "under way", "at sea", False, False
    s.sinking_in = s.sinking_since = None
    s.capsized = False
    ship.water, s.leaks, s.listing, s.listing_since = 0, [], False, None
    ship.engine_broken = False
    if s.status == "stuck":
        s.status = "under way"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        camp = make_campaign(Path(tmp))
        hours_of(camp, "Trawler", 50)  # warm up both
        hours_of(camp, "Moray", 50)
        rolled, built = [], []
        for n in range(args.rounds):
            order = ("Trawler", "Moray") if n % 2 == 0 else ("Moray", "Trawler")
            for name in order:
                took = hours_of(camp, name, args.hours)
                (rolled if name == "Trawler" else built).append(took)
        camp.close()
    r = statistics.median(rolled) / args.hours * 1000
    b = statistics.median(built) / args.hours * 1000
    print(f"{args.hours} engine hours, {args.rounds} rounds, CPU time medians:")
    print(f"  rolled trawler     {r:.3f} ms an hour")
    print(f"  built Moray        {b:.3f} ms an hour")
    print(f"  ratio boat/rolled  {b / r:.2f}x")


if __name__ == "__main__":
    main()
