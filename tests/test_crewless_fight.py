"""A ship with no crew in a fight (R94; R70, our reading: voyage.actions.crewless): nobody aboard
fires her guns, rams or makes way (each refused in one line naming the fix, nothing
changed), and nobody at her helm dodges an Explosion (R51): the blow lands, no roll."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, fight_ships, ok, refused

FIX = "`voyage ship load 'Sea Witch' --crew N`"


@pytest.fixture
def derelict(runner: CliRunner, db: Path) -> Path:
    """The Well-armed trawler Sea Witch, her crew taken off out of Gullhaven, and a pirate
    warship beside her; a fight begun and its first round declared."""
    fight_ships(runner)
    for name in ("Sea Witch", "Iron Harpy"):
        ok(runner, "ship", "load", name, "--crew", "6", "--fuel", "80")
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")
    ok(runner, "ship", "load", "Sea Witch", "--crew", "0")
    ok(runner, "encounter", "start", "Iron Harpy", "Sea Witch")
    ok(runner, "encounter", "round")
    return db


@pytest.mark.parametrize(
    ("command", "work"),
    [
        (
            ["shoot", "Sea Witch", "--at", "Iron Harpy", "--weapon", "hmg"],
            "fire the Heavy Machine Gun",
        ),
        (["ram", "Sea Witch", "Iron Harpy", "--kind", "head-on"], "ram (she only drifts, R64)"),
        (["round", "--move", "Sea Witch=4"], "make 4 knots (she only drifts, R64)"),
    ],
)
def test_nobody_aboard_fires_rams_or_makes_way(
    runner: CliRunner, derelict: Path, command: list[str], work: str
) -> None:
    before = db_contents(derelict)
    out = refused(runner, "encounter", *command)
    assert out.strip() == f"Error: Sea Witch has no crew to {work}: {FIX}"
    assert db_contents(derelict) == before


def test_nobody_at_her_helm_dodges_the_blow_lands(runner: CliRunner, derelict: Path) -> None:
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
            "--modifier",
            "30",
            "--json",
        )
    )
    assert "Nobody is aboard Sea Witch to dodge (R51, R70): the blow lands." in out["text"]
    assert not any("dodge" in r["label"] for r in out["rolls"])
    assert any(r["label"] == "hull leak" for r in out["rolls"])
    # she is a target like any other: rammed, she rolls her own R35
    ok(runner, "encounter", "round", "--move", "Iron Harpy=6")
    said = ok(runner, "encounter", "ram", "Iron Harpy", "Sea Witch", "--kind", "t-bone")
    assert "Iron Harpy rams Sea Witch t-bone" in said
