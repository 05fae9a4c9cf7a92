"""How long a ship's food and fresh water last, counted ahead (R101, R102, R104): pure
arithmetic on her :class:`~voyage.vessels.stores.Stores` and the people aboard, for
`sail`, `plan` and `forecast`, which weigh the days she carries against a passage, and for
the engine's dawn note that a store runs low.

A forecast's runs do not use the stores hour by hour (that would cost more than the rest of
a run): what a store does depends only on the hours she is out and the people aboard, so
:func:`outlook` works it out once for the voyage, and each run reads it against her own
hours (voyage.actions.forecast).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from voyage.rules.stores import count_dawn, death_target
from voyage.vessels.stores import StoreRules, Stores, days_left

#: the stores as the referee and the players name them (the word "water" is the flooding's)
STORE_WORDS = {"food": "food", "fresh_water": "fresh water"}


def hourly_use(people: int, half: bool, rules: StoreRules) -> Fraction:
    """R101: person-days of one store ``people`` use an hour (half rations: half)."""
    use = people * rules.hourly
    return use / 2 if half else use


def hours_lasting(amount: Fraction, people: int, half: bool, rules: StoreRules) -> int | None:
    """R101: the hour, counted from now (1 = the next), in which ``amount`` person-days
    run out for ``people`` (0: there are none now); None with nobody aboard to use them."""
    if people <= 0:
        return None
    if amount <= 0:
        return 0
    return math.ceil(amount / hourly_use(people, half, rules))


def days_of(stores: Stores, people: int) -> dict[str, Fraction | None]:
    """R101: days each store lasts the people aboard (None: nobody aboard to use it)."""
    return {
        "food": days_left(stores.food, people, stores.half_food),
        "fresh_water": days_left(stores.fresh_water, people, stores.half_water),
    }


@dataclass(frozen=True)
class Outlook:
    """Her stores over the hours ahead, for the people aboard now (R101, R102).

    ``food`` and ``fresh_water``: the hour, counted from the start (1 = the first), in
    which each runs out (0: none aboard; None: never, nobody aboard). ``dawns``: (hours
    from the start, the target) of each 06:00 within the horizon at which R102 has
    everyone roll, a person dying on the target or less.
    """

    food: int | None
    fresh_water: int | None
    dawns: tuple[tuple[int, int], ...]

    def out_within(self, hours: int) -> tuple[str, ...]:
        """The stores that run out within ``hours`` hours of the start, as the engine's
        halts name them ("out of fresh water", "out of food")."""
        out: list[str] = []
        if self.fresh_water is not None and self.fresh_water <= hours:
            out.append("out of fresh water")
        if self.food is not None and self.food <= hours:
            out.append("out of food")
        return tuple(out)


def outlook(
    stores: Stores,
    people: int,
    clock: int,
    horizon: int,
    rules: StoreRules,
    dawn_done: bool = False,
) -> Outlook:
    """R101-R102 over ``horizon`` hours from ``clock`` for ``people`` who stay aboard:
    when each store runs out, and the dawns at which people roll for going without (the
    counts rise at 06:00 by 1 for a day ended with none, by 1/2 on half rations). People
    who die are not counted ahead (they would only make the stores last longer); rain
    (R103) is counted by the forecast's runs, each from the storms she meets
    (voyage.actions.forecast: :func:`after_hours` to the hour it is caught, and a new
    outlook from there). ``dawn_done``: a dawn at ``clock`` itself is already counted."""
    food_out = hours_lasting(stores.food, people, stores.half_food, rules)
    water_out = hours_lasting(stores.fresh_water, people, stores.half_water, rules)
    if people <= 0:
        return Outlook(food_out, water_out, ())
    ahead = Stores(dry_water=stores.dry_water, dry_food=stores.dry_food)
    dawns: list[tuple[int, int]] = []
    first = (rules.dawn_hour - clock) % 24
    if dawn_done and first == 0:
        first = 24
    for t in range(first, horizon, 24):
        # the dawn hour counts before that hour's use (voyage.rules.stores.stores_phase):
        # a store is gone at dawn if it ran out in an hour before
        gone = (water_out is not None and water_out <= t, food_out is not None and food_out <= t)
        count_dawn(ahead, *gone, stores.half_water, stores.half_food)
        if not (ahead.dry_water or ahead.dry_food):
            if water_out is None or food_out is None:
                break
            # nothing to count until a store runs out: skip ahead to that day
            continue
        target = death_target(ahead, rules)
        if target >= 2:
            dawns.append((t, target))
    return Outlook(food_out, water_out, tuple(dawns))


def after_hours(
    stores: Stores, people: int, clock: int, hours: int, rules: StoreRules, dawn_done: bool = False
) -> Stores:
    """Her stores ``hours`` hours after ``clock`` (R101: ``people`` use them, never below 0,
    fractions kept), the counts of days without risen at each dawn up to and including
    the one at ``clock + hours`` (R102: that hour's dawn comes before anything else in it),
    as :func:`outlook` counts them; the rations as they are."""
    food_out = hours_lasting(stores.food, people, stores.half_food, rules)
    water_out = hours_lasting(stores.fresh_water, people, stores.half_water, rules)
    food = max(Fraction(0), stores.food - hourly_use(people, stores.half_food, rules) * hours)
    water = max(
        Fraction(0), stores.fresh_water - hourly_use(people, stores.half_water, rules) * hours
    )
    after = Stores(
        food, water, stores.half_food, stores.half_water, stores.dry_water, stores.dry_food
    )
    after.rain_day = stores.rain_day
    if people <= 0:
        return after
    first = (rules.dawn_hour - clock) % 24
    if dawn_done and first == 0:
        first = 24
    for t in range(first, hours + 1, 24):
        gone = (water_out is not None and water_out <= t, food_out is not None and food_out <= t)
        count_dawn(after, *gone, stores.half_water, stores.half_food)
    return after


def short_of(
    stores: Stores, people: int, passages: dict[str, float | None], rules: StoreRules
) -> list[dict[str, object]]:
    """R104: each store that will not last a passage (``passages``: hours by name,
    "expected", "slow"), the first passage it falls short of named: the store, its days,
    the passage, its days, the person-days more that would last it, and ``total``: the
    whole person-days aboard that last it, what `ship load` sets."""
    days = days_of(stores, people)
    a_day = 1 / rules.hourly  # R101: hours in which a person uses a person-day
    out: list[dict[str, object]] = []
    for key, word in STORE_WORDS.items():
        have = days[key]
        if have is None:
            continue
        for name, hours in passages.items():
            if hours is None:
                continue
            need = Fraction(hours).limit_denominator(1000) / a_day
            if have < need:
                half = stores.half_food if key == "food" else stores.half_water
                per_day = people * (Fraction(1, 2) if half else 1)
                more = math.ceil((need - have) * per_day)
                total = math.ceil(need * per_day)
                out.append(
                    {"store": word, "days": have, "passage": name, "passage_days": need,
                     "more": more, "total": total}
                )  # fmt: skip
                break
    return out
