"""Rescue and search details (R70, R74): the ship's life jackets the rescued wore come
aboard with them into the rescuing ship's gear; a crewless ship cannot search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import abandon_mercy, add_mercy, add_trawler, db_contents, ok, refused


@pytest.fixture
def wreck(runner: CliRunner, db: Path) -> str:
    """Mercy (18 aboard, 18 jackets, 2 rafts) abandoned in open sea two hours out of
    Gullhaven; Gull (4 crew, 2 jackets) lying in the same hex. Returns the hex."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    add_mercy(runner, jackets=18)
    ok(runner, "crew", "add", "Tom Pike", "--ship", "Mercy", "--swimming", "6", "--jacket")
    add_trawler(runner, "0305", "Gull", tier="V", crew=4, fuel=80, jackets=2)
    ok(runner, "ship", "place", "Mercy", "0305")
    where = abandon_mercy(runner)
    ok(runner, "sail", "Gull", "--to", where)
    ok(runner, "advance", "--until", "arrival")
    return where


def _jackets(runner: CliRunner, ship: str) -> int:
    return json.loads(ok(runner, "ship", "show", ship, "--json"))["life_jackets"]


def test_jackets_the_rescued_wore_go_into_the_rescuers_stores(runner, wreck, db: Path):
    """R70: jackets are ship's stores; R71 handed Mercy's out; R74 (our reading): they come
    aboard with the people who wore them (they were counted nowhere after a rescue)."""
    assert _jackets(runner, "Mercy") == 1  # 18 less 17: Tom Pike wears his own (R70)
    before = db_contents(db)
    out = ok(runner, "act", "Gull", "rescue", "raft 1 of Mercy")
    assert (
        "4 taken aboard as passengers (4 passengers of Mercy). 4 life jackets "
        "come aboard with them into Gull's gear (6 aboard now, R70)." in out
    )
    assert _jackets(runner, "Gull") == 6
    ok(runner, "undo")
    assert db_contents(db) == before
    # his own jacket stays his: one crewman and Tom Pike, one ship's jacket between them
    ok(runner, "act", "Gull", "rescue", "Tom Pike")
    assert _jackets(runner, "Gull") == 2
    out = ok(runner, "act", "Gull", "rescue", "--all")
    assert "17 life jackets come aboard with them into Gull's gear (19 aboard now" in out
    assert _jackets(runner, "Gull") == 19 and _jackets(runner, "Mercy") == 1


def test_jackets_come_aboard_with_people_found_in_a_search(runner, wreck):
    ok(runner, "act", "Gull", "search")
    out = ok(runner, "advance", "--hours", "3")
    found = sum(
        int(line.split(" life jacket")[0].rsplit(" ", 1)[-1])
        for line in out.splitlines()
        if "come aboard with them into Gull's gear" in line
        or "comes aboard with them into Gull's gear" in line
    )
    assert found > 0 and _jackets(runner, "Gull") == 2 + found


def test_a_ship_with_no_crew_cannot_search(runner, wreck, db: Path):
    """R74: Mercy, abandoned and put back in the hex by the referee, has nobody to search
    with (she could search, as sail refuses a crewless ship); the refusal names the fix."""
    ok(runner, "ship", "place", "Mercy", wreck)
    before = db_contents(db)
    out = refused(runner, "act", "Mercy", "search")
    assert out.strip() == "Error: Mercy has no crew to search: `voyage ship load 'Mercy' --crew N`"
    assert db_contents(db) == before
