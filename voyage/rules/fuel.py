"""Fuel as a ship enters a hex (R16): the engine's fuel step, kept out of the engine's hour.

A ship spends her Fuel Use as she enters each hex (R31), and enters a hex under power only
with at least that hex's Fuel Use aboard. With less she runs dry at the hex's edge: she
stops there without entering it, adrift (R13), and what is left stays in her tanks; given
fuel she enters it at once. With exactly the Fuel Use aboard she enters, burns the last of
it and is adrift in that hex. Once dry she is adrift (her voyage's status) until she takes
on fuel: a current that carries her on gives her no way under power, whatever is left.

Each function takes the engine's ship-hour ``h`` (voyage.engine.clock._ShipHour), as the drift
phase (voyage.rules.drift) does: its ship, voyage state, figures for the hour and log.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.base.text import plain
from voyage.tables.boatdesigns import units_per_hex
from voyage.vessels import boatpower
from voyage.vessels.ships import (
    aboard,
    fuel_use,
    fuel_words,
    has_engine,
    rows,
    spend,
    under_power,
)


def short_of_next_hex(h: Any) -> bool:
    """R16 (R82 for a built boat's charge): under power, with less aboard than the next
    hex's Fuel Use."""
    return bool(h.fuel_use and under_power(h.ship) and aboard(h.ship) < h.fuel_use)


def runs_dry_at_edge(h: Any) -> bool:
    """R16: she ran dry at the edge of her next hex (in an earlier hour) and is adrift."""
    return short_of_next_hex(h) and h.s.progress >= h.e._hex_miles


def may_enter(h: Any) -> bool:
    """R16, before the ship enters her next hex: True if she may; else the run-dry event is
    logged (the advance stops: "out of fuel", for a built boat "out of charge", R82) and
    she stops at the hex's edge."""
    if not short_of_next_hex(h):
        return True
    s, ship = h.s, h.ship
    what, unit = fuel_words(ship)
    rule = "R82" if what == "charge" else "R16"
    left = plain(aboard(ship))
    h.note(
        "fuel",
        f"{ship.name} has {left} {unit} of {what}, less than the {plain(h.fuel_use)} {unit} "
        f"{s.route[s.position + 1]} needs ({rule}): she runs dry at its edge and drifts "
        f"(R13), {left} {unit} left {'aboard' if rule == 'R82' else 'in her tanks'}.",
        f"out of {what}",  # R82: a built boat is out of charge
        {what: left, "adrift": True},
    )
    if h.moving:
        h.moving = False
        hex_miles = h.e._hex_miles
        h.miles = (h.entered + 1) * hex_miles - h.progress_before
        s.progress = hex_miles  # at the edge: with fuel aboard she enters at once
    _adrift(h)
    return False


def _adrift(h: Any) -> None:
    """R16: dry, she stays adrift until she takes on fuel (an oared ship rows on, R13)."""
    s = h.s
    if s.status == "under way" and not rows(h.ship):
        s.status = "adrift"


def burn(h: Any) -> None:
    """R16: the hex just entered costs its Fuel Use (burnt fuel leaves the Load, R11; a
    built boat's power units weigh nothing, R82); the last of it leaves her adrift there."""
    ship = h.ship
    if not (h.fuel_use and under_power(ship)):
        return
    spend(ship, h.fuel_use)
    if aboard(ship) == 0:
        what, unit = fuel_words(ship)
        h.note(
            "fuel",
            f"{ship.name} {'spends' if what == 'charge' else 'burns'} her last "
            f"{plain(h.fuel_use)} {unit} of {what} entering "
            f"{ship.hex}: out of {what} ({'R82' if what == 'charge' else 'R16'}), she makes "
            "no way under power (R13).",
            f"out of {what}",
            {what: 0},
        )
        h.stop_moving()
        if h.s.position < len(h.s.route) - 1:  # at her destination she arrives (R65)
            _adrift(h)


def no_way(ship: Any, book: Any, pace: str | None = None, water_in_load: bool = True) -> str:
    """Why she cannot make way of her own now, with what she needs, in words for a refusal
    (``out of fuel (1 hlbs aboard, 2 a hex): `voyage act 'Dart' refuel N` in a port``), or
    "" when she can: a working engine with a hex's Fuel Use aboard (R13, R16), a built
    boat's plant with a hex's charge and a drive (R82, R85), or oars (R13, R82)."""
    if rows(ship) or (ship.design is not None and boatpower.oars_speed(ship, book) > 0):
        return ""  # she rows at her no-engine speed
    name = repr(ship.name)
    if ship.design is None and not has_engine(ship):
        return "she has no engine and no oars (R13)"
    if ship.design is not None and not (ship.design or {}).get("plant"):
        return "she has no power plant and no oars (R82)"
    if ship.engine_broken:
        return f"her engine is broken (R13): `voyage act {name} repair engine`"
    if ship.design is not None and not boatpower.drives(ship):
        return f"her propellers are gone (R85): `voyage act {name} repair propellers` in a port"
    what, unit = fuel_words(ship)
    left = aboard(ship)
    use: Fraction | int
    if ship.design is None:
        use = fuel_use(ship, book, pace, water_in_load)
    else:
        use = units_per_hex(
            book.boats,
            float(boatpower.cruise_mph(ship, book, water_in_load)),
            int(book.procedures["hex_miles"]),
        )
    if left > 0 and left >= use:
        return ""
    fix = (
        f"`voyage act {name} recharge` in a port (R82)"
        if what == "charge"
        else f"`voyage act {name} refuel N` in a port (R16)"
    )
    return f"out of {what} ({plain(left)} {unit} aboard, {plain(use)} a hex): {fix}"
