"""A fight between ships (R94): collisions (R91) exactly, a scripted fight replayed byte for
byte, undo of every encounter command, bad input refused with one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import FIGHT_SCRIPT, add_trawler, db_contents, fight_scene, ok, refused

from voyage.base.errors import VoyageRuleError
from voyage.rules.collisions import relative_speed, size_class, speeds_after

# -- R91 exactly ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "a", "b", "relative"),
    [
        ("head-on", 6, 9, 15),  # the sum
        ("t-bone", 6, 9, 6),  # the rammer's speed
        ("shunt", 6, 9, 3),  # the difference
        ("shunt", 9, 6, 3),
        ("sideswipe", 6, 9, 1),  # our reading: one point whatever the speeds
        ("sideswipe", 0, 0, 1),
        ("head-on", 0, 0, 0),
    ],
)
def test_relative_speed_by_kind(kind, a, b, relative):
    assert relative_speed(kind, a, b) == relative


@pytest.mark.parametrize(
    ("kind", "a", "tier_a", "b", "tier_b", "after"),
    [
        ("head-on", 6, 4, 9, 5, (3, 3)),  # same size class: the difference
        ("head-on", 9, 8, 5, 4, (6, 6)),  # target one class smaller: 5 - 2 = 3; 9 - 3
        ("head-on", 10, 2, 6, 8, (0, 0)),  # rammer two classes smaller: 10 - 4 = 6 vs 6
        ("head-on", 7, 5, 7, 6, (0, 0)),  # equal speeds stop both
        ("t-bone", 7, 4, 9, 7, (4, 9)),  # rammer halves, rounding up
        ("t-bone", 6, 4, 9, 7, (3, 9)),
        ("shunt", 9, 7, 5, 4, (5, 5)),  # the faster down to the slower
        ("shunt", 3, 7, 8, 4, (3, 3)),
        ("sideswipe", 9, 7, 5, 4, (9, 5)),  # no change
    ],
)
def test_speeds_after_by_kind(kind, a, tier_a, b, tier_b, after):
    assert speeds_after(kind, a, tier_a, b, tier_b) == after


def test_size_classes_and_a_bad_kind():
    assert [size_class(t) for t in range(1, 11)] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
    with pytest.raises(VoyageRuleError, match="unknown collision kind 'broadside'"):
        relative_speed("broadside", 3, 4)


# -- the fight at the table ----------------------------------------------------------------


def _events(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT ship, clock, minute, kind, text, rolls, changes FROM events ORDER BY id"
        ).fetchall()


def test_a_scripted_fight_replays_byte_for_byte(runner, tmp_path, monkeypatch):
    outputs = []
    for run in ("one", "two"):
        path = tmp_path / run / "campaign.db"
        path.parent.mkdir()
        monkeypatch.setenv("VOYAGE_DB", str(path))
        ok(runner, "init", "--name", "Fight", "--seed", "12")
        fight_scene(runner)
        texts = [ok(runner, *step) for step in FIGHT_SCRIPT]
        outputs.append((texts, _events(path), db_contents(path)["voyages"]))
    assert outputs[0] == outputs[1]
    texts, events, _ = outputs[0]
    kinds = [e[3] for e in events]
    assert "dodge" in kinds and "ram" in kinds and "fight round" in kinds
    story = " ".join(e[4] for e in events)
    assert "relative speed 13 (R91)" in story  # head-on: the Witch's 4 + the Harpy's 9
    # R91: the Witch (Tier IV) is one size class below the Harpy (VII): 4 - 2 = 2 against 9
    assert "Speeds after: Sea Witch 7, Iron Harpy 7 knots." in " ".join(texts)
    assert "the attack is dodged" in story and "Sea Witch is sinking" in story
    assert "fire" in kinds
    voyages = {row[1]: json.loads(row[-1]) for row in outputs[0][2]}
    witch = next(v for name, v in voyages.items() if name == "Sea Witch")
    assert witch["destroyed"] and witch["sinking_in"] is not None and len(witch["leaks"]) == 3


def test_every_encounter_command_is_undone_exactly(runner, harbour):
    for step in FIGHT_SCRIPT:
        before = db_contents(harbour)
        ok(runner, *step)
        ok(runner, "undo")
        assert db_contents(harbour) == before, step
        ok(runner, *step)


def test_a_hit_lands_in_the_voyage_as_roll_apply_does(runner, harbour):
    for step in FIGHT_SCRIPT[:2]:
        ok(runner, *step)
    out = json.loads(
        ok(
            runner,
            "encounter",
            "shoot",
            "Iron Harpy",
            "--at",
            "Sea Witch",
            "--weapon",
            "artillery",
            "--no-dodge",
            "--modifier",
            "30",
            "--json",
        )
    )
    leak = next(r for r in out["rolls"] if r["label"] == "hull leak")
    status = json.loads(ok(runner, "encounter", "status", "--json"))
    witch = next(s for s in status["sides"] if s["name"] == "Sea Witch")
    assert f"leaks {leak['total']}/h" in witch["state"] or leak["total"] <= 0
    with sqlite3.connect(harbour) as conn:
        state = json.loads(
            conn.execute("SELECT state FROM voyages WHERE ship = 'Sea Witch'").fetchone()[0]
        )
    assert state["leaks"] == ([leak["total"]] if leak["total"] > 0 else [])


@pytest.mark.parametrize(
    ("steps", "bad", "reason"),
    [
        (
            1,
            ("encounter", "shoot", "Iron Harpy", "--at", "Gull", "--weapon", "artillery"),
            "'Gull' is not in Iron Harpy's fight",
        ),
        (
            2,
            ("encounter", "shoot", "Sea Witch", "--at", "Iron Harpy", "--weapon", "artillery"),
            # "a Artillery Cannon", and no word of what she carries or how a ship is armed
            "Sea Witch does not carry an Artillery Cannon (her heavy weapons: Heavy Machine "
            "Gun; a ship is armed when made: `voyage ship add ... --weapon`)",
        ),
        (
            2,
            ("encounter", "shoot", "Sea Witch", "--at", "Iron Harpy", "--weapon", "trebuchet"),
            "unknown weapon 'trebuchet'",
        ),
        (
            2,
            ("encounter", "ram", "Sea Witch", "Iron Harpy", "--kind", "broadside"),
            "unknown collision kind",
        ),
        (1, ("encounter", "start", "Sea Witch", "Iron Harpy"), "already in fight 1"),
        (
            0,
            ("encounter", "start", "Sea Witch", "--leviathan", "mermaid"),
            "unknown leviathan 'mermaid'",
        ),
        (0, ("encounter", "round"), "no fight is under way"),
        (
            1,
            ("encounter", "shoot", "Iron Harpy", "--at", "Sea Witch", "--weapon", "artillery"),
            "no round has begun",
        ),
        (2, ("encounter", "attack", "Iron Harpy", "--at", "Sea Witch"), "is a ship"),
        (2, ("encounter", "round", "--move", "Gull=3"), "Gull is not in fight 1"),
        # R54: a leviathan joins with --leviathan; the refusal used to offer
        # `voyage encounter start 'Kraken' OTHER...`, as if it were a ship
        (
            0,
            ("encounter", "attack", "kraken", "--at", "Sea Witch"),
            "no Kraken is in a fight: a leviathan joins one with `voyage encounter start SHIP "
            "--leviathan kraken` (R54)",
        ),
        (
            0,
            ("encounter", "shoot", "Nobody", "--at", "Sea Witch", "--weapon", "hmg"),
            "no ship named 'Nobody'",
        ),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(runner, harbour, steps, bad, reason):
    for step in FIGHT_SCRIPT[:steps]:
        ok(runner, *step)
    before = db_contents(harbour)
    assert reason in refused(runner, *bad)
    assert db_contents(harbour) == before


def test_a_ram_between_ships_in_different_hexes_is_refused(runner, harbour, monkeypatch):
    for step in FIGHT_SCRIPT[:2]:
        ok(runner, *step)
    # a campaign from before an open fight held the clock (R94, voyage.actions.fightclock): an
    # advance ran with it open, and the Harpy (9 knots) left the Witch (6) behind
    with monkeypatch.context() as m:
        m.setattr("voyage.actions.voyages.refuse_while_fighting", lambda camp: None)
        ok(runner, "advance", "--hours", "4")
    before = db_contents(harbour)
    assert "a ram is in one hex" in refused(
        runner, "encounter", "ram", "Sea Witch", "Iron Harpy", "--kind", "shunt"
    )
    assert db_contents(harbour) == before


def test_a_leviathan_attacks_and_the_fight_ends_in_voyage_minutes(runner, harbour):
    ok(runner, "encounter", "start", "Sea Witch", "--leviathan", "kraken")
    for _ in range(7):
        ok(runner, "encounter", "round")
    out = json.loads(
        ok(
            runner,
            "encounter",
            "attack",
            "Kraken",
            "--at",
            "Sea Witch",
            "--zone",
            "secondary",
            "--json",
        )
    )
    assert "Explosion (2/5/10 yd, +4)" in out["text"]
    status = json.loads(ok(runner, "encounter", "status", "--json"))
    assert status["round"] == 7 and status["minute"] == 1  # six rounds a minute (R94)
    assert status["order"] == ["Kraken", "Sea Witch"]  # R90: slowest first (4 < 6 knots)
    ended = json.loads(ok(runner, "encounter", "end", "--json"))
    assert ended["status"] == "ended"


def test_a_leviathan_is_named_in_a_fight_as_it_joined_by_its_table_key(runner, harbour):
    # R54: `start --leviathan great-whale` brings in the Great White Whale; `attack
    # great-whale` and `ram SHIP great-whale` were refused with "no Great White Whale is in
    # a fight: a leviathan joins one with `... --leviathan great-whale`" while it was in one
    ok(runner, "encounter", "start", "Sea Witch", "--leviathan", "great-whale")
    ok(runner, "encounter", "round")
    out = json.loads(
        ok(runner, "encounter", "attack", "great-whale", "--at", "Sea Witch", "--json")
    )
    assert out["text"].startswith("The Great White Whale attacks Sea Witch")
    rammed = ok(runner, "encounter", "ram", "Sea Witch", "great-whale", "--kind", "t-bone")
    assert "Sea Witch rams Great White Whale t-bone" in rammed


def test_the_story_names_the_leviathan_that_attacks_and_the_one_rammed(runner, harbour, tmp_path):
    # R54: the log kept only "The ship swerves clear" for an attack (no attacker), and a
    # rammed beast's damage as "The ship rams Sea Witch" (no name: a beast has no voyage)
    ok(runner, "encounter", "start", "Sea Witch", "--leviathan", "kraken")
    ok(runner, "encounter", "round")
    ok(runner, "encounter", "attack", "kraken", "--at", "Sea Witch")
    ok(runner, "encounter", "ram", "Sea Witch", "kraken", "--kind", "head-on")
    out = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--out", str(out))
    fight = out.read_text().split("## The fight at", 1)[1]
    assert "The Kraken attacks Sea Witch" in fight, fight
    assert "The ship" not in fight and "she rams Sea Witch" not in fight, fight
    # R54, R91: the rammed beast rolls no R35 of its own (it used to: "The Kraken rams
    # Sea Witch"); the story names it, struck
    assert "The Kraken is struck by Sea Witch at relative speed" in fight, fight
    assert "The Kraken rams Sea Witch" not in fight, fight


def test_an_advance_with_a_fight_open_is_refused_naming_it(runner, harbour):
    # R94: an advance ran on with the fight open (its ships sailed off mid-fight, its rounds
    # still at the minute it began) and only a note on stderr said so; the clock is one for
    # every ship, so an open fight holds it: refused in one line, nothing changed
    ok(runner, "encounter", "start", "Iron Harpy", "Sea Witch")
    ok(runner, "encounter", "round")
    before = db_contents(harbour)
    for how in (("--until", "arrival"), ("--hours", "3"), ("--json",)):
        assert refused(runner, "advance", *how) == (
            "Error: fight 1 at 0305 (Iron Harpy and Sea Witch; round 1, begun Day 1, 00:00) is "
            "still open: the clock stands at its minute until it ends; `voyage encounter end` "
            "closes it, then advance (R94)\n"
        )
    assert db_contents(harbour) == before
    ok(runner, "encounter", "end")
    assert "Advanced 1 hour to Day 1, 01:00." in ok(runner, "advance")


def test_two_open_fights_are_both_named(runner, harbour):
    add_trawler(runner, "0305", "Gull", crew=5, fuel=60)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "encounter", "start", "Iron Harpy", "Sea Witch")
    ok(runner, "encounter", "start", "Gull", "--leviathan", "kraken")
    assert refused(runner, "advance") == (
        "Error: fight 1 at 0305 (Iron Harpy and Sea Witch; no round yet, begun Day 1, 00:00) "
        "and fight 2 at 0305 (Gull and Kraken; no round yet, begun Day 1, 00:00) are still "
        "open: the clock stands at their minutes until they end; `voyage encounter end "
        "--fight N` closes each, then advance (R94)\n"
    )
    ok(runner, "encounter", "end", "--fight", "1")
    assert "fight 2 at 0305 (Gull and Kraken" in refused(runner, "advance")
