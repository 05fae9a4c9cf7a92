"""A ship abandoned while leaking (R36) or listing (R37) is left adrift with her voyage open,
as one left sinking or burning is (voyage.actions.abandonship): the water goes on coming in at her
leaks' rate each hour with nobody to pump or bail (R85 needs crew, R70), until R37 lists,
capsizes and sinks her; it closed as "abandoned" and stopped taking on water. A sound ship
still closes as abandoned. And a crewless ship's search (R74) ends in the same action that
took her last crewman off (voyage.actions.crewless.heave_to), anchored or adrift as under way."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import add_trawler, db_contents, ok, trawler_at

SEED = 11  # she lists at the minute the abandon line gives, then capsizes while listing
COAST = "0404"  # a coastal hex by Gullhaven: an anchorage


def _status(runner: CliRunner, name: str) -> dict:
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    return next(s for s in ships if s["ship"] == name)


def _shown(runner: CliRunner) -> str:
    """Sea Witch's status as `ship show` gives it (the status table lists ships at sea)."""
    return json.loads(ok(runner, "ship", "show", "Sea Witch", "--json"))["status"]


@pytest.fixture
def holed(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, int]:
    """Sea Witch (Tier IV: Deadweight 750) 4 hours out of Gullhaven in calm weather, holed
    (R36: d6 + 20 hlbs an hour), her 6 crew with two rafts. Its file and her leak's hlbs."""
    path = tmp_path / "derelict.db"
    monkeypatch.setenv("VOYAGE_DB", str(path))
    ok(runner, "init", "--name", "Derelict", "--seed", str(SEED))
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "rolled_weather", "false")
    add_trawler(runner, "0305", engine="III", crew=6, fuel=40, rafts=2)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "4")
    said = ok(runner, "roll", "hull-hit", "Sea Witch", "--weapon-mod", "20", "--apply")
    rate = re.search(r"the ship takes on (\d+) hlbs of water an hour", said)
    assert rate is not None, said
    return path, int(rate[1])


def test_a_leaking_ship_abandoned_fills_lists_and_goes_under(
    runner: CliRunner, holed: tuple[Path, int]
) -> None:
    # R36, R37: she closed as "abandoned" and stopped taking on water
    path, rate = holed
    before = db_contents(path)
    said = ok(runner, "act", "Sea Witch", "abandon")
    hours = -(-188 // rate)  # whole hours of water to pass 187.5 hlbs (DW/4), from 04:00
    lists_at = f"Day 1, {4 + hours - 1:02d}:59"
    assert said.strip() == (
        "All hands abandon Sea Witch at 0405: 2 rafts with 6 aboard. Nobody is aboard to "
        f"pump or bail: she is left leaking {rate} hlbs an hour (0 hlbs aboard): she will "
        f"list at {lists_at} (over 187.5 hlbs, DW/4) and begin sinking at Day 1, "
        f"{4 + -(-376 // rate) - 1:02d}:59 (over 375 hlbs, DW/2), if she does not capsize "
        "first (R36, R37: over DW/10 she may capsize each hour, over DW/4 every 10 minutes; "
        "the next advance runs it)."
    )
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    advances = 0
    while _shown(runner) != "sunk":
        ok(runner, "advance", "--hours", "4")
        advances += 1
        assert advances < 10
    log = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    water = [h["water"] for h in log["hours"] if h["clock"] >= 4]
    # her water rises by her leaks' rate every hour, nobody pumping or bailing (R85, R70)
    assert water[: hours + 1] == [rate * (n + 1) for n in range(hours)] + [rate * hours]
    kinds = [(e["clock"], e["minute"], e["kind"]) for e in log["events"] if e["clock"] >= 8]
    listing = next(k for k in kinds if k[2] == "listing")
    assert f"Day 1, {listing[0]:02d}:{listing[1]:02d}" == lists_at  # the minute R37 gives
    checks = [k for k in kinds if k[2] == "capsize"]
    # R37: over DW/10 each hour at its minute 0, once listing every 10 minutes
    assert all(k[1] == 0 for k in checks if k[:2] < listing[:2])
    after = [k for k in checks if k[:2] > listing[:2]]
    assert after and all(k[1] % 10 == 9 for k in after)
    assert [k[2] for k in kinds[-2:]] == ["sinking", "sunk"]
    assert "Sea Witch goes under and is lost (she capsized (listing))." in [
        e["text"] for e in log["events"]
    ]
    for _ in range(advances + 1):
        ok(runner, "undo")
    assert db_contents(path) == before


def test_the_export_says_she_was_left_leaking(
    runner: CliRunner, holed: tuple[Path, int], tmp_path: Path
) -> None:
    ok(runner, "act", "Sea Witch", "abandon")
    out = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--format", "md", "--out", str(out))
    assert re.search(
        r"abandoned and leaking in hex 0405, nobody aboard to pump or bail",
        out.read_text(encoding="utf-8"),
    )


def test_a_ship_listing_from_water_loaded_is_left_adrift_to_capsize(
    runner: CliRunner, db: Path
) -> None:
    # R37: over DW/4 she lists at every moment, flagged by the engine or not yet; she closed
    # as "abandoned" with 200 hlbs aboard and never rolled again
    trawler_at(runner, "0305", crew=4, fuel=60, rafts=1)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "ship", "load", "Sea Witch", "--water", "200")  # over 187.5 (DW/4)
    before = db_contents(db)
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert said.strip() == (
        "All hands abandon Sea Witch at 0405: 1 raft with 4 aboard. Nobody is aboard to pump "
        "or bail: she is left listing with 200 hlbs of water aboard: she may capsize every 10 "
        "minutes (R37; the next advance runs it)."
    )
    assert _status(runner, "Sea Witch")["status"] == "adrift"
    ok(runner, "advance", "--hours", "3")
    events = json.loads(ok(runner, "log", "Sea Witch", "--json"))["events"]
    kinds = [(e["clock"], e["minute"], e["kind"]) for e in events if e["clock"] >= 2]
    assert kinds[1] == (2, 0, "listing")  # the next hour's minute 0 (R37)
    checks = [k for k in kinds if k[2] == "capsize"]
    assert checks and all(k[1] % 10 == 0 and k[1] > 0 for k in checks)  # every 10 minutes
    ok(runner, "undo")
    ok(runner, "undo")
    assert db_contents(db) == before


def test_a_sound_ship_abandoned_still_closes_as_abandoned(runner: CliRunner, db: Path) -> None:
    # a sound derelict drifting is a bigger question, left alone (docs/rulings.md)
    trawler_at(runner, "0305", crew=4, fuel=60, rafts=1)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert "leaking" not in said and "Nobody is aboard" not in said
    assert _shown(runner) == "abandoned"


# ------------------------------------------------------------------------ R74 with R70


def _searching_at_anchor(runner: CliRunner) -> None:
    """Sea Witch abandoned at the anchorage; Gull, anchored beside her, searches for her
    raft (R74)."""
    for name in ("Sea Witch", "Gull"):
        trawler_at(runner, COAST, name=name, crew=4, fuel=60, rafts=1)
    ok(runner, "act", "Sea Witch", "abandon")
    ok(runner, "act", "Gull", "search")
    assert _status(runner, "Gull")["status"] == "anchored, searching"


@pytest.mark.parametrize(
    "command",
    [
        ["ship", "load", "Gull", "--crew", "0"],
        ["crew", "remove", "Tom Pike"],
    ],
)
def test_taking_her_last_crewman_off_ends_her_search_at_once(
    runner: CliRunner, db: Path, command: list[str]
) -> None:
    # R74, R70: her search ran on to the next advance, which ended it with its own event
    _searching_at_anchor(runner)
    if command[0] == "crew":  # her last crewman, by name
        ok(runner, "ship", "load", "Gull", "--crew", "1")
        ok(runner, "crew", "add", "Tom Pike", "--ship", "Gull")
    before = db_contents(db)
    out = ok(runner, *command)
    line = "Gull has no crew now: her search ends (R74): nobody is aboard to look."
    assert line in out.splitlines()
    assert _status(runner, "Gull")["status"] == "anchored"
    said = ok(runner, "advance")
    assert "search" not in said  # nothing left for the advance to end
    ok(runner, "undo")
    ok(runner, "undo")  # the crew change and the end of her search are one action
    assert db_contents(db) == before


def test_searching_under_way_ends_with_her_adrift_line(runner: CliRunner, db: Path) -> None:
    # under way, she lies adrift (R64, R70) and her search ends: one line says both
    for name in ("Sea Witch", "Gull"):
        trawler_at(runner, COAST, name=name, crew=4, fuel=60, rafts=1)
    ok(runner, "act", "Sea Witch", "abandon")
    ok(runner, "act", "Gull", "weigh")
    ok(runner, "act", "Gull", "search")
    before = db_contents(db)
    out = ok(runner, "ship", "load", "Gull", "--crew", "0")
    assert out.splitlines()[0] == (
        "Gull has no crew now: nobody sails her, and she lies adrift at 0404, drifting with "
        "any current (R64, R70), until crew come aboard (`voyage ship load 'Gull' --crew N`, "
        "then `voyage act 'Gull' weigh`) or another ship tows her (R92). Her search ends "
        "(R74): nobody is aboard to look."
    )
    assert _status(runner, "Gull")["status"] == "adrift"
    ok(runner, "undo")
    assert db_contents(db) == before
