"""R85's bilge pumps under the referee's hand: `voyage act SHIP pumps on|off|auto`. Left on
they run every hour, wet or dry, and more than 5 dry hours in all burn them out; off they
stay off whatever comes in; each switch is logged and undone exactly."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from conftest import add_trawler, db_contents, ok, refused


def _gull(runner: CliRunner, pumps: int = 1) -> None:
    add_trawler(runner, "0305", "Gull", crew=5, fuel=60, pumps=pumps)


def _eq(runner: CliRunner) -> dict:
    return json.loads(ok(runner, "ship", "show", "Gull", "--json"))["equipment"]


def test_left_on_they_burn_out_after_five_dry_hours(runner: CliRunner, reach: Path) -> None:
    _gull(runner)
    ok(runner, "sail", "Gull", "--to", "2812")
    before = db_contents(reach)
    out = ok(runner, "act", "Gull", "pumps", "on")
    assert out.strip() == (
        "Gull's bilge pump is switched on and left on (R85): running "
        "every hour, wet or dry; more than 5 dry hours in all burn a pump "
        "out."
    )
    assert "switched on by hand" in ok(runner, "ship", "show", "Gull")
    ok(runner, "undo")
    assert db_contents(reach) == before  # the switch is undone exactly
    ok(runner, "act", "Gull", "pumps", "on")
    for hour in range(1, 6):  # dry: each hour counts, and they stay on (R85)
        ok(runner, "advance")
        eq = _eq(runner)
        assert eq["pump_dry_hours"] == hour and eq["pumps_on"] is True, hour
    ok(runner, "advance")  # the sixth dry hour: more than 5, they burn out
    eq = _eq(runner)
    assert eq["pumps_burnt"] == 1
    texts = [
        e["text"]
        for e in json.loads(ok(runner, "log", "Gull", "--json"))["events"]
        if e["kind"] == "pumps" and e["text"].startswith("The bilge")
    ]
    assert texts[0] == "The bilge pumps run dry (1 dry hour in all; R85); they are left on."
    assert texts[-1] == "The bilge pumps run dry (6 dry hours in all; R85): they burn out."
    assert "burnt out" in refused(runner, "act", "Gull", "pumps", "auto")


def test_switched_off_they_do_not_pump_and_auto_gives_them_back(runner, reach: Path):
    _gull(runner)
    ok(runner, "sail", "Gull", "--to", "2812")
    ok(runner, "act", "Gull", "pumps", "off")
    with sqlite3.connect(reach) as conn:
        conn.execute("UPDATE ships SET water = 20 WHERE name = 'Gull'")
    ok(runner, "advance")
    events = json.loads(ok(runner, "log", "Gull", "--json"))["events"]
    pumping = [e for e in events if e["text"].startswith("The bilge pumps")]
    assert not pumping  # off: no pumping, the water stays
    assert json.loads(ok(runner, "ship", "show", "Gull", "--json"))["water"] >= 20
    assert "already switched off" in refused(runner, "act", "Gull", "pumps", "off")
    ok(runner, "act", "Gull", "pumps", "auto")
    assert "pumps_switch" not in _eq(runner)
    ok(runner, "advance")  # the crew switch them on: water is aboard
    events = json.loads(ok(runner, "log", "Gull", "--json"))["events"]
    assert [e for e in events if e["text"].startswith("The bilge pumps")]


def test_bad_pump_switches_are_one_line(runner: CliRunner, reach: Path) -> None:
    _gull(runner, pumps=0)
    before = db_contents(reach)
    assert "Gull has no bilge pumps (R85)" in refused(runner, "act", "Gull", "pumps", "on")
    assert db_contents(reach) == before
    result = runner.invoke(
        __import__("voyage.cli", fromlist=["cli"]).cli, ["act", "Gull", "pumps", "sideways"]
    )
    assert result.exit_code == 2 and "sideways" in result.output  # click: not a choice
    ok(
        runner,
        "ship",
        "build",
        "Fox",
        "--body",
        "cruiser",
        "--plant",
        "large",
        "--with",
        "deck,bilge-pump",
    )
    assert "left to the crew" in refused(runner, "act", "Fox", "pumps", "auto")
    assert "switched on" in ok(runner, "act", "Fox", "pumps", "on")  # in port, too
