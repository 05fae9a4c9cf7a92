"""People in the water against the exact odds of R71 and R72 (seeded runs, 4 sigma)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import within_binomial
from engine_helpers import world

from voyage.dice.roller import Roller
from voyage.engine.clock import Engine
from voyage.rules import water as rules
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.ships import make_ship
from voyage.world.water import Floater, Person, hand_out, leave_ship
from voyage.world.waterphase import WaterPhase

SETTINGS = {"crew_swimming": 1, "passenger_swimming": 0}


def phase(state: str, seed: int, floaters: list[Floater]) -> WaterPhase:
    w = world()
    w.sea_state = lambda hex_name, clock: rules.SEA_STATES.index(state)
    engine = Engine(w, [], Roller(seed))
    engine.water = WaterPhase(engine, floaters, [], SETTINGS)
    return engine.water


def group(count: int, swimming: int, jacket: bool, hours_swum: int = 0) -> Floater:
    return Floater(
        1,
        "people",
        "Gull",
        None,
        "crew",
        count,
        swimming,
        jacket,
        hex="0503",
        hours_swum=hours_swum,
    )


def drowned(p: WaterPhase) -> int:
    return sum(f.count for f in p.floaters if f.state == "drowned")


# R72 by hand: 2d6 <= 2 is 1/36, <= 3 is 3/36, <= 4 is 6/36, <= 6 is 15/36.
ONE_MINUTE_CALM = Fraction(1, 36)
HOUR_OF_MINUTES_CALM = 1 - Fraction(35, 36) ** 60


@pytest.mark.parametrize(
    ("state", "swimming", "jacket", "people", "p"),
    [
        # a non-swimmer with a jacket: one roll an hour
        ("calm", 0, True, 1500, Fraction(1, 36)),
        ("stormy seas", 0, True, 1000, Fraction(3, 36)),
        ("major storm", 0, True, 800, Fraction(6, 36)),
        ("hurricane", 0, True, 600, Fraction(15, 36)),
        # a non-swimmer without a jacket: every minute, 60 rolls in the hour
        ("calm", 0, False, 400, HOUR_OF_MINUTES_CALM),
        # a swimmer with a jacket: safe in calm and stormy seas, every minute on 2 in a major
        # storm
        ("calm", 3, True, 300, Fraction(0)),
        ("stormy seas", 3, True, 300, Fraction(0)),
        ("major storm", 3, True, 400, HOUR_OF_MINUTES_CALM),
        # a swimmer without a jacket, fresh: rank + 1 hours rolling once an hour
        ("stormy seas", 2, False, 1000, Fraction(3, 36)),
    ],
)
def test_one_hour_in_the_water_drowns_at_the_exact_odds(state, swimming, jacket, people, p):
    w = phase(state, 11, [group(people, swimming, jacket)])
    w.hour(5)
    assert within_binomial(drowned(w), people, p, sigmas=4)
    if p == 0:
        assert drowned(w) == 0 and not any(e.event.rolls for e in w.out)


@pytest.mark.parametrize(
    ("state", "swimming", "jacket", "hours_swum", "p"),
    [
        ("stormy seas", 0, False, 0, Fraction(3, 36)),  # the per-minute roll itself
        ("hurricane", 4, True, 0, Fraction(6, 36)),  # a jacketed swimmer in a hurricane: 2-4
        ("calm", 1, False, 2, Fraction(1, 36)),  # rank 1, two hours swum: exhausted
    ],
)
def test_each_minute_roll_drowns_at_the_exact_odds(state, swimming, jacket, hours_swum, p):
    w = phase(state, 3, [group(300, swimming, jacket, hours_swum)])
    w.hour(5)
    rolls = [r for e in w.out for r in e.event.rolls]
    # every one of them rolled each minute until drowned: drownings per roll is the odds
    assert len(rolls) > 60 * 0.5 * 300 * float(1 - p) ** 30
    assert within_binomial(sum(bool(r.success) for r in rolls), len(rolls), p, sigmas=4)


def test_a_swimmer_keeps_afloat_rank_plus_one_hours_then_tires():
    book = load_rulebook()
    plan = [rules.schedule(2, False, h, "calm", book).every for h in range(5)]
    assert plan == ["hour", "hour", "hour", "minute", "minute"]  # rank 2: three hours
    assert rules.schedule(0, False, 0, "calm", book).every == "minute"
    assert rules.schedule(5, True, 9, "stormy seas", book).every is None
    assert rules.schedule(5, True, 0, "hurricane", book).drowned_on == 4
    assert rules.drowning_odds(4, book) == Fraction(6, 36)


def _ship(crew: int, passengers: int, rafts: int = 0):
    s = make_ship(load_rulebook(), "Gull", "freighter", 8, 8, [])
    s.crew, s.passengers = crew, passengers
    s.equipment["life_rafts"] = rafts
    return s


def _escape(crew: int, passengers: int, night: bool, rafts: int = 0, seed: int = 5):
    book = load_rulebook()
    s = _ship(crew, passengers, rafts)
    people = [Person("crew", 1, False, crew), Person("passenger", 0, False, passengers)]
    counter = iter(range(1, 100000))
    return leave_ship(
        s,
        [p for p in people if p.count],
        "0503",
        22 if night else 12,
        book,
        lambda: next(counter),
        Roller(seed),
        night,
    )


def test_escapes_below_and_above_deck_at_r71_odds():
    # by day the crew are above deck: 3+ on 2d6 is 35/36; passengers below: 1-2 on d6
    day = _escape(600, 900, night=False)
    lost_crew = sum(f.count for f in day.lost if f.role == "crew")
    lost_pass = sum(f.count for f in day.lost if f.role == "passenger")
    assert within_binomial(600 - lost_crew, 600, Fraction(35, 36), sigmas=4)
    assert within_binomial(900 - lost_pass, 900, Fraction(1, 3), sigmas=4)
    # by night half the crew (rounded down) are below deck: 300 at 1/3, 301 at 35/36
    night = _escape(601, 0, night=True, seed=9)
    below = [r for r in night.events[0].rolls if "below deck" in r.label]
    above = [r for r in night.events[0].rolls if "above deck" in r.label]
    assert (len(below), len(above)) == (300, 301)
    assert within_binomial(sum(bool(r.success) for r in below), 300, Fraction(1, 3), sigmas=4)
    assert within_binomial(sum(bool(r.success) for r in above), 301, Fraction(35, 36), sigmas=4)


def test_rafts_are_launched_on_four_in_six():
    out = _escape(2400, 0, night=False, rafts=600)
    launches = [r for r in out.events[0].rolls if r.label.startswith("raft")]
    assert len(launches) == 600
    assert within_binomial(sum(bool(r.success) for r in launches), 600, Fraction(4, 6), sigmas=4)
    assert rules.escape_odds(True, load_rulebook()) == Fraction(1, 3)
    assert rules.escape_odds(False, load_rulebook()) == Fraction(35, 36)


def _current_world():
    from engine_helpers import CHANNEL

    from voyage.engine.clock import World
    from voyage.map.seamap import parse_map
    from voyage.rules.drift import current_lookup

    chart = parse_map(CHANNEL + 'currents:\n  "1103": {flows: N, knots: 12}\n', "c.yaml")
    return World(load_rulebook(), chart, current_at=current_lookup(chart))


def test_people_drift_with_the_current_and_a_port_rescues_them():
    w = _current_world()
    engine = Engine(w, [], Roller(1))
    swimmer = Floater(1, "people", "Gull", "Ann", "crew", 1, 3, True, hex="1103")
    still = Floater(2, "people", "Gull", "Bo", "crew", 1, 3, True, hex="0503")
    engine.water = WaterPhase(engine, [swimmer, still], [], SETTINGS)
    result = engine.run(0, 2, halt=False)
    assert swimmer.state == "rescued" and swimmer.hex == "1102" and "East" in swimmer.note
    assert still.afloat and still.hex == "0503"  # no current: no drift (R64)
    assert any(e.event.kind == "rescue" for e in result.events)


def test_a_raft_capsizes_in_a_storm_spills_its_people_and_they_climb_back_when_calm():
    for seed in range(60):
        raft = Floater(1, "raft", "Gull", "raft 1 of Gull", count=0, hex="0503", hours_in_hex=1)
        crew = Floater(2, "people", "Gull", None, "crew", 4, 0, True, raft=1, hex="0503")
        w = phase("hurricane", seed, [raft, crew])
        w.hour(3)  # R73: a hurricane checks every hour in the same hex, two Disadvantages
        if raft.capsized and crew.afloat:
            break
    else:
        raise AssertionError("no raft capsized in a hurricane in 60 seeds")
    checks = [e for e in w.out if e.halt == "raft capsized"]
    assert len(checks) == 1 and "d20" in checks[0].event.rolls[0].line()
    assert checks[0].event.rolls[0].boon_reasons == ["hurricane", "hurricane"]  # R60
    # spilled: they are in the water (non-swimmers with jackets roll once an hour, R72)
    assert any("drowning" in r.label for e in w.out for r in e.event.rolls)
    w.world.sea_state = lambda hex_name, clock: 0  # calm
    w.hour(4)
    assert not raft.capsized and any("climb" in e.event.text for e in w.out)
    assert not any("drowning" in r.label for e in w.out for r in e.event.rolls)  # in the raft


def test_a_raft_whose_people_are_all_gone_drifts_off_empty():
    raft = Floater(1, "raft", "Gull", "raft 1 of Gull", count=0, hex="0503")
    gone = Floater(
        2, "people", "Gull", None, "crew", 4, 0, True, raft=1, hex="0503", state="drowned"
    )
    w = phase("calm", 1, [raft, gone])
    w.hour(3)
    assert raft.state == "lost" and raft.note == "adrift, empty" and not w.out


def test_time_left_is_said_in_the_seas_terms():
    from voyage.actions.people import schedule_text

    book = load_rulebook()
    three = group(3, 0, False)
    assert schedule_text(three, "stormy seas", book) == (
        "3 non-swimmers, no jackets: each rolls every minute, drowned on 2-3 in stormy seas"
    )
    pike = Floater(2, "people", "Gull", "Pike", "crew", 1, 3, False, hours_swum=1)
    assert schedule_text(pike, "calm", book) == (
        "1 swimmer rank 3, no jacket: rolls every hour, drowned on 2 in calm seas "
        "(exhausted in 3 hours)"
    )


def test_batched_dice_are_the_same_faces_as_one_die_at_a_time():
    # Roller.dice throws a batch's drowning dice together: the very faces of die() in turn
    one, many = Roller(17), Roller(17)
    assert [one.die(6) for _ in range(500)] == many.dice(6, 500)
    assert [one.die(20) for _ in range(50)] == many.dice(20, 50)


def test_a_drowning_roll_writes_the_same_log_bytes_as_any_roll():
    from voyage.dice.roller import Roll
    from voyage.engine.clock import dumps

    book = load_rulebook()
    dice = rules.drowning_dice(book)
    for on in (2, 3, 4, 6):
        for a in range(1, 7):
            for b in range(1, 7):
                r = rules.drowning_record('drowning (Ann "the Fish")', [a, b], dice, on)
                assert r.to_json() == Roll.to_json(r) == dumps(r.to_dict())
    roller = Roller(2)
    made = rules.drowning_roll(roller, 3, book, "a crewman")
    assert roller.records[-1] is made and made.probability == Fraction(3, 36)


def test_a_calm_hour_keeps_every_persons_dice_in_one_tally_record():
    # R72, R4: 12 named non-swimmers with jackets in calm seas roll once an hour each; the
    # rolls in which nobody drowned are one record per batch, every die in it, named
    people = [
        Floater(i + 1, "people", "Gull", f"P{i}", "crew", 1, 0, True, hex="0503") for i in range(12)
    ]
    w = phase("calm", 4, people)
    w.hour(5)
    quiet = [e for e in w.out if e.event.kind == "water"]
    dead = [e for e in w.out if e.event.kind == "drowned"]
    rolled = sum(len(r.faces) // 2 for e in quiet + dead for r in e.event.rolls)
    assert rolled == 12  # one roll each, none lost
    for e in quiet:
        (tally,) = e.event.rolls
        assert not tally.success and tally.probability == Fraction(1, 36)
        named = [p.name for p in people if p.state == "afloat"]
        assert all(f"{n} " in tally.line() for n in named)
        assert tally.line().startswith("drowning (") and "nobody drowns" in tally.line()
        assert f"{len(named)} drowning rolls" in e.event.text


def test_r71_jackets_go_to_those_in_the_water_not_to_raft_seats():
    # R71 (amended): a raft's four seats go to the non-swimmers; the five jackets to those
    # in the water, swimmers of the lowest rank first; a jacket left over goes to a seat
    people = [
        Person("crew", 3, False, 2),
        Person("passenger", 0, False, 4),
        Person("crew", 1, False, 4),
    ]
    rafts, water, used = hand_out(people, 5, 4)
    assert [(p.swimming, p.jacket, p.count) for p in rafts] == [(0, False, 4)]
    assert [(p.swimming, p.jacket, p.count) for p in water] == [
        (1, True, 4),
        (3, True, 1),
        (3, False, 1),
    ]
    assert used == 5
    rafts, water, used = hand_out(people, 12, 4)  # enough for all: the seats get theirs too
    assert all(p.jacket for p in rafts + water) and used == 10
