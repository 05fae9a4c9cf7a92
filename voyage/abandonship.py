"""`voyage act SHIP abandon` on her voyage (R71), and what becomes of the hull (R40, R50).

All hands leave her as R71 says (voyage.people.abandon: rafts four to a raft, jackets to
non-swimmers first, the rest in the water; no roll). A sound ship floats on, abandoned,
and her voyage ends. A ship already sinking (R40), or whose fire is out of control (R50),
is not saved by being left, nor lost any sooner: her clock runs on, with nobody aboard to
work her (the voyage stays open, adrift where she was under way), and the next advance
logs her going under at its minute, as for any ship (R52). A fire still under control
burns on too: it was the crew who kept it down (R50: they fight it only with as many hands
as its severity, and a firehose needs hands at it, our reading of R70 in docs/rulings.md,
"A ship with no crew"); left alone it spreads on its 2-in-6 each minute until it passes
her Tier and swallows her (R50, R40). It no longer went out when her people left. The
referee may still declare her saved (`act SHIP saved`, R40).
"""

from __future__ import annotations

from typing import Any


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


def abandon_voyage(camp: Any, ship: Any, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:
    """R71 for the open voyage ``s``: (log text, changes). The people leave her; a sinking
    or burning ship keeps her clock (module docstring)."""
    from .people import abandon

    text, changes = abandon(camp, ship, s.hex, chart, s.voyage_id)
    s.searching = False
    if s.sinking_in is None and s.swallow_in is None and not s.fire:
        s.status = "abandoned"
        return text, changes
    if s.status == "under way":
        s.status = "adrift"  # nobody aboard to work her (R70, voyage.crewless)
    changes = {**changes, "status": s.status}
    if s.sinking_in is not None:
        minute = count_ends_at(s.sinking_since, s.sinking_in, camp.clock)
        text += (
            f" Nobody is aboard to save her: she goes under at {_at(camp, minute)} (R40: "
            "unless the referee declares her saved; the next advance runs her clock)."
        )
        return text, {**changes, "goes_under": minute}
    if s.swallow_in is not None:
        minute = count_ends_at(s.fire_since, s.swallow_in, camp.clock)
        text += (
            " Nobody aboard, the fire burns on out of control: it swallows her at "
            f"{_at(camp, minute)} and she sinks (R50, R40; the next advance runs its clock)."
        )
        return text, {**changes, "swallowed": minute}
    return text + " " + burning_on(camp, s), {**changes, "fire": s.fire}


def burning_on(camp: Any, s: Any) -> str:
    """The fire under control in her voyage ``s``, left with nobody to fight it (R50, R70):
    ``Nobody is aboard to fight the fire (severity 2): it burns on, and will grow out of
    control and swallow her (R50, R40: it spreads on a 2-in-6 each minute; past her Tier,
    IV, it swallows her in 2d6 minutes; the next advance runs it).`` It can only grow: the
    crew's 4-in-6 is what brought it down. The mechanics sit in the ruling's parenthesis,
    which the players' share leaves out (voyage.chronicle.for_players)."""
    from .rules.fire import spread_in_6
    from .tiers import roman

    book = camp.rulebook
    spread = spread_in_6(s.ship.traits, book)
    swallow = book.procedures["fire"]["swallow_dice"]
    return (
        f"Nobody is aboard to fight the fire (severity {s.fire}): it burns on, and will grow "
        f"out of control and swallow her (R50, R40: it spreads on a {spread}-in-6 each minute; "
        f"past her Tier, {roman(s.ship.tier)}, it swallows her in {swallow} minutes; the next "
        "advance runs it)."
    )


def left_outcome(log: Any, where: str) -> str | None:
    """How an open voyage stands whose people abandoned her (R71) while she sank or burned
    (voyage.export.VoyageLog ``log``; ``where``: ``hex 1005``), for the export's outcome:
    ``abandoned and sinking in hex 1005, going under at Day 1, 06:13`` (it read
    "adrift in hex 1005"); None when nobody abandoned her."""
    if not any(e.get("kind") == "abandon" for e in log.events):
        return None
    from .export import clock_text

    state = log.voyage.get("state")
    state = state if isinstance(state, dict) else {}
    clock = int(log.clock or 0)

    def at(since: Any, left: Any) -> str:
        minute = count_ends_at(since, int(left), clock)
        return clock_text(minute // 60, log.calendar, minute % 60)

    if state.get("sinking_in") is not None:
        going = at(state.get("sinking_since"), state["sinking_in"])
        return f"abandoned and sinking in {where}, going under at {going}"
    if state.get("swallow_in") is not None:
        going = at(state.get("fire_since"), state["swallow_in"])
        return (
            f"abandoned and burning out of control in {where}, the fire swallowing her at {going}"
        )
    if state.get("fire"):
        return f"abandoned and on fire in {where}, nobody aboard to fight it"
    return f"abandoned, adrift in {where}"


def _at(camp: Any, minute: int) -> str:
    """A campaign minute as people read it: ``Day 1, 03:08``."""
    from .voyages import clock_text

    return clock_text(camp, minute // 60, minute % 60)
