"""The engine and a ship with no crew (R70, our reading; voyage.rules.crewless): what it
did each hour by her crew's hands waits for crew, as the referee's actions do
(tests/test_crewless.py). She makes no way of her own (R64) from the start of an advance;
she does not try to get off when stuck (R34); nobody switches her bilge pumps (R85), works
on a leak (R86) or fights a fire (R50, a firehose with nobody at it); a ship with crew is
stepped as before."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from engine_helpers import OPEN_ROUTE, run, ship, voyage, world

from voyage.dice.roller import Roller
from voyage.engine.clock import Engine
from voyage.rules.crewless import no_hands
from voyage.rules.fire import fire_minute_odds, firefighters
from voyage.tables.rulebook import load_rulebook

ADRIFT = (
    "Gull has no crew: nobody sails her, and she lies adrift at 0202, drifting with any "
    "current (R64, R70), until crew come aboard (`voyage ship load 'Gull' --crew N`, then "
    "`voyage act 'Gull' weigh`) or another ship tows her (R92)."
)


def _texts(result, kind: str | None = None) -> list[str]:
    return [e.event.text for e in result.events if kind is None or e.event.kind == kind]


# ------------------------------------------------------------- R64: she makes no way


def test_a_crewless_ship_under_way_lies_adrift_from_the_start_of_an_advance() -> None:
    # an old campaign: her crew were taken off under way before `ship load --crew 0` laid
    # her adrift, and she steamed on along her route with nobody aboard
    s = voyage(ship(crew=0))
    result = run([s], seed=1, hours=3)
    first = result.events[0]
    assert (first.event.kind, first.clock, first.event.text) == ("drift", 0, ADRIFT)
    assert first.event.changes == {"status": "adrift", "searching": False}
    assert first.halt is None
    assert _texts(result).count(ADRIFT) == 1  # once, not every hour
    assert s.status == "adrift" and s.position == 0 and s.progress == 0
    assert [r.miles for r in result.rows] == [0, 0, 0]
    # the control: with crew aboard she sails the same hours
    crewed = voyage(ship(crew=4))
    sailed = run([crewed], seed=1, hours=3)
    assert crewed.status == "under way" and sum(r.miles for r in sailed.rows) > 0
    assert not _texts(sailed, "drift")


def test_a_crewless_ship_searching_ends_her_search() -> None:
    # R74: her crew look; with none aboard her search is over (and she lies adrift)
    s = voyage(ship(crew=0), searching=True)
    result = run([s], seed=1, hours=1)
    assert result.events[0].event.text == (
        ADRIFT + " Her search ends (R74): nobody is aboard to look."
    )
    assert not s.searching and s.status == "adrift"


def test_a_crewless_ship_searching_at_anchor_ends_her_search_and_stays_anchored() -> None:
    s = voyage(ship(crew=0), status="anchored", searching=True)
    result = run([s], seed=1, hours=1)
    first = result.events[0].event
    assert (first.kind, first.text) == (
        "search",
        "Gull has no crew: her search ends (R74): nobody is aboard to look.",
    )
    assert not s.searching and s.status == "anchored"


def test_a_crewless_ship_lying_or_in_port_is_left_as_she_is() -> None:
    anchored = voyage(ship(crew=0), status="anchored")
    result = run([anchored], seed=1, hours=2)
    assert anchored.status == "anchored" and not _texts(result, "drift")


def test_an_advance_until_arrival_stops_when_she_lies_adrift() -> None:
    s = voyage(ship(crew=0))
    result = run([s], seed=1, until="arrival")
    assert result.hours_run == 1
    assert result.stopped.startswith("no ship is making way")


# ------------------------------------------------------------- R34: stuck aground


def test_a_crewless_ship_stuck_aground_does_not_try_to_get_off() -> None:
    # R34: "a stuck ship tries to get off once an hour: 2d6 >= 8": the try is her crew's
    # (our reading); with none aboard she waits for the referee's refloat or a salvage crew
    s = voyage(ship(crew=0), status="stuck", position=3)
    result = run([s], seed=1, hours=6)
    assert s.status == "stuck" and not _texts(result, "aground")
    assert not any(r for e in result.events for r in e.event.rolls)
    # the control, the same hours with her crew aboard: they try every hour until she is off
    crewed = voyage(ship(crew=4), status="stuck", position=3)
    tried = run([crewed], seed=1, hours=6, halt=False)
    assert _texts(tried, "aground")
    assert tried.events[0].event.rolls[0].label.startswith("getting off")


def test_waiting_for_a_crewless_stuck_ship_stops_the_advance_and_names_the_way_out() -> None:
    s = voyage(ship(crew=0), status="stuck", position=3)
    result = run([s], seed=1, until="event")
    assert result.hours_run == 1
    assert result.stopped == (
        "no ship is making way (anchored, adrift or waiting for the referee); Gull is stuck "
        "aground at 0503: refloat her with `voyage act Gull refloat` (R34)"
    )


def test_a_salvage_crew_gets_a_crewless_ship_off_and_she_lies_adrift() -> None:
    # R83: a port's salvage crew finish; nobody aboard sails her off (R64, R70)
    s = voyage(ship(crew=0), status="stuck", more={"salvage_at": 0})
    result = run([s], seed=1, hours=1)
    assert _texts(result, "aground") == [
        "The salvage crew get Gull off the bottom: afloat again (R83). " + ADRIFT
    ]
    assert result.events[0].event.changes == {"stuck": False, "status": "adrift"}
    assert s.status == "adrift" and s.position == 0


# ------------------------------------------------------------- R85: bilge pumps


def _pumped(crew: int, **equipment: object) -> tuple[object, object]:
    gull = ship(crew=crew, water=30)
    gull.equipment.update({"bilge_pumps": 1, **equipment})
    s = voyage(gull, status="anchored")
    return s, run([s], seed=3, hours=3, halt=False)


def test_nobody_switches_a_crewless_ships_pumps_on() -> None:
    # R85: the crew switch them on when there is water aboard; with none aboard, nobody
    s, result = _pumped(0)
    assert not _texts(result, "pumps") and s.ship.water == 30
    assert not s.ship.equipment.get("pumps_on")
    # the control: her crew switch them on at the start of the first hour
    s, result = _pumped(4)
    assert _texts(result, "pumps") and s.ship.water < 30


def test_pumps_left_running_run_dry_with_nobody_to_switch_them_off() -> None:
    # R85: a dry hour and the crew switch them off; with none aboard they run on (equipment
    # runs on its own), and more than 5 dry hours in all burn them out
    gull = ship(crew=0, water=0)
    gull.equipment.update({"bilge_pumps": 1, "pumps_on": True})
    s = voyage(gull, status="anchored")
    result = run([s], seed=1, hours=7, halt=False)
    texts = _texts(result, "pumps")
    assert texts[0] == (
        "The bilge pumps run dry (1 dry hour in all; R85); nobody aboard switches them off (R70)."
    )
    assert texts[5] == "The bilge pumps run dry (6 dry hours in all; R85): they burn out."
    assert len(texts) == 6 and gull.equipment["pumps_burnt"] == 1


# ------------------------------------------------------------- R86, R50: leaks and fire


def test_leak_work_stops_when_nobody_is_left_to_do_it() -> None:
    # R86: the crew work on one leak at a time; taken off, the work stops with one event
    s = voyage(
        ship(crew=0),
        status="anchored",
        leaks=[3],
        more={"repair": {"leak": 1, "hlbs": 3, "since": -60}},
    )
    result = run([s], seed=1, hours=2, halt=False)
    assert _texts(result, "repair") == [
        "Nobody is left aboard Gull to work on leak 1 (3 hlbs an hour): the work stops (R86, "
        "R70); put crew aboard (`voyage ship load 'Gull' --crew N`) and set them to it again."
    ]
    assert "repair" not in s.more and s.leaks == [3]
    assert not any(r.label == "repairing a leak" for e in result.events for r in e.event.rolls)


def test_a_firehose_needs_someone_at_it() -> None:
    # R50: a firehose counts as one crew among those fighting; nobody fighting, none
    book = load_rulebook()
    assert firefighters(0, True, book) == 0
    assert firefighters(1, True, book) == 2
    assert fire_minute_odds(1, 5, 0, book, firehose=True)["reduced"] == 0
    assert fire_minute_odds(1, 5, 1, book, firehose=True)["reduced"] == F(4, 6)


@pytest.mark.parametrize(("fighting", "severity", "fought"), [(1, 2, True), (0, 1, False)])
def test_a_firehose_adds_a_fighter_only_beside_a_crew_member(
    fighting: int, severity: int, fought: bool
) -> None:
    # R50 (amended, the code's reading): one of her crew at the hose makes two fighters,
    # enough for a severity 2 fire; with nobody told off to fight it (`fight-fire --crew 0`)
    # the hose alone is no fighter, not even against severity 1, though four crew are aboard
    gull = ship(crew=4)
    gull.equipment["firehose"] = True
    s = voyage(gull, status="anchored", fire=severity, fire_since=-1, fire_crew=fighting)
    result = run([s], seed=5, hours=1, halt=False)
    first = result.events[0].event  # minute 0: seed 5's flames do not spread
    assert [r.outcome for r in first.rolls][:1] == ["they do not"]
    assert ("the crew fight the fire" in [r.label for r in first.rolls]) is fought


def test_the_referees_firefighters_are_only_those_still_aboard() -> None:
    # `fight-fire --crew 3`, then everyone taken off: nobody fights it (R50, R70)
    gull = ship(crew=0)
    gull.equipment["firehose"] = True
    s = voyage(gull, status="anchored", fire=1, fire_since=-1, fire_crew=3)
    result = run([s], seed=1, hours=1, halt=False)
    labels = [r.label for e in result.events for r in e.event.rolls]
    assert labels and "the crew fight the fire" not in labels


def test_the_start_of_an_advance_is_one_look_at_each_ship() -> None:
    # voyage.rules.crewless.no_hands: a fleet with crew is left exactly as it was
    states = [voyage(ship(name=f"S{i}", crew=3), route=OPEN_ROUTE, voyage_id=i) for i in range(3)]
    engine = Engine(world(), states, Roller(1))
    events: list = []
    no_hands(engine, 0, events)
    assert events == [] and all(s.status == "under way" for s in states)
