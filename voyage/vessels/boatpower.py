"""A built boat's side of the one vessel interface (R81, R82): speed now, charge, pace.

The rules ask every vessel the same questions (voyage.vessels.ships: ``speed``, ``fuel_use``,
``under_power``, ``load``, ``deadweight``, ``aboard``, ``spend``); for a built boat
(Boats in Car Wars) the answers come from here:

* **Speed** (R82): the pace her skipper set (``"30mph"``; ``"normal"`` is 20 mph) capped at
  her top speed at her *present* weight (design, people, cargo and water,
  voyage.vessels.boatships.present_weight), recomputed whenever the weight changes; a
  surfaced submersible makes three-quarters of it (R84,
  voyage.vessels.submersible.surfaced_factor). Without power (no charge, the plant shorted
  out, no propeller left) she rows with oars at 2.5 mph a rower (at most 15), or she is
  adrift.
* **Charge** (R82): a plant holds 200 power units; a hex costs 1.2 times the 10-mile figure
  at the speed she makes, fractions kept. The exact charge is ``Ship.charge`` (a fraction
  as text); ``Ship.fuel`` keeps its whole units for the views that read fuel.
* Her speed in mph is used as knots wherever the core rules use a speed (R81).
"""

from __future__ import annotations

import functools
import json
import math
import re
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plain
from voyage.tables.boatdesigns import speeds, units_per_hex
from voyage.tables.rulebook import RuleBook
from voyage.vessels.boatships import present_weight
from voyage.vessels.submersible import surfaced_factor
from voyage.vessels.vessel import Ship

_MPH = re.compile(r"^\s*(\d{1,4}(?:\.\d{1,2})?)\s*(?:mph)?\s*$", re.IGNORECASE)


def is_built(ship: Ship) -> bool:
    """A built boat (R80) rather than a ship rolled from the class tables."""
    return ship.design is not None


# ----------------------------------------------------------------------------- charge


def full_charge(ship: Ship, book: RuleBook) -> int:
    """R82: a plant holds 200 power units; a boat without a plant holds none."""
    return int(book.boats["power"]["units"]) if (ship.design or {}).get("plant") else 0


@functools.lru_cache(maxsize=4096)
def _units(text: str) -> Fraction:
    """A stored charge (a fraction as text) read once: the engine asks for it several times
    an hour (bench/bench_boats.py); a Fraction is immutable, so it is shared safely."""
    return Fraction(text)


def charge(ship: Ship) -> Fraction:
    """R82: the power units aboard now, exactly."""
    return _units(ship.charge) if ship.charge is not None else Fraction(ship.fuel)


def set_charge(ship: Ship, value: Fraction | int) -> None:
    """R82: set the charge (fractions kept); ``fuel`` holds its whole units."""
    value = Fraction(value)
    ship.charge = str(value)
    ship.fuel = math.floor(value)


# ----------------------------------------------------------------------------- pace


def pace_mph(pace: str | None) -> Fraction | None:
    """``"30mph"`` -> 30; ``"normal"`` (or nothing) -> None, her default cruise (R82)."""
    if not pace or pace == "normal":
        return None
    found = _MPH.match(pace)
    return Fraction(found.group(1)) if found else None


def is_mph(text: str | None) -> bool:
    """Whether a pace is a speed in mph (R82) rather than normal/slow/strain (R13-R15)."""
    return bool(text) and text != "normal" and pace_mph(text) is not None


def pace_text(pace: str | None, ship: Ship, book: RuleBook, wil: bool = True) -> str:
    """``30 mph`` / ``20 mph (default)`` for the status, the log and the card."""
    mph = pace_mph(pace)
    if mph is None:
        return f"{plain(cruise_mph(ship, book, wil))} mph (default)"
    return f"{plain(mph)} mph"


def check_boat_pace(ship: Ship, book: RuleBook, pace: str, strain: int, wil: bool = True) -> str:
    """R82: a built boat's pace is ``normal`` (20 mph or her top speed if lower) or a speed
    in mph up to her top speed now; no slow pace and no straining (one line each)."""
    if pace in ("slow", "strain"):
        raise VoyageRuleError(
            f"{ship.name} is a built boat: she has no {pace} pace (R82: no straining); "
            f"set her speed instead, e.g. `voyage pace {ship.name!r} 30mph`"
        )
    mph = pace_mph(pace)
    if pace != "normal" and mph is None:
        raise VoyageRuleError(f"pace {pace!r}: give a speed like 30mph, or normal (R82)")
    if mph is None:
        return "normal"
    top = top_speed(ship, book, wil)
    if mph <= 0:
        raise VoyageRuleError(f"{ship.name}'s speed must be above 0 mph, not {plain(mph)}")
    if mph > top:
        raise VoyageRuleError(
            f"{plain(mph)} mph is above {ship.name}'s top speed of {plain(top)} mph at her "
            f"present weight (R82): give {plain(top)}mph or less"
        )
    return f"{plain(mph)}mph"


# ----------------------------------------------------------------------------- speed


def top_speed(ship: Ship, book: RuleBook, wil: bool = True) -> Fraction:
    """R82: top speed under power at her present weight (R84: a surfaced submersible's
    three-quarters of it)."""
    spec = ship.design or {}
    # R92: a tow counts in the tower's weight for her speed (10 lbs a hlb counted)
    weight = present_weight(ship, book, wil) + 10 * int(ship.equipment.get("tow_counted", 0) or 0)
    top = Fraction(str(speeds(spec, book.boats, weight)["top_speed"]))
    if not spec.get("plant"):
        return Fraction(0)
    return top * surfaced_factor(ship, book)  # R84: a surfaced submersible makes 3/4


def propellers_left(ship: Ship) -> int:
    """R85: the propellers not destroyed (jet drives need none)."""
    fitted = int((ship.design or {}).get("propellers", 0))
    return max(0, fitted - int(ship.equipment.get("propellers_lost", 0) or 0))


def drives(ship: Ship) -> bool:
    """Something to push her: a propeller left, or jet drives (R80, R85)."""
    spec = ship.design or {}
    return propellers_left(ship) > 0 or bool(spec.get("accessories", {}).get("jet-drives"))


def powered(ship: Ship) -> bool:
    """R82: under power with a plant, some charge, a working plant and a drive."""
    spec = ship.design or {}
    return bool(spec.get("plant")) and charge(ship) > 0 and not ship.engine_broken and drives(ship)


def oars_speed(ship: Ship, book: RuleBook) -> Fraction:
    """R82: oars make 2.5 mph a rower (the crew aboard now), at most 15 mph."""
    if not oars_fitted(ship):
        return Fraction(0)
    oars = book.boats["oars"]
    return min(Fraction(str(oars["mph_per_rower"])) * ship.crew, Fraction(str(oars["max_mph"])))


def cruise_mph(ship: Ship, book: RuleBook, wil: bool = True) -> Fraction:
    """R82: the speed she makes under power: her set pace (default 20 mph), never above
    her top speed now."""
    want = pace_mph(ship.pace)
    if want is None:
        want = Fraction(book.boats["power"]["default_cruise_mph"])
    return min(want, top_speed(ship, book, wil))


def speed_now(ship: Ship, book: RuleBook, wil: bool = True) -> Fraction:
    """R82: under power her cruising speed; without, her oars; else adrift (0)."""
    if powered(ship):
        return cruise_mph(ship, book, wil)
    return oars_speed(ship, book)


def use_per_hex(ship: Ship, book: RuleBook, wil: bool = True) -> Fraction:
    """R82: power units a hex at the speed she makes now (0 rowing or adrift)."""
    if not powered(ship):
        return Fraction(0)
    speed = cruise_mph(ship, book, wil)
    return units_per_hex(book.boats, float(speed), int(book.procedures["hex_miles"]))


def figures_key(ship: Ship) -> tuple[Any, ...] | None:
    """What her speed and power use depend on beyond the load category (the engine's memo
    key): her weight, her power and her pace."""
    if not is_built(ship):
        return None
    # the equipment too: her top speed reads it (a submersible's depth, R84)
    return (
        ship.cargo,
        ship.water,
        ship.crew,
        ship.passengers,
        powered(ship),
        ship.pace,
        json.dumps(ship.equipment, sort_keys=True),
    )


def draft_ft(ship: Ship, book: RuleBook) -> int | None:
    """R83: her draft in feet (body, +8 with a Weighted Keel); None for a rolled ship."""
    spec = ship.design
    if spec is None:
        return None
    table = book.boats
    keel = table["keel_draft_ft"] if spec.get("accessories", {}).get("weighted-keel") else 0
    return int(table["bodies"][spec["body"]]["draft_ft"]) + int(keel)


def has_keel(ship: Ship) -> bool:
    """R85: a Weighted Keel rights her after a capsize."""
    return bool((ship.design or {}).get("accessories", {}).get("weighted-keel"))


def check_can_sail(ship: Ship) -> None:
    """Setting sail under power needs a charge, a working plant and a drive (R82, R85); a
    boat with oars may row instead."""
    if not (ship.design or {}).get("plant") or oars_fitted(ship):
        return
    quoted = repr(ship.name)
    if ship.engine_broken:
        raise VoyageRuleError(
            f"{ship.name}'s power plant is out (shorted or broken): repair "
            f"it first (`voyage act {quoted} repair engine`)"
        )
    if not drives(ship):
        raise VoyageRuleError(
            f"{ship.name} has no propeller left (R85): repair them in port "
            f"first (`voyage act {quoted} repair propellers`)"
        )
    if charge(ship) <= 0:
        raise VoyageRuleError(
            f"{ship.name} has no charge: she would only drift (R82); "
            f"recharge in port first (`voyage act {quoted} recharge`)"
        )


def oars_fitted(ship: Ship) -> bool:
    """R82: oars (Rowboats and Dinghies only)."""
    return bool((ship.design or {}).get("accessories", {}).get("oars"))


def pace_line(ship: Ship, book: RuleBook, wil: bool = True) -> str:
    """`voyage pace` on a built boat: her speed now and its cost (R82)."""
    top = plain(top_speed(ship, book, wil))
    use = plain(use_per_hex(ship, book, wil))
    return (
        f"{ship.name} cruises at {pace_text(ship.pace, ship, book, wil)} (top speed {top} "
        f"mph now): {use} power units a hex (R82)."
    )
