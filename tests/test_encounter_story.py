"""An encounter played at the table from the CLI (R93, R94): a trawler meets a pirate warship
on the way to Ironport; three rounds (a shot dodged, the hull holed, a T-bone ram); she
limps off leaking, is taken in tow by a friendly whaler and reaches port; the exported log
tells the players the story (voyage.outputs.fightstory) and the picture marks the fight
(voyage.outputs.encountermarks). Also: castaways met go into the water (voyage.world.castaways)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import WHALER, db_contents, fight_ships, ok

from voyage.store import campaign as store


def _table(runner: CliRunner) -> list[str]:
    """The campaign (seed 3) up to the end of the fight; the fight's outputs."""
    fight_ships(runner, "--weapon", "Heavy Machine Gun", "--armor", "2")
    ok(runner, "ship", "add", "Old Faithful", *WHALER, "--trait", "Strong")
    ok(runner, "ship", "load", "Sea Witch", "--crew", "6", "--fuel", "80", "--cargo", "100")
    ok(runner, "ship", "load", "Iron Harpy", "--crew", "12", "--fuel", "120")
    ok(runner, "ship", "load", "Old Faithful", "--crew", "8", "--fuel", "120")
    for name in ("Sea Witch", "Iron Harpy", "Old Faithful"):
        ok(runner, "ship", "place", name, "0305")
    ok(runner, "sail", "Sea Witch", "--to", "2812")  # Gullhaven to Ironport
    ok(runner, "advance", "--hours", "1")
    ok(runner, "sail", "Iron Harpy", "--to", "2812")  # the pirate comes after her
    ok(runner, "advance", "--hours", "2")
    steps = [
        ("encounter", "start", "Iron Harpy", "Sea Witch", "--range", "400"),
        ("encounter", "round"),
        (
            "encounter",
            "shoot",
            "Iron Harpy",
            "--at",
            "Sea Witch",
            "--weapon",
            "artillery",
            "--modifier",
            "10",
        ),
        ("encounter", "shoot", "Sea Witch", "--at", "Iron Harpy", "--weapon", "hmg"),
        ("encounter", "round"),
        (
            "encounter",
            "shoot",
            "Iron Harpy",
            "--at",
            "Sea Witch",
            "--weapon",
            "hmg",
            "--modifier",
            "10",
        ),
        ("encounter", "round"),
        ("encounter", "ram", "Sea Witch", "Iron Harpy", "--kind", "t-bone"),
        ("encounter", "end"),
    ]
    return [ok(runner, *step) for step in steps]


@pytest.fixture
def fought(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "campaign.db"
    monkeypatch.setenv("VOYAGE_DB", str(path))
    ok(runner, "init", "--name", "Done when", "--seed", "3")
    out = _table(runner)
    assert "the attack is dodged" in out[2]  # round 1: a shot dodged (R51)
    assert "The hull is holed: the ship takes on 7 hlbs" in out[5]  # round 2: holed (R36)
    assert "t-bone" in out[7] and "relative speed 6 (R91)" in out[7]  # round 3: the ram
    return path


def _ship(path: Path, name: str) -> tuple:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT hex, status FROM ships WHERE name = ?", [name]).fetchone()


def test_the_trawler_fights_is_towed_home_and_the_log_tells_the_story(runner, fought, tmp_path):
    status = {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}
    assert status["Sea Witch"]["leaks"] == [7]  # she limps off leaking
    ok(runner, "act", "Iron Harpy", "course", "--to", "2906")  # the pirate makes off
    ok(runner, "sail", "Old Faithful", "--to", "2812")  # a friendly whaler, behind her
    ok(runner, "advance", "--hours", "4")
    status = {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}
    assert status["Sea Witch"]["hex"] == status["Old Faithful"]["hex"] == "0605"
    assert "takes Sea Witch in tow at 0605" in ok(runner, "act", "Old Faithful", "tow", "Sea Witch")
    ok(runner, "act", "Sea Witch", "repair", "leak", "1")  # her crew patch the leak
    for _ in range(3):
        ok(runner, "advance", "--until", "arrival")
        if _ship(fought, "Sea Witch")[1] == "in port":
            break
    assert _ship(fought, "Sea Witch") == ("2812", "in port")
    assert _ship(fought, "Old Faithful") == ("2812", "in port")

    players, referee = tmp_path / "players.md", tmp_path / "referee.md"
    ok(runner, "export", "Sea Witch", "--out", str(players))
    ok(
        runner,
        "export",
        "Sea Witch",
        "--out",
        str(referee),
        "--for",
        "referee",
        "--rolls",
        "folded",
    )
    story = players.read_text()
    for words in (
        "## The fight at 0405",
        "**Round 1.** Iron Harpy fires at Sea Witch: a hit. "
        "The Sea Witch swerves clear: the attack is dodged.",
        "**Round 2.** Iron Harpy fires at Sea Witch: a hit. The Sea Witch's hull is "
        "holed: she takes on 7 hlbs of water an hour.",
        "**Round 3.** Sea Witch rams Iron Harpy amidships.",  # R91's t-bone
        "Sea Witch is taken in tow by Old Faithful at 0605",
        "Sea Witch arrives at Ironport (2812) in tow of Old Faithful",
        "arrived at Ironport (2812)",
    ):
        assert words in story, words
    assert "d20=" not in story and "(R9" not in story and "<details>" not in story
    told = referee.read_text()
    assert "<details><summary>Round 1: 4 rolls</summary>" in told
    assert "(R91)" in told and "d20=" in told

    from voyage.outputs.encountermarks import voyage_places
    from voyage.outputs.export import load_voyage
    from voyage.outputs.exportpicture import picture_marks

    camp = store.open_campaign(fought)
    log = load_voyage(camp, "Sea Witch")
    camp.close()
    # (hex, words) of the numbered marks (day marks carry dates, not event numbers)
    marks = [(m.hex, m.text) for m in picture_marks(log) if m.kind != "day"]
    # the fight's opening and the ram, numbered as in the log (the star marks the hour's
    # events in the hex where the hour ended: 0506); no number twice in one hex
    assert "0405" not in dict(marks) or "2" not in dict(marks)["0405"]
    assert voyage_places(log, marks) == [("0405", "2, 5")]
    assert voyage_places(log, [("0405", "start 2-5")]) == [("0405", "")]


def test_the_picture_marks_the_fight_with_a_legend_entry(runner, fought, monkeypatch):
    from voyage.outputs import render

    seen: dict = {}
    real = render.render_map

    def spy(*args, **kw):
        seen.update(kw)
        return real(*args, **kw)

    monkeypatch.setattr(render, "render_map", spy)
    ok(
        runner,
        "map",
        "render",
        "--out",
        str(fought.parent / "map.png"),
        "--around",
        "0405",
        "--radius",
        "3",
    )
    handles = seen["overlay"](_Axes(), _Geometry(), {"0405"})
    assert [h.get_label() for h in handles][-1] == "encounter"
    assert (fought.parent / "map.png").stat().st_size > 0
    from voyage.outputs.encountermarks import render_places

    camp = store.open_campaign(fought)
    assert render_places(camp, "open", camp.clock) == [("0405", "")]
    assert render_places(camp, "none", camp.clock) == []
    assert render_places(camp, "all", 2) == []  # drawn before the fight: not yet
    camp.close()


class _Axes:
    def __init__(self) -> None:
        self.marks: list = []

    def plot(self, *args, **kw) -> None:
        self.marks.append((args, kw))

    def text(self, *args, **kw) -> None:
        self.marks.append((args, kw))

    def __getattr__(self, name):  # the weather overlay's patches: not looked at here
        return lambda *args, **kw: None


class _Geometry:
    scale = 36

    @staticmethod
    def hex_center(name: str) -> tuple[float, float]:
        return 0.0, 0.0


@pytest.mark.encounters
def test_castaways_met_at_sea_go_into_the_water(runner, db, monkeypatch):
    # R93 with R70-R74: an encounter of kind castaways puts them in the ship's hex, where
    # the referee can rescue them; the whole advance is one action undone exactly
    from voyage.world import encounters

    real = encounters.roll_encounter

    def castaways(book, roller, region, terrain, hex_name, taken=set):
        found, rolls = real(book, roller, region, terrain, hex_name, taken)
        return {
            "kind": "castaways",
            "hex": hex_name,
            "terrain": terrain,
            "people": 3,
            "text": "3 people in the water.",
        }, rolls

    monkeypatch.setattr(encounters, "roll_encounter", castaways)
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_chance", "6")
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "2", "--fuel", "30")
    ok(runner, "ship", "place", "Gull", "0305")
    ok(runner, "sail", "Gull", "--to", "2812")
    before = db_contents(db)
    out = json.loads(ok(runner, "advance", "--hours", "8", "--json"))
    assert out["stopped"] == "Gull: encounter"
    where = json.loads(ok(runner, "status", "--json"))["ships"][0]["hex"]
    found = [e for e in out["events"] if e["kind"] == "encounter"][0]
    assert f"They are in the water at {where} (3 crew of a lost ship" in found["text"]
    survivors = ok(runner, "survivors")
    assert "3 crew of a lost ship" in survivors and where in survivors
    assert "3 taken aboard" in ok(runner, "act", "Gull", "rescue", "--all")
    ok(runner, "undo")
    ok(runner, "undo")
    assert db_contents(db) == before
