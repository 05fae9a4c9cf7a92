"""Straining the engine (R14): up to half the Speed again, at a risk every hour.

Each hour a ship strains, roll ``pace.strain.die`` (d6) + (extra knots - 1): on
``breaks_on`` (6) or more the engine breaks; if it breaks, roll again with the same
modifier: on ``fire_on`` (6) or more it catches fire (R50).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageError
from voyage.dice.events import Event, Outcome
from voyage.dice.roller import Modifier, Roller, odds
from voyage.rules.common import check_count
from voyage.rules.movement import strain_limit
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class StrainResult(Outcome):
    """An hour of straining: ``broke`` (the engine breaks) and ``fire`` (it catches fire)."""

    extra_knots: int
    broke: bool
    fire: bool


def strain_modifiers(extra_knots: int, speed: int | None, book: RuleBook) -> list[Modifier]:
    """+1 for each extra knot after the first (R14); checks the extra is allowed."""
    check_count(extra_knots, "extra knots", 1)
    if speed is not None:
        limit = strain_limit(speed, book)
        if extra_knots > limit:
            raise VoyageError(
                f"a ship of Speed {speed} may strain at most {limit} knots faster, "
                f"not {extra_knots}"
            )
    return [Modifier(extra_knots - 1, f"{extra_knots} extra knots")] if extra_knots > 1 else []


#: strain_check's figures for (rule book, extra knots, speed): the book (a new one is
#: worked out again), the modifiers (immutable, shared by the rolls: each roll copies the
#: list) and the two targets with their words (a straining ship rolls every hour)
_TERMS: dict[tuple[int, int, int | None], tuple[Any, ...]] = {}


def _terms(extra_knots: int, speed: int | None, book: RuleBook) -> tuple[Any, ...]:
    key = (id(book), extra_knots, speed)
    found = _TERMS.get(key)
    if found is None or found[0] is not book:
        rules = book.procedures["pace"]["strain"]
        mods = strain_modifiers(extra_knots, speed, book)  # refuses what R14 does not allow
        if len(_TERMS) >= 256:
            _TERMS.clear()
        found = _TERMS[key] = (
            book,
            rules["die"],
            tuple(mods),
            int(rules["breaks_on"]),
            f"breaks on {rules['breaks_on']}+",
            int(rules["fire_on"]),
            f"fire on {rules['fire_on']}+",
        )
    return found


def strain_check(
    extra_knots: int, roller: Roller, book: RuleBook, speed: int | None = None
) -> StrainResult:
    """One hour of straining ``extra_knots`` over Speed (R14)."""
    result = strain_hour(extra_knots, roller, book, speed)
    if isinstance(result, StrainResult):  # it broke
        return result
    return StrainResult("strain", HOLDS, tuple(result.rolls), {}, extra_knots, False, False)


#: what the log says of an hour the engine holds (R14)
HOLDS = "The engine holds."


def strain_hour(
    extra_knots: int, roller: Roller, book: RuleBook, speed: int | None = None
) -> Event | StrainResult:
    """The rolls of an hour of straining (R14), as the engine logs them: while the engine
    holds only its event, once it breaks the whole :class:`StrainResult`
    (:func:`strain_check` gives the result either way)."""
    _, die, mods, breaks_on, breaks_text, fire_on, fire_text = _terms(extra_knots, speed, book)
    roll = roller.roll(
        "engine strain",
        die,
        mods,
        target=breaks_on,
        success="the engine breaks",
        failure="the engine holds",
        target_text=breaks_text,
    )
    if not roll.success:
        return Event("strain", HOLDS, [roll], 0, {})
    fire = roller.roll(
        "engine fire",
        die,
        mods,
        target=fire_on,
        success="the engine catches fire",
        failure="no fire",
        target_text=fire_text,
    )
    if fire.success:
        text = "The engine breaks and catches fire."
        changes = {"engine_broken": True, "fire_starts": True}
    else:
        text = "The engine breaks."
        changes = {"engine_broken": True}
    return StrainResult(
        "strain", text, (roll, fire), changes, extra_knots, True, bool(fire.success)
    )


def strain_odds(extra_knots: int, book: RuleBook, speed: int | None = None) -> Fraction:
    """Exact chance the engine holds for an hour of straining (R14)."""
    rules = book.procedures["pace"]["strain"]
    mod = sum(m.value for m in strain_modifiers(extra_knots, speed, book))
    return 1 - odds(rules["die"], mod, int(rules["breaks_on"]), ">=")


def strain_fire_odds(extra_knots: int, book: RuleBook, speed: int | None = None) -> Fraction:
    """Exact chance an hour of straining ends with the engine on fire (breaks, then fire)."""
    rules = book.procedures["pace"]["strain"]
    mod = sum(m.value for m in strain_modifiers(extra_knots, speed, book))
    breaks = odds(rules["die"], mod, int(rules["breaks_on"]), ">=")
    return breaks * odds(rules["die"], mod, int(rules["fire_on"]), ">=")
