"""Taking a ship in tow and casting her off (R92): ``voyage act SHIP tow OTHER`` and
``voyage act SHIP cast-off``, the store side of :mod:`voyage.rules.towing`."""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.dice.events import Event
from voyage.engine.clock import ShipState
from voyage.map.routetext import copy_of
from voyage.rules.towing import TOW, TOWED_BY, UNDER_TOW, let_go, make_fast, tow_weight
from voyage.store.campaigndb import Action, Campaign
from voyage.store.logrows import log_event
from voyage.store.voyagerows import insert_voyage, open_voyage, save_state


def tow_action(
    camp: Campaign, act: Action, s: ShipState, what: str, target: str | None
) -> tuple[str, dict[str, Any]]:
    """The tower ``s`` takes ``target`` in tow, or casts her tow off; the other ship's
    voyage is changed and logged here, the tower's by the caller."""
    ship, book = s.ship, camp.rulebook
    if ship.equipment.get(TOWED_BY):
        raise VoyageRuleError(
            f"{ship.name} is under tow by {ship.equipment[TOWED_BY]}: "
            f"`voyage act {ship.equipment[TOWED_BY]!r} cast-off` first"
        )
    if what == "cast-off":
        name = ship.equipment.get(TOW)
        if not name:
            raise VoyageRuleError(f"{ship.name} has nothing in tow")
        other = open_voyage(camp, str(name))
        let_go(ship, other.ship if other else None)
        if other is not None:
            if other.status == UNDER_TOW:
                other.status = "adrift"  # R64: she drifts until she gets under way (weigh)
            save_state(camp, other, camp.clock)
            log_event(
                camp,
                act,
                other.ship.name,
                other.voyage_id,
                Event(
                    "tow",
                    f"{ship.name} casts {other.ship.name} off at {other.hex}: she is "
                    f"{other.status}.",
                    [],
                    0,
                    {"towed_by": None, "status": other.status},
                ),
            )
        return f"{ship.name} casts off the tow ({name}) at {s.hex} (R92).", {"tow": None}
    if not target:
        raise VoyageRuleError("tow which ship? `voyage act SHIP tow OTHER`")
    if ship.equipment.get(TOW):
        raise VoyageRuleError(
            f"{ship.name} already has {ship.equipment[TOW]} in tow: one tow at a time "
            f"(`voyage act {ship.name!r} cast-off` first)"
        )
    other_ship = camp.get_ship(target)
    if other_ship.name == ship.name:
        raise VoyageRuleError(f"{ship.name} cannot tow herself")
    if s.status not in ("under way", "anchored", "adrift"):
        raise VoyageRuleError(f"{ship.name} is {s.status}: she cannot take a ship in tow now")
    other = open_voyage(camp, other_ship.name)
    if other is None and other_ship.status == "abandoned" and other_ship.hex == s.hex:
        other = _derelict(camp, other_ship)
    if other is None:
        raise VoyageRuleError(_not_towable(other_ship))
    if other.hex != s.hex:
        raise VoyageRuleError(
            f"{other.ship.name} is at {other.hex}, {ship.name} at {s.hex}: a tow line is "
            "passed in one hex"
        )
    if other.ship.equipment.get(TOWED_BY) or other.ship.equipment.get(TOW):
        raise VoyageRuleError(f"{other.ship.name} is already in a tow")
    held = _held(other)
    if held:
        raise VoyageRuleError(held)
    weight = tow_weight(other.ship, book, camp.water_in_load)
    counted = make_fast(ship, other.ship, book, camp.water_in_load)
    other.status = UNDER_TOW
    other.route, other.inshore = copy_of(s.route), copy_of(s.inshore)
    other.position, other.progress = s.position, s.progress
    save_state(camp, other, camp.clock)
    log_event(
        camp,
        act,
        other.ship.name,
        other.voyage_id,
        Event(
            "tow",
            f"{other.ship.name} is taken in tow by {ship.name} at {s.hex} (R92).",
            [],
            0,
            {"towed_by": ship.name, "status": UNDER_TOW},
        ),
    )
    strong = " (Strong: a fifth)" if counted < weight else ""
    text = (
        f"{ship.name} takes {other.ship.name} in tow at {s.hex}: the tow weighs {weight} hlbs "
        f"(her Deadweight and Load), {counted} counted in {ship.name}'s Load{strong} (R92)."
    )
    return text, {"tow": other.ship.name, "tow_weight": weight, "tow_counted": counted}


def _derelict(camp: Campaign, ship: Any) -> ShipState:
    """A sound ship abandoned at sea (R71: her voyage closed, afloat where she was left) in
    the tower's hex: nobody aboard, she is towed as any ship with no crew ("A ship with no
    crew": another ship may tow her, R92). She lies adrift there (R64: nobody anchored or
    sails her) on a voyage opened for the tow, whose first event is the tow's."""
    vid = insert_voyage(camp, ship.name, [ship.hex], [False], ship.pace or "normal", ship.strain)
    derelict = ShipState(
        ship, vid, [ship.hex], inshore=[False], pace=ship.pace or "normal", strain=ship.strain
    )
    derelict.status = "adrift"
    derelict.drift_miles = "0"
    save_state(camp, derelict, camp.clock)
    return derelict


def _not_towable(ship: Any) -> str:
    """Why a ship with no open voyage cannot be taken in tow (R92: between ships at sea),
    named as she is: an abandoned or sunk ship is at sea, but her voyage is over."""
    where = f" at {ship.hex}" if ship.hex else ""
    if ship.status == "abandoned":
        return (
            f"{ship.name} was abandoned{where}: a tow line is passed in one hex (R92); "
            f"bring the tower to {ship.hex or 'her hex'} first"
        )
    if ship.status == "sunk":
        return f"{ship.name} has sunk{where}: there is nothing to take in tow"
    return (
        f"{ship.name} is not at sea: a tow is between ships at sea "
        f"(`voyage sail {ship.name!r} --to CCRR` first)"
    )


def _held(other: ShipState) -> str:
    """Why ``other`` cannot be towed off where she lies, or '': stuck aground (R34) she is
    got off first; at anchor or moored (R65: an anchored ship does not move) her anchor is
    weighed first (our reading: R92 moves the two together, and her cable would hold her),
    by her own crew: with none aboard, put crew aboard to weigh it (R70)."""
    ship = other.ship
    name = repr(ship.name)
    if other.status == "stuck":
        return (
            f"{ship.name} is stuck aground at {other.hex}: get her off first (`voyage act "
            f"{name} refloat`, R34), then take her in tow (R92)"
        )
    if other.status != "anchored":
        return ""
    weigh = f"weigh first (`voyage act {name} weigh`)"
    if ship.crew < 1:
        weigh = (
            f"with no crew to weigh (R70), put crew aboard and weigh first (`voyage ship "
            f"load {name} --crew N`, then `voyage act {name} weigh`)"
        )
    return (
        f"{ship.name} is anchored at {other.hex} and an anchored ship does not move "
        f"(R65): {weigh}, then take her in tow (R92)"
    )
