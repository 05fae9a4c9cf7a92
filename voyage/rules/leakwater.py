"""Water let in by leaks, to the minute (R36, R37, R86).

R36: a leak lets in its hlbs *an hour*; a leak opened during an hour counts from the minute
it opened, and one stopped at sea (R86) lets in its water up to the minute it was stopped.
The part of an hour gives a part of an hlb: 5 hlbs an hour for 35 minutes is 2 11/12 hlbs.

**Our reading**: water aboard is counted in whole hlbs, the unit of the rules (the Load,
R11; R37's thresholds; the hour rows' ``water``), and the part of an hlb left over is kept
exactly, in sixtieths of an hlb (one hlb-an-hour leak for one minute), in the voyage's
``more["water_part"]``: it joins the count as soon as it makes a whole hlb. Nothing is lost
to rounding from hour to hour: a 5 hlbs an hour leak opened at minute 25 and stopped at
minute 50 of the next hour lets in 2 11/12 + 4 1/6 = 7 1/12 hlbs, counted as 7 with 1/12
kept (before this, each part was rounded down on its own: 2 + 4 = 6).

Pumping (R85) or bailing (``act SHIP pump N``) that leaves no whole hlb aboard leaves none
at all: the part goes with the rest (:func:`pumped_dry`).
"""

from __future__ import annotations

from typing import Any

#: The voyage state's key (ShipState.more) for the part of an hlb aboard, in sixtieths.
PART = "water_part"
#: Sixtieths of an hlb in an hlb (a leak of 1 hlb an hour for one minute is one sixtieth).
SIXTIETHS = 60


def let_in(s: Any, sixtieths: int) -> int:
    """R36: ``sixtieths`` sixtieths of an hlb come aboard (hlbs an hour x minutes open).
    Whole hlbs join the ship's water, the rest is kept; returns the whole hlbs added."""
    if sixtieths <= 0:
        return 0
    whole, part = divmod(int(s.more.get(PART, 0)) + sixtieths, SIXTIETHS)
    if part:
        s.more[PART] = part
    else:
        s.more.pop(PART, None)
    s.ship.water += whole
    return whole


def hour_in(s: Any) -> int:
    """R36/R37 at the end of an hour: every leak lets in its hlbs for the hour, one opened
    during it (``s.new_leaks``: hlbs and minute) from the minute it opened; returns the
    whole hlbs added (the part is kept: :func:`let_in`)."""
    sixtieths = sum(s.leaks) * SIXTIETHS
    for leak, minute in s.new_leaks:
        sixtieths -= leak * minute
    return let_in(s, sixtieths)


def stopped_in(s: Any, hlbs: int, minute: int) -> int:
    """R86: a leak of ``hlbs`` an hour stopped at ``minute`` of the hour lets in its water
    from the start of the hour up to that minute."""
    return let_in(s, hlbs * minute)


def part_of(s: Any) -> int:
    """The sixtieths of an hlb aboard beyond the whole hlbs (0 for a ship with no voyage)."""
    more = getattr(s, "more", None) or {}
    return int(more.get(PART, 0))


def pumped_dry(s: Any) -> None:
    """R85/R86: pumps or bailing that leave no whole hlb aboard leave no part either."""
    if s is not None and s.ship.water <= 0 and getattr(s, "more", None):
        s.more.pop(PART, None)
