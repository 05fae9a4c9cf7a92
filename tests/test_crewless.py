"""A ship with no crew (R70, our reading; voyage.actions.crewless): the referee's actions that need
her hands are refused in one line naming the fix, as her search (R74) and her sailing
always were; what a crewless hull does - drift (R64), be towed (R92), be refuelled in a port
- goes on. A submerged submarine at the end of her route holds her depth (R84)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import build_sub, db_contents, hurricane, ok, refused, trawler_at

COAST = "0404"  # a coastal hex of the Salt Reach, next to Gullhaven (0305): an anchorage


def _status(runner: CliRunner, name: str) -> dict:
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    return next(s for s in ships if s["ship"] == name)


def test_a_crewless_ship_placed_in_an_anchorage_lies_adrift_and_is_told_to_put_crew_aboard(
    runner: CliRunner, db: Path
) -> None:
    # R70, R65: she has an anchor and the bottom is in reach, but nobody to let it go (she
    # was "anchored" by `ship place` and then could weigh and sail off with nobody aboard)
    trawler_at(runner, COAST, crew=0, fuel=60)
    text = ok(runner, "log", "Sea Witch")
    assert "Sea Witch has no crew to drop anchor (R70)" in text
    assert "Put crew aboard (`voyage ship load 'Sea Witch' --crew N`)" in text
    assert "voyage sail" not in text  # `sail` refuses a crewless ship: not offered
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    # the control: with crew aboard she anchors there
    trawler_at(runner, COAST, name="Gull", crew=4, fuel=60)
    assert _status(runner, "Gull")["status"] == "anchored"


@pytest.mark.parametrize(
    ("action", "work"),
    [
        (["anchor"], "drop anchor (she only drifts, R64, or is towed, R92)"),
        (["weigh"], "get her under way (she only drifts, R64, or is towed, R92)"),
        (["course", "--to", "2420"], "steer a new course (she only drifts, R64, or is towed, R92)"),
        (["jettison", "5"], "throw cargo over"),
        (["pump", "5"], "pump and bail"),
        (["pumps", "on"], "throw the pumps' switch (R85)"),
        (["repair", "engine"], "repair her engine"),
        (["repair", "leak", "1"], "work on a leak (R86)"),
        (["tow", "Gull"], "take a tow line (R92: another ship may tow her)"),
    ],
)
def test_work_that_needs_hands_is_refused_in_one_line_and_changes_nothing(
    runner: CliRunner, db: Path, action: list[str], work: str
) -> None:
    trawler_at(runner, COAST, crew=0, fuel=60, cargo=10, pumps=1)
    trawler_at(runner, COAST, name="Gull", crew=4, fuel=60)
    before = db_contents(db)
    out = refused(runner, "act", "Sea Witch", *action)
    assert out.strip() == (
        f"Error: Sea Witch has no crew to {work}: `voyage ship load 'Sea Witch' --crew N`"
    )
    assert db_contents(db) == before


def test_with_nobody_aboard_there_is_nobody_to_abandon_her(runner: CliRunner, db: Path):
    # R71: "All hands abandon Sea Witch ... 0 in 0 rafts, 0 in the water"
    trawler_at(runner, COAST, crew=0, fuel=60)
    before = db_contents(db)
    out = refused(runner, "act", "Sea Witch", "abandon")
    assert out.strip() == (
        "Error: nobody is aboard Sea Witch to abandon her: she is a derelict as she lies (she "
        "only drifts, R64, or is towed, R92); put people aboard with `voyage ship load 'Sea "
        "Witch' --crew N`"
    )
    assert db_contents(db) == before


def test_what_a_crewless_hull_does_goes_on(runner: CliRunner, db: Path) -> None:
    # R92: another ship tows her; R64: she drifts; in a port the port's people fuel her
    trawler_at(runner, COAST, crew=0, fuel=10)
    trawler_at(runner, COAST, name="Gull", crew=4, fuel=60)
    ok(runner, "act", "Gull", "weigh")
    assert "Gull takes Sea Witch in tow" in ok(runner, "act", "Gull", "tow", "Sea Witch")
    ok(runner, "act", "Gull", "cast-off")
    ok(runner, "ship", "place", "Sea Witch", "0305")
    assert "buys 5 hlbs of fuel at Gullhaven" in ok(runner, "act", "Sea Witch", "refuel", "5")
    # the fix the refusals name works: crew aboard, she anchors and weighs again
    ok(runner, "ship", "place", "Sea Witch", COAST)
    ok(runner, "ship", "load", "Sea Witch", "--crew", "3")
    assert ok(runner, "act", "Sea Witch", "anchor").startswith("Sea Witch drops anchor at 0404")
    assert "weighs anchor" in ok(runner, "act", "Sea Witch", "weigh")


def test_a_crewless_trawler_told_to_dive_hears_she_is_no_submersible(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, COAST, crew=0, fuel=60)
    out = refused(runner, "act", "Sea Witch", "dive", "10")  # not a submersible: that says so
    assert "not a submersible" in out


# ------------------------------------------------------------------- R84: a sub at rest


def _eel(runner: CliRunner) -> None:
    ok(runner, "map", "load", "salt_reach")
    build_sub(runner, "Eel", "--propellers", "2", "--crew", "2")
    ok(runner, "ship", "place", "Eel", "2812")


def test_a_submerged_sub_at_the_end_of_her_route_holds_her_depth_adrift(
    runner: CliRunner, db: Path
) -> None:
    """R84 (AquaWars: a sub that stops "will not sink, but neither will [it] float to the
    surface"): she arrived outside a port and the event said she "lies adrift, hove to ...;
    storms still act on her", or dropped anchor 100 ft down."""
    _eel(runner)
    ok(runner, "sail", "Eel", "--route", "2812,2712,2612")
    ok(runner, "act", "Eel", "dive", "100")
    out = ok(runner, "advance", "--until", "arrival")
    assert (
        "Eel arrives at 2612, 100 ft down, and stops there: she holds her depth (R84: a "
        "sub that stops neither sinks nor rises), making no way, and drifts with any "
        "current (R64), under the storms."
    ) in out
    assert "`voyage act 'Eel' surface`, then `voyage act 'Eel' anchor`" in out
    assert _status(runner, "Eel")["status"] == "adrift, 100 ft down"
    # R65 (our reading): an anchor is worked from the deck
    before = db_contents(db)
    assert "Eel is 100 ft down: bring her up first" in refused(runner, "act", "Eel", "anchor")
    assert db_contents(db) == before
    # R84: under a hurricane she lies at depth, no capsize Check, hour after hour
    hurricane(runner, "2612", radius=1, hours=12)
    ok(runner, "advance", "--hours", "8")
    events = json.loads(ok(runner, "log", "Eel", "--json"))["events"]
    assert not any(e["kind"] in ("capsize", "sunk") for e in events)
    assert _status(runner, "Eel")["status"] == "adrift, 100 ft down"


def test_her_crew_taken_off_under_way_she_lies_adrift_and_undo_sets_her_going(
    runner: CliRunner, db: Path
) -> None:
    # R70, R64: with nobody aboard she steamed on along her route and arrived
    trawler_at(runner, "0305", crew=4, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    before = db_contents(db)
    where = _status(runner, "Sea Witch")["hex"]
    out = ok(runner, "ship", "load", "Sea Witch", "--crew", "0")
    assert out.splitlines()[0] == (
        f"Sea Witch has no crew now: nobody sails her, and she lies adrift at {where}, "
        "drifting with any current (R64, R70), until crew come aboard (`voyage ship load "
        "'Sea Witch' --crew N`, then `voyage act 'Sea Witch' weigh`) or another ship tows "
        "her (R92)."
    )
    ok(runner, "advance", "--hours", "3")
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    assert _status(runner, "Sea Witch")["hex"] == where  # no current here: she lies still
    ok(runner, "undo")
    ok(runner, "undo")
    assert db_contents(db) == before
    assert _status(runner, "Sea Witch")["status"] == "under way"
