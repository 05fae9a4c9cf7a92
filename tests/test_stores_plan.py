"""Stores planned and shown (R101-R104): the days she carries against a passage in `sail`,
`plan` and `forecast`, stores-out runs counted, a port stop offered for stores, and the
log every audience reads saying a store runs low and runs out."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

from conftest import FaceRoller, ok

from voyage.actions.forecast import Leg, Setup, went_without
from voyage.rules.stores import days_words
from voyage.rules.storesplan import outlook, short_of
from voyage.tables.rulebook import load_rulebook
from voyage.vessels.stores import Stores, store_rules

RULES = store_rules(load_rulebook())


def _trawler(runner, water: str = "12") -> None:
    # six aboard; 12 person-days of fresh water last them two days (R101)
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "load", "Gull", "--food", "100", "--fresh-water", water)
    ok(runner, "ship", "place", "Gull", "0305")


def _clock(db) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT clock FROM campaign").fetchone()[0])


def _ship_row(db) -> tuple:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT stores, crew, fuel FROM ships WHERE name = 'Gull'").fetchone()


def test_outlook_runs_dry_in_the_48th_hour_and_rolls_from_the_third_dry_dawn():
    # R101: 6 people use 1/4 person-day an hour; 12 last 48 hours. R102: dry from clock 48,
    # the 06:00s of days 3, 4, 5 count 1, 2, 3: the first roll at clock 102, target 2
    ahead = outlook(Stores(Fraction(100), Fraction(12)), 6, 0, 200, RULES)
    assert ahead.fresh_water == 48 and ahead.food == 400
    assert ahead.dawns[:2] == ((102, 2), (126, 3))
    assert ahead.out_within(47) == () and ahead.out_within(48) == ("out of fresh water",)
    # half rations of water: twice as long, but the count rises by 1/2 at each 06:00
    # meanwhile (2 by clock 78), so the first dry dawn, clock 102, already rolls
    half = outlook(Stores(Fraction(100), Fraction(12), half_water=True), 6, 0, 400, RULES)
    assert half.fresh_water == 96 and half.dawns[0] == (102, 2)


def test_short_of_names_the_first_passage_a_store_will_not_last():
    stores = Stores(Fraction(100), Fraction(12))
    (short,) = short_of(stores, 6, {"expected": 75, "slow": 80}, RULES)
    assert short["store"] == "fresh water" and short["passage"] == "expected"
    assert short["more"] == 7  # 75 hours are 3.125 days: 18.75 person-days, 7 more (R101)
    (slow,) = short_of(stores, 6, {"expected": 40, "slow": 50}, RULES)
    assert slow["passage"] == "slow"
    assert short_of(stores, 6, {"expected": 48}, RULES) == []
    assert [days_words(Fraction(d)) for d in (2, Fraction(7, 4), 1, Fraction(3, 4))] == [
        "two days",
        "under two days",
        "a day",
        "under a day",
    ]


def test_the_warning_s_more_and_total_agree_when_she_carries_a_part_of_a_person_day(runner, reach):
    # R104: 37/6 (6.17) person-days aboard; the expected 75 hours need 18.75 for six (R101):
    # `ship load` sets 19, which is 12.83 more, not 13 more and 20
    _trawler(runner)
    with sqlite3.connect(reach) as conn:
        (raw,) = conn.execute("SELECT stores FROM ships WHERE name = 'Gull'").fetchone()
        stores = json.loads(raw)
        stores["fresh_water"] = "37/6"
        conn.execute("UPDATE ships SET stores = ? WHERE name = 'Gull'", (json.dumps(stores),))
    out = ok(runner, "forecast", "Gull", "--to", "2812", "--runs", "20", "--seed", "1")
    (warned,) = [line for line in out.splitlines() if line.startswith("Warning: her fresh")]
    assert (
        "take on 12.83 person-days more (to 19 in all: `voyage ship load 'Gull' "
        "--fresh-water 19`) before she leaves" in warned
    )
    data = json.loads(
        ok(runner, "forecast", "Gull", "--to", "2812", "--runs", "20", "--seed", "1", "--json")
    )
    assert data["stores"]["short"][0]["total"] == 19


def test_a_run_counts_the_stores_out_and_the_dying_rolls_on_its_own_dice():
    stores = Stores(Fraction(100), Fraction(12))
    setup = Setup(world=None, state=None, clock=0)  # type: ignore[arg-type]
    setup.stores, setup.people, setup.store_rules = stores, 6, RULES
    setup.outlook = outlook(stores, 6, 0, 200, RULES)
    assert went_without(setup, [47], FaceRoller([])) == ([], 0)
    # a run of 110 hours: dry from 48, the 06:00 of day 5 (clock 102) rolls for six at 2
    faces = FaceRoller([1, 1, 3, 4, 6, 6, 2, 5, 1, 2, 6, 6])
    assert went_without(setup, [110], faces) == (["out of fresh water"], 1)
    assert not faces.faces  # six people rolled 2d6; a 2 dies, a 3 lives (R102)
    # a stop in port at hour 40 taking on 12 more: she does not run dry in 75 hours
    setup.legs = [Leg(["0804", "0805"], [False, False], 0, None, 0, 12)]
    assert went_without(setup, [40, 75], FaceRoller([])) == ([], 0)


def test_done_when_warned_before_she_sails_and_the_players_log_tells_it(runner, reach):
    _trawler(runner)
    # R104: the forecast and the plan warn before she sails, against both passages
    out = ok(runner, "forecast", "Gull", "--to", "2812", "--runs", "200", "--seed", "1")
    assert "runs out of food or fresh water      100.0%" in out
    assert (
        "Stores for the 6 aboard: food 100 person-days (16.67 days), fresh water 12 "
        "person-days (2 days); the passage: expected 3.12 days (75 hours), slow (95th "
        "percentile) 3.12 days (75 hours)." in out
    )
    warned = [line for line in out.splitlines() if line.startswith("Warning: her fresh water")]
    assert len(warned) == 1 and "(2 days) will not last the expected passage (3.12" in warned[0]
    # `ship load` sets what she carries: the 12 she has and 7 more
    assert "take on 7 person-days more (to 19 in all: `voyage ship load 'Gull' " in warned[0]
    assert "--fresh-water 19`) before she leaves" in warned[0]
    data = json.loads(
        ok(runner, "forecast", "Gull", "--to", "2812", "--runs", "200", "--seed", "1", "--json")
    )
    assert data["chances"]["out_of_stores"]["chance"] == 1.0
    assert data["stores"]["short"][0]["more"] == 7
    assert data["halts"] == {"out of fresh water": 200}
    plan = ok(runner, "plan", "Gull", "--to", "2812", "--runs", "100", "--seed", "1")
    assert "Plan 1: Warning: her fresh water (2 days) will not last" in plan
    stop = next(line for line in plan.splitlines() if "through a port for stores" in line)
    number = stop.split()[0]
    assert f"Plan {number}: at Silt Harbour (0804) take on 14 person-days of fresh water" in plan
    # and `sail` says it as she sails
    sailed = ok(runner, "sail", "Gull", "--to", "2812")
    assert "Warning: her fresh water (2 days) will not last the expected passage" in sailed
    assert "`voyage undo`, then take on 7 person-days more (to 19 in all: `voyage ship" in sailed
    loaded = _ship_row(reach)
    out = ok(runner, "advance", "--hours", "200")
    assert "Advanced 48 hours" in out and "Stopped: Gull: out of fresh water." in out
    # the referee's log: running low at each 06:00, then dry (R101)
    assert "Gull's fresh water is running low: under two days left for the 6 aboard" in out
    players = ok(runner, "export", "Gull", "-f", "md", "--out", "-")
    assert "Gull's fresh water is running low: under two days left for the 6 aboard." in players
    assert "Gull's fresh water is running low: under a day left for the 6 aboard." in players
    assert "Gull has run out of fresh water; her people go without." in players
    assert "R101" not in players  # the players read no rulings
    journal = ok(runner, "journal", "--out", "-")
    assert "Gull has run out of fresh water; her people go without." in journal
    # kept at sea, from the third dry 06:00 (clock 102) everyone rolls (R102), unless the
    # rain is caught (R103); the players' log tells either
    ok(runner, "act", "Gull", "anchor")
    advances = 2
    while _clock(reach) < 110 and advances < 6:
        ok(runner, "advance", "--until", "day 5, 14:00")
        advances += 1
    players = ok(runner, "export", "Gull", "-f", "md", "--out", "-")
    with sqlite3.connect(reach) as conn:
        texts = [t for (t,) in conn.execute("SELECT text FROM events WHERE kind = 'stores'")]
    if any("catches the rain" in t for t in texts):
        assert "catches the rain" in players
    else:
        dying = [t for t in texts if t.startswith("Going without on Gull")]
        assert dying and " of 6 die" in dying[0]
        assert "Going without on Gull: " in players and " of 6 die" in players
        assert "2d6" not in players  # no dice for the players
    for _ in range(advances):
        ok(runner, "undo")
    assert _ship_row(reach) == loaded  # every person-day back exactly


def test_enough_stores_no_warning_and_a_planned_stop_sails_with_its_stores(runner, reach):
    _trawler(runner, water="30")
    out = ok(runner, "forecast", "Gull", "--to", "2812", "--runs", "100", "--seed", "1")
    assert "runs out of food or fresh water        0.0%" in out and "Warning" not in out
    assert "through a port for stores" not in ok(runner, "plan", "Gull", "--to", "2812")
    sailed = json.loads(ok(runner, "sail", "Gull", "--to", "2812", "--json"))
    assert sailed["stores"]["short"] == [] and sailed["stores"]["fresh_water_days"] == 5


def test_the_stores_stop_takes_them_on_and_its_runs_do_not_run_dry(runner, reach):
    _trawler(runner)
    plan = json.loads(ok(runner, "plan", "Gull", "--to", "2812", "--runs", "100", "--json"))
    (stop,) = [p for p in plan["plans"] if p["kind"] == "stores"][:1]
    assert stop["out_of_stores"] == 0.0 and stop["stops"][0]["fresh_water"] == 14
    sailed = ok(runner, "sail", "Gull", "--to", "2812", "--plan", str(stop["plan"]))
    assert (
        "At Silt Harbour (0804) take on 14 person-days of fresh water (to 20 in all: `voyage "
        "ship load 'Gull' --fresh-water 20`), then plan the rest of the way from there." in sailed
    )  # `ship load` sets what she carries: the 6 left after a day and 14 more


def test_a_stores_stop_takes_on_only_what_she_has_room_for_and_says_so(runner, reach):
    """R100, R103: a rowboat at oars (2.5 mph) with one aboard, her two free spaces (56
    person-days, our reading) full with 54 of food past her Galley's 28 and 2 of fresh
    water: at Silt Harbour she has room for the water she has drunk on the way and no more."""
    ok(runner, "ship", "build", "Oar", "--body", "rowboat", "--with", "oars,galley,sonar:2")
    ok(runner, "ship", "place", "Oar", "0305")
    ok(runner, "ship", "load", "Oar", "--crew", "1", "--food", "82", "--fresh-water", "2")
    plan = json.loads(ok(runner, "plan", "Oar", "--to", "2812", "--runs", "20", "--json"))
    stop = next(p for p in plan["plans"] if p["kind"] == "stores")["stops"][0]
    assert stop["room"] is True and stop["fresh_water"] == 3 and stop["food"] == 0
    assert stop["fresh_water_total"] == 3  # 0.5 left after 36 hours, 3 more: 3 in all
    said = ok(runner, "plan", "Oar", "--to", "2812", "--runs", "20")
    assert (
        "at Silt Harbour (0804) take on 3 person-days of fresh water, all she has room for "
        "(R103): not enough for the rest of the way (to 3 in all: `voyage ship load 'Oar' "
        "--fresh-water 3`)." in said
    )


def test_at_sea_the_forecast_warns_from_where_she_is(runner, reach):
    _trawler(runner)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "advance", "--hours", "10")
    out = ok(runner, "forecast", "Gull", "--runs", "100", "--seed", "1")
    # R101: 10 hours of six use 2.5 of each; 9.5 person-days of fresh water: 1.58 days
    assert "fresh water 9.5 person-days (1.58 days)" in out
    (warned,) = [line for line in out.splitlines() if line.startswith("Warning: her fresh")]
    assert "(1.58 days) will not last the expected passage" in warned
    assert "put into a port on the way (`voyage act 'Gull' course --to PORT`)" in warned
    assert "ship load" not in warned  # R103: not at sea
