"""An evening at the table read as the players read it: a fight, a T-bone ram, a leak set to
work, abandoning ship, a rescue and a storm, then every players' handout (the Markdown, HTML,
CSV and JSON exports and the journal) read whole. Players read who did what to whom, told
from the right side, with no dice, rulings or routine lines; the referee's view keeps every
roll (R4)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fight_and_ram, ok

#: What players must not read: dice ("2d6", "d20="), a target ("8+"), a roll, a ruling.
MECHANICS = re.compile(r"\b\d*d\d+\b|\b\d+\+|\broll|\bR\d+\b|\bDV\b|Disadvantage", re.I)
SHIPS = ("Red Jack", "Grey Widow", "Old Faithful")


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The evening's campaign (seed 3, the Salt Reach, encounter checks off)."""
    path = tmp_path_factory.mktemp("evening") / "campaign.db"
    runner = CliRunner(env={"VOYAGE_DB": str(path)})

    def run(*args: str) -> str:
        return ok(runner, *args)

    run("init", "--name", "Evening", "--seed", "3")
    run("map", "load", "salt_reach")
    run("settings", "encounter_interval", "0")
    warship = ("--class", "warship", "--tier", "VII", "--engine", "IX")
    run("ship", "add", "Red Jack", *warship, "--weapon", "Artillery Cannon")
    trawler = ("--class", "trawler", "--tier", "IV", "--engine", "V", "--trait", "Well-armed")
    run("ship", "add", "Grey Widow", *trawler, "--weapon", "Heavy Machine Gun")
    run("ship", "add", "Old Faithful", "--class", "whaler", "--tier", "V", "--engine", "VII")
    run("ship", "load", "Red Jack", "--crew", "12", "--fuel", "120")
    run("ship", "load", "Grey Widow", "--crew", "6", "--fuel", "80", "--cargo", "100")
    run("ship", "load", "Old Faithful", "--crew", "8", "--fuel", "120")
    for name in SHIPS:
        run("ship", "place", name, "0305")
        run("sail", name, "--to", "2812")
    rammed = fight_and_ram(run)
    assert "Grey Widow is rammed by Red Jack" in rammed, rammed
    assert "Grey Widow: The ship rams" not in rammed and "The ship rams Red Jack" not in rammed
    run("encounter", "end")
    run("act", "Red Jack", "repair", "leak", "1")
    run("act", "Grey Widow", "abandon")
    run("act", "Old Faithful", "rescue", "--all")
    for _ in range(4):  # each advance may stop at a ship lost or people drowned
        run("advance", "--hours", "6")
    stormy = ok(runner, "export", "Old Faithful", "--for", "referee", "--out", "-")
    assert "Stormy seas in 0706" in stormy  # the storm met her
    return path


def _exports(evening: Path, folder: Path, ship: str, *args: str) -> dict[str, str]:
    runner = CliRunner(env={"VOYAGE_DB": str(evening)})
    stem = folder / ship.replace(" ", "-").lower()
    formats = ("md", "html", "csv", "json")
    flags = [x for f in formats for x in ("-f", f)]
    ok(runner, "export", ship, *flags, "--out", str(stem), "--force", *args)
    return {f: stem.with_suffix(f".{f}").read_text(encoding="utf-8") for f in formats}


def _players_words(texts: dict[str, str]) -> list[str]:
    """Every line of the players' handouts that tells something (the ship's card and the
    summary's figures are the ship's, not the rulings')."""
    lines = texts["md"].split("## Summary")[1].splitlines()
    lines += [r["event_text"] for r in csv.DictReader(io.StringIO(texts["csv"]))]
    lines += [e["text"] for e in json.loads(texts["json"])["events"]]
    return [line for line in lines if line.strip()]


def test_every_players_handout_reads_as_a_masters_log(evening: Path, tmp_path: Path) -> None:
    told = {ship: _exports(evening, tmp_path, ship, "--for", "players") for ship in SHIPS}
    journal = ok(CliRunner(env={"VOYAGE_DB": str(evening)}), "journal", "--since", "day 1")
    for ship, texts in told.items():
        for line in [*_players_words(texts), *journal.splitlines()]:
            assert not MECHANICS.search(line), (ship, line)
            assert "bail out nothing" not in line, (ship, line)
            assert "nobody drowns" not in line, (ship, line)
        assert "<details>" not in texts["html"] and "d20=" not in texts["html"]
    # the ram from each side: Red Jack rams, Grey Widow is rammed (never "Grey Widow rams")
    for text in (told["Red Jack"]["md"], told["Grey Widow"]["md"], journal):
        assert "Red Jack rams Grey Widow amidships" in text
        assert "Grey Widow rams" not in text
        assert "Grey Widow takes the shock of Red Jack's ram" in text
        assert "Red Jack takes the shock of her ram on Grey Widow" in text
    # the leak set to work, without its dice
    assert "set to work on leak 1" in told["Red Jack"]["md"]
    assert "2d6 every 10 minutes" not in told["Red Jack"]["md"]
    # the abandon (its water to come, no rulings' fractions) and the rescue
    assert "All hands abandon Grey Widow" in told["Grey Widow"]["md"]
    assert "DW/4" not in told["Grey Widow"]["md"]
    assert "Old Faithful picks them up" in told["Old Faithful"]["md"]


def test_the_referees_view_keeps_every_roll(evening: Path, tmp_path: Path) -> None:
    texts = _exports(evening, tmp_path, "Red Jack", "--for", "referee")
    assert "d12=" in texts["md"] and "(R91)" in texts["md"]
    assert "2d6 every 10 minutes, 8+ stops it (R86)" in texts["md"]
    assert any(e["rolls"] for e in json.loads(texts["json"])["events"])


def test_a_ships_journal_tells_what_others_did_to_her(evening: Path) -> None:
    runner = CliRunner(env={"VOYAGE_DB": str(evening)})
    hers = ok(runner, "journal", "--since", "day 1", "--ship", "Grey Widow")
    assert "Red Jack rams Grey Widow amidships" in hers
    assert "Red Jack fires at Grey Widow" in hers
    referee = ok(runner, "journal", "--since", "day 1", "--ship", "Grey Widow", "--for", "referee")
    assert "Red Jack rams Grey Widow t-bone" in referee and "(R91)" in referee


def test_one_format_named_without_a_suffix_gets_its_own(evening: Path, tmp_path: Path) -> None:
    runner = CliRunner(env={"VOYAGE_DB": str(evening)})
    said = ok(runner, "export", "Red Jack", "-f", "md", "--out", str(tmp_path / "handout"))
    assert (tmp_path / "handout.md").is_file() and not (tmp_path / "handout").exists()
    assert "handout.md (md)" in said
    ok(runner, "export", "Red Jack", "-f", "csv", "--out", str(tmp_path / "hours"))
    assert (tmp_path / "hours.csv").read_text(encoding="utf-8").startswith("voyage,ship,")


def test_encounter_status_lists_the_damage_in_wrapped_lines(evening: Path) -> None:
    runner = CliRunner(env={"VOYAGE_DB": str(evening)})
    shown = ok(runner, "encounter", "status", "--fight", "1")
    assert "Damage so far:" in shown and "    - The hull is holed" in shown
    assert max(len(line) for line in shown.splitlines()) <= 100, shown
