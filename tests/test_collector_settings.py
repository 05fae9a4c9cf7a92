"""The collector's settings for a long advance (voyage.base.gctune): set by the
`voyage advance` process, never by a process that only runs commands inside itself."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from conftest import ok

from voyage.base import gctune

#: a console-script run of voyage that reports its collector's settings as it exits
REPORT = (
    "import atexit, gc, sys\n"
    "atexit.register(lambda: print('GC', gc.get_threshold()[0], gc.get_freeze_count() > 0,"
    " file=sys.stderr))\n"
    "from voyage.cli import main\n"
    "main()\n"
)


def _settings(path: Path, *args: str) -> str:
    env = dict(os.environ, VOYAGE_DB=str(path))
    done = subprocess.run(
        [sys.executable, "-c", REPORT, *args], capture_output=True, text=True, env=env, check=True
    )
    return next(line for line in done.stderr.splitlines() if line.startswith("GC "))


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


def test_a_command_leaves_the_campaign_as_one_file(tmp_path: Path) -> None:
    # A referee copies campaign.db to keep it: every change a command made must be in that
    # one file when it ends, not left in a -wal beside it (which a collector frozen at exit
    # left there, the map of `map load` with it).
    path = tmp_path / "c.db"
    env = dict(os.environ, VOYAGE_DB=str(path))
    script = "from voyage.cli import main\nmain()\n"
    map_file = Path(__file__).resolve().parent.parent / "campaigns" / "salt_reach" / "map.yaml"
    for args in (["init", "--seed", "3"], ["map", "load", str(map_file)]):
        subprocess.run(
            [sys.executable, "-c", script, *args], env=env, check=True, capture_output=True
        )
        assert sorted(p.name for p in tmp_path.iterdir()) == ["c.db"], args
