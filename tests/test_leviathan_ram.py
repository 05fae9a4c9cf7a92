"""Ramming a leviathan (R91, R54, R35): the ship rolls her own R35 at the collision's
relative speed; the beast, a ship only for movement (R54), rolls none - it used to roll the
ship's hull roll as if it had a hull. A leviathan that does not move is rammed head-on at
the rammer's speed and stops her (R91)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from conftest import db_contents, fight_scene, ok


def _rams(runner: CliRunner, *args: str) -> dict:
    return json.loads(ok(runner, "encounter", "ram", *args, "--json"))


def _events(db: Path) -> list[tuple[str | None, str, str, str]]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT ship, kind, text, rolls FROM events ORDER BY id").fetchall()


def test_a_moving_leviathan_is_rammed_as_a_ship_moves_but_rolls_no_r35(
    runner: CliRunner, db: Path
) -> None:
    fight_scene(runner)
    ok(runner, "encounter", "start", "Sea Witch", "--leviathan", "kraken")
    ok(runner, "encounter", "round")
    speed = json.loads(ok(runner, "encounter", "status", "--json"))
    witch = next(f for f in speed["sides"] if f["name"] == "Sea Witch")["speed"]
    data = _rams(runner, "Sea Witch", "kraken", "--kind", "head-on")
    # R91 as between ships: head-on, the sum of both speeds (the Kraken makes 4 knots)
    assert data["relative_speed"] == witch + 4
    text = data["text"]
    # her own R35 (the d12 over the relative speed), told from her side
    assert re.search(r"Sea Witch rams Kraken (?:and is hit by|without damage)", text), text
    assert (
        f"The Kraken is struck by Sea Witch at relative speed {witch + 4} (R91): a "
        "leviathan is a ship only for movement (R54), so it makes no ramming roll (R35); "
        "the referee rules its harm."
    ) in text
    assert "Kraken: The ship" not in text and "The Kraken rams Sea Witch" not in text
    rolls = [e for e in _events(db) if e[1] == "ram"]
    beast = [e for e in rolls if e[0] is None and "struck by" in e[2]]
    assert len(beast) == 1  # logged once, with no ship: a beast has no voyage
    kraken = next(
        f
        for f in json.loads(ok(runner, "encounter", "status", "--json"))["sides"]
        if f["name"] == "Kraken"
    )
    assert kraken["damage"] == [
        f"rammed by Sea Witch at relative speed {witch + 4} (R91): the referee rules its harm (R54)"
    ]


def test_only_the_ship_rolls_dice_in_a_ram_on_a_leviathan(runner: CliRunner, db: Path) -> None:
    # the ship's R35 is one die (d12; a hull hit only on a failure); the beast rolls none
    fight_scene(runner)
    ok(runner, "encounter", "start", "Sea Witch", "--leviathan", "great-whale")
    ok(runner, "encounter", "round", "--move", "Sea Witch=0")  # she lies still: rel 6
    data = _rams(runner, "great-whale", "Sea Witch", "--kind", "shunt")
    assert data["relative_speed"] == 6
    assert "The Great White Whale strikes Sea Witch at relative speed 6 (R91): a" in data["text"]
    rolled = [json.loads(e[3]) for e in _events(db) if e[1] == "ram"]
    labels = [r["label"] for rolls in rolled for r in rolls]
    assert "ramming Great White Whale" in labels  # Sea Witch's R35, her d12
    assert "ramming Sea Witch" not in labels  # the beast rolled none (it used to)


def test_a_still_leviathan_is_rammed_head_on_at_her_speed_and_stops_her(
    runner: CliRunner, db: Path
) -> None:
    fight_scene(runner)
    ok(runner, "encounter", "start", "Sea Witch", "--leviathan", "kraken")
    ok(runner, "encounter", "round", "--move", "Kraken=0")
    status = json.loads(ok(runner, "encounter", "status", "--json"))
    witch = next(f for f in status["sides"] if f["name"] == "Sea Witch")["speed"]
    assert witch > 0
    before = db_contents(db)
    data = _rams(runner, "Sea Witch", "Kraken", "--kind", "t-bone")  # named a T-bone
    assert data["relative_speed"] == witch and data["speeds_after"] == [0, 0]
    assert data["text"].startswith(
        f"Sea Witch rams the Kraken, which is not moving: head-on at her own {witch} knots, "
        "and she stops (R91)."
    )
    ok(runner, "undo")
    assert db_contents(db) == before
