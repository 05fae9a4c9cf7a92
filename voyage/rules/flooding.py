"""Flooding (R37): how much water a ship can hold before it may capsize, lists or sinks.

No dice here: the state follows from the water aboard and the ship's Deadweight. The
thresholds are fractions of Deadweight in ``procedures.flooding``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from voyage.base.errors import VoyageError
from voyage.tables.rulebook import RuleBook

NONE = "none"
CAPSIZE_HOURLY = "capsize_hourly"
LISTING = "listing"
SINKING = "sinking"
FLOODING_STATES = (NONE, CAPSIZE_HOURLY, LISTING, SINKING)


@dataclass(frozen=True)
class FloodingState:
    """Where a ship stands with the water aboard (R37).

    ``state`` is one of ``none``, ``capsize_hourly``, ``listing``, ``sinking``;
    ``capsize_every_minutes`` is how often it may capsize (None when it need not check, or
    when it is already sinking).
    """

    state: str
    water: float
    deadweight: float
    text: str
    capsize_every_minutes: int | None
    listing: bool
    sinking: bool


def flooding_thresholds(deadweight: float, book: RuleBook) -> dict[str, Fraction]:
    """The water (hlbs) a ship must exceed for each state (R37): capsize_hourly, listing,
    sinking."""
    rules = book.procedures["flooding"]
    dw = Fraction(deadweight).limit_denominator(10**6)
    return {
        CAPSIZE_HOURLY: dw * Fraction(rules["capsize_hourly_above"]).limit_denominator(1000),
        LISTING: dw * Fraction(rules["listing_above"]).limit_denominator(1000),
        SINKING: dw * Fraction(rules["sinking_above"]).limit_denominator(1000),
    }


def flooding_state(water: float, deadweight: float, book: RuleBook) -> FloodingState:
    """The flooding state of a ship with ``water`` hlbs aboard and ``deadweight`` (R37).

    Above one-tenth of Deadweight it may capsize every hour; above one-quarter it lists and
    may capsize every 10 minutes; above half it lists and begins sinking at once.
    """
    if water < 0:
        raise VoyageError(f"water aboard cannot be negative ({water} hlbs)")
    if deadweight <= 0:
        raise VoyageError(f"deadweight must be above 0 hlbs, not {deadweight}")
    rules = book.procedures["flooding"]
    # memoised on everything it reads (the engine asks every hour of a flooded ship, and a
    # forecast thousands of times): the state is frozen, so sharing it is safe
    return _flooding_state(
        water,
        deadweight,
        rules["capsize_hourly_above"],
        rules["listing_above"],
        rules["sinking_above"],
        int(rules.get("listing_check_minutes", 10)),
    )


@lru_cache(maxsize=4096)
def _flooding_state(
    water: float, deadweight: float, hourly: Any, listing: Any, sinking: Any, every: int
) -> FloodingState:
    dw = Fraction(deadweight).limit_denominator(10**6)
    limits = {
        CAPSIZE_HOURLY: dw * Fraction(hourly).limit_denominator(1000),
        LISTING: dw * Fraction(listing).limit_denominator(1000),
        SINKING: dw * Fraction(sinking).limit_denominator(1000),
    }
    amount = Fraction(water).limit_denominator(10**6)
    shown = f"{water:g} hlbs of water aboard"
    if amount > limits[SINKING]:
        # R37: above DW/2 the ship lists and begins sinking at once (R40).
        text = f"{shown} (over {float(limits[SINKING]):g}): the ship lists and begins sinking"
        return FloodingState(SINKING, water, deadweight, text, None, True, True)
    if amount > limits[LISTING]:
        text = (
            f"{shown} (over {float(limits[LISTING]):g}): the ship is listing and may "
            f"capsize every {every} minutes"
        )
        return FloodingState(LISTING, water, deadweight, text, every, True, False)
    if amount > limits[CAPSIZE_HOURLY]:
        text = f"{shown} (over {float(limits[CAPSIZE_HOURLY]):g}): the ship may capsize every hour"
        return FloodingState(CAPSIZE_HOURLY, water, deadweight, text, 60, False, False)
    text = f"{shown}: not enough to unbalance the ship"
    return FloodingState(NONE, water, deadweight, text, None, False, False)
