"""Built boats: the seed's figures, R80's limits, R81's figures, R82's power.

The printed figures below are typed from the seed (000_3a71976a07b0503c.txt, "Boats in Car
Wars"), not read from tables/boats.yaml, so a wrong table row fails here.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from conftest import db_contents

from voyage.base.errors import ShipError, TableError
from voyage.base.paths import tables_dir
from voyage.cli import cli
from voyage.tables.boatdesigns import (
    performance,
    range_miles,
    sample_spec,
    sheet,
    spec_from_options,
    units_per_10_miles,
    units_per_hex,
)
from voyage.tables.rulebook import check_table, parse_yaml

# design: (weight lbs, cost $, accel. mph/turn, top speed mph) as printed by the seed
PRINTED = {
    "Darter": (799, 3315, 20, 100),
    "Piranha": (2997, 9636, 5, 40),
    "Minnow": (3000, 13552, 10, 60),
    "Moray": (6500, 33580, 10, 60),
    "Flying Fish": (6620, 36750, 20, 120),
    "Guppy": (13995, 50130, 10, 60),
    "Lucky Catch": (10000, 41150, 10, 60),
    "Lucky Catch (Heavy Armor Option)": (14995, 51140, 5, 40),
    "Refuge": (38589, 195150, 10, 60),
    "Orca": (39993, 172196, 2.5, 20),
}


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("name", [n for n in PRINTED if n != "Refuge"])
def test_each_sample_agrees_with_the_seed(book, name) -> None:
    weight, cost, accel, top = PRINTED[name]
    s = sheet(sample_spec(name, book.boats), book.boats)
    assert (s["weight"], s["cost"]) == (weight, cost)
    assert (s["acceleration"], s["top_speed"]) == (accel, top)
    assert s["notes"] == []
    assert s["spaces_used"] <= s["spaces"] and s["weight"] <= s["max_load"]


def test_the_refuge_is_built_as_the_rule_says(book) -> None:
    # R80: her jet drives need power factors >= half her weight; 13,000 / 38,589 = .337,
    # so they do not work: the .333-.499 row, 5 mph/turn and 40 mph, not the printed 10/60.
    s = sheet(sample_spec("Refuge", book.boats), book.boats)
    assert s["weight"] == 38589 and s["cost"] == 195150
    assert (s["acceleration"], s["top_speed"]) == (5, 40)
    assert any("jet drives do not work" in n for n in s["notes"])
    # with jets that worked (power factors >= half the weight) she would make the print
    light = sheet(sample_spec("Refuge", book.boats), book.boats, check=False)
    assert Fraction(13000, 38589) < Fraction(1, 2) and light["top_speed"] == 40


def test_the_darter_adds_up_from_priced_parts_alone(book) -> None:
    # every part of the Darter is priced by the seed, with 150 lbs for her pilot (R80)
    spec = sample_spec("Darter", book.boats)
    assert spec["extras"] == []
    assert 100 + 500 + 25 + 150 + 8 * 3 == 799 and 200 + 3000 + 75 + 8 * 5 == 3315


def test_heavy_armor_option_is_333_more_points(book) -> None:
    light = sheet(sample_spec("Lucky Catch", book.boats), book.boats)
    heavy = sheet(sample_spec("Lucky Catch (Heavy Armor Option)", book.boats), book.boats)
    assert heavy["weight"] - light["weight"] == 333 * 15
    assert heavy["cost"] - light["cost"] == 333 * 30
    # six sleeping accommodations fill the Cruiser's 12 cargo spaces exactly
    assert light["cargo_spaces_used"] == light["cargo_spaces"] == 12


def test_the_seeds_worked_example(book) -> None:
    # "a Speeder weighing 4980 lbs. carried a Medium power plant ... .502 ... 10 mph/turn
    # and a top speed of 60 mph"; with a Mini (500) it "would still move, but just barely"
    assert performance(book.boats, 2500, 4980)["acceleration"] == 10
    assert performance(book.boats, 2500, 4980)["top_speed"] == 60
    mini = performance(book.boats, 500, 4980)
    assert (mini["acceleration"], mini["top_speed"]) == (2.5, 20)
    assert performance(book.boats, 500, 10001)["top_speed"] == 0  # under .05


@pytest.mark.parametrize(
    ("mph", "per_10", "per_hex"),
    [
        (10, 10, 12),
        (20, 10, 12),
        (25, 10, 12),
        (29.9, 10, 12),
        (30, 12, Fraction(72, 5)),
        (50, 16, Fraction(96, 5)),
        (60, 18, Fraction(108, 5)),
    ],
)
def test_power_per_hex(book, mph, per_10, per_hex) -> None:
    # R82: 10 units per 10 miles to 20 mph, +2 per FULL 10 mph above; a hex is 1.2 times
    assert units_per_10_miles(book.boats, mph) == per_10
    assert units_per_hex(book.boats, mph) == per_hex


def test_range_on_a_charge(book) -> None:
    assert range_miles(book.boats, 20) == 200  # "A boat can go 200 miles on a charge"
    assert range_miles(book.boats, 50) == 125


def test_r81_tiers_are_the_nearest_deadweight(book) -> None:
    for key, body in book.boats["bodies"].items():
        hlbs = body["max_load"] / 10
        nearest = min(range(1, 11), key=lambda t: (abs(book.deadweight(t) - hlbs), t))
        assert body["tier"] == nearest, key


def test_jet_drives_and_hydrofoils(book) -> None:
    t = book.boats
    fast = spec_from_options(t, body="speeder", plant="super", fittings=["jet-drives"])
    assert fast["propellers"] == 0  # jet drives replace propellers
    s = sheet(fast, t)  # 8000 / 4,550 lbs: 1.76 -> 15/80, jets +5/+20
    assert s["weight"] == 2700 + 1200 + 500 + 150
    assert (s["acceleration"], s["top_speed"]) == (20, 100)
    foils = spec_from_options(t, body="speeder", plant="super", fittings=["jet-drives,hydrofoils"])
    s = sheet(foils, t)  # +1,350 lbs: 8000/5,900 = 1.36 -> 15/80, jets 20/100, foils +20
    assert (s["acceleration"], s["top_speed"], s["hc"]) == (20, 120, 3)
    slow = spec_from_options(t, body="dinghy", plant="mini", fittings=["hydrofoils"])
    s = sheet(slow, t)  # 500/2,460 lbs: .203 -> 20 mph; foils never lift below 35
    assert s["top_speed"] == 20 and any("hydrofoils never lift" in n for n in s["notes"])


def test_oars_only(book) -> None:
    spec = spec_from_options(book.boats, body="rowboat", plant="none", fittings=["oars"], crew=2)
    s = sheet(spec, book.boats)
    assert (s["acceleration"], s["top_speed"]) == (2.5, 5)  # 2.5 mph a rower


# ----------------------------------------------------------------------------- the CLI

REFUSALS = [
    (["--body", "cruiser", "--plant", "large", "--with", "deck,oars"], "Oars may be fitted only"),
    (["--body", "rowboat", "--plant", "medium", "--with", "deck"], "a Rowboat cannot have a Deck"),
    (["--body", "cruiser", "--plant", "large"], "a Cruiser must have a Deck"),
    (["--body", "yacht", "--plant", "large"], "a Yacht must have a Deck"),
    (
        ["--body", "dinghy", "--plant", "small", "--with", "weighted-keel"],
        "a Dinghy cannot have a Weighted Keel",
    ),
    (
        ["--body", "rowboat", "--plant", "mini", "--with", "weighted-keel"],
        "a Rowboat cannot have a Weighted Keel",
    ),
    (
        ["--body", "speeder", "--plant", "large", "--with", "hydrofoils,hydrofoils"],
        "Hydrofoils may be fitted only once",
    ),
    (["--body", "speeder", "--plant", "large", "--with", "boat-top,half-top"], "cannot both"),
    (
        ["--body", "rowboat", "--plant", "super"],
        "over the Rowboat's maximum load of 800 lbs by 725",
    ),
    (
        ["--body", "dinghy", "--plant", "small", "--extra", "Gun:10:8"],
        "over the Dinghy's 10 spaces by 1",
    ),
    (["--body", "rowboat", "--plant", "medium", "--armor", "T3"], "no armor location 'T'"),
    (["--body", "rowbot", "--plant", "medium"], "did you mean 'rowboat'"),
    (["--body", "dinghy", "--plant", "medum"], "did you mean 'medium'"),
    (["--body", "dinghy", "--plant", "small", "--with", "bilge-pmp"], "did you mean 'bilge-pump'"),
    (
        ["--body", "dinghy", "--plant", "small", "--with", "jet-drives", "--propellers", "1"],
        "jet drives replace propellers",
    ),
    (["--body", "dinghy"], "a boat needs a power plant or oars"),
    # R80/R85: a plant with no propeller and no jet drives was built, sheeted at 20 mph,
    # and then refused to sail, pointing at `repair propellers`, which said none was lost
    (
        ["--body", "dinghy", "--plant", "mini", "--propellers", "0"],
        "a power plant needs a propeller (R80)",
    ),
    (
        ["--body", "dinghy", "--plant", "mini", "--propellers", "0", "--with", "oars"],
        "a power plant needs a propeller (R80)",
    ),
    (["--design", "Lucky Catch", "--crew", "3"], "drop --crew"),
    (["--design", "Orka"], "did you mean 'Orca'"),
    (["--body", "dinghy", "--plant", "small", "--extra", "Gun:ten:1"], "not a whole number"),
]


@pytest.mark.parametrize(("args", "says"), REFUSALS)
def test_refused_in_one_line_with_nothing_changed(db, args, says) -> None:
    before = db_contents(db)
    result = run("ship", "build", "X", *args)
    assert result.exit_code != 0
    assert says in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert db_contents(db) == before


def test_build_show_list_load_and_sail_refused(db) -> None:
    result = run(
        "ship",
        "build",
        "Fox",
        "--body",
        "cruiser",
        "--plant",
        "large",
        "--propellers",
        "2",
        "--armor",
        "F10,R7,L7,B3,T3,U10",
        "--with",
        "deck,half-top,bilge-pump,life-raft",
        "--crew",
        "2",
        "--json",
    )
    assert result.exit_code == 0, result.output
    sheet_json = json.loads(result.output)
    assert sheet_json["weight"] == 5400 + 800 + 80 + 270 + 200 + 25 + 300 + 40 * 15
    fig = json.loads(run("ship", "show", "Fox", "--json").output)
    assert fig["class"] == "Built Cruiser" and fig["tier"] == 6
    assert fig["deadweight"] == 960 and fig["load"] == (7675 - 5400) / 10  # R81
    assert fig["fuel"] == 200 and fig["fuel_use"] == 12  # R82: charge; units a hex at 20 mph
    assert sum(fig["load_parts"].values()) == fig["load"]
    # cargo slows her: 10,125 lbs -> 5000/10125 = .494 -> 5 mph/turn, 40 mph (R82)
    loaded = run("ship", "load", "Fox", "--cargo", "200", "--passengers", "3", "--json")
    assert loaded.exit_code == 0, loaded.output
    assert json.loads(loaded.output)["built"]["top_speed"] == 40
    before = db_contents(db)
    over = run("ship", "load", "Fox", "--cargo", "900")
    assert "over her Cruiser's maximum load" in over.output and db_contents(db) == before
    listed = run("ship", "list")
    assert "Built Cruiser" in listed.output
    fast = run("pace", "Fox", "50mph")  # R82: never above her top speed now (40 mph)
    assert fast.exit_code != 0 and "above Fox's top speed of 40 mph" in fast.output
    assert len(fast.output.strip().splitlines()) == 1
    assert db_contents(db) == before
    assert "healthy" in run("doctor").output


def test_build_a_design_and_dry_run(db) -> None:
    result = run("ship", "build", "Smuggler", "--design", "moray")
    assert result.exit_code == 0, result.output
    assert "Accel. 10, Top Speed 60, HC 2, 6,500 lbs; $33,580" in result.output
    before = db_contents(db)
    dry = run("ship", "build", "Test", "--design", "Refuge", "--dry-run")
    assert "jet drives do not work" in dry.output and db_contents(db) == before


# ----------------------------------------------------------------------------- the table


def _table() -> dict:
    return parse_yaml((tables_dir() / "boats.yaml").read_text(), "boats.yaml")


def test_a_bad_row_is_one_line_naming_file_and_key() -> None:
    data = _table()
    data["bodies"]["speeder"]["max_load"] = "lots"
    with pytest.raises(TableError, match=r"boats.yaml at 'bodies.speeder.max_load'"):
        check_table("boats", data, "boats.yaml")
    data = _table()
    data["accessories"]["oars"]["only_on"] = ["rowboat", "canoe"]
    with pytest.raises(TableError, match=r"accessories.oars.only_on.*'canoe'"):
        check_table("boats", data, "boats.yaml")


def test_a_design_over_its_limits_is_a_table_error() -> None:
    data = _table()
    data["designs"]["Darter"]["crew"] = 2  # 949 lbs on a 800 lbs Rowboat
    with pytest.raises(TableError, match=r"designs.Darter"):
        check_table("boats", data, "boats.yaml")


def test_house_boats_table(book, tmp_path) -> None:
    from voyage.tables.rulebook import rulebook_from_texts

    text = (
        (tables_dir() / "boats.yaml")
        .read_text()
        .replace("person_weight: 150", "person_weight: 180")
    )
    with pytest.raises(TableError, match="designs.Darter"):  # the Darter no longer adds up
        rulebook_from_texts({"boats": text})
    with pytest.raises(ShipError):
        sample_spec("Nemo", book.boats)


def test_completion_offers_bodies_plants_and_designs() -> None:
    from test_cli_conventions import _complete

    assert _complete(["ship", "build", "X", "--body"], "cr", {}) == ["cruiser"]
    assert _complete(["ship", "build", "X", "--plant"], "h", {}) == ["heavy-duty"]
    assert _complete(["ship", "build", "X", "--design"], "lu", {}) == [
        "Lucky Catch",
        "Lucky Catch (Heavy Armor Option)",
    ]


def test_built_boats_sail_forecast_plan_and_roll(db) -> None:
    # built boats sail, forecast, plan and roll; only `roll strain` (R82: no straining) refuses
    assert run("map", "load", "salt_reach").exit_code == 0
    assert run("ship", "build", "Fox", "--design", "Moray").exit_code == 0
    assert run("ship", "place", "Fox", "0305").exit_code == 0
    for args in (
        ["forecast", "Fox", "--to", "1007", "--runs", "3"],
        ["plan", "Fox", "--to", "1007"],
        ["roll", "capsize", "Fox", "--json"],
    ):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
    before = db_contents(db)
    strain = run("roll", "strain", "Fox", "--extra", "2")
    assert strain.exit_code != 0 and "Fox is a built boat:" in strain.output, strain.output
    assert len(strain.output.strip().splitlines()) == 1
    assert db_contents(db) == before
    sail = run("sail", "Fox", "--to", "1007")
    assert sail.exit_code == 0, sail.output


def test_doctor_checks_the_design_column(db) -> None:
    import sqlite3

    assert run("ship", "build", "Fox", "--design", "Darter").exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE ships SET design = '{\"body\": ' WHERE name = 'Fox'")
    result = run("doctor")
    assert result.exit_code != 0 and "ships.design" in result.output, result.output


def test_undo_takes_a_build_back(db) -> None:
    before = db_contents(db)
    assert run("ship", "build", "Fox", "--design", "Orca").exit_code == 0
    assert "Undone: ship build" in run("undo").output
    after = db_contents(db)
    assert after["ships"] == before["ships"] == []


def test_a_boats_load_is_shown_in_whole_hlbs_as_a_rolled_ships(db) -> None:
    # R81: Load = (7,675 - 5,400 lbs) / 10 = 227.5 hlbs; every text shows whole hlbs, as
    # a rolled ship's (R100); the JSON keeps the exact figure
    fox = ["--body", "cruiser", "--plant", "large", "--propellers", "2"]
    fox += ["--armor", "F10,R7,L7,B3,T3,U10", "--with", "deck,half-top,bilge-pump,life-raft"]
    built = run("ship", "build", "Fox", *fox, "--crew", "2")
    assert "R81: Tier VI, Deadweight 960 hlbs, Load 227 hlbs" in built.output
    assert json.loads(run("ship", "show", "Fox", "--json").output)["load"] == 227.5
    assert "Load 227 hlbs (Quarter)" in run("ship", "show", "Fox").output  # as a rolled ship's
    (row,) = [line for line in run("ship", "list").output.splitlines() if "Fox" in line]
    assert " 227 " in row and "227.5" not in row


def test_a_boats_load_parts_count_her_stores(db) -> None:
    # R100 on a built boat: food 2 lbs and fresh water 8 lbs a person-day, 3 and 5 of them
    # 46 lbs, 4.6 hlbs (R81); the parts (the card's Load bar) add up to the Load with them
    fox = ["--body", "cruiser", "--plant", "large", "--propellers", "2"]
    fox += ["--armor", "F10,R7,L7,B3,T3,U10", "--with", "deck,half-top,bilge-pump,life-raft"]
    run("ship", "build", "Fox", *fox, "--crew", "2")
    run("ship", "load", "Fox", "--food", "3", "--fresh-water", "5")
    fig = json.loads(run("ship", "show", "Fox", "--json").output)
    assert fig["load"] == 227.5 + 4.6 and fig["load_parts"]["stores"] == 4.6
    assert sum(Fraction(str(v)) for v in fig["load_parts"].values()) == Fraction("232.1")
