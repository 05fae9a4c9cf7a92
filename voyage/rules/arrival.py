"""A ship at the end of her route (R65, R64): in a port she moors and her voyage ends; in
any other hex she anchors, as `voyage act SHIP anchor` would, or lies adrift where she
cannot.

* In a port she is ``in port``: her voyage ends (``arrived``), as it always has.
* Elsewhere, with an anchor aboard (:func:`~voyage.vessels.fittings.anchors_aboard`) in a hex
  an anchor's cable reaches the bottom of (a coastal hex, a shallow hex - reef, shoal,
  wreck - or a charted depth of at most 150 ft: :func:`~voyage.rules.anchors.anchorage_problem`),
  she drops anchor: her voyage stays open, ``anchored``, so in storm-tossed seas she rolls
  for her cable every hour (R65) like any anchored ship.
* Where she cannot anchor (deep water, or no anchor aboard) she lies ``adrift`` (hove to,
  making no way): her voyage stays open and she drifts with the current (R64), and storms
  act on her, like any ship making no way. The event says why and what the referee can do.
  A ship with no crew cannot drop anchor (R70, voyage.actions.crewless): she lies adrift, and the
  event says to put crew aboard or take her in tow (R92).
* A submerged submarine holds her depth (R84; AquaWars' neutral buoyancy): ``adrift`` at
  that depth, under the storms, drifting with any current (R64); she anchors only once
  surfaced.

Either way the advance halts (``arrived``). The referee sails her on with `voyage sail SHIP
--to CCRR` (which ends the voyage she lies on and opens the next: :func:`lying`), or with
`voyage act SHIP course --to CCRR` and `voyage act SHIP weigh`; adrift, `voyage act SHIP
anchor` anchors her once she has drifted somewhere she can.
"""

from __future__ import annotations

from typing import Any

from voyage.rules.anchors import anchorage_problem
from voyage.tables.rulebook import RuleBook
from voyage.vessels.fittings import anchors_aboard
from voyage.vessels.submersible import depth_now

#: Voyage statuses of a ship lying in a hex at the end of her route (or wherever she is):
#: `voyage sail` and `voyage ship place` may end such a voyage and start afresh.
LYING = ("anchored", "adrift")


def anchoring(ship: Any, info: Any, book: RuleBook) -> str | None:
    """Why ``ship`` cannot anchor in the hex ``info`` describes (R65), or None if she can:
    no crew to drop it (R70, voyage.actions.crewless), no anchor aboard, or no bottom within her
    cable's reach."""
    if ship.crew < 1:
        return f"{ship.name} has no crew to drop anchor (R70)"
    if anchors_aboard(ship) < 1:
        return f"{ship.name} has no anchor aboard (R65)"
    return anchorage_problem(info, book)


def lie_at(ship: Any, s: Any, info: Any, book: RuleBook, opening: str) -> tuple[str, str]:
    """``s`` (a voyage.engine.clock.ShipState, or anything with ``status``, ``drift_miles``) comes
    to rest in the non-port hex ``info``: anchored where she can (R65), else adrift (R64).
    Sets her status; returns (status, the event's text), ``opening`` its first words
    (``Gull arrives at 0505``)."""
    s.drift_miles = "0"
    s.progress = 0
    name = repr(ship.name)
    crew_fix = (
        f"put crew aboard (`voyage ship load {name} --crew N`) to anchor or sail "
        "her, or take her in tow (R92)"
    )
    if depth_now(ship) > 0:
        return _holds_depth(ship, s, opening, crew_fix)
    problem = anchoring(ship, info, book)
    if problem is None:
        s.status = "anchored"
        return s.status, f"{opening} and drops anchor (R65)."
    s.status = "adrift"
    text = (
        f"{opening} but cannot anchor there: {problem}. She lies adrift, hove to, and "
        "drifts with any current (R64); storms still act on her. "
    )
    if ship.crew < 1:
        return s.status, text + crew_fix[0].upper() + crew_fix[1:] + "."
    text += f"Sail on with `voyage sail {name} --to CCRR`"
    if anchors_aboard(ship) >= 1:
        text += f", or `voyage act {name} anchor` once she drifts where she can (R65)."
    else:
        text += f"; buy an anchor in a port (`voyage ship load {name} --anchors 1`)."
    return s.status, text


def _holds_depth(ship: Any, s: Any, opening: str, crew_fix: str) -> tuple[str, str]:
    """R84 (AquaWars: subs "have neutral buoyancy... if they lose power, or stop, they will
    not sink, but neither will they float to the surface"): a submerged sub that comes to
    rest outside a port stays at her depth, making no way: adrift (R64: the current carries
    her), under the storms. She anchors only on the surface (*our reading*: an anchor is
    dropped and weighed from the deck; `voyage act SHIP anchor` refuses her submerged)."""
    name = repr(ship.name)
    s.status = "adrift"
    text = (
        f"{opening}, {depth_now(ship)} ft down, and stops there: she holds her depth (R84: "
        "a sub that stops neither sinks nor rises), making no way, and drifts with any "
        "current (R64), under the storms. "
    )
    if ship.crew < 1:
        return s.status, text + crew_fix[0].upper() + crew_fix[1:] + "."
    return s.status, text + (
        f"To anchor, bring her up first (`voyage act {name} surface`, then `voyage act "
        f"{name} anchor`, R65); or sail on with `voyage sail {name} --to CCRR`."
    )


def arrive(h: Any, info: Any) -> None:
    """The engine's arrival of the ship of hour ``h`` (voyage.engine.clock._ShipHour) at the last
    hex of her route, ``info`` (voyage.map.seamap.Hex): moored in a port (her voyage ends),
    else anchored or adrift (:func:`lie_at`); the advance halts either way."""
    s, ship = h.s, h.ship
    h.stop_moving()
    if info.port:
        s.status = "arrived"
        ship.status = "in port"
        ship.equipment.pop("depth_ft", None)  # R84: a submersible surfaces in port
        h.note("arrived", f"{ship.name} arrives at {info.port} ({ship.hex}).", "arrived")
        return
    status, text = lie_at(ship, s, info, h.book, f"{ship.name} arrives at {ship.hex}")
    h.note("arrived", text, "arrived", {"status": status})


def lying(s: Any) -> bool:
    """Whether the open voyage ``s`` is one a ship merely lies on (anchored or adrift, with
    no trouble aboard and not in tow), which `voyage sail` and `voyage ship place` may end."""
    return s.status in LYING and not s.in_trouble and "towed_by" not in s.ship.equipment


def ended(s: Any) -> bool:
    """Whether the voyage ``s`` has come to the end of her route: arrived in a port, or
    lying in her last hex, anchored or adrift (what a forecast counts as arrived)."""
    return s.status == "arrived" or (s.status in LYING and s.position >= len(s.route) - 1)
