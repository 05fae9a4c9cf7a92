"""Towing (R92, the core rules' Strong trait): the tow's weight in the tower's Load, the two
moving together, and a tow line that parts like an anchor cable (R65).

A tow weighs the towed ship's Deadweight plus her Load (hlbs), taken when the line is made
fast. The towing ship counts it in her Load for her load category, speed and fuel (R12-R16)
- ``voyage.vessels.ships.load_parts`` carries it as the part ``tow`` - but not for R12's sinking or
R37's flooding (the engine's own load leaves it out; its load category, and so R41's
capsize Check and an Overloaded tower's hourly Check, counts it: :func:`towed_hlbs`); a
Strong ship counts a fifth of it (the trait's ``tow_multiplier``: 5). In the engine the
towed ship (status ``under tow``) makes no way of her own and each hour ends where her
tower is (voyage.engine.towing); she still rolls her own hazards in her hex (leaks, storms).
In storm-tossed seas the line is rolled for each hour like an anchor cable (2d6, parting
on 2 or 12).
"""

from __future__ import annotations

import math

from voyage.tables.rulebook import RuleBook
from voyage.vessels.ships import deadweight, load, trait_effect

#: Equipment keys (the ship's JSON): the ship she tows and the hlbs counted; who tows her.
from voyage.vessels.vessel import Ship

#: Equipment keys (the ship's JSON): the ship she tows and the hlbs counted; who tows her.
TOW, TOW_COUNTED, TOWED_BY = "tow", "tow_counted", "towed_by"
UNDER_TOW = "under tow"


def towed_hlbs(tower: Ship) -> int:
    """R92: the hlbs of her tow a ship counts in her Load for her load category (R12, and
    so R41's capsizing), speed and fuel (0: no tow); not for R12's sinking nor R37."""
    return int(tower.equipment.get(TOW_COUNTED, 0) or 0)


def tow_weight(towed: Ship, book: RuleBook, water_in_load: bool = True) -> int:
    """R92: the towed ship's Deadweight plus her Load, in whole hlbs rounded up. A built
    boat's figures (R81: lbs / 10) and a rolled ship's stores (R100) are exact fractions;
    the tow is reported and stored as a whole number, and rounding up first counts the same
    as rounding the counted share up (``ceil(ceil(w) / n) == ceil(w / n)``)."""
    return math.ceil(deadweight(towed, book) + load(towed, book, water_in_load))


def counted_weight(tower: Ship, weight: int, book: RuleBook) -> int:
    """R92: the hlbs of a tow counted in the tower's Load: all of it, a fifth for a Strong
    ship (1 / the trait's ``tow_multiplier``, rounded up)."""
    multiplier = trait_effect(tower, book, "tow_multiplier", 0) or 1
    return math.ceil(weight / multiplier)


def make_fast(tower: Ship, towed: Ship, book: RuleBook, water_in_load: bool = True) -> int:
    """Make the line fast: the tower carries the tow in her equipment; the hlbs counted."""
    counted = counted_weight(tower, tow_weight(towed, book, water_in_load), book)
    tower.equipment[TOW] = towed.name
    tower.equipment[TOW_COUNTED] = counted
    towed.equipment[TOWED_BY] = tower.name
    return counted


def let_go(tower: Ship, towed: Ship | None) -> None:
    """Cast off: neither carries the other any more."""
    tower.equipment.pop(TOW, None)
    tower.equipment.pop(TOW_COUNTED, None)
    if towed is not None:
        towed.equipment.pop(TOWED_BY, None)
