"""A voyage's route and inshore flags as ``voyage_routes`` stores them (issue 14, m106).

- ``route``: the hex names in order, origin first, separated by single spaces
  (``"0305 0405 0506"``); :func:`route_from_text` is ``text.split()``.
- ``inshore``: one character per flag, ``1`` for a leg sailed inshore (R33), ``0`` for one
  that is not (``"0011"``); as many characters as there are flags.

Until m106 both were JSON lists (``["0305", "0405"]``, ``[false, true]``). A long voyage's
route is read on every command that sails her, and decoding JSON was most of what a day's
advance spent outside the engine (issue 14: a year of daily advances); the text is also a
third shorter, and the flags a seventh. Every reader goes through this module.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

#: What the m106 format allows: digits and spaces in a route, 0 and 1 in the flags.
ROUTE_GLOB = "*[^0-9 ]*"
INSHORE_GLOB = "*[^01]*"


def route_text(route: Iterable[str]) -> str:
    """``["0305", "0405"]`` -> ``"0305 0405"``."""
    return " ".join(route)


def route_from_text(text: str) -> list[str]:
    """``"0305 0405"`` -> ``["0305", "0405"]`` (``""`` -> ``[]``)."""
    return text.split()


def inshore_text(flags: Iterable[Any]) -> str:
    """``[False, True]`` -> ``"01"`` (a flag is inshore when it is true)."""
    return "".join("1" if f else "0" for f in flags)


def inshore_from_text(text: str) -> list[bool]:
    """``"01"`` -> ``[False, True]``: found by scanning for the few ``1``s (a long route is
    mostly offshore), not by a test per flag."""
    flags = [False] * len(text)
    at = text.find("1")
    while at >= 0:
        flags[at] = True
        at = text.find("1", at + 1)
    return flags


def _json_list(value: Any) -> list[Any] | None:
    if not isinstance(value, str):
        return None
    try:
        found = json.loads(value)
    except ValueError:
        return None
    return found if isinstance(found, list) else None


def route_from_json(value: Any) -> Any:
    """A route stored as JSON before m106 -> the text; anything else is kept as it is."""
    found = _json_list(value)
    return value if found is None else route_text(str(h) for h in found)


def inshore_from_json(value: Any) -> Any:
    """Inshore flags stored as JSON before m106 -> the text; anything else is kept."""
    found = _json_list(value)
    return value if found is None else inshore_text(found)
