"""Ramming (R35): a d12 (d20 if Ram-bowed) over the relative speed avoids damage.

On a failure the ship is hit by an Explosion (0/1/1 yd) whose weapon modifier is the margin
of failure (relative speed - roll), and the ship is in its lethal zone: a hull hit (R36),
a leak and the Explosion check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from voyage.dice.events import Outcome
from voyage.dice.roller import Roller, odds
from voyage.rules.common import check_count, check_tier, trait_effects
from voyage.rules.hull import HullHitResult, hull_hit
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class RamResult(Outcome):
    """A ramming roll; on a failure ``hit`` is the hull hit (leak and Explosion check)."""

    damaged: bool
    margin: int
    hit: HullHitResult | None
    destroyed: bool


def ram_die(traits: Sequence[str], book: RuleBook) -> str:
    """The ramming die: ``ram.die`` (d12), or a trait's ``ram_die`` (Ram-bowed: d20)."""
    dice = [str(v) for _, v in trait_effects(book, traits, "ram_die")]
    return dice[-1] if dice else str(book.procedures["ram"]["die"])


#: :func:`ram_die` by (rule book, traits), with the book it was read from
_DICE: dict[tuple[int, tuple[str, ...]], tuple[RuleBook, str]] = {}


def _ram_die(traits: Sequence[str], book: RuleBook) -> str:
    """:func:`ram_die`, worked out once per book and traits (R35: every grounding on a
    damaging seabed rams it)."""
    key = (id(book), tuple(traits))
    found = _DICE.get(key)
    if found is None or found[0] is not book:
        die = ram_die(traits, book)  # an unknown trait is refused here, before any dice
        if len(_DICE) >= 256:
            _DICE.clear()
        found = _DICE[key] = (book, die)
    return found[1]


def ram(
    tier: int,
    relative_speed: int,
    roller: Roller,
    book: RuleBook,
    traits: Sequence[str] = (),
    what: str = "the obstacle",
) -> RamResult:
    """The ship rams ``what`` at ``relative_speed`` knots (R35)."""
    tier = check_tier(tier)
    check_count(relative_speed, "relative speed")
    roll = roller.roll(
        f"ramming {what}",
        _ram_die(traits, book),
        target=relative_speed,
        compare=">",
        success="no damage",
        failure="damaged",
        target_text=f"needs over {relative_speed} (relative speed)",
    )
    if roll.success:
        text = f"The ship rams {what} without damage."
        return RamResult("ram", text, (roll,), {}, False, 0, None, False)
    margin = relative_speed - roll.total
    # R35: the ramming ship is in its own Explosion's lethal zone (ram.zone)
    zone = str(book.procedures["ram"].get("zone", "lethal"))
    hit = hull_hit(tier, margin, roller, book, explosion=True, zone=zone)
    text = (
        f"The ship rams {what} and is hit by an Explosion (0/1/1 yd) with a modifier of "
        f"{margin:+d}, in its {zone} zone. {hit.text}"
    )
    return RamResult(
        "ram", text, (roll, *hit.rolls), dict(hit.changes), True, margin, hit, hit.destroyed
    )


def ram_odds(relative_speed: int, book: RuleBook, traits: Sequence[str] = ()) -> Fraction:
    """Exact chance the ramming ship takes no damage (R35): the die rolls over the speed."""
    check_count(relative_speed, "relative speed")
    return odds(ram_die(traits, book), 0, relative_speed, ">")
