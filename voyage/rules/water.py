"""People in the water (R70-R74): the pure rules, each a function of (state, roller).

* R72 drowning: 2d6, drowned on 2 (calm), 2-3 (stormy seas), 2-4 (major storm), 2-6
  (hurricane). Who rolls how often is :func:`schedule`: a non-swimmer without a jacket every
  minute, with one every hour; a swimmer with a jacket never in calm or stormy seas and every
  minute on 2 / 2-4 in a major storm / hurricane; a swimmer without a jacket keeps afloat
  rank + 1 hours rolling as a non-swimmer with a jacket, then as one without (our reading).
* R71 escapes: below deck 1-2 on d6, above deck 3+ on 2d6; rafts launched on a 4-in-6.
* R74 search: a raft at once with a radio, else 3-in-6; a person 2-in-6 by day, 1-in-6 by
  night.

The numbers are in ``tables/procedures.yaml`` under ``water`` (a house table can change them).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..dice import Dice, Modifier, Roll, Roller, odds, parse
from ..tables import RuleBook

#: R60: the four sea states, mildest first (their levels are 0 to 3).
SEA_STATES = ("calm", "stormy seas", "major storm", "hurricane")


def water_rules(book: RuleBook) -> dict[str, Any]:
    """The ``water`` numbers of the procedures table (R70-R74); read, never changed."""
    found: dict[str, Any] = book.procedures["water"]
    return found


def sea_state(world: Any, hex_name: str, clock: int) -> str:
    """R60: the sea state at a hex and hour, by name. The one seam to the weather: the
    world's ``sea_state`` gives a level, 0 calm to 3 hurricane (voyage.world.seastate)."""
    level = int(world.sea_state(hex_name, clock))
    return SEA_STATES[max(0, min(level, len(SEA_STATES) - 1))]


def sea_words(state: str) -> str:
    """A sea state as it reads after "in": calm seas, stormy seas, a major storm, a
    hurricane."""
    return {"calm": "calm seas", "major storm": "a major storm", "hurricane": "a hurricane"}.get(
        state, state
    )


@dataclass(frozen=True)
class Schedule:
    """How often one person in the water rolls for drowning (R72), and on what."""

    every: str | None  #: "minute", "hour" or None (does not drown)
    drowned_on: int  #: 2d6 total or less drowns
    why: str

    def text(self, state: str) -> str:
        """The schedule in the sea's terms, e.g. "rolls every minute, drowned on 2-3"."""
        if self.every is None:
            return f"does not drown in {sea_words(state)}"
        on = "2" if self.drowned_on <= 2 else f"2-{self.drowned_on}"
        return f"rolls every {self.every}, drowned on {on} in {sea_words(state)}"


def schedule(swimming: int, jacket: bool, hours_swum: int, state: str, book: RuleBook) -> Schedule:
    """R72: the drowning schedule of one person in the water (not in a raft)."""
    w = water_rules(book)
    on = int(w["drowned_on"].get(state, 2))
    if swimming <= 0:
        if jacket:
            return Schedule("hour", on, "a non-swimmer with a jacket")
        return Schedule("minute", on, "a non-swimmer without a jacket")
    if jacket:
        worse = w["jacketed_swimmer_on"].get(state)
        if worse is None:
            return Schedule(None, 0, "a swimmer with a jacket")
        return Schedule("minute", int(worse), "a swimmer with a jacket")
    if hours_swum < swimming + 1:
        # our reading (003's fatigue): rank + 1 hours afloat, rolling as a jacketed non-swimmer
        return Schedule("hour", on, f"a swimmer (rank {swimming}) keeping afloat")
    return Schedule("minute", on, f"an exhausted swimmer (rank {swimming})")


def drowning_odds(drowned_on: int, book: RuleBook) -> Fraction:
    """The exact chance that one drowning roll drowns (R72): 2d6 <= ``drowned_on``."""
    dice = parse(str(water_rules(book)["drowning_dice"]))
    return odds(Dice(dice.count, dice.sides), dice.bonus, drowned_on, "<=")


def drowning_roll(roller: Roller, drowned_on: int, book: RuleBook, who: str) -> Roll:
    """One drowning roll (R72): success means the person drowns.

    The same record :meth:`Roller.roll` makes, built directly: a night of people in the
    water is thousands of these, and the dice and their odds are the same every time."""
    dice = _drowning_dice(str(water_rules(book)["drowning_dice"]))
    faces = [roller.die(dice.sides) for _ in range(dice.count)]
    natural = sum(faces)
    total = natural + dice.bonus
    drowns = total <= drowned_on
    record = Roll(
        label=f"drowning ({who})",
        dice=str(Dice(dice.count, dice.sides)),
        faces=faces,
        natural=natural,
        modifiers=[Modifier(dice.bonus, "flat")] if dice.bonus else [],
        total=total,
        target=drowned_on,
        compare="<=",
        success=drowns,
        outcome="drowns" if drowns else "stays afloat",
        probability=_drowning_odds(dice, drowned_on),
    )
    roller.records.append(record)
    return record


@functools.lru_cache(maxsize=8)
def _drowning_dice(expression: str) -> Dice:
    return parse(expression)


@functools.lru_cache(maxsize=64)
def _drowning_odds(dice: Dice, drowned_on: int) -> Fraction:
    return odds(Dice(dice.count, dice.sides), dice.bonus, drowned_on, "<=")


def is_night(hour: int, book: RuleBook) -> bool:
    """R71/R74: 20:00 to 06:00 is night (``water.night``)."""
    start, end = water_rules(book)["night"]
    return hour >= start or hour < end


def escape_roll(roller: Roller, below_deck: bool, book: RuleBook, who: str) -> Roll:
    """R71: one person's escape from a ship going down: below deck 1-2 on d6, above deck 3+
    on 2d6 (Boats in Car Wars). Success means the person gets out."""
    w = water_rules(book)
    if below_deck:
        x = int(w["below_deck_in_6"])
        return roller.chance(
            f"escape below deck ({who})", x, success="escapes", failure="goes down with her"
        )
    above = w["above_deck"]
    return roller.roll(
        f"escape above deck ({who})",
        str(above["dice"]),
        target=int(above["target"]),
        success="escapes",
        failure="goes down with her",
    )


def escape_odds(below_deck: bool, book: RuleBook) -> Fraction:
    """The exact chance of one R71 escape roll."""
    w = water_rules(book)
    if below_deck:
        return Fraction(int(w["below_deck_in_6"]), 6)
    d = parse(str(w["above_deck"]["dice"]))
    return odds(Dice(d.count, d.sides), d.bonus, int(w["above_deck"]["target"]), ">=")


def raft_launch(roller: Roller, book: RuleBook, number: int) -> Roll:
    """R71 (our reading): in a sudden sinking each raft is launched on a 4-in-6."""
    return roller.chance(
        f"raft {number} launched",
        int(water_rules(book)["raft_launch_in_6"]),
        success="launched",
        failure="goes down with her",
    )


def search_raft(roller: Roller, book: RuleBook, raft: str) -> Roll:
    """R74: a ship without a radio finds a raft in her hex on a 3-in-6 each hour."""
    return roller.chance(
        f"search for {raft}",
        int(water_rules(book)["search_raft_in_6"]),
        success="found",
        failure="not seen",
    )


def search_person(roller: Roller, book: RuleBook, night: bool, who: str) -> Roll:
    """R74: a person in the water is found on a 2-in-6 by day, 1-in-6 by night."""
    w = water_rules(book)
    x = int(w["search_person_night_in_6" if night else "search_person_day_in_6"])
    return roller.chance(f"search for {who}", x, success="found", failure="not seen")


def raft_load_category(people: int, book: RuleBook) -> str:
    """R73: a raft's load category, 10 hlbs a person against a Tier I Deadweight."""
    from ..ships import load_category_for

    tier = int(water_rules(book)["raft_tier"])
    return load_category_for(people * int(book.load["person_weight"]), book.deadweight(tier), book)


def storm_interval(state: str, book: RuleBook) -> int:
    """R32/R60: the same-hex capsize interval in hours for a sea state (6 in stormy seas, 3
    in a major storm, 1 in a hurricane: tables/climates.yaml ``sea_states``)."""
    from .capsize import sea_state_rules

    return sea_state_rules(book)[SEA_STATES.index(state)].hours_in_same_hex


def storm_disadvantages(state: str, book: RuleBook) -> list[str]:
    """R60: the capsize Check's Disadvantages in a sea state (a major storm one, a hurricane
    two)."""
    from .capsize import sea_state_rules

    return [state] * sea_state_rules(book)[SEA_STATES.index(state)].disadvantages
