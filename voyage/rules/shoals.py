"""The map as a built boat's route finder sees it (R83): charted water shallower than her
draft ("shoals") is kept out of where another way exists.

A built boat entering a charted hex shallower than her draft runs aground (R83,
voyage.rules.depth), so her routes (`voyage sail --to`, `act SHIP course --to`, `voyage
plan`, and the rest of her way after a current carried her off it, R64) go round such hexes
whenever the map allows. :func:`draft_chart` wraps the map for route finding: its ``route``
first keeps out of the shoals as well as whatever the caller avoids, and only where that
finds no way falls back to the caller's own request (so a route that has to cross one is
still planned; voyage.actions.depthroutes.shoal_warning then names the hex). Rolled ships
have no draft: they get the map itself, and their routes do not change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from voyage.map import hexes as hexmap
from voyage.vessels.boatpower import draft_ft


def shoal_hexes(chart: Any, draft: float) -> list[str]:
    """The water hexes the map charts shallower than ``draft`` feet, in map order."""
    names: set[str] = set()
    for rects, _feet in getattr(chart, "depth_sets", None) or ():
        for c1, r1, c2, r2 in rects:
            names.update(
                hexmap.hex_name(c, r) for c in range(c1, c2 + 1) for r in range(r1, r2 + 1)
            )
    entries = getattr(chart, "entries", None) or {}
    names.update(n for n, extra in entries.items() if "depth" in extra)
    found = []
    for name in sorted(names, key=lambda n: hexmap.parse_hex(n)[::-1]):
        depth = chart.hex(name).depth if chart.is_sea(name) else None
        if depth is not None and depth < draft:
            found.append(name)
    return found


def boat_shoals(chart: Any, ship: Any, book: Any) -> list[str]:
    """R83: the shoals for ``ship``'s draft (none for a rolled ship or a draft of 0)."""
    if ship.design is None or chart is None:
        return []
    draft = draft_ft(ship, book) or 0
    return shoal_hexes(chart, draft) if draft > 0 else []


class DraftChart:
    """The map as a built boat's route finder sees it (every other attribute is the map's)."""

    def __init__(self, chart: Any, shoals: list[str]) -> None:
        self._chart = chart
        self.shoals = shoals

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chart, name)

    def route(
        self,
        start: str,
        goal: str,
        *,
        avoid: Iterable[str] = (),
        avoid_ids: Iterable[int] = (),
    ) -> list[str] | None:
        """The map's route keeping out of the shoals too where it can (R83)."""
        wanted = list(avoid)
        ids = list(avoid_ids)
        keep_out = [*wanted, *(h for h in self.shoals if h not in (start, goal))]
        return self._chart.route(start, goal, avoid=keep_out, avoid_ids=ids) or self._chart.route(
            start, goal, avoid=wanted, avoid_ids=ids
        )


def draft_chart(chart: Any, ship: Any, book: Any) -> Any:
    """``chart`` itself for a rolled ship or where nothing is too shallow for her; else a
    :class:`DraftChart` routing her round the shoals (R83)."""
    shoals = boat_shoals(chart, ship, book)
    return DraftChart(chart, shoals) if shoals else chart
