"""What every procedure shares: the table look-ups, and the checks of a procedure's figures.

A procedure is a pure function of the plain figures it needs (tier, speed, load category,
traits, ...), a :class:`~voyage.dice.roller.Roller` and the
:class:`~voyage.tables.rulebook.RuleBook`. It reads every number from the rule book (rules
as data) and returns an :class:`~voyage.dice.events.Outcome`: the rolls (R4), a sentence in
the rules' words and the changes the engine applies to the ship.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from voyage.base.errors import VoyageError
from voyage.base.tiers import parse_tier, roman
from voyage.dice.roller import Modifier
from voyage.tables.rulebook import RuleBook

# ----------------------------------------------------------------------------- look-ups


def check_tier(tier: int | str, what: str = "tier") -> int:
    """A ship's Tier as 1-10 (accepts ``4`` or ``IV``); a clear error otherwise."""
    return parse_tier(tier, what)


def tier_text(tier: int) -> str:
    """``Tier IV`` - the reason text for a Tier modifier."""
    return f"Tier {roman(tier)}"


def load_category(book: RuleBook, name: str) -> dict[str, Any]:
    """The load category row (quarter, half, full, overloaded), case-insensitively."""
    return book.load_category(str(name).strip().lower())


def trait_effects(book: RuleBook, traits: Iterable[str], key: str) -> list[tuple[str, Any]]:
    """``(trait name, value)`` for each of ``traits`` whose effects carry ``key`` (R18)."""
    found = []
    for name in traits:
        trait = book.trait(name)
        if key in trait["effects"]:
            found.append((trait["name"], trait["effects"][key]))
    return found


def trait_modifiers(book: RuleBook, traits: Iterable[str], key: str) -> list[Modifier]:
    """A :class:`Modifier` per trait that adds ``key`` to a roll, the trait as its reason."""
    return [Modifier(int(value), name) for name, value in trait_effects(book, traits, key)]


def check_count(value: int, what: str, minimum: int = 0) -> int:
    """A whole number of at least ``minimum``, or a one-line error naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise VoyageError(f"{what} must be a whole number, not {value!r}")
    if value < minimum:
        raise VoyageError(f"{what} must be at least {minimum}, not {value}")
    return value


def zone_modifier(table: Mapping[str, int], zone: str | None, what: str) -> list[Modifier]:
    """The modifier for being in an Explosion's ``zone`` (secondary / lethal), from ``table``.

    ``None`` or ``"none"`` means outside both zones: no modifier.
    """
    if zone is None or str(zone).lower() in ("", "none"):
        return []
    key = str(zone).strip().lower()
    if key not in table:
        raise VoyageError(f"unknown zone {zone!r} for {what}: use none, {', '.join(table)}")
    return [Modifier(int(table[key]), f"{key} zone")]
