"""A ship met at sea (R93) as the players read of it: sighted, her class and name, not her
disposition (hostile, wary, friendly: the referee's roll of how she will behave, which the
players learn by play). The referee's log, journal and JSON keep the roll's words."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok, trawler_at

from voyage.outputs.chronicle import event_for_players, ship_met_for_players
from voyage.tables.rulebook import load_rulebook

DISPOSITIONS = sorted({value for _, _, value in load_rulebook().encounters["dispositions"]})


@pytest.fixture
def met(runner: CliRunner, db: Path) -> dict:
    """The Sea Witch in Gullhaven's hex (0305) meets a ship (seed 7: the first check's)."""
    trawler_at(runner, "0305", crew=5, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    found = json.loads(ok(runner, "encounter", "check", "Sea Witch", "--sure", "--json"))
    assert found["text"].startswith("Encounter at 0305 (ship): ")
    return found


def _disposition(text: str) -> str:
    return text.rstrip(".").rsplit(", ", 1)[1]


def test_the_players_log_journal_and_csv_say_a_ship_was_sighted(
    runner: CliRunner, met: dict, tmp_path: Path
) -> None:
    referee_words = met["text"]  # "Encounter at 0305 (ship): a fishing trawler, the X, wary."
    disposition = _disposition(referee_words)
    assert disposition in DISPOSITIONS
    ship = referee_words.split(": ", 1)[1].rsplit(", ", 1)[0]  # "a fishing trawler, the X"
    players_words = f"A ship sighted at Gullhaven (0305): {ship}."
    md = tmp_path / "players.md"
    ok(runner, "export", "Sea Witch", "-f", "md", "-f", "csv", "--out", str(md.with_suffix("")))
    journal = ok(runner, "journal", "--for", "players")
    rows = list(csv.DictReader(io.StringIO(md.with_suffix(".csv").read_text())))
    csv_words = " ".join(r["event_text"] for r in rows)
    for told in (md.read_text(), journal, csv_words):
        assert players_words in told
        assert not any(word in told for word in DISPOSITIONS), told
        assert "(ship)" not in told


def test_the_referees_log_and_journal_keep_the_disposition(
    runner: CliRunner, met: dict, tmp_path: Path
) -> None:
    md = tmp_path / "referee.md"
    ok(
        runner,
        "export",
        "Sea Witch",
        "-f",
        "md",
        "-f",
        "json",
        "--for",
        "referee",
        "--out",
        str(md.with_suffix("")),
    )
    exported = json.loads(md.with_suffix(".json").read_text())
    stored = [e for e in exported["events"] if e["kind"] == "encounter"]
    assert [e["text"] for e in stored] == [met["text"]]
    assert stored[0]["changes"]["encounter"]["disposition"] == _disposition(met["text"])
    assert met["text"] in ok(runner, "journal", "--for", "referee")
    assert met["text"] in md.read_text().replace("\\", "")  # Markdown escapes, same words
    assert met["text"] in ok(runner, "log", "Sea Witch")


@pytest.mark.parametrize("disposition", DISPOSITIONS)
def test_every_disposition_is_left_to_the_referee(disposition: str) -> None:
    found = {
        "kind": "ship",
        "hex": "1409",
        "terrain": "open sea",
        "ship_class": "Whaler",
        "name": "Grey Anchor",
        "disposition": disposition,
        "text": f"a whaler, the Grey Anchor, {disposition}. She flies no colours.",
    }
    event = {
        "kind": "encounter",
        "text": f"Encounter at 1409 (ship): {found['text']}",
        "changes": json.dumps({"encounter": found}),
    }
    assert event_for_players(event) == (
        "A ship sighted at 1409: a whaler, the Grey Anchor. She flies no colours."
    )
    # a port's hex is named as the players' share names it
    assert event_for_players(
        {**event, "changes": {"encounter": {**found, "hex": "2812"}}}, {"2812": "Ironport"}
    ).startswith("A ship sighted at Ironport (2812): a whaler")


def test_other_finds_and_unknown_words_are_told_as_before() -> None:
    sight = {"kind": "sight", "hex": "1409", "text": "A waterspout walks across the horizon."}
    event = {
        "kind": "encounter",
        "changes": {"encounter": sight},
        "text": "Encounter at 1409 (sight): A waterspout walks across the horizon.",
    }
    assert ship_met_for_players(sight) is None
    assert event_for_players(event) == event["text"]
    # a text voyage.world.encounters did not write (no ", <disposition>."): told as stored
    odd = {"kind": "ship", "hex": "1409", "disposition": "wary", "text": "a brig."}
    assert ship_met_for_players(odd) is None


def test_castaways_met_are_people_in_the_water_not_the_referees_commands(
    runner: CliRunner, db: Path
) -> None:
    # voyage.world.castaways tells the referee who they are and how to search or rescue them
    # (R74): "... (3 crew of Grey Gull, swimmers rank 1, jackets): `voyage act SHIP
    # search` or `rescue` (R74)." Players read that there are people in the water.
    trawler_at(runner, "0305", crew=5, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")  # open sea: castaways are on its table
    said = ""
    for _ in range(12):  # the campaign's dice, seed 7: castaways come within a few checks
        found = json.loads(ok(runner, "encounter", "check", "Sea Witch", "--sure", "--json"))
        if "(castaways)" in found["text"]:
            said = found["text"]
            break
    assert "`voyage act SHIP search`" in said
    journal = ok(runner, "journal", "--for", "players")
    assert "**Sea Witch**: Encounter at 0405 (castaways): 1 person in the water.\n" in journal
    assert "voyage act" not in journal and "swimmer" not in journal
    assert "`voyage act SHIP search` or `rescue`" in ok(runner, "journal", "--for", "referee")
