"""Fires (R50): a new fire's severity, then the fire minute by minute (R52).

A new fire has severity ``fire.severity_die`` (d4) plus each trait's ``fire_severity``
(Fireproof -2); at 0 or less there is no fire. Each minute the flames spread (+1) on a
``fire.spread_in_6`` (2-in-6; Fireproof's ``fire_spread_in_6``: 1-in-6); then, if at least
as many crew as the severity fight it (a firehose counts as one crew), they bring it down by
1 on a ``fire.fight_in_6`` (4-in-6). At 0 it is out. Once the severity exceeds the ship's
Tier the fire is out of control and swallows the ship in ``fire.swallow_dice`` (2d6)
minutes.

The tool's reading of the order: the fire is out of control the moment its severity
exceeds the Tier - at the start, or when it spreads - and then the crew can no longer
fight it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageError
from voyage.dice.events import Outcome
from voyage.dice.roller import Roll, Roller, odds, parse
from voyage.rules.common import check_count, check_tier, trait_effects, trait_modifiers
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class FireStart(Outcome):
    """A new fire: its ``severity`` (0 = no fire after all); ``swallowed_in`` minutes when
    it is out of control from the start."""

    severity: int
    out_of_control: bool
    swallowed_in: int | None


@dataclass(frozen=True)
class FireMinute(Outcome):
    """One minute of burning: severity before and after, and what happened."""

    severity_before: int
    severity: int
    spread: bool
    fought: bool
    reduced: bool
    out: bool
    out_of_control: bool
    swallowed_in: int | None


def spread_in_6(traits: Sequence[str], book: RuleBook) -> int:
    """The fire's spread chance in 6 (R50): the table's, or a trait's (Fireproof)."""
    chances = [int(v) for _, v in trait_effects(book, traits, "fire_spread_in_6")]
    return min(chances) if chances else int(book.procedures["fire"]["spread_in_6"])


def firefighters(crew: int, firehose: bool, book: RuleBook) -> int:
    """Crew fighting the fire, a firehose counting as ``fire.firehose_crew`` (one, R50)
    where someone works it: with nobody fighting, the hose lies idle (our reading, R70)."""
    crew = check_count(crew, "crew fighting the fire")
    hose = int(book.procedures["fire"].get("firehose_crew", 1)) if firehose and crew else 0
    return crew + hose


def _swallow(roller: Roller, book: RuleBook) -> tuple[int, Roll]:
    roll = roller.roll("fire swallows the ship in", book.procedures["fire"]["swallow_dice"])
    roll.outcome = f"{roll.total} minutes"
    return roll.total, roll


def _out_of_control_text(minutes: int) -> str:
    return (
        f"The flames grow out of control: they swallow the ship in {minutes} minutes "
        "(destroyed, sinking)."
    )


def fire_start(tier: int, traits: Sequence[str], roller: Roller, book: RuleBook) -> FireStart:
    """A fire starts aboard (R50): roll its severity; Fireproof subtracts 2, and at 0 there
    is no fire. A severity already above the Tier is out of control at once."""
    tier = check_tier(tier)
    mods = trait_modifiers(book, traits, "fire_severity")
    roll = roller.roll("fire severity", book.procedures["fire"]["severity_die"], mods)
    severity = max(0, roll.total)
    rolls = [roll]
    if severity == 0:
        roll.outcome = "no fire"
        return FireStart(
            "fire",
            "The fire fizzles out before it catches: no fire.",
            tuple(rolls),
            {},
            0,
            False,
            None,
        )
    roll.outcome = f"severity {severity}"
    changes: dict[str, Any] = {"fire_severity": severity}
    if severity > tier:
        minutes, swallow = _swallow(roller, book)
        rolls.append(swallow)
        changes.update({"fire_out_of_control": True, "swallowed_in": minutes})
        return FireStart(
            "fire",
            f"A fire of severity {severity} breaks out. " + _out_of_control_text(minutes),
            tuple(rolls),
            changes,
            severity,
            True,
            minutes,
        )
    return FireStart(
        "fire",
        f"A fire of severity {severity} breaks out.",
        tuple(rolls),
        changes,
        severity,
        False,
        None,
    )


def fire_minute(
    severity: int,
    tier: int,
    crew: int,
    roller: Roller,
    book: RuleBook,
    traits: Sequence[str] = (),
    firehose: bool = False,
) -> FireMinute:
    """One minute of a fire of ``severity`` aboard a ship of ``tier`` with ``crew`` fighting
    it (R50): spread, then the crew's attempt, then out / out of control."""
    tier = check_tier(tier)
    check_count(severity, "fire severity", 1)
    if severity > tier:
        raise VoyageError(
            f"a fire of severity {severity} on a Tier {tier} ship is already out of control"
        )
    fighters = firefighters(crew, firehose, book)
    rules = book.procedures["fire"]
    rolls: list[Roll] = []
    spread_roll = roller.chance(
        "the flames spread", spread_in_6(traits, book), success="+1 severity", failure="they do not"
    )
    rolls.append(spread_roll)
    now = severity + (1 if spread_roll.success else 0)
    parts = [
        f"The flames spread to severity {now}."
        if spread_roll.success
        else "The flames do not spread."
    ]
    fought = reduced = out = out_of_control = False
    swallowed_in: int | None = None
    changes: dict[str, Any] = {}
    if now > tier:
        out_of_control = True
        swallowed_in, swallow = _swallow(roller, book)
        rolls.append(swallow)
        parts.append(_out_of_control_text(swallowed_in))
        changes.update({"fire_out_of_control": True, "swallowed_in": swallowed_in})
    elif fighters >= now:
        fought = True
        fight = roller.chance(
            "the crew fight the fire",
            int(rules["fight_in_6"]),
            success="-1 severity",
            failure="no headway",
        )
        rolls.append(fight)
        if fight.success:
            reduced = True
            now -= 1
            if now == 0:
                out = True
                parts.append("The crew beat it down: the fire is out.")
            else:
                parts.append(f"The crew beat it down to severity {now}.")
        else:
            parts.append("The crew make no headway.")
    elif fighters == 0:  # nobody aboard, or nobody set to it: "0 crew fighting cannot ..."
        parts.append("Nobody fights it.")
    else:
        parts.append(
            f"{fighters} crew fighting cannot control a fire of severity {now} (it needs {now})."
        )
    changes["fire_severity"] = now
    return FireMinute(
        "fire",
        " ".join(parts),
        tuple(rolls),
        changes,
        severity,
        now,
        bool(spread_roll.success),
        fought,
        reduced,
        out,
        out_of_control,
        swallowed_in,
    )


def fire_start_odds(tier: int, traits: Sequence[str], book: RuleBook) -> dict[str, Fraction]:
    """Exact chances for a new fire (R50): ``no_fire``, ``burning`` (under control) and
    ``out_of_control``."""
    tier = check_tier(tier)
    die = parse(book.procedures["fire"]["severity_die"])
    mod = sum(m.value for m in trait_modifiers(book, traits, "fire_severity"))
    no_fire = odds(die, mod, 0, "<=")
    out = odds(die, mod, tier, ">")
    return {"no_fire": no_fire, "burning": 1 - no_fire - out, "out_of_control": out}


def fire_minute_odds(
    severity: int,
    tier: int,
    crew: int,
    book: RuleBook,
    traits: Sequence[str] = (),
    firehose: bool = False,
) -> dict[str, Fraction]:
    """Exact chances for one minute of burning (R50): ``spreads``, ``reduced`` (the crew
    bring it down), ``out`` (it goes out), ``out_of_control``."""
    tier = check_tier(tier)
    check_count(severity, "fire severity", 1)
    fighters = firefighters(crew, firehose, book)
    spread = Fraction(spread_in_6(traits, book), 6)
    fight = Fraction(int(book.procedures["fire"]["fight_in_6"]), 6)
    result = {
        "spreads": spread,
        "reduced": Fraction(0),
        "out": Fraction(0),
        "out_of_control": Fraction(0),
    }
    for grew, p in ((True, spread), (False, 1 - spread)):
        now = severity + (1 if grew else 0)
        if now > tier:
            result["out_of_control"] += p
        elif fighters >= now:
            result["reduced"] += p * fight
            if now == 1:
                result["out"] += p * fight
    return result
