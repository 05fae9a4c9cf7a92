"""People in the water, the full scenario (R70-R74), replayed from its seed byte for byte: a
freighter holed at night in a major storm is abandoned; her people take to two rafts; one
raft capsizes and two of its people drown; a second ship sails out, searches and rescues the
rest. Seed 72 was found by trying seeds for exactly this story (one raft capsized, two
drowned, six rescued; seed 22 told it until the holed Mercy, abandoned, went on filling and
rolling her own capsize checks, R36, R37); the test asserts the story, not just that
something happened."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok

SEED = 72

SETUP = (
    ("map", "load", "salt_reach"),
    ("settings", "rolled_weather", "false"),  # only the referee's storm (R63)
    ("ship", "add", "Mercy", "--class", "freighter", "--tier", "VIII", "--engine", "VIII"),
    (
        "ship",
        "load",
        "Mercy",
        "--crew",
        "6",
        "--passengers",
        "2",
        "--fuel",
        "200",
        "--jackets",
        "8",
        "--rafts",
        "2",
    ),
    ("crew", "add", "Anna Roe", "--ship", "Mercy", "--passenger", "--swimming", "0"),
    ("crew", "add", "Tom Pike", "--ship", "Mercy", "--swimming", "6", "--jacket"),
    ("ship", "place", "Mercy", "0305"),
    ("ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "V"),
    ("ship", "load", "Gull", "--crew", "4", "--fuel", "80"),
    ("ship", "place", "Gull", "0305"),
    ("sail", "Mercy", "--to", "2812"),
    ("advance", "--hours", "22"),  # 22:00: night (R71), Mercy at 1709
)

STORY = (
    ("weather", "storm", "--around", "1709", "--radius", "1", "--hours", "4", "--state", "major"),
    ("roll", "hull-hit", "Mercy", "--weapon-mod", "6", "--apply"),  # holed (R36)
    ("act", "Mercy", "abandon"),  # R71: rafts four to a raft, jackets, no roll
    ("advance", "--hours", "6"),  # R73: a raft capsizes; R72: two drown
    ("advance", "--hours", "6"),  # calm: they climb back in
    ("sail", "Gull", "--to", "1709"),
    ("advance", "--until", "arrival"),
    ("act", "Gull", "search"),  # R74
    ("advance", "--hours", "4"),
)


def _campaign(runner: CliRunner, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VOYAGE_DB", str(path))
    ok(runner, "init", "--name", "Test", "--seed", str(SEED))
    for args in SETUP:
        ok(runner, *args)


def _story(runner: CliRunner, path: Path) -> tuple[list[str], list[dict[str, list[tuple]]]]:
    """Every output of the story in order, and the campaign's tables before each step."""
    outs, before = [], []
    for args in STORY:
        before.append(db_contents(path))
        outs.append(ok(runner, *args))
    for args in (("survivors", "--json"), ("status",)):
        outs.append(ok(runner, *args))
    for fmt in ("md", "json"):
        ok(runner, "export", "Mercy", "--format", fmt, "--out", f"mercy.{fmt}", "--force")
        outs.append(Path(f"mercy.{fmt}").read_text(encoding="utf-8"))
    return outs, before


def _log(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT clock, minute, kind, text, rolls FROM events ORDER BY id")
        return rows.fetchall() + conn.execute("SELECT * FROM floaters ORDER BY id").fetchall()


def test_a_freighter_holed_at_night_in_a_major_storm(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first_db = tmp_path / "first.db"
    _campaign(runner, first_db, monkeypatch)
    outs, before = _story(runner, first_db)
    story = dict(zip([" ".join(a[:2]) for a in STORY], outs, strict=False))
    assert "The hull is holed" in story["roll hull-hit"]
    # R71: only what there is (it read "8 in 2 rafts, 0 in the water (...)")
    assert story["act Mercy"] == (
        "All hands abandon Mercy at 1709: 2 rafts with 8 aboard, 7 life jackets handed out. "
        # R36, R37: left leaking she goes on filling, nobody aboard to pump or bail
        "Nobody is aboard to pump or bail: she is left leaking 7 hlbs an hour (0 hlbs "
        "aboard): she will list at Day 5, 15:59 (over 625 hlbs, DW/4) and begin sinking at "
        "Day 9, 08:59 (over 1250 hlbs, DW/2), if she does not capsize first (R36, R37: over "
        "DW/10 she may capsize each hour, over DW/4 every 10 minutes; the next advance runs "
        "it).\n"
    )
    first_hours = outs[3]
    assert first_hours.count("capsizes in a major storm") == 1  # one raft (R73) ...
    assert "rides out a major storm" in first_hours  # ... the other rides it out
    assert "2 drown" in first_hours and "Stopped: Mercy: raft capsized, drowned" in first_hours
    assert "climb back in" in outs[4]  # the first calm hour (R73)
    assert "Gull arrives at 1709" in outs[6]
    assert outs[8].count("Gull found raft") == 2  # R74: both rafts, by a look-out

    rows = json.loads(outs[9])["floaters"]
    people = [r for r in rows if r["kind"] == "people"]
    fates = {}
    for r in people:
        fates[r["state"]] = fates.get(r["state"], 0) + r["count"]
    assert fates == {"drowned": 2, "rescued": 6}  # every soul aboard accounted for
    assert all("taken aboard Gull" in r["note"] for r in people if r["state"] == "rescued")
    gull = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert gull["passengers"] == 6
    assert "What became of everyone" in outs[-2] and "drowned in a major storm" in outs[-2]
    import jsonschema

    from voyage.outputs.exportjson import load_schema

    exported = json.loads(outs[-1])
    jsonschema.validate(exported, load_schema())  # tallies of drowning rolls included
    tallies = [
        r
        for e in exported["events"]
        for r in e["rolls"]
        if "rolls of 2d6" in r["line"] and "nobody drowns" in r["line"]
    ]
    assert tallies and all("Anna Roe" in r["line"] for r in tallies)

    # the same seed and commands on a second campaign: the same bytes
    other = tmp_path / "again.db"
    _campaign(runner, other, monkeypatch)
    again, _ = _story(runner, other)
    assert again == outs
    assert _log(other) == _log(first_db)

    # undo takes every step back exactly, table by table
    monkeypatch.setenv("VOYAGE_DB", str(first_db))
    for snapshot in reversed(before):
        ok(runner, "undo")
        now = db_contents(first_db)
        assert {k: v for k, v in now.items() if k != "actions"} == {
            k: v for k, v in snapshot.items() if k != "actions"
        }
