"""sqlite-utils, imported without numpy (every command's start-up).

sqlite-utils imports numpy when it is installed, only to map numpy's number types to column
types when numpy values are inserted. voyage never inserts numpy values (only ``map render``
uses numpy, for drawing), yet matplotlib, which hexalattice needs, always installs numpy, so
every command that opened a campaign would spend about 0.1 s importing it: up to two
fifths of a one-hour advance.

Every voyage module takes :class:`Database` and :class:`Migrations` from here. The first
import hides numpy while sqlite-utils loads (``sys.modules["numpy"] = None`` makes its
``import numpy`` fail, as if numpy were not installed) and then takes the hiding away, so a
later ``import numpy`` (``map render``) works as usual. Where numpy or sqlite-utils is
already loaded (a test run, a Python session) nothing is hidden and nothing changes.
"""

from __future__ import annotations

import sys


def _load_without_numpy() -> None:
    if "sqlite_utils.db" in sys.modules:
        return
    hide = "numpy" not in sys.modules
    if hide:
        sys.modules["numpy"] = None  # type: ignore[assignment]
    try:
        import sqlite_utils.db  # noqa: F401
    finally:
        if hide and "numpy" in sys.modules and sys.modules["numpy"] is None:
            del sys.modules["numpy"]


_load_without_numpy()

from sqlite_utils import Database  # noqa: E402
from sqlite_utils.migrations import Migrations  # noqa: E402

__all__ = ["Database", "Migrations"]
