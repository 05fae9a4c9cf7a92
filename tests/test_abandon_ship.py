"""Abandoning a sinking or burning ship (voyage.actions.abandonship): a fire under control
burns on with nobody to fight it (R50, R70 our reading); the export, status and journal of a
ship left sinking say so, with her minute (R40, R71); the R71 line says only what there is;
a sinking with no crew says nobody is aboard to save her; the status table's minutes to go
agree with the minute the log gives (R52)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, hurricane, ok, refused, trawler_at

from voyage.dice.roller import Roller
from voyage.rules.emergency import count_ends_at, minutes_left
from voyage.rules.fire import fire_minute
from voyage.rules.sinking import sinking_time, sinking_words
from voyage.world.water import leaving_words


def _status(runner: CliRunner, name: str) -> dict:
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    return next(s for s in ships if s["ship"] == name)


# ---------------------------------------------------------------- the words (unit tests)


@pytest.mark.parametrize(
    ("rafts", "in_rafts", "in_water", "jackets", "said"),
    [
        (0, 0, 4, 0, "4 in the water, no rafts, no life jackets"),
        (2, 8, 0, 0, "2 rafts with 8 aboard"),
        (1, 4, 2, 2, "1 raft with 4 aboard, 2 in the water, 2 life jackets handed out"),
        (0, 0, 3, 1, "3 in the water, no rafts, 1 life jacket handed out"),
        (2, 8, 0, 7, "2 rafts with 8 aboard, 7 life jackets handed out"),
    ],
)
def test_the_r71_line_says_only_what_there_is(rafts, in_rafts, in_water, jackets, said):
    # it read "0 in 0 rafts, 4 in the water (0 life jackets handed out)"
    assert leaving_words(rafts, in_rafts, in_water, jackets) == said


class _Aboard:
    def __init__(self, crew: int, passengers: int = 0) -> None:
        self.crew, self.passengers = crew, passengers


def test_a_sinking_with_no_crew_says_nobody_is_aboard_to_save_her(book) -> None:
    """R40 with nobody to work her (R70, our reading): not "Unless the crew can save her"."""
    assert sinking_words(13, _Aboard(0)) == (
        "The ship goes under in 13 minutes, nobody aboard to save her."
    )
    assert sinking_words(13, _Aboard(0, 2)) == (
        "The ship goes under in 13 minutes, no crew aboard to save her."
    )
    crewed = "Unless the crew can save her, the ship submerges completely in 13 minutes."
    assert sinking_words(13, _Aboard(4)) == sinking_words(13) == crewed
    # the same dice either way: only the words change (R5)
    left = sinking_time(2, "full", Roller(3), book, _Aboard(0))
    kept = sinking_time(2, "full", Roller(3), book)
    assert left.minutes == kept.minutes and left.rolls[0].faces == kept.rolls[0].faces


def test_a_fire_nobody_fights_says_so(book) -> None:
    # R50: with nobody at it, "0 crew fighting cannot control a fire of severity 2 (it needs 2)"
    got = fire_minute(2, 4, 0, Roller(1), book)
    assert got.text.endswith("Nobody fights it.") and not got.fought and not got.reduced


def test_minutes_left_is_the_logs_minute_less_now() -> None:
    """R52: a countdown from the hour before has been stepped to its minute 59; one begun by
    an action at the clock has not been stepped at all."""
    assert count_ends_at(119, 9, 2) == 128 and minutes_left(119, 9, 2) == 8
    assert count_ends_at(120, 13, 2) == 133 and minutes_left(120, 13, 2) == 13
    assert minutes_left(95, 30, 2) == 29  # begun at 01:35, stepped to 01:59


# ------------------------------------------- 1. a fire under control burns on (R50, R70)


def test_abandoning_a_ship_with_a_fire_under_control_leaves_it_burning(
    runner: CliRunner, eight_hours_out: Path, tmp_path: Path
) -> None:
    """It went out when her people left (s.fire = 0). Nobody is left to fight it (R50: the
    crew fight it; a firehose needs hands, R70 our reading): it spreads on its 2-in-6 until
    it passes her Tier IV, swallows her (R50) and she sinks (R40). Undone exactly."""
    fire = ok(runner, "roll", "fire", "Sea Witch", "--apply")
    assert "A fire of severity 3 breaks out." in fire  # seed 7, Tier IV: under control
    before = db_contents(eight_hours_out)
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert said == (
        "All hands abandon Sea Witch at 0506: 6 in the water, no rafts, no life jackets. "
        "Nobody is aboard to fight the fire (severity 3): it burns on, and will grow out of "
        "control and swallow her (R50, R40: it spreads on a 2-in-6 each minute; past her Tier, "
        "IV, it swallows her in 2d6 minutes; the next advance runs it).\n"
    )
    row = _status(runner, "Sea Witch")
    assert (row["status"], row["voyage_status"], row["fire"]) == ("on fire", "adrift", 3)
    assert row["nobody_aboard"] is True
    assert "nobody aboard; fire 3" in ok(runner, "status")
    md = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--out", str(md))
    text = md.read_text(encoding="utf-8")
    assert "| Outcome | abandoned and on fire in hex 0506, nobody aboard to fight it |" in text
    # the players read the words, not the mechanics in the ruling's parenthesis
    assert "it burns on, and will grow out of control and swallow her." in text
    assert "2-in-6" not in text and "next advance" not in text
    ok(runner, "undo")
    assert db_contents(eight_hours_out) == before
    ok(runner, "act", "Sea Witch", "abandon")
    out = ok(runner, "advance", "--hours", "3")
    assert "Nobody fights it." in out and "crew fighting" not in out
    assert "The flames grow out of control" in out
    assert "The flames swallow Sea Witch: she is destroyed (R50)." in out
    assert "nobody aboard to save her." in out  # 4. no crew to save her (R40)
    assert "Sea Witch goes under and is lost (the fire swallowed her (R50))." in out
    log = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    fights = [e for e in log["events"] if e["kind"] == "fire" and "fights" in e["text"]]
    assert fights and all(e["text"].endswith("Nobody fights it.") for e in fights)


def test_a_sound_ship_abandoned_still_ends_her_voyage(runner, eight_hours_out: Path) -> None:
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert (
        said == "All hands abandon Sea Witch at 0506: 6 in the water, no rafts, no life jackets.\n"
    )
    assert "Status: abandoned at 0506" in ok(runner, "ship", "show", "Sea Witch")


# ------------------------- 2. and 5. left sinking: the export, status and journal (R40, R71)


@pytest.fixture
def capsized_at_one(runner: CliRunner, db: Path) -> Path:
    """Gull (Tier II, 4 crew) placed adrift in deep water at 1010 under a hurricane (R60):
    the hour's same-hex check at 00:59 capsizes her (seed 7), and at 01:00 she is sinking,
    due to go under at 01:09."""
    trawler_at(runner, "1010", "Gull", tier="II", engine="III", crew=4, fuel=40)
    hurricane(runner, "1010", radius=2, hours=48)
    out = ok(runner, "advance", "--hours", "1")
    assert "Stopped: Gull: capsized, sinking." in out
    return db


def test_the_status_counts_the_minutes_to_the_logs_minute(runner, capsized_at_one) -> None:
    """At 01:00 it showed "sinking (10 min)" for a ship that goes under at 01:09: her
    countdown, begun at 00:59, falls at 01:00 first (R52)."""
    assert _status(runner, "Gull")["sinking_minutes_left"] == 9
    assert "sinking (9 min); capsized" in ok(runner, "status")
    said = refused(runner, "roll", "sinking", "Gull", "--apply")
    assert "Gull is already sinking (9 minutes left, R40)" in said
    out = ok(runner, "advance", "--hours", "1")
    assert "Day 1, 01:09  Gull goes under and is lost" in out


def test_a_ship_left_sinking_is_told_as_abandoned_and_sinking_until_she_goes_under(
    runner: CliRunner, capsized_at_one: Path, tmp_path: Path
) -> None:
    """Right after the abandon her export said "adrift in hex 1010"; it says she is
    abandoned and sinking, and when she goes under (R40, R71), as the abandon line does,
    and the status says nobody is aboard. After the advance: she sank at that minute."""
    said = ok(runner, "act", "Gull", "abandon")
    assert said == (
        "All hands abandon Gull at 1010: 4 in the water, no rafts, no life jackets. Nobody is "
        "aboard to save her: she goes under at Day 1, 01:09 (R40: unless the referee declares "
        "her saved; the next advance runs her clock).\n"
    )
    assert "nobody aboard; sinking (9 min); capsized" in ok(runner, "status")
    md, js = tmp_path / "gull.md", tmp_path / "gull.json"
    ok(runner, "export", "Gull", "-f", "md", "-f", "json", "--out", str(md))
    outcome = "abandoned and sinking in hex 1010, going under at Day 1, 01:09"
    assert f"| Outcome | {outcome} |" in md.read_text(encoding="utf-8")
    assert json.loads(js.read_text(encoding="utf-8"))["summary"]["outcome"] == outcome
    journal = ok(runner, "journal", "--since", "day 1")
    assert (
        " All hands abandon Gull at 1010: 4 in the water, no rafts, no life jackets. "
        "Nobody is aboard to save her: she goes under at Day 1, 01:09.\n"
    ) in journal
    ok(runner, "advance", "--hours", "1")
    ok(runner, "export", "Gull", "-f", "md", "--out", str(md), "--force")
    assert "| Outcome | sank in hex 1010 on Day 1, 01:09 |" in md.read_text(encoding="utf-8")


def test_a_ship_left_sinking_and_saved_is_abandoned_adrift(
    runner: CliRunner, capsized_at_one: Path, tmp_path: Path
) -> None:
    ok(runner, "act", "Gull", "abandon")
    ok(runner, "act", "Gull", "saved")  # R40: the referee's word, nobody aboard
    js = tmp_path / "gull.json"
    ok(runner, "export", "Gull", "-f", "json", "--out", str(js))
    outcome = json.loads(js.read_text(encoding="utf-8"))["summary"]["outcome"]
    assert outcome == "abandoned, adrift in hex 1010"


# ------------------------------------------------ 3. the demo's line reads well (R71)


def test_the_demo_tells_who_got_out_in_plain_words(tmp_path: Path, monkeypatch) -> None:
    """The default seed sinks her in the storm with people aboard: it printed "0 in 0 rafts,
    4 in the water (0 life jackets handed out); 4 went down with her (R71)"."""
    from voyage.cli import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VOYAGE_DB", raising=False)
    out = CliRunner().invoke(cli, ["demo"], catch_exceptions=False).output
    assert (
        "Those who get out leave Iron Harpy at 1409: 4 in the water, no rafts, no life "
        "jackets; 4 went down with her (R71)."
    ) in out
    assert "0 in 0 rafts" not in out
