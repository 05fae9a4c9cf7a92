"""A ship with no crew (R70, *our reading*: docs/rulings.md, "A ship with no crew"): what
needs hands aboard, the one spelling of what she does instead, and the engine's phase of it.

Her crew work her (R70 counts them apart from her passengers): a ship with no crew -
abandoned (R71) and put back on the map with `voyage ship place`, or loaded with `--crew 0` -
cannot sail, search (R74), drop or weigh anchor, moor, steer a new course, jettison, pump or
bail, throw the pumps' switch, dive or surface (R84), take another ship in tow (R92), or work
on her engine or a leak at sea (R86) (:func:`crew_work`, :func:`no_crew`; the referee's
actions are refused by voyage.actions.crewless); with nobody aboard at all there is nobody
to abandon her (R71). Each refusal names the fix: put crew aboard.

What the engine does each hour by the hands of her crew waits for crew as the referee's
actions do:

- she makes no way of her own: :func:`no_hands`, at the start of every advance, lays a
  crewless ship under way adrift (R64) and ends her search (R74), one event each saying why
  (a campaign from before this rule, or a path that took her last crewman off without
  saying so); a stuck ship got off with nobody aboard (R34's ``refloat``, R83's salvage
  crew) lies adrift too (:func:`adrift_now`);
- she does not try to get herself off when stuck aground (R34: the try is her crew working
  her engine, or her kedge; the Boats in Car Wars roll that R83 modifies by her
  propellers): she waits for the referee (``act SHIP refloat``) or a port's salvage crew
  (R83) (voyage.engine.clock's start of the hour, voyage.engine.quickhour);
- nobody switches her bilge pumps on (R85: the crew switch them; voyage.rules.pumps), and
  pumps already running are not switched off after a dry hour either;
- nobody works on a leak (R86): work begun stops, one event (voyage.rules.leakwork);
- nobody fights a fire, and a firehose needs hands at it (R50: it counts as one crew among
  those fighting, voyage.rules.fire.firefighters); the referee's ``fight-fire --crew N``
  counts only people still aboard (voyage.rules.emergency).

What a hull does with nobody aboard goes on: drift (R64), anchors and tow lines parting
(R65, R92), flooding, capsizing, fire spreading and sinking (R36-R50); she may be towed
(R92), rescued into or searched for, and the referee may still declare her saved (R40) or
got off (R34); in a port the port's people refuel, recharge, repair and salvage her.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.dice.events import Event, LoggedEvent

#: What a crewless hull does instead of what was asked (R64, R92).
ONLY_DRIFTS = "she only drifts, R64, or is towed, R92"


def no_crew(ship: Any, work: str, why: str = "") -> VoyageRuleError:
    """The refusal: ``Gull has no crew to drop anchor (…): `voyage ship load 'Gull' --crew
    N``` - one line saying why and what the referee can do (put crew aboard)."""
    note = f" ({why})" if why else ""
    return VoyageRuleError(
        f"{ship.name} has no crew to {work}{note}: `voyage ship load {ship.name!r} --crew N`"
    )


def crew_work(what: str, target: str | None, s: Any, in_port: bool) -> str | None:
    """The work action ``what`` (voyage.actions.voyages.ACTIONS) asks of her crew, in words, or None
    where it needs none of her own hands (the referee's word, a port's people, another
    ship's crew). ``s`` is her open voyage or None; ``in_port``: she lies in a port hex."""
    if what in ("anchor", "weigh", "course", "dive", "surface", "tow") and s is None:
        return None  # not at sea: the action's own refusal says so
    if what == "anchor":
        return "moor her" if in_port else "drop anchor"
    if what == "weigh":
        return "weigh anchor" if s.status == "anchored" else "get her under way"
    if what == "repair" and target in ("engine", "leak") and not in_port:
        return "repair her engine" if target == "engine" else "work on a leak (R86)"
    return {
        "course": "steer a new course",
        "jettison": "throw cargo over",
        "pump": "pump and bail",
        "pumps": "throw the pumps' switch (R85)",
        "dive": "dive her (R84)",
        "surface": "surface her (R84)",
        "tow": "take a tow line (R92: another ship may tow her)",
    }.get(what)


def adrift_words(ship: Any, where: str) -> str:
    """The one spelling of what a crewless ship does instead of sailing (R64, R70), for
    every path that leaves one without hands under way: ``nobody sails her, and she lies
    adrift at 0707, drifting with any current (R64, R70), until crew come aboard (…) or
    another ship tows her (R92).``"""
    name = repr(ship.name)
    return (
        f"nobody sails her, and she lies adrift at {where}, drifting with any current (R64, "
        f"R70), until crew come aboard (`voyage ship load {name} --crew N`, then `voyage act "
        f"{name} weigh`) or another ship tows her (R92)."
    )


def lie_adrift(s: Any) -> bool:
    """Her voyage ``s`` (a voyage.engine.clock.ShipState) with no crew aboard: under way, she
    makes no way of her own and lies adrift (R64; our reading, R70); searching, her search
    (R74) is over. True where this changed her (the caller says so, in
    :func:`adrift_words`); a ship with crew, or lying, stuck or in tow, is left as she is."""
    if s.ship.crew >= 1 or not (s.status == "under way" or s.searching):
        return False
    if s.status == "under way":
        s.status = "adrift"
    s.searching = False
    return True


def adrift_now(s: Any) -> str:
    """:func:`lie_adrift` for her voyage ``s``, and the sentence saying so ("Gull has no
    crew: nobody sails her, …"), or '' where nothing changed: for the engine's start of an
    advance and for a stuck ship got off (R34, R83) with nobody to sail her."""
    if not lie_adrift(s):
        return ""
    return f"{s.ship.name} has no crew: {adrift_words(s.ship, s.hex)}"


#: Her search (R74) with nobody aboard to look: the one spelling, here and at an advance
#: (:func:`no_hands`).
SEARCH_ENDS = "search ends (R74): nobody is aboard to look."


def already_at_sea(ship: Any, s: Any) -> VoyageRuleError:
    """`voyage sail` for a ship whose voyage ``s`` is still open (not merely lying): change
    her course instead; with no crew aboard (left sinking or burning, R71) nobody can, and
    it pointed to `act course`, which is refused (R70): put crew aboard first."""
    where = f"voyage {s.voyage_id}, {s.status} at {s.hex}"
    if ship.crew < 1:
        return VoyageRuleError(
            f"{ship.name} is already at sea ({where}) and has no crew to sail her ("
            f"{ONLY_DRIFTS}): `voyage ship load {ship.name!r} --crew N`"
        )
    return VoyageRuleError(
        f"{ship.name} is already at sea ({where}): change her course with "
        f"`voyage act {ship.name!r} course`"
    )


def no_hands(engine: Any, clock: int, events: list[Any]) -> None:
    """The start of an advance from ``clock`` (voyage.engine.clock.Engine.run): each ship with no
    crew that is under way lies adrift, and one searching ends her search
    (:func:`lie_adrift`), with one event saying why. Cheap: one look at each ship's
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
            event = Event(
                "drift" if under_way else "search",
                text,
                [],
                0,
                {"status": s.status, "searching": False},
            )
            events.append(LoggedEvent(s.voyage_id, name, clock, event))
