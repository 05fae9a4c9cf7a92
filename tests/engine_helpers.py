"""Small worlds for the engine tests: a map drawn in a few lines and ships made to order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from voyage.dice.roller import Roller
from voyage.engine.clock import AdvanceResult, Engine, ShipState, World, no_storms
from voyage.map.seamap import SeaMap, parse_map
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.ships import make_ship

# A long open channel (row 3) between two ports, a coast along row 2, a sandbank at 0502
from voyage.vessels.vessel import Ship

# A long open channel (row 3) between two ports, a coast along row 2, a sandbank at 0502
# and rocks at 0702 (both coastal: land above them).
CHANNEL = """\
name: Test Channel
seabed: sandy
legend:
  o: {terrain: sea, seabed: rocky, name: rocks}
rows: |
  ############
  #P~~:~o~~~P#
  #~~~~~~~~~~#
  #~~~~~~~~~~#
  ############
hexes:
  "0202": {port: West, fuel: {price: 2, stock: 100}}
  "1102": {port: East}
"""

OPEN_ROUTE = [
    "0202",
    "0303",
    "0403",
    "0503",
    "0603",
    "0703",
    "0803",
    "0903",
    "1003",
    "1103",
    "1102",
]
COAST_ROUTE = ["0202", "0302", "0402", "0502", "0602", "0702", "0802", "0902", "1002", "1102"]


def channel() -> SeaMap:
    return parse_map(CHANNEL, "channel.yaml")


def ship(
    name: str = "Gull",
    cls: str = "trawler",
    tier: int = 4,
    engine: int | None = 5,
    traits: tuple[str, ...] = (),
    **aboard: Any,
) -> Ship:
    s = make_ship(load_rulebook(), name, cls, tier, engine, list(traits))
    s.crew = aboard.pop("crew", 4)
    s.fuel = aboard.pop("fuel", 50)
    for key, value in aboard.items():
        setattr(s, key, value)
    s.hex = "0202"
    s.status = "at sea"
    return s


def voyage(
    s: Ship, route: list[str] | None = None, inshore: bool = False, voyage_id: int = 1, **state: Any
) -> ShipState:
    hexes = list(route or OPEN_ROUTE)
    st = ShipState(s, voyage_id, hexes, inshore=[False] + [inshore] * (len(hexes) - 1))
    for key, value in state.items():
        setattr(st, key, value)
    s.hex = hexes[st.position]
    return st


def world(storm_at: Callable[[str, int], bool] = no_storms, **options: Any) -> World:
    return World(load_rulebook(), channel(), storm_at, **options)


def run(
    states: list[ShipState],
    seed: int,
    hours: int | None = None,
    until: str | None = None,
    w: World | None = None,
    start: int = 0,
    halt: bool = True,
) -> AdvanceResult:
    engine = Engine(w or world(), states, Roller(seed))
    return engine.run(start, hours, until, halt=halt)


def first_seed(
    make: Callable[[], list[ShipState]],
    happened: Callable[[AdvanceResult, list[ShipState]], bool],
    hours: int | None = None,
    until: str | None = None,
    w: World | None = None,
    tries: int = 300,
    halt: bool = True,
) -> tuple[int, AdvanceResult, list[ShipState]]:
    """The first seed whose run makes ``happened`` true (the scenario is built so that it
    is likely; the search keeps the test independent of the exact order of rolls)."""
    for seed in range(tries):
        states = make()
        result = run(states, seed, hours, until, w, halt=halt)
        if happened(result, states):
            return seed, result, states
    raise AssertionError("no seed made it happen")


def kinds(result: AdvanceResult) -> list[str]:
    return [e.event.kind for e in result.events]


def times(result: AdvanceResult, kind: str) -> list[tuple[int, int]]:
    return [(e.clock, e.event.minute) for e in result.events if e.event.kind == kind]
