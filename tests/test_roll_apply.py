"""`voyage roll PROCEDURE SHIP --apply`: a table roll carried into the
ship's voyage exactly as the engine would carry it, logged as voyage events in the roll's
own action, continued by `voyage advance`, and taken back whole by `voyage undo`.

The dice are forced face by face (the FaceRoller idea of tests/conftest.py, applied to the
campaign's roller): each test says which faces fall, so each branch of the rules is shown.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import db_contents as dump
from conftest import invoke, ok, refused, trawler_at
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.dice.roller import Roller
from voyage.engine.clock import EXTRA_DEFAULTS

SHIP = "Sea Witch"  # Fishing Trawler, Tier IV, Half Load, Speed 6, crew 5, no traits


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[int]]:
    """``dice(1, 3, 4)``: the next dice the campaign rolls show these faces, in order; after
    them the campaign's own seeded dice roll on. Returns the queue (empty once all fell)."""
    queue: list[int] = []
    real = Roller.die

    def die(self: Roller, sides: int) -> int:
        if queue:
            face = queue.pop(0)
            assert 1 <= face <= sides, f"a d{sides} cannot show {face}"
            return face
        return real(self, sides)

    monkeypatch.setattr(Roller, "die", die)

    def force(*faces: int) -> list[int]:
        queue.extend(faces)
        return queue

    return force


@pytest.fixture
def at_sea(runner: CliRunner, db: Path) -> Path:
    """The Sea Witch sailing from Gullhaven (0305) for 2812 on the Salt Reach, clock 0."""
    trawler_at(runner, "0305", SHIP, crew=5, cargo=200, fuel=60)
    ok(runner, "sail", SHIP, "--to", "2812")
    return db


def state(db: Path) -> dict[str, Any]:
    """The voyage's row, its state JSON merged in, and the ship's engine and water."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        row = dict(conn.execute("SELECT * FROM voyages ORDER BY id DESC LIMIT 1").fetchone())
        ship = dict(conn.execute("SELECT * FROM ships WHERE name = ?", [SHIP]).fetchone())
    # the stored state keeps only what differs from a new voyage's (ShipState.stored_extra)
    defaults = {**EXTRA_DEFAULTS, "stuck": False, "emergency": False}
    row.update({**defaults, **json.loads(row.pop("state"))})
    row["engine_broken"] = bool(ship["engine_broken"])
    row["water"] = ship["water"]
    row["ship_status"] = ship["status"]
    return row


def events(db: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = [dict(r) for r in conn.execute("SELECT * FROM events ORDER BY id")]
    for r in rows:
        r["rolls"], r["changes"] = json.loads(r["rolls"]), json.loads(r["changes"])
    return rows


def last_action(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT max(id) FROM actions").fetchone()[0])


def advance(runner: CliRunner) -> dict[str, Any]:
    return json.loads(ok(runner, "advance", "--json"))


def applied_events(db: Path) -> list[dict[str, Any]]:
    """The events of the last action (the applied roll)."""
    act = last_action(db)
    return [e for e in events(db) if e["action_id"] == act]


# ----------------------------------------------------------------------------- capsize


def test_r41_r40_capsize_apply_capsizes_and_starts_the_sinking_clock(runner, at_sea, dice):
    # d20 1 +4 Tier +2 Half = 7 < DV 16: she capsizes; 3d6 2+3+4 +4 Tier = 13, x2 at Half
    left = dice(1, 2, 3, 4)
    out = ok(runner, "roll", "capsize", SHIP, "--apply")
    assert not left
    assert "applied to Sea Witch's voyage 1: under way; capsized; sinking in 26 min" in out
    s = state(at_sea)
    assert s["capsized"] and s["sinking_in"] == 26 and s["sinking_since"] == 0
    assert s["sinking_cause"] == "she capsized" and s["emergency"]
    capsize, sinking = applied_events(at_sea)
    assert capsize["kind"] == "capsize" and capsize["voyage_id"] == 1
    assert capsize["changes"] == {"capsized": True, "sinking": True}
    assert capsize["rolls"][0]["faces"] == [1] and (capsize["clock"], capsize["minute"]) == (0, 0)
    assert sinking["kind"] == "sinking" and sinking["changes"]["submerges_in"] == 26
    assert sinking["text"].startswith("Sea Witch is sinking: she capsized.")
    # the next advance counts the minutes down from minute 1: she goes under at minute 26
    result = advance(runner)
    sunk = [e for e in result["events"] if e["kind"] == "sunk"]
    assert [(e["clock"], e["minute"]) for e in sunk] == [(0, 26)]
    assert state(at_sea)["status"] == "sunk"


def test_capsize_apply_that_holds_changes_nothing_but_is_logged(runner, at_sea, dice):
    dice(20)
    before = state(at_sea)
    ok(runner, "roll", "capsize", SHIP, "--apply", "--storm")
    assert state(at_sea) == before
    (event,) = applied_events(at_sea)
    assert event["kind"] == "capsize" and event["changes"] == {}
    assert event["rolls"][0]["label"] == "capsize check (storm)"


# ----------------------------------------------------------------------------- hull, ram


def test_r36_hull_hit_apply_opens_a_leak_that_floods_the_next_hour(runner, at_sea, dice):
    dice(3)  # d6 3 + weapon 2 = 5 hlbs an hour
    ok(runner, "roll", "hull-hit", SHIP, "--weapon-mod", "2", "--apply")
    s = state(at_sea)
    assert s["leaks"] == [5] and s["water"] == 0 and s["sinking_in"] is None
    (event,) = applied_events(at_sea)
    assert event["kind"] == "hull" and event["changes"] == {"add_leak": 5}
    result = advance(runner)
    assert result["rows"][0]["water"] == 5 and result["rows"][0]["leaks"] == 5
    assert state(at_sea)["water"] == 5
    # a second hit adds up (R36)
    dice(1)
    ok(runner, "roll", "hull-hit", SHIP, "--apply")
    assert state(at_sea)["leaks"] == [5, 1]
    assert advance(runner)["rows"][0]["water"] == 11


def test_r36_explosion_apply_destroys_and_sinks(runner, at_sea, dice):
    # leak d6 1; Explosion d20 20 + 5 lethal - 4 Tier = 21 >= 20; sinking 3d6 1+1+1 +4 = 7 x2
    dice(1, 20, 1, 1, 1)
    ok(runner, "roll", "hull-hit", SHIP, "--explosion", "--zone", "lethal", "--apply")
    s = state(at_sea)
    assert s["destroyed"] and s["leaks"] == [1] and s["sinking_in"] == 14
    assert s["sinking_cause"] == "the hull is destroyed (R36)"
    assert [e["kind"] for e in applied_events(at_sea)] == ["hull", "sinking"]
    sunk = [e for e in advance(runner)["events"] if e["kind"] == "sunk"]
    assert [e["minute"] for e in sunk] == [14]


def test_a_sunk_ship_takes_no_load(runner, at_sea, dice):
    """Sunk (R36 here), she is refused by `ship load` as by `ship place` and `sail`: her crew
    could be loaded back aboard her on the bottom, and her card changed, before."""
    dice(1, 20, 1, 1, 1)
    ok(runner, "roll", "hull-hit", SHIP, "--explosion", "--zone", "lethal", "--apply")
    advance(runner)
    before = dump(at_sea)
    assert refused(runner, "ship", "load", SHIP, "--crew", "6") == (
        f"Error: {SHIP} is sunk: she lies on the bottom at 0305, with nothing to load\n"
    )
    assert dump(at_sea) == before


def test_r36_a_ship_already_sinking_keeps_her_count(runner, at_sea, dice):
    dice(1, 1, 1)  # sinking in (3 + 4) x 2 = 14 minutes
    ok(runner, "roll", "sinking", SHIP, "--apply")
    dice(1, 20)  # destroyed: no second sinking time is rolled
    out = json.loads(
        ok(runner, "roll", "hull-hit", SHIP, "--explosion", "--zone", "lethal", "--apply", "--json")
    )
    assert [r["kind"] for r in out["results"]] == ["hull"]
    s = state(at_sea)
    assert (
        s["destroyed"]
        and s["sinking_in"] == 14
        and s["sinking_cause"] == "the referee's call (R40)"
    )


def test_r35_ram_apply_takes_the_hit(runner, at_sea, dice):
    # d12 2 vs speed 6: margin 4; leak d6 1 + 4 = 5; Explosion d20 1 + 4 + 5 - 4 = 6 survives
    dice(2, 1, 1)
    ok(runner, "roll", "ram", SHIP, "--target", "the Widow's reef", "--apply")
    s = state(at_sea)
    assert s["leaks"] == [5] and not s["destroyed"] and s["status"] == "under way"
    (event,) = applied_events(at_sea)
    assert event["kind"] == "ram" and event["changes"] == {"add_leak": 5}
    assert advance(runner)["rows"][0]["water"] == 5


# ----------------------------------------------------------------------------- aground


def test_r34_aground_apply_sticks_her_and_the_advance_tries_to_get_off(runner, at_sea, dice):
    # d12 12 not under speed 6: stuck; rocky: ram d12 12 > 6, no damage
    dice(12, 12)
    ok(runner, "roll", "aground", SHIP, "--seabed", "rocky", "--apply")
    s = state(at_sea)
    assert s["status"] == "stuck" and s["stuck"] and s["leaks"] == []
    (event,) = applied_events(at_sea)
    assert event["kind"] == "aground" and event["changes"] == {"stuck": True}
    dice(1, 1)  # the hourly try: 2d6 = 2, still stuck
    result = advance(runner)
    assert result["rows"][0]["miles"] == 0 and result["rows"][0]["status"] == "stuck"
    assert [e["text"] for e in result["events"]] == ["The ship is still stuck."]
    # R34: the referee's own roll gets her off
    dice(6, 6)
    ok(runner, "roll", "escape", SHIP, "--apply")
    assert state(at_sea)["status"] == "under way"
    assert advance(runner)["rows"][0]["miles"] == 6


def test_r34_r35_aground_on_rocks_with_damage(runner, at_sea, dice):
    # stuck (d12 6 not under 6), ram d12 1: margin 5, leak d6 2 + 5 = 7, Explosion d20 1
    dice(6, 1, 2, 1)
    ok(runner, "roll", "aground", SHIP, "--seabed", "rocky", "--apply")
    s = state(at_sea)
    assert s["status"] == "stuck" and s["leaks"] == [7]


# ----------------------------------------------------------------------------- fire


def test_r50_fire_apply_burns_minute_by_minute_in_the_advance(runner, at_sea, dice):
    dice(3)  # severity 3, not over Tier IV
    out = ok(runner, "roll", "fire", SHIP, "--apply")
    assert "fire severity 3" in out
    s = state(at_sea)
    assert s["fire"] == 3 and s["fire_since"] == 0 and s["swallow_in"] is None
    assert applied_events(at_sea)[0]["changes"] == {"fire_severity": 3}
    result = advance(runner)
    fires = [e for e in result["events"] if e["kind"] == "fire"]
    # it burns from the next minute, one event a minute (R52), until it is out or the hour ends
    minutes = [e["minute"] for e in fires]
    assert minutes == list(range(1, len(minutes) + 1))
    assert fires[0]["rolls"][0]["label"] == "the flames spread"


def test_r50_fire_minute_apply_uses_and_updates_the_ships_fire(runner, at_sea, dice):
    dice(3)
    ok(runner, "roll", "fire", SHIP, "--apply")
    ok(runner, "act", SHIP, "fight-fire", "--crew", "4")
    dice(6, 1)  # no spread; 4 crew >= severity 3 fight it down on a 1
    out = json.loads(ok(runner, "roll", "fire", SHIP, "--minute", "--apply", "--json"))
    assert out["inputs"]["severity"] == 3 and out["inputs"]["crew"] == 4
    assert state(at_sea)["fire"] == 2
    assert out["applied"]["state"]["fire"] == 2
    dice(1, 1)  # spreads to 3 (2-in-6), beaten back to 2
    ok(runner, "roll", "fire", SHIP, "--minute", "--apply")
    dice(6, 1, 6, 1)  # down to 1, then out
    ok(runner, "roll", "fire", SHIP, "--minute", "--apply")
    ok(runner, "roll", "fire", SHIP, "--minute", "--apply")
    s = state(at_sea)
    assert s["fire"] == 0 and s["fire_since"] is None and not s["emergency"]


def test_r50_fire_out_of_control_apply_swallows_her(runner, at_sea, dice):
    dice(4)
    ok(runner, "roll", "fire", SHIP, "--apply")
    dice(1, 2, 3)  # spreads to 5 > Tier IV: out of control, swallowed in 2d6 = 5 minutes
    ok(runner, "roll", "fire", SHIP, "--minute", "--apply")
    s = state(at_sea)
    assert s["fire"] == 5 and s["swallow_in"] == 5 and s["fire_since"] == 0
    assert "out of control" in refused(runner, "roll", "fire", SHIP, "--minute", "--apply")
    result = advance(runner)
    destroyed = [e for e in result["events"] if e["changes"].get("destroyed")]
    assert [e["minute"] for e in destroyed] == [5]


# ----------------------------------------------------------------------------- strain


def test_r14_strain_apply_breaks_the_engine_and_sets_it_on_fire(runner, at_sea, dice):
    # d6 6 + 2 = 8 >= 6: breaks; again 6 + 2: fire; severity d4 2
    dice(6, 6, 2)
    ok(runner, "roll", "strain", SHIP, "--extra", "3", "--apply")
    s = state(at_sea)
    assert s["engine_broken"] and s["fire"] == 2
    strain, fire = applied_events(at_sea)
    assert strain["changes"] == {"engine_broken": True, "fire_starts": True}
    assert fire["text"].startswith("Fire in the engine! A fire of severity 2")
    result = advance(runner)
    assert result["rows"][0]["miles"] == 0 and result["rows"][0]["speed"] == 0  # R13


def test_r14_strain_apply_engine_holds(runner, at_sea, dice):
    before = state(at_sea)
    dice(5)  # d6 5 + 0 < 6
    ok(runner, "roll", "strain", SHIP, "--extra", "1", "--apply")
    assert state(at_sea) == before
    (event,) = applied_events(at_sea)
    assert event["kind"] == "strain" and event["text"] == "The engine holds."


# ----------------------------------------------------------------------------- sinking


def test_r40_sinking_apply_is_the_referees_call_and_can_be_saved(runner, at_sea, dice):
    dice(1, 1, 1)  # 3 + 4 Tier = 7, x2 at Half Load
    ok(runner, "roll", "sinking", SHIP, "--apply")
    s = state(at_sea)
    assert s["sinking_in"] == 14 and s["sinking_cause"] == "the referee's call (R40)"
    (event,) = applied_events(at_sea)
    assert event["text"].startswith("Sea Witch is sinking: the referee's call (R40).")
    ok(runner, "act", SHIP, "saved")
    assert state(at_sea)["sinking_in"] is None


# ----------------------------------------------------------------------------- undo


APPLIED = [
    ("capsize", (1, 2, 3, 4), ()),
    ("hull-hit", (3, 20, 6, 6, 6), ("--explosion", "--zone", "lethal")),
    ("ram", (1, 6, 1), ()),
    ("aground", (12, 1, 6, 1), ("--seabed", "wreckage")),
    ("fire", (4,), ()),
    ("strain", (6, 6, 4), ("--extra", "3")),
    ("sinking", (6, 6, 6), ()),
]


@pytest.mark.parametrize(("procedure", "faces", "args"), APPLIED)
def test_undo_takes_back_roll_and_effect_exactly(runner, at_sea, dice, procedure, faces, args):
    before = dump(at_sea)
    dice(*faces)
    ok(runner, "roll", procedure, SHIP, *args, "--apply")
    after = dump(at_sea)
    assert after["voyages"] != before["voyages"]
    assert len(after["rolls"]) > len(before["rolls"])
    assert len(after["events"]) > len(before["events"])
    ok(runner, "undo")
    assert dump(at_sea) == before


def test_undo_after_an_applied_fire_minute_and_escape(runner, at_sea, dice):
    dice(2)
    ok(runner, "roll", "fire", SHIP, "--apply")
    dice(12, 12)
    ok(runner, "roll", "aground", SHIP, "--seabed", "rocky", "--apply")
    before = dump(at_sea)
    dice(6, 6)
    ok(runner, "roll", "fire", SHIP, "--minute", "--apply")
    dice(6, 6)
    ok(runner, "roll", "escape", SHIP, "--apply")
    ok(runner, "undo")
    ok(runner, "undo")
    assert dump(at_sea) == before


# ----------------------------------------------------------------------------- refusals


def test_apply_without_a_ship_is_a_usage_error(runner, db):
    result: Result = invoke(runner, "roll", "hull-hit", "--tier", "4", "--apply")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: --apply needs a SHIP of the campaign: it changes that ship's voyage"
    )


def test_a_ship_in_port_is_refused_and_nothing_is_kept(runner, db):
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", SHIP, "--class", "trawler", "--tier", "IV", "--engine", "V")
    ok(runner, "ship", "place", SHIP, "0305")
    before = dump(db)
    out = refused(runner, "roll", "hull-hit", SHIP, "--apply")
    assert "not at sea" in out and "sail first" in out
    assert dump(db) == before


@pytest.mark.parametrize(
    ("setup", "faces", "args", "reason"),
    [
        (("sinking",), (1, 1, 1), ("capsize",), "already sinking"),
        (("sinking",), (1, 1, 1), ("sinking",), "already sinking"),
        ((), (), ("escape",), "is not stuck"),
        ((), (), ("fire", "--minute"), "is not on fire"),
        (("strain", "--extra", "3"), (6, 1), ("strain", "--extra", "1"), "already broken"),
        (("aground", "--seabed", "sandy"), (12,), ("aground", "--seabed", "sandy"), "stuck"),
    ],
)
def test_results_that_cannot_happen_are_refused_in_one_line(
    runner, at_sea, dice, setup, faces, args, reason
):
    if setup:
        dice(*faces)
        ok(runner, "roll", setup[0], SHIP, *setup[1:], "--apply")
    before = dump(at_sea)
    assert reason in refused(runner, "roll", args[0], SHIP, *args[1:], "--apply")
    assert dump(at_sea) == before


def test_a_sunk_ship_is_refused(runner, at_sea, dice):
    dice(1, 1, 1)
    ok(runner, "roll", "sinking", SHIP, "--apply")
    advance(runner)
    assert "is sunk" in refused(runner, "roll", "fire", SHIP, "--apply")


def test_without_apply_nothing_about_the_ship_changes(runner, at_sea, dice):
    before = state(at_sea)
    dice(3)
    out = ok(runner, "roll", "hull-hit", SHIP)
    assert "applied" not in out
    assert state(at_sea) == before
    assert applied_events(at_sea) == []


def test_status_and_log_show_the_applied_result(runner, at_sea, dice):
    dice(3)
    ok(runner, "roll", "hull-hit", SHIP, "--weapon-mod", "2", "--apply")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["leaks"] == [5]
    log = ok(runner, "log", SHIP)
    assert "[hull] The hull is holed: the ship takes on 5 hlbs of water an hour." in log
    assert "hull leak: d6=3 +2 (weapon) = 5" in log


# ----------------------------------------------------------------------------- any order

STEPS = {
    "capsize": [[], ["--storm"], ["--reason", "listing"]],
    "hull-hit": [[], ["--weapon-mod", "4"], ["--explosion", "--zone", "lethal"]],
    "ram": [[], ["--speed", "12"]],
    "aground": [["--seabed", "rocky"], ["--seabed", "sandy"], ["--seabed", "ruins"]],
    "escape": [[]],
    "fire": [[], ["--minute"], ["--minute", "--crew", "0"]],
    "strain": [["--extra", "1"], ["--extra", "3"]],
    "sinking": [[]],
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign with the Sea Witch at sea, built once and copied for each example."""
    path = tmp_path_factory.mktemp("apply") / "template.db"
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    for args in (
        ("init", "--name", "Test", "--seed", "7"),
        ("map", "load", "salt_reach"),
        ("ship", "add", SHIP, "--class", "trawler", "--tier", "IV", "--engine", "V"),
        ("ship", "load", SHIP, "--crew", "5", "--cargo", "200", "--fuel", "60"),
        ("ship", "place", SHIP, "0305"),
        ("sail", SHIP, "--to", "2812"),
    ):
        ok(runner, *args)
    return path


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.one_of(
            st.just(("advance",)),
            st.sampled_from(sorted(STEPS)).flatmap(
                lambda p: st.sampled_from(STEPS[p]).map(lambda a: ("roll", p, SHIP, *a, "--apply"))
            ),
        ),
        min_size=1,
        max_size=7,
    ),
    st.integers(0, 2**31),
)
def test_any_order_of_applied_rolls_and_advances(template, tmp_path, steps, seed):
    """Applied rolls and advances in any order: each is done or refused in one line, the
    voyage state stays one the engine can run, and undoing every action done gives back
    the campaign exactly."""
    path = tmp_path / f"c{seed}.db"
    path.unlink(missing_ok=True)
    with sqlite3.connect(template) as src, sqlite3.connect(path) as dst:
        src.backup(dst)
    with sqlite3.connect(path) as conn:  # the campaign's dice, from the example's seed
        conn.execute("UPDATE campaign SET rng_state = ?", [Roller(seed).get_state()])
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    before = dump(path)
    done = 0
    for step in steps:
        result = invoke(runner, *step)
        if result.exit_code == 0:
            done += 1
        else:
            assert result.exit_code == 1, (step, result.output)
            assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    json.loads(ok(runner, "status", "--json"))
    for _ in range(done):
        ok(runner, "undo")
    assert dump(path) == before
