"""An emergency aboard, minute by minute (R52), for the engine's ship-hour
(voyage.engine.clock._ShipHour).

While a fire, a listing or a sinking is under way the engine steps the hour minute by
minute (:func:`emergency_minutes`, the loop over the minutes of such an hour); each minute
(:func:`emergency_minute`) a sinking ship counts down (R40), a fire out of control counts
down to swallowing her (R50) or else spreads and is fought (R50), and a listing ship may
capsize every 10 minutes (R37).
"""

from __future__ import annotations

from typing import Any

from voyage.rules.fire import fire_minute
from voyage.rules.stores import working_crew
from voyage.vessels.stores import store_rules


def emergency_minute(h: Any) -> None:
    """One minute of an emergency for the ship-hour ``h`` (voyage.engine.clock._ShipHour): fire
    (R50), listing (R37), sinking (R40)."""
    s, ship, now = h.s, h.ship, h.now
    if s.sinking_in is not None and s.sinking_since is not None and now > s.sinking_since:
        s.sinking_in -= 1
        if s.sinking_in <= 0:
            h.sunk()
            return
    if s.swallow_in is not None and s.fire_since is not None and now > s.fire_since:
        s.swallow_in -= 1
        if s.swallow_in <= 0:
            s.swallow_in = None
            s.fire = 0
            s.fire_since = None
            s.destroyed = True
            h.note(
                "fire",
                f"The flames swallow {ship.name}: she is destroyed (R50).",
                "destroyed",
                {"destroyed": True},
            )
            h.begin_sinking("the fire swallowed her (R50)")
    elif s.fire and s.fire_since is not None and now > s.fire_since:
        # R50: her crew fight it, or the referee's number (fight-fire --crew N) of those
        # still aboard (R70: taken off since, they fight no more)
        crew = ship.crew if s.fire_crew is None else min(s.fire_crew, ship.crew + ship.passengers)
        full = crew
        if ship.stores is not None:  # R102: a thirsty crew count half
            crew = working_crew(crew, ship.stores, store_rules(h.book))
        result = fire_minute(
            s.fire,
            ship.tier,
            crew,
            h.roller,
            h.book,
            ship.traits,
            bool(ship.equipment.get("firehose")),
        )
        s.fire = result.severity
        event = result.event()
        if crew != full:
            event.text += f" (R102: thirsty, her {full} fighting count as {crew}.)"
        if result.out_of_control:
            s.swallow_in = result.swallowed_in
            s.fire_since = now
            h.log(event, "fire")
        else:
            h.log(event)
        if result.out:
            s.fire = 0
            s.fire_since = None
    if (
        s.listing
        and s.listing_since is not None
        and now > s.listing_since
        and (now - s.listing_since) % h.e._listing_every == 0
        and not s.capsized
        and s.sinking_in is None
    ):
        h.capsize("listing")  # R37: a listing ship may capsize every 10 minutes


#: voyage.engine.clock.OPEN_STATUSES and the statuses that end a voyage's stepping (as
#: ShipState.active reads them; tests/test_emergency_minutes.py checks they are the engine's)
OPEN = ("under way", "anchored", "stuck", "adrift", "under tow")
ENDED = ("sunk", "abandoned")
MINUTES = 60


def emergency_minutes(h: Any, entries: list[int], i: int) -> int:
    """The minutes of the ship-hour ``h`` (voyage.engine.clock._ShipHour.finish) from its ``i``-th
    hex entry (``entries``: their minutes, R31) while she is stepped (ShipState.active) and
    an emergency runs (R52: minute by minute, :func:`emergency_minute`) or hexes are still
    to enter; the index of the next entry. ShipState.active and .emergency are read inline
    (properties, asked every minute of every fire, listing and sinking)."""
    s = h.s
    count = len(entries)
    while h.minute < MINUTES:
        status = s.status
        emergency = s.fire or s.swallow_in is not None or s.sinking_in is not None or s.listing
        if status in ENDED or not (status in OPEN or s.leaks or emergency):
            break  # no longer stepped (not ShipState.active)
        if emergency:
            emergency_minute(h)
        elif not (h.moving and i < count):
            break
        while i < count and entries[i] <= h.minute and h.moving:
            h.enter_hex()
            i += 1
        if s.fire or s.swallow_in is not None or s.sinking_in is not None or s.listing:
            h.minute += 1  # R52: step minute by minute while an emergency runs
        elif h.moving and i < count:
            h.minute = max(h.minute, entries[i])
    return i


def count_ends_at(since: int | None, left: int, clock: int) -> int:
    """The campaign minute a countdown of ``left`` minutes begun at minute ``since`` runs
    out (a sinking, R40; a fire swallowing her, R50), the clock standing at hour ``clock``:
    it falls a minute at a time after the minute it began (voyage.rules.emergency), from
    the clock's first minute on."""
    return max(int(since or 0), clock * 60 - 1) + int(left)


def minutes_left(since: int | None, left: int, clock: int) -> int:
    """How many minutes after the clock's hour ``clock`` (its minute 0) that countdown runs
    out: the minute the log will give, less now. A countdown carried over from the hour
    before has already been stepped to that hour's last minute, so it is one less than
    ``left`` (the status table said "sinking (9 min)" at 03:00 for a ship that goes under
    at 03:08); one begun at the clock by a referee's action is ``left`` itself."""
    return count_ends_at(since, left, clock) - clock * 60
