"""`voyage act SHIP abandon` on her voyage (R71), and what becomes of the hull (R40, R50).

All hands leave her as R71 says (voyage.people.abandon: rafts four to a raft, jackets to
non-swimmers first, the rest in the water; no roll). A sound ship floats on, abandoned,
and her voyage ends. A ship already sinking (R40), or whose fire is out of control (R50),
is not saved by being left, nor lost any sooner: her clock runs on, with nobody aboard to
work her (the voyage stays open, adrift where she was under way), and the next advance
logs her going under at its minute, as for any ship (R52). The referee may still declare
her saved (`act SHIP saved`, R40).
"""

from __future__ import annotations

from typing import Any


def count_ends_at(since: int | None, left: int, clock: int) -> int:
    """The campaign minute a countdown of ``left`` minutes begun at minute ``since`` runs
    out (a sinking, R40; a fire swallowing her, R50), the clock standing at hour ``clock``:
    it falls a minute at a time after the minute it began (voyage.rules.emergency), from
    the clock's first minute on."""
    return max(int(since or 0), clock * 60 - 1) + int(left)


def abandon_voyage(camp: Any, ship: Any, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:
    """R71 for the open voyage ``s``: (log text, changes). The people leave her; a sinking
    or fire-swallowed ship keeps her clock (module docstring)."""
    from .people import abandon

    text, changes = abandon(camp, ship, s.hex, chart, s.voyage_id)
    s.searching = False
    if s.sinking_in is None and s.swallow_in is None:
        s.status = "abandoned"
        s.fire = 0
        return text, changes
    if s.status == "under way":
        s.status = "adrift"  # nobody aboard to work her (R70, voyage.crewless)
    if s.sinking_in is not None:
        minute = count_ends_at(s.sinking_since, s.sinking_in, camp.clock)
        text += (
            f" Nobody aboard, she sinks on: she goes under at {_at(camp, minute)} unless the "
            "referee declares her saved (R40); the next advance runs her clock."
        )
        return text, {**changes, "status": s.status, "goes_under": minute}
    minute = count_ends_at(s.fire_since, s.swallow_in, camp.clock)
    text += (
        " Nobody aboard, the fire burns on out of control: it swallows her at "
        f"{_at(camp, minute)} and she sinks (R50, R40); the next advance runs its clock."
    )
    return text, {**changes, "status": s.status, "swallowed": minute}


def _at(camp: Any, minute: int) -> str:
    """A campaign minute as people read it: ``Day 1, 03:08``."""
    from .voyages import clock_text

    return clock_text(camp, minute // 60, minute % 60)
