"""R92 with R41: a tow counts in the tower's load category, so a tow that makes her
Overloaded makes her check for capsizing every hour (R41), on every path of the engine
(every phase run, or the calm hour's shortcut, voyage.engine.clock._ShipHour.calm);
R12's sinking at twice her Deadweight and R37 still leave the tow out."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok
from engine_helpers import OPEN_ROUTE, ship, voyage, world

from voyage.dice.roller import Roller
from voyage.engine import clock as engine_module
from voyage.engine.clock import Engine
from voyage.store import campaign as store
from voyage.vessels import ships as shipfig


def _fleet(runner: CliRunner) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    ok(runner, "settings", "rolled_weather", "false")
    # the whaler (Tier VIII, Deadweight 2500, Steady: +1 Advantage): 120 fuel + 80 people
    # + 50 equipment + 2100 cargo = 2350 aboard, Full; the Gull (Tier II) weighs 250 + her
    # Load in tow
    whaler = ("--class", "whaler", "--tier", "VIII", "--engine", "VIII", "--trait", "Steady")
    ok(runner, "ship", "add", "Old Faithful", *whaler)
    ok(runner, "ship", "load", "Old Faithful", "--crew", "8", "--fuel", "120", "--cargo", "2100")
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "2", "--fuel", "30")
    for name in ("Old Faithful", "Gull"):
        ok(runner, "ship", "place", name, "0305")
    ok(runner, "sail", "Old Faithful", "--to", "2812")
    ok(runner, "sail", "Gull", "--to", "2812")


def _checks(runner: CliRunner) -> list[tuple[int, int, str]]:
    """Old Faithful's capsize Checks: (clock, minute, the roll's line)."""
    log = json.loads(ok(runner, "log", "Old Faithful", "--json"))
    return [
        (e["clock"], e["minute"], r)
        for e in log["events"]
        if e["kind"] == "capsize"
        for r in e["rolls"]
    ]


def test_a_tow_that_overloads_her_makes_her_check_every_hour(runner: CliRunner, db: Path):
    _fleet(runner)
    camp = store.open_campaign(db)
    tower, gull, book = camp.get_ship("Old Faithful"), camp.get_ship("Gull"), camp.rulebook
    assert shipfig.load(tower, book) == 2350 and shipfig.load_category(tower, book) == "full"
    tow = shipfig.deadweight(gull, book) + shipfig.load(gull, book)
    camp.close()
    ok(runner, "advance", "--hours", "4")  # Full: no hourly Check without the tow
    assert _checks(runner) == []
    ok(runner, "undo")
    ok(runner, "act", "Old Faithful", "tow", "Gull")
    camp = store.open_campaign(db)
    tower = camp.get_ship("Old Faithful")
    assert shipfig.load(tower, book) == 2350 + tow > 2500  # R92: Overloaded by the tow
    assert shipfig.load_category(tower, book) == "overloaded"
    assert shipfig.sinking_load(tower, book) == 5000  # R92: not for R12's sinking
    camp.close()
    ok(runner, "advance", "--hours", "12")
    checks = _checks(runner)
    # seeded: one R41 Check at minute 0 of every hour she is Overloaded, until one fails
    assert [(c, m) for c, m, _ in checks] == [(h, 0) for h in range(len(checks))]
    # campaign seed 7: d20 11 + boon 2, 13 + 6, 2 + 1: she holds twice, goes over in hour 2
    assert [(r["natural"], r["total"], r["success"]) for _, _, r in checks] == [
        (11, 17, True),
        (13, 23, True),
        (2, 7, False),
    ]
    for _, _, roll in checks:
        assert roll["label"] == "capsize check (overloaded)" and roll["target"] == 16  # R41
        assert roll["modifiers"] == [
            {"reason": "Tier VIII", "value": 8},
            {"reason": "Overloaded", "value": -4},
        ]
    with sqlite3.connect(db) as conn:
        logged = conn.execute(
            "SELECT load, load_category FROM hours WHERE ship = 'Old Faithful' ORDER BY clock"
        ).fetchall()
    assert logged[0] == (2350 + tow, "overloaded")  # no hex entered yet: nothing burnt


@pytest.mark.parametrize("tow", [0, 60, 300, 1500])  # none, Half, Full, Overloaded (R12)
def test_the_quiet_paths_count_the_tow_as_the_stepped_hour_does(tow: int):
    """The whaler-sized ship of engine_helpers with ``tow`` hlbs counted (R92): the
    calm hour's shortcut gives what running every phase gives: rows (Load and category
    with the tow), Checks, dice."""

    def make():
        s = ship(tier=5, engine=6, cargo=100, fuel=60)
        if tow:
            s.equipment["tow_counted"] = tow
        return voyage(s, OPEN_ROUTE)

    def stepped_or_quick(quick: bool) -> list[object]:
        state = make()
        engine = Engine(world(), [state], Roller(7))
        with pytest.MonkeyPatch.context() as mp:
            if not quick:
                mp.setattr(engine_module._ShipHour, "calm", lambda self: None)
            result = engine.run(0, 10, halt=False)
        return [
            [r.to_dict() for r in result.rows],
            [e.to_dict() for e in result.events],
            engine.roller.get_state(),
        ]

    quick = stepped_or_quick(True)
    assert quick == stepped_or_quick(False)
    rows = quick[0]
    assert isinstance(rows, list)
    book = world().book
    dw = shipfig.deadweight(make().ship, book)
    first = rows[0]
    assert first["load_category"] == shipfig.load_category_for(first["load"], dw, book)
    overloaded = first["load_category"] == "overloaded"
    assert overloaded == (tow == 1500)
    kinds = [e["kind"] for e in quick[1]]  # type: ignore[union-attr, index]
    assert ("capsize" in kinds) == overloaded  # R41: only the Overloaded one checks
