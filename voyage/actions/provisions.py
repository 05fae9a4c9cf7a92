"""The referee's stores actions (R101, R103): half or full rations, stores found at sea, and
stores passed between ships in one hex (``voyage act SHIP rations|found|transfer``). Each is
one undoable action of voyage.actions.referee, logged as its event.

Stores are counted in person-days, exactly (voyage.vessels.stores): what is found or handed
over is whole person-days, what is used hour by hour keeps its fractions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.dice.events import Event
from voyage.store.campaigndb import Action, Campaign
from voyage.store.logrows import log_event
from voyage.store.voyagerows import open_voyage, save_state
from voyage.vessels import ships as shipfig
from voyage.vessels.boatships import check_built_load
from voyage.vessels.stores import Stores, person_days_said, said
from voyage.vessels.storesroom import at_most, over_room
from voyage.vessels.vessel import Ship


def tracked(ship: Ship, doing: str) -> Stores:
    """Her stores, or the refusal for a ship whose stores are not counted."""
    if ship.stores is None:
        raise VoyageRuleError(
            f"{ship.name}'s food and fresh water are not counted: load some in port first "
            f"(`voyage ship load {ship.name!r} --food N --fresh-water N`) before {doing}"
        )
    return ship.stores


def rations(ship: Ship, size: str | None, food: bool, water: bool) -> tuple[str, dict[str, Any]]:
    """R101: half or full rations of food, of fresh water, or (neither named) of both."""
    if size not in ("half", "full"):
        raise VoyageRuleError("rations half or rations full? e.g. `rations half --water`")
    if ship.crew + ship.passengers < 1:
        raise VoyageRuleError(
            f"nobody is aboard {ship.name} to go on {size} rations: put people aboard first "
            f"(`voyage ship load {ship.name!r} --crew N`)"
        )
    stores = tracked(ship, "setting rations")
    which = [w for w, on in (("food", food), ("fresh water", water)) if on] or [
        "food",
        "fresh water",
    ]
    half = size == "half"
    if "food" in which:
        stores.half_food = half
    if "fresh water" in which:
        stores.half_water = half
    text = f"{ship.name} goes on {size} rations of {' and '.join(which)} (R101" + (
        ": each uses half as much a day)." if half else ")."
    )
    changes = {
        "rations": {
            "food": "half" if stores.half_food else "full",
            "fresh_water": "half" if stores.half_water else "full",
        }
    }
    return text, changes


def _check_room(
    camp: Campaign, ship: Ship, what: str, food: int, fresh_water: int, command: str
) -> None:
    """R103: stores taken on (``food`` and ``fresh_water`` person-days more) may not sink her
    (a Load over 2 x Deadweight, R12) nor pass a built boat's maximum load (R80) or the room
    in her spaces (R100, a Galley's food aside): one line naming how much more she has room
    for and ``command`` with the most of it (storesroom.at_most)."""
    book = camp.rulebook
    refused = over_room(ship, book, camp.water_in_load, food, fresh_water, True, command)
    if refused:
        raise VoyageRuleError(refused)
    if ship.design is not None:
        check_built_load(ship, book, camp.water_in_load)
        return
    total = shipfig.load(ship, book, camp.water_in_load)
    limit = shipfig.sinking_load(ship, book)
    if total > limit:
        raise VoyageRuleError(
            f"{what} would sink {ship.name}: a Load of {total} hlbs is over twice her "
            f"Deadweight ({limit} hlbs, R12, R103); take less"
        )


def _amounts(food: int | None, fresh_water: int | None, doing: str) -> tuple[int, int]:
    if not food and not fresh_water:
        raise VoyageRuleError(
            f"say how many person-days: {doing} --food N --fresh-water N (either or both)"
        )
    return food or 0, fresh_water or 0


def found(
    camp: Campaign, ship: Ship, food: int | None, fresh_water: int | None
) -> tuple[str, dict[str, Any]]:
    """R103: the referee declares stores found (wreckage, R93): added to hers."""
    more_food, more_water = _amounts(food, fresh_water, "found")
    stores = ship.stores if ship.stores is not None else Stores()
    ship.stores = stores
    _take_on(stores, more_food, more_water)
    command = f"voyage act {ship.name!r} found"
    _check_room(camp, ship, "what was found", more_food, more_water, command)
    text = (
        f"{ship.name} takes on stores found (the referee's ruling, R103): "
        f"{_both(more_food, more_water)}; {_aboard(stores)} aboard."
    )
    return text, _changes(stores)


def _take_on(stores: Stores, food: int, fresh_water: int) -> None:
    """Stores taken on; a store taken on again resets the days without it (R102)."""
    if food:
        stores.food += food
        stores.dry_food = Fraction(0)
    if fresh_water:
        stores.fresh_water += fresh_water
        stores.dry_water = Fraction(0)


def _both(food: int | Fraction, fresh_water: int | Fraction) -> str:
    """ "3 person-days of food and 5 of fresh water"; either alone with its unit (water
    alone read "500 of fresh water")."""
    if food and fresh_water:
        water = said(Fraction(fresh_water))
        return f"{person_days_said(Fraction(food))} of food and {water} of fresh water"
    if food:
        return f"{person_days_said(Fraction(food))} of food"
    return f"{person_days_said(Fraction(fresh_water))} of fresh water"


def _aboard(stores: Stores) -> str:
    return f"food {said(stores.food)}, fresh water {said(stores.fresh_water)} person-days"


def _changes(stores: Stores) -> dict[str, Any]:
    return {"food": str(stores.food), "fresh_water": str(stores.fresh_water)}


def transfer(
    camp: Campaign,
    act: Action,
    ship: Ship,
    hex_name: str | None,
    target: str | None,
    food: int | None,
    fresh_water: int | None,
) -> tuple[str, dict[str, Any]]:
    """R103: ``ship`` hands food and fresh water over to ``target`` in the same hex; the
    other ship's side is saved and logged here, hers by the caller."""
    if not target:
        raise VoyageRuleError(
            "transfer to which ship? `voyage act SHIP transfer OTHER --food N --fresh-water N`"
        )
    give_food, give_water = _amounts(food, fresh_water, "transfer OTHER")
    other_ship = camp.get_ship(target)
    if other_ship.name == ship.name:
        raise VoyageRuleError(f"{ship.name} cannot hand stores to herself")
    if other_ship.status in ("sunk", "abandoned"):
        raise VoyageRuleError(f"{other_ship.name} is {other_ship.status}: nobody can take stores")
    other = open_voyage(camp, other_ship.name)
    receiver = other.ship if other is not None else other_ship
    there = other.hex if other is not None else receiver.hex
    if not hex_name or there != hex_name:
        raise VoyageRuleError(
            f"{receiver.name} is at {there or 'nowhere on the map'}, not in {ship.name}'s hex "
            f"{hex_name}: stores pass only between ships in one hex (R103)"
        )
    stores = tracked(ship, "handing stores over")
    command = f"voyage act {ship.name!r} transfer {other_ship.name!r}"
    for word, flag, give, have in (
        ("food", "--food", give_food, stores.food),
        ("fresh water", "--fresh-water", give_water, stores.fresh_water),
    ):
        if give > have:
            raise VoyageRuleError(
                f"{ship.name} has only {said(have)} person-days of {word} to hand over, not "
                f"{give}; {at_most(command, flag, math.floor(have))}"
            )
    stores.food -= give_food
    stores.fresh_water -= give_water
    theirs = receiver.stores if receiver.stores is not None else Stores()
    receiver.stores = theirs
    _take_on(theirs, give_food, give_water)
    _check_room(
        camp, receiver, f"{_both(give_food, give_water)} more", give_food, give_water, command
    )
    if other is not None:
        save_state(camp, other, camp.clock)
    else:
        camp.save_ship(receiver)
    log_event(
        camp,
        act,
        receiver.name,
        other.voyage_id if other is not None else None,
        Event(
            "stores",
            f"{receiver.name} takes {_both(give_food, give_water)} from {ship.name} "
            f"(R103); {_aboard(theirs)} aboard.",
            [],
            0,
            _changes(theirs),
        ),
    )
    text = (
        f"{ship.name} hands {_both(give_food, give_water)} over to {receiver.name} at "
        f"{hex_name} (R103); {_aboard(stores)} left."
    )
    return text, _changes(stores)
