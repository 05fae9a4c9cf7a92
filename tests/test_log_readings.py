"""What a referee and players read in the log and its exports: the minute a voyage ended,
events after the last advance in the CSV, a ship's own voyage count, and dates written
without their year."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok, refused, trawler_at

from voyage.actions.weather import WeatherError, parse_when
from voyage.base.voyagenames import ordinal, voyage_name
from voyage.tables.calendar import calendar_definition, parse_start


def test_the_day_line_says_the_minute_she_sank_not_the_end_of_that_hour(
    runner, eight_hours_out: Path, tmp_path: Path
) -> None:
    # R40, R52: she goes under at a minute inside the hour; the day line said "sunk at
    # Day 1, 09:00" (the end of the hour row) when the log says she sank at 08:29
    ok(runner, "roll", "sinking", "Sea Witch", "--apply")
    ok(runner, "advance", "--hours", "1")
    out = tmp_path / "sw.md"
    ok(runner, "export", "Sea Witch", "-f", "md", "--out", str(out))
    text = out.read_text()
    sank = re.search(r"sank in hex \d+ on (Day 1, \d\d:\d\d)", text)
    assert sank is not None, text
    assert not sank.group(1).endswith(":00"), sank.group(1)  # a minute inside the hour
    day_line = next(line for line in text.splitlines() if " at sea, " in line)
    assert day_line.endswith(f"sunk at {sank.group(1)}."), day_line


def test_a_day_line_of_a_ship_still_at_sea_says_the_end_of_its_hour(
    runner, eight_hours_out: Path, tmp_path: Path
) -> None:
    out = tmp_path / "sw.md"
    ok(runner, "export", "Sea Witch", "-f", "md", "--out", str(out))
    assert "under way at Day 1, 08:00." in out.read_text()


def test_the_csv_holds_a_referees_act_after_the_last_advance(
    runner, eight_hours_out: Path, tmp_path: Path
) -> None:
    # the jettison is logged at 08:00, an hour no advance has written yet: it was missing
    # from the CSV until the next advance, though the Markdown and JSON had it
    ok(runner, "act", "Sea Witch", "jettison", "10")
    out = tmp_path / "sw.csv"
    ok(runner, "export", "Sea Witch", "-f", "csv", "--out", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    last = rows[-1]
    assert last["clock"] == "8" and last["time"] == "Day 1, 08:00", last
    assert "throws 10 hlbs of cargo overboard" in last["event_text"], last
    assert last["events"] == "1" and last["hex"] and last["status"] == "", last
    # the next advance writes that hour: the act joins its row, no row twice
    ok(runner, "advance", "--hours", "1")
    ok(runner, "export", "Sea Witch", "-f", "csv", "--out", str(out), "--force")
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    eight = [r for r in rows if r["clock"] == "8"]
    assert len(eight) == 1 and eight[0]["status"], eight
    assert "overboard" in eight[0]["event_text"]
    # for players too (a jettison is news)
    ok(runner, "act", "Sea Witch", "jettison", "5")
    ok(runner, "export", "Sea Witch", "-f", "csv", "--for", "players", "--out", str(out), "--force")
    assert "overboard" in list(csv.DictReader(io.StringIO(out.read_text())))[-1]["event_text"]


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
    ]
    assert voyage_name(1, 1) == "voyage 1"
    assert voyage_name(3, 2) == "voyage 3 (her 2nd)"


def test_a_voyage_is_named_with_the_ships_own_count_beside_the_campaigns_id(
    runner, db: Path, tmp_path: Path
) -> None:
    # voyage ids count across the campaign: the Tug's first voyage is voyage 2, and a
    # referee reading "voyage 2" took it for her second (voyage.base.voyagenames)
    trawler_at(runner, "0305", tier="4", engine="3", crew=6, fuel=40, cargo=100)
    trawler_at(runner, "0305", name="Tug", tier="4", engine="3", crew=6, fuel=40, cargo=100)
    assert "- voyage 1." in ok(runner, "sail", "Sea Witch", "--to", "2812")
    assert "- voyage 2 (her 1st)." in ok(runner, "sail", "Tug", "--to", "2812")
    ok(runner, "advance", "--hours", "6")
    out = tmp_path / "tug.md"
    said = ok(runner, "export", "Tug", "-f", "md", "--out", str(out))
    assert "Tug, voyage 2 (her 1st)." in said
    assert out.read_text().startswith("# Log of the Tug: voyage 2 (her 1st)\n")
    # the id is still what a command takes
    assert "Tug, voyage 2 (her 1st)." in ok(
        runner, "export", "Tug", "--voyage", "2", "-f", "csv", "--out", str(tmp_path / "t.csv")
    )
    from voyage.store.campaign import open_campaign
    from voyage.store.voyagelog import voyage_tracks

    camp = open_campaign(db)
    try:
        labels = [label for label, _ in voyage_tracks(camp, "all")]
    finally:
        camp.close()
    assert labels == ["voyage 1 of Sea Witch", "voyage 2 of Tug (her 1st)"]


@pytest.fixture
def june(book):
    return parse_start(calendar_definition(book, "gregorian"), "1492-06-01")


def test_a_date_without_a_year_is_in_the_campaigns_current_year(june) -> None:
    now = 30 * 24  # 1 Jul 1492
    assert parse_when("3 Jun", now, june) == parse_when("3 Jun 1492", now, june) == 2 * 24
    assert parse_when("3rd of June, 14:00", now, june) == 2 * 24 + 14
    # a year on, "3 Jun" is that year's
    later = 400 * 24
    assert parse_when("3 Jun", later, june) == parse_when("3 Jun 1493", later, june)


def test_a_date_without_a_year_before_the_campaign_began_names_the_fix(june) -> None:
    with pytest.raises(WeatherError, match=r"--since '1 May'.*give the year, e\.g\. '1 May 1493'"):
        parse_when("1 May", 0, june, option="--since")


def test_the_cli_reads_a_date_without_a_year(runner: CliRunner, tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    ok(runner, "--db", db, "init", "--name", "T", "--seed", "7", "--start", "1492-06-01")
    ok(runner, "--db", db, "map", "load", "salt_reach")
    with_year = ok(runner, "--db", db, "weather", "show", "--at", "3 Jun 1492, 14:00")
    assert ok(runner, "--db", db, "weather", "show", "--at", "3 Jun, 14:00") == with_year
    ok(runner, "--db", db, "journal", "--since", "1 Jun", "--until", "2 Jun")
    assert "give the year" in refused(runner, "--db", db, "journal", "--since", "1 May")
