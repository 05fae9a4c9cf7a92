"""Ships aground and abandoned: a sub that meets the bottom lies on it (R83, R84), an
advance while a fight lies open (R94), a sinking that runs on after `abandon` (R40, R71), a
grounding she got off (R34, R83), and the words of the people in the water (R72, R73)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import add_trawler, build_sub, db_contents, hurricane, ok, trawler_at

from voyage.rules.depth import depth_hazard, resting_depth


def _status(runner: CliRunner, name: str) -> dict:
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    return next(s for s in ships if s["ship"] == name)


# ------------------------------------------------------- 1. a sub meets the bottom (R84)


def test_resting_depth_is_the_water_less_her_draft_never_below_the_surface() -> None:
    assert resting_depth(150, 8) == 142
    assert resting_depth(8, 8) == 0 and resting_depth(6, 8) == 0


def test_a_sub_meeting_a_bottom_rests_on_it(book) -> None:
    """R83/R84: her keel at 108 ft in 40 ft of sand: aground, lying 32 ft down."""
    from voyage.dice.roller import Roller

    got = depth_hazard(108, 40, "sandy", 20, 4, Roller(1), book, down=100)
    assert got is not None and got.stuck and got.changes["depth"] == 32
    assert got.text == (
        "She meets the bottom in 40 ft of water over a sandy bottom; 100 ft down, her keel is "
        "at 108 ft (R83, R84): she runs aground and lies on it 32 ft down, stuck fast. The "
        "sand takes the blow: no ramming (R83)."
    )
    surfaced = depth_hazard(8, 6, "sandy", 20, 4, Roller(1), book)
    assert surfaced is not None and "depth" not in surfaced.changes  # a surface boat: as ever


def test_a_sub_run_into_six_feet_of_water_is_forced_up_not_stuck_100_ft_down(
    runner: CliRunner, reach: Path
) -> None:
    """A Nautilus 100 ft down into 0604 (charted 6 ft, sand). She was
    left "stuck, 100 ft down" in 6 ft of water, "she draws 108 ft". She meets the bottom,
    is forced up, and lies aground on the surface, drawing her own 8 ft; undo puts her
    back down."""
    build_sub(runner, "Nautilus")
    ok(runner, "ship", "place", "Nautilus", "Gullhaven")
    ok(runner, "sail", "Nautilus", "--route", "0305,0404,0504,0604")
    ok(runner, "act", "Nautilus", "dive", "100")
    before = db_contents(reach)
    out = ok(runner, "advance", "--hours", "2")
    assert (
        "Nautilus: She meets the bottom in 6 ft of water over a sandy bottom; 100 ft down, her "
        "keel is at 108 ft (R83, R84): forced up to the surface, she runs aground there, stuck "
        "fast: she draws 8 ft. The sand takes the blow: no ramming (R83)."
    ) in out
    assert "ft down" not in out.split("(R83).\n", 1)[1]
    assert _status(runner, "Nautilus")["status"] == "stuck"
    assert "Status: at sea, stuck at 0604\n" in ok(runner, "ship", "show", "Nautilus")
    ok(runner, "undo")
    assert db_contents(reach) == before


# ------------------------------------------------ 3. abandoning a sinking ship (R40, R71)


def test_a_sinking_ship_abandoned_goes_under_at_her_minute_and_the_export_says_so(
    runner: CliRunner, eight_hours_out: Path, tmp_path: Path
) -> None:
    """All hands left her while she had 26 minutes left: no "goes under" was logged, and
    the export said she sank at the abandon time. Her clock runs on (R40): the next
    advance logs her going under at 08:26, and the export gives that minute. The abandon
    is undone exactly."""
    out = ok(runner, "roll", "sinking", "Sea Witch", "--apply")
    assert "submerges completely in 26 minutes" in out
    before = db_contents(eight_hours_out)
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert said.endswith(
        "Nobody is aboard to save her: she goes under at Day 1, 08:26 (R40: unless the "
        "referee declares her saved; the next advance runs her clock).\n"
    )
    assert _status(runner, "Sea Witch")["status"] == "sinking"
    ok(runner, "undo")
    assert db_contents(eight_hours_out) == before
    ok(runner, "act", "Sea Witch", "abandon")
    out = ok(runner, "advance", "--hours", "3")
    assert "Day 1, 08:26  Sea Witch goes under and is lost (the referee's call (R40))." in out
    assert "Stopped: Sea Witch: sunk" in out
    log = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    sunk = [e for e in log["events"] if e["kind"] == "sunk"]
    assert [(e["hour"], e["minute"]) for e in sunk] == [(8, 26)]
    md = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--out", str(md))
    assert "| Outcome | sank in hex 0506 on Day 1, 08:26 |" in md.read_text(encoding="utf-8")


def test_a_ship_abandoned_to_a_fire_out_of_control_is_swallowed_at_its_minute(
    runner: CliRunner, reach: Path
) -> None:
    """R50: left burning out of control, the fire swallows her at its minute and she sinks
    (R40) in the next advance, not at the abandon."""

    trawler_at(runner, "0305", tier="1", engine="1", crew=2, fuel=20)
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "4")
    fire = ok(runner, "roll", "fire", "Sea Witch", "--apply")
    assert "swallow the ship in" in fire, fire  # seed 7: out of control at Tier I
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert "the fire burns on out of control: it swallows her at Day 1, 04:" in said
    assert _status(runner, "Sea Witch")["status"] == "on fire"
    out = ok(runner, "advance", "--hours", "2")
    assert "The flames swallow Sea Witch: she is destroyed (R50)." in out
    assert "Sea Witch goes under and is lost (the fire swallowed her (R50))." in out


# ------------------------------------------------ 4. a grounding she got off (R34)


def test_a_ship_that_scrapes_free_is_not_stopped_as_aground(runner: CliRunner, reach: Path):
    """R34: the d12 under her speed, she avoids getting stuck. The advance still stops for
    the referee (docs/voyages.md), but it said "Stopped: Cold Maiden: aground"."""
    ok(runner, "settings", "encounter_interval", "0")
    add_trawler(runner, "0305", "Cold Maiden", tier="4", engine="6", crew=6, fuel=60)
    ok(runner, "sail", "Cold Maiden", "--to", "2812", "--inshore")
    data = json.loads(ok(runner, "advance", "--until", "arrival", "--json"))
    scraped = [e for e in data["events"] if e["text"] == "The ship scrapes free."]
    assert scraped and all(e["halt"] == "touched bottom and scraped free" for e in scraped)
    assert data["stopped"] == "Cold Maiden: touched bottom and scraped free, arrived"
    assert "aground" not in data["stopped"]


# ------------------------------------------- 5. the words of the people in the water (R72)


@pytest.mark.parametrize(
    ("swimming", "jacket", "hours", "every", "why"),
    [
        (0, False, 0, "minute", ""),  # was "a non-swimmer without a jacket", said twice
        (0, True, 0, "hour", ""),
        (2, True, 0, None, ""),
        (1, False, 0, "hour", "keeping afloat"),  # was "a swimmer (rank 1) keeping afloat"
        (1, False, 2, "minute", "exhausted"),
    ],
)
def test_a_drowning_schedule_says_only_what_the_swimmer_words_do_not(
    book, swimming, jacket, hours, every, why
) -> None:
    from voyage.rules.water import schedule

    plan = schedule(swimming, jacket, hours, "stormy", book)
    assert (plan.every, plan.why) == (every, why)


def test_people_in_the_water_and_a_raft_read_plainly(runner: CliRunner, reach: Path) -> None:
    """R72/R73 in a hurricane: "(non-swimmer, no jacket, a non-swimmer without a jacket)"
    said one thing twice, a raft's Check read "(1 hours in a hurricane)" and its roll "the
    ship capsizes"."""
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "ship", "add", "Cold", "--class", "trawler", "--tier", "III", "--engine", "III")
    ok(
        runner,
        "ship",
        "load",
        "Cold",
        "--crew",
        "6",
        "--passengers",
        "3",
        "--fuel",
        "20",
        "--rafts",
        "1",
    )
    ok(runner, "ship", "place", "Cold", "0305")
    ok(runner, "sail", "Cold", "--to", "2812")
    hurricane(runner, "0404", radius=3, hours=24)
    ok(runner, "advance", "--hours", "3")  # she capsizes and goes under in 0405 at 02:46
    out = ok(runner, "advance", "--hours", "1")  # the raft's Check, the people in the water
    assert "capsize check (1 hour in a hurricane): " in out
    assert "vs DV 16: the raft capsizes" in out and "the ship capsizes" not in out
    assert "1 passenger of Cold (non-swimmer, no jacket) in a hurricane at 0405: " in out
    assert "(swimmers rank 1, no jackets, keeping afloat) in a hurricane" in out
    assert "a non-swimmer without a jacket" not in out and "a swimmer (rank" not in out
