"""A quiet hour in the water writes little: hours swum counted from
the hour a swim began (m140, R72), so an hour afloat changes no floater row; the calm rolls'
log record written from words made once per batch, byte for byte as before (R4)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from voyage.actions import voyages
from voyage.actions.people import schedule_text
from voyage.dice.roller import parse
from voyage.engine.clock import dumps
from voyage.rules import water as rules
from voyage.store import campaign as store
from voyage.store import campaigndb
from voyage.store.mapstore import load_into_campaign
from voyage.store.peoplerows import floaters, save_floaters
from voyage.world.water import Floater

HEX = "1208"  # open sea on the Salt Reach: no current, no port, calm with rolled weather off


@pytest.fixture
def camp(tmp_path: Path) -> campaigndb.Campaign:
    c = store.create_campaign(tmp_path / "c.db", "Quiet", seed=9)
    load_into_campaign(c, "salt_reach")
    c.set_setting("rolled_weather", "false")
    return c


def afloat(camp: campaigndb.Campaign) -> list[Floater]:
    rows = [
        # a swimmer of rank 3 without a jacket: afloat rank + 1 hours, then exhausted (R72)
        Floater(1, "people", "Lost", "Ada", "crew", 1, 3, False, hex=HEX),
        # a swimmer with a jacket: does not drown in calm seas
        Floater(2, "people", "Lost", None, "crew", 5, 2, True, hex=HEX),
        Floater(3, "raft", "Lost", "raft 1 of Lost", count=0, hex=HEX),
        Floater(4, "people", "Lost", None, "crew", 4, 1, True, raft=3, hex=HEX),
    ]
    with camp.action("setup", "people afloat"):
        save_floaters(camp, rows, [])
    return rows


def table(camp: campaigndb.Campaign) -> list[tuple[object, ...]]:
    return camp.db.conn.execute("SELECT * FROM floaters ORDER BY id").fetchall()


def test_hours_swum_grow_with_the_clock_and_a_quiet_hour_writes_no_row(camp):
    afloat(camp)
    stored = table(camp)
    voyages.advance(camp, hours=2)
    rows = {f.id: f for f in floaters(camp)}
    # R72: two hours in the water for those swimming, none for those in the raft
    assert (rows[1].hours_swum, rows[2].hours_swum, rows[4].hours_swum) == (2, 2, 0)
    assert rows[1].afloat, "a rank 3 swimmer rolls on 2 an hour in calm seas: seed 9 keeps her"
    after_first = table(camp)
    before = camp.db.conn.execute("SELECT max(id) FROM actions").fetchone()[0]
    voyages.advance(camp, hours=1)
    act = camp.db.conn.execute("SELECT max(id) FROM actions").fetchone()[0]
    assert act > before
    journal = camp.db.conn.execute(
        "SELECT op, rid, col FROM undo_journal WHERE action_id = ? AND tbl = 'floaters'", [act]
    ).fetchall()
    ada = next(f for f in floaters(camp) if f.id == 1)
    assert ada.afloat, "seed 9: she keeps afloat a third hour too"
    assert journal == []  # nobody's row changed: the clock counts their hours
    assert table(camp) == after_first
    assert {f.id: f.hours_swum for f in floaters(camp)} == {1: 3, 2: 3, 3: 0, 4: 0}
    # and the referee reads the same hours: "exhausted in 1 hour" after 3 of 4 (R72)
    assert "(exhausted in 1 hour)" in schedule_text(ada, "calm", camp.rulebook)
    camp.undo()
    camp.undo()
    assert table(camp) == stored  # undo restores the rows and the clock they count from
    assert [f.hours_swum for f in floaters(camp)] == [0, 0, 0, 0]


def test_leaving_the_water_keeps_the_hours_swum(camp):
    afloat(camp)
    voyages.advance(camp, hours=2)
    rows = floaters(camp)
    rows[1].state, rows[1].ended = "rescued", camp.clock  # taken aboard (R74)
    rows[3].raft = None  # out of the raft, into the water
    with camp.action("rescue", "by hand"):
        save_floaters(camp, rows, [])
    again = {f.id: f for f in floaters(camp)}
    assert again[2].hours_swum == 2 and again[4].hours_swum == 0
    stored = {r[0]: r for r in camp.db.conn.execute("SELECT id, swim_since FROM floaters")}
    assert stored[2][1] is None and stored[4][1] == camp.clock
    voyages.advance(camp, hours=3)
    again = {f.id: f for f in floaters(camp)}
    assert again[2].hours_swum == 2  # ashore on the ship, not counting
    assert again[4].hours_swum == 3 or not again[4].afloat


def test_an_older_campaign_counts_its_hours_swum_from_the_upgrade(tmp_path):
    camp = store.create_campaign(tmp_path / "c.db", "Old", seed=9)
    load_into_campaign(camp, "salt_reach")
    afloat(camp)
    # a floater written before m140: hours swum kept whole, no hour to count from
    camp.db.conn.execute("UPDATE floaters SET hours_swum = 2, swim_since = NULL WHERE id = 1")
    camp.db.conn.commit()
    assert {f.id: f.hours_swum for f in floaters(camp)}[1] == 2
    with sqlite3.connect(tmp_path / "c.db") as conn:
        names = [r[1] for r in conn.execute("PRAGMA table_info(floaters)")]
    conn.close()
    assert "swim_since" in names and "hours_swum" in names


def _tally(rng: random.Random, people: int, on: int) -> rules.DrowningTally:
    names = ["Ann", 'Bo "Red" Li', "Zoë", "back\\slash", "a crewman", "a passenger", "Ōta"]
    names += ["{0} Brace}", "{}"]
    whos = [rng.choice(names) for _ in range(people)]
    faces = [rng.randint(1, 6) for _ in range(2 * people)]
    dice = parse("2d6")
    label = "drowning (" + ", ".join(whos) + ")"
    words = rules.TallyWords(label, whos, dice, on)
    made = rules.drowning_tally(label, whos, faces, 1, dice, on, None, words)
    assert isinstance(made, rules.DrowningTally)
    return made


@pytest.mark.parametrize("on", [2, 3, 4, 6])
def test_a_tally_writes_the_bytes_the_json_encoder_writes(on):
    rng = random.Random(on)
    for people in (1, 2, 7, 30):
        tally = _tally(rng, people, on)
        assert tally._words is not None
        assert tally.to_json() == dumps(tally.to_dict())
        plain = rules.drowning_tally(
            tally.label, tally.whos, tally.faces, 1, parse("2d6"), on, None, None
        )
        assert plain == tally and plain.whos == tally.whos and plain.each == tally.each
        assert plain.to_json() == tally.to_json() and plain.line() == tally.line()


def test_a_tally_without_its_words_or_with_other_names_is_encoded_in_full():
    rng = random.Random(5)
    tally = _tally(rng, 4, 2)
    tally.whos = list(tally.whos)  # not the words' names any more
    assert tally.to_json() == dumps(tally.to_dict())
    bonus = parse("2d6+1")
    assert not rules.TallyWords.fits(bonus)


def test_an_hour_of_calm_rolls_is_one_event_a_ship_hex_by_hex():
    # R72, R4: non-swimmers with jackets in three hexes roll once each; the rolls in which
    # nobody drowned are one record per batch, in one event for the ship's people
    from engine_helpers import world

    from voyage.dice.roller import Roller
    from voyage.engine.clock import Engine
    from voyage.world.waterphase import WaterPhase

    hexes = ["0503", "0603", "0504"]
    people = [
        Floater(i + 1, "people", "Gull", f"P{i}", "crew", 1, 0, True, hex=hexes[i % 3])
        for i in range(12)
    ]
    w = world()
    w.sea_state = lambda hex_name, clock: 0
    engine = Engine(w, [], Roller(3))
    phase = engine.water = WaterPhase(engine, people, [], {})
    phase.hour(5)
    quiet = [e for e in phase.out if e.event.kind == "water"]
    dead = [e for e in phase.out if e.event.kind == "drowned"]
    assert len(quiet) == 1
    (event,) = quiet
    alive = [p for p in people if p.afloat]
    assert event.event.text.startswith(f"{len(alive)} drowning rolls at ")
    shown = event.event.text.split(", nobody drowns")[0]
    rolled = [h for h in hexes if any(p.hex == h for p in alive)]
    assert all(h in shown for h in rolled)
    # every die is in the log: a record per batch (hex), and each drowning's own
    assert [len(r.whos) for r in event.event.rolls] == [
        sum(1 for p in alive if p.hex == h) for h in rolled
    ]
    assert sum(len(r.faces) for e in quiet + dead for r in e.event.rolls) == 2 * 12
    assert all(p.hours_swum == 1 for p in phase.floaters if p.afloat)


def test_a_write_between_reading_and_saving_the_floaters_is_seen(camp, tmp_path):
    # save_floaters compares against the rows floaters() read only while nothing has
    # written the file since: a write of this connection, or a commit of another (rows read
    # before an action are read again: the action's start is a write) is seen
    afloat(camp)
    with camp.action("hour", "read, then someone writes"):
        rows = floaters(camp)
        camp.db.conn.execute("UPDATE floaters SET note = 'by hand' WHERE id = 2")
        save_floaters(camp, rows, [])
    assert [f.to_row() for f in floaters(camp)] == [f.to_row() for f in rows]
    rows = floaters(camp)
    other = sqlite3.connect(tmp_path / "c.db")
    with other:
        other.execute("UPDATE floaters SET note = 'elsewhere' WHERE id = 3")
    other.close()
    with camp.action("hour", "another process wrote"):
        save_floaters(camp, rows, [])
    assert [f.to_row() for f in floaters(camp)] == [f.to_row() for f in rows]
    # and with nothing in between, the rows read are what it compares against: no write
    rows = floaters(camp)
    with camp.action("hour", "nothing changed") as act:
        save_floaters(camp, rows, [])
    assert not camp.db.conn.execute(
        "SELECT 1 FROM undo_journal WHERE action_id = ? AND tbl = 'floaters'", [act.id]
    ).fetchall()
