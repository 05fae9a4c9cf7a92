"""Safety of the voyage store: one advance is one transaction, undo is exact, replays are
byte-identical (R5), a second process gets a clean error."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import invoke

from voyage import store, voyages
from voyage.engine import Engine


def ok(runner: CliRunner, *args: str) -> str:
    result = invoke(runner, *args)
    assert result.exit_code == 0, result.output
    return result.output


def setup_voyage(runner: CliRunner) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "48")
    for name, start, to in (("Sea Witch", "0305", "2812"), ("Gull", "2420", "0419")):
        ok(runner, "ship", "add", name, "--class", "trawler", "--tier", "IV", "--engine", "V")
        ok(runner, "ship", "load", name, "--crew", "5", "--cargo", "200", "--fuel", "60")
        ok(runner, "ship", "place", name, start)
        ok(runner, "sail", name, "--to", to, "--inshore")


def dump(db: Path, skip_actions: bool = False) -> list[str]:
    """Every row of the campaign, as SQL, in a stable order."""
    with sqlite3.connect(db) as conn:
        lines = list(conn.iterdump())
    if skip_actions:
        lines = [line for line in lines if not line.startswith('INSERT INTO "actions"')]
    return lines


def test_mutable_tables_are_snapshotted_and_log_tables_tagged():
    assert {"voyages", "ships", "campaign", "port_fuel"} <= set(store.SNAPSHOT_TABLES)
    assert {"hours", "events"} <= set(store.LOG_TABLES)


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_advance_interrupted_midway_leaves_the_campaign_as_it_was(runner, db, monkeypatch,
                                                                      error):
    setup_voyage(runner)
    before = dump(db)
    real_hour = Engine.hour
    calls = {"n": 0}

    def flaky(self, clock):
        calls["n"] += 1
        if calls["n"] == 5:
            raise error("interrupted")
        return real_hour(self, clock)

    monkeypatch.setattr(Engine, "hour", flaky)
    with pytest.raises(error):
        camp = store.open_campaign(db)
        voyages.advance(camp, 10)
    assert dump(db) == before


def test_an_error_after_the_log_is_written_rolls_everything_back(runner, db, monkeypatch):
    setup_voyage(runner)
    before = dump(db)

    def broken(self, hours):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store.Campaign, "set_clock", broken)
    camp = store.open_campaign(db)
    with pytest.raises(sqlite3.OperationalError):
        voyages.advance(camp, 5)
    assert dump(db) == before


def test_undo_takes_back_an_advance_exactly_rolls_and_all(runner, db):
    setup_voyage(runner)
    before = dump(db)
    first = ok(runner, "advance", "--hours", "30", "--json")
    ok(runner, "undo")
    assert dump(db) == before
    again = ok(runner, "advance", "--hours", "30", "--json")
    assert again == first  # the roller state came back too (R5)


def test_same_seed_same_commands_same_log_byte_for_byte(tmp_path, monkeypatch):
    outputs = []
    for run in ("a", "b"):
        path = tmp_path / f"{run}.db"
        monkeypatch.setenv("VOYAGE_DB", str(path))
        runner = CliRunner()
        ok(runner, "init", "--seed", "11")
        setup_voyage(runner)
        for _ in range(4):
            ok(runner, "advance", "--hours", "12")
        logs = [ok(runner, "log", name, "--json") for name in ("Sea Witch", "Gull")]
        with sqlite3.connect(path) as conn:
            tables = [conn.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
                      for t in ("hours", "events", "voyages")]
        outputs.append((logs, json.dumps(tables)))
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0][0][0])["hours"]


def test_a_second_process_holding_the_campaign_gets_a_clean_error(runner, db):
    setup_voyage(runner)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "c.execute('BEGIN IMMEDIATE')\n"
         "print('locked', flush=True)\n"
         "time.sleep(8)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        result = invoke(runner, "advance", "--hours", "2")
        assert result.exit_code == 1
        assert "busy" in result.output and result.output.count("\n") == 1
    finally:
        holder.kill()
        holder.wait()
    ok(runner, "advance", "--hours", "2")
