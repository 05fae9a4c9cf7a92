"""A whole evening exported for players, every format, read for the words of the rules: a
players' handout reads like a log a ship's master wrote (no dice, targets, rulings, the
referee's commands or tallies, no routine lines), while the referee's view of the same
evening keeps every roll (R4).

The evening (seed 7, the Salt Reach, encounter checks off): the warship Red Jack and the
trawler Grey Widow fight and Red Jack rams her amidships; Red Jack's crew work on her leak
and leave her bilge pump on; Grey Widow is abandoned with too few raft seats and jackets;
the freighter Kittiwake searches, picks everyone up and tows the wreck home; Red Jack
sails into a placed storm, capsizes and sinks, and her crew drown hour by hour; the built
cruiser Guppy, bilge pump and all, lies in port the whole evening."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import fight_and_ram, ok

#: What players never read, with what it catches.
MECHANICS: dict[str, re.Pattern[str]] = {
    "dice": re.compile(r"\b\d*d\d+\b"),
    "a target": re.compile(r"\b\d+\+"),
    "a roll": re.compile(r"\brolls?\b", re.I),
    "a ruling": re.compile(r"\bR\d{1,3}\b"),
    "a DV": re.compile(r"\bDV\b"),
    "Disadvantages": re.compile(r"\bDisadvantages?\b", re.I),
    "a Check": re.compile(r"\bCheck\b"),
    "the leak work's schedule": re.compile(r"every 10 minutes"),
    "the voyage clock": re.compile(r"voyage clock"),
    "a rule's fraction": re.compile(r"\bDW/\d"),
    "a command": re.compile(r"`voyage|`act |`pumps "),
    "an Explosion's figures": re.compile(r"modifier of|lethal zone|relative speed|\d+/\d+/\d+ yd"),
    "idle pumps": re.compile(r"bail out nothing"),
    "the pumps' dry-hour tally": re.compile(r"run dry|dry hours?\b"),
    "a drowning tally": re.compile(r"nobody drowns|drowned on \d"),
    "a tow's weight": re.compile(r"tow weighs|counted in [\w ]+'s Load"),
    "where to anchor instead": re.compile(r"anchor in a coastal|anchor near a coast"),
}
SHIPS = ("Red Jack", "Grey Widow", "Kittiwake")


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The evening's campaign file and everything its advances printed."""
    path = tmp_path_factory.mktemp("words") / "campaign.db"
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    advanced: list[str] = []

    def run(*args: str) -> str:
        out = ok(runner, *args)
        if args[0] == "advance":
            advanced.append(out)
        return out

    run("init", "--name", "Evening", "--seed", "7")
    run("map", "load", "salt_reach")
    run("settings", "encounter_interval", "0")
    warship = ("--class", "warship", "--tier", "VII", "--engine", "IX")
    run("ship", "add", "Red Jack", *warship, "--weapon", "Artillery Cannon")
    trawler = ("--class", "trawler", "--tier", "IV", "--engine", "V", "--trait", "Well-armed")
    run("ship", "add", "Grey Widow", *trawler, "--weapon", "Heavy Machine Gun")
    run("ship", "add", "Kittiwake", "--class", "freighter", "--tier", "VIII", "--engine", "VIII")
    run("ship", "build", "Guppy", "--design", "Guppy")
    run("ship", "load", "Red Jack", "--crew", "12", "--fuel", "120", "--pumps", "1")
    run(
        "ship",
        "load",
        "Grey Widow",
        "--crew",
        "6",
        "--fuel",
        "80",
        "--jackets",
        "2",
        "--rafts",
        "1",
    )
    run("ship", "load", "Kittiwake", "--crew", "5", "--fuel", "80", "--rafts", "2")
    run("crew", "add", "Anna Roe", "--ship", "Grey Widow", "--swimming", "2")
    run("ship", "place", "Guppy", "0305")
    for name in SHIPS:
        run("ship", "place", name, "0305")
        run("sail", name, "--to", "2812")
    rammed = fight_and_ram(run)
    assert "Grey Widow is rammed by Red Jack" in rammed
    run("encounter", "end")
    run("act", "Red Jack", "repair", "leak", "1")
    run("act", "Red Jack", "pumps", "on")
    run("act", "Grey Widow", "abandon")
    run("act", "Kittiwake", "search")
    run("advance", "--hours", "1")
    run("act", "Kittiwake", "tow", "Grey Widow")
    run("act", "Kittiwake", "course", "--to", "Gullhaven")
    for _ in range(4):  # each advance may stop at an arrival, a ship lost, people drowned
        run("advance", "--hours", "6")
    return path, "\n".join(advanced)


def _handouts(path: Path, folder: Path, ship: str, audience: str) -> dict[str, str]:
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    stem = folder / f"{ship.replace(' ', '-').lower()}-{audience}"
    flags = [x for f in ("md", "html", "csv", "json") for x in ("-f", f)]
    ok(runner, "export", ship, *flags, "--for", audience, "--out", str(stem), "--force")
    return {
        f: stem.with_suffix(f".{f}").read_text(encoding="utf-8")
        for f in ("md", "html", "csv", "json")
    }


def _told(texts: dict[str, str]) -> list[str]:
    """Every line a players' handout tells (the ship's card above the summary is her
    figures, not the evening's story)."""
    lines = texts["md"].split("## Summary")[1].splitlines()
    html = re.sub(r"<img [^>]*>|data:image/[^\"']*", "", texts["html"].split("Summary")[-1])
    lines += re.sub(r"<[^>]+>", "\n", html).splitlines()
    lines += [r["event_text"] for r in csv.DictReader(io.StringIO(texts["csv"]))]
    lines += [e["text"] for e in json.loads(texts["json"])["events"]]
    return [line for line in lines if line.strip()]


def _mechanics(line: str) -> list[str]:
    return [what for what, pattern in MECHANICS.items() if pattern.search(line)]


def test_the_players_handouts_of_the_evening_tell_no_mechanics(evening, tmp_path: Path) -> None:
    path, _ = evening
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    lines = [line for ship in SHIPS for line in _told(_handouts(path, tmp_path, ship, "players"))]
    lines += ok(runner, "journal", "--since", "day 1").splitlines()
    ok(runner, "journal", "--since", "day 1", "-f", "html", "--out", str(tmp_path / "j.html"))
    html = (tmp_path / "j.html").read_text(encoding="utf-8")
    lines += re.sub(r"<[^>]+>", "\n", html.split("<body", 1)[1]).splitlines()
    found = [(line, _mechanics(line)) for line in lines if _mechanics(line)]
    assert not found, found[:5]
    told = "\n".join(lines)
    # the story is all there, in the master's words
    assert "Red Jack rams Grey Widow amidships" in told
    assert "The crew of Red Jack set to work on leak 1 (8 hlbs an hour)." in told
    assert "Red Jack's bilge pump is switched on and left on." in told
    assert "All hands abandon Grey Widow" in told and "drowns" in told
    assert "Kittiwake takes Grey Widow in tow at 0405." in told


def test_the_referees_view_of_the_same_evening_keeps_every_roll(evening, tmp_path: Path) -> None:
    path, _ = evening
    told = "\n".join(
        "\n".join(_handouts(path, tmp_path, ship, "referee").values()) for ship in SHIPS
    )
    told += ok(
        CliRunner(env={"VOYAGE_DB": str(path)}), "journal", "--since", "day 1", "--for", "referee"
    )
    for kept in (
        "2d6 every 10 minutes, 8+ stops it (R86)",
        "The bilge pumps run dry (1 dry hour in all; R85)",
        "d12=",
        "d20=",
        "(R91)",
        "drowned on 2-3 in stormy seas",
        "capsize check",
    ):
        assert kept in told, kept


def test_advance_tells_no_routine_lines(evening) -> None:
    _, advanced = evening
    assert "bail out nothing" not in advanced
    assert "Guppy" not in advanced  # in port all evening: no pump line an hour for her
    # a dry hour of pumps left on is the referee's to count, in the advance as in the log
    assert "Red Jack: The bilge pumps run dry (1 dry hour in all; R85)" in advanced
    # a line that names its ship has no name before it ("Red Jack: Everyone gets out of
    # Red Jack"), as in the journal
    assert ":10  Everyone gets out of Red Jack at 0806" in advanced
    assert "Red Jack: Everyone" not in advanced


def test_the_journal_names_each_ship_once_in_bold_where_the_line_does_not(evening) -> None:
    path, _ = evening
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    players = ok(runner, "journal", "--since", "day 1")
    # the fight's opening names both ships: told once, as it stands
    assert players.count("A fight begins at 0405") == 1
    assert "- 02:00 A fight begins at 0405 at 400 yards: Red Jack, Grey Widow." in players
    assert "**Grey Widow**: All hands abandon Grey Widow" not in players
    assert "- 02:00 All hands abandon Grey Widow" in players
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    # a line that does not name her has her name in bold before it, in every journal
    assert "**Red Jack**: The ship rams Grey Widow" in referee
    assert "**Grey Widow**: The ship is rammed by Red Jack" in referee
    assert referee.count("A fight begins at 0405") == 1
    hers = ok(runner, "journal", "--since", "day 1", "--ship", "Grey Widow")
    assert "Red Jack rams Grey Widow amidships" in hers  # what another did to her


def test_a_built_boats_card_for_players_cites_no_rulings(runner: CliRunner, reach: Path) -> None:
    ok(runner, "ship", "build", "Moray", "--design", "Moray")
    ok(runner, "ship", "place", "Moray", "0305")
    ok(runner, "sail", "Moray", "--to", "2812")
    ok(runner, "advance", "--hours", "1")
    players = ok(runner, "export", "Moray", "-f", "md", "--out", "-")
    card = players.split("## The ship")[1].split("## Summary")[0]
    assert "power units a hex;" in card and "Tier " in card  # her figures, all of them
    assert not MECHANICS["a ruling"].search(card), card
    referee = ok(runner, "export", "Moray", "-f", "md", "--for", "referee", "--out", "-")
    assert "(R82)" in referee.split("## Summary")[0]


def test_a_ship_that_cannot_anchor_is_told_so_without_the_referees_advice(
    runner: CliRunner, reach: Path
) -> None:
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "V")
    ok(runner, "ship", "load", "Gull", "--crew", "5", "--fuel", "40")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "0505")
    ok(runner, "advance", "--hours", "4")
    players = ok(runner, "journal", "--since", "day 1")
    assert "Gull arrives at 0505 but cannot anchor there" in players
    assert "an anchor reaches no bottom. She lies adrift" in players
    assert not MECHANICS["where to anchor instead"].search(players), players
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    assert "anchor in a coastal or shallow hex" in referee
