"""R87: arming a built boat. Every weapon is a row of tables/weapons.yaml (dice, burst,
lbs, spaces, cost); `ship build --weapon` mounts them in her weight, spaces and cost; a
built boat fires what she was built with in `encounter shoot`, torpedoes, rockets and depth
charges one shot each (counted, undone exactly); a submerged submersible is reached only by
a depth charge or a homing torpedo, and a depth charge reaches nothing else."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused

from voyage.tables.boatdesigns import sample_spec, sheet
from voyage.tables.rulebook import RuleBook

# key: (hit, modifier, zones, lbs, spaces, cost, shots, targets, aim) - R87 as written
R87 = {
    "torpedo": ("explosion", 3, "0/1/2 yd", 100, 1, 300, 1, "surface", 0),
    "homing-torpedo": ("explosion", 3, "0/1/2 yd", 120, 1, 750, 1, "any", 2),
    "depth-charge": ("harm", 1, "", 375, 2, 1750, 3, "submerged", 0),
    "mg": ("harm", 0, "", 150, 1, 0, None, "surface", 0),
    "vgm": ("explosion", 2, "0/1/2 yd", 150, 1, 0, None, "surface", 0),
    "mml": ("explosion", 1, "0/1/2 yd", 150, 1, 0, 1, "surface", 0),
    "heavy-rocket": ("explosion", 3, "0/1/2 yd", 150, 1, 0, 1, "surface", 0),
    "laser": ("harm", 2, "", 150, 1, 0, None, "surface", 0),
    "rr": ("harm", 1, "", 150, 1, 0, None, "surface", 0),
    "tank-gun": ("explosion", 3, "1/3/6 yd", 150, 1, 0, None, "surface", 0),
}


@pytest.mark.parametrize("key", sorted(R87))
def test_every_boat_weapon_is_a_row_with_r87s_figures(book: RuleBook, key: str):
    w = book.weapons["weapons"][key]
    got = (w["hit"], w["modifier"], w["zones"], w["lbs"], w["spaces"], w["cost"])
    assert got + (w["shots"], w["targets"], w["aim"]) == R87[key]
    assert w["carried"] == "built"


def test_only_a_homing_torpedo_aims_better_than_plain(book: RuleBook):
    """R87: "A homing torpedo aims +2, every other weapon +0": the rolled ships' heavy
    weapons, harpoons and small arms included."""
    aims = {key: w["aim"] for key, w in book.weapons["weapons"].items()}
    assert aims.pop("homing-torpedo") == 2
    assert set(aims.values()) == {0}, aims


def test_the_seeds_priced_weapons_agree_with_the_boats_table(book: RuleBook):
    """R87: the Torpedo, Homing Torpedo and (loaded) Depth Charge as Boats in Car Wars
    prices them, the same in the weapons table and the boats table's accessories."""
    for key in ("torpedo", "homing-torpedo", "depth-charge"):
        w, acc = book.weapons["weapons"][key], book.boats["accessories"][key]
        assert (w["lbs"], w["spaces"], w["cost"]) == (acc["weight"], acc["spaces"], acc["cost"])


def test_the_sample_designs_name_weapons_of_the_table_inside_their_stated_figures(
    book: RuleBook,
):
    table = book.boats
    armed = {}
    for name, d in table["designs"].items():
        spec = sample_spec(name, table)
        assert sheet(spec, table, check=False)["weight"] == d["stated"]["weight"]
        armed[name] = {w["key"] for w in spec.get("weapons", [])}
        assert armed[name] <= set(book.weapons["weapons"])
    assert armed["Moray"] == {"laser"} and armed["Orca"] == {"rr", "laser", "tank-gun"}
    assert armed["Minnow"] == {"mml", "mg"} and armed["Piranha"] == {"vgm"}


def test_weapons_count_in_a_built_boats_weight_spaces_and_cost(runner: CliRunner, db: Path):
    out = json.loads(
        ok(
            runner,
            "ship",
            "build",
            "Wasp",
            "--body",
            "dinghy",
            "--plant",
            "small",
            "--weapon",
            "torpedo",
            "--weapon",
            "torpedo",
            "--weapon",
            "hmg:150:1:1500",
            "--weapon",
            "mg",
            "--dry-run",
            "--json",
        )  # fmt: skip
    )
    # Dinghy 1300 + Small plant 300 + propeller 15 + crew 150 = 1765 lbs, $5050, 3 spaces
    assert out["weight"] == 1765 + 100 + 100 + 150 + 150
    assert out["cost"] == 5050 + 300 + 300 + 1500 + 0
    assert out["spaces_used"] == 3 + 4
    assert [w["key"] for w in out["spec"]["weapons"]] == ["torpedo", "torpedo", "hmg", "mg"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ("--extra", "HMG:150:1:1500"),
            "--extra 'HMG' is a weapon: mount it with --weapon hmg:150:1:1500 (R87)",
        ),  # fmt: skip
        (("--weapon", "hmg"), "write hmg:LBS:SPACES[:COST] (R87)"),
        (("--weapon", "flamethrower"), "unknown weapon 'flamethrower'"),
        (("--weapon", "mg:150"), "write NAME, NAME:LBS:SPACES or NAME:LBS:SPACES:COST"),
    ],
)
def test_a_weapon_not_mounted_right_is_refused_in_one_line(runner, db, args, says):
    line = refused(runner, "ship", "build", "Wasp", "--body", "dinghy", "--plant", "small", *args)
    assert says in line


def _fight(runner: CliRunner, *names: str) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    for name in names:
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")
    ok(runner, "encounter", "start", *names)
    ok(runner, "encounter", "round")


def _shoot(runner: CliRunner, at: str, weapon: str, *more: str) -> dict:
    return json.loads(
        ok(runner, "encounter", "shoot", "Wasp", "--at", at, "--weapon", weapon, "--json", *more)
    )


def _gull(runner: CliRunner) -> None:
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "2", "--fuel", "30")


def test_a_built_boat_fires_her_torpedoes_one_shot_each(runner: CliRunner, db: Path):
    """R87: a torpedo (3 dice, burst) hits as an Explosion of +3 (R36); one shot each, the
    third refused; undo gives the shot back exactly."""
    ok(runner, "ship", "build", "Wasp", "--body", "dinghy", "--plant", "small",
       "--weapon", "torpedo", "--weapon", "torpedo", "--weapon", "mg")  # fmt: skip
    _gull(runner)
    _fight(runner, "Wasp", "Gull")
    out = _shoot(runner, "Gull", "torpedo", "--no-dodge", "--modifier", "30")
    shot = out["rolls"][0]
    assert shot["label"] == "Wasp fires the Torpedo at Gull" and shot["success"]
    weapon_mods = [
        m["value"] for r in out["rolls"][1:] for m in r["modifiers"] if m["reason"] == "weapon"
    ]
    assert weapon_mods == [3, 3]  # the leak and the Explosion check (R36)
    before = db_contents(db)
    _shoot(runner, "Gull", "torpedo")
    line = refused(runner, "encounter", "shoot", "Wasp", "--at", "Gull", "--weapon", "torpedo")
    assert line == "Error: Wasp has no Torpedo shots left: 2 shots fired (R87)\n"
    fig = json.loads(ok(runner, "ship", "show", "Wasp", "--json"))
    assert fig["equipment"]["shots_fired"] == {"torpedo": 2}
    ok(runner, "undo")
    assert db_contents(db) == before
    # the MG (1 die, direct fire) hits as Harm of +0: a leak, no Explosion check
    out = _shoot(runner, "Gull", "mg", "--modifier", "30")
    assert [r["label"] for r in out["rolls"]] == ["Wasp fires the MG at Gull", "hull leak"]
    assert not [m for m in out["rolls"][1]["modifiers"] if m["reason"] == "weapon"]
    assert _shoot(runner, "Gull", "mg")["rolls"][0]["label"] == "Wasp fires the MG at Gull"


def test_the_to_hit_odds_are_exact_and_a_homing_torpedo_aims_two(runner: CliRunner, db: Path):
    """R87 with R94 and R17: DV 14, + floor(Tier/2) of the target (Tier II: +1), + 2 for a
    homing torpedo: 11+ on d20 (1/2) against 13+ for a torpedo (2/5)."""
    ok(runner, "ship", "build", "Wasp", "--body", "dinghy", "--plant", "small",
       "--weapon", "torpedo", "--weapon", "homing-torpedo")  # fmt: skip
    _gull(runner)
    _fight(runner, "Wasp", "Gull")
    torpedo = _shoot(runner, "Gull", "torpedo")["rolls"][0]
    homing = _shoot(runner, "Gull", "homing-torpedo")["rolls"][0]
    assert Fraction(str(torpedo["probability"])) == Fraction(8, 20)
    assert Fraction(str(homing["probability"])) == Fraction(10, 20)
    assert [m["value"] for m in homing["modifiers"]] == [1, 2]
    assert homing["success"] == (homing["natural"] + 3 >= 14)


def test_a_submerged_submersible_is_reached_only_by_depth_charge_or_homing_torpedo(
    runner: CliRunner, db: Path
):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "ship", "build", "Wasp", "--body", "cruiser", "--plant", "large", "--with",
       "deck", "--crew", "2", "--weapon", "torpedo", "--weapon", "homing-torpedo",
       "--weapon", "depth-charge", "--weapon", "laser")  # fmt: skip
    ok(runner, "ship", "build", "Nautilus", "--body", "speeder", "--plant", "large",
       "--with", "boat-top", "--submersible", "--dive-depth", "300", "--crew", "2")  # fmt: skip
    for name in ("Wasp", "Nautilus"):
        ok(runner, "ship", "place", name, "2712")
        ok(runner, "sail", name, "--to", "1714")
    ok(runner, "act", "Nautilus", "dive", "100")
    ok(runner, "encounter", "start", "Wasp", "Nautilus")
    ok(runner, "encounter", "round")
    for weapon in ("torpedo", "laser"):
        line = refused(runner, "encounter", "shoot", "Wasp", "--at", "Nautilus", "--weapon", weapon)
        assert "Nautilus is submerged" in line and "homing torpedo serves (R87)" in line
    for weapon in ("homing-torpedo", "depth-charge"):
        out = _shoot(runner, "Nautilus", weapon)
        assert out["rolls"][0]["label"].startswith(f"Wasp fires the {weapon.title()[:5]}")
    ok(runner, "act", "Nautilus", "surface")
    line = refused(
        runner, "encounter", "shoot", "Wasp", "--at", "Nautilus", "--weapon", "depth-charge"
    )
    assert "not a submerged submersible: the Depth Charge serves against nothing else" in line


def test_the_refusals_name_the_weapon_and_the_fix(runner: CliRunner, db: Path):
    ok(runner, "ship", "build", "Dart", "--design", "Moray")
    ok(runner, "ship", "build", "Wasp", "--body", "dinghy", "--plant", "small")
    _gull(runner)
    _fight(runner, "Dart", "Wasp", "Gull")
    line = refused(runner, "encounter", "shoot", "Dart", "--at", "Gull", "--weapon", "tank-gun")
    assert line == (
        "Error: Dart carries no Tank Gun (her weapons: 2 x Homing Torpedo, Laser; a boat is "
        "armed when built: `voyage ship build ... --weapon tank-gun`)\n"
    )
    line = refused(runner, "encounter", "shoot", "Gull", "--at", "Dart", "--weapon", "laser")
    assert line == (
        "Error: Gull is a rolled ship: a Laser arms a built boat (R87); she fires her "
        "class's heavy weapons and harpoons (R21)\n"
    )
    # the Moray's Laser (3 dice, direct fire): Harm of +2
    out = json.loads(
        ok(
            runner,
            "encounter",
            "shoot",
            "Dart",
            "--at",
            "Gull",
            "--weapon",
            "laser",
            "--modifier",
            "30",
            "--json",
        )  # fmt: skip
    )
    leak = next(r for r in out["rolls"] if r["label"] == "hull leak")
    assert [m["value"] for m in leak["modifiers"]] == [2]
