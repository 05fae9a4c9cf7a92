"""The warning a route for a built boat's draft needs (R83): her route has to cross charted
water shallower than her draft (the chart that routes her round it where it can is
voyage.rules.shoals)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voyage.rules.shoals import boat_shoals
from voyage.store.mapstore import campaign_chart
from voyage.vessels.boatpower import draft_ft


def shoal_warning(camp: Any, chart: Any, ship: Any, route: Sequence[str]) -> str | None:
    """One line when ``ship``'s route has to cross a hex shallower than her draft (R83)."""
    if ship.design is None:
        return None
    if chart is None:
        chart, _ = campaign_chart(camp)
    book = camp.rulebook
    shoals = set(boat_shoals(chart, ship, book))
    crossed = [h for h in route[1:] if h in shoals]
    if not crossed:
        return None

    first = crossed[0]
    more = f" (and {len(crossed) - 1} more)" if len(crossed) > 1 else ""
    return (
        f"Warning: her route crosses {first}{more}, charted "
        f"{chart.hex(first).depth:g} ft, shallower than her {draft_ft(ship, book):g} ft "
        f"draft: she will run aground there (R83)."
    )
