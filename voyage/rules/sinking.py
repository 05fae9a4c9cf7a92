"""Sinking (R40), and what makes a ship sink at once (R12 over 2x Deadweight, R37 water
above half its Deadweight).

A sinking ship submerges completely after ``sinking.dice`` (3d6) + Tier minutes, and twice
as long when its Load is at Half or less (``sinking.slow_load_categories``), unless the crew
can save it (the referee says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Outcome
from voyage.dice.roller import Modifier, Roller, distribution
from voyage.rules.common import check_tier, load_category, tier_text
from voyage.rules.flooding import flooding_state
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class SinkingResult(Outcome):
    """How long a sinking ship stays afloat: ``minutes`` until it is gone."""

    minutes: int
    doubled: bool


def _sinking_terms(tier: int, load: str, book: RuleBook) -> tuple[Modifier, int, bool]:
    tier = check_tier(tier)
    rules = book.procedures["sinking"]
    category = load_category(book, load)
    slow = category["name"] in rules["slow_load_categories"]
    multiplier = int(rules["slow_multiplier"]) if slow else 1
    return Modifier(tier, tier_text(tier)), multiplier, slow


def sinking_time(
    tier: int, load: str, roller: Roller, book: RuleBook, aboard: Any = None
) -> SinkingResult:
    """Roll how many minutes a sinking ship takes to submerge completely (R40). ``aboard``:
    the ship, for who is aboard her (its ``crew`` and ``passengers``), else unknown."""
    mod, multiplier, slow = _sinking_terms(tier, load, book)
    label = "sinking time"
    roll = roller.roll(label, book.procedures["sinking"]["dice"], [mod])
    minutes = roll.total * multiplier
    if slow:
        cat = load_category(book, load)["label"]
        roll.outcome = f"x{multiplier} at {cat} Load = {minutes} minutes"
    else:
        roll.outcome = f"{minutes} minutes"
    text = sinking_words(minutes, aboard)
    changes = {"sinking": True, "submerges_in": minutes}
    return SinkingResult("sinking", text, (roll,), changes, minutes, slow)


def sinking_words(minutes: int, aboard: Any = None) -> str:
    """What a sinking means for her (R40), by who is aboard (``aboard``: the ship, or None):
    her crew may save her; with no crew (abandoned, R71, or a derelict: our reading of R70
    in docs/rulings.md, "A ship with no crew") nobody works her, and it said "Unless the
    crew can save her" all the same."""
    crew = getattr(aboard, "crew", None)
    if crew is None or crew >= 1:
        return f"Unless the crew can save her, the ship submerges completely in {minutes} minutes."
    who = "no crew" if getattr(aboard, "passengers", 0) else "nobody"
    return f"The ship goes under in {minutes} minutes, {who} aboard to save her."


def sinking_distribution(tier: int, load: str, book: RuleBook) -> dict[int, Fraction]:
    """Exact distribution of the minutes a sinking ship stays afloat (R40)."""
    mod, multiplier, _ = _sinking_terms(tier, load, book)
    base = distribution(book.procedures["sinking"]["dice"])
    return {(k + mod.value) * multiplier: p for k, p in sorted(base.items())}


def sinking_odds(tier: int, load: str, minutes: int, book: RuleBook) -> Fraction:
    """Exact chance the ship is still afloat after ``minutes`` minutes (it takes longer)."""
    return sum(
        (p for m, p in sinking_distribution(tier, load, book).items() if m > minutes),
        Fraction(0),
    )


def sinking_reasons(load_hlbs: float, deadweight: float, water: float, book: RuleBook) -> list[str]:
    """Why a ship must begin sinking at once, if it must: R12 a Load over 2x Deadweight;
    R37 water aboard above half its Deadweight. Empty when it floats."""
    reasons = []
    multiple = book.load["sink_multiple"]
    if load_hlbs > multiple * deadweight:
        reasons.append(
            f"a Load of {load_hlbs:g} hlbs is more than {multiple:g}x its Deadweight "
            f"({multiple * deadweight:g} hlbs)"
        )
    flood = flooding_state(water, deadweight, book)
    if flood.sinking:
        reasons.append(flood.text)
    return reasons
