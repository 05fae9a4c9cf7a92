"""voyage.store.sqlitedb: sqlite-utils is loaded with numpy hidden, and numpy still imports
afterwards."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_a_campaign_opens_without_numpy_and_numpy_still_imports_after(tmp_path: Path) -> None:
    """voyage.store.sqlitedb: sqlite-utils is loaded with numpy hidden (about 0.1 s of
    every command's start-up); ``map render`` can still import numpy afterwards."""
    code = (
        "import sys, pathlib; from voyage.store import campaign as store; "
        f"store.create_campaign(pathlib.Path({str(tmp_path / 'c.db')!r}), 'T', seed=1); "
        "before = 'numpy' in sys.modules; import numpy; "
        "print(before, numpy.arange(3).sum(), sys.modules['numpy'] is numpy)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "3", "True"]
