"""The water phase's hour for the people in rafts with emergency stores (R100-R102).

A raft launched off a ship whose stores are counted carries its own (voyage.world.water:
:attr:`Floater.stores`, ``ship load --raft-stores N`` person-days of food and of fresh
water). Each hour, before the drowning rolls, for every raft afloat with people in it:

1. at 06:00 its people's days without water and food rise, and each with a deadly count
   rolls (R102, voyage.rules.stores.dawn): named people die by name, unnamed ones out of
   their group; the dead are out of the raft (state ``lost``);
2. the people in it use an hour's food and fresh water (R101, full rations); a store that
   runs out is logged. People under a capsized raft are in the water and use none.

A raft whose stores are not counted (None) is as it was before R100: nobody in it eats,
drinks or goes without.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.dice.events import Event
from voyage.rules.stores import dawn, use_hour
from voyage.vessels.stores import StoreRules, Stores, said, store_rules, stores_from_text
from voyage.vessels.storesroom import room
from voyage.world.water import Floater


def raft_stores_phase(wp: Any) -> None:
    """R100-R102 for every raft afloat with counted stores and people in it (``wp`` the
    engine's voyage.world.waterphase.WaterPhase, its lay-out fresh)."""
    rafts = [r for r in wp._rafts if r.stores is not None and r.afloat]
    if not rafts:
        return
    rules = store_rules(wp.book)
    at_dawn = wp.clock % 24 == rules.dawn_hour
    for raft in rafts:
        aboard = [f for f in wp._rows if f.kind == "people" and f.afloat and f.raft == raft.id]
        if not aboard:
            continue
        stores = stores_from_text(raft.stores)
        assert stores is not None
        wp.stirring = True  # their stores run down: an advance `--until event` waits for it
        if at_dawn:
            _dawn(wp, raft, aboard, stores, rules)
            aboard = [f for f in aboard if f.afloat]
        people = 0 if raft.capsized else sum(f.count for f in aboard)
        for gone in use_hour(stores, people, rules.hourly):
            wp.log_f(
                raft,
                Event(
                    "stores",
                    f"{raft.who()} has run out of {gone} (R101); its people go without (R102).",
                    [],
                    0,
                    {"raft": raft.id, "out_of": gone},
                ),
            )
        raft.stores = stores.to_text()


def _dawn(wp: Any, raft: Floater, aboard: list[Floater], stores: Stores, rules: StoreRules) -> None:
    """R102 at 06:00 in a raft: the counts rise, who has a deadly count rolls, and the dead
    leave the raft (their row, or a part split off their group, ``lost``)."""
    who: list[str] = []
    owner: list[Floater] = []
    for f in aboard:
        if f.name:
            who.append(f.name)
        else:
            who += ["a passenger" if f.role == "passenger" else "a crewman"] * f.count
        owner += [f] * (1 if f.name else f.count)
    rolls, died = dawn(stores, who, wp.roller, rules)
    if not rolls:
        return
    assert isinstance(died, list)
    dead: dict[int, int] = {}
    for i in died:
        dead[id(owner[i])] = dead.get(id(owner[i]), 0) + 1
    names: list[str] = []
    note = f"died going without in {raft.who()}"
    for f in aboard:
        count = dead.get(id(f), 0)
        if not count:
            continue
        part = wp.split(f, count) if count < f.count else f
        part.state, part.ended, part.note = "lost", wp.clock, note
        if f.name:
            names.append(f.name)
            person = wp.roster.get(f.name)
            if person is not None:
                person["ship"] = None
    if died:
        wp.invalidate()
    unnamed = len(died) - len(names)
    told = ", ".join([*names, *([f"{unnamed} more"] if names and unnamed else [])])
    text = (
        f"Going without in {raft.who()} (R102: {said(stores.dry_water)} days without fresh "
        f"water, {said(stores.dry_food)} without food): {len(died)} of {len(who)} die"
        + (f" ({told})" if names else "")
        + "."
    )
    changes: dict[str, Any] = {"raft": raft.id}
    if died:
        changes["deaths"] = len(died)
    if names:
        changes["died"] = names
    wp.log_f(raft, Event("stores", text, rolls, 0, changes), "people lost" if died else None)


def raft_stores_aboard(ship: Any, raft: Floater, book: Any, water_in_load: bool) -> str:
    """R103 is silent on a rescued raft's emergency stores; our reading: the rescuers take
    what is left of them aboard with its people, fresh water first (R102: it is missed
    first), up to her room (R103: her Load, and a built boat's spaces, voyage.vessels.
    storesroom); what does not fit stays in the raft. Only into a ship whose own stores are
    counted (an untracked ship's hours are as before R100). The words for the rescue's log
    line, "" when nothing comes aboard."""
    theirs = stores_from_text(raft.stores)
    mine = getattr(ship, "stores", None)
    if theirs is None or mine is None or not (theirs.has_food or theirs.has_water):
        return ""
    r = room(ship, book, water_in_load)
    food_now, water_now = mine.food, mine.fresh_water
    top = r.water_for(food_now)
    water = max(Fraction(0), min(theirs.fresh_water, (top or Fraction(0)) - water_now))
    top = r.food_for(water_now + water)
    food = max(Fraction(0), min(theirs.food, (top or Fraction(0)) - food_now))
    if food:
        mine.food = food_now + food
        mine.dry_food = Fraction(0)  # R102: taken on again
    if water:
        mine.fresh_water = water_now + water
        mine.dry_water = Fraction(0)
    theirs.food -= food
    theirs.fresh_water -= water
    raft.stores = theirs.to_text()
    left = [
        f"{said(x)} person-days of {word}"
        for x, word in ((theirs.food, "food"), (theirs.fresh_water, "fresh water"))
        if x
    ]
    stays = f"; {' and '.join(left)} stay in it: she has no room for more (R103)" if left else ""
    if not food and not water:
        return f" The raft's stores stay in it: {ship.name} has no room for them (R103)."
    taken = (
        f"{said(food)} person-days of food and {said(water)} of fresh water"
        if food and water
        else f"{said(food or water)} person-days of {'food' if food else 'fresh water'}"
    )
    return (
        f" The raft's stores come aboard with them (our reading of R103): {taken} into "
        f"{ship.name}'s, food {said(mine.food)} and fresh water {said(mine.fresh_water)} "
        f"person-days aboard now{stays}."
    )
