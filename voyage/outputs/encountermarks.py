"""Encounters on the pictures: what a ship met (R93), the fights and rams
(R94, R91) and ships that met on crossing courses, each marked in its hex with a crimson
diamond and an "encounter" entry in the legend.

`voyage export --format png` marks the encounters of the voyage, numbered as the Markdown
log numbers its events (a number is written beside the diamond only where the picture's
own event mark does not already carry it); `voyage map render` marks the encounters of the
voyages whose tracks it draws, up to the hour drawn. Both draw through
:func:`voyage.outputs.render.render_map`'s ``overlay`` hook; matplotlib is imported only when one
is drawn.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from voyage.engine.clock import CLOSED_STATUSES
from voyage.map import hexes as hexmap
from voyage.outputs.export import event_numbers
from voyage.store.logrows import meeting_events

#: (hex, words beside the mark): words may be "".
Place = tuple[str, str]
Overlay = Callable[[Any, Any, set[str]], list[Any]]
COLOUR = (0.85, 0.0, 0.35)
#: The events that are an encounter: what a check found, a ship met, a fight begun, a ram.
KINDS = frozenset({"encounter", "fight", "ram"})


def encounter_hex(event: dict[str, Any]) -> str | None:
    """The hex of an encounter event, or None when the event is not one: a check's find or
    a meeting (``changes.encounter.hex``), a fight's opening or a ram (``changes.hex``)."""
    if event.get("kind") not in KINDS:
        return None
    changes = event.get("changes")
    if isinstance(changes, str):
        try:
            changes = json.loads(changes)
        except json.JSONDecodeError:
            return None
    if not isinstance(changes, dict):
        return None
    if event.get("kind") == "encounter":
        found = changes.get("encounter")
        where = found.get("hex") if isinstance(found, dict) else None
    elif event.get("kind") == "fight" and (changes.get("round") or changes.get("ended")):
        return None  # only the opening of a fight marks it
    else:
        where = changes.get("hex")
    return str(where) if where else None


def voyage_places(log: Any, marked: Iterable[Place] = ()) -> list[Place]:
    """(hex, numbers) of the encounters of one voyage (a voyage.outputs.export.VoyageLog), with
    their event numbers unless the picture's mark in that hex already shows them."""
    numbers = event_numbers(log)
    found: dict[str, list[int]] = {}
    for index, event in enumerate(log.events):
        where = encounter_hex(event)
        if where:
            found.setdefault(where, [])
            if index in numbers:
                found[where].append(numbers[index])
    shown = {h: words for h, words in marked}
    out = []
    for where, nums in found.items():
        text = ", ".join(str(n) for n in nums)
        already = shown.get(where, "")
        out.append((where, "" if all(_has(already, n) for n in nums) else text))
    return out


def _has(words: str, number: int) -> bool:
    """Whether a mark's words ("start 2, 5", "3-7") show event ``number``."""
    for part in words.replace(",", " ").split():
        if part.isdigit() and int(part) == number:
            return True
        lo, _, hi = part.partition("-")
        if lo.isdigit() and hi.isdigit() and int(lo) <= number <= int(hi):
            return True
    return False


def campaign_places(camp: Any, voyage_ids: Sequence[int] | None, until: int) -> list[Place]:
    """(hex, "") of every encounter logged on the given voyages (all when None) up to the
    hour ``until``: what `voyage map render` marks."""
    rows = meeting_events(camp, until)
    wanted = None if voyage_ids is None else set(voyage_ids)
    places: dict[str, str] = {}
    for row in rows:
        if wanted is not None and row["voyage_id"] not in wanted:
            continue
        where = encounter_hex(row)
        if where:
            places.setdefault(where, "")
    return list(places.items())


def overlay(places: Sequence[Place], then: Overlay | None = None) -> Overlay:
    """An overlay drawing ``then`` (the weather, say) and a crimson diamond on each encounter's
    hex, with its words; the legend gains "encounter" when one is on the picture."""

    def draw(ax: Any, geometry: Any, shown: set[str]) -> list[Any]:
        from matplotlib import patheffects
        from matplotlib.lines import Line2D

        handles = list(then(ax, geometry, shown)) if then is not None else []
        scale = float(getattr(geometry, "scale", 36)) / 36
        outline = [patheffects.withStroke(linewidth=2.5, foreground="white")]
        drawn = False
        for name, words in places:
            if hexmap.canonical(name) not in shown:
                continue
            x, y = geometry.hex_center(name)
            for edge, width in (("white", 4.0), (COLOUR, 2.0)):  # a halo: seen on a port too
                ax.plot(
                    [x],
                    [y],
                    marker="D",
                    markersize=15 * scale,
                    markerfacecolor="none",
                    markeredgecolor=edge,
                    markeredgewidth=width,
                    zorder=8,
                )
            if words:
                ax.text(
                    x - 0.35,
                    y - 0.25,
                    words,
                    fontsize=7 * scale,
                    color=COLOUR,
                    ha="right",
                    path_effects=outline,
                    zorder=8,
                )
            drawn = True
        if drawn:
            handles.append(
                Line2D(
                    [],
                    [],
                    marker="D",
                    markerfacecolor="none",
                    linewidth=0,
                    markeredgecolor=COLOUR,
                    markeredgewidth=2.0,
                    label="encounter",
                )
            )
        return handles

    return draw


def render_places(camp: Any, which: str, until: int) -> list[Place]:
    """The encounters `voyage map render --tracks WHICH` marks: those of the voyages whose
    tracks it draws (open, all or none), up to the hour drawn."""
    if which == "none":
        return []
    # here, not at the top: voyage.store.voyagelog loads sqlite-utils, and with it click,
    # which a picture drawn from a voyage's log (the export, the engine) does without
    from voyage.store.voyagelog import voyage_list

    ids = (
        None
        if which == "all"
        else [int(row["id"]) for row in voyage_list(camp) if row["status"] not in CLOSED_STATUSES]
    )
    return campaign_places(camp, ids, until)
