"""R83 with R64: a built boat carried by a current into a charted hex meets her draft
against its depth (voyage.rules.hourly.by_depth, the same function as under way), at the
current's speed; rolled ships drifting there keep R33-R34 (here: open water, no roll)."""

from __future__ import annotations

from typing import Any

from engine_helpers import run, ship, voyage

from voyage.engine.clock import World
from voyage.map.seamap import parse_map
from voyage.rules.drift import current_lookup
from voyage.tables.boatdesigns import sample_spec
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.boatships import make_built_ship

BOOK = load_rulebook()
# open water; a current runs south down column 05 at 12 knots, one hex an hour
SEA = """\
name: Drift onto a bank
rows: |
  #######
  #~~~~~#
  #~~~~~#
  #~~~~~#
  #~~~~~#
  #~~~~~#
  #~~~~~#
  #######
currents:
  the Race:
    hexes: ["0403-0406"]
    flows: S
    knots: 12
hexes:
  "0404": {depth: DEPTH, seabed: SEABED}
"""


def world(depth: int, seabed: str = "sandy") -> World:
    chart = parse_map(SEA.replace("DEPTH", str(depth)).replace("SEABED", seabed), "bank.yaml")
    return World(BOOK, chart, current_at=current_lookup(chart))


def heavy() -> Any:
    b = make_built_ship(
        "Heavy", sample_spec("Lucky Catch (Heavy Armor Option)", BOOK.boats), BOOK
    )  # a Cruiser: draws 15 ft
    b.status = "at sea"
    return b


def adrift(s: Any) -> Any:
    return voyage(s, route=["0403", "0303", "0203"], status="adrift")


def test_a_cruiser_drifting_onto_a_12_ft_sand_bank_is_stuck_without_a_ram() -> None:
    st = adrift(heavy())
    result = run([st], seed=1, hours=3, w=world(12))
    assert st.hex == "0404" and st.status == "stuck"  # carried no further (R83)
    grounding = next(e for e in result.events if e.event.kind == "aground")
    assert grounding.halt == "aground" and not grounding.event.rolls  # sand: no ram (R83)
    assert "12 ft of water over a sandy bottom; she draws 15 ft" in grounding.event.text
    assert st.more["grounded_mph"] == 12  # the current's speed, for getting off (R83)
    assert "coast" not in [e.event.kind for e in result.events]  # R83, not R33


def test_on_rock_she_rams_the_bottom_at_her_drift_speed() -> None:
    st = adrift(heavy())
    result = run([st], seed=1, hours=1, w=world(12, "rocky"))
    grounding = next(e for e in result.events if e.event.kind == "aground")
    ram = grounding.event.rolls[0]
    assert ram.label == "ramming the rocky bottom" and ram.target == 12  # R35 at 12 knots
    assert st.hex == "0404" and (st.status == "stuck" or st.sinking_in is not None)


def test_at_exactly_her_draft_on_sand_she_scrapes_and_drifts_on() -> None:
    st = adrift(heavy())
    result = run([st], seed=1, hours=2, w=world(15))
    scrape = next(e for e in result.events if e.event.kind == "aground")
    assert "scrapes the bottom" in scrape.event.text and scrape.halt is None
    assert st.hex == "0405" and st.status == "adrift"


def test_deeper_water_and_a_rolled_ship_are_not_touched() -> None:
    st = adrift(heavy())
    result = run([st], seed=1, hours=2, w=world(16))
    assert st.hex == "0405" and "aground" not in [e.event.kind for e in result.events]
    rolled = voyage(ship(cargo=0, engine_broken=True), route=["0403", "0303", "0203"])
    result = run([rolled], seed=1, hours=2, w=world(1, "rocky"))
    assert rolled.hex == "0405"  # R83: depth changes nothing for a rolled ship
    assert not {"aground", "coast"} & {e.event.kind for e in result.events}
