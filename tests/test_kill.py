"""Crash safety: `voyage advance` and `voyage init` killed (SIGKILL) at random
moments leave a campaign exactly as before or exactly as after, never between, and
`voyage init` leaves no file or a complete one.

Each command runs in a forked child (the real CLI entry point, no interpreter start-up, so
fifty kills take a second or two); the parent kills it after a random delay spread over the
command's own running time, measured in the same run.
"""

from __future__ import annotations

import gc
import os
import random
import shutil
import signal
import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import add_trawler, ok

from voyage.actions.doctor import examine
from voyage.store.housetables import read_folder

KILLS = 50
#: Kills between two timings of the command (a loaded machine's speed drifts within a test).
RETIME = 10
#: Columns that say when something was done (wall-clock time), not what was done.
WHEN_COLUMNS = {"at", "created", "applied_at"}

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def contents(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table (as conftest.db_contents), wall-clock times blanked."""
    conn = sqlite3.connect(path)
    try:
        out = {}
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            names = [c[1] for c in conn.execute(f"PRAGMA table_info([{table}])")]
            rows = []
            for row in conn.execute(f"SELECT * FROM [{table}]"):
                values = list(row)
                for i, name in enumerate(names):
                    if name in WHEN_COLUMNS:
                        values[i] = None
                if table == "voyage_file" and values[0] == "created":
                    values[1] = None
                rows.append(tuple(values))
            out[table] = sorted(rows, key=repr)
        return out
    finally:
        conn.close()


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def run_child(args: list[str]) -> int:
    """Fork a child running ``voyage ARGS``; its pid.

    No SQLite connection may cross the fork: the tests close theirs, and collect the
    commands' once before the first kill.
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            from voyage.cli import cli

            cli.main(args, standalone_mode=False)
        except BaseException:
            os._exit(1)
        os._exit(0)
    return pid


def finish(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return status


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    status = finish(run_child(args))
    assert os.waitstatus_to_exitcode(status) == 0
    return time.perf_counter() - start


def kill_at(args: list[str], delay: float) -> None:
    pid = run_child(args)
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    finish(pid)


def remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_a_killed_advance_leaves_the_campaign_before_or_after(tmp_path):
    base = tmp_path / "base.db"
    runner = CliRunner(env={"VOYAGE_DB": str(base)})
    ok(runner, "init", "--seed", "5")
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "weather", "storm", "--around", "1510", "--radius", "2", "--hours", "48")
    for name, start, to in (("Sea Witch", "0305", "2812"), ("Gull", "2420", "0419")):
        add_trawler(runner, start, name, crew=5, cargo=200, fuel=60)
        ok(runner, "sail", name, "--to", to, "--inshore")
    gc.collect()  # the commands' connections closed (as when their processes end)
    before_bytes = base.read_bytes()
    before = contents(base)
    work = tmp_path / "work.db"
    args = ["advance", "--hours", "2", "--db", str(work)]
    work.write_bytes(before_bytes)
    duration = timed(args)
    after = contents(work)
    assert after != before and after["hour_days"]  # the hours, packed (m102)
    rng = random.Random(13)
    seen: Counter[str] = Counter()
    for i in range(KILLS):
        if i and i % RETIME == 0:  # the machine's speed swings: time the command again
            remove(work)
            work.write_bytes(before_bytes)
            duration = timed(args)
        remove(work)
        work.write_bytes(before_bytes)
        kill_at(args, rng.uniform(0, duration * 1.3))
        assert integrity(work) == "ok"
        now = contents(work)
        outcome = "before" if now == before else "after" if now == after else "between"
        seen[outcome] += 1
        assert outcome != "between", "a killed advance left a half-applied campaign"
    assert seen["before"] and seen["after"], seen  # the kills fell at different moments


def test_a_killed_init_leaves_no_file_or_a_complete_campaign(tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    shutil.copy(Path(__file__).parent.parent / "tables" / "tiers.yaml", house / "tiers.yaml")
    folder = tmp_path / "campaigns"
    folder.mkdir()
    work = folder / "c.db"
    args = ["init", "--db", str(work), "--seed", "7", "--tables", str(house)]
    read_folder(house)  # the children inherit the validated tables, as a warm process has
    gc.collect()
    duration = timed(args)
    reference = contents(work)
    rng = random.Random(17)
    seen: Counter[str] = Counter()
    for i in range(KILLS):
        if i and i % RETIME == 0:  # the machine's speed swings: time the command again
            remove(work)
            duration = timed(args)
        remove(work)
        kill_at(args, rng.uniform(0, duration * 1.3))
        if not work.exists():
            seen["nothing"] += 1
            continue
        assert integrity(work) == "ok"
        assert contents(work) == reference, "a killed init left an incomplete campaign"
        assert examine(work).healthy
        seen["complete"] += 1
    assert seen["nothing"] and seen["complete"], seen
    # what a killed init leaves beside (its temporary file) goes with the next init
    remove(work)
    ok(CliRunner(), *args)
    assert sorted(p.name for p in folder.iterdir()) == ["c.db"]
