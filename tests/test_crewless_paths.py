"""Every path that takes a ship's last crewman off while she is under way leaves her adrift
as `ship load --crew 0` does (voyage.actions.crewless.heave_to: one line, inside the same action,
undone exactly); a crewless ship still under way in an old campaign lies adrift at the
next advance (voyage.rules.crewless); the referee's refloat of a crewless ship leaves her
adrift; an anchored ship is weighed before she is taken in tow (R65, R92)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import add_trawler, db_contents, ok, refused, trawler_at

COAST = "0404"  # a coastal hex of the Salt Reach next to Gullhaven: an anchorage


def _status(runner: CliRunner, name: str) -> dict:
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    return next(s for s in ships if s["ship"] == name)


def _adrift_line(name: str, where: str) -> str:
    q = repr(name)
    return (
        f"{name} has no crew now: nobody sails her, and she lies adrift at {where}, drifting "
        f"with any current (R64, R70), until crew come aboard (`voyage ship load {q} --crew "
        f"N`, then `voyage act {q} weigh`) or another ship tows her (R92)."
    )


def _out_with_tom(runner: CliRunner) -> str:
    """Sea Witch 3 hours out of Gullhaven with one crewman, Tom Pike; Gull lies beside her
    (placed in her hex). Her hex."""
    trawler_at(runner, "0305", crew=1, fuel=60)
    ok(runner, "crew", "add", "Tom Pike", "--ship", "Sea Witch")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    where = _status(runner, "Sea Witch")["hex"]
    add_trawler(runner, where, "Gull", crew=4, fuel=60)
    return where


@pytest.mark.parametrize(
    ("command", "first"),
    [
        (["crew", "move", "Tom Pike", "--ship", "Gull"], "Tom Pike moves from Sea Witch to Gull."),
        (["crew", "remove", "Tom Pike"], "Tom Pike is off the roster and leaves Sea Witch."),
    ],
)
def test_her_last_crewman_taken_off_under_way_she_lies_adrift(
    runner: CliRunner, db: Path, command: list[str], first: str
) -> None:
    # R70, R64: she steamed on along her route with nobody aboard
    where = _out_with_tom(runner)
    before = db_contents(db)
    out = ok(runner, *command)
    assert out.splitlines() == [first, _adrift_line("Sea Witch", where)]
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    ok(runner, "advance", "--hours", "3")
    assert _status(runner, "Sea Witch")["hex"] == where  # no current here: she lies still
    ok(runner, "undo")
    ok(runner, "undo")  # the move (or removal) and her lying adrift are one action
    assert db_contents(db) == before
    assert _status(runner, "Sea Witch")["status"] == "under way"


def test_a_crewman_taken_off_with_crew_left_changes_nothing_else(
    runner: CliRunner, db: Path
) -> None:
    where = _out_with_tom(runner)
    ok(runner, "ship", "load", "Sea Witch", "--crew", "2")  # Tom and one unnamed hand
    out = ok(runner, "crew", "move", "Tom Pike", "--ship", "Gull")
    assert out.splitlines() == ["Tom Pike moves from Sea Witch to Gull."]
    assert _status(runner, "Sea Witch")["status"] == "under way"
    ok(runner, "advance", "--hours", "2")
    assert _status(runner, "Sea Witch")["hex"] != where


def test_an_old_campaigns_crewless_ship_under_way_lies_adrift_at_the_next_advance(
    runner: CliRunner, db: Path
) -> None:
    # before heave_to, `ship load --crew 0` left her under way: the engine stops her itself
    trawler_at(runner, "0305", crew=4, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    where = _status(runner, "Sea Witch")["hex"]
    with sqlite3.connect(db) as con:  # as an old campaign has her
        con.execute("UPDATE ships SET crew = 0 WHERE name = 'Sea Witch'")
    con.close()
    before = db_contents(db)
    out = ok(runner, "advance", "--hours", "2")
    line = _adrift_line("Sea Witch", where).replace("no crew now:", "no crew:")
    assert line in out
    events = json.loads(ok(runner, "log", "Sea Witch", "--json"))["events"]
    assert [e["text"] for e in events].count(line) == 1
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    assert _status(runner, "Sea Witch")["hex"] == where
    ok(runner, "undo")
    assert db_contents(db) == before


def test_refloating_a_crewless_ship_leaves_her_adrift(runner: CliRunner, db: Path) -> None:
    # R34: the referee's call gets her off; nobody aboard sails her on (R64, R70)
    trawler_at(runner, "0305", crew=4, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "1")
    where = _status(runner, "Sea Witch")["hex"]
    with sqlite3.connect(db) as con:  # stuck there, her crew since taken off
        con.execute(
            "UPDATE voyages SET status = 'stuck' WHERE ship = 'Sea Witch' AND ended IS NULL"
        )
    con.close()
    ok(runner, "ship", "load", "Sea Witch", "--crew", "0")
    assert _status(runner, "Sea Witch")["status"] == "stuck"
    before = db_contents(db)
    out = ok(runner, "act", "Sea Witch", "refloat")
    line = _adrift_line("Sea Witch", where).replace("no crew now:", "no crew:")
    assert out.splitlines()[0] == (
        f"Sea Witch is got off the bottom: afloat again (R34, the referee's call). {line}"
    )
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    ok(runner, "undo")
    assert db_contents(db) == before


# ------------------------------------------------------------------- R65 with R92


def test_an_anchored_ship_is_weighed_before_she_is_taken_in_tow(
    runner: CliRunner, db: Path
) -> None:
    # R65: an anchored ship does not move; R92 moves the two together. She was towed off
    # with her anchor down
    trawler_at(runner, COAST, crew=4, fuel=60)
    trawler_at(runner, COAST, name="Gull", crew=4, fuel=60)
    assert _status(runner, "Sea Witch")["status"] == "anchored"
    ok(runner, "act", "Gull", "weigh")
    before = db_contents(db)
    out = refused(runner, "act", "Gull", "tow", "Sea Witch")
    assert out.strip() == (
        "Error: Sea Witch is anchored at 0404 and an anchored ship does not move (R65): weigh "
        "first (`voyage act 'Sea Witch' weigh`), then take her in tow (R92)"
    )
    assert db_contents(db) == before
    ok(runner, "act", "Sea Witch", "weigh")
    assert "Gull takes Sea Witch in tow" in ok(runner, "act", "Gull", "tow", "Sea Witch")


def test_an_anchored_crewless_ship_is_told_to_take_crew_aboard_to_weigh(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, COAST, crew=4, fuel=60)
    ok(runner, "ship", "load", "Sea Witch", "--crew", "0")  # at anchor: she stays so
    trawler_at(runner, COAST, name="Gull", crew=4, fuel=60)
    ok(runner, "act", "Gull", "weigh")
    before = db_contents(db)
    out = refused(runner, "act", "Gull", "tow", "Sea Witch")
    assert out.strip() == (
        "Error: Sea Witch is anchored at 0404 and an anchored ship does not move (R65): with "
        "no crew to weigh (R70), put crew aboard and weigh first (`voyage ship load 'Sea "
        "Witch' --crew N`, then `voyage act 'Sea Witch' weigh`), then take her in tow (R92)"
    )
    assert db_contents(db) == before


def test_a_stuck_ship_is_got_off_before_she_is_taken_in_tow(runner: CliRunner, db: Path) -> None:
    # R34: the refusal named the tower's status ("Gull is under way: she cannot take ...")
    trawler_at(runner, COAST, crew=4, fuel=60)
    trawler_at(runner, COAST, name="Gull", crew=4, fuel=60)
    ok(runner, "act", "Gull", "weigh")
    with sqlite3.connect(db) as con:
        con.execute(
            "UPDATE voyages SET status = 'stuck' WHERE ship = 'Sea Witch' AND ended IS NULL"
        )
    con.close()
    before = db_contents(db)
    out = refused(runner, "act", "Gull", "tow", "Sea Witch")
    assert out.strip() == (
        "Error: Sea Witch is stuck aground at 0404: get her off first (`voyage act 'Sea Witch' "
        "refloat`, R34), then take her in tow (R92)"
    )
    assert db_contents(db) == before
