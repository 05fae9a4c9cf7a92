"""R33 (amended): every hex the map draws as shallows - reef, shoal or sandbank, wreck - has
the coastline's 1-in-6 underwater hazard on any leg (procedures coast.shallow_terrains).

The amended ruling's text: "so has every hex the map draws as shallows (reef, shoal or
sandbank, wreck), on any leg: they are the coastline's hazards drawn out to sea". The hazard
is rolled in such a hex whatever the leg, and a route found with --to keeps out of them
where another way exists.
"""

from __future__ import annotations

from engine_helpers import ship, voyage

from voyage.actions.voyages import plan_route, shallows
from voyage.dice.roller import Roller
from voyage.engine.clock import Engine, World
from voyage.map.seamap import parse_map

# Row 3 has a reef at 0403; rows 2 and 4 are open water around it, far from any land.
REEF = """\
name: Reef
rows: |
  #######
  #~~~~~#
  #~~%~~#
  #~~~~~#
  #~~~~~#
  #######
"""


def test_reefs_shoals_and_wrecks_are_the_shallows(book):
    assert set(shallows(book)) == {"reef", "shoal", "wreck"}


def test_an_offshore_leg_through_a_reef_rolls_the_hazard(book):
    # R33 as amended: drawn shallows roll on any leg, not only inshore ones
    chart = parse_map(REEF)
    route = ["0203", "0303", "0403", "0503"]
    assert not chart.hex("0403").coastal and chart.hex("0403").terrain == "reef"
    st = voyage(ship(cargo=100), route, inshore=False)
    result = Engine(World(book, chart), [st], Roller(4)).run(0, 8)
    hazards = [
        e for e in result.events if e.event.rolls and e.event.rolls[0].label == "coastal hazard"
    ]
    assert len(hazards) == 1  # one roll, for the one reef hex entered
    assert result.rows[0].hex == "0203" and any(r.hex == "0403" for r in result.rows)


def test_open_water_offshore_rolls_no_hazard(book):
    chart = parse_map(REEF)
    route = ["0205", "0305", "0405", "0505"]
    st = voyage(ship(cargo=100), route, inshore=False)
    result = Engine(World(book, chart), [st], Roller(4)).run(0, 8)
    assert not [e for e in result.events if e.event.kind in ("coast", "aground")]


def test_found_routes_keep_out_of_shallows_where_they_can(book):
    chart = parse_map(REEF)
    plain = plan_route(chart, "0203", "0603")
    careful = plan_route(chart, "0203", "0603", avoid=shallows(book))
    assert "0403" in plain or len(plain) == len(careful)
    assert "0403" not in careful
    # A route to the reef itself, or one the referee names, still goes there.
    assert plan_route(chart, "0203", "0403", avoid=shallows(book))[-1] == "0403"
    assert (
        plan_route(chart, "0203", route=["0203", "0303", "0403"], avoid=shallows(book))[-1]
        == "0403"
    )
