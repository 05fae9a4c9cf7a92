"""A searching ship at the end of the hour she takes people aboard (R74), for the engine's
water phase (voyage.world.waterphase), which runs after every ship's hour:

- her hour row was written before the water phase: :func:`restate_row` makes it show her at
  the end of the hour, the people taken aboard counted in her Load (R11) and its category
  (R12), as the row of any other hour shows her;
- the search ends when nobody is left afloat in her hex (R74): :func:`end_search` ends it
  in the hour the last of them comes aboard, not an hour later.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from voyage.base.text import plain
from voyage.dice.events import Event


def restate_row(engine: Any, s: Any, rows: Sequence[Any]) -> None:
    """Her hour row (in ``rows``, this hour's) with her Load now, as the engine's row
    gives it (voyage.engine.clock.Engine.row_load: a tow counted, R92) and its category."""
    for row in rows:
        if row.ship == s.ship.name and row.voyage_id == s.voyage_id:
            row.load = plain(engine.row_load(s))
            row.load_category = engine.category(s)


def end_search(phase: Any, s: Any, rows: Sequence[Any]) -> None:
    """R74: she has searched this hour and nobody is left afloat in her hex: the search is
    over now (she makes way again from the next hour, or lies there: arrived)."""
    if not s.searching or any(f.afloat and f.hex == s.hex for f in rows):
        return
    s.searching = False
    phase.log(
        s.ship.name,
        Event(
            "search",
            f"Nobody is left afloat in {s.hex}: {s.ship.name}'s search is over (R74).",
        ),
        voyage_id=s.voyage_id,
    )
