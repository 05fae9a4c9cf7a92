"""R84 at the `dive`: the Depth Damage roll "on first passing" her rating is made when she
dives past it (logged with its dice, undone with the dive; an implosion sinks her through
the engine's own path, R71 for her crew), and, where the referee tracks armour
(`track_armor`), the table wears her armour and the seed's armour modifiers count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import build_sub, db_contents, ok, refused

from voyage.store import campaign as store
from voyage.vessels.subarmor import armor_modifier, armor_now, built_sides, wear
from voyage.vessels.submersible import depth_damage

ARMOR = "F10,R7,L7,B3,T3,U10"  # the weakest sides, B and T, built with 3 points


@pytest.fixture
def reach(runner: CliRunner, db: Path) -> Path:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    return db


def _eel(runner: CliRunner, armor: str | None = ARMOR, sail: bool = True) -> None:
    """A submersible Speeder rated to 300 ft, two crew: in Ironport (2812), or at sea from
    2712, the uncharted open sea off it, for the Deep Reach (R84: an uncharted port is
    anchorage water, 150 ft at most, tests/test_referee_world.py)."""
    extra = ["--armor", armor] if armor else []
    build_sub(runner, "Eel", "--propellers", "2", "--crew", "2", *extra)
    ok(runner, "ship", "place", "Eel", "2712" if sail else "2812")
    if sail:
        ok(runner, "sail", "Eel", "--to", "1714")


def _events(runner: CliRunner, ship: str = "Eel") -> list[dict[str, Any]]:
    return list(json.loads(ok(runner, "log", ship, "--json"))["events"])


def _kinds(events: list[dict[str, Any]]) -> list[str]:
    # sailing from 2712 she weighs anchor first (R65)
    return [e["kind"] for e in events if e["kind"] not in ("place", "sail", "weigh")]


# ----------------------------------------------------------------- first passing, at the dive


def test_diving_past_her_rating_rolls_at_once_with_its_dice_and_undoes(runner, reach):
    _eel(runner)
    before = db_contents(reach)
    out = ok(runner, "act", "Eel", "dive", "400")
    assert "she rolls on the Depth Damage Table now, on passing it" in out
    assert "depth damage (passing her rated depth): d6=3 +3 (33% beyond 300 ft) = 6" in out
    events = _events(runner)
    assert _kinds(events) == ["dive", "depth"]  # the dive, then its roll (R84)
    depth = events[-1]
    assert (depth["clock"], depth["minute"]) == (0, 0)
    roll = depth["rolls"][0]
    assert roll["label"] == "depth damage (passing her rated depth)"
    assert roll["modifiers"] == [{"reason": "33% beyond 300 ft", "value": 3}]
    # campaign seed 7: 3 + 3 = 6, row 5-8 (a leak on a 6): the leak die shows 2, she holds
    assert (roll["natural"], roll["total"]) == (3, 6)
    assert depth["rolls"][1]["label"] == "hull leaks" and not depth["rolls"][1]["success"]
    ok(runner, "undo")
    assert db_contents(reach) == before  # the dive and its roll, undone together
    ok(runner, "act", "Eel", "dive", "400")
    ok(runner, "act", "Eel", "dive", "350")  # still past it: no new roll (hourly only)
    assert _kinds(_events(runner)) == ["dive", "depth", "dive"]
    ok(runner, "act", "Eel", "dive", "200")  # back above her rating ...
    ok(runner, "act", "Eel", "dive", "400")  # ... and past it again: a first passing again
    assert _kinds(_events(runner)) == ["dive", "depth", "dive", "dive", "dive", "depth"]
    # then once an hour, as the hour begins, but not twice in one minute: the hour that
    # begins in the dive's minute makes no second roll (R84 amended)
    ok(runner, "advance", "--hours", "2")
    hourly = [e for e in _events(runner) if e["kind"] == "depth"][2:]
    assert [(e["clock"], e["minute"]) for e in hourly] == [(1, 0)]
    assert hourly[0]["rolls"][0]["label"] == "depth damage (an hour below her rated depth)"


def _undo_summaries(db: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT summary FROM actions ORDER BY id")]


def test_the_action_is_summed_up_in_its_own_line(runner, reach):
    _eel(runner)
    ok(runner, "act", "Eel", "dive", "400")
    assert _undo_summaries(reach)[-1] == (
        "Eel dives to 400 ft at 2712, 100 ft below her rated 300 ft: she rolls on the Depth "
        "Damage Table now, on passing it, and every hour she stays there (R84)."
    )


def test_an_implosion_at_the_dive_sinks_her_as_the_engine_sinks_a_ship(runner, reach):
    """3,000 ft for a sub rated to 300: +90, she implodes. The action's events after the
    dive are those an advance makes of the same roll (the engine's depth phase: the roll,
    her sinking, R71's escape rolls for her two crew), with the same dice, and the crew are
    left in the water the same way."""
    _eel(runner)
    before = db_contents(reach)
    ok(runner, "act", "Eel", "dive", "3000")
    by_action = [e for e in _events(runner) if e["kind"] != "dive"]
    afloat_action = json.loads(ok(runner, "status", "--json"))
    action_rows = _floaters(reach)
    assert [e["kind"] for e in by_action if e["kind"] not in ("place", "sail", "weigh")][:2] == [
        "depth",
        "sunk",
    ]
    assert "she implodes, destroyed (R84)" in by_action[-3]["text"]
    assert "gets out of Eel at 2712: 2 in the water" in by_action[-1]["text"]  # R71: who
    assert len(by_action[-1]["rolls"]) == 2  # one escape roll for each of her crew
    assert json.loads(ok(runner, "ship", "show", "Eel", "--json"))["status"] == "sunk"
    assert "Eel is sunk" in refused(runner, "act", "Eel", "surface")
    ok(runner, "undo")
    assert db_contents(reach) == before
    # the engine's path: she is put at 3,000 ft without the action's roll, and the hour
    # rolls it (R84: below her rating she rolls each hour, whatever else is in hand)
    camp = store.open_campaign(reach)
    with camp.action("test", "down without the dive's roll"):
        eel = camp.get_ship("Eel")
        eel.equipment["depth_ft"] = 3000
        camp.save_ship(eel)
    camp.close()
    ok(runner, "advance", "--hours", "1")
    by_engine = [e for e in _events(runner) if e["kind"] != "dive"]
    keep = ("kind", "minute", "text", "rolls", "changes")
    assert [{k: e[k] for k in keep} for e in by_action] == [
        {k: e[k] for k in keep} for e in by_engine[: len(by_action)]
    ]
    assert afloat_action["ships"] == []
    # her two crew in the water at 2712, as R71 leaves them (the next hour is theirs)
    assert action_rows == [("people", "Eel", "crew", 2, "2712", "afloat")]


def _floaters(db: Path) -> list[tuple[Any, ...]]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT kind, ship, role, count, hex, state FROM floaters ORDER BY id"
        ).fetchall()


def test_a_dive_within_her_rating_rolls_nothing(runner, reach):
    _eel(runner)
    ok(runner, "act", "Eel", "dive", "300")
    assert _kinds(_events(runner)) == ["dive"]


# ----------------------------------------------------------------------- armour (track_armor)


def test_r84_armor_modifiers_our_reading(book):
    built = {"F": 10, "R": 7, "L": 7, "B": 3, "T": 3, "U": 10}

    def mod(**now: int) -> int | None:
        m = armor_modifier(built, {**built, **now}, book)
        return m.value if m else None

    assert mod() is None  # nothing worn
    assert mod(F=3) is None  # 3 is still all of the weakest side's 3
    assert mod(B=2) == 1  # 2 <= 3/4 of 3
    assert mod(B=1) == 2  # 1 <= 1/2 of 3 (not <= 1/4 of it)
    assert mod(B=0) == 6  # a side with no armour
    assert mod(B=2, T=0) == 6  # the worst side counts, once
    wide = {"F": 8, "B": 8}
    assert armor_modifier(wide, {"F": 2, "B": 8}, book).value == 4  # type: ignore[union-attr]
    assert armor_modifier({}, {}, book) is None  # no side built with armour: nothing to wear
    text = armor_modifier(built, {**built, "B": 1}, book).reason  # type: ignore[union-attr]
    assert text == "B armor 1, 1/2 of the weakest side's 3"


def test_r84_the_table_wears_every_armoured_side_by_one_roll(book, faces):
    left = wear({"F": 10, "B": 2}, "1d3", faces(3))[1]
    assert left == {"F": 7, "B": 0}  # never below 0
    built = {"F": 10, "B": 3}
    spec = {"dive_depth": 100}
    # 130 ft: +3; d6 = 3: 6, row 5-8: 1d3 (2) off every side, then the leak die (5: holds)
    out = depth_damage(130, 100, spec, faces(3, 2, 5), book, armor=(built, dict(built)))
    assert out.changes == {"armor_now": {"F": 8, "B": 1}} and out.leak == 0
    assert [r.label for r in out.rolls] == [
        "depth damage (an hour below her rated depth)",
        "armor damage (every side)",
        "hull leaks",
    ]
    # worn to B 1 (<= half the weakest side's 3): +2 more; 4 + 3 + 2 = 9, row 9-10: 1d6
    worn = depth_damage(130, 100, spec, faces(4, 6, 6, 2), book, armor=(built, {"F": 8, "B": 1}))
    assert worn.total == 9 and worn.changes == {"armor_now": {"F": 2, "B": 0}, "add_leak": 2}
    # B gone: +6; 3 + 3 + 6 = 12: she implodes (no armour rolled)
    gone = depth_damage(130, 100, spec, faces(3), book, armor=(built, {"F": 2, "B": 0}))
    assert gone.imploded and len(gone.rolls) == 1
    # not tracked: the same dice as before the setting (no armour roll, no modifier)
    plain = depth_damage(130, 100, spec, faces(3, 5), book)
    assert plain.changes == {} and len(plain.rolls) == 2


def test_tracked_armour_is_worn_shown_and_counts_on_the_table(runner, reach):
    _eel(runner)
    assert "Armor now" not in ok(runner, "ship", "show", "Eel")  # not tracked by default
    ok(runner, "settings", "track_armor", "true")
    assert "Armor now (tracked; now/as built): F10/10, R7/7, L7/7, B3/3, T3/3, U10/10" in ok(
        runner, "ship", "show", "Eel"
    )
    out = ok(runner, "act", "Eel", "dive", "420")  # 40% beyond: +4
    # campaign seed 7: 3 + 4 = 7, row 5-8: 1d3 = 1 off every side
    assert "armor damage (every side): d3=1: F9, R6, L6, B2, T2, U9" in out
    assert "Every armoured side takes 1: F9, R6, L6, B2, T2, U9." in out
    shown = json.loads(ok(runner, "ship", "show", "Eel", "--json"))
    assert shown["armor_now"] == {"F": 9, "R": 6, "L": 6, "B": 2, "T": 2, "U": 9}
    assert "F9/10, R6/7, L6/7, B2/3, T2/3, U9/10" in ok(runner, "ship", "show", "Eel")
    ok(runner, "advance", "--hours", "2")  # the next hour's roll (R84: not in the dive's)
    hour = [e for e in _events(runner) if e["kind"] == "depth"][-1]
    assert hour["clock"] == 1
    assert hour["rolls"][0]["modifiers"] == [  # B at 2: 3/4 of the weakest side's 3, +1
        {"reason": "40% beyond 300 ft", "value": 4},
        {"reason": "B armor 2, 3/4 of the weakest side's 3", "value": 1},
    ]
    ok(runner, "settings", "track_armor", "false")  # left out again: no armour shown
    assert "Armor now" not in ok(runner, "ship", "show", "Eel")


def test_armour_is_made_good_in_port_at_the_bodys_price(runner, reach):
    _eel(runner, sail=False)
    camp = store.open_campaign(reach)
    with camp.action("test", "worn by the deep"):
        eel = camp.get_ship("Eel")
        assert built_sides(eel) == {"F": 10, "R": 7, "L": 7, "B": 3, "T": 3, "U": 10}
        eel.equipment["armor_now"] = {"F": 8, "R": 5, "L": 5, "B": 1, "T": 1, "U": 8}
        camp.save_ship(eel)
    camp.close()
    out = json.loads(ok(runner, "act", "--json", "Eel", "repair", "armor"))
    # 12 points lost, at the Speeder's $20 a point of armour (R80)
    assert out["changes"] == {"armor_points": 12, "cost": 240, "port": "2812"}
    camp = store.open_campaign(reach)
    assert armor_now(camp.get_ship("Eel"))["B"] == 3
    camp.close()
    assert "armour is whole" in refused(runner, "act", "Eel", "repair", "armor")


def test_bad_armour_input_is_one_line_and_changes_nothing(runner, reach):
    _eel(runner)
    ok(runner, "ship", "add", "Gull", "--class", "motorboat", "--tier", "II", "--engine", "III")
    ok(runner, "ship", "place", "Gull", "2812")
    camp = store.open_campaign(reach)
    with camp.action("test", "worn by the deep"):
        eel = camp.get_ship("Eel")
        eel.equipment["armor_now"] = {"B": 1}
        camp.save_ship(eel)
    camp.close()
    before = db_contents(reach)
    assert "setting track_armor cannot be 'maybe': use one of false, true" in refused(
        runner, "settings", "track_armor", "maybe"
    )
    assert "only in a port" in refused(runner, "act", "Eel", "repair", "armor")  # at sea
    assert "a rolled ship" in refused(runner, "act", "Gull", "repair", "armor")
    assert db_contents(reach) == before


# ----------------------------------------------------------------------------- the table


def _table() -> dict[str, Any]:
    from voyage.base.paths import tables_dir
    from voyage.tables.rulebook import parse_yaml

    return dict(parse_yaml((tables_dir() / "boats.yaml").read_text(), "boats.yaml"))


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda s: s["armor_modifiers"][0].update(share=2), r"armor_modifiers\[0\].share"),
        (
            lambda s: s["armor_modifiers"][1].update(modifier="lots"),
            r"armor_modifiers\[1\].modifier",
        ),
        (lambda s: s["depth_damage"][1].update(armor_damage="some"), r"depth_damage.*armor_damage"),
    ],
)
def test_bad_armour_rows_are_one_line_naming_the_key(change, says):
    from voyage.base.errors import TableError
    from voyage.tables.rulebook import check_table

    data = _table()
    change(data["submersible"])
    with pytest.raises(TableError, match=says):
        check_table("boats", data, "boats.yaml")


def test_a_house_table_without_the_armour_keys_still_loads():
    """A campaign's house boats.yaml from before the armour keys: armour rolls nothing."""
    from voyage.tables.rulebook import check_table

    data = _table()
    sub = data["submersible"]
    del sub["armor_modifiers"]
    for row in sub["depth_damage"]:
        row.pop("armor_damage", None)
    check_table("boats", data, "boats.yaml")


def test_the_first_rows_outcome_reads_as_the_seed_prints_it(book, faces):
    """R84's table: 0-4 nothing. The bundled row starts below 0 (a reinforced hull's -1
    on a 1), and its outcome read "row -10-4"; it reads "row 4 or less"."""
    out = depth_damage(110, 100, {"dive_depth": 100, "reinforced": True}, faces(2), book)
    assert out.total == 2 and out.rolls[0].outcome == "row 4 or less"
    mid = depth_damage(130, 100, {"dive_depth": 100}, faces(3, 5), book)
    assert mid.rolls[0].outcome == "row 5-8"
