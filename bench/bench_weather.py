"""Benchmark: the cost of the weather (R60-R63) per advanced year, against the same year
without weather, measured in the same run.

    python bench/bench_weather.py [--hours 8760] [--ships 10] [--repeat 5]

The fleet of bench/bench_engine.py (10 ships sailing back and forth across the bundled Salt
Reach all year, inshore legs, every pace) is advanced hour by hour in memory twice over:
once on a calm sea (the engine's ``no_storms``), once under the Salt Reach's rolled weather
(two regions rolling every day at 06:00, storm cells forming and drifting, sea states
looked up on every hex entered and every hour in the same hex, R60-R63). Each run starts
from the same saved roller state. Prints the median seconds of each and their ratio
(target: weather at most 1.3x the calm year), and how many storm Checks the weather caused
(those are rules being played, not overhead).
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
sys.path.insert(0, str(ROOT / "bench"))

from bench_engine import _referee, make_campaign  # noqa: E402

from voyage.actions import voyages  # noqa: E402
from voyage.dice.roller import Roller  # noqa: E402
from voyage.engine.clock import Engine, no_storms  # noqa: E402
from voyage.store.mapstore import clear_storms, sea_states_for  # noqa: E402

MODES = ("calm", "lookups", "weather")


def year(camp: object, hours: int, mode: str) -> tuple[float, int]:
    """Seconds to step the fleet ``hours`` hours, and the storm capsize Checks rolled.

    ``calm``: no weather; ``lookups``: the weather worked out and looked up for every hex
    and hour but every answer taken as calm (the machinery alone); ``weather``: the
    rolled weather played in full (its storm Checks, capsizes and sinkings included)."""
    world = voyages.world_for(camp)  # type: ignore[arg-type]
    states = voyages.open_voyages(camp)  # type: ignore[arg-type]
    roller = Roller.from_state(camp.roller.get_state())  # type: ignore[attr-defined]
    t0 = time.process_time()
    # built inside the timing: the weather's set-up is part of its cost
    if mode == "weather":
        world.sea_state = sea_states_for(camp).lookup()  # type: ignore[arg-type]
    elif mode == "lookups":
        lookup = sea_states_for(camp).lookup()  # type: ignore[arg-type]

        def looked_up(hex_name: str, clock: int) -> int:
            lookup(hex_name, clock)
            return 0

        world.sea_state = looked_up
    else:
        world.sea_state = no_storms
    engine = Engine(world, states, roller)
    checks = 0
    for hour in range(hours):
        if hour % 24 == 0:
            for s in states:
                s.ship.fuel = max(s.ship.fuel, 400)
        result = engine.run(hour, 1, halt=False)
        checks += sum(
            1
            for e in result.events
            if e.event.kind == "capsize" and "(storm" in e.event.rolls[0].label
        )
        _referee(states)
    return time.process_time() - t0, checks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hours", type=int, default=24 * 365)
    parser.add_argument("--ships", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        camp = make_campaign(Path(tmp), args.ships, strainers=0)
        clear_storms(camp, everything=True)  # only rolled weather below
        times: dict[str, list[float]] = {m: [] for m in MODES}
        checks = 0
        for _ in range(args.repeat):  # interleaved, so drift in the machine hits all three
            for mode in MODES:
                seconds, found = year(camp, args.hours, mode)
                times[mode].append(seconds)
                checks = max(checks, found)
        camp.close()
    ship_hours = args.hours * args.ships
    print(
        f"{args.hours} hours x {args.ships} ships on the Salt Reach ({args.repeat} runs each; "
        "fastest and median)"
    )
    for mode, label in (
        ("calm", "calm sea"),
        ("lookups", "weather looked up"),
        ("weather", "rolled weather"),
    ):
        best, mid = min(times[mode]), statistics.median(times[mode])
        print(f"  {label:18} {best:6.3f} s  {mid:6.3f} s  ({ship_hours / best:,.0f} ship-hours/s)")
    print(f"  ({checks} storm capsize Checks in the weather year)")
    calm_best = min(times["calm"])
    lookups = min(times["lookups"]) / calm_best
    ratio = min(times["weather"]) / calm_best
    median_ratio = statistics.median(times["weather"]) / statistics.median(times["calm"])
    print(f"  ratio lookups/calm: {lookups:.2f}x")
    print(
        f"  ratio weather/calm: {ratio:.2f}x fastest, {median_ratio:.2f}x median "
        f"(target <= 1.30x): {'OK' if ratio <= 1.3 else 'SLOW'}"
    )


if __name__ == "__main__":
    main()
