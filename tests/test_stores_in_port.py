"""Stores used in port (R101: each person aboard uses them "at sea or in port"): a ship lying
in port with no voyage open takes each hour's stores phase of the engine, the same rules as
at sea (R101 use, R102's 06:00 count and dying rolls, R103's rain), in the advance's one
undoable action, told in every log. The at-sea half of issue 30's "Done when" is
tests/test_stores_plan.py (warned before she sails, dry at hour 48, the players' log)."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from conftest import db_contents, invoke, ok, refused

#: the dawn (06:00) of day 5: 12 person-days last six people 48 hours (R101), and the
#: dawns of days 3, 4 and 5 count 1, 2 and 3 days without fresh water (R102)
FIRST_ROLL = 4 * 24 + 6


def _trawler(runner: CliRunner, water: str = "12", crew: str = "6", tier: str = "V") -> None:
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", tier, "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", crew, "--fuel", "200")
    ok(runner, "ship", "place", "Gull", "0305")  # Gullhaven
    ok(runner, "ship", "load", "Gull", "--food", "100", "--fresh-water", water)  # in port


def _ship_row(db: Path) -> tuple[Any, ...]:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT stores, crew, passengers FROM ships WHERE name = 'Gull'")
        return tuple(row.fetchone())


def _stores(db: Path) -> dict[str, Any]:
    return dict(json.loads(_ship_row(db)[0]))


def _events(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT voyage_id, clock, text, rolls, changes FROM events WHERE kind = 'stores' "
            "ORDER BY id"
        ).fetchall()


def _clock(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT clock FROM campaign").fetchone()[0])


def test_done_when_in_port_she_runs_dry_at_48_and_her_people_roll_from_the_third_dry_day(
    runner, reach
):
    # six aboard, 12 person-days of fresh water, lying in Gullhaven and taking on none
    _trawler(runner)
    before = db_contents(reach)
    out = ok(runner, "advance", "--hours", "200")
    # R101: she drinks in port as at sea; R104: running out stops the advance, at its time
    assert "moved on 48 hours to Day 3, 00:00" in out
    assert "Stopped: Gull: out of fresh water." in out
    assert "Day 2, 23:00  Gull has run out of fresh water (R101)" in out
    assert "Day 1, 06:00  Gull's fresh water is running low: under two days left" in out
    stores = _stores(reach)
    assert stores["fresh_water"] == "0" and stores["food"] == "88"  # 48 hours of 6 (R101)
    for _day in range(3):  # day by day, as a referee waits in port
        assert "Every ship is in port" in ok(runner, "advance", "--days", "1")
    assert _clock(reach) == 5 * 24
    logged = _events(reach)
    assert all(vid is None for vid, *_ in logged)  # she never sailed: no voyage's log
    dying = [e for e in logged if e[2].startswith("Going without on Gull")]
    rain = [e for e in logged if "catches the rain" in e[2]]
    assert not rain  # no storm over Gullhaven in these days (R103)
    (first,) = dying  # the dawns of days 3 and 4 count 1 and 2: nobody rolls (R102)
    assert first[1] == FIRST_ROLL
    rolls = json.loads(first[3])
    assert len(rolls) == 6 and all(r["probability"] == 1 / 36 for r in rolls)  # R102: 2 or less
    deaths = sum(r["total"] <= 2 for r in rolls)
    assert f"{deaths} of 6 die." in first[2]
    assert _ship_row(reach)[1] == 6 - deaths
    assert _stores(reach)["dry_water"] == "3"
    # the players' log tells it, without dice or rulings
    players = ok(runner, "journal", "--since", "day 1", "--out", "-")
    assert "Gull's fresh water is running low: under a day left for the 6 aboard." in players
    assert "23:00 Gull has run out of fresh water; her people go without." in players
    assert f"06:00 Going without on Gull: {deaths} of 6 die." in players
    assert "2d6" not in players and "R102" not in players
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee", "--out", "-")
    assert "a crewman going without (R102): 2d6=" in referee and "needs 2 or less" in referee
    for _ in range(4):  # the four advances
        ok(runner, "undo")
    assert db_contents(reach) == before  # every person-day back exactly


def test_kept_in_port_after_the_passage_she_dies_dry_under_her_voyage(runner, reach):
    # the Done-when in one story: sailed dry at hour 48 (R104), she makes Ironport at hour
    # 75 and lies there taking on no water: the third dry 06:00 comes in port (R102)
    _trawler(runner)
    assert "Warning: her fresh water (2 days) will not last" in ok(
        runner, "sail", "Gull", "--to", "2812"
    )
    loaded = _ship_row(reach)
    advances = 0
    status = ""
    while status != "in port" and advances < 8:
        result = invoke(runner, "advance", "--until", "arrival", "--quiet")
        assert result.exit_code == 0, result.output
        advances += 1
        status = json.loads(ok(runner, "ship", "show", "Gull", "--json"))["status"]
    assert status == "in port" and _clock(reach) < FIRST_ROLL
    ok(runner, "advance", "--until", "day 5, 12:00")
    advances += 1
    with sqlite3.connect(reach) as conn:
        (vid,) = conn.execute("SELECT id FROM voyages WHERE ship = 'Gull'").fetchone()
    logged = _events(reach)
    dry = [e for e in logged if "run out of fresh water" in e[2]]
    assert [e[1] for e in dry] == [47]  # ran dry in the 48th hour at sea (R101)
    dying = [e for e in logged if e[2].startswith("Going without on Gull")]
    rain = [e for e in logged if "catches the rain" in e[2]]
    assert not rain
    (first,) = dying
    assert first[0] == vid and first[1] == FIRST_ROLL  # in port, in her voyage's log
    deaths = sum(r["total"] <= 2 for r in json.loads(first[3]))
    players = ok(runner, "export", "Gull", "-f", "md", "--out", "-")
    arrived = players.index("Gull arrives at Ironport (2812).")
    told = players.index(f"Going without on Gull: {deaths} of 6 die.")
    assert arrived < told and "2d6" not in players
    for _ in range(advances):
        ok(runner, "undo")
    assert _ship_row(reach) == loaded  # every person-day back exactly


def test_named_crew_die_by_name_in_port(runner, reach):
    _trawler(runner, water="0", crew="2")
    ok(runner, "crew", "add", "Tom Pike", "--ship", "Gull")
    # by the 13th dry dawn the roll is 2d6 at or below 12: nobody lives past it (R102)
    ok(runner, "advance", "--days", "14")
    assert _ship_row(reach)[1:] == (0, 0)
    died = [json.loads(e[4]).get("died") for e in _events(reach)]
    assert ["Tom Pike"] in died
    (pike,) = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    assert pike["name"] == "Tom Pike" and pike["state"] == "lost"
    assert "died going without aboard Gull" in pike["note"]
    # all dead: no more rolls of nobody ("0 of 0 die")
    assert all(" of 0 die" not in e[2] for e in _events(reach))


def test_a_rain_catcher_in_port_catches_the_storms_rain_once_a_day(runner, reach):
    _trawler(runner, water="0")  # Tier V: a rain catcher (R103)
    ok(runner, "weather", "storm", "--around", "0305", "--radius", "1", "--hours", "100")
    out = ok(runner, "advance", "--hours", "12")
    assert "Gull catches the rain: 6 person-days of fresh water (6 aboard; R103)." in out
    assert out.count("catches the rain") == 1  # once a day
    stores = _stores(reach)
    # caught in the first hour, then 12 hours of six drinking (R101)
    assert stores["fresh_water"] == "3" and stores["rain_day"] == 0


def test_no_rain_catcher_in_port_catches_nothing(runner, reach):
    _trawler(runner, water="0", tier="II")
    ok(runner, "weather", "storm", "--around", "0305", "--radius", "1", "--hours", "100")
    out = ok(runner, "advance", "--hours", "12")
    assert "catches the rain" not in out and _stores(reach)["fresh_water"] == "0"


def test_an_untracked_ship_in_port_is_as_before_and_the_clock_still_runs(runner, reach):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "place", "Gull", "0305")
    row = _ship_row(reach)
    out = ok(runner, "advance", "--days", "4")
    assert "moved on 96 hours" in out and "Stopped" not in out
    assert _ship_row(reach) == row and row[0] is None and not _events(reach)


def test_until_dawn_and_dusk_with_only_ships_in_port(runner, reach):
    _trawler(runner)
    out = ok(runner, "advance", "--until", "dawn")
    assert "moved on 6 hours to Day 1, 06:00" in out and "Stopped: dawn." in out
    assert _stores(reach)["fresh_water"] == "21/2"  # six hours of six (R101)
    out = ok(runner, "advance", "--until", "dusk")
    assert "Stopped: dusk." in out
    assert "Gull's fresh water is running low: under two days left" in out  # 06:00 (R101)


def _burning_in_port(seed: int, berth: bool) -> tuple[Any, Any]:
    """Gull arrived at East with a fire aboard (R36: her voyage stays open in port until it
    is out), six aboard and stores counted, and Tern anchored at sea (the advance runs on
    after the fire is out); 24 hours of the engine."""
    from engine_helpers import OPEN_ROUTE, ship, voyage, world

    from voyage.dice.roller import Roller
    from voyage.engine.clock import Engine
    from voyage.vessels.stores import Stores

    gull = ship(crew=6, stores=Stores(Fraction(100), Fraction(100)))
    st = voyage(gull, position=len(OPEN_ROUTE) - 1, status="arrived", fire=1, fire_since=0)
    gull.status = "in port"
    tern = voyage(ship("Tern"), voyage_id=2, position=1, status="anchored")
    engine = Engine(world(), [st, tern], Roller(seed))
    if berth:
        engine.moor([], berthing=[st])
    result = engine.run(0, 24, halt=False)
    return st, result


def test_a_ship_whose_trouble_ends_in_port_eats_every_hour_of_the_advance():
    # R36: stepped as at sea while the fire burns; once it is out, her voyage would end with
    # the advance and the engine no longer steps her, but her people still eat (R101)
    for seed in range(40):
        st, result = _burning_in_port(seed, berth=True)
        if st.status == "arrived" and not st.in_trouble:
            break
    else:
        raise AssertionError("no seed put the fire out")
    assert result.hours_run == 24
    used = Fraction(100) - st.ship.stores.food
    assert used == 6 and Fraction(100) - st.ship.stores.fresh_water == 6  # 24 h of six
    again, _ = _burning_in_port(seed, berth=False)
    assert Fraction(100) - again.ship.stores.food < 6  # (without it: the hours after, unfed)


def test_until_event_with_only_ships_in_port_waits_for_her_stores(runner, reach):
    # R101-R104: a ship in port counting her stores has events of her own (a store running
    # low at 06:00, running out), so `--until event` waits for them rather than refusing
    _trawler(runner)
    out = ok(runner, "advance", "--until", "event")
    assert "moved on 7 hours to Day 1, 07:00" in out  # the 06:00 hour's event (R101)
    assert "Stopped: an event: Gull: Gull's fresh water is running low: under two days" in out
    out = ok(runner, "advance", "--until", "event")
    assert "moved on 24 hours to Day 2, 07:00" in out and "under a day left" in out
    out = ok(runner, "advance", "--until", "event")  # not stopped at once by still hours
    assert "moved on 17 hours to Day 3, 00:00" in out
    assert "Stopped: Gull: out of fresh water." in out
    assert _clock(reach) == 48
    # waiting for an arrival in port would never end: still refused, as before
    assert "no ship is at sea to wait for an arrival" in refused(
        runner, "advance", "--until", "arrival"
    )


def test_until_event_refused_in_one_line_when_nothing_can_happen(runner, reach):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "III")
    ok(runner, "ship", "load", "Gull", "--crew", "6", "--fuel", "200")
    ok(runner, "ship", "place", "Gull", "0305")  # her stores not counted
    before = db_contents(reach)
    said = refused(runner, "advance", "--until", "event")
    assert "nothing can happen to wait for an event" in said
    assert "no ship in port counts her stores" in said
    assert db_contents(reach) == before


def test_a_ship_in_port_with_trouble_open_catches_the_rain_over_her_port():
    # R36: Gull arrived at East burning, her voyage open and stepped as at sea, her port's
    # sea calm (R60: the advance's world); the storm over the port (in_port_world, R103)
    # rains on her all the same, as on a ship lying there
    from engine_helpers import OPEN_ROUTE, ship, voyage, world

    from voyage.dice.roller import Roller
    from voyage.engine.clock import Engine
    from voyage.vessels.stores import Stores

    port = OPEN_ROUTE[-1]
    for moored in (True, False):
        gull = ship(crew=6, tier=4, stores=Stores(Fraction(100), Fraction(0)))  # a catcher
        st = voyage(gull, position=len(OPEN_ROUTE) - 1, status="arrived", fire=1, fire_since=0)
        gull.status = "in port"
        engine = Engine(world(), [st], Roller(3))
        if moored:
            engine.moor([], world(lambda hex_name, hour: hex_name == port), berthing=[st])
        result = engine.run(0, 1, halt=False)
        caught = [e for e in result.events if "catches the rain" in e.event.text]
        if moored:  # the hour's rain, then an hour of six drinking (R101)
            assert len(caught) == 1 and caught[0].clock == 0
            assert st.ship.stores.fresh_water == Fraction(6) - Fraction(6, 24)
            assert st.storm_hours == 0  # her sea calm (R60)
        else:  # (without the port's weather: the calm sea's, no rain)
            assert not caught and st.ship.stores.fresh_water == 0
