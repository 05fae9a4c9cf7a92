"""Anchors (R65): where a ship may anchor, her anchors as ship's stores, and the cable.

* A ship may anchor in a coastal hex, a shallow hex (reef, shoal, wreck: procedures
  ``coast.shallow_terrains``) or a hex whose charted depth is at most 150 ft
  (``anchor.max_depth_feet``; Boats in Car Wars' 10" cable at 1" = 15 ft).
* Anchors are ship's stores: a class whose standard equipment lists an anchor starts with
  one; more are bought in port (``voyage ship load SHIP --anchors N``). In a port a ship
  moors at a quay: she needs no anchor there, and the harbour shelters her (our reading).
* An anchored ship in storm-tossed seas (R32) is being moved: each hour she rolls 2d6
  for her cable, and on 2 or 12 (``anchor.parts_on``) it parts: the anchor is lost and she
  drifts (R64) until she anchors with a spare or gets under way (our reading of the seed's
  roll "each turn a boat keeps moving").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Outcome
from voyage.dice.roller import Roller, parse
from voyage.tables.rulebook import RuleBook
from voyage.vessels.fittings import anchors_aboard, set_anchors


@dataclass(frozen=True)
class CableResult(Outcome):
    """The hourly roll for an anchor cable in storm-tossed seas: ``parted`` or not."""

    parted: bool


def anchorage_problem(info: Any, book: RuleBook) -> str | None:
    """Why a ship cannot anchor in the hex ``info`` describes (voyage.map.seamap.Hex), or None
    (R65: coastal, shallow, or charted depth at most 150 ft)."""
    shallows = book.procedures["coast"].get("shallow_terrains", ())
    if info.coastal or info.narrow_passage or info.terrain in shallows:
        return None
    most = int(book.procedures["anchor"]["max_depth_feet"])
    depth = getattr(info, "depth", None)
    if depth is not None:
        if depth <= most:
            return None
        return (
            f"{info.name} is charted at {depth:g} ft, deeper than an anchor cable reaches "
            f"({most} ft, R65): anchor near a coast, on a shallow, or where it is {most} ft "
            "or less"
        )
    return (
        f"{info.name} is open deep sea: an anchor reaches no bottom (R65); anchor in a "
        f"coastal or shallow hex, or where the map charts a depth of {most} ft or less"
    )


def anchor_cable(roller: Roller, book: RuleBook) -> CableResult:
    """R65: an anchored ship's hour in storm-tossed seas: 2d6, parting on 2 or 12."""
    rule = book.procedures["anchor"]
    parts_on = {int(v) for v in rule["parts_on"]}
    roll = roller.roll("anchor cable", str(rule["cable_dice"]))
    parted = roll.total in parts_on
    roll.outcome = "the cable parts" if parted else "the cable holds"
    roll.probability = 1 - cable_odds(book)  # the chance it holds
    if parted:
        return CableResult(
            "anchor",
            "The anchor cable parts: the anchor is lost and she drifts (R65, R64).",
            (roll,),
            {"anchor_lost": True},
            True,
        )
    return CableResult("anchor", "The anchor holds.", (roll,), {}, False)


def cable_odds(book: RuleBook) -> Fraction:
    """Exact chance an anchor cable parts in one storm-tossed hour (R65): 2/36 for 2d6."""
    rule = book.procedures["anchor"]
    dice = parse(str(rule["cable_dice"]))
    parts_on = {int(v) for v in rule["parts_on"]}
    totals: dict[int, int] = {0: 1}
    for _ in range(dice.count):
        nxt: dict[int, int] = {}
        for total, ways in totals.items():
            for face in range(1, dice.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        totals = nxt
    hits = sum(ways for total, ways in totals.items() if total + dice.bonus in parts_on)
    return Fraction(hits, dice.sides**dice.count)


def anchor_phase(h: Any) -> None:
    """The engine's R65 phase for one ship-hour ``h`` (voyage.engine.clock._ShipHour): an
    anchored ship in storm-tossed seas rolls for her cable (the storm lookup is the world's
    one ``sea_state`` call: stormy seas or worse, R60)."""
    s, ship = h.s, h.ship
    if s.status != "anchored" or not h.e.world.sea_state(s.hex, h.clock):
        return
    if h.e.hex_info(s.hex).port:
        return  # moored in a harbour: sheltered, no cable to part
    result = anchor_cable(h.roller, h.book)
    if not result.parted:
        h.log(result.event())
        return
    set_anchors(ship, max(0, anchors_aboard(ship) - 1))
    s.status = "adrift"
    s.drift_miles = "0"
    event = result.event()
    left = anchors_aboard(ship)
    event.text = (
        f"{ship.name}'s anchor cable parts in the storm at {s.hex}: the anchor is lost "
        f"and she drifts (R65, R64); {left} anchor{'s' if left != 1 else ''} left aboard."
    )
    event.changes = {"anchor_lost": True, "anchors": left, "status": "adrift"}
    h.log(event, "anchor lost")
