"""The engine and a ship with no crew (R70, *our reading*: docs/rulings.md, "A ship with no
crew"; voyage.actions.crewless refuses the referee's actions that need her hands).

What the engine does each hour by the hands of her crew waits for crew as the referee's
actions do:

- she makes no way of her own: :func:`no_hands`, at the start of every advance, lays a
  crewless ship under way adrift (R64) and ends her search (R74), one event each saying why
  (a campaign from before this rule, or a path that took her last crewman off without
  saying so); a stuck ship got off with nobody aboard (R34's ``refloat``, R83's salvage
  crew) lies adrift too (voyage.actions.crewless.adrift_now);
- she does not try to get herself off when stuck aground (R34: the try is her crew working
  her engine, or her kedge; the Boats in Car Wars roll that R83 modifies by her
  propellers): she waits for the referee (``act SHIP refloat``) or a port's salvage crew
  (R83) (voyage.engine.clock's start of the hour);
- nobody switches her bilge pumps on (R85: the crew switch them; voyage.rules.pumps), and
  pumps already running are not switched off after a dry hour either;
- nobody works on a leak (R86): work begun stops, one event (voyage.rules.leakwork);
- nobody fights a fire, and a firehose needs hands at it (R50: it counts as one crew among
  those fighting, voyage.rules.fire.firefighters); the referee's ``fight-fire --crew N``
  counts only people still aboard (voyage.rules.emergency).

What a hull does with nobody aboard goes on: drift (R64), anchors and tow lines parting
(R65, R92), flooding, capsizing, fire spreading and sinking (R36-R50).
"""

from __future__ import annotations

from typing import Any

from voyage.actions.crewless import SEARCH_ENDS, adrift_words, lie_adrift


def no_hands(engine: Any, clock: int, events: list[Any]) -> None:
    """The start of an advance from ``clock`` (voyage.engine.clock.Engine.run): each ship with no
    crew that is under way lies adrift, and one searching ends her search
    (voyage.actions.crewless.lie_adrift), with one event saying why. Cheap: one look at each ship's
    crew, once an advance."""
    for s in engine.states:
        if s.ship.crew < 1 and (s.status == "under way" or s.searching):
            under_way, searched = s.status == "under way", s.searching
            lie_adrift(s)
            name, ends = s.ship.name, SEARCH_ENDS
            if under_way:
                text = f"{name} has no crew: {adrift_words(s.ship, s.hex)}"
                text += f" Her {ends}" if searched else ""
            else:  # anchored or adrift, searching her hex
                text = f"{name} has no crew: her {ends}"
            from voyage.dice.events import Event, LoggedEvent

            event = Event(
                "drift" if under_way else "search",
                text,
                [],
                0,
                {"status": s.status, "searching": False},
            )
            events.append(LoggedEvent(s.voyage_id, name, clock, event))
