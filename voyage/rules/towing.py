"""Towing (R92, the core rules' Strong trait): the tow's weight in the tower's Load, the two
moving together, and a tow line that parts like an anchor cable (R65).

A tow weighs the towed ship's Deadweight plus her Load (hlbs), taken when the line is made
fast. The towing ship counts it in her Load for her load category, speed and fuel (R12-R16)
- ``voyage.vessels.ships.load_parts`` carries it as the part ``tow`` - but not for R12's sinking or
R37's flooding (the engine's own load leaves it out; its load category, and so R41's
capsize Check and an Overloaded tower's hourly Check, counts it: :func:`towed_hlbs`); a
Strong ship counts a fifth of it (the trait's ``tow_multiplier``: 5). In the engine the
towed ship (status ``under tow``) makes no way of her own and each hour ends where her
tower is (:func:`tow_phase`); she still rolls her own hazards in her hex (leaks, storms).
In storm-tossed seas the line is rolled for each hour like an anchor cable (2d6, parting
on 2 or 12).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from voyage.dice.events import Event
from voyage.rules.anchors import anchor_cable
from voyage.store.routetext import copy_of
from voyage.tables.rulebook import RuleBook
from voyage.vessels.ships import deadweight, load, trait_effect

#: Equipment keys (the ship's JSON): the ship she tows and the hlbs counted; who tows her.
from voyage.vessels.vessel import Ship

#: Equipment keys (the ship's JSON): the ship she tows and the hlbs counted; who tows her.
TOW, TOW_COUNTED, TOWED_BY = "tow", "tow_counted", "towed_by"
UNDER_TOW = "under tow"


def towed_hlbs(tower: Ship) -> int:
    """R92: the hlbs of her tow a ship counts in her Load for her load category (R12, and
    so R41's capsizing), speed and fuel (0: no tow); not for R12's sinking nor R37."""
    return int(tower.equipment.get(TOW_COUNTED, 0) or 0)


def tow_weight(towed: Ship, book: RuleBook, water_in_load: bool = True) -> int:
    """R92: the towed ship's Deadweight plus her Load, in hlbs."""
    return deadweight(towed, book) + load(towed, book, water_in_load)


def counted_weight(tower: Ship, weight: int, book: RuleBook) -> int:
    """R92: the hlbs of a tow counted in the tower's Load: all of it, a fifth for a Strong
    ship (1 / the trait's ``tow_multiplier``, rounded up)."""
    multiplier = trait_effect(tower, book, "tow_multiplier", 0) or 1
    return math.ceil(weight / multiplier)


def make_fast(tower: Ship, towed: Ship, book: RuleBook, water_in_load: bool = True) -> int:
    """Make the line fast: the tower carries the tow in her equipment; the hlbs counted."""
    counted = counted_weight(tower, tow_weight(towed, book, water_in_load), book)
    tower.equipment[TOW] = towed.name
    tower.equipment[TOW_COUNTED] = counted
    towed.equipment[TOWED_BY] = tower.name
    return counted


def let_go(tower: Ship, towed: Ship | None) -> None:
    """Cast off: neither carries the other any more."""
    tower.equipment.pop(TOW, None)
    tower.equipment.pop(TOW_COUNTED, None)
    if towed is not None:
        towed.equipment.pop(TOWED_BY, None)


def tow_phase(engine: Any, clock: int, out: list[Any], rows: Sequence[Any] = ()) -> None:
    """After every ship's hour: each ship under tow ends it where her tower is; in
    storm-tossed seas the line may part (R65's roll), and then she is adrift. A tow that
    sank, or a tower that arrived or was lost, ends the tow. Her hour ``rows`` are moved
    with her (they were written before the tower's hour was done)."""
    states = engine.states
    for s in states:  # the common hour: no tow anywhere (both loops below do nothing)
        if s.status == UNDER_TOW or TOW in s.ship.equipment:
            break
    else:
        return
    from voyage.dice.events import LoggedEvent

    by_name = {s.ship.name: s for s in states}
    for tower in engine.states:
        name = tower.ship.equipment.get(TOW)
        if not name:
            continue
        s = by_name.get(str(name))
        if s is None or s.status != UNDER_TOW:
            let_go(tower.ship, s.ship if s is not None else None)
            continue
        aground = _follow(engine, s, tower, clock, out, rows)  # her own hazards, hex by hex
        tower_row = next((r for r in rows if r.ship == tower.ship.name), None)
        for row in rows:
            if row.ship == s.ship.name:  # her hour: where she is, the way she was towed
                row.hex = s.hex
                if tower_row is not None:  # R92: the two move together at her speed
                    row.miles, row.speed = tower_row.miles, tower_row.speed
        if aground:
            let_go(tower.ship, s.ship)
            text = f"{s.ship.name} is aground at {s.hex}: the tow line is cast off (R92, R34)."
            out.append(
                LoggedEvent(
                    s.voyage_id,
                    s.ship.name,
                    clock,
                    Event("tow", text, [], 59, {"status": s.status}),
                )
            )
            continue
        arrived = tower.status == "arrived" or _arrived(tower, clock, out)
        if (
            arrived
            or tower.status in ("sunk", "abandoned")
            or (engine.world.sea_state(s.hex, clock) and _parts(engine, s, tower, clock, out))
        ):
            let_go(tower.ship, s.ship)
            s.status = "arrived" if arrived else "adrift"
            text = f"{s.ship.name} is cast off from {tower.ship.name} at {s.hex} ({s.status})."
            if arrived:
                text = _arrival(engine, s, tower)
            out.append(
                LoggedEvent(
                    s.voyage_id,
                    s.ship.name,
                    clock,
                    Event("tow", text, [], 59, {"status": s.status}),
                )
            )
        else:  # R92: the tow weighs what she weighs now (water in, fuel out) for next hour
            wil = engine.world.water_in_load
            tower.ship.equipment[TOW_COUNTED] = counted_weight(
                tower.ship, tow_weight(s.ship, engine.book, wil), engine.book
            )
    for s in engine.states:  # a ship under tow whose tower is not at sea: adrift (R64)
        if s.status == UNDER_TOW and str(s.ship.equipment.get(TOWED_BY, "")) not in by_name:
            s.ship.equipment.pop(TOWED_BY, None)
            s.status = "adrift"


def _arrived(tower: Any, clock: int, out: list[Any]) -> bool:
    """Whether the tower came to the end of her route this hour and lies there, anchored
    or adrift (voyage.rules.arrival: her arrival halted the advance)."""
    name = tower.ship.name
    return any(e.halt == "arrived" and e.ship == name and e.clock == clock for e in out)


def _arrival(engine: Any, s: Any, tower: Any) -> str:
    """The ship in tow arrives with her tower and the line is cast off (R92): in a port
    her voyage ends; elsewhere she anchors where she can, else lies adrift (R65, R64)."""
    from voyage.rules.arrival import lie_at

    info = engine.hex_info(s.hex)
    towed = f"in tow of {tower.ship.name}"
    if info.port:
        s.status, s.ship.status = "arrived", "in port"
        where = f"{info.port} ({s.hex})"
        return f"{s.ship.name} arrives at {where} {towed}; the line is cast off (R92)."
    opening = f"{s.ship.name} arrives at {s.hex} {towed} (R92)"
    return lie_at(s.ship, s, info, engine.book, opening)[1] + " The line is cast off (R92)."


def _entered(s: Any, tower: Any) -> list[int]:
    """The positions on the tower's route of the hexes she entered this hour (the ship in
    tow was at the tower's start hex, on the same route unless the tower changed course)."""
    route = tower.route
    if s.route == route:  # a list or a TextRoute (voyage.store.routetext), either way round
        start = s.position
    elif s.hex in route[: tower.position + 1]:
        start = route.index(s.hex)
    else:
        start = tower.position
    return list(range(start + 1, tower.position + 1))


def _follow(
    engine: Any, s: Any, tower: Any, clock: int, out: list[Any], rows: Sequence[Any]
) -> bool:
    """The ship in tow enters each hex her tower entered this hour, at the minute the tower
    did, with the hazards of any ship entering it: a storm Check in storm-tossed seas (R32,
    R60), and inshore, in a narrow passage or in shallows an underwater hazard (R33) she may
    run aground on (R34) at the tower's speed. True if she is aground (the line is cast off)."""
    from voyage.engine.clock import _ShipHour

    positions = _entered(s, tower)
    s.route, s.inshore = copy_of(tower.route), copy_of(tower.inshore)
    row = next((r for r in rows if r.ship == tower.ship.name), None)
    speed = int(row.speed) if row is not None else 0
    hex_miles = engine._hex_miles
    before = (
        tower.progress - (int(row.miles) if row is not None else 0) + len(positions) * hex_miles
    )  # the tower's progress at the start of the hour
    hour = _ShipHour(engine, s, clock, out)
    hour.speed = speed
    for k, position in enumerate(positions):
        need = hex_miles - before + k * hex_miles
        hour.minute = min(59, max(0, need * 60 // speed)) if speed > 0 else 59
        s.position = position
        s.ship.hex = s.route[position]
        s.hours_in_hex = s.storm_hours = 0
        if s.sinking_in is not None or s.capsized or s.status != UNDER_TOW:
            continue
        info = engine.hex_info(s.ship.hex)
        if level := int(engine.world.sea_state(s.ship.hex, clock)):
            hour.storm_check(level)  # R32/R60
        inshore = s.inshore[position] if position < len(s.inshore) else False
        shallow = info.terrain in engine.shallows
        if s.sinking_in is None and (inshore or info.narrow_passage or shallow):
            hour.coast(info)  # R33, R34
            if s.status == "stuck":
                return True
    s.position, s.progress = tower.position, tower.progress
    s.ship.hex = s.route[s.position] if s.route else s.ship.hex
    return False


def _parts(engine: Any, s: Any, tower: Any, clock: int, out: list[Any]) -> bool:
    from voyage.dice.events import LoggedEvent

    result = anchor_cable(engine.roller, engine.book)
    event = result.event(59)
    event.kind = "tow"
    if result.parted:
        event.text = (
            f"The tow line between {tower.ship.name} and {s.ship.name} parts in the "
            f"storm at {s.hex} (R92, R65): {s.ship.name} is adrift."
        )
        event.changes = {"tow_parted": True}
    else:
        event.text = "The tow line holds in the storm (R92, R65)."
    out.append(
        LoggedEvent(s.voyage_id, s.ship.name, clock, event, "tow parted" if result.parted else None)
    )
    return result.parted
