"""Hull hits (R36): leaks, and the Explosion check that can destroy a ship.

When the hull is Harmed, roll ``hull.leak_die`` (d6) + the weapon's modifier: the ship takes
on that many hlbs of water per hour from then on (leaks add up). When the hull is hit by an
Explosion, also roll ``hull.explosion_die`` (d20) + the weapon's modifier + the zone modifier
(secondary +2, lethal +5) - Tier: on ``hull.destroyed_on`` (20) or more the ship is
destroyed and begins sinking.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Outcome
from voyage.dice.roller import Modifier, Roller, distribution, odds
from voyage.rules.common import check_tier, tier_text, zone_modifier
from voyage.tables.rulebook import RuleBook

ZONES = ("none", "secondary", "lethal")


@dataclass(frozen=True)
class LeakResult(Outcome):
    """A new leak: ``leak_per_hour`` hlbs of water (0 when the modifier ate the roll)."""

    leak_per_hour: int


@dataclass(frozen=True)
class ExplosionResult(Outcome):
    """The Explosion check: ``destroyed`` is True on 20+."""

    destroyed: bool


@dataclass(frozen=True)
class HullHitResult(Outcome):
    """A hit on the hull: the leak, and the Explosion check when it was an Explosion."""

    leak: LeakResult
    explosion: ExplosionResult | None
    destroyed: bool


def _weapon(modifier: int) -> list[Modifier]:
    return [Modifier(int(modifier), "weapon")] if modifier else []


def hull_leak(weapon_modifier: int, roller: Roller, book: RuleBook) -> LeakResult:
    """The hull is Harmed (R36): roll the leak, hlbs of water per hour from now on."""
    roll = roller.roll("hull leak", book.procedures["hull"]["leak_die"], _weapon(weapon_modifier))
    leak = max(0, roll.total)
    roll.outcome = f"{leak} hlbs of water an hour"
    if leak:
        text = f"The hull is holed: the ship takes on {leak} hlbs of water an hour."
        changes = {"add_leak": leak}
    else:
        text = "The hull holds: no leak."
        changes = {}
    return LeakResult("hull", text, (roll,), changes, leak)


def explosion_modifiers(
    tier: int, weapon_modifier: int, zone: str | None, book: RuleBook
) -> list[Modifier]:
    """The Explosion check's modifiers (R36): weapon, zone, minus Tier."""
    tier = check_tier(tier)
    zone_mods = zone_modifier(book.procedures["hull"]["zone_modifiers"], zone, "a hull hit")
    return [*_weapon(weapon_modifier), *zone_mods, Modifier(-tier, tier_text(tier))]


#: :func:`explosion_modifiers` (immutable: each roll copies them) by (rule book, Tier,
#: weapon modifier, zone), with the book they were read from
_BLASTS: dict[tuple[Any, ...], tuple[RuleBook, tuple[Modifier, ...]]] = {}


def _explosion_mods(
    tier: int, weapon_modifier: int, zone: str | None, book: RuleBook
) -> tuple[Modifier, ...]:
    """:func:`explosion_modifiers`, worked out once per book, Tier, modifier and zone (R35:
    every grounding that rams a damaging seabed); an error is raised as there."""
    key = (id(book), tier, weapon_modifier, zone)
    found = _BLASTS.get(key)
    if found is None or found[0] is not book:
        mods = tuple(explosion_modifiers(tier, weapon_modifier, zone, book))
        if len(_BLASTS) >= 1024:
            _BLASTS.clear()
        found = _BLASTS[key] = (book, mods)
    return found[1]


def explosion_check(
    tier: int, weapon_modifier: int, zone: str | None, roller: Roller, book: RuleBook
) -> ExplosionResult:
    """The hull is hit by an Explosion (R36): on 20+ the ship is destroyed and sinks."""
    rules = book.procedures["hull"]
    mods = _explosion_mods(tier, weapon_modifier, zone, book)
    roll = roller.roll(
        "explosion",
        rules["explosion_die"],
        mods,
        target=int(rules["destroyed_on"]),
        success="destroyed",
        failure="the hull survives",
        target_text=f"destroyed on {rules['destroyed_on']}+",
    )
    if roll.success:
        return ExplosionResult(
            "hull",
            "The ship is destroyed and immediately begins sinking.",
            (roll,),
            {"destroyed": True, "sinking": True},
            True,
        )
    return ExplosionResult("hull", "The hull survives the Explosion.", (roll,), {}, False)


def hull_hit(
    tier: int,
    weapon_modifier: int,
    roller: Roller,
    book: RuleBook,
    explosion: bool = False,
    zone: str | None = None,
) -> HullHitResult:
    """The hull is Harmed (R36): a leak, and with ``explosion`` the Explosion check too."""
    tier = check_tier(tier)
    if explosion:
        # validate the zone before any dice fall, so an error leaves no half-rolled record
        _explosion_mods(tier, weapon_modifier, zone, book)
    leak = hull_leak(weapon_modifier, roller, book)
    blast = explosion_check(tier, weapon_modifier, zone, roller, book) if explosion else None
    rolls = leak.rolls + (blast.rolls if blast else ())
    changes = dict(leak.changes)
    text = leak.text
    if blast:
        changes.update(blast.changes)
        text += " " + blast.text
    destroyed = bool(blast and blast.destroyed)
    return HullHitResult("hull", text, rolls, changes, leak, blast, destroyed)


def leak_distribution(weapon_modifier: int, book: RuleBook) -> dict[int, Fraction]:
    """Exact distribution of a new leak in hlbs per hour (R36), never below 0."""
    out: dict[int, Fraction] = {}
    for total, p in distribution(book.procedures["hull"]["leak_die"]).items():
        leak = max(0, total + int(weapon_modifier))
        out[leak] = out.get(leak, Fraction(0)) + p
    return dict(sorted(out.items()))


def explosion_odds(tier: int, weapon_modifier: int, zone: str | None, book: RuleBook) -> Fraction:
    """Exact chance the ship survives an Explosion on its hull (R36): d20 + mods < 20."""
    rules = book.procedures["hull"]
    mod = sum(m.value for m in explosion_modifiers(tier, weapon_modifier, zone, book))
    return 1 - odds(rules["explosion_die"], mod, int(rules["destroyed_on"]), ">=")
