"""Voyages through the command line, on the bundled Salt Reach campaign."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, refused, trawler_at
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voyage.cli import cli


@pytest.fixture
def sea(runner: CliRunner, db: Path) -> Path:
    """The Salt Reach with the Sea Witch in Gullhaven, crewed, fuelled and laden."""
    trawler_at(runner, "0305", crew=5, cargo=200, fuel=60)
    return db


def test_sail_finds_a_sea_route_and_status_shows_the_ship(runner, sea):
    out = ok(runner, "sail", "Sea Witch", "--to", "2812", "--json")
    info = json.loads(out)
    assert info["route"][0] == "0305" and info["route"][-1] == "2812"
    assert len(info["route"]) == 26
    status = json.loads(ok(runner, "status", "--json"))
    (row,) = status["ships"]
    assert row["ship"] == "Sea Witch" and row["hex"] == "0305" and row["status"] == "under way"
    assert row["miles_left"] == 300 and row["speed"] == 6


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--to", "0101"), "is land"),
        (("--to", "9999"), "off the map"),
        (("--route", "0405,0606"), "not next to"),
        (("--to", "0305"), "already at"),
    ],
)
def test_sail_refuses_with_one_line(runner, sea, args, reason):
    assert reason in refused(runner, "sail", "Sea Witch", *args)


def test_sail_refuses_a_ship_at_sea_a_sunk_ship_and_a_strain_too_hard(runner, sea):
    assert "may strain 1 to 3" in refused(
        runner, "sail", "Sea Witch", "--to", "2812", "--pace", "strain", "9"
    )
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    assert "already at sea" in refused(runner, "sail", "Sea Witch", "--to", "2420")
    with sqlite3.connect(sea) as conn:
        conn.execute("UPDATE ships SET status = 'sunk'")
    assert "is sunk" in refused(runner, "sail", "Sea Witch", "--to", "2420")


def test_sail_without_a_map_or_a_position(runner, db):
    ok(runner, "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "V")
    assert "no map loaded" in refused(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "map", "load", "salt_reach")
    assert "ship place" in refused(runner, "sail", "Gull", "--to", "2812")


def test_a_voyage_across_the_reach_through_a_storm_and_along_the_coast(runner, sea):
    # End to end: inshore along the Hollowmark shore (R33), through a storm in the open
    # Reach (R32), to Ironport; the referee deals with whatever stops the clock.
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "72")
    ok(
        runner,
        "ship",
        "add",
        "Old Iron",
        "--class",
        "freighter",
        "--tier",
        "X",
        "--engine",
        "IX",
        "--trait",
        "Steady",
    )
    ok(runner, "ship", "load", "Old Iron", "--crew", "12", "--fuel", "200", "--cargo", "500")
    ok(runner, "ship", "place", "Old Iron", "0305")
    ok(runner, "sail", "Old Iron", "--to", "2812", "--via", "1409", "--inshore")
    for _ in range(80):
        out = ok(runner, "advance", "--until", "arrival", "--json")
        json.loads(out)  # the advance reports in JSON
        status = {s["ship"]: s for s in json.loads(ok(runner, "status", "--json"))["ships"]}
        if "Old Iron" not in status:
            break
        s = status["Old Iron"]
        if s["status"] == "stuck":
            continue  # R34: she tries to get off every hour
        if s["sinking_minutes_left"] is not None:
            ok(runner, "act", "Old Iron", "saved")
        if s["water"]:
            ok(runner, "act", "Old Iron", "pump", str(s["water"]))
        for _ in s["leaks"]:
            ok(runner, "act", "Old Iron", "repair", "leak", "1")
        if s["engine_broken"]:
            ok(runner, "act", "Old Iron", "repair", "engine")
    log = json.loads(ok(runner, "log", "Old Iron", "--json"))
    assert log["hours"][-1]["hex"] == "2812" and log["hours"][-1]["status"] == "arrived"
    kinds = {e["kind"] for e in log["events"]}
    assert {"sail", "coast", "capsize", "arrived"} <= kinds
    storm_checks = [
        e
        for e in log["events"]
        if e["kind"] == "capsize" and e["rolls"][0]["label"].startswith("capsize check (storm")
    ]
    assert storm_checks and all(e["rolls"][0]["boon_faces"] for e in storm_checks)  # Steady
    for h in log["hours"]:
        assert {
            "day",
            "hour",
            "hex",
            "speed",
            "fuel",
            "load",
            "load_category",
            "water",
            "status",
        } <= set(h)
    for e in log["events"]:
        assert {"day", "hour", "minute", "ship", "kind", "text", "rolls"} <= set(e)
    text = ok(runner, "log", "Old Iron", "--last", "3")
    assert "arrives at Ironport" in text


def test_referee_actions_are_logged_and_undoable(runner, sea):
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    out = ok(runner, "act", "Sea Witch", "jettison", "100")
    assert "100 hlbs of cargo overboard" in out
    assert json.loads(ok(runner, "ship", "show", "Sea Witch", "--json"))["cargo"] == 100
    ok(runner, "pace", "Sea Witch", "slow")
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["pace"] == "slow"
    assert "carries only" in refused(runner, "act", "Sea Witch", "jettison", "500")
    assert "not on fire" in refused(runner, "act", "Sea Witch", "fight-fire", "--crew", "2")
    assert "not sinking" in refused(runner, "act", "Sea Witch", "saved")
    assert "under way" in refused(runner, "act", "Sea Witch", "refuel", "10")
    # R65: 0405 is open deep sea: no anchoring there, and nothing changes
    before = db_contents(sea)
    assert "open deep sea" in refused(runner, "act", "Sea Witch", "anchor")
    assert db_contents(sea) == before
    ok(runner, "advance", "--hours", "28")  # slow, 3 knots: 7 hexes on to 1108, by a coast
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["hex"] == "1108"
    ok(runner, "act", "Sea Witch", "anchor")
    ok(runner, "advance", "--hours", "2")
    rows = json.loads(ok(runner, "log", "Sea Witch", "--json"))
    assert rows["hours"][-1]["status"] == "anchored" and rows["hours"][-1]["miles"] == 0
    kinds = [e["kind"] for e in rows["events"]]
    assert kinds[:2] == ["place", "sail"] and {"jettison", "pace", "anchor"} <= set(kinds)
    ok(runner, "undo")  # the advance
    ok(runner, "undo")  # the anchor
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["status"] == "under way"


def test_refuel_in_a_port_that_sells_fuel(runner, sea):
    out = ok(runner, "act", "Sea Witch", "refuel", "40")
    assert "buys 40 hlbs of fuel at Gullhaven for 80" in out
    ship = json.loads(ok(runner, "ship", "show", "Sea Witch", "--json"))
    assert ship["fuel"] == 100
    assert "only 560 hlbs" in refused(runner, "act", "Sea Witch", "refuel", "600")
    ok(runner, "ship", "place", "Sea Witch", "3016")
    assert "sells no fuel" in refused(runner, "act", "Sea Witch", "refuel", "5")


def test_advance_with_every_ship_in_port_moves_the_clock_and_says_so(runner, sea):
    # the clock (and the weather) moves with no ship at sea: wait out a storm
    out = ok(runner, "advance", "--hours", "6")
    assert "Every ship is in port" in out and "Day 1, 06:00" in out
    assert json.loads(ok(runner, "status", "--json"))["clock"] == 6
    out = json.loads(ok(runner, "advance", "--until", "dusk", "--json"))
    assert out["end"] == 18 and out["in_port"] and out["stopped"] == "dusk"
    assert out["rows"] == [] and out["end_time"] == "Day 1, 18:00"
    # waiting for an arrival with nobody at sea would never end: refused, nothing changes
    before = db_contents(sea)
    assert "no ship is at sea" in refused(runner, "advance", "--until", "arrival")
    assert db_contents(sea) == before
    ok(runner, "undo")
    assert json.loads(ok(runner, "status", "--json"))["clock"] == 6


def test_advance_until_dawn_and_dusk(runner, sea):
    ok(runner, "sail", "Sea Witch", "--route", "0405,0506,0605")
    ok(runner, "act", "Sea Witch", "anchor")
    out = json.loads(ok(runner, "advance", "--until", "dawn", "--json"))
    assert out["end"] == 6 and out["stopped"] == "dawn"
    out = json.loads(ok(runner, "advance", "--until", "dusk", "--json"))
    assert out["end"] == 18


def test_commands_have_examples():
    import click

    ctx = click.Context(cli, info_name="voyage", **cli.context_settings)
    for name in ("sail", "advance", "pace", "act", "log", "status"):
        cmd = cli.get_command(ctx, name)
        assert cmd is not None and "Example" in (cmd.help or "")
        if isinstance(cmd, click.Group):
            for sub in cmd.commands.values():
                assert "Example" in (sub.help or ""), sub.name


def _set_state(db: Path, **state: object) -> None:
    with sqlite3.connect(db) as conn:
        (raw,) = conn.execute("SELECT state FROM voyages ORDER BY id DESC LIMIT 1").fetchone()
        data = json.loads(raw)
        data.update(state)
        conn.execute(
            "UPDATE voyages SET state = ? WHERE id = (SELECT MAX(id) FROM voyages)",
            [json.dumps(data)],
        )


def test_the_referee_mends_pumps_fights_saves_and_abandons(runner, sea):
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    _set_state(sea, leaks=[10, 20], fire=2, sinking_in=20, sinking_since=0)
    with sqlite3.connect(sea) as conn:
        conn.execute("UPDATE ships SET water = 100, engine_broken = 1")
    assert "say which leak" in refused(runner, "act", "Sea Witch", "repair", "leak")
    # a leak she has not got is named (it offered the range as "1-2")
    assert "Sea Witch has no leak 3: she has 2 leaks (1: 10 hlbs/hour, 2: 20 hlbs/hour)" in (
        refused(runner, "act", "Sea Witch", "repair", "leak", "3")
    )
    # R86: at sea the crew set to work on a leak; --now is the referee's call, patched at once
    assert "set to work on leak 2" in ok(runner, "act", "Sea Witch", "repair", "leak", "2")
    assert "20 hlbs an hour" in ok(runner, "act", "Sea Witch", "repair", "leak", "2", "--now")
    assert "10 hlbs an hour" in ok(runner, "act", "Sea Witch", "repair", "leak", "--now")
    assert "60 left" in ok(runner, "act", "Sea Witch", "pump", "40")
    assert "repaired" in ok(runner, "act", "Sea Witch", "repair", "engine")
    assert "only 5 people" in refused(runner, "act", "Sea Witch", "fight-fire", "--crew", "9")
    ok(runner, "act", "Sea Witch", "fight-fire", "--crew", "3")
    assert "saved" in ok(runner, "act", "Sea Witch", "saved")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["leaks"] == [] and row["water"] == 60 and row["fire"] == 2
    assert row["sinking_minutes_left"] is None and not row["engine_broken"]
    with sqlite3.connect(sea) as conn:
        (raw,) = conn.execute("SELECT state FROM voyages").fetchone()
    assert json.loads(raw)["fire_crew"] == 3
    assert "2420" in ok(runner, "act", "Sea Witch", "course", "--to", "2420")
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["destination"] == "2420"
    assert "at sea" in refused(runner, "ship", "remove", "Sea Witch")
    assert "in port" in refused(runner, "act", "Sea Witch", "abandon")  # R71: not in port
    with sqlite3.connect(sea) as conn:  # out of Gullhaven's hex
        conn.execute("UPDATE voyages SET position = 1")
    assert "abandon" in ok(runner, "act", "Sea Witch", "abandon")
    # R50: her fire (under control) burns on with nobody to fight it; it went out
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["status"] == "on fire" and row["fire"] == 2 and row["nobody_aboard"]
    assert "no crew" in refused(runner, "sail", "Sea Witch", "--to", "2420")
    for _ in range(8):
        ok(runner, "undo")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["leaks"] == [10, 20] and row["water"] == 100 and row["engine_broken"]


def test_the_pace_set_in_port_is_the_pace_she_sails_at(runner, sea):
    assert "slow" in ok(runner, "pace", "Sea Witch", "slow")
    info = json.loads(ok(runner, "sail", "Sea Witch", "--to", "2812", "--json"))
    assert info["pace"] == "slow"
    assert json.loads(ok(runner, "status", "--json"))["ships"][0]["speed"] == 3
    assert "strain" in ok(runner, "pace", "Sea Witch", "strain", "2")
    out = json.loads(ok(runner, "advance", "--json"))
    assert out["rows"][0]["speed"] == 8 or out["stopped"]
    rolls = [r["label"] for e in out["events"] for r in e["rolls"]]
    assert "engine strain" in rolls  # R14: every hour she strains


def test_with_stuck_escape_referee_only_the_referee_refloats_a_ship(runner, sea):
    ok(runner, "settings", "stuck_escape", "referee")
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    assert "not stuck" in refused(runner, "act", "Sea Witch", "refloat")
    with sqlite3.connect(sea) as conn:
        conn.execute("UPDATE voyages SET status = 'stuck'")
    out = json.loads(ok(runner, "advance", "--hours", "3", "--json"))
    assert [r["miles"] for r in out["rows"]] == [0, 0, 0] and not out["events"]
    ok(runner, "act", "Sea Witch", "refloat")
    out = json.loads(ok(runner, "advance", "--json"))
    assert out["rows"][0]["miles"] == 6


hexes = st.builds(lambda c, r: f"{c:02d}{r:02d}", st.integers(0, 40), st.integers(0, 30))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    route=st.lists(st.one_of(hexes, st.text(max_size=5)), min_size=1, max_size=4),
    to=st.one_of(st.none(), hexes),
)
def test_any_order_gives_a_voyage_or_one_clean_line(runner, sea, route, to):
    args = ["sail", "Sea Witch", "--json"]
    args += ["--to", to] if to else ["--route", ",".join(route)]
    result = runner.invoke(cli, args)
    if result.exit_code == 0:
        info = json.loads(result.output)
        ok(runner, "undo")
        assert info["route"][0] == "0305"
    else:
        assert result.exit_code in (1, 2), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output


def test_the_voyages_page_names_every_referee_action_and_event_kind():
    from voyage.cli.act import act

    page = (Path(__file__).parent.parent / "docs" / "voyages.md").read_text()
    for name in act.commands:
        assert f"voyage act SHIP {name}" in page or f"`{name}`" in page, name
    for kind in ("coast", "aground", "capsize", "sinking", "sunk", "fire", "listing", "strain"):
        assert f"`{kind}`" in page, kind


def test_act_json(runner, sea):
    out = json.loads(ok(runner, "act", "--json", "Sea Witch", "jettison", "50"))
    assert out["kind"] == "jettison" and out["changes"] == {"cargo": 150} and out["day"] == 1


def test_a_ship_that_sailed_is_archived_by_remove_force_and_keeps_her_past(
    runner, sea, db, tmp_path
):
    # removing a ship never orphans her voyages (in port: her voyage
    # ended; lying at sea, anchored or adrift, it would still be open: R65)
    ok(runner, "sail", "Sea Witch", "--to", "0804")
    ok(runner, "advance", "--hours", "48")
    before = db_contents(db)
    message = refused(runner, "ship", "remove", "Sea Witch")
    assert "1 voyage in the log" in message and "--force" in message
    assert db_contents(db) == before
    assert "archived" in ok(runner, "ship", "remove", "Sea Witch", "--force")
    assert "Sea Witch" not in ok(runner, "ship", "list")
    listed = json.loads(ok(runner, "ship", "list", "--all", "--json"))
    assert [(s["name"], s["status"]) for s in listed] == [("Sea Witch", "archived")]
    assert "Sea Witch" in ok(runner, "log", "Sea Witch")
    out = tmp_path / "log.md"
    ok(runner, "export", "Sea Witch", "--format", "md", "--out", str(out))
    assert out.read_text().startswith("# Log of the")
    assert "archived" in refused(runner, "sail", "Sea Witch", "--to", "0305")
    assert "archived" in refused(runner, "ship", "load", "Sea Witch", "--fuel", "1")
    assert "already in this campaign" in refused(
        runner, "ship", "add", "Sea Witch", "--class", "dinghy", "--tier", "1"
    )
    ok(runner, "undo")
    assert db_contents(db) == before


def test_sail_warns_when_her_fuel_will_not_last_the_route(runner, sea):
    """R16: 1 hlb a hex (a trawler at her normal pace, Quarter load); 5 hlbs aboard take her
    into 5 of the route's 25 hexes, and she runs dry at the edge of the 6th. Enough fuel: no
    warning. The engine agrees: she stops where sail said."""
    assert "Warning" not in ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "undo")
    ok(runner, "ship", "load", "Sea Witch", "--fuel", "5")
    out = ok(runner, "sail", "Sea Witch", "--to", "2812")
    route = [line for line in out.splitlines() if line.startswith("Route: ")][0].split()[1:]
    assert (
        f"Warning: 5 hlbs of fuel aboard at 1 a hex is enough for 5 of the 25 hexes: she runs "
        f"dry at the edge of {route[6]} and drifts (R16; refuel in port" in out
    )
    ok(runner, "advance", "--until", "event")
    (row,) = json.loads(ok(runner, "status", "--json"))["ships"]
    assert row["hex"] == route[5] and row["fuel"] < 1


def test_sail_warns_when_a_boats_charge_will_not_last_the_route(runner, sea):
    """R82: the Moray at 60 mph spends 21.6 power units a hex; 200 take her into 9 hexes."""
    ok(runner, "ship", "build", "Moray", "--design", "Moray")
    ok(runner, "ship", "place", "Moray", "0305")
    ok(runner, "pace", "Moray", "60mph")
    out = ok(runner, "sail", "Moray", "--to", "2812")
    route = [line for line in out.splitlines() if line.startswith("Route: ")][0].split()[1:]
    assert (
        "Warning: 200 power units of charge aboard at 21.6 a hex is enough for 9 of the 25 "
        f"hexes: she runs dry at the edge of {route[10]} and drifts (R82; `voyage act 'Moray' "
        "recharge` in port)." in out
    )
    assert (
        json.loads(ok(runner, "sail", "Sea Witch", "--to", "2812", "--json"))["fuel_short"] is None
    )


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_act_action_help_without_a_ship_is_that_actions_help(runner: CliRunner, flag: str):
    """`voyage act dive --help` gave act's own help (dive was read as the ship's name); it
    gives the action's, as `voyage act SHIP dive --help` does; `act --help` is act's."""
    action = runner.invoke(cli, ["act", "dive", flag])
    assert action.exit_code == 0 and "Take a submersible down to FEET" in action.output
    named = runner.invoke(cli, ["act", "Sea Witch", "dive", flag])
    assert named.output == action.output
    group = runner.invoke(cli, ["act", flag])
    assert group.exit_code == 0 and "SHIP COMMAND [ARGS]" in group.output
