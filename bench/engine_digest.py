"""A digest of everything the engine bench's year produces, to show that a change to the
engine's speed changed nothing it computes (issue 14: same seed, same dice, rows, events).

    python bench/engine_digest.py [--hours 8760] [--ships 10] [--root CHECKOUT] [--stores]

Runs bench/bench_engine.py's fleet an hour at a time as that bench does (fuel topped up
daily, the referee's help after each hour) and prints one SHA-256 over every hour's rows
and events (their log JSON, event texts and every roll's record), each ship's state at the
end of each day, the final dice state and the final ship states. Run it on main and on a
branch (or, from a branch, ``--root /path/to/main``: that checkout's voyage and bench
fleet): the two lines must be the same. ``--stores``: the same fleet with its food and fresh
water counted (R100-R102) and topped up daily, as bench_engine's stores year runs it; each
ship's stores are in the digest at the end of each day (the ship's repr leaves them out).
``--short`` (with ``--stores``): topped up only to 8 person-days every fourth day, so that
they run out, the days without rise and people die (R101-R102).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def digest(
    hours: int, ships: int, root: Path = ROOT, stores: bool = False, short: bool = False
) -> tuple[str, int, int]:
    """(hex digest, rows, events) of ``hours`` hours of ``ships`` ships, with the voyage
    and the bench fleet of checkout ``root`` (``stores``: their stores counted; ``short``:
    topped up to 8 person-days every fourth day)."""
    sys.path[:0] = [str(root), str(root / "bench")]
    import bench_engine as bench

    from voyage.actions import voyages
    from voyage.engine.clock import Engine, dumps

    out = hashlib.sha256()
    rows = events = 0
    with tempfile.TemporaryDirectory() as tmp:
        camp = bench.make_campaign(Path(tmp), ships, 1, stores=stores)
        world = voyages.world_for(camp)
        with camp.action("advance", "digest"):
            states = voyages.open_voyages(camp)
            engine = Engine(world, states, camp.roller)
            start = camp.clock
            for hour in range(hours):
                if hour % 24 == 0:
                    for s in states:
                        s.ship.fuel = max(s.ship.fuel, 400)
                        if s.ship.stores is None or (short and hour % 96):
                            continue
                        day = Fraction(8 if short else bench.STORES_DAY)  # as the stores year
                        s.ship.stores.food = s.ship.stores.fresh_water = day
                result = engine.run(start + hour, 1, halt=False)
                for row in result.rows:
                    out.update(dumps(row.to_dict()).encode())
                for e in result.events:
                    out.update(dumps(e.to_dict()).encode())
                    out.update(e.event.text.encode())
                    for roll in e.event.rolls:
                        out.update(roll.to_json().encode())
                rows += len(result.rows)
                events += len(result.events)
                bench._referee(states)
                if hour % 24 == 23:
                    for s in states:
                        out.update(dumps(s.extra()).encode())
                        out.update(repr(s.ship).encode())
                        if s.ship.stores is not None:
                            out.update(s.ship.stores.to_text().encode())
            out.update(camp.roller.get_state().encode())
            for s in states:
                out.update(repr(s).encode())
        camp.close()
    return out.hexdigest(), rows, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=int, default=8760)
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--root", type=Path, default=ROOT, help="The checkout to run.")
    parser.add_argument(
        "--stores", action="store_true", help="The fleet with its stores counted (R100-R102)."
    )
    parser.add_argument(
        "--short", action="store_true", help="With --stores: stores that run out (R101-R102)."
    )
    args = parser.parse_args()
    hexdigest, rows, events = digest(
        args.hours, args.ships, args.root.resolve(), args.stores, args.short
    )
    print(f"{rows:,} ship-hours, {events:,} events: {hexdigest}")


if __name__ == "__main__":
    main()
