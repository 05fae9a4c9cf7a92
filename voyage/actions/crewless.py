"""A ship with nobody to work her (R70, *our reading*: docs/rulings.md, "A ship with no
crew"): what a referee's action needs hands aboard for, and the one line that refuses it.

Her crew work her (R70 counts them apart from her passengers): a ship with no crew -
abandoned (R71) and put back on the map with `voyage ship place`, or loaded with
`--crew 0` - cannot sail (voyage.actions.voyages.sail), search (R74), drop or weigh anchor, moor,
steer a new course, jettison, pump or bail, throw the pumps' switch, dive or surface (R84),
take another ship in tow (R92), or work on her engine or a leak at sea (R86); with nobody
aboard at all there is nobody to abandon her (R71). What the
rules let a hull do with nobody aboard is left alone: she drifts (R64), floods, burns and
sinks (R36-R50), is towed by another ship (R92), is rescued into or searched for, and the
referee may still declare her saved (R40) or got off (R34); in a port the port's people
refuel, recharge, repair and salvage her. Each refusal names the fix: put crew aboard.

Under way with nobody left to sail her she lies adrift (:func:`heave_to`, :func:`adrift_now`:
one spelling, :func:`adrift_words`), whichever way her last crewman went (`ship load --crew
0`, `crew move`, `crew remove`), when a stuck ship is got off (R34, R83), and at the start
of every advance (voyage.rules.crewphase: a campaign from before this rule). The engine's
own work that needs hands (voyage.rules.crewphase lists it) waits for crew the same way.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError

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
    """The work the referee's action ``what`` (voyage.actions.referee) asks of her crew, in
    words, or None where it needs none of her own hands (the referee's word, a port's
    people, another ship's crew). ``s`` is her open voyage or None; ``in_port``: she lies
    in a port hex."""
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


def refuse_crewless(
    camp: Any, ship: Any, s: Any, what: str, target: str | None, chart: Any
) -> None:
    """Refuse the referee's action ``what`` for a ship with no crew when it needs her hands
    (:func:`crew_work`); nothing is changed. A ship with crew aboard passes untouched."""
    if ship.crew >= 1:
        return
    if what == "abandon" and ship.passengers < 1:  # R71 with nobody to leave her
        raise VoyageRuleError(
            f"nobody is aboard {ship.name} to abandon her: she is a derelict as she lies "
            f"({ONLY_DRIFTS}); put people aboard with `voyage ship load {ship.name!r} --crew N`"
        )
    if what in ("dive", "surface"):
        from voyage.vessels.submersible import sub_spec

        if sub_spec(ship) is None:
            return  # not a submersible: the action's own refusal says so (R84)
    where = s.hex if s is not None else ship.hex
    in_port = False
    if what in ("anchor", "repair") and where:
        if chart is None:
            from voyage.actions.voyages import campaign_chart

            chart, _ = campaign_chart(camp)
        in_port = bool(chart.hex(where).port)
    work = crew_work(what, target, s, in_port)
    if work is None:
        return
    drifts = what in ("anchor", "weigh", "course")
    raise no_crew(ship, work, ONLY_DRIFTS if drifts else "")


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
#: (voyage.rules.crewphase).
SEARCH_ENDS = "search ends (R74): nobody is aboard to look."


def heave_to(camp: Any, ship: Any) -> tuple[Any, str]:
    """Her crew taken off at sea (`voyage ship load SHIP --crew 0`, `voyage crew move` or
    `crew remove` of her last crewman): under way, nobody is left to sail her, so she
    makes no way of her own and lies adrift (R64; our reading, R70); searching (R74),
    anchored or adrift as well, her search ends at once (it ran on to the next advance,
    which ended it with its own event). Returns her voyage (with ``ship`` as its ship, to
    save inside the caller's action) and the line saying so; (None, '') where neither
    changed or she keeps a crew."""
    if ship.crew >= 1:
        return None, ""
    from voyage.actions.voyages import open_voyage

    s = open_voyage(camp, ship.name)
    if s is None or not (s.status == "under way" or s.searching):
        return None, ""
    s.ship = ship  # the loaded ship is what the voyage saves
    under_way, searched = s.status == "under way", s.searching
    lie_adrift(s)
    if not under_way:
        return s, f"{ship.name} has no crew now: her {SEARCH_ENDS}"
    line = f"{ship.name} has no crew now: {adrift_words(ship, s.hex)}"
    return s, line + (f" Her {SEARCH_ENDS}" if searched else "")


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
