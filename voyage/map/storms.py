"""Storms placed by the referee (R32, R60, R63): which hexes they cover at a campaign hour.

A storm is stored as rows of one shape, one row per hex: ``storm`` (the number grouping
hexes placed together), ``hex``, ``start_hour``, ``end_hour`` (the storm blows for
``start_hour <= hour < end_hour``), ``source`` (``referee``), ``note``, ``state`` (its sea
state, R60: stormy seas unless given), and for a moving storm ``moving`` (the hex side it
moves towards) and ``every`` (hours per hex). Rolled weather is never stored: it is
recomputed from its own dice (voyage.world, R63), which also moves these storms.

:func:`storms_at` and :func:`is_storm` answer for the hexes as placed (not moved); the
engine and the weather commands ask :class:`voyage.world.seastate.SeaStates`, which knows
both. They take the rows as read (voyage.store.mapstore reads them from the campaign).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap

STORM_COLUMNS = (
    "storm",
    "hex",
    "start_hour",
    "end_hour",
    "source",
    "note",
    "state",
    "moving",
    "every",
)


def blowing(row: Mapping[str, Any], hour: int) -> bool:
    """Whether one storm row is live at ``hour`` (start inclusive, end exclusive)."""
    return int(row["start_hour"]) <= hour < int(row["end_hour"])


def storms_at(rows: Iterable[Mapping[str, Any]], hour: int) -> set[str]:
    """The storm-tossed hexes at campaign ``hour`` (R32), from storm rows."""
    return {hexmap.canonical(r["hex"]) for r in rows if blowing(r, hour)}


def is_storm(rows: Iterable[Mapping[str, Any]], hex_name: str, hour: int) -> bool:
    """Whether ``hex_name`` is storm-tossed at ``hour`` (R32: ships there may capsize)."""
    return hexmap.canonical(hex_name) in storms_at(rows, hour)


def storm_rows(
    storm: int,
    hexes: Iterable[str],
    start_hour: int,
    hours: int,
    *,
    source: str = "referee",
    note: str | None = None,
    state: str = "stormy",
    moving: str | None = None,
    every: int | None = None,
) -> list[dict[str, Any]]:
    """The rows for one storm over ``hexes`` lasting ``hours`` from ``start_hour``; its sea
    state (R60: stormy seas unless given) and, if it moves, the hex side it moves towards
    and every how many hours (R63)."""
    if hours < 1:
        raise MapError(f"a storm lasts at least 1 hour (got {hours})")
    names = sorted({hexmap.canonical(h) for h in hexes}, key=hexmap.parse_hex)
    if not names:
        raise MapError("a storm needs at least one hex: name hexes, or --around HEX --radius N")
    return [
        {
            "storm": storm,
            "hex": name,
            "start_hour": start_hour,
            "end_hour": start_hour + hours,
            "source": source,
            "note": note,
            "state": state,
            "moving": moving,
            "every": every if moving else None,
        }
        for name in names
    ]


def group_storms(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows gathered into storms: number, hexes, hours, source, note (in storm order)."""
    grouped: dict[int, dict[str, Any]] = {}
    for r in rows:
        g = grouped.setdefault(
            int(r["storm"]),
            {
                "storm": int(r["storm"]),
                "hexes": [],
                "start_hour": int(r["start_hour"]),
                "end_hour": int(r["end_hour"]),
                "source": r["source"],
                "note": r.get("note"),
                "state": r.get("state") or "stormy",
                "moving": r.get("moving"),
                "every": r.get("every"),
            },
        )
        g["hexes"].append(r["hex"])
        g["start_hour"] = min(g["start_hour"], int(r["start_hour"]))
        g["end_hour"] = max(g["end_hour"], int(r["end_hour"]))
    return [grouped[k] for k in sorted(grouped)]
