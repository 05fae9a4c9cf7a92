"""A voyage's rows in the campaign: opened, written back after the engine moved her, and the
one-hex voyage of a ship lying outside a port.

A voyage is its ``voyages`` row and its ``voyage_routes`` row (m100: the route and inshore
flags, the biggest values a voyage has, in a row of their own so the hourly updates of the
voyage leave them alone); each is written inside the caller's action.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from voyage.engine.clock import OPEN_STATUSES, ShipState, dumps
from voyage.map.routetext import (
    TextFlags,
    TextRoute,
    inshore_text,
    read_inshore,
    read_route,
    route_text,
)
from voyage.rules.arrival import lie_at

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign
    from voyage.vessels.ships import Ship

#: Every column of a voyage, its route and inshore flags included: what readers select
#: (``FROM voyages v`` joined to its route; add ``WHERE``/``ORDER BY`` on ``v.``).
VOYAGE_SELECT = (
    "SELECT v.*, r.route AS route, r.inshore AS inshore FROM voyages v "
    "JOIN voyage_routes r ON r.voyage_id = v.id"
)

#: A voyage not yet over (the voyages table as ``v``): under way, lying, or arrived with
#: trouble aboard (R36).
OPEN_V = "v.ended IS NULL AND v.status NOT IN ('sunk', 'abandoned')"


def keep_stored(camp: Campaign, s: ShipState) -> None:
    """Remember the route and flags as stored: a TextRoute or TextFlags itself (never
    changed in place: while it is still the voyage's, the stored text is hers), a plain list
    as a copy (a list may be changed in place, so it is compared item by item)."""
    camp.cache[("route", s.voyage_id)] = (
        s.route if isinstance(s.route, TextRoute) else list(s.route),
        s.inshore if isinstance(s.inshore, TextFlags) else list(s.inshore),
    )


def _route_unchanged(camp: Campaign, s: ShipState) -> bool:
    """Whether the voyage's route and flags are still what was stored (:func:`keep_stored`):
    the same objects read from the store (no compare of a year's 94,001 hexes), or equal."""
    stored = camp.cache.get(("route", s.voyage_id))
    if stored is None:  # never read
        return False
    route, inshore = stored
    return (s.route is route or s.route == route) and (s.inshore is inshore or s.inshore == inshore)


def save_state(camp: Campaign, s: ShipState, clock: int) -> None:
    """Write a voyage and its ship back (inside the caller's action)."""
    ended = None
    if s.status in ("sunk", "abandoned") or (s.status == "arrived" and not s.in_trouble):
        ended = clock
    camp.db.execute(
        "UPDATE voyages SET position = ?, progress_miles = ?, pace = ?, strain = ?, "
        "status = ?, ended = COALESCE(ended, ?), state = ? WHERE id = ?",
        [
            s.position,
            s.progress,
            s.pace,
            s.strain,
            s.status,
            ended,
            dumps(s.stored_extra()),
            s.voyage_id,
        ],
    )
    if not _route_unchanged(camp, s):  # a new course, a drift, a tow (or never read)
        # the route has its own row (m100), written only here
        camp.db.execute(
            "UPDATE voyage_routes SET route = ?, inshore = ? WHERE voyage_id = ?",
            [route_text(s.route), inshore_text(s.inshore), s.voyage_id],
        )
        camp.db.execute(
            "UPDATE voyages SET destination = ? WHERE id = ?", [s.route[-1], s.voyage_id]
        )
        keep_stored(camp, s)
    s.ship.pace, s.ship.strain = s.pace, s.strain
    if s.status in OPEN_STATUSES:
        s.ship.status = "at sea"  # an arrived ship keeps "in port" / "at anchor" (arrive())
    elif s.status == "abandoned":
        s.ship.status = "abandoned"
    s.ship.hex = s.hex
    camp.save_ship(s.ship)


def insert_voyage(
    camp: Campaign,
    ship: str,
    route: Sequence[str],
    inshore: Sequence[bool],
    pace: str,
    strain: int,
) -> int:
    """Open a voyage row and its route row (m100); the new voyage's id."""
    cursor = camp.db.execute(
        "INSERT INTO voyages (ship, origin, destination, position, progress_miles, pace, "
        "strain, status, started, state) VALUES (?, ?, ?, 0, 0, ?, ?, 'under way', ?, '{}')",
        [ship, route[0], route[-1], pace, strain, camp.clock],
    )
    vid = int(cursor.lastrowid or 0)
    camp.db.execute(
        "INSERT INTO voyage_routes (voyage_id, route, inshore) VALUES (?, ?, ?)",
        [vid, route_text(route), inshore_text(inshore)],
    )
    camp.cache[("route", vid)] = (list(route), list(inshore))
    return vid


def place_at_sea(camp: Campaign, ship: Ship, info: Any, opening: str | None = None) -> str:
    """`voyage ship place` in a hex with no port: as a ship that arrives there (R65, R64;
    voyage.rules.arrival.lie_at), anchored where she can anchor, else adrift, on an open
    voyage of that one hex, so storms (R60) and her cable roll (R65) or the current (R64)
    act on her until the referee sails her. The place event's text, which begins with
    ``opening`` (``Gull is placed at 0404``; m130 says why a ship of an older campaign gets
    her voyage: voyage.store.oldanchors)."""
    vid = insert_voyage(camp, ship.name, [info.name], [False], ship.pace or "normal", ship.strain)
    s = ShipState(
        ship, vid, [info.name], inshore=[False], pace=ship.pace or "normal", strain=ship.strain
    )
    opening = opening or f"{ship.name} is placed at {info.name}"
    text = lie_at(ship, s, info, camp.rulebook, opening)[1]
    save_state(camp, s, camp.clock)
    return text


# -- reading a voyage back ----------------------------------------------------------------


def _state_from_rows(
    camp: Campaign, voyage: dict[str, Any], ship: Ship, hours: int | None = None
) -> ShipState:
    s = ShipState(
        ship=ship,
        voyage_id=voyage["id"],
        # read as asked, or split when ``hours`` will read it all over (routetext.read_route)
        route=read_route(voyage["route"], hours),
        position=voyage["position"],
        progress=voyage["progress_miles"],
        inshore=read_inshore(voyage["inshore"], hours),
        status=voyage["status"],
        pace=voyage["pace"],
        strain=voyage["strain"],
    )
    s.set_extra(json.loads(voyage["state"] or "{}"))
    # The route as stored, so save_state rewrites it only when a new course changed it: a
    # long route is the biggest value in the row.
    keep_stored(camp, s)
    return s


def ship_voyage_rows(camp: Campaign, ship: str) -> list[dict[str, Any]]:
    """Every voyage of ``ship`` (any case) as stored, oldest first ([] before any voyage)."""
    if not camp.db["voyages"].exists():
        return []
    sql = f"{VOYAGE_SELECT} WHERE v.ship = ? COLLATE NOCASE ORDER BY v.id"
    return list(camp.db.query(sql, [ship]))


def open_voyages(camp: Campaign, hours: int | None = None) -> list[ShipState]:
    """Every voyage not yet over: ships at sea, or arrived with trouble aboard (R36: a leak,
    a fire, a listing or a sinking goes on in port until it is dealt with). ``hours``: how
    long they will be advanced, if known (routetext.read_route: a year's advance splits
    each route once, a day's reads a long one lazily; the same hexes either way)."""
    rows = list(camp.db.query(f"{VOYAGE_SELECT} WHERE {OPEN_V} ORDER BY v.id"))
    return [_state_from_rows(camp, r, camp.get_ship(r["ship"]), hours) for r in rows]


def moored_states(camp: Campaign) -> list[ShipState]:
    """R101: the ships lying in port with no voyage open, their stores counted and people
    aboard, whose stores are used in port as at sea (voyage.engine.clock, Engine.moor).
    Each state's voyage id is her latest voyage's, whose log goes on in port (0: she never
    sailed); an untracked ship (no stores counted) is left as she is."""
    sailing = {r["ship"] for r in camp.db.query(f"SELECT v.ship FROM voyages v WHERE {OPEN_V}")}
    latest = {
        r["ship"]: int(r["id"])
        for r in camp.db.query("SELECT ship, max(id) AS id FROM voyages GROUP BY ship")
    }
    return [
        ShipState(ship, latest.get(ship.name, 0), [ship.hex], status="in port")
        for ship in camp.ships()
        if ship.status == "in port"
        and ship.hex
        and ship.stores is not None
        and ship.crew + ship.passengers > 0
        and ship.name not in sailing
    ]


def open_voyage(camp: Campaign, ship_name: str) -> ShipState | None:
    """The ship's voyage not yet over, if any."""
    sql = f"{VOYAGE_SELECT} WHERE v.ship = ? AND {OPEN_V} ORDER BY v.id DESC LIMIT 1"
    rows = list(camp.db.query(sql, [ship_name]))
    return _state_from_rows(camp, rows[0], camp.get_ship(rows[0]["ship"])) if rows else None
