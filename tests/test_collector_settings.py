"""The collector's settings for a long advance (voyage.base.gctune): set by the
`voyage advance` process, never by a process that only runs commands inside itself; and
every console-script process leaves what it holds to the operating system once its command
is done (no object-by-object shutdown)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from conftest import ok

from voyage.base import gctune

#: a console-script run of voyage that reports its collector's settings when its command
#: is done ("GC"), and again as it exits ("EXIT")
REPORT = (
    "import atexit, gc, sys\n"
    "from voyage.base import gctune\n"
    "def settings(when):\n"
    "    print(when, gc.get_threshold()[0], gc.get_freeze_count() > 0, file=sys.stderr)\n"
    "leave = gctune.leave_to_exit\n"
    "def done():\n"
    "    settings('GC')\n"
    "    leave()\n"
    "gctune.leave_to_exit = done\n"
    "atexit.register(settings, 'EXIT')\n"
    "from voyage.cli import main\n"
    "main()\n"
)


def _settings(path: Path, *args: str, when: str = "GC") -> str:
    env = dict(os.environ, VOYAGE_DB=str(path))
    done = subprocess.run(
        [sys.executable, "-c", REPORT, *args], capture_output=True, text=True, env=env, check=True
    )
    return next(line for line in done.stderr.splitlines() if line.startswith(f"{when} "))


def test_only_a_whole_process_changes_its_collector() -> None:
    before = gc.get_threshold(), gc.get_freeze_count()
    assert not gctune.whole_process  # pytest is not voyage's console script
    gctune.for_long_run()
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_the_advance_process_freezes_its_modules_and_collects_rarely(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    runner = CliRunner(env={"VOYAGE_DB": str(path)})
    for args in (
        ["init", "--seed", "3"],
        ["map", "load", "salt_reach"],
        ["ship", "add", "Gull", "--class", "trawler", "--tier", "V", "--engine", "VI"],
        ["ship", "load", "Gull", "--crew", "6", "--fuel", "120"],
        ["ship", "place", "Gull", "0305"],
        ["sail", "Gull", "--to", "2812"],
    ):
        ok(runner, *args)
    assert _settings(path, "advance", "--hours", "2") == f"GC {gctune.YOUNG} True"
    # any other command keeps CPython's own settings
    assert _settings(path, "status") == f"GC {gc.get_threshold()[0]} False"
    # the advance ran in its own process: nothing here changed
    assert not gctune.whole_process


def test_a_finished_command_leaves_what_it_holds_to_the_operating_system(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    ok(CliRunner(env={"VOYAGE_DB": str(path)}), "init", "--seed", "3")
    # frozen once the command is done, so the shutdown walks none of it; the exit
    # handlers still run (this report is one), with CPython's own thresholds
    assert _settings(path, "status", when="EXIT") == f"EXIT {gc.get_threshold()[0]} True"
    # a command run inside another process (a test, a notebook) freezes nothing
    before = gc.get_freeze_count()
    ok(CliRunner(env={"VOYAGE_DB": str(path)}), "status")
    gctune.leave_to_exit()
    assert gc.get_freeze_count() == before
