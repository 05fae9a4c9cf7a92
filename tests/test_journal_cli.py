"""`voyage journal`: the campaign's story day by day, for players or the
referee, in Markdown, HTML or JSON; nothing in the campaign changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import db_contents, ok, refused

from voyage.outputs.chronicle import for_players


def test_ruling_codes_are_left_out_for_players() -> None:
    assert for_players("Stormy seas in 1309 (R60). She holds.") == "Stormy seas in 1309. She holds."
    assert for_players("Major storm (R60, 1 Disadvantage) in 1510.") == "Major storm in 1510."
    assert for_players("she capsized (storm: stormy seas)") == "she capsized (storm: stormy seas)"


def test_players_read_the_news_the_referee_reads_every_roll(runner, sailed: Path) -> None:
    before = db_contents(sailed)
    players = ok(runner, "journal", "--since", "day 1")
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    assert players.startswith("# Test: the journal") and "## Day 1" in players
    assert "Sea Witch sets sail from Gullhaven (0305)" in players  # ports named for players
    # routine checks that changed nothing are not news; the referee's journal has them all
    assert "The shallows are clear." not in players and "(R" not in players
    assert "The shallows are clear." in referee and "`coastal hazard: d6=" in referee
    data = json.loads(ok(runner, "journal", "--since", "day 1", "-f", "json"))
    entries = [e for day in data["days"] for e in day["entries"]]
    assert data["for"] == "players" and entries[0]["kind"] == "sail"
    assert all(e["rolls"] == [] for e in entries)
    assert db_contents(sailed) == before


def test_html_is_one_self_contained_page(runner, sailed: Path, tmp_path: Path) -> None:
    out = tmp_path / "session.html"
    assert "Wrote" in ok(runner, "journal", "--since", "day 1", "-f", "html", "--out", str(out))
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<h2>Day 1</h2>" in page
    assert "<script" not in page and "http" not in page.split("<body>")[1]


def test_bad_times_are_refused_in_one_line(runner, sailed: Path, tmp_path: Path) -> None:
    assert "--since 'yesterday'" in refused(runner, "journal", "--since", "yesterday")
    assert "--until must come after --since" in refused(
        runner, "journal", "--since", "day 2", "--until", "day 1"
    )
    assert "does not exist" in refused(runner, "journal", "--out", str(tmp_path / "no" / "j.md"))
    # a --since still to come, with no --until given: named as such (it blamed "--until")
    assert refused(runner, "journal", "--since", "day 9").strip() == (
        "Error: --since 'day 9' has not come yet (it is now Day 2, 06:00): give an earlier --since"
    )


def test_the_journal_runs_to_now_not_an_hour_past(runner, sailed: Path) -> None:
    # the clock reads Day 2, 06:00 after 30 hours: the header said "to Day 2, 07:00"
    ok(runner, "pace", "Sea Witch", "slow")  # an action at the clock, after the advance
    players = ok(runner, "journal", "--since", "day 1")
    assert "*Day 1, 00:00 to Day 2, 06:00*" in players
    assert "06:00" in players.split("## Day 2")[1] and "slow" in players.split("## Day 2")[1]
    data = json.loads(ok(runner, "journal", "--since", "day 1", "-f", "json"))
    assert data["until"] == 30
    # from now to now: what the referee did this hour, not a refusal
    assert "slow" in ok(runner, "journal", "--since", "+0h")


def test_players_do_not_read_the_drowning_dice() -> None:
    # R72's schedule is the referee's ("drowned on 2", "rank 1"): players read who and what
    from voyage.rules.water import Schedule

    sched = Schedule("hour", 2, "keeping afloat").text("calm")
    text = (
        f"5 crew of Sea Witch (swimmers rank 1, no jackets, keeping afloat) in calm seas at "
        f"0706: {sched}; 2 drown (Day 1, 09:59, Day 1, 09:59) (R72)."
    )
    assert for_players(text) == (
        "5 crew of Sea Witch in calm seas at 0706; 2 drown (Day 1, 09:59, Day 1, 09:59)."
    )
    routine = (
        "6 drowning rolls at 0706, nobody drowns (R72): 6 crew of Sea Witch (swimmers "
        f"rank 1, no jackets, keeping afloat) in calm seas at 0706: {sched}."
    )
    # the rolls that drowned nobody are routine (never told players: players_line); were
    # they told, their words are all dice
    assert for_players(routine) == ""
    worse = Schedule("minute", 6, "").text("hurricane")
    assert for_players(
        f"Anna Roe (non-swimmer, no jacket) in a hurricane at 1409: {worse}; "
        "she drowns (Day 2, 03:12) (R72)."
    ) == ("Anna Roe in a hurricane at 1409; she drowns (Day 2, 03:12).")


def test_players_do_not_read_a_leviathans_figures(book) -> None:
    # R54, R93: "a Great White Whale (speed 6, Tier VIII, attacks as an Explosion 0/2/4 yd
    # +3)" is the referee's stat block; players read the beast and what it looks like
    from voyage.world.encounters import leviathan_text

    beasts = [book.leviathan(key) for key in book.leviathans["leviathans"]]
    assert len(beasts) >= 3
    for beast in beasts:
        text = f"Encounter at 0405 (leviathan): {leviathan_text(beast)}"
        assert "Tier" in text and "attacks as" in text  # the referee's log keeps them
        shown = for_players(text)
        assert shown.startswith(f"Encounter at 0405 (leviathan): a {beast['name']}")
        assert "Tier" not in shown and "attacks as" not in shown and "speed" not in shown
        assert beast["note"] in shown
        assert shown.endswith(".") and ".." not in shown and " ." not in shown


@pytest.mark.encounters
def test_the_demos_whale_is_met_without_its_figures(tmp_path: Path) -> None:
    from test_demo import demo

    assert demo(["--seed", "20260612"], tmp_path).exit_code == 0  # type: ignore[attr-defined]
    log = (tmp_path / "voyage-demo" / "demo-seed-20260612.md").read_text(encoding="utf-8")
    assert "a Great White Whale. Rams from below" in log and "Tier VIII" not in log
