"""A forecast's worker processes killed or stuck at each stage (as they start, in the middle
of the runs, after every result is in) never hang it: it ends with its result or one
clear line within a bounded time. Each case runs the console script in a child process
with the fault planted, under a timeout."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import trawler_at

SHIP = "Sea Witch"

#: the console script (voyage.entry:main) with a fault planted in the forecast's workers
SCRIPT = """
import os, signal, sys, time
from multiprocessing import util
from voyage.actions import forecast as fc

stage = sys.argv[1]
fc.WORKER_WAIT, fc.WORKER_LOOK, fc.SHUTDOWN_WAIT = 3.0, 0.2, 1.0
quiet_worker, run_chunk = fc._quiet_worker, fc.run_chunk

def worker(closing):
    quiet_worker(closing)
    if stage == "killed at start":
        os.kill(os.getpid(), signal.SIGKILL)
    if stage == "stuck after results":  # the worker never leaves: a lock it waits on
        util.Finalize(None, time.sleep, args=(3600,), exitpriority=100)
    if stage == "killed after results":
        util.Finalize(None, os.kill, args=(os.getpid(), signal.SIGKILL), exitpriority=100)

def chunk(key, seed, first, stop):
    if first == 2 * fc.CHUNK and stage == "killed mid-run":
        os.kill(os.getpid(), signal.SIGKILL)
    if first == 2 * fc.CHUNK and stage == "stuck mid-run":
        time.sleep(3600)
    return run_chunk(key, seed, first, stop)

fc._quiet_worker, fc.run_chunk = worker, chunk
from voyage.entry import main
sys.argv[1:] = sys.argv[2:]
sys.exit(main())
"""

#: the forecast's result (exit 0) or its one line (exit 1)
ENDS = {
    "killed at start": 1,
    "killed mid-run": 1,
    "stuck mid-run": 1,
    "stuck after results": 0,
    "killed after results": 0,
}


@pytest.fixture
def campaign(db: Path, runner: CliRunner) -> Path:
    trawler_at(runner, "0305", SHIP, crew=5, fuel=60)
    return db


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
@pytest.mark.parametrize("stage", list(ENDS))
def test_a_worker_killed_or_stuck_never_hangs_a_forecast(campaign: Path, stage: str) -> None:
    args = ["forecast", SHIP, "--to", "2812", "--runs", "2000", "--workers", "2", "--seed", "3"]
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, stage, "--db", str(campaign), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
    )
    try:
        out, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this prevents
        import os

        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        pytest.fail(f"the forecast hung ({stage})")
    assert "Traceback" not in err
    assert child.returncode == ENDS[stage], err
    if ENDS[stage]:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("Error: ")
        assert "--workers 1" in lines[0]
        assert out == ""
    else:
        assert out.startswith(f"Forecast for {SHIP}")
        assert "2,000 runs, seed 3" in out
