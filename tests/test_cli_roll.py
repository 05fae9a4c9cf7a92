"""`voyage roll PROCEDURE`: odds before the roll, the roll line, the
meaning; --json; --seed reproducibility; a campaign ship's own figures."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from voyage.cli import cli
from voyage.cli.roll import roll


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str, expect: int = 0):
        result = runner.invoke(cli, list(args))
        assert result.exit_code == expect, result.output
        return result

    return invoke


@pytest.fixture
def campaign(tmp_path: Path, run) -> Path:
    path = tmp_path / "campaign.db"
    run("init", "--db", str(path), "--name", "Test", "--seed", "7")
    run(
        "ship",
        "add",
        "Sea Witch",
        "--db",
        str(path),
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--trait",
        "Steady",
        "--firehose",
    )
    run(
        "ship",
        "load",
        "Sea Witch",
        "--db",
        str(path),
        "--crew",
        "6",
        "--cargo",
        "100",
        "--fuel",
        "40",
    )
    return path


def test_roll_group_runs_standalone():
    # the context settings voyage's own group gives every command (-h), so that click's
    # per-command help option is made with the same names whichever test runs first
    result = CliRunner().invoke(
        roll, ["capsize", "--tier", "3", "--load", "half", "--seed", "1"], **cli.context_settings
    )
    assert result.exit_code == 0, result.output


def test_r41_capsize_prints_odds_roll_and_meaning(run):
    out = run("roll", "capsize", "--tier", "3", "--load", "half", "--seed", "7").output
    lines = out.splitlines()
    assert lines[0] == "Tier III, Half Load"
    assert lines[1] == "chance the ship stays upright: 50.0% (1/2)"
    assert lines[2].strip().startswith("capsize check: d20=")
    assert "seed 7" in lines[-1]


def test_r41_steady_flag_changes_the_odds(run):
    out = run("roll", "capsize", "--tier", "3", "--load", "half", "--steady", "--seed", "7").output
    assert "(27/40)" in out and "Steady" in out


def test_r5_same_seed_same_roll(run):
    args = (
        "roll",
        "fire",
        "--tier",
        "3",
        "--minute",
        "--severity",
        "2",
        "--crew",
        "3",
        "--seed",
        "42",
    )
    assert run(*args).output == run(*args).output


def test_fresh_seed_is_printed_and_repeats(run):
    first = run("roll", "dodge", "--tier", "5").output
    seed = first.strip().splitlines()[-1].split()[1]
    again = run("roll", "dodge", "--tier", "5", "--seed", seed).output
    assert again == first


def test_json_record_is_stable(run):
    out = run("roll", "ram", "--tier", "4", "--speed", "7", "--seed", "2", "--json").output
    data = json.loads(out)
    assert list(data) == ["procedure", "ship", "seed", "inputs", "odds", "results"]
    assert data["procedure"] == "ram" and data["seed"] == 2
    assert data["odds"][0]["fraction"] == "5/12"
    first = data["results"][0]
    assert {"kind", "text", "rolls", "changes", "damaged", "margin"} <= set(first)
    assert first["rolls"][0]["line"].startswith("ramming the obstacle: d12=")


@pytest.mark.parametrize(
    "args",
    [
        [
            "capsize",
            "--tier",
            "IV",
            "--load",
            "overloaded",
            "--advantage",
            "calm",
            "--disadvantage",
            "gale",
            "--disadvantage",
            "rain",
            "--storm",
        ],
        [
            "capsize",
            "--tier",
            "3",
            "--load",
            "half",
            "--steady",
            "--advantage-mode",
            "2d20",
            "--natural-rolls",
        ],
        ["dodge", "--tier", "6", "--zone", "lethal", "--nimble"],
        [
            "hull-hit",
            "--tier",
            "5",
            "--weapon-mod",
            "3",
            "--explosion",
            "--zone",
            "secondary",
            "--load",
            "full",
        ],
        ["hull-hit", "--tier", "1", "--weapon-mod", "-2"],
        ["ram", "--tier", "2", "--speed", "12", "--ram-bowed", "--load", "half"],
        ["aground", "--tier", "3", "--speed", "6", "--seabed", "rocky"],
        ["aground", "--tier", "3", "--speed", "6", "--seabed", "sandy"],
        ["escape"],
        ["hazard"],
        ["fire", "--tier", "2"],
        ["fire", "--tier", "2", "--fireproof"],
        ["fire", "--tier", "3", "--minute", "--severity", "3", "--crew", "1", "--firehose"],
        ["sinking", "--tier", "4", "--load", "half", "--within", "20"],
        ["strain", "--extra", "3", "--speed", "8", "--tier", "4"],
        ["movement", "--tier", "7", "--advantage", "smoke"],
        ["trait"],
        ["trait", "--force"],
        ["class", "freighter", "--row", "engine"],
        ["class", "whaler"],
        ["class"],
    ],
)
def test_every_procedure_runs_with_many_seeds(run, args):
    for seed in range(12):
        run("roll", *args, "--seed", str(seed))
        data = json.loads(run("roll", *args, "--seed", str(seed), "--json").output)
        assert data["results"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["capsize", "--tier", "11", "--load", "half"], "out of range"),
        (["capsize", "--load", "half"], "give --tier"),
        (["capsize", "--tier", "3", "--load", "half", "--trait", "Lucky"], "unknown trait"),
        (["strain", "--extra", "5", "--speed", "8"], "at most 4 knots"),
        (["fire", "--tier", "2", "--minute", "--severity", "3", "--crew", "2"], "out of control"),
        (["fire", "--tier", "2", "--minute"], "--severity"),
        (["class", "dinghy", "--row", "engine"], "no row"),
        (["class", "galleon"], "unknown ship class"),
    ],
)
def test_errors_are_one_line(run, args, message):
    result = run("roll", *args, "--seed", "1", expect=result_code(message))
    assert message in result.output
    assert "Traceback" not in result.output


def result_code(message: str) -> int:
    # click usage errors exit 2; the core's errors (ClickException) exit 1
    return 2 if message.startswith("give") or message == "--severity" else 1


def test_ship_variant_uses_the_ships_figures(run, campaign):
    out = run("roll", "capsize", "Sea Witch", "--db", str(campaign)).output
    # Trawler Tier IV: DW 750; load 52 + 60 + 100 + 40 = 252 -> Half; Steady: 29/40
    assert out.startswith("Sea Witch: Tier IV, Half Load, traits: Steady")
    assert "(29/40)" in out and "campaign's dice" in out


def test_ship_variant_rolls_are_logged_and_undoable(run, campaign):
    run("roll", "capsize", "Sea Witch", "--db", str(campaign), "--storm")
    with sqlite3.connect(campaign) as conn:
        labels = [r[0] for r in conn.execute("SELECT label FROM rolls WHERE ship = 'Sea Witch'")]
    assert "capsize check (storm)" in labels
    run("undo", "--db", str(campaign))
    with sqlite3.connect(campaign) as conn:
        count = conn.execute("SELECT count(*) FROM rolls WHERE label LIKE 'capsize%'").fetchone()
    assert count[0] == 0


def test_ship_variant_dice_move_on(run, campaign):
    first = run("roll", "sinking", "Sea Witch", "--db", str(campaign), "--json").output
    second = run("roll", "sinking", "Sea Witch", "--db", str(campaign), "--json").output
    rolls = [json.loads(o)["results"][0]["rolls"][0]["faces"] for o in (first, second)]
    assert json.loads(first)["seed"] is None
    # the campaign's dice advance: the same faces twice in a row would be a 1-in-216 fluke
    assert rolls[0] != rolls[1]


def test_ship_variant_fire_uses_crew_and_firehose(run, campaign):
    data = json.loads(
        run(
            "roll",
            "fire",
            "Sea Witch",
            "--db",
            str(campaign),
            "--minute",
            "--severity",
            "2",
            "--json",
        ).output
    )
    assert data["inputs"]["crew"] == 6 and data["inputs"]["firehose"] is True


def test_ship_variant_refuses_seed(run, campaign):
    result = run("roll", "dodge", "Sea Witch", "--db", str(campaign), "--seed", "3", expect=2)
    assert "--seed" in result.output


def test_unknown_ship(run, campaign):
    result = run("roll", "dodge", "Nobody", "--db", str(campaign), expect=1)
    assert "Traceback" not in result.output


def test_every_roll_command_documents_an_example():
    import click

    for name, command in roll.commands.items():
        assert "Example:" in (command.help or ""), name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{name} {param.name} has no help text"


def test_cli_module_imports_only_click_and_stdlib():
    code = (
        "import sys; import voyage.cli.roll; "
        "bad = [m for m in ('yaml', 'sqlite_utils', 'voyage.dice.roller', "
        "'voyage.tables.rulebook', 'voyage.rules') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_r37_r32_ship_capsize_shows_why_it_may_capsize(run, campaign):
    run("ship", "load", "Sea Witch", "--db", str(campaign), "--water", "100")
    out = run("roll", "capsize", "Sea Witch", "--db", str(campaign), "--storm").output
    # Trawler Tier IV: DW 750; 100 hlbs of water is over 75 (DW/10): hourly (R37)
    assert "may capsize: 100 hlbs of water aboard (over 75)" in out
    assert "(R32)" in out
    data = json.loads(run("roll", "capsize", "Sea Witch", "--db", str(campaign), "--json").output)
    assert [t["reason"] for t in data["triggers"]] == ["flooding"]


def test_house_rule_tables_for_a_roll(run, tmp_path, book):
    from voyage.base.paths import tables_dir

    house = tmp_path / "house"
    house.mkdir()
    text = (tables_dir() / "procedures.yaml").read_text(encoding="utf-8")
    assert "  dv: 16\n" in text
    (house / "procedures.yaml").write_text(text.replace("  dv: 16\n", "  dv: 14\n"))
    out = run(
        "roll", "capsize", "--tier", "3", "--load", "half", "--seed", "1", "--tables", str(house)
    ).output
    # d20 + 5 >= 14 -> 12/20
    assert "(3/5)" in out and "DV 14" in out


def test_tables_refused_with_a_ship(run, campaign, tmp_path):
    result = run(
        "roll", "dodge", "Sea Witch", "--db", str(campaign), "--tables", str(tmp_path), expect=2
    )
    assert "--tables" in result.output


def test_r60_a_storm_check_at_the_table_counts_the_sea_state(run, campaign, book):
    """R60: a major storm's capsize Check has one Disadvantage, a hurricane's two, and the
    same-hex interval is theirs; `roll capsize` read every storm as stormy seas (R32)."""
    from fractions import Fraction

    from voyage.rules.capsize import capsize_odds

    out = run(
        "roll", "capsize", "--tier", "3", "--load", "half", "--sea", "hurricane", "--seed", "7"
    ).output
    p = capsize_odds(3, "half", book, (), (), ["hurricane", "hurricane"])
    assert f"({Fraction(p).limit_denominator(10**6)})" in out
    assert (
        "may capsize: hurricane: it may capsize every hex travelled, or every hour in "
        "the same hex (R32, R60)" in out
    )
    assert "capsize check (storm: hurricane): d20=" in out and "bane" in out
    major = json.loads(
        run(
            "roll",
            "capsize",
            "--tier",
            "3",
            "--load",
            "half",
            "--sea",
            "major",
            "--seed",
            "7",
            "--json",
        ).output
    )
    assert major["inputs"]["disadvantages"] == ["major storm"]
    assert major["triggers"][0]["text"].endswith("or every 3 hours in the same hex")
    # a campaign ship with --storm alone: the sea of her hex now
    db = str(campaign)
    run("map", "load", "salt_reach", "--db", db)
    run("ship", "place", "Sea Witch", "0305", "--db", db)
    run("sail", "Sea Witch", "--to", "0806", "--db", db)
    run("advance", "--hours", "3", "--db", db)
    where = json.loads(run("ship", "show", "Sea Witch", "--db", db, "--json").output)["hex"]
    run(
        "weather",
        "storm",
        "--around",
        where,
        "--radius",
        "0",
        "--hours",
        "5",
        "--state",
        "major",
        "--db",
        db,
    )
    out = run("roll", "capsize", "Sea Witch", "--storm", "--db", db).output
    # Steady's Advantage (R18) cancels the storm's one Disadvantage: both are named
    assert "capsize check (storm: major storm)" in out
    assert "traits: Steady, disadvantages: major storm" in out


def test_class_is_taken_as_ship_roll_takes_it_with_class(run):
    """`roll class --class warship` as `ship roll --class warship` (it was refused: only the
    class as an argument was read); the same roll as the argument, seed for seed."""
    by_option = json.loads(
        run("roll", "class", "--class", "warship", "--seed", "4", "--json").output
    )
    by_argument = json.loads(run("roll", "class", "warship", "--seed", "4", "--json").output)
    assert by_option == by_argument and by_option["inputs"] == {"class": "warship"}
    two = run("roll", "class", "whaler", "--class", "warship", expect=2)
    assert "two classes given" in two.output and "Traceback" not in two.output
