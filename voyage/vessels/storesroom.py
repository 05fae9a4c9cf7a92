"""The room a ship has for food and fresh water (R100, R103): what she can take on without
a Load over twice her Deadweight (R12), or, a built boat, over her body's maximum load (R80)
and out of her free spaces, a Galley's food aside.

R100: a built boat's Galley holds ``galley_food`` person-days of food (28, the seed's "one
week's rations for four") without taking cargo space; its weight still counts (2 lbs a
person-day, R100 names no exception for the weight). The rest goes in her spaces. Our
reading, where the seed gives no figure: a space holds ``space_person_days`` (28) person-days
of food or of fresh water, as the Galley's one space holds its week for four; the spaces
stores may use are those no component takes, cargo spaces or not (R80: cargo space bars
components, nothing bars cargo from a free component space); a Deluxe Galley (a referee's
extra named so, as the Refuge's) holds what a Galley holds. Life rafts' emergency stores are
in the rafts (R100) and take no space.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.tables.boatdesigns import sheet
from voyage.tables.rulebook import RuleBook
from voyage.vessels import ships as shipfig
from voyage.vessels.boatships import present_weight
from voyage.vessels.stores import Stores, as_number, store_rules, stores_weight
from voyage.vessels.vessel import Ship

#: the room for a store that weighs nothing (a campaign's table may make it so) and takes
#: no counted space: more than anyone loads
UNLIMITED = Fraction(10**12)


def galleys(ship: Ship) -> int:
    """R100: the Galleys of a built boat (her accessories, and extras named a Galley); a
    rolled ship has none."""
    if ship.design is None:
        return 0
    count = int(ship.design.get("accessories", {}).get("galley", 0) or 0)
    extras = ship.design.get("extras", [])
    return count + sum(1 for e in extras if "galley" in str(e.get("name", "")).lower())


def free_spaces(ship: Ship, book: RuleBook) -> int:
    """R80: a built boat's spaces no component takes, cargo spaces included; 0 for a rolled
    ship (her room is her Load alone)."""
    if ship.design is None:
        return 0
    s = sheet(ship.design, book.boats, check=False)
    return max(
        0,
        s["spaces"] - s["spaces_used"] + s["cargo_spaces"] - s["cargo_spaces_used"],
    )


@dataclass(frozen=True)
class Room:
    """A ship's room for stores, as totals aboard (R103): ``hlbs`` of stores her Load allows
    (the rest of the Load as it is now), and for a built boat ``galley`` person-days of food
    that take no space and ``spaces`` person-days her free spaces hold (None: a rolled ship,
    whose stores take no counted space)."""

    ship: str
    hlbs: Fraction
    food_hlb: Fraction
    water_hlb: Fraction
    galley: int
    spaces: int | None
    limit: str  #: what the weight is against, as the refusal names it

    def fits(self, food: Fraction | int, fresh_water: Fraction | int) -> bool:
        """These totals aboard keep her within her Load and (a built boat) her spaces."""
        if food * self.food_hlb + fresh_water * self.water_hlb > self.hlbs:
            return False
        if self.spaces is None:
            return True
        return max(Fraction(0), Fraction(food) - self.galley) + fresh_water <= self.spaces

    def food_for(self, fresh_water: Fraction | int) -> Fraction | None:
        """The most food, exactly, she holds beside ``fresh_water`` (None: none at all,
        she is over even without food)."""
        left = self.hlbs - fresh_water * self.water_hlb
        # a table that makes food weigh nothing: no weight limit (but there is room only if
        # the rest fits)
        most = left / self.food_hlb if self.food_hlb else (UNLIMITED if left >= 0 else None)
        if self.spaces is not None and most is not None:
            free = self.spaces - Fraction(fresh_water)
            most = None if free < 0 else min(most, self.galley + free)
        return None if most is None or most < 0 else most

    def water_for(self, food: Fraction | int) -> Fraction | None:
        """The most fresh water, exactly, she holds beside ``food`` (None: none at all)."""
        left = self.hlbs - food * self.food_hlb
        most = left / self.water_hlb if self.water_hlb else (UNLIMITED if left >= 0 else None)
        if self.spaces is not None and most is not None:
            most = min(most, self.spaces - max(Fraction(0), Fraction(food) - self.galley))
        return None if most is None or most < 0 else most

    def most_food(self, fresh_water: Fraction | int) -> int:
        """The most whole person-days of food she holds beside ``fresh_water`` (-1: none)."""
        most = self.food_for(fresh_water)
        return -1 if most is None else math.floor(most)

    def most_water(self, food: Fraction | int) -> int:
        """The most whole person-days of fresh water she holds beside ``food`` (-1: none)."""
        most = self.water_for(food)
        return -1 if most is None else math.floor(most)


def room(ship: Ship, book: RuleBook, water_in_load: bool = True) -> Room:
    """R103: her room for stores, the rest of her Load as it is now (people, cargo, fuel,
    the flooding's water where the campaign counts it, life rafts and their stores)."""
    rules = store_rules(book)
    stores = ship.stores if ship.stores is not None else Stores()
    mine = stores_weight(stores, book)
    if ship.design is not None:
        body = book.boats["bodies"][ship.design["body"]]
        rest = present_weight(ship, book, water_in_load) / 10 - mine
        hlbs = Fraction(body["max_load"], 10) - rest
        limit = f"her {body['name']}'s maximum load of {body['max_load']:,} lbs (R80, R103)"
        spaces: int | None = free_spaces(ship, book) * rules.space_person_days
        galley = galleys(ship) * rules.galley_food
    else:
        rest = Fraction(shipfig.load(ship, book, water_in_load)) - mine
        top = shipfig.sinking_load(ship, book)
        hlbs = Fraction(top) - rest
        limit = f"a Load of twice her Deadweight ({top} hlbs, R12, R103)"
        spaces, galley = None, 0
    return Room(ship.name, hlbs, rules.food_hlb, rules.water_hlb, galley, spaces, limit)


def room_figures(ship: Ship, book: RuleBook, water_in_load: bool = True) -> dict[str, Any]:
    """What `ship show` gives of her room for stores (R100, R103): the most whole
    person-days more of food beside her fresh water now, and of fresh water beside her food
    (``food_more``, ``fresh_water_more``), the whole hlbs of her Load left for them
    (``hlbs_left``) and what that Load is against (``limit``); a built boat's Galley's food
    (``galley_food``) and the person-days her free spaces hold (``spaces``) and have left
    (``spaces_left``), None for a rolled ship."""
    r = room(ship, book, water_in_load)
    stores = ship.stores if ship.stores is not None else Stores()

    def more(most: Fraction | None, have: Fraction) -> int:
        return 0 if most is None else max(0, math.floor(most - have))

    weight = stores.food * r.food_hlb + stores.fresh_water * r.water_hlb
    left = None
    if r.spaces is not None:
        used = max(Fraction(0), stores.food - r.galley) + stores.fresh_water
        left = as_number(r.spaces - used)
    return {
        "food_more": more(r.food_for(stores.fresh_water), stores.food),
        "fresh_water_more": more(r.water_for(stores.food), stores.fresh_water),
        "hlbs_left": max(0, math.floor(r.hlbs - weight)),
        "limit": r.limit,
        "galley_food": r.galley if r.spaces is not None else None,
        "spaces": r.spaces,
        "spaces_left": left,
    }


def room_line(fig: dict[str, Any]) -> str:
    """:func:`room_figures` as the card's one line: ``Room for stores: 84 more person-days
    of food or 56 of fresh water; ...``."""
    text = (
        f"  Room for stores: {fig['food_more']:,} more person-days of food or "
        f"{fig['fresh_water_more']:,} of fresh water"
    )
    if fig["spaces"] is not None:
        text += (
            f"; her Galley holds {fig['galley_food']} of food (R100), her free spaces "
            f"{fig['spaces']} ({fig['spaces_left']:g} left)"
        )
    return text + f"; {fig['hlbs_left']:,} hlbs left within {fig['limit']}"


def at_most(command: str, flag: str, most: Any) -> str:
    """The fix every refusal of too many person-days ends with (`ship load`, `act found`,
    `act transfer`, the stores warning of `sail`, `plan` and `forecast`): the command with
    the option at the most it may be, "`voyage ship load 'Gull' --food 40` at most"."""
    return f"`{command} {flag} {most}` at most"


def over_room(
    ship: Ship,
    book: RuleBook,
    water_in_load: bool,
    food: int | None,
    fresh_water: int | None,
    added: bool = False,
    command: str | None = None,
) -> str | None:
    """R100/R103: the one line refusing the stores aboard ``ship`` now when she has no room
    for them (None: they fit; also None when she is over without any stores, which the
    Load's own check says). ``food``/``fresh_water``: what was just loaded (totals), or
    with ``added`` taken on (found, transferred: person-days more); the fix names it with
    ``command`` (default `voyage ship load SHIP`), as :func:`at_most`."""
    command = command or f"voyage ship load {ship.name!r}"
    stores = ship.stores
    if stores is None:
        return None
    r = room(ship, book, water_in_load)
    if r.fits(stores.food, stores.fresh_water) or not r.fits(0, 0):
        return None
    why = f"take her over {r.limit}"
    if r.spaces is not None and _weight_fits(r, stores):
        galley = f", her Galley's {r.galley} of food besides" if r.galley else ""
        why = f"not fit in her free spaces ({r.spaces} person-days{galley}; R100, R103)"
    named_water = bool(fresh_water) and (not food or r.most_water(stores.food) >= 0)
    if named_water:
        most, word, flag = r.most_water(stores.food), "fresh water", "--fresh-water"
        beside, asked = f" beside {_n(stores.food)} of food", fresh_water or 0
        had = stores.fresh_water - (asked if added else 0)
    else:
        most, word, flag = r.most_food(stores.fresh_water), "food", "--food"
        beside, asked = f" beside {_n(stores.fresh_water)} of fresh water", food or 0
        had = stores.food - (asked if added else 0)
    if most < 0 or (added and most < had):
        return (
            f"{ship.name} has no room for {_n(stores.food)} person-days of food and "
            f"{_n(stores.fresh_water)} of fresh water: they would {why}; "
            "carry less of both"
        )
    if added:
        more = math.floor(most - had)
        return (
            f"{ship.name} has room for at most {more} person-days more of {word}{beside}, "
            f"not {asked}: more would {why}; {at_most(command, flag, more)}"
        )
    return (
        f"{ship.name} has room for at most {most} person-days of {word}{beside}, not "
        f"{asked}: more would {why}; {at_most(command, flag, most)}"
    )


def _weight_fits(r: Room, stores: Stores) -> bool:
    return stores.food * r.food_hlb + stores.fresh_water * r.water_hlb <= r.hlbs


def _n(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.3g}"
