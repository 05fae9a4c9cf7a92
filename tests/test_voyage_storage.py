"""Storage that stays flat as a campaign grows: a voyage's route has its own row
(m100, voyage.store.migrations), floaters are written narrowly, and the log's rolls are encoded
without their dicts but byte for byte as before."""

from __future__ import annotations

import json
import os
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from voyage.actions import doctor, referee, voyages
from voyage.dice.roller import Modifier, Roll, Roller, parse
from voyage.engine.clock import Engine, dumps
from voyage.map.routetext import (
    inshore_from_json,
    inshore_from_text,
    inshore_text,
    route_from_json,
    route_from_text,
    route_text,
)
from voyage.store import campaign as store
from voyage.store import campaigndb, mapstore, voyagelog
from voyage.store.logrows import rolls_json
from voyage.store.mapstore import load_into_campaign
from voyage.store.peoplerows import floaters, save_floaters
from voyage.store.voyagerows import VOYAGE_SELECT
from voyage.vessels.ships import make_ship
from voyage.world.water import Floater


def dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


@pytest.fixture
def camp(tmp_path: Path) -> campaigndb.Campaign:
    c = store.create_campaign(tmp_path / "c.db", "Routes", seed=14)
    load_into_campaign(c, "salt_reach")
    return c


def long_voyage(camp: campaigndb.Campaign, loops: int = 100) -> int:
    """A freighter sailing there and back ``loops`` times (a route of thousands of hexes)."""
    chart = mapstore.campaign_chart(camp)[0]
    with camp.action("ship add", "Long"):
        ship = make_ship(camp.rulebook, "Long", "freighter", 10, 9, ["Steady"])
        ship.crew, ship.cargo, ship.fuel, ship.hex = 12, 600, 400, "0305"
        camp.add_ship(ship)
    there = chart.route("0305", "2812")
    assert there is not None
    state = voyages.sail(camp, "Long", route=(there + there[-2:0:-1]) * loops + ["0305"])
    return state.voyage_id


def test_the_route_lives_in_its_own_row_and_every_reader_sees_it(camp):
    vid = long_voyage(camp, loops=2)
    cols = {r[1] for r in camp.db.conn.execute("PRAGMA table_info(voyages)")}
    assert "route" not in cols and "inshore" not in cols
    route, inshore = camp.db.conn.execute(
        "SELECT route, inshore FROM voyage_routes WHERE voyage_id = ?", [vid]
    ).fetchone()
    # m106: the hexes separated by spaces, a 0 or 1 per hex (voyage.map.routetext)
    assert route.split()[0] == "0305" and len(inshore) == len(route.split())
    assert set(inshore) == {"0"} and " ".join(route.split()) == route
    (listed,) = voyagelog.voyage_list(camp)
    assert listed["route"] == route.split() and listed["id"] == vid
    assert listed["inshore"] == [False] * len(inshore)
    assert voyages.open_voyages(camp)[0].route == route.split()
    # the foreign key is declared (the table rebuilds keep it), its child column the key
    fks = camp.db.conn.execute("PRAGMA foreign_key_list(voyage_routes)").fetchall()
    assert [(f[2], f[3], f[4]) for f in fks] == [("voyages", "voyage_id", "id")]


def test_an_hour_at_sea_never_rewrites_a_long_route(camp):
    long_voyage(camp, loops=400)
    (route_bytes,) = camp.db.conn.execute("SELECT length(route) FROM voyage_routes").fetchone()
    assert route_bytes > 100_000
    voyages.advance(camp, 1)  # the journal's triggers are made, first pages written
    path = camp.path
    camp.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    camp = store.open_campaign(path)
    voyages.advance(camp, 1)
    written = os.path.getsize(f"{path}-wal")  # every page the advance wrote, once each
    camp.close()
    assert written < route_bytes / 2  # before m100 the voyage row, route and all, was rewritten


def test_a_new_course_rewrites_the_route_and_undo_puts_it_back(camp):
    long_voyage(camp, loops=1)
    path = camp.path
    voyages.advance(camp, 3)
    before = dump(path)
    referee.referee_action(camp, "Long", "course", to="2420")
    (route,) = camp.db.conn.execute("SELECT route FROM voyage_routes").fetchone()
    assert route.split()[-1] == "2420"
    assert voyagelog.voyage_list(camp)[0]["destination"] == "2420"
    camp.undo()
    camp.close()
    assert dump(path) == before


def before_m106(path: Path) -> None:
    """The campaign at ``path`` as main's voyage (before m106) wrote it: routes and inshore
    flags as JSON, in the table m100 made, and the undo journal's old values of them too."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT voyage_id, route, inshore FROM voyage_routes").fetchall()
        conn.execute("DROP TABLE voyage_routes")
        conn.execute(
            """CREATE TABLE voyage_routes (
            voyage_id INTEGER PRIMARY KEY
                REFERENCES voyages(id) DEFERRABLE INITIALLY DEFERRED,
            route TEXT NOT NULL,
            inshore TEXT NOT NULL DEFAULT '[]'
        )"""
        )
        conn.executemany(
            "INSERT INTO voyage_routes VALUES (?, ?, ?)",
            [(v, dumps(r.split()), dumps([c == "1" for c in i])) for v, r, i in rows],
        )
        for jid, col, value in conn.execute(
            "SELECT id, col, value FROM undo_journal WHERE tbl = 'voyage_routes' "
            "AND col IN ('route', 'inshore')"
        ).fetchall():
            old = value.split() if col == "route" else [c == "1" for c in value]
            conn.execute("UPDATE undo_journal SET value = ? WHERE id = ?", [dumps(old), jid])
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm106_route_text'")


def test_m100_moves_an_older_campaigns_routes(camp):
    vid = long_voyage(camp, loops=1)
    voyages.advance(camp, 2)
    expected = voyagelog.voyage_list(camp)
    path = camp.path
    camp.close()
    before_m106(path)
    with sqlite3.connect(path) as conn:  # the campaign as it was before m100
        conn.execute("ALTER TABLE voyages ADD COLUMN route TEXT NOT NULL DEFAULT ''")
        conn.execute("ALTER TABLE voyages ADD COLUMN inshore TEXT NOT NULL DEFAULT '[]'")
        conn.execute(
            "UPDATE voyages SET (route, inshore) = (SELECT route, inshore FROM voyage_routes "
            "WHERE voyage_id = voyages.id)"
        )
        assert conn.execute("SELECT route FROM voyages").fetchone()[0].startswith('["0305"')
        conn.execute("DROP TABLE voyage_routes")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm100_voyage_routes'")
    camp = store.open_campaign(path)
    assert voyagelog.voyage_list(camp) == expected
    assert voyages.open_voyages(camp)[0].voyage_id == vid
    voyages.advance(camp, 1)  # and she sails on
    assert voyages.open_voyages(camp)[0].position >= expected[0]["position"]


def rows_of(path: Path) -> list[str]:
    """Every row but the record of the schema steps (m106 is recorded anew)."""
    return [line for line in dump(path) if "_sqlite_migrations" not in line]


def routes_table(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT * FROM voyage_routes ORDER BY voyage_id").fetchall()


def test_m106_turns_an_older_campaigns_routes_into_text_and_keeps_its_undo(camp):
    chart = mapstore.campaign_chart(camp)[0]
    with camp.action("ship add", "Gull"):
        ship = make_ship(camp.rulebook, "Gull", "freighter", 10, 9, ["Steady"])
        ship.crew, ship.cargo, ship.fuel, ship.hex = 12, 600, 400, "0305"
        camp.add_ship(ship)
    voyages.sail(camp, "Gull", to="2812", inshore=True, chart=chart)  # R33: some flags set
    long_voyage(camp, loops=2)
    voyages.advance(camp, 3)
    path = camp.path
    states = [rows_of(path)]
    referee.referee_action(camp, "Long", "course", to="2420")  # journals the old route
    voyages.advance(camp, 2)
    states.append(rows_of(path))
    listed, open_now = voyagelog.voyage_list(camp), voyages.open_voyages(camp)
    assert any(listed[0]["inshore"]) and not all(listed[0]["inshore"])
    text = routes_table(path)
    camp.close()
    before_m106(path)
    old = routes_table(path)
    assert old[0][1].startswith('["0305",') and old[0][2].startswith("[false,")
    camp = store.open_campaign(path)  # upgraded: m106
    assert routes_table(path) == text
    assert voyagelog.voyage_list(camp) == listed
    assert [(s.route, s.inshore) for s in voyages.open_voyages(camp)] == [
        (s.route, s.inshore) for s in open_now
    ]
    assert rows_of(path) == states[1]  # not a value changed but the routes' spelling
    camp.undo()
    camp.undo()  # the course: the old route comes back from the converted journal
    assert rows_of(path) == states[0]
    camp.close()
    report = doctor.examine(path)
    assert report.healthy, doctor.summary(report)


def test_doctor_names_a_route_that_is_not_hex_names(camp):
    vid = long_voyage(camp, loops=1)
    path = camp.path
    camp.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE voyage_routes SET route = '[\"0305\"]', inshore = '0x'")
    found = {(f.check, f.where) for f in doctor.examine(path).findings}
    assert found == {
        ("route", f"voyage_routes.route of voyage {vid}"),
        ("route", f"voyage_routes.inshore of voyage {vid}"),
    }


def test_the_route_text_reads_back_exactly():
    route = ["0305", "0405", "101102", "0506"]
    assert route_text(route) == "0305 0405 101102 0506"
    assert route_from_text(route_text(route)) == route
    for flags in ([], [False], [True], [False, True, True, False, True]):
        assert inshore_from_text(inshore_text(flags)) == flags
    assert inshore_text([False, True]) == "01"
    # JSON as main wrote it; what is not a JSON list is left as it is
    assert route_from_json(dumps(route)) == route_text(route)
    assert inshore_from_json("[false,true]") == "01" and inshore_from_json("[]") == ""
    assert route_from_json("0305 0405") == "0305 0405" and inshore_from_json(None) is None


def test_an_old_snapshot_with_routes_in_the_voyage_rows_still_undoes(camp):
    long_voyage(camp, loops=1)
    voyages.advance(camp, 2)
    rows = [dict(r) for r in camp.db.query(f"{VOYAGE_SELECT} ORDER BY v.id")]
    # as the snapshot kept them: JSON (text in voyage_routes since m106)
    snapshot = {
        "voyages": [
            dict(r, route=dumps(r["route"].split()), inshore=dumps(inshore_from_text(r["inshore"])))
            for r in rows
        ]
    }
    with camp.action("old", "an action from before the journal") as act:
        # (the voyage rows stay: their hours and events point at them, m190)
        camp.db.execute("DELETE FROM voyage_routes")
        camp.db.execute("UPDATE voyages SET position = 0")
    camp.db.execute(
        "UPDATE actions SET undo = 'snapshot', snapshot = ? WHERE id = ?",
        [json.dumps(snapshot), act.id],
    )
    camp.db.execute("DELETE FROM undo_journal WHERE action_id = ?", [act.id])
    camp.undo()
    assert [dict(r) for r in camp.db.query(f"{VOYAGE_SELECT} ORDER BY v.id")] == rows


def test_floaters_are_written_narrowly_and_exactly(camp):
    people = [
        Floater(id=i, kind="people", ship="Gone", name=None, count=2, hex="1510")
        for i in range(1, 41)
    ]
    with camp.action("setup", "forty groups in the water"):
        save_floaters(camp, people, [])
    rows = floaters(camp)
    rows[3].hours_swum = 2
    rows[7].state = "drowned"
    rows.append(Floater(id=41, kind="raft", ship="Gone", hex="1511"))
    with camp.action("hour", "an hour in the water") as act:
        save_floaters(camp, [r for r in rows if r.id != 9], [])
    journal = camp.db.conn.execute(
        "SELECT op, rid, col FROM undo_journal WHERE action_id = ? AND tbl = 'floaters'",
        [act.id],
    ).fetchall()
    # the changed columns (row 8 drowned: out of the water, its swim is no longer counted
    # from an hour, m140), one inserted row, one deleted row (marker + its columns)
    assert ("U", 4, "hours_swum") in journal and ("U", 8, "state") in journal
    assert ("U", 8, "swim_since") in journal
    assert ("I", 41, None) in journal and ("D", 9, None) in journal
    assert len([j for j in journal if j[0] == "U"]) == 3
    assert [f.to_row() for f in floaters(camp)] == [f.to_row() for f in rows if f.id != 9]


def _rolls_of_a_year_at_sea(camp: campaigndb.Campaign) -> list[Roll]:
    long_voyage(camp, loops=3)
    with camp.action("advance", "a month"):
        states = voyages.open_voyages(camp)
        engine = Engine(voyages.world_for(camp), states, camp.roller)
        result = engine.run(camp.clock, 24 * 30, halt=False)
    return [r for e in result.events for r in e.event.rolls]


def test_rolls_are_encoded_exactly_as_the_json_encoder_wrote_them(camp):
    made = _rolls_of_a_year_at_sea(camp)
    roller = Roller(5)
    made += [
        roller.check("with a boon", 14, [Modifier(2, "Tier II"), Modifier(-1, "wind")], ["fair"]),
        roller.check('with a bane \u2192 "quoted"', 11, [], [], ["fog", "night"]),
        roller.roll("plain", "2d6"),
        roller.chance("a chance", 2, success="yes", failure="no"),
    ]
    assert len(made) > 20
    for roll in made:
        assert roll.to_json() == dumps(roll.to_dict())
    assert rolls_json(made) == dumps([r.to_dict() for r in made])
    assert rolls_json([]) == "[]"
    # a value of an unexpected type is left to the JSON encoder, same bytes
    odd = Roll("odd", "d6", [3], 3, total=3.5)  # type: ignore[arg-type]
    assert odd.to_json() == dumps(odd.to_dict()) and '"total":3.5' in odd.to_json()


def test_the_dice_state_in_two_parts_is_the_same_state_across_a_regeneration():
    """Roller.split_state / from_saved (m101) give back the generator exactly, before and
    after the Mersenne Twister regenerates its key (every 624 draws); whole states (the
    older forms) still load."""
    a = Roller(7)
    for draws in (0, 1, 623, 1, 5000):
        for _ in range(draws):
            a.die(6)
        words, rest = a.split_state()
        b = Roller.from_saved(rest, words)
        assert b._random.getstate() == a._random.getstate()
        assert [b.die(20) for _ in range(50)] == [a.die(20) for _ in range(50)]
    assert Roller.from_saved(a.get_state(), None)._random.getstate() == a._random.getstate()
    with pytest.raises(ValueError, match="key is missing"):
        Roller.from_saved(a.split_state()[1], None)


def test_an_action_that_rolls_journals_the_dice_key_only_when_it_changed(camp):
    """The 3 KB key is journaled by the action that crossed a regeneration, not by every
    action that rolled; undo puts both columns back and the next rolls are the same."""
    with camp.action("roll", "first"):  # the first action splits the whole state
        camp.roller.die(6)
    with camp.action("roll", "a few dice") as act:
        camp.roller.die(6)
    cols = {
        r["col"]
        for r in camp.db.query(
            "SELECT col FROM undo_journal WHERE action_id = ? AND tbl = 'campaign'", [act.id]
        )
    }
    assert cols == {"rng_state"}
    with camp.action("roll", "a regeneration") as act:
        for _ in range(700):
            camp.roller.die(6)
    cols = {
        r["col"]
        for r in camp.db.query(
            "SELECT col FROM undo_journal WHERE action_id = ? AND tbl = 'campaign'", [act.id]
        )
    }
    assert cols == {"rng_state", "rng_words"}
    before = dump(camp.path)
    with camp.action("roll", "more"):
        after_rolls = [camp.roller.die(20) for _ in range(700)]
    camp.undo()
    assert dump(camp.path) == before
    reopened = store.open_campaign(camp.path)
    assert [reopened.roller.die(20) for _ in range(700)] == after_rolls


def test_a_quiet_voyage_stores_only_what_differs_from_a_new_one(camp):
    """voyages.state keeps what differs from a new voyage's (ShipState.stored_extra), and
    the voyage read back has every value the engine had."""
    long_voyage(camp, loops=1)
    voyages.advance(camp, 2)
    (s,) = voyages.open_voyages(camp)
    stored = json.loads(camp.db.execute("SELECT state FROM voyages").fetchone()[0])
    assert len(json.dumps(stored)) < 60 and set(stored) <= set(s.extra())
    s.open_leak(3)
    s.hours_in_hex = 2
    voyages.save_state(camp, s, camp.clock)
    (back,) = voyages.open_voyages(camp)
    assert back.extra() == s.extra() and back.stored_extra() == {"leaks": [3], "hours_in_hex": 2}


def test_rolls_of_one_kind_with_and_without_odds_are_encoded_exactly():
    """Roll.to_json builds the parts a kind of roll shares once (voyage.dice.roller._roll_shape):
    rolls of one kind with other odds, no odds, other faces or outcomes, and values of
    another type that compare equal (True and 1), each still give the encoder's bytes."""
    base = {"label": "kind", "dice": "d6", "faces": [3], "natural": 3, "total": 5}
    mods = [Modifier(2, "Tier II")]
    rolls = [
        Roll(**base, modifiers=mods, target=4, compare=">=", probability=Fraction(1, 2)),
        Roll(**base, modifiers=mods, target=4, compare=">=", probability=None),
        Roll(**base, modifiers=mods, target=4, compare=">=", probability=Fraction(2, 3)),
        Roll(**base, modifiers=mods, target=4, compare=">=", probability=Fraction(2, 3)),
        Roll(**base, modifiers=[Modifier(True, "Tier II")], target=4, compare=">="),  # type: ignore[arg-type]
        Roll(**base, modifiers=mods, target=True, compare=">="),  # type: ignore[arg-type]
        Roll(**{**base, "faces": [1, 6], "dice": "2d6"}, outcome="\u00e9t\u00e9 \u2192 ok"),
        Roll(**{**base, "dice": ""}, outcome="x"),
        Roll(
            **{**base, "faces": [2, 5], "dice": "2d20kh1"},
            boon_faces=[4],
            boon=-4,
            boon_reasons=["fog"],
            modifiers=mods,
        ),
        Roll(
            **{**base, "faces": [2, 5], "dice": "2d20kh1"},
            boon_faces=[4],
            boon=4,
            boon_reasons=["fog"],
            modifiers=mods,
        ),
    ]
    for roll in rolls + rolls[::-1]:
        assert roll.to_json() == dumps(roll.to_dict())


def test_changes_are_encoded_exactly_as_dumps_writes_them():
    """voyage.store.logrows encodes an event's changes with one C encoder made once: the same
    bytes as voyage.engine.clock.dumps for every kind of value a change holds."""
    from voyage.store.logrows import _changes_json

    for changes in [
        {},
        {"fuel": -3},
        {"b": 1.5, "a": [1, 2.25, None, True], "c": {"z": "\u00e9\u2192", "y": 1e-7}},
        {"water": 0.1 + 0.2, "status": 'sunk "fast"', "crew": {"lost": 2, "saved": 10}},
        ["not", "a", "dict"],
        None,
    ]:
        assert _changes_json(changes) == dumps(changes)
    assert _changes_json({"big": 10**30}) == dumps({"big": 10**30})


def test_a_kind_of_roll_with_its_own_line_is_encoded_with_that_line():
    """A record that words its line its own way (R72: a tally of drowning rolls names
    whose dice they are) keeps that line in its JSON."""
    from voyage.rules.water import drowning_tally

    tally = drowning_tally("drowning", ["Anna Roe", "Bo"], [3, 4, 5, 6], 1, parse("2d6"), 2)
    assert "Anna Roe" in tally.line()
    assert tally.to_json() == dumps(tally.to_dict())
    assert json.loads(tally.to_json())["line"] == tally.line()
