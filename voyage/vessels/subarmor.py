"""A submersible's armour against the deep (R84: "the seed's armor modifiers apply where the
referee tracks armor"), when the campaign's ``track_armor`` setting is on.

AquaWars' Depth Damage Table does damage "to all armour locations" (5-8: 1d3, 9-10: 1d6,
11: 2d6) and its modifiers grow as a side's armour is worn down: +1 when one side is down to
three quarters of the weakest side, +2 to half, +4 to a quarter, +6 when a side has none.
The numbers are ``submersible.depth_damage[].armor_damage`` and
``submersible.armor_modifiers`` in tables/boats.yaml.

Our reading (docs/boats.md, "Armour against the deep"):

- The sides tracked are those she was built with armour on (``--armor``); a side built with
  none, or a boat with none at all, has nothing to wear down and gives no modifier (the
  seed's modifiers are for damage "received").
- "1d3 damage to all armour locations" is one roll, taken off every tracked side (never
  below 0).
- "The weakest side" is the weakest side as built; a side's armour now is compared with
  it, and the worst side gives the one modifier (they are not added up).
- The Submarine Control Table's Hull Collapse ("the weakest armour side collapses...") is
  not rolled in the voyage hour (the table is a note, R84), so it never applies here.
- Armour is kept on the ship (equipment ``armor_now``, by side) until it is repaired in a
  port (``voyage act SHIP repair armor``: the body's armour cost for each point put back).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.dice.roller import Modifier, Roll, Roller
from voyage.tables.rulebook import RuleBook

#: The equipment key holding the armour left on each tracked side (absent: as built).
ARMOR_NOW = "armor_now"


def built_sides(ship: Any) -> dict[str, int]:
    """The sides she was built with armour on, and their points as built (R80)."""
    spec = ship.design or {}
    return {str(loc): int(p) for loc, p in (spec.get("armor") or {}).items() if int(p) > 0}


def armor_now(ship: Any) -> dict[str, int]:
    """The armour left on each tracked side (as built where none has been lost)."""
    kept = ship.equipment.get(ARMOR_NOW) or {}
    return {loc: int(kept.get(loc, p)) for loc, p in built_sides(ship).items()}


def armor_modifier(built: dict[str, int], now: dict[str, int], book: RuleBook) -> Modifier | None:
    """R84 (AquaWars): the Depth Damage Table's armour modifier: the worst side now against
    the weakest side as built; None when no side is worn down that far."""
    if not built:
        return None
    weakest = min(built.values())
    rows = book.boats["submersible"].get("armor_modifiers") or []
    best: tuple[int, str, int, str] | None = None
    for loc, points in now.items():
        for row in rows:
            share = Fraction(str(row["share"]))
            value = int(row["modifier"])
            if points <= share * weakest and (best is None or value > best[0]):
                best = (value, loc, points, _share_text(share))
    if best is None:
        return None
    value, loc, points, words = best
    return Modifier(value, f"{loc} armor {points}, {words} the weakest side's {weakest}")


def _share_text(share: Fraction) -> str:
    if share == 0:
        return "none of"
    return {Fraction(3, 4): "3/4 of", Fraction(1, 2): "1/2 of", Fraction(1, 4): "1/4 of"}.get(
        share, f"{share} of"
    )


def wear(now: dict[str, int], dice: str, roller: Roller) -> tuple[Roll, dict[str, int]]:
    """R84: one roll of ``dice`` taken off every tracked side (our reading), never below 0."""
    roll = roller.roll("armor damage (every side)", dice)
    left = {loc: max(0, p - roll.total) for loc, p in now.items()}
    roll.outcome = ", ".join(f"{loc}{p}" for loc, p in left.items())
    return roll, left


def armor_text(built: dict[str, int], now: dict[str, int]) -> str:
    """``F8/10, L6/7, B0/3`` (now/as built), or "none" (no side built with armour)."""
    return ", ".join(f"{loc}{now.get(loc, p)}/{p}" for loc, p in built.items()) or "none"


def repair_cost(ship: Any, book: RuleBook) -> tuple[int, int]:
    """(points lost, $ to put them back at the body's armour cost a point, R80)."""
    built, now = built_sides(ship), armor_now(ship)
    lost = sum(built[loc] - now[loc] for loc in built)
    body = book.boats["bodies"][(ship.design or {})["body"]]
    return lost, lost * int(body["armor_cost"])
