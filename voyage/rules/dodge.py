"""Dodging (R51): a risky maneuver against an imminent Explosion.

Roll ``dodge.die`` (d12), +1 for each situational advantage, -1 for each disadvantage,
the zone modifier (secondary -1, lethal -2), and each trait's ``dodge_bonus`` (Nimble +1):
meeting or beating the ship's Tier dodges the attack. On a failure the ship pitches and the
crew are thrown off balance for the rest of the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from voyage.dice.events import Outcome
from voyage.dice.roller import Modifier, Roller, odds
from voyage.rules.common import check_tier, tier_text, trait_modifiers, zone_modifier
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class DodgeResult(Outcome):
    """A dodge: ``dodged`` is True when the attack misses."""

    dodged: bool


def dodge_modifiers(
    book: RuleBook,
    traits: Sequence[str] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
    zone: str | None = None,
) -> list[Modifier]:
    """Every modifier on a dodge (R51), each with its reason."""
    mods = [Modifier(1, f"advantage: {why}") for why in advantages]
    mods += [Modifier(-1, f"disadvantage: {why}") for why in disadvantages]
    mods += zone_modifier(book.procedures["dodge"]["zone_modifiers"], zone, "a dodge")
    mods += trait_modifiers(book, traits, "dodge_bonus")
    return mods


def dodge(
    tier: int,
    roller: Roller,
    book: RuleBook,
    traits: Sequence[str] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
    zone: str | None = None,
) -> DodgeResult:
    """The ship tries to dodge an imminent Explosion (R51)."""
    tier = check_tier(tier)
    mods = dodge_modifiers(book, traits, advantages, disadvantages, zone)
    roll = roller.roll(
        "dodge",
        book.procedures["dodge"]["die"],
        mods,
        target=tier,
        success="dodged",
        failure="the attack lands",
        target_text=f"vs {tier_text(tier)}",
    )
    if roll.success:
        return DodgeResult(
            "dodge", "The ship swerves clear: the attack is dodged.", (roll,), {}, True
        )
    text = (
        "The ship pitches as the attack lands: the crew are thrown off balance and may "
        "do nothing but regain their composure for the rest of the round."
    )
    return DodgeResult("dodge", text, (roll,), {"crew_off_balance": True}, False)


def dodge_odds(
    tier: int,
    book: RuleBook,
    traits: Sequence[str] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
    zone: str | None = None,
) -> Fraction:
    """Exact chance the dodge succeeds (R51)."""
    tier = check_tier(tier)
    mod = sum(m.value for m in dodge_modifiers(book, traits, advantages, disadvantages, zone))
    return odds(book.procedures["dodge"]["die"], mod, tier, ">=")
