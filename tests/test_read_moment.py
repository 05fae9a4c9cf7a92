"""Reads that never tear: a read command sees the campaign at one moment even
while another process advances it."""

from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok

from voyage.store import campaign as store
from voyage.store import campaigndb

ADVANCES = 40


def setup(path: Path) -> None:
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    for args in (
        ["init", "--seed", "11"],
        ["map", "load", "salt_reach"],
        ["ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI"],
        ["ship", "load", "Gull", "--crew", "6", "--cargo", "300", "--fuel", "120"],
        ["ship", "place", "Gull", "0305"],
        ["sail", "Gull", "--to", "2812", "--pace", "slow"],
    ):
        ok(runner, *args)


def writer(path: str, advances: int) -> None:
    """Another terminal: `voyage advance --hours 1`, again and again."""
    from voyage.cli import cli

    for _ in range(advances):
        # a failed advance shows in the final clock, which the test checks
        with contextlib.suppress(Exception):
            cli.main(["advance", "--hours", "1", "--db", path], standalone_mode=False)
    os._exit(0)


def torn(log: dict) -> str | None:
    """Why this log cannot be one moment of the campaign, or None if it can."""
    clock, hours, events = log["clock"], log["hours"], log["events"]
    sailed = [h["clock"] for h in hours]
    if sailed != list(range(len(sailed))):
        return f"hours {sailed[:3]}... are not the hours 0, 1, 2, ..."
    if sailed and sailed[-1] != clock - 1:
        return f"the last hour logged is {sailed[-1]} but the clock reads {clock}"
    # the referee's orders before the first advance ("place", "sail") are logged at the
    # hour they were given; anything else at or after the clock is from an advance
    late = [
        e
        for e in events
        if e["clock"] > clock or (e["clock"] == clock and e["kind"] not in ("place", "sail"))
    ]
    if late:
        return f"a {late[0]['kind']} event at hour {late[0]['clock']}, the clock reads {clock}"
    return None


def read_while_advancing(path: Path) -> tuple[list[str], int]:
    runner = CliRunner()
    # SQLite connections must not cross a fork: close every one this process still has
    gc.collect()
    context = multiprocessing.get_context("fork")
    proc = context.Process(target=writer, args=(str(path), ADVANCES))
    proc.start()
    problems: list[str] = []
    reads = 0
    try:
        while proc.is_alive() or reads == 0:
            result = runner.invoke(
                __import__("voyage.cli", fromlist=["cli"]).cli,
                ["log", "Gull", "--json", "--db", str(path)],
            )
            if result.exit_code != 0:
                problems.append(result.output.strip())
                continue
            reads += 1
            why = torn(json.loads(result.output))
            if why:
                problems.append(why)
    finally:
        proc.join(30)
    return problems, reads


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_log_read_during_advances_is_whole(tmp_path):
    path = tmp_path / "c.db"
    setup(path)
    problems, reads = read_while_advancing(path)
    assert reads >= 5
    assert problems == [], f"{len(problems)} of {reads} reads tore: {problems[:3]}"
    final = json.loads(ok(CliRunner(), "log", "Gull", "--json", "--db", str(path)))
    # the ship sailed every hour, so each read's check above was a real one
    assert final["clock"] == ADVANCES and torn(final) is None


def test_a_read_sees_the_moment_it_began(tmp_path, runner):
    # the same, step by step: a change committed after a read began is not seen by it
    path = tmp_path / "c.db"
    setup(path)
    reader = store.open_campaign(path)
    with campaigndb.one_moment(reader):
        clock = reader.clock
        hours_before = reader.db.execute("SELECT count(*) FROM hours").fetchone()[0]
        ok(runner, "advance", "--hours", "3", "--db", str(path))
        assert reader.clock == clock
        assert reader.db.execute("SELECT count(*) FROM hours").fetchone()[0] == hours_before
    assert reader.clock == clock + 3  # a new read sees the advance
    reader.close()


def advance_elsewhere(path: Path, hours: int = 2) -> None:
    """`voyage advance` in another process, run to its end (its commit) right now."""
    import subprocess
    import sys

    subprocess.run(
        [
            sys.executable,
            "-c",
            "from voyage.cli import main; main()",
            "advance",
            "--hours",
            str(hours),
            "--db",
            str(path),
        ],
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("command", ["log", "status"])
def test_an_advance_committed_in_the_middle_of_a_read_is_not_seen(tmp_path, monkeypatch, command):
    # Deterministic: the advance commits after the read has begun and before it reads the
    # clock. Reading one moment, the command shows the campaign as it was when it began.
    from voyage.store import voyagelog as voyages

    path = tmp_path / "c.db"
    setup(path)
    ok(CliRunner(), "advance", "--hours", "3", "--db", str(path))
    name = "event_rows" if command == "log" else "status_rows"
    real = getattr(voyages, name)

    def in_the_middle(*args, **kwargs):
        advance_elsewhere(path)
        return real(*args, **kwargs)

    monkeypatch.setattr(voyages, name, in_the_middle)
    args = ["log", "Gull"] if command == "log" else ["status"]
    data = json.loads(ok(CliRunner(), *args, "--json", "--db", str(path)))
    assert data["clock"] == 3
    if command == "log":
        assert torn(data) is None and [h["clock"] for h in data["hours"]] == [0, 1, 2]
    else:
        [gull] = data["ships"]
        assert (
            gull["hex"]
            == json.loads(ok(CliRunner(), "log", "Gull", "--json", "--db", str(path)))["hours"][2][
                "hex"
            ]
        )
    monkeypatch.setattr(voyages, name, real)
    assert json.loads(ok(CliRunner(), *args, "--json", "--db", str(path)))["clock"] == 5
