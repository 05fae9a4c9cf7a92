"""Food and fresh water used hour by hour and missed (R101, R102), pure arithmetic with
exact fractions on a ship's :class:`~voyage.vessels.stores.Stores`.

The engine calls :func:`stores_hour` once in each hour of a ship whose stores are counted
(never for an untracked ship, whose hour is as it was before R100).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.dice.events import Event
from voyage.dice.roller import Roll, Roller
from voyage.vessels.stores import Stores

#: R101: a person uses 1/24 of a person-day of each an hour
HOURLY = Fraction(1, 24)
#: R102: the hour of the day the counts rise and the dying roll (06:00)
DAWN_HOUR = 6
#: R102: a water count from which each person rolls, and the food count
WATER_DEADLY = 3
FOOD_DEADLY = 21


def use_hour(stores: Stores, people: int) -> list[str]:
    """R101: ``people`` use an hour's food and fresh water (half rations halve it), never
    below 0; the names of the stores that ran out this hour ("fresh water", "food")."""
    out: list[str] = []
    if people <= 0:
        return out
    need = people * HOURLY
    if stores.fresh_water > 0:
        stores.fresh_water -= need / 2 if stores.half_water else need
        if stores.fresh_water <= 0:
            stores.fresh_water = Fraction(0)
            out.append("fresh water")
    if stores.food > 0:
        stores.food -= need / 2 if stores.half_food else need
        if stores.food <= 0:
            stores.food = Fraction(0)
            out.append("food")
    return out


def death_target(stores: Stores) -> int:
    """R102: the 2d6 total at or below which a person dies: the higher of
    (floor(water count) - 1) and (floor(food count) - 19); 0 or less: nobody rolls."""
    water = int(stores.dry_water) - 1 if stores.dry_water >= WATER_DEADLY else 0
    food = int(stores.dry_food) - 19 if stores.dry_food >= FOOD_DEADLY else 0
    return max(water, food)


def two_d6_at_most(target: int) -> Fraction:
    """The chance 2d6 totals ``target`` or less (R102's odds, shown with every roll)."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= target)
    return Fraction(ways, 36)


def dawn(stores: Stores, people: int, roller: Roller) -> tuple[list[Roll], int]:
    """R102 at 06:00: each count rises (1 for a day ended with none, 1/2 on half rations),
    then each person with a deadly count rolls 2d6; (the rolls, how many die)."""
    if stores.fresh_water <= 0:
        stores.dry_water += 1
    elif stores.half_water:
        stores.dry_water += Fraction(1, 2)
    if stores.food <= 0:
        stores.dry_food += 1
    elif stores.half_food:
        stores.dry_food += Fraction(1, 2)
    target = death_target(stores)
    if target < 2 or people <= 0:
        return [], 0
    rolls: list[Roll] = []
    dead = 0
    odds = two_d6_at_most(target)
    for _ in range(people):
        roll = roller.roll("going without (R102)", "2d6", target=target, compare="<=")
        roll.probability = odds  # the chance of the total at or below: death
        died = roll.total <= target
        roll.outcome = "dies" if died else "lives"
        dead += died
        rolls.append(roll)
    return rolls, dead


def thirsty(stores: Stores | None) -> bool:
    """R102: anyone aboard has a water count over 2 (the crew count half for fire and leaks)."""
    return stores is not None and stores.dry_water > 2


def working_crew(crew: int, stores: Stores | None) -> int:
    """R102: the crew that fight fire (R50) and work leaks (R86): half, rounded down,
    while thirsty."""
    return crew // 2 if thirsty(stores) else crew


def stores_phase(h: Any) -> None:
    """One hour of a ship's stores (``h`` the engine's hour, voyage.engine.clock): at 06:00
    the counts rise and the dying roll (R102), then everyone aboard uses the hour's food and
    fresh water (R101); a store that runs out is logged and stops the advance (R104)."""
    ship, stores = h.ship, h.ship.stores
    people = ship.crew + ship.passengers
    if h.clock % 24 == DAWN_HOUR:
        rolls, dead = dawn(stores, people, h.roller)
        if rolls:
            from_passengers = min(dead, ship.passengers)
            ship.passengers -= from_passengers
            ship.crew -= dead - from_passengers
            if dead:
                h.e.refresh(h.s)  # R11: fewer people in her Load
            text = (
                f"Going without on {ship.name} (R102: {stores.dry_water} days without fresh "
                f"water, {stores.dry_food} without food): {dead} of {people} die."
            )
            h.log(Event("stores", text, rolls, 0, {"deaths": dead} if dead else {}))
            people -= dead
    for gone in use_hour(stores, people):
        h.note(
            "stores",
            f"{ship.name} has run out of {gone} (R101); her people go without (R102).",
            f"out of {gone}",
        )
