"""R85 for built boats in the engine: water in spaces replaces R37, a Weighted Keel rights a
capsized boat, bottom damage costs propellers; and R34/R35 meeting a reef at speed (R81:
her mph as knots), against exact odds worked out here from the rulings' own numbers."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from conftest import FaceRoller
from engine_helpers import voyage as _voyage
from engine_helpers import world

from voyage.dice.roller import Roller
from voyage.engine.clock import Engine, World
from voyage.map.seamap import parse_map
from voyage.rules.boatwater import water_level, water_spaces
from voyage.tables.boatdesigns import sample_spec, spec_from_options
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.boatships import make_built_ship

BOOK = load_rulebook()


def boat(spec: dict[str, Any], pace: str = "normal", **aboard: Any):
    b = make_built_ship("Fox", spec, BOOK)
    b.pace = pace
    for key, value in aboard.items():
        setattr(b, key, value)
    b.hex, b.status = "0202", "at sea"
    return b


def yacht(**aboard: Any):
    # a Yacht (40 spaces): water a quarter full at 10 spaces (500 hlbs), half at 20, three
    # quarters at 30, full at 40 (2,000 hlbs); her Load stays far under twice her DW (R12)
    spec = spec_from_options(
        BOOK.boats, body="yacht", plant="heavy-duty", fittings=["deck"], crew=2
    )
    return boat(spec, **aboard)


def hour(b: Any, faces: list[int], route: list[str] | None = None, **state: Any):
    st = _voyage(b, route or ["0202", "0303", "0403", "0503", "0603", "0703"], pace=b.pace, **state)
    roller = FaceRoller(faces)
    result = Engine(world(), [st], roller).run(0, 1, halt=False)
    assert roller.faces == [], "a die the test gave was not rolled"
    return st, result


def test_water_counts_in_spaces_of_fifty_hlbs() -> None:
    b = yacht(water=499)
    assert water_spaces(b, BOOK) == 9 and water_level(b, BOOK) == 0
    for water, level in ((500, 1), (999, 1), (1000, 2), (1500, 3), (1999, 3), (2000, 4)):
        b.water = water
        assert water_level(b, BOOK) == level, water


def test_a_quarter_full_shorts_the_plant_on_one_or_two_rolled_once() -> None:
    b = yacht(water=500)
    st, result = hour(b, [2])  # 1-2 on d6: the plant shorts out
    assert b.engine_broken and [r.speed for r in result.rows] == [0]
    (ev,) = [e for e in result.events if e.event.kind == "flooding"]
    assert ev.halt == "engine broken" and "10 of her 40 spaces" in ev.event.text
    assert "(R85)" in ev.event.text
    assert not st.listing  # R37 does not apply to her: no listing, no R37 capsize check

    held = yacht(water=500)
    st, result = hour(held, [3])  # 3: the plant holds ...
    assert not held.engine_broken and result.rows[0].speed == 20
    _, again = hour(held, [], water_rolls=st.water_rolls)  # ... and is not rolled again
    assert not held.engine_broken


def test_a_half_rolls_one_to_four_and_three_quarters_shorts_it() -> None:
    b = yacht(water=1000)
    hour(b, [3, 4])  # a quarter holds (3), a half shorts on 1-4 (4)
    assert b.engine_broken
    b = yacht(water=1000)
    hour(b, [3, 5])
    assert not b.engine_broken
    b = yacht(water=1500)
    _, result = hour(b, [6, 6])  # both rolls hold; three quarters shorts it out regardless
    assert b.engine_broken
    assert "three quarters of her spaces; her power plant shorts out" in " ".join(
        e.event.text for e in result.events
    )


def test_full_of_water_she_sinks_at_once() -> None:
    b = yacht(water=2000)
    st, result = hour(b, [])  # no dice: the seed's "immediately sinks", no R40 countdown
    assert st.status == "sunk" and b.status == "sunk"
    assert [e.halt for e in result.events] == ["sinking", "sunk"]


def _keeled(keel: bool) -> Any:
    # a Cruiser (Tier VI) made Overloaded by cargo: an R41 capsize Check every hour
    fittings = ["deck", "weighted-keel"] if keel else ["deck"]
    spec = spec_from_options(BOOK.boats, body="cruiser", plant="large", fittings=fittings, crew=1)
    return boat(spec, cargo=1000)


def test_a_weighted_keel_rights_her_at_the_next_minute() -> None:
    b = _keeled(True)
    st, result = hour(b, [1])  # the Check fails: she capsizes ...
    texts = [(e.event.minute, e.event.text) for e in result.events]
    assert texts[0][0] == 0 and "capsizes" in texts[0][1] and "sinking" not in texts[0][1]
    assert texts[1] == (1, "Fox's Weighted Keel rights her (R85); she makes no more way this hour.")
    assert not st.capsized and st.sinking_in is None and st.status == "under way"
    assert [e.halt for e in result.events] == [None, None]  # righted: no halt (R85)
    without = _keeled(False)
    st, result = hour(without, [1, 3, 3, 3])  # ... without a keel R41 sinks her: 3d6 + VI
    assert st.capsized and st.status == "sunk"  # = 15 minutes (Overloaded: not doubled)
    assert [e.event.minute for e in result.events if e.halt == "sunk"] == [15]


CHANNEL_WITH_REEF = """\
name: Reef Channel
seabed: sandy
rows: |
  ############
  #P~~~~~~~~P#
  #~~~%~~~~~~#
  #~~~~~~~~~~#
  ############
hexes:
  "0202": {port: West}
  "1102": {port: East}
"""
REEF_ROUTE = ["0403", "0503", "0603"]  # 0503 is the reef (rocky, R33 on any leg)


def reef_world() -> World:
    return World(BOOK, parse_map(CHANNEL_WITH_REEF, "reef.yaml"))


def test_bottom_damage_costs_a_propeller_on_one_to_three() -> None:
    moray = boat(sample_spec("Moray", BOOK.boats))
    st = _voyage(moray, REEF_ROUTE, pace="normal")
    # hazard (1), not stuck (d12 5 + 0 < 20), rammed (d12 5: damaged, margin 15), leak d6
    # 1, Explosion d20 1 (1 + 15 + 5 - 4 = 17: not destroyed), propeller d6 2: destroyed
    roller = FaceRoller([1, 5, 5, 1, 1, 2])
    Engine(reef_world(), [st], roller).run(0, 1, halt=False)
    assert roller.faces == [] and moray.equipment["propellers_lost"] == 1
    assert st.leaks == [16]
    moray.equipment["propellers_lost"] = 2  # none left: she drifts (no power), R85
    from voyage.vessels import ships

    assert not ships.under_power(moray) and ships.speed(moray, BOOK) == 0


def _odds_at(speed: int) -> tuple[Fraction, Fraction]:
    """Exact chance, per reef hex entered at ``speed``, that a Tier IV boat is destroyed, and
    that she loses a propeller: R33 hazard 1-in-6; R34 d12 under the speed (rocky +0) is not
    stuck; R35 d12 over the speed avoids damage, else margin = speed - roll; R36 the
    Explosion destroys her on d20 + margin + 5 (lethal zone) - Tier >= 20; R85 a damaged
    bottom loses a propeller on 1-3."""
    destroyed = damaged = Fraction(0)
    for ram in range(1, 13):
        if ram > speed:
            continue
        margin = speed - ram
        damaged += Fraction(1, 12)
        hits = sum(1 for d20 in range(1, 21) if d20 + margin + 5 - 4 >= 20)
        destroyed += Fraction(1, 12) * Fraction(hits, 20)
    return Fraction(1, 6) * destroyed, Fraction(1, 6) * damaged * Fraction(1, 2)


def test_a_speeder_meeting_a_reef_at_speed_against_the_exact_odds() -> None:
    runs = 900
    reef, spec = reef_world(), sample_spec("Moray", BOOK.boats)
    for speed in (20, 60):
        p_destroyed, p_propeller = _odds_at(speed)
        destroyed = propellers = stuck = 0
        for seed in range(runs):
            moray = boat(spec, pace=f"{speed}mph")
            st = _voyage(moray, REEF_ROUTE, pace=moray.pace)
            Engine(reef, [st], Roller(seed)).run(0, 1, halt=False)
            destroyed += st.destroyed
            propellers += bool(moray.equipment.get("propellers_lost"))
            stuck += st.status == "stuck"
        assert stuck == 0  # R34: d12 (+0 on rock) is always under 20 mph
        for got, p in ((destroyed, p_destroyed), (propellers, p_propeller)):
            sd = math.sqrt(runs * float(p) * (1 - float(p)))
            assert abs(got - runs * float(p)) <= 4 * sd, (speed, got, runs * float(p))
    assert _odds_at(60)[0] == Fraction(1, 6)  # at 60 mph a hazard always destroys her
    assert _odds_at(20)[0] == Fraction(37, 288)


def test_a_keel_righted_capsize_does_not_stop_the_advance() -> None:
    # R85: the Weighted Keel rights her at the next minute; nothing waits for the referee,
    # so an advance of two hours runs both (the second hour's Check holds: 6)
    b = _keeled(True)
    st = _voyage(b, ["0202", "0303", "0403", "0503", "0603", "0703"], pace=b.pace)
    roller = FaceRoller([1, 6])
    result = Engine(world(), [st], roller).run(0, 2)  # halts honoured
    assert roller.faces == [] and result.hours_run == 2 and not result.stopped
    assert not result.halts and st.status == "under way"
    kinds = [e.event.text for e in result.events]
    assert any("Weighted Keel rights her (R85)" in t for t in kinds)
    without = _keeled(False)
    st = _voyage(without, ["0202", "0303", "0403", "0503", "0603", "0703"], pace=without.pace)
    result = Engine(world(), [st], FaceRoller([1, 3, 3, 3])).run(0, 2)
    assert result.hours_run == 1 and "capsized" in result.stopped  # R41: a halt
