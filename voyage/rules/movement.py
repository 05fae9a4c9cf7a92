"""Pace limits (R14, R15) and changing declared movement in ship combat (R53).

Speed and Fuel Use themselves (R13, R16) are worked out in voyage/ships.py; these helpers
take the ship's Speed as a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from voyage.base.errors import VoyageError
from voyage.dice.events import Outcome
from voyage.dice.roller import CheckOptions, Modifier, Roller, check_odds
from voyage.rules.common import check_count, check_tier
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class MovementChangeResult(Outcome):
    """R53: ``secret`` is True when the change stays secret; False: declared publicly."""

    secret: bool


def strain_limit(speed: int, book: RuleBook) -> int:
    """R14: the most knots a ship may strain over its Speed (half its Speed, rounded down)."""
    check_count(speed, "speed")
    rule = book.procedures["pace"]["strain"]["max_extra"]
    if rule == "half_speed":
        return speed // 2
    if isinstance(rule, int) and not isinstance(rule, bool):
        return rule
    raise VoyageError(f"pace.strain.max_extra must be half_speed or a number, not {rule!r}")


def slow_ahead_speed(speed: int, book: RuleBook) -> int:
    """R15: the speed of a ship travelling slow ahead (half its Speed, rounded down)."""
    check_count(speed, "speed")
    return speed // int(book.procedures["pace"]["slow"]["speed_divisor"])


def change_movement_check(
    tier: int,
    roller: Roller,
    modifiers: Sequence[Modifier] = (),
    advantages: Sequence[str] = (),
    disadvantages: Sequence[str] = (),
) -> MovementChangeResult:
    """R53: a Check with DV equal to the ship's Tier to change declared movement secretly.
    On a failure the change is declared publicly and every other ship may rewrite its
    orders."""
    tier = check_tier(tier)
    roll = roller.check(
        "change declared movement",
        tier,
        modifiers,
        advantages,
        disadvantages,
        success="kept secret",
        failure="declared publicly",
    )
    if roll.success:
        text = "The ship changes course in secret."
        return MovementChangeResult("movement", text, (roll,), {}, True)
    text = (
        "The change of course is seen: it is declared publicly, and every other ship may "
        "rewrite its orders."
    )
    return MovementChangeResult("movement", text, (roll,), {"declared_publicly": True}, False)


def change_movement_odds(
    tier: int,
    modifier: int = 0,
    advantage: int = 0,
    options: CheckOptions | None = None,
) -> Fraction:
    """Exact chance the R53 Check keeps the change secret."""
    return check_odds(check_tier(tier), modifier, advantage, options)
