"""voyage.base.lazyimport: rules an advance may never call are imported on first use, and the
stand-in then gives way to the real function (issue 14: start-up)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from voyage.base.lazyimport import lazy

#: imported by no part of a quiet advance until a ship needs them
LAZY = [
    "voyage.rules.aground",
    "voyage.rules.ramming",
    "voyage.rules.hull",
    "voyage.rules.depth",
    "voyage.rules.fire",
    "voyage.rules.shiptables",
    "voyage.rules.movement",
    "voyage.rules.repair",
    "voyage.actions.depthroutes",
]


def test_the_engine_imports_no_rule_it_has_not_called() -> None:
    code = (
        "import json, sys; import voyage.actions.voyages, voyage.engine.clock; "
        f"print(json.dumps([m for m in {LAZY!r} if m in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_a_stand_in_gives_way_to_the_real_function() -> None:
    space: dict[str, object] = {}
    space["dumps"] = lazy("json", "dumps", space)
    space["shown"] = lazy("json", "dumps", space, "shown")
    space["path"] = lazy("os.path", None, space, "path")
    assert "not imported yet" in repr(space["dumps"])
    assert space["dumps"]([1, "a"]) == json.dumps([1, "a"])  # type: ignore[operator]
    assert space["dumps"] is json.dumps
    assert space["shown"]({"a": 1}, sort_keys=True) == '{"a": 1}'  # type: ignore[operator]
    assert space["shown"] is json.dumps
    import os.path

    assert space["path"].join("a", "b") == os.path.join("a", "b")  # type: ignore[attr-defined]
    assert space["path"] is os.path


def test_a_stand_in_replaced_meanwhile_is_left_alone() -> None:
    space: dict[str, object] = {}
    stand_in = lazy("json", "loads", space)
    space["loads"] = len  # e.g. monkeypatched by a test
    assert stand_in("[1]") == [1]
    assert space["loads"] is len


def test_a_campaign_opens_without_numpy_and_numpy_still_imports_after(tmp_path: Path) -> None:
    """voyage.store.sqlitedb: sqlite-utils is loaded with numpy hidden (about 0.1 s of
    every command's start-up, issue 14); ``map render`` can still import numpy afterwards."""
    code = (
        "import sys, pathlib; from voyage.store import campaign as store; "
        f"store.create_campaign(pathlib.Path({str(tmp_path / 'c.db')!r}), 'T', seed=1); "
        "before = 'numpy' in sys.modules; import numpy; "
        "print(before, numpy.arange(3).sum(), sys.modules['numpy'] is numpy)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "3", "True"]
