"""One name for a ship's status and her speed now, read from her state: what `voyage
status`, `voyage ship show` and `ship list`, the advance's closing lines and the exports say,
so that no two of them disagree.

The words: ``in port`` (or where a finished voyage left her: ``at anchor``), ``under way``,
``anchored``, ``adrift``, ``stuck`` (aground, R34), ``under tow`` (R92), ``arrived``, and
what is wrong aboard before them all: ``sinking``, ``capsized``, ``on fire``, ``listing``;
then ``sunk`` and ``abandoned``. A submersible's depth (R84) and a search (R74) follow the
word (``under way, 400 ft down, searching``), and so does a tow (``under way, towing
Dart``, R92).

A ship under way that makes no way of her own (R13: her engine broken, or dry at her next
hex's edge, R16) is ``adrift``, at speed 0: never "under way" at speed 0. The speed is what
she makes now: 0 when she makes no way of her own (anchored, adrift, stuck, arrived, sinking,
capsized, sunk, abandoned); a ship in port gives what she would make (`ship list`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage.engine.shipstate import ShipState
from voyage.rules.towing import TOW, UNDER_TOW
from voyage.tables.rulebook import RuleBook
from voyage.vessels import ships as shipfig
from voyage.vessels.vessel import Ship

#: Conditions before the voyage's own word (ShipState.condition's order).
_TROUBLE = ("sinking", "capsized", "on fire", "listing")
#: Voyage statuses in which she makes no way of her own.
_STILL = ("anchored", "adrift", "stuck", "arrived", "sunk", "abandoned")


@dataclass(frozen=True)
class Standing:
    """A ship's status in words and her speed now (knots; a built boat's mph, R82)."""

    status: str
    speed: Any


def standing(
    ship: Ship,
    s: ShipState | None,
    book: RuleBook,
    water_in_load: bool = True,
    tower_speed: Any = None,
) -> Standing:
    """The status and speed of ``ship`` on her open voyage ``s`` (None: not at sea);
    ``tower_speed``: the speed of her tower, for a ship under tow (R92)."""
    if s is None or ship.status in ("sunk", "abandoned") and s.status == ship.status:
        if ship.status in ("sunk", "abandoned"):
            return Standing(ship.status, 0)
        # in port (or lying where a finished voyage left her): what she would make
        fig = shipfig.speed(ship, book, ship.pace, ship.strain, water_in_load)
        return Standing(ship.status or "in port", fig)
    condition = s.condition
    if condition in ("sunk", "abandoned"):
        return Standing(condition, 0)
    word = s.status
    speed: Any = 0
    if word == UNDER_TOW:
        speed = 0 if tower_speed is None else tower_speed
    elif word == "under way":
        ship.pace, ship.strain = s.pace, s.strain
        speed = shipfig.speed(ship, book, s.pace, s.strain, water_in_load)
        if speed > 0 and _dry_at_edge(ship, s, book, water_in_load):
            speed = 0  # R16: dry at the edge of her next hex
        if speed <= 0 and s.position < len(s.route) - 1:
            word = "adrift"  # R13: no way of her own
    if word in _STILL or s.sinking_in is not None or s.capsized or s.searching:
        speed = 0  # (R74: a ship that stops to search makes no way)
    if condition in _TROUBLE:
        return Standing(condition, speed)
    parts = [word]
    depth = ship.equipment.get("depth_ft")
    if depth:
        parts.append(f"{depth} ft down")  # R84
    if s.searching:
        parts.append("searching")  # R74: she has stopped to search
    towing = ship.equipment.get(TOW)
    if towing:
        parts.append(f"towing {towing}")  # R92
    return Standing(", ".join(parts), speed)


def _dry_at_edge(ship: Ship, s: ShipState, book: RuleBook, water_in_load: bool) -> bool:
    """R16: at the edge of her next hex with less than its Fuel Use aboard."""
    hex_miles = int(book.procedures["hex_miles"])
    use = shipfig.fuel_use(ship, book, s.pace, water_in_load)
    return s.progress >= hex_miles and bool(use) and shipfig.aboard(ship) < use
