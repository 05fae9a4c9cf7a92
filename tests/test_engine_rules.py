"""The engine, rule by rule, in seeded scenarios built to make each rule happen."""

from __future__ import annotations

from engine_helpers import (
    COAST_ROUTE,
    OPEN_ROUTE,
    first_seed,
    kinds,
    run,
    ship,
    times,
    voyage,
    world,
)

from voyage.dice.roller import Roller
from voyage.engine.clock import Engine

# ----------------------------------------------------------------------------- movement


def test_movement_carries_the_remainder_and_burns_fuel_per_hex():
    # R31: 12-mile hexes, the remainder carries over; R16: fuel per hex entered.
    s = ship(cargo=100)  # trawler IV/V: 4 + 1 + Half(+1) = 6 knots
    st = voyage(s)
    result = run([st], seed=1, hours=5)
    assert [r.speed for r in result.rows] == [6] * 5
    assert [r.hex for r in result.rows] == ["0202", "0303", "0303", "0403", "0403"]
    assert st.progress == 6
    assert s.fuel == 50 - 2  # two hexes entered, Fuel Use 1 (Tier IV)
    assert result.rows[-1].load == result.rows[0].load - 2  # burnt fuel leaves the Load (R11)


def test_slow_ahead_halves_speed_and_strain_adds_knots():
    # R15 slow: half speed; R14 strain: + extra knots, with an hourly engine roll
    slow = voyage(ship(name="Slow", cargo=100), pace="slow")
    strain = voyage(ship(name="Fast", cargo=100), pace="strain", strain=2, voyage_id=2)
    result = run([slow, strain], seed=3, hours=1)
    speeds = {r.ship: r.speed for r in result.rows}
    assert speeds["Slow"] == 3
    assert speeds["Fast"] == 8 or strain.ship.engine_broken
    assert any(r.label == "engine strain" for e in result.events for r in e.event.rolls)


def test_arrival_stops_the_advance_and_puts_the_ship_in_port():
    s = ship(cargo=100)
    st = voyage(s)
    result = run([st], seed=2, until="arrival")
    assert result.stopped == "Gull: arrived"
    assert st.status == "arrived" and s.status == "in port" and s.hex == "1102"
    assert result.events[-1].event.kind == "arrived"
    assert len(result.rows) == -(-(len(OPEN_ROUTE) - 1) * 12 // 6)


def test_out_of_fuel_stops_the_ship_and_the_advance():
    s = ship(cargo=100, fuel=2)
    st = voyage(s)
    result = run([st], seed=2, hours=10)
    assert "out of fuel" in result.stopped
    assert s.fuel == 0
    nxt = Engine(world(), [st], Roller(2)).run(result.end, 2)
    assert [r.speed for r in nxt.rows] == [0, 0]  # R13: no way under power, drifting


# ----------------------------------------------------------------------------- capsizing


def test_an_overloaded_ship_capsizes_and_sinks():
    # R41: an Overloaded ship checks every hour (DV 16, +Tier, -4); on a failure it capsizes
    # and sinks in 3d6 + Tier minutes (R40, not doubled: the Load is over Half).
    seed, result, states = first_seed(
        lambda: [voyage(ship(cls="motorboat", tier=1, engine=2, crew=2, cargo=150, fuel=20))],
        lambda r, s: s[0].status == "sunk",
        hours=3,
        halt=False,
    )
    st = states[0]
    checks = [e for e in result.events if e.event.kind == "capsize"]
    assert checks and checks[0].event.minute == 0
    roll = checks[-1].event.rolls[0]
    assert roll.label == "capsize check (overloaded)" and roll.success is False
    assert {m.reason: m.value for m in roll.modifiers} == {"Tier I": 1, "Overloaded": -4}
    sinking = next(e for e in result.events if e.event.kind == "sinking")
    minutes = sinking.event.rolls[0].total
    sunk = next(e for e in result.events if e.event.kind == "sunk")
    assert (sunk.clock * 60 + sunk.event.minute) - (
        sinking.clock * 60 + sinking.event.minute
    ) == minutes
    assert st.ship.status == "sunk" and result.rows[-1].status == "sunk"


def test_six_hours_in_the_same_storm_hex_is_a_capsize_check():
    # R32: or every 6 hours spent in the same hex
    st = voyage(ship(tier=8, engine=8, cls="freighter", cargo=100), status="anchored")
    result = run([st], seed=5, hours=13, w=world(lambda h, c: True))
    assert times(result, "capsize") == [(5, 59), (11, 59)]


# ----------------------------------------------------------------------------- flooding


def test_a_leak_floods_the_ship_until_it_lists_and_then_sinks():
    # R36 leaks, R37: over DW/4 the ship lists (checks every 10 minutes), over DW/2 it sinks
    def make():
        return [
            voyage(
                ship(tier=10, engine=10, cls="freighter", crew=10, cargo=0),
                status="anchored",
                leaks=[1100],
            )
        ]

    seed, result, states = first_seed(
        make,
        lambda r, s: any(
            e.event.kind == "sinking" and "water aboard" in e.event.text for e in r.events
        ),
        hours=6,
        halt=False,
    )
    assert [r.water for r in result.rows][:2] == [1100, 2200]
    listing = next(e for e in result.events if e.event.kind == "listing")
    assert (listing.clock, listing.event.minute) == (0, 59)  # 1100 > 4000/4
    checks = [e for e in result.events if e.event.kind == "capsize" and e.clock == 1]
    assert [e.event.minute for e in checks] == [9, 19, 29, 39, 49, 59]
    sinking = next(e for e in result.events if e.event.kind == "sinking")
    assert (sinking.clock, sinking.event.minute) == (1, 59)
    assert "2200 hlbs" in sinking.event.text  # 2200 > 4000/2
    sunk = next(e for e in result.events if e.event.kind == "sunk")
    assert (sunk.clock - 1) * 60 + sunk.event.minute - 59 == sinking.event.rolls[0].total
    assert states[0].status == "sunk"


def test_water_is_weight_unless_the_option_leaves_it_out():
    # R11 option water_in_load
    a = voyage(ship(cargo=0), status="anchored", leaks=[20])
    b = voyage(ship(name="Dry", cargo=0), status="anchored", leaks=[20], voyage_id=2)
    ra = run([a], seed=1, hours=2)
    rb = run([b], seed=1, hours=2, w=world(water_in_load=False))
    assert ra.rows[-1].load - rb.rows[-1].load == 40


# ----------------------------------------------------------------------------- fire


def test_a_fire_spreads_out_of_control_and_swallows_the_ship():
    # R50: no one fights it; past the Tier the fire swallows the ship in 2d6 minutes, then it
    # sinks (R40). The engine steps minute by minute while it burns (R52).
    def make():
        return [
            voyage(
                ship(cls="motorboat", tier=1, engine=2, crew=0, cargo=0, fuel=10),
                status="anchored",
                fire=1,
                fire_since=-1,
            )
        ]

    seed, result, states = first_seed(make, lambda r, s: s[0].status == "sunk", hours=3, halt=False)
    fire = [e for e in result.events if e.event.kind == "fire"]
    assert [e.event.minute for e in fire[:3]] == [0, 1, 2][: len(fire[:3])]
    wild = next(e for e in fire if e.halt == "fire")
    assert "out of control" in wild.event.text
    assert (
        kinds(result)[-3:] in (["fire", "sinking", "sunk"], ["sinking", "sunk", "sunk"])
        or kinds(result)[-1] == "sunk"
    )
    assert states[0].destroyed


def test_the_crew_put_a_fire_out():
    # R50: enough crew, 4-in-6 a minute to bring it down
    def make():
        return [voyage(ship(tier=6, engine=6, crew=8), status="anchored", fire=2, fire_since=-1)]

    seed, result, states = first_seed(make, lambda r, s: s[0].fire == 0, hours=1)
    assert "the fire is out" in result.events[-1].event.text
    assert states[0].status == "anchored"


def test_a_strained_engine_breaks_and_catches_fire():
    # R14: d6 + (extra - 1) >= 6 breaks the engine; again >= 6 and it catches fire (R50)
    def make():
        return [
            voyage(ship(tier=4, engine=8, cls="whaler", crew=6, cargo=100), pace="strain", strain=4)
        ]

    seed, result, states = first_seed(
        make,
        lambda r, s: any(e.event.kind == "fire" and "engine" in e.event.text for e in r.events),
        hours=6,
    )
    st = states[0]
    assert st.ship.engine_broken
    strain = next(e for e in result.events if e.event.kind == "strain" and e.halt)
    assert [r.label for r in strain.event.rolls] == ["engine strain", "engine fire"]
    assert strain.event.rolls[0].modifiers[0].value == 3  # +1 per knot after the first
    assert "engine broken" in result.stopped and "fire" in result.stopped


# ----------------------------------------------------------------------------- the coast


def test_a_ship_stuck_on_a_sandbank_gets_off():
    # R33: inshore, a hazard on a 1-in-6; R34 d12 + 3 (sandy) under speed or stuck; then
    # 2d6 >= 8 each hour to get off
    def make():
        return [voyage(ship(cargo=100), COAST_ROUTE, inshore=True)]

    def on_sand(r, s):
        return s[0].status == "stuck" and s[0].ship.hex in ("0502", "0302", "0402")

    seed, result, states = first_seed(make, on_sand, hours=20)
    st = states[0]
    assert result.stopped.endswith("aground")
    grounding = next(e for e in result.events if e.halt == "aground")
    roll = grounding.event.rolls[0]
    assert roll.label == "running aground" and roll.success is False
    assert [(m.value, m.reason) for m in roll.modifiers] == [(3, "sandy seabed")]
    assert len(grounding.event.rolls) == 1  # sand does not hole the hull (R33)
    assert st.progress == 0
    later = Engine(world(), [st], Roller(seed)).run(result.end, 48)
    tries = [e for e in later.events if e.event.rolls and e.event.rolls[0].label == "getting off"]
    assert tries and tries[0].event.minute == 0
    freed = next(e for e in tries if e.event.rolls[0].success)
    assert freed.event.changes == {"stuck": False}
    assert all(not t.event.rolls[0].success for t in tries if t.clock < freed.clock)
    assert next(r for r in later.rows if r.clock == freed.clock).miles > 0  # under way again
    assert all(t.event.rolls[0].target == 8 for t in tries)


def test_a_stuck_ship_waits_for_the_referee_when_the_option_says_so():
    st = voyage(ship(cargo=100), COAST_ROUTE, inshore=True, status="stuck")
    result = run([st], seed=1, hours=5, w=world(stuck_escape="referee"))
    assert not result.events and st.status == "stuck"
    assert [r.miles for r in result.rows] == [0] * 5


def test_rocks_can_hole_the_hull():
    # R33/R34: a rocky seabed can damage: the ship rams it (R35) and may leak (R36)
    def make():
        route = COAST_ROUTE[:7]
        return [voyage(ship(cargo=100), route, inshore=True, position=4, progress=11)]

    seed, result, states = first_seed(make, lambda r, s: bool(s[0].leaks), hours=1)
    rolls = [r.label for e in result.events for r in e.event.rolls]
    assert "ramming the rocky seabed" in rolls and "hull leak" in rolls


def test_narrow_passages_take_the_coastline_hazard_even_offshore(book):
    from voyage.engine.clock import World
    from voyage.map.seamap import parse_map

    text = """\
name: Strait
rows: |
  #####
  #~~~#
  ##~##
  #~~~#
  #####
hexes:
  "0303": {narrow_passage: true}
"""
    chart = parse_map(text)
    route = chart.route("0302", "0304")
    st = voyage(ship(cargo=100), route)
    st.ship.hex = route[0]
    result = Engine(World(book, chart), [st], Roller(4)).run(0, 2)
    assert [e.event.kind for e in result.events][0] == "coast"  # R33's roll comes first


def test_water_over_a_tenth_of_deadweight_means_an_hourly_capsize_check():
    # R37: above DW/10 (75 for Tier IV) the ship may capsize every hour
    st = voyage(ship(cargo=100, water=80), status="anchored")
    result = run([st], seed=3, hours=2, halt=False)
    checks = [e for e in result.events if e.event.kind == "capsize"]
    assert [(e.clock, e.event.minute) for e in checks][:2] in ([(0, 0), (1, 0)], [(0, 0)])
    assert checks[0].event.rolls[0].label == "capsize check (flooding)"


def test_a_ship_that_arrives_on_fire_burns_on_in_port():
    # the voyage is over only when the emergency is. Nobody fights the fire (fire_crew 0:
    # with no crew aboard at all she would not sail in, R70: voyage.rules.crewless)
    def make():
        return [
            voyage(
                ship(tier=6, engine=6, crew=4),
                fire=3,
                fire_since=-1,
                fire_crew=0,
                position=9,
                progress=10,
            )
        ]

    seed, result, states = first_seed(
        make, lambda r, s: s[0].status == "arrived" and s[0].emergency, hours=1
    )
    st = states[0]
    assert st.active and st.ship.hex == "1102"
    later = run([st], seed, hours=3, start=1, halt=False)
    assert later.rows and later.rows[0].status in ("on fire", "sinking", "sunk")
    assert later.events and later.events[0].event.kind in ("fire", "sinking", "sunk")


def test_an_advance_stopped_by_a_stuck_ship_names_her_and_the_way_out():
    # R34 with stuck_escape referee: waiting for an arrival stops at once, and the reason
    # names the ship, her hex and the command that frees her (not only "no ship is making
    # way", which left the referee guessing)
    st = voyage(ship(cargo=100), COAST_ROUTE, inshore=True, status="stuck")
    result = run([st], seed=1, until="arrival", w=world(stuck_escape="referee"))
    name, hex_name = st.ship.name, COAST_ROUTE[st.position]
    quoted = f'"{name}"' if " " in name else name
    assert result.stopped == (
        "no ship is making way (anchored, adrift or waiting for the referee); "
        f"{name} is stuck aground at {hex_name}: refloat her with "
        f"`voyage act {quoted} refloat` (R34)"
    )
    afloat = voyage(ship(cargo=100), OPEN_ROUTE)
    afloat.status = "anchored"
    calm = run([afloat], seed=1, until="arrival", w=world(stuck_escape="referee"))
    assert calm.stopped == "no ship is making way (anchored, adrift or waiting for the referee)"
