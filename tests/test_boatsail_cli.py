"""A built boat's voyage through the CLI: the Moray built from the seed's
list, two crew and a smuggler's cargo aboard, races a Whaler (a rolled ship) from Keelhaul
to Ironport at 60 mph, her charge runs down hex by hex (R82), and she recharges in
Ironport. Undo is exact, and a replay is byte-identical (R5)."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok

SETUP = (
    ("map", "load", "salt_reach"),
    ("ship", "build", "Moray", "--design", "Moray"),
    ("ship", "load", "Moray", "--crew", "2", "--cargo", "50"),  # 500 lbs: her cargo spaces
    ("ship", "roll", "--class", "whaler", "--name", "Whaler"),
    ("ship", "load", "Whaler", "--crew", "8", "--fuel", "60"),
    ("ship", "place", "Moray", "2906"),  # Keelhaul
    ("ship", "place", "Whaler", "2906"),
    ("pace", "Moray", "60mph"),  # her top speed at 7,000 lbs (5000/7000 = .71: 60 mph)
    ("sail", "Moray", "--to", "2812"),
    ("sail", "Whaler", "--to", "2812"),
)
HEX = Fraction(216, 10)  # R82: 18 units a 10 miles at 60 mph, x1.2 for a 12-mile hex


def charge(db: Path) -> Fraction:
    with sqlite3.connect(db) as conn:
        return Fraction(conn.execute("SELECT charge FROM ships WHERE name = 'Moray'").fetchone()[0])


def race(runner: CliRunner, db: Path) -> list[str]:
    out = [ok(runner, *args) for args in SETUP]
    out.append(ok(runner, "advance", "--hours", "1", "--json"))
    out.append(ok(runner, "advance", "--until", "arrival"))
    return out


def test_the_moray_races_a_whaler_and_recharges_in_ironport(db: Path) -> None:
    runner = CliRunner()
    out = race(runner, db)
    assert "Moray cruises at 60 mph (top speed 60 mph now): 21.6 power units a hex" in out[7]
    first = json.loads(out[-2])
    moray = [r for r in first["rows"] if r["ship"] == "Moray"][0]
    whaler = [r for r in first["rows"] if r["ship"] == "Whaler"][0]
    assert moray["speed"] == 60 and whaler["speed"] < 10  # mph as knots (R81)
    assert moray["fuel"] == float(200 - 5 * HEX)  # 60 miles: five hexes entered, 92 left
    assert "Moray arrives at Ironport (2812)" in out[-1]
    assert "charge 48.8 power units" in out[-1]
    assert charge(db) == 200 - 7 * HEX  # seven hexes, exactly (fractions kept)
    status = json.loads(ok(runner, "status", "--json"))
    assert [s["ship"] for s in status["ships"]] == ["Whaler"]  # the Moray won; Whaler at sea
    log = ok(runner, "log", "Moray")
    assert "speed 60 (60mph)  charge 92" in log and "charge 48.8" in log
    before = db_contents(db)
    done = ok(runner, "act", "Moray", "recharge")
    assert done.strip() == (
        "Moray recharges at Ironport (2812): 10 minutes, $50; 48.8 -> 200 power units (R82)."
    )
    assert charge(db) == 200
    assert "[recharge] Moray recharges at Ironport" in ok(runner, "log", "Moray")
    ok(runner, "undo")
    assert db_contents(db) == before  # the journal takes it back exactly
    ok(runner, "act", "Moray", "recharge")
    card = ok(runner, "ship", "show", "Moray")
    assert "charge 200/200 power units" in card and "pace 60 mph" in card
    md = Path(db).parent / "moray.md"
    ok(runner, "export", "Moray", "--out", str(md))
    text = md.read_text()
    assert "| Charge spent | 151.2 power units |" in text


def test_an_advance_of_a_built_boat_undoes_exactly(db: Path) -> None:
    runner = CliRunner()
    for args in SETUP:
        ok(runner, *args)
    before = db_contents(db)
    first = ok(runner, "advance", "--hours", "2", "--json")
    ok(runner, "undo")
    assert db_contents(db) == before
    assert ok(runner, "advance", "--hours", "2", "--json") == first


def test_the_race_replays_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.db"
        monkeypatch.setenv("VOYAGE_DB", str(path))
        runner = CliRunner()
        ok(runner, "init", "--seed", "11")
        race(runner, path)
        logs = [ok(runner, "log", ship, "--json") for ship in ("Moray", "Whaler")]
        with sqlite3.connect(path) as conn:
            tables = [
                conn.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
                for t in ("hours", "events", "voyages")
            ]
            ships = conn.execute("SELECT name, fuel, charge FROM ships ORDER BY name").fetchall()
        outputs.append((logs, json.dumps(tables), ships))
    assert outputs[0] == outputs[1]
