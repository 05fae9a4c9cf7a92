"""Long forecasts and plans: an estimate of their time before they run on (when it is over
ten seconds), a bar on a terminal, workers chosen by the work and the free cores, and
Ctrl-C stopping one in one line with the campaign unchanged."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ok, trawler_at

from voyage.actions import forecast as fc
from voyage.cli import cli
from voyage.cli import progress as bar

SHIP = "Sea Witch"
#: the console script's code (voyage.entry:main), as pip's wrapper runs it
VOYAGE = [sys.executable, "-c", "import sys; from voyage.entry import main; sys.exit(main())"]


@pytest.fixture
def campaign(db: Path, runner: CliRunner) -> Path:
    trawler_at(runner, "0305", SHIP, crew=5, fuel=60)
    return db


def slow_clock(step: float) -> Iterator[float]:
    """A clock that moves ``step`` seconds each time it is read (each chunk looks slow)."""
    now = 0.0
    while True:
        yield now
        now += step


def test_a_long_forecast_says_how_long_before_it_runs_on(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = slow_clock(3.0)  # the first chunk of 250 runs "takes" 3 s: 1,000 runs take 12 s
    monkeypatch.setattr(fc, "_now", lambda: next(ticks))
    args = ["forecast", SHIP, "--to", "2812", "--runs", "1000", "--workers", "1", "--seed", "3"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stderr == "About 12 s for 1,000 runs (Ctrl-C stops it).\n"
    assert result.stdout.startswith("Forecast for Sea Witch")


def test_a_short_forecast_says_nothing_of_its_time(campaign: Path) -> None:
    args = ["forecast", SHIP, "--to", "2812", "--runs", "1000", "--workers", "1", "--seed", "3"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_the_estimate_counts_the_rounds_of_the_workers(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over two workers the first chunk's time is each round's: 8 chunks are 4 rounds."""
    from voyage.store.campaign import read_only_campaign

    told: list[float] = []
    ticks = slow_clock(1.0)
    setup = fc.prepare(read_only_campaign(campaign), SHIP, "2812")
    monkeypatch.setattr(fc, "_now", lambda: next(ticks))
    fc.simulate(setup, 8 * fc.CHUNK, 1, workers=2, estimate=told.append)
    assert told == [4.0]


def test_a_long_plan_says_how_long_for_every_route(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = slow_clock(3.0)
    monkeypatch.setattr(fc, "_now", lambda: next(ticks))
    args = ["plan", SHIP, "--to", "2812", "--runs", "500", "--workers", "1", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    routes = len(json.loads(result.stdout)["plans"])
    # the first chunk (250 runs) "took" 3 s: 6 s a route of 500 runs, for every route
    assert result.stderr == (
        f"About {bar.duration_text(6 * routes)} for {500 * routes:,} runs over the routes "
        "(Ctrl-C stops it).\n"
    )


def test_times_for_people() -> None:
    assert bar.duration_text(0.2) == "1 s"
    assert bar.duration_text(45) == "45 s"
    assert bar.duration_text(150) == "2 min 30 s"
    assert bar.duration_text(600) == "10 min"
    assert bar.duration_text(3900) == "1 h 5 min"
    assert bar.estimate_line(10, "600 runs") is None
    assert bar.estimate_line(150.4, "1,000,000 runs") == (
        "About 2 min 30 s for 1,000,000 runs (Ctrl-C stops it)."
    )


def test_workers_are_chosen_by_the_work_and_the_free_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    assert fc.free_cores() == 4
    assert fc.workers_for(1_000_000, None) == 4
    assert fc.workers_for(fc.CHUNK, None) == 1  # one chunk: no fork is worth it
    assert fc.workers_for(4 * fc.CHUNK, None) == 2  # two chunks a worker
    assert fc.workers_for(fc.CHUNK, 8) == 1  # asked for: never more than the chunks
    assert fc.workers_for(1_000_000, 3) == 3
    monkeypatch.setattr(os, "getloadavg", lambda: (3.2, 3.0, 3.0))  # three cores busy
    assert fc.free_cores() == 1 and fc.workers_for(1_000_000, None) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    assert fc.free_cores() == 1  # at least one


def test_the_default_workers_are_the_cores_found_idle_while_the_first_runs_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """free_cores(since): the cores that stood idle since a /proc/stat sample, taken while
    this process kept one busy (so that one counts too); the load average where the
    sample is too short to believe or the platform has none."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 3.0, 3.0))  # a minute ago: busy
    since = {0: (100, 1000), 1: (200, 1000), 2: (0, 0)}  # (idle, total) ticks by CPU
    # CPU 0 was this process's (busy), CPU 1 idle 5 ticks of 6, CPU 2 not ours (ignored)
    monkeypatch.setattr(fc, "cpu_sample", lambda: {0: (100, 1006), 1: (205, 1006), 2: (9, 9)})
    assert fc.free_cores(since) == 2
    assert fc.workers_for(10_000, None, fc.free_cores(since)) == 2
    # the other core busy too: one worker (the runs stay in this process)
    monkeypatch.setattr(fc, "cpu_sample", lambda: {0: (100, 1006), 1: (201, 1006)})
    assert fc.free_cores(since) == 1
    # too few ticks to tell: the load average decides
    monkeypatch.setattr(fc, "cpu_sample", lambda: {0: (100, 1001), 1: (201, 1001)})
    assert fc.free_cores(since) == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (0.2, 0.2, 0.2))
    assert fc.free_cores(since) == 2
    sample = fc.cpu_sample  # (the real one, before it is replaced)
    monkeypatch.setattr(fc, "cpu_sample", lambda: None)  # no /proc/stat
    assert fc.free_cores(since) == 2
    if Path("/proc/stat").exists():
        found = sample()
        assert found and all(0 <= idle <= total for idle, total in found.values())


def test_the_default_workers_give_the_runs_one_worker_gives(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the default workers the first chunks are made here and the rest on the cores
    found free: the same runs, in order, and one estimate of the whole."""
    from voyage.store.campaign import read_only_campaign

    setup = fc.prepare(read_only_campaign(campaign), SHIP, "2812")
    alone = fc.simulate(setup, 12 * fc.CHUNK, 2, workers=1)
    chosen: list[int] = []
    workers_for = fc.workers_for
    monkeypatch.setattr(fc, "workers_for", lambda *a: chosen.append(workers_for(*a)) or chosen[-1])
    monkeypatch.setattr(fc, "SAMPLE_SECONDS", 0.0)  # one chunk here, then the choice
    for free in (1, 2):
        monkeypatch.setattr(fc, "free_cores", lambda since=None, free=free: free)
        told: list[float] = []
        assert fc.simulate(setup, 12 * fc.CHUNK, 2, estimate=told.append) == alone
        assert len(told) == 1 and told[0] > 0
    assert chosen == [1, 2]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")
def test_ctrl_c_stops_a_forecast_in_one_line_and_changes_nothing(campaign: Path) -> None:
    """Ctrl-C reaches the whole process group (the workers too) at any moment of a long
    forecast: one line, no traceback, exit 130, the campaign's bytes as they were."""
    runner = CliRunner()
    ok(runner, "sail", SHIP, "--to", "2812", "--inshore")
    before = _sha(campaign)
    args = [*VOYAGE, "forecast", SHIP, "--to", "2812", "--runs", "200000", "--workers", "2"]
    rng = random.Random(5)
    for _ in range(4):
        child = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        time.sleep(rng.uniform(0.6, 1.5))
        os.killpg(child.pid, signal.SIGINT)
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover - the failure this prevents
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail("the forecast hung after Ctrl-C")
        lines = err.decode().splitlines()
        if child.returncode == -signal.SIGINT:  # pragma: no cover - still starting
            continue
        assert child.returncode == 130, err
        assert lines[-1] == "Error: interrupted (Ctrl-C): the campaign was not changed"
        assert "Traceback" not in err.decode()
        assert all(line.startswith("About ") for line in lines[:-1])  # the estimate, if any
        assert _sha(campaign) == before
