"""People aboard and in the water through the command line (R70-R74)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import abandon_mercy, add_mercy, add_trawler, db_contents, ok, refused

from voyage.cli import cli


@pytest.fixture
def crewed(runner: CliRunner, db: Path) -> Path:
    """The Salt Reach; the freighter Mercy in Gullhaven with 12 crew, 6 passengers, 4 life
    jackets and 2 rafts; two named people aboard."""
    ok(runner, "map", "load", "salt_reach")
    add_mercy(runner, jackets=4)
    ok(runner, "crew", "add", "Anna Roe", "--ship", "Mercy", "--passenger", "--swimming", "0")
    ok(runner, "crew", "add", "Tom Pike", "--ship", "Mercy", "--swimming", "6", "--jacket")
    ok(runner, "ship", "place", "Mercy", "0305")
    return db


def _gull(runner: CliRunner) -> None:
    """The trawler Gull, 4 crew, in Gullhaven (0305) beside Mercy."""
    add_trawler(runner, "0305", "Gull", tier="V", crew=4, fuel=80)


def _abandoned(runner: CliRunner, *stores: str) -> str:
    """Mercy loaded with ``stores``, two hours out for 2812, abandoned: the hex of her
    people afloat."""
    ok(runner, "ship", "load", "Mercy", *stores)
    return abandon_mercy(runner)


def test_stores_count_in_the_load_and_show_on_the_card(runner, crewed):
    fig = json.loads(ok(runner, "ship", "show", "Mercy", "--json"))
    assert fig["life_jackets"] == 4 and fig["life_rafts"] == 2
    assert fig["load_parts"]["rafts"] == 6  # R70: 3 hlbs a raft
    assert fig["load_parts"]["people"] == 180  # the named are among the 18 counted (R11)
    assert "life rafts 2" in ok(runner, "ship", "show", "Mercy")
    # a name beyond the counts brings one more aboard
    ok(runner, "crew", "add", "Ned", "--ship", "Mercy", "--passenger")
    ok(runner, "crew", "add", "Ida", "--ship", "Mercy", "--passenger")
    assert "comes aboard" in "\n".join(
        ok(runner, "crew", "add", f"P{i}", "--ship", "Mercy", "--passenger") for i in range(4)
    )
    assert json.loads(ok(runner, "ship", "show", "Mercy", "--json"))["passengers"] == 7


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("crew", "add", "Bo", "--ship", "Nowhere"), "no ship named"),
        # --swimming out of 0-20 is a usage error naming the range (tests/test_bad_inputs.py)
        (("crew", "add", "anna roe", "--ship", "Mercy"), "already on the roster"),
        (("crew", "remove", "Nobody"), "no person named"),
        (("crew", "move", "Anna Roe", "--ship", "Mercy"), "already aboard"),
        (("ship", "load", "Mercy", "--rafts", "2000"), "twice"),
        (("ship", "load", "Mercy", "--crew", "0"), "named crew"),
        (("act", "Mercy", "abandon"), "not at sea"),
        (("act", "Mercy", "rescue", "--all"), "nobody is afloat"),
        (("act", "Mercy", "rescue", "Tom Pike"), "nobody named"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(runner, crewed, args, reason):
    before = db_contents(crewed)
    assert reason in refused(runner, *args)
    assert db_contents(crewed) == before


def test_abandon_fills_rafts_non_swimmers_first_and_jackets_those_in_the_water(runner, crewed):
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    out = ok(runner, "act", "Mercy", "abandon")
    assert "2 rafts with 8 aboard, 10 in the water, 4 life jackets handed out" in out
    rows = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    people = [r for r in rows if r["kind"] == "people"]
    assert sum(r["count"] for r in people) == 18
    in_rafts = [r for r in people if r["raft"] is not None]
    # the six non-swimming passengers (Anna among them) and two crew take the eight seats;
    # the four jackets went to crew in the water, none to a raft's seat (R71 amended)
    assert sum(r["count"] for r in in_rafts if r["role"] == "passenger") == 6
    jacketed = [r for r in people if r["jacket"]]
    assert all(r["raft"] is None and r["role"] == "crew" for r in jacketed)
    assert sum(r["count"] for r in jacketed if r["name"] is None) == 4
    assert [r["name"] for r in jacketed if r["name"]] == ["Tom Pike"]
    pike = next(r for r in people if r["name"] == "Tom Pike")
    assert pike["raft"] is None and pike["jacket"]  # his own jacket
    assert "raft 1 of Mercy" in ok(runner, "status")
    assert "in the water" in ok(runner, "crew", "list")
    fig = json.loads(ok(runner, "ship", "show", "Mercy", "--json"))
    assert fig["crew"] == 0 and fig["life_rafts"] == 0


def test_abandoning_in_port_is_refused(runner, crewed):
    ok(runner, "sail", "Mercy", "--to", "2812")
    with sqlite3.connect(crewed) as conn:  # she is still in Gullhaven's hex
        conn.execute("UPDATE voyages SET position = 0")
    assert "nobody abandons ship in port" in refused(runner, "act", "Mercy", "abandon")


# The full scenario (a freighter holed at night in a major storm) is in
# tests/test_water_scenario.py.


def test_a_ship_that_goes_down_with_people_aboard_rolls_their_escapes(runner, crewed):
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    with sqlite3.connect(crewed) as conn:
        (raw,) = conn.execute("SELECT state FROM voyages").fetchone()
        state = json.loads(raw)
        state.update(sinking_in=3, sinking_since=0, sinking_cause="holed")
        conn.execute("UPDATE voyages SET state = ?", [json.dumps(state)])
    out = ok(runner, "advance", "--hours", "1")
    assert "Those who get out leave Mercy" in out
    log = json.loads(ok(runner, "log", "Mercy", "--json"))
    # 18 escape rolls (R71: at 02:00, night, the passengers and half the crew below deck)
    labels = [r["label"] for e in log["events"] for r in e["rolls"]]
    assert sum("escape above deck" in x for x in labels) == 6
    assert sum("escape below deck" in x for x in labels) == 12
    assert sum(x.startswith("raft") and "launched" in x for x in labels) == 2
    rows = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    assert sum(r["count"] for r in rows if r["kind"] == "people") == 18
    assert json.loads(ok(runner, "ship", "show", "Mercy", "--json"))["crew"] == 0


def test_night_for_the_escapes_is_dusk_to_dawn(runner, crewed):
    # R71 (amended): night is one reading for every rule, dusk to dawn (18:00 to 06:00
    # without a calendar): going down at 19:00, half the crew are below deck too
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    with sqlite3.connect(crewed) as conn:
        (raw,) = conn.execute("SELECT state FROM voyages").fetchone()
        state = json.loads(raw)
        state.update(sinking_in=3, sinking_since=0, sinking_cause="holed")
        conn.execute("UPDATE voyages SET state = ?", [json.dumps(state)])
        conn.execute("UPDATE campaign SET clock = 19")
    ok(runner, "advance", "--hours", "1")
    log = json.loads(ok(runner, "log", "Mercy", "--json"))
    labels = [r["label"] for e in log["events"] if e["clock"] == 19 for r in e["rolls"]]
    assert sum("escape above deck" in x for x in labels) == 6
    assert sum("escape below deck" in x for x in labels) == 12


def test_search_with_a_radio_finds_a_raft_at_once_and_port_rescues_drifters(runner, crewed):
    _gull(runner)
    where = _abandoned(runner, "--jackets", "18")  # nobody drowns in calm
    assert "nothing to search" in refused(runner, "act", "Gull", "search")
    before = db_contents(crewed)
    assert f"is in {where}, not in Gull's hex 0305" in refused(
        runner, "act", "Gull", "rescue", "Tom Pike"
    )
    assert db_contents(crewed) == before
    ok(runner, "sail", "Gull", "--to", where)
    ok(runner, "advance", "--until", "arrival")
    with sqlite3.connect(crewed) as conn:
        conn.execute(
            "UPDATE ships SET equipment = json_set(equipment, '$.radio', 'Receiver') "
            "WHERE name = 'Gull'"
        )
    assert "stops to search" in ok(runner, "act", "Gull", "search")
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    (gull,) = [s for s in ships if s["ship"] == "Gull"]
    assert gull["status"].endswith(", searching")  # not just "adrift" (R74)
    out = ok(runner, "advance", "--hours", "1")
    assert "radio picks up its transponder" in out
    rows = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    rafts = [r for r in rows if r["kind"] == "raft"]
    assert all(r["state"] == "rescued" for r in rafts)
    gull = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert gull["passengers"] >= 8
    assert "aboard Gull" in ok(runner, "crew", "list")


def test_map_show_marks_rafts_and_people_in_the_water(runner, crewed):
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Mercy", "abandon")
    out = ok(runner, "map", "show")
    assert "raft 1 of Mercy (4 aboard)" in out and "(in the water)" in out
    shown = json.loads(ok(runner, "map", "show", "--json"))
    # one mark a hex: the raft, then who is in the water there
    (mark,) = shown["afloat"]
    assert mark["name"].startswith("raft 1 of Mercy (4 aboard), ")
    assert mark["name"].endswith(" and Tom Pike (in the water)")
    status = json.loads(ok(runner, "status", "--json"))
    assert sum(r["count"] for r in status["afloat"] if r["kind"] == "people") == 18


def test_an_abandoned_ships_json_export_validates_with_her_people(runner, crewed, tmp_path):
    import jsonschema

    from voyage.outputs.exportjson import load_schema

    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Mercy", "abandon")
    ok(runner, "advance", "--hours", "1")
    out = tmp_path / "mercy.json"
    ok(runner, "export", "Mercy", "--format", "json", "--out", str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(data, load_schema())
    assert sum(p["count"] for p in data["people"]) == 18
    assert {"Anna Roe", "Tom Pike"} <= {p["name"] for p in data["people"]}


def test_every_people_action_is_undone_exactly(runner, crewed):
    _gull(runner)
    steps = [
        ("crew", "add", "Ned", "--ship", "Mercy", "--swimming", "2", "--jacket"),
        ("crew", "move", "Ned", "--ship", "Gull"),
        ("crew", "remove", "Ned"),
        ("ship", "load", "Mercy", "--jackets", "10", "--rafts", "3"),
        ("sail", "Mercy", "--to", "2812"),
        ("advance", "--hours", "2"),
        ("act", "Mercy", "abandon"),
        ("advance", "--hours", "1"),
        ("sail", "Gull", "--to", "0405"),
        ("advance", "--hours", "2"),
        ("act", "Gull", "rescue", "Anna Roe"),
    ]
    before = []
    for args in steps:
        before.append(db_contents(crewed))
        ok(runner, *args)
    where = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    assert any(r["name"] == "Anna Roe" and r["state"] == "rescued" for r in where)
    for snapshot in reversed(before):
        ok(runner, "undo")
        now = db_contents(crewed)
        assert {k: v for k, v in now.items() if k != "actions"} == {
            k: v for k, v in snapshot.items() if k != "actions"
        }


def test_a_ship_swallowed_by_fire_loses_whoever_fails_to_escape(runner, crewed):
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    with sqlite3.connect(crewed) as conn:
        (raw,) = conn.execute("SELECT state FROM voyages").fetchone()
        state = json.loads(raw)
        state.update(fire=9, fire_since=0, swallow_in=1)  # R50: out of control
        conn.execute("UPDATE voyages SET state = ?", [json.dumps(state)])
    for _ in range(6):  # destroyed, sinking (R50, R40), then she goes under
        out = ok(runner, "advance", "--hours", "1")
        if "goes under" in out:
            break
    assert "The flames swallow Mercy" in ok(runner, "log", "Mercy")
    assert "Those who get out leave Mercy" in out
    rows = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    assert sum(r["count"] for r in rows if r["kind"] == "people") == 18
    assert {r["state"] for r in rows if r["kind"] == "people"} <= {"afloat", "lost", "drowned"}


def test_completion_offers_named_people_and_whoever_is_afloat(runner, crewed):
    from click.shell_completion import ShellComplete

    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Mercy", "abandon")
    comp = ShellComplete(cli, {}, "voyage", "_VOYAGE_COMPLETE")

    def complete(args, incomplete):
        return [item.value for item in comp.get_completions(args, incomplete)]

    assert complete(["crew", "remove"], "to") == ["Tom Pike"]
    assert complete(["crew", "move"], "") == ["Anna Roe", "Tom Pike"]
    assert complete(["act", "Mercy", "rescue"], "raft") == ["raft 1 of Mercy", "raft 2 of Mercy"]


def test_until_event_stops_when_nothing_can_happen_to_anyone_afloat(runner, crewed):
    # 12 crew, jackets for all, in calm seas (no rolled weather) and no current: 8 in rafts
    # and 4 jacketed swimmers, none of whom R72 gives a drowning roll. Waiting for an event
    # would run a year; the advance stops after the first still hour and says why.
    ok(runner, "settings", "rolled_weather", "false")
    ok(runner, "crew", "remove", "Anna Roe")
    ok(runner, "ship", "load", "Mercy", "--passengers", "0", "--jackets", "12")
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Mercy", "abandon")
    out = ok(runner, "advance", "--until", "event")
    assert "Advanced 1 hour" in out
    assert "nothing threatens or moves the 12 people afloat" in out
    assert "`advance --hours N` waits for the weather" in out
    # swimmers without jackets roll every hour (R72): the advance goes on to a drowning
    ok(runner, "undo")
    ok(runner, "undo")
    ok(runner, "ship", "load", "Mercy", "--jackets", "0")
    ok(runner, "act", "Mercy", "abandon")
    out = ok(runner, "advance", "--until", "event")
    assert "nothing threatens" not in out and "drowned" in out


def test_a_search_that_found_everyone_ends_and_she_lies_there_again(runner, crewed):
    """R74: "the search ends by itself when nobody is left afloat in her hex", also when
    nobody is left afloat anywhere (it used to run on forever, under way at speed 0), and
    it ends in the hour the last of them comes aboard (it used to take one more hour to see
    that nobody was left, and she lay there only the hour after). Her row of that hour
    shows her at its end: the 18 people taken aboard are in her Load (it used to show the
    Load from before the search)."""
    _gull(runner)
    where = _abandoned(runner, "--rafts", "5")  # all 18 in rafts: none in the water
    ok(runner, "sail", "Gull", "--to", where)
    ok(runner, "advance", "--until", "arrival")
    with sqlite3.connect(crewed) as conn:
        conn.execute(
            "UPDATE ships SET equipment = json_set(equipment, '$.radio', 'Receiver') "
            "WHERE name = 'Gull'"
        )
    ok(runner, "act", "Gull", "search")
    before = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    out = ok(runner, "advance", "--hours", "1")
    assert "radio picks up its transponder" in out
    assert f"Nobody is left afloat in {where}: Gull's search is over (R74)." in out
    rows = json.loads(ok(runner, "survivors", "--json"))["floaters"]
    assert not [r for r in rows if r["state"] == "afloat"]
    after = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert after["load"] == before["load"] + 18 * 10  # R11: 10 hlbs a person
    row = json.loads(ok(runner, "log", "Gull", "--json"))["hours"][-1]
    assert (row["load"], row["load_category"]) == (after["load"], after["load_category"])
    # she lies where she searched, as she lay before: in open deep sea no anchor reaches
    # bottom, so adrift on her open voyage (R65, R64), waiting for the referee
    out = ok(runner, "advance", "--until", "arrival")
    assert "Stopped: no ship is making way" in out
    ships = json.loads(ok(runner, "status", "--json"))["ships"]
    (gull,) = [s for s in ships if s["ship"] == "Gull"]
    assert (gull["status"], gull["hex"]) == ("adrift", where)


def test_rescued_crew_of_another_ship_are_her_passengers_her_own_crew_her_crew(runner, crewed):
    """R74 (our reading): people taken out of the water are passengers of the ship that
    rescues them, survivors she carries whatever they were aboard their own ship (the event
    and `crew list` say so); her own people come back as what they were: her crew as her
    crew (Mercy's 12 crew and 6 passengers came back as 18 passengers)."""
    _gull(runner)
    where = _abandoned(runner, "--jackets", "18")  # nobody drowns in calm (R72)
    ok(runner, "sail", "Gull", "--to", where)
    ok(runner, "advance", "--until", "arrival")
    out = ok(runner, "act", "Gull", "rescue", "raft 1 of Mercy")
    assert "4 taken aboard as passengers (Anna Roe, 3 passengers of Mercy)" in out
    out = ok(runner, "act", "Gull", "rescue", "Tom Pike")
    assert "1 taken aboard as a passenger (Tom Pike)." in out
    gull = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert (gull["crew"], gull["passengers"]) == (4, 5)
    listed = {r["name"]: r for r in json.loads(ok(runner, "crew", "list", "--json"))}
    assert listed["Tom Pike"]["role"] == "passenger"  # not Gull's crew
    assert listed["Tom Pike"]["whereabouts"] == "aboard Gull (rescued from Mercy, R74)"
    assert "aboard Gull (rescued from Mercy, R74)" in ok(runner, "crew", "list")

    # Mercy, left afloat, is boarded again (the referee places her) and picks up the rest
    ok(runner, "ship", "place", "Mercy", where)
    out = ok(runner, "act", "Mercy", "rescue", "--all")
    # her 12 crew and 6 passengers less Tom Pike (crew), Anna Roe and 3 passengers on Gull
    assert "13 taken aboard: 11 back in her crew (" in out
    assert "2 as passengers (2 passengers of Mercy)" in out
    mercy = json.loads(ok(runner, "ship", "show", "Mercy", "--json"))
    assert (mercy["crew"], mercy["passengers"]) == (11, 2)
    listed = {r["name"]: r for r in json.loads(ok(runner, "crew", "list", "--json"))}
    assert listed["Tom Pike"]["whereabouts"] == "aboard Gull (rescued from Mercy, R74)"


def test_people_afloat_in_a_port_are_brought_ashore_at_the_hours_end(runner, crewed):
    """R74 with R72: people in a port's hex are brought ashore at the end of the hour, after
    its drowning rolls (the log said 00:00, before rolls it showed at 00:59), and the
    count is worded ('1 person', not '1 people')."""
    ok(runner, "ship", "load", "Mercy", "--jackets", "18")  # nobody drowns in calm
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Mercy", "abandon")
    with sqlite3.connect(crewed) as conn:  # as if they were carried into Gullhaven's hex
        conn.execute("UPDATE floaters SET hex = '0305'")
        conn.execute(
            "DELETE FROM floaters WHERE kind = 'people' AND id NOT IN "
            "(SELECT min(id) FROM floaters WHERE kind = 'people')"
        )
        conn.execute("UPDATE floaters SET count = 1 WHERE kind = 'people'")
    ok(runner, "advance", "--hours", "1")
    log = json.loads(ok(runner, "log", "Mercy", "--json"))
    events = log["events"] if isinstance(log, dict) else log
    saved = [e for e in events if "brought ashore in" in e["text"]]
    assert saved, events[-5:]
    assert all(e["minute"] == 59 for e in saved)
    people = [e for e in saved if "saved (R74)" in e["text"] and ": 0 people" not in e["text"]]
    assert any(e["text"].endswith("1 person saved (R74).") for e in people), people
