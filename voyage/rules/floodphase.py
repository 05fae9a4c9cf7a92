"""The engine's flooding phase: R37 and R12 for a rolled ship, R85 for a built boat.

Called by voyage.engine.clock at the start and end of a ship's hour (and whenever the water
changes); what a ship's water does is hers to say (the one vessel interface), so the
engine only asks this module.
"""

from __future__ import annotations

from typing import Any

from voyage.rules.boatwater import boat_flooding
from voyage.rules.flooding import flooding_state
from voyage.rules.sinking import sinking_reasons
from voyage.vessels.boatpower import is_built


def r37_water(ship: Any) -> int:
    """The water R37's capsize triggers count: all of it, except in a built boat (R85)."""
    return 0 if is_built(ship) else int(ship.water)


def flooding(h: Any) -> None:
    """R37 and R12: list above DW/4, sink above DW/2 or with a Load over 2xDW (R85 instead
    for a built boat: voyage.rules.boatwater)."""
    s, ship = h.s, h.ship
    if s.status == "sunk":
        return
    if is_built(ship):
        boat_flooding(h)
        return
    dw = h.e._dw[ship.name]
    if s.sinking_in is None:
        reasons = sinking_reasons(h.e.load(s), dw, ship.water, h.book)
        if reasons:
            if flooding_state(ship.water, dw, h.book).listing and not s.listing:
                # R37: above DW/2 she lists as well; if she is saved she goes on
                # listing (and checking every 10 minutes) until she is pumped out
                s.listing, s.listing_since = True, h.now
            h.begin_sinking("; ".join(reasons) + " (R12, R37)")
    listing = flooding_state(ship.water, dw, h.book).listing
    if listing and not s.listing:
        s.listing = True
        s.listing_since = h.now
        h.note(
            "listing",
            f"{ship.name} lists: {ship.water} hlbs of water aboard is "
            f"over a quarter of her Deadweight ({dw}); she may capsize every 10 "
            "minutes (R37).",
            "listing",
            {"listing": True},
        )
    elif not listing and s.listing and s.sinking_in is None:
        s.listing = False
        s.listing_since = None
        h.note(
            "listing",
            f"{ship.name} rights herself: she no longer lists.",
            changes={"listing": False},
        )
