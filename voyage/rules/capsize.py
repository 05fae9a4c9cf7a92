"""Capsizing (R41), and when a ship may capsize (R12 Overloaded, R32 storms, R37 flooding).

The helmsman makes a Check (R1) against ``procedures.capsize.dv`` (16): + Tier, + the load
category's capsize modifier (Quarter +1, Half +2, Full 0, Overloaded -4), and one Advantage
(R2) for each trait with ``capsize_advantage`` (Steady). On a failure the ship capsizes and
begins sinking (R40).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Event, Outcome
from voyage.dice.roller import CheckOptions, Modifier, Roller, check_odds
from voyage.rules.common import (
    check_count,
    check_tier,
    load_category,
    tier_text,
    trait_effects,
)
from voyage.rules.flooding import flooding_state
from voyage.tables.rulebook import RuleBook

# Why a ship may capsize (the reason is shown in the roll's label).
OVERLOADED = "overloaded"
FLOODING = "flooding"
LISTING = "listing"
STORM = "storm"
CAPSIZE_REASONS = (OVERLOADED, FLOODING, LISTING, STORM)


@dataclass(frozen=True)
class CapsizeResult(Outcome):
    """A capsize Check: ``capsized`` is True when the ship went over."""

    capsized: bool
    reason: str | None


@dataclass(frozen=True)
class CapsizeTrigger:
    """One reason a ship may capsize, and how often it must check.

    ``every_minutes`` is the interval in minutes (None when it is counted in hexes);
    ``per_hex`` is True for storms (R32: every hex travelled, or every ``every_hours``
    hours spent in the same hex).
    """

    reason: str
    text: str
    ruling: str
    every_minutes: int | None
    per_hex: bool = False
    every_hours_in_same_hex: int | None = None


def capsize_modifiers(tier: int, load: str, book: RuleBook) -> list[Modifier]:
    """The Check's modifiers (R41): + Tier and the load category's capsize modifier."""
    tier = check_tier(tier)
    category = load_category(book, load)
    mods = [Modifier(tier, tier_text(tier))]
    if category["capsize"]:
        mods.append(Modifier(int(category["capsize"]), category["label"]))
    return mods


def capsize_advantages(
    traits: Sequence[str], book: RuleBook, advantages: Sequence[str] = ()
) -> list[str]:
    """The Advantage reasons (R2): one per ``capsize_advantage`` of a trait (Steady, R18),
    then the referee's own."""
    found = []
    for name, count in trait_effects(book, traits, "capsize_advantage"):
        found.extend([name] * int(count))
    return [*found, *advantages]


def capsize_odds(
    tier: int,
    load: str,
    book: RuleBook,
    traits: Sequence[str] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
    options: CheckOptions | None = None,
) -> Fraction:
    """Exact chance the ship stays upright (the Check succeeds), before rolling (R41)."""
    mods = capsize_modifiers(tier, load, book)
    net = len(capsize_advantages(traits, book, advantages)) - len(disadvantages)
    dv = int(book.procedures["capsize"]["dv"])
    return check_odds(dv, sum(m.value for m in mods), net, options)


#: capsize_event's modifiers, Advantages and DV by (rule book, tier, load, traits,
#: Advantages), with the book they were read from (a storm Check for every hex a ship
#: sails in storm-tossed seas, R32/R60: the same few ships and loads all year)
_TERMS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def capsize_check(
    tier: int,
    load: str,
    roller: Roller,
    book: RuleBook,
    traits: Sequence[str] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
    reason: str | None = None,
    vessel: str = "ship",
) -> CapsizeResult:
    """The helmsman's capsize Check (R41). On a failure the ship capsizes and begins
    sinking; roll the time with :func:`voyage.rules.sinking.sinking_time`. ``vessel``
    names her in the roll's outcome ("the raft capsizes", R73)."""
    event = capsize_event(
        tier, load, roller, book, traits, advantages, disadvantages, reason, vessel
    )
    roll = event.rolls[0]
    return CapsizeResult("capsize", event.text, (roll,), event.changes, not roll.success, reason)


#: what the log says of a capsize Check held and failed (R41)
UPRIGHT = "The helmsman holds her: the ship stays upright."
#: the same Check held by a ship with no crew aboard: the sea rolls for her, nobody steers
UPRIGHT_UNMANNED = "With nobody at the helm she rides it out: the ship stays upright."
CAPSIZES = "The ship capsizes and begins sinking."


def capsize_event(
    tier: int,
    load: str,
    roller: Roller,
    book: RuleBook,
    traits: Sequence[str] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
    reason: str | None = None,
    vessel: str = "ship",
    manned: bool = True,
) -> Event:
    """The capsize Check (R41) and its event, as the engine logs it
    (:func:`capsize_check` is it with a result record); she capsized if its one roll
    failed. ``manned`` is False for a ship with no crew aboard: the same roll, told
    without a helmsman."""
    key = (id(book), tier, load, tuple(traits), tuple(advantages))
    found = _TERMS.get(key)
    if found is None or found[0] is not book:  # the same few ships and loads all year
        if len(_TERMS) >= 1024:
            _TERMS.clear()
        found = _TERMS[key] = (
            book,
            tuple(capsize_modifiers(tier, load, book)),  # immutable: check() copies them
            tuple(capsize_advantages(traits, book, advantages)),
            int(book.procedures["capsize"]["dv"]),
        )
    _, mods, adv, dv = found
    label = f"capsize check ({reason})" if reason else "capsize check"
    roll = roller.check(
        label,
        dv,
        mods,
        adv,
        list(disadvantages),
        success=f"the {vessel} rights itself",
        failure=f"the {vessel} capsizes",
    )
    if roll.success:
        return Event("capsize", UPRIGHT if manned else UPRIGHT_UNMANNED, [roll], 0, {})
    return Event("capsize", CAPSIZES, [roll], 0, {"capsized": True, "sinking": True})


def capsize_triggers(
    load: str,
    water: float,
    deadweight: float,
    book: RuleBook,
    storm: bool = False,
    sea: SeaStateRule | None = None,
) -> list[CapsizeTrigger]:
    """Every reason this ship may capsize now, with how often it must check.

    R12/R41: an Overloaded ship checks every hour. R37: water above DW/10 - every hour;
    above DW/4 - listing, every 10 minutes (above DW/2 it is sinking, no more checks).
    R32: in a storm, every hex travelled or every 6 hours in the same hex; R60: with
    ``sea`` (a storm-tossed state), that state's interval in the same hex.
    """
    triggers: list[CapsizeTrigger] = []
    if load_category(book, load)["name"] == OVERLOADED:
        triggers.append(
            CapsizeTrigger(
                OVERLOADED, "the ship is Overloaded: it may capsize every hour", "R41", 60
            )
        )
    flood = flooding_state(water, deadweight, book)
    if flood.capsize_every_minutes is not None:
        reason = LISTING if flood.listing else FLOODING
        triggers.append(CapsizeTrigger(reason, flood.text, "R37", flood.capsize_every_minutes))
    if storm or sea is not None:
        hours = int(book.procedures["storm"]["hours_in_same_hex"])
        words, ruling = "storm-tossed seas", "R32"
        if sea is not None:
            hours, words, ruling = sea.hours_in_same_hex, sea.label, "R32, R60"
        every = "every hour" if hours == 1 else f"every {hours} hours"
        triggers.append(
            CapsizeTrigger(
                STORM,
                f"{words}: it may capsize every hex travelled, or {every} in the same hex",
                ruling,
                None,
                per_hex=True,
                every_hours_in_same_hex=hours,
            )
        )
    return triggers


def storm_checks_due(hexes_entered: int, hours_in_same_hex: int, book: RuleBook) -> int:
    """R32: capsize Checks owed in a storm: one per hex entered, plus one for every full
    ``storm.hours_in_same_hex`` hours spent in the same hex."""
    check_count(hexes_entered, "hexes entered")
    check_count(hours_in_same_hex, "hours in the same hex")
    return hexes_entered + hours_in_same_hex // int(book.procedures["storm"]["hours_in_same_hex"])


# -- sea states (R60) ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeaStateRule:
    """What a sea state does to storm capsize Checks (R60): its words, the Check's
    Disadvantages and the same-hex interval in storm hours."""

    label: str
    disadvantages: int
    hours_in_same_hex: int

    def terms(self, hex_name: str) -> tuple[str, list[str], str]:
        """The Check's reason, its Disadvantage reasons, and the words that open its event."""
        banes = ""
        if self.disadvantages:
            banes = f", {self.disadvantages} Disadvantage{'s' if self.disadvantages > 1 else ''}"
        return (
            f"storm: {self.label}",
            [self.label] * self.disadvantages,
            f"{self.label.capitalize()} in {hex_name} (R60{banes}). ",
        )


def sea_state_rules(book: RuleBook) -> list[SeaStateRule]:
    """The rules by sea-state level, 0 calm to 3 hurricane (tables/climates.yaml
    ``sea_states``; R32's ``storm.hours_in_same_hex`` where a table leaves it out)."""
    table = (book.climates or {}).get("sea_states", {})
    default_every = int(book.procedures["storm"]["hours_in_same_hex"])
    rules = [SeaStateRule("calm", 0, 0)]
    for key in ("stormy", "major", "hurricane"):
        spec = table.get(key, {})
        rules.append(
            SeaStateRule(
                str(spec.get("label", key)),
                int(spec.get("disadvantages", 0)),
                int(spec.get("hours_in_same_hex", default_every)),
            )
        )
    return rules


def storm_clock(storm_hours: int, level: int, rules: Sequence[SeaStateRule]) -> tuple[int, bool]:
    """R32/R60: one more hour in the same hex. Returns the new count of storm hours and
    whether a capsize Check is due. Calm hours do not count (they start the count again);
    the interval is that of the state blowing now; the count restarts at each Check."""
    if not level:
        return 0, False
    storm_hours += 1
    if storm_hours >= rules[min(level, 3)].hours_in_same_hex:
        return 0, True
    return storm_hours, False
