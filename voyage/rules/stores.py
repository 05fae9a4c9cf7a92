"""Food and fresh water used hour by hour, missed and caught from the rain (R101-R103), pure
arithmetic with exact fractions on a ship's :class:`~voyage.vessels.stores.Stores`; the
numbers are the campaign's table's (tables/procedures.yaml ``stores``).

The engine calls :func:`stores_phase` once in each hour of a ship whose stores are counted
(never for an untracked ship, whose hour is as it was before R100).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from voyage.dice.events import Event
from voyage.dice.roller import Roll, Roller, odds
from voyage.vessels.stores import StoreRules, Stores, days_left, said, store_rules
from voyage.vessels.vessel import Ship

#: R101: a person uses 1/24 of a person-day of each an hour (the built-in table's numbers;
#: the engine reads the campaign's own through :func:`store_rules`)
HOURLY = Fraction(1, 24)
#: R102: the hour of the day the counts rise and the dying roll (06:00)
DAWN_HOUR = 6
_NONE = Fraction(0)  #: R102: no days without (Fractions never change: one will do)
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def use_hour(stores: Stores, people: int, hourly: Fraction = HOURLY) -> list[str]:
    """R101: ``people`` use an hour's food and fresh water (half rations halve it), never
    below 0; the names of the stores that ran out this hour ("fresh water", "food")."""
    if people <= 0:
        return []
    return stores.use_parts(*stores.hour_use(people, hourly))


def _rules(rules: StoreRules | None) -> StoreRules:
    if rules is not None:
        return rules
    from voyage.tables.rulebook import load_rulebook

    return store_rules(load_rulebook())


def death_target(stores: Stores, rules: StoreRules | None = None) -> int:
    """R102: the total at or below which a person dies: the higher of
    (floor(water count) - 1) and (floor(food count) - 19); 0 or less: nobody rolls."""
    r = _rules(rules)
    water = int(stores.dry_water) - r.water_less if stores.dry_water >= r.water_deadly else 0
    food = int(stores.dry_food) - r.food_less if stores.dry_food >= r.food_deadly else 0
    return max(water, food)


def two_d6_at_most(target: int) -> Fraction:
    """The chance 2d6 totals ``target`` or less (R102's odds, shown with every roll)."""
    return odds("2d6", 0, target, "<=")


def count_dawn(
    counts: Stores, water_gone: bool, food_gone: bool, half_water: bool, half_food: bool
) -> None:
    """R102 at 06:00: each count of days without rises by 1 for a day ended with none of
    that store, by 1/2 for a day on half rations of it (``counts`` changed in place: a
    ship's stores, or a plan's reckoning ahead, voyage.rules.storesplan)."""
    if water_gone:
        counts.dry_water += 1
    elif half_water:
        counts.dry_water += Fraction(1, 2)
    if food_gone:
        counts.dry_food += 1
    elif half_food:
        counts.dry_food += Fraction(1, 2)


def dawn(
    stores: Stores,
    people: int | Sequence[str],
    roller: Roller,
    rules: StoreRules | None = None,
) -> tuple[list[Roll], int | list[int]]:
    """R102 at 06:00: each count rises (1 for a day ended with none, 1/2 on half rations),
    then each person with a deadly count rolls; (the rolls, how many die). ``people`` may
    be who they are, in order (a name, "a crewman", "a passenger"): then the second item is
    the places in that list of those who die."""
    r = _rules(rules)
    count_dawn(
        stores, stores.fresh_water <= 0, stores.food <= 0, stores.half_water, stores.half_food
    )
    who = [""] * people if isinstance(people, int) else list(people)
    target = death_target(stores, r)
    if target < 2 or not who:
        return [], 0 if isinstance(people, int) else []
    rolls: list[Roll] = []
    died: list[int] = []
    chance = odds(r.death_dice, 0, target, "<=")
    for i, name in enumerate(who):
        label = f"{name} going without (R102)" if name else "going without (R102)"
        roll = roller.roll(label, r.death_dice, target=target, compare="<=")
        roll.probability = chance  # the chance of the total at or below: death
        dies = roll.total <= target
        roll.outcome = "dies" if dies else "lives"
        if dies:
            died.append(i)
        rolls.append(roll)
    return rolls, len(died) if isinstance(people, int) else died


def thirsty(stores: Stores | None, rules: StoreRules | None = None) -> bool:
    """R102: anyone aboard has a water count over 2 (the crew count half for fire and leaks)."""
    if stores is None or not stores.dry_water:
        return False
    return stores.dry_water > _rules(rules).thirsty_above


def working_crew(crew: int, stores: Stores | None, rules: StoreRules | None = None) -> int:
    """R102: the crew that fight fire (R50) and work leaks (R86): half, rounded down,
    while thirsty."""
    return crew // 2 if thirsty(stores, rules) else crew


def rain_catcher(ship: Ship, rules: StoreRules) -> bool:
    """R103 (our reading): a built boat with a Boat Top or Half Top, a rolled ship of Tier
    III or more, catches rain."""
    if ship.design is not None:
        fitted = ship.design.get("accessories", {})
        return bool(fitted.get("boat-top") or fitted.get("half-top"))
    return ship.tier >= rules.rain_catcher_tier


def catch_rain(stores: Stores, people: int, day: int, rules: StoreRules) -> Fraction:
    """R103: the first storm hour of day ``day`` refills up to a person-day of water a head
    (once a day); what was caught. Water taken on resets the days without it (R102)."""
    if stores.rain_day == day or people <= 0:
        return Fraction(0)
    stores.rain_day = day
    caught = people * rules.rain_per_person
    stores.add_fresh_water(caught)
    stores.dry_water = _NONE
    return Fraction(caught)


def _who(h: Any) -> tuple[list[str], list[Any]]:
    """Everyone aboard in the order they roll: the named people of the roster (voyage.world:
    the engine's water phase holds it), then the rest of the crew and the passengers."""
    ship = h.ship
    water = getattr(h.e, "water", None)
    named = water.named_aboard(ship.name) if water is not None else []
    named_crew = sum(1 for p in named if p["role"] != "passenger")
    named_pass = len(named) - named_crew
    who = [str(p["name"]) for p in named]
    who += ["a crewman"] * max(0, ship.crew - named_crew)
    who += ["a passenger"] * max(0, ship.passengers - named_pass)
    return who, named


def quiet_dawn(stores: Stores, people: int, rules: StoreRules) -> bool:
    """06:00 does nothing and says nothing (R101-R102): both stores left and on full rations
    (no count rises), no days without (nobody rolls), and each lasts the people aboard more
    than the table's ``low_days`` (none runs low: :func:`running_low`)."""
    return (
        not stores.half_water
        and not stores.half_food
        and not stores.dry_water
        and not stores.dry_food
        and stores.both_last_over(rules.low_days, people)
    )


def stores_phase(h: Any) -> None:
    """One hour of a ship's stores (``h`` the engine's hour, voyage.engine.clock): at 06:00
    the counts rise and the dying roll (R102), named people dying by name; the first storm
    hour of a day refills a rain catcher's water (R103); then everyone aboard uses the
    hour's food and fresh water (R101); a store that runs out is logged and stops the
    advance (R104)."""
    ship, stores = h.ship, h.ship.stores
    rules = store_rules(h.book)
    people = ship.crew + ship.passengers
    if h.clock % 24 == rules.dawn_hour and not quiet_dawn(stores, people, rules):
        if people and death_target(_counted(stores), rules) >= 2:  # (nobody: no roll to tell)
            who, named = _who(h)
            rolls, died = dawn(stores, who, h.roller, rules)
            _deaths(h, who, named, rolls, list(died) if isinstance(died, list) else [])
        else:
            dawn(stores, 0, h.roller, rules)
        people = ship.crew + ship.passengers
        running_low(h, stores, people, rules)
    day = h.clock // 24
    if (
        people > 0
        and stores.rain_day != day
        and ship.hex
        and h.e.rain_over.get(ship.name, h.e.world.sea_state)(ship.hex, h.clock)
        and rain_catcher(ship, rules)
    ):
        caught = catch_rain(stores, people, day, rules)
        water = stores.fresh_water
        h.note(
            "stores",
            f"{ship.name} catches the rain: {said(caught)} person-days of fresh water "
            f"({said(water)} aboard; R103).",
            changes={"fresh_water": str(water)},
        )
    for gone in use_hour(stores, people, rules.hourly):
        h.note(
            "stores",
            f"{ship.name} has run out of {gone} (R101); her people go without (R102).",
            f"out of {gone}",
        )


def days_words(days: Fraction) -> str:
    """Days as players hear them: "two days", "under two days", "a day", "under a day"."""
    whole = math.ceil(days)
    if whole <= 1:
        return "a day" if days == 1 else "under a day"
    count = _WORDS[whole] if whole < len(_WORDS) else str(whole)
    return f"{count} days" if days == whole else f"under {count} days"


def running_low(h: Any, stores: Stores, people: int, rules: StoreRules) -> None:
    """At 06:00, each store that lasts the people aboard no more than the table's
    ``low_days`` (and is not yet gone) is said to run low, in the log every audience
    reads (R101)."""
    low = rules.low_days
    for word, amount, half in (
        ("fresh water", stores.fresh_water, stores.half_water),
        ("food", stores.food, stores.half_food),
    ):
        days = days_left(amount, people, half)
        if days is None or not 0 < days <= low:
            continue
        h.note(
            "stores",
            f"{h.ship.name}'s {word} is running low: {days_words(days)} left for the "
            f"{people} aboard ({said(amount)} person-days{', half rations' if half else ''}; "
            "R101).",
        )


def _counted(stores: Stores) -> Stores:
    """Her counts as they will stand after this dawn's rise (R102), for whether anyone
    rolls, without changing them."""
    after = Stores(
        stores.food, stores.fresh_water, stores.half_food, stores.half_water,
        stores.dry_water, stores.dry_food,
    )  # fmt: skip
    if after.fresh_water <= 0:
        after.dry_water += 1
    elif after.half_water:
        after.dry_water += Fraction(1, 2)
    if after.food <= 0:
        after.dry_food += 1
    elif after.half_food:
        after.dry_food += Fraction(1, 2)
    return after


def _deaths(h: Any, who: list[str], named: list[Any], rolls: list[Roll], died: list[int]) -> None:
    """R102's dawn roll logged: who died (named people by name, out of the roster: the
    engine's water phase records their fate), the counts aboard lowered."""
    ship, stores = h.ship, h.ship.stores
    names: list[str] = []
    for i in died:
        if i < len(named):
            person = named[i]
            h.e.water.died_aboard(ship, person, h.clock, f"died going without aboard {ship.name}")
            role = "passenger" if person["role"] == "passenger" else "crew"
            names.append(str(person["name"]))
        else:
            role = "crew" if who[i] == "a crewman" else "passenger"
        if role == "crew":
            ship.crew = max(0, ship.crew - 1)
        else:
            ship.passengers = max(0, ship.passengers - 1)
    if died:
        h.e.refresh(h.s)  # R11: fewer people in her Load
    unnamed = len(died) - len(names)
    told = ", ".join([*names, *([f"{unnamed} more"] if names and unnamed else [])])
    dead = f"{len(died)} of {len(who)} die" + (f" ({told})" if names else "")
    text = (
        f"Going without on {ship.name} (R102: {said(stores.dry_water)} days without fresh "
        f"water, {said(stores.dry_food)} without food): {dead}."
    )
    changes: dict[str, Any] = {"deaths": len(died)} if died else {}
    if names:
        changes["died"] = names
    h.log(Event("stores", text, rolls, 0, changes))
