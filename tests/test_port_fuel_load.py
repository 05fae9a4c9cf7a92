"""`voyage ship load SHIP --fuel N` in a port draws on the port's fuel stock, as `voyage act
SHIP refuel` does (voyage.store.portfuel; docs/rulings.md under R16): it ignored the stock, so a
ship in Keelhaul (80 hlbs) could load 700. Refused in one line naming what is left; undone
exactly; at sea the referee's say-so; a port that sells none gives none."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import db_contents, ok, refused, trawler_at

KEELHAUL = "2906"  # fuel 3.5 a hlb, 80 in stock
SILT = "0804"  # fuel 1.5 a hlb, no limit
NEEDLE = "3016"  # sells no fuel


def _left(runner: CliRunner, hex_name: str) -> int | None:
    return json.loads(ok(runner, "map", "hex", hex_name, "--json"))["fuel"]["left"]


def _fuel(runner: CliRunner) -> int:
    return int(json.loads(ok(runner, "ship", "show", "Sea Witch", "--json"))["fuel"])


def test_loading_fuel_in_a_port_draws_on_its_stock_and_undo_gives_it_back(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, KEELHAUL, crew=4, fuel=20)  # loaded before she was on the map: no draw
    assert _left(runner, KEELHAUL) == 80
    before = db_contents(db)
    out = ok(runner, "ship", "load", "Sea Witch", "--fuel", "70")
    assert out.splitlines()[0] == (
        "Sea Witch takes on 50 hlbs of fuel at Keelhaul (2906) for 175 (3.5 a hlb): 30 of "
        "its 80 hlbs left."
    )
    assert _left(runner, KEELHAUL) == 30 and _fuel(runner) == 70
    assert "30 of 80 hlbs left" in ok(runner, "map", "show")
    ok(runner, "undo")
    assert db_contents(db) == before  # the stock and her fuel, exactly as they were


def test_asking_for_more_than_is_left_is_one_line_naming_it_and_changes_nothing(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, KEELHAUL, crew=4, fuel=20)
    before = db_contents(db)
    out = refused(runner, "ship", "load", "Sea Witch", "--fuel", "700", "--cargo", "5")
    assert out.strip() == (
        "Error: Keelhaul has only 80 hlbs of fuel left to sell: Sea Witch can load at most "
        "--fuel 100 there (she has 20 hlbs aboard)"
    )
    assert db_contents(db) == before  # her cargo neither: a refused command changes nothing
    ok(runner, "ship", "load", "Sea Witch", "--fuel", "100")  # exactly the stock: allowed
    assert _left(runner, KEELHAUL) == 0
    assert "has only 0 hlbs of fuel left" in refused(
        runner, "ship", "load", "Sea Witch", "--fuel", "101"
    )


def test_the_stock_is_one_for_loading_and_refuelling(runner: CliRunner, db: Path) -> None:
    trawler_at(runner, KEELHAUL, crew=4, fuel=20)
    ok(runner, "ship", "load", "Sea Witch", "--fuel", "80")  # 60 of the 80 taken
    assert "Keelhaul has only 20 hlbs of fuel left to sell" in refused(
        runner, "act", "Sea Witch", "refuel", "30"
    )
    ok(runner, "act", "Sea Witch", "refuel", "20")
    assert "Keelhaul has only 0 hlbs of fuel left to sell" in refused(
        runner, "ship", "load", "Sea Witch", "--fuel", "101"
    )


def test_fuel_put_ashore_goes_back_into_the_stock_never_above_it(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, KEELHAUL, crew=4, fuel=20)
    ok(runner, "ship", "load", "Sea Witch", "--fuel", "60")  # 40 taken: 40 left
    out = ok(runner, "ship", "load", "Sea Witch", "--fuel", "30")
    assert out.splitlines()[0] == (
        "Sea Witch puts 30 hlbs of fuel ashore at Keelhaul (2906), all back into its stock "
        "(70 of 80 hlbs left)."
    )
    out = ok(runner, "ship", "load", "Sea Witch", "--fuel", "0")  # 30 more: 10 fit
    assert "10 back into its stock, which is then full (80 of 80 hlbs left)" in out
    assert _left(runner, KEELHAUL) == 80


def test_a_port_without_a_limit_sells_any_amount_and_one_without_fuel_none(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, SILT, crew=4, fuel=0)
    out = ok(runner, "ship", "load", "Sea Witch", "--fuel", "900")
    assert out.splitlines()[0] == (
        "Sea Witch takes on 900 hlbs of fuel at Silt Harbour (0804) for 1350 (1.5 a hlb) "
        "(no limit to its stock)."
    )
    ok(runner, "ship", "load", "Sea Witch", "--fuel", "10")
    ok(runner, "ship", "place", "Sea Witch", NEEDLE)
    before = db_contents(db)
    out = refused(runner, "ship", "load", "Sea Witch", "--fuel", "40")
    assert out.strip() == (
        "Error: Needle Gate (3016) sells no fuel: Sea Witch can take on none there (she has "
        "10 hlbs); load it in a port that sells it (`voyage map show` lists them)"
    )
    assert db_contents(db) == before
    ok(runner, "ship", "load", "Sea Witch", "--fuel", "5")  # less is always allowed


def test_at_sea_no_stock_is_drawn_and_the_line_says_whose_word_it_is(
    runner: CliRunner, db: Path
) -> None:
    trawler_at(runner, "0305", crew=4, fuel=20)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    hex_now = json.loads(ok(runner, "status", "--json"))["ships"][0]["hex"]
    aboard = _fuel(runner)
    data = json.loads(ok(runner, "ship", "load", "Sea Witch", "--fuel", "50", "--json"))
    assert data["fuel"] == 50
    assert data["notes"] == [
        f"Sea Witch takes on {50 - aboard} hlbs of fuel at sea at {hex_now}: no port's stock "
        "is drawn on (the referee's say-so: a tender, another ship's tanks, a wreck's)."
    ]
    assert _left(runner, "0305") == 600


def test_a_built_boats_charge_is_not_the_ports_fuel(runner: CliRunner, db: Path) -> None:
    # R82: `--fuel` on a built boat is her charge in power units; `act recharge` pays for it
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "build", "Fox", "--design", "Darter")
    ok(runner, "ship", "place", "Fox", KEELHAUL)
    out = ok(runner, "ship", "load", "Fox", "--fuel", "150")
    assert "hlbs of fuel" not in out
    assert _left(runner, KEELHAUL) == 80
