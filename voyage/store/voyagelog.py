"""Reading the log of voyages: hour rows, events, the status of ships at sea, the list of
voyages and their tracks (re-exported by voyage.actions.voyages, which writes them)."""

from __future__ import annotations

import json
from typing import Any

from voyage.base.text import plain
from voyage.base.voyagenames import ship_voyage_name
from voyage.engine.clock import CLOSED_STATUSES
from voyage.engine.standing import Standing, standing
from voyage.map.routetext import inshore_from_text, route_from_text
from voyage.rules.drift import current_lookup
from voyage.rules.emergency import minutes_left
from voyage.rules.eta import route_hours_now
from voyage.rules.towing import TOWED_BY
from voyage.store.campaigndb import Campaign
from voyage.store.hourdays import read_hours
from voyage.store.mapstore import campaign_chart, ship_positions
from voyage.store.voyagerows import VOYAGE_SELECT, open_voyages
from voyage.vessels import ships as shipfig
from voyage.vessels.stores import stores_figures


def hour_rows(
    camp: Campaign, ship: str | None = None, voyage_id: int | None = None, last: int | None = None
) -> list[dict[str, Any]]:
    """Hour rows in order (``last``: only the last N of them)."""
    where, args = _filters(ship, voyage_id)
    rows = read_hours(camp.db.conn, where, args)  # SELECT * FROM hours ... ORDER BY clock, id
    return rows[-last:] if last else rows


def event_rows(
    camp: Campaign, ship: str | None = None, voyage_id: int | None = None, since: int | None = None
) -> list[dict[str, Any]]:
    """Events in order, with their rolls and changes parsed."""
    where, args = _filters(ship, voyage_id)
    if since is not None:
        where += (" AND" if where else "WHERE") + " clock >= ?"
        args.append(since)
    out = []
    for r in camp.db.query(f"SELECT * FROM events {where} ORDER BY clock, minute, id", args):
        row = dict(r)
        row["rolls"] = json.loads(row["rolls"])
        row["changes"] = json.loads(row["changes"])
        out.append(row)
    return out


def _filters(ship: str | None, voyage_id: int | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    if ship:
        clauses.append("ship = ? COLLATE NOCASE")
        args.append(ship)
    if voyage_id is not None:
        clauses.append("voyage_id = ?")
        args.append(voyage_id)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", args


def status_rows(camp: Campaign) -> list[dict[str, Any]]:
    """Every ship at sea at a glance."""

    book = camp.rulebook
    out = []
    hex_miles = int(book.procedures["hex_miles"])
    states = open_voyages(camp)
    current_at = current_lookup(campaign_chart(camp)[0]) if states else None
    for s in states:
        ship = s.ship
        now = standing(ship, s, book, camp.water_in_load)  # one word and speed everywhere
        speed = now.speed
        left = len(s.route) - 1 - s.position
        miles_left = max(0, left * hex_miles - s.progress)
        out.append(
            {
                "ship": ship.name,
                "voyage": s.voyage_id,
                "status": now.status,
                "voyage_status": s.status,
                "hex": s.hex,
                "destination": s.destination,
                "hexes_left": left,
                "miles_left": miles_left,
                # R64: with the currents, as `voyage sail` reckons it
                "eta_hours": route_hours_now(
                    ship,
                    book,
                    camp.water_in_load,
                    s.pace,
                    s.strain,
                    s.route[s.position :],
                    current_at,
                    hex_miles,
                    s.progress,
                    speed,
                )
                if speed and s.status == "under way" and current_at
                else None,
                "speed": plain(speed),
                "pace": s.pace,
                "strain": s.strain,
                "fuel": plain(shipfig.aboard(ship)),  # R82: a built boat's exact charge
                "fuel_unit": shipfig.fuel_words(ship)[1],
                "fuel_use": plain(shipfig.fuel_use(ship, book, s.pace, camp.water_in_load)),
                "load": shipfig.shown_load(ship, book, camp.water_in_load),
                "load_category": shipfig.load_category(ship, book, camp.water_in_load),
                "water": ship.water,
                "leaks": list(s.leaks),
                "fire": s.fire,
                "fire_out_of_control": s.swallow_in is not None,
                # R40/R52: minutes from now to the minute the log will give
                # (voyage.actions.abandonship)
                "sinking_minutes_left": None
                if s.sinking_in is None
                else minutes_left(s.sinking_since, s.sinking_in, camp.clock),
                # R70/R71: abandoned (or a derelict) while sinking or burning, voyage still open
                "nobody_aboard": ship.crew + ship.passengers < 1,
                "listing": s.listing,
                "capsized": s.capsized,
                "engine_broken": ship.engine_broken,
                # R100-R101: food and fresh water and the days they last (a counted ship's)
                **stores_figures(ship.stores, ship.crew + ship.passengers),
            }
        )
    _towed_at_their_towers_speed(out, states)
    return out


def ship_standings(camp: Campaign) -> dict[str, Standing]:
    """Every ship's status and speed now (voyage.engine.standing), by name: at sea as
    :func:`status_rows` gives them (a tow at her tower's speed, R92), else from her record."""
    at_sea = {r["ship"]: Standing(r["status"], r["speed"]) for r in status_rows(camp)}
    book = camp.rulebook
    return {
        ship.name: at_sea.get(ship.name) or standing(ship, None, book, camp.water_in_load)
        for ship in camp.ships()
    }


def _towed_at_their_towers_speed(rows: list[dict[str, Any]], states: list[Any]) -> None:
    """R92: the two move together at the tower's speed: a ship under tow is shown at it,
    not at the speed she would make by herself (status read 6 knots for a ship towed at 5)."""

    by_name = {r["ship"]: r for r in rows}
    for row, s in zip(rows, states, strict=True):
        tower = by_name.get(str(s.ship.equipment.get(TOWED_BY) or ""))
        if s.status == "under tow" and tower is not None:
            row["speed"] = tower["speed"]


def voyage_list(camp: Campaign, ship: str | None = None) -> list[dict[str, Any]]:
    """Every voyage (newest last), with its route parsed."""
    where, args = _filters(ship, None)
    rows = []
    where = where.replace("WHERE ship", "WHERE v.ship")
    for r in camp.db.query(f"{VOYAGE_SELECT} {where} ORDER BY v.id", args):
        row = dict(r)
        row["route"] = route_from_text(row["route"])  # m106: text, not JSON
        row["inshore"] = inshore_from_text(row["inshore"])
        row["state"] = json.loads(row["state"])
        rows.append(row)
    return rows


def voyage_tracks(
    camp: Campaign, which: str = "open", until: int | None = None
) -> list[tuple[str, list[str]]]:
    """(label, hexes sailed so far) for the voyages still open ("open"), every voyage
    ("all") or none ("none"): what `voyage map render` draws. With ``until`` (an hour of
    the clock), as they stood at the start of that hour: only the voyages begun by then,
    "open" those not yet ended then, each track as far as she had sailed
    (:func:`sailed_until`)."""
    if which == "none":
        return []

    tracks = []
    counts: dict[str, int] = {}
    for row in voyage_list(camp):  # oldest first: her own count as the ids go by
        nth = counts[row["ship"].lower()] = counts.get(row["ship"].lower(), 0) + 1
        if until is None:
            if which == "open" and row["status"] in CLOSED_STATUSES:
                continue
            sailed = row["route"][: int(row["position"]) + 1]
        else:
            if int(row["started"]) > until:
                continue
            ended = row["ended"]
            if which == "open" and ended is not None and int(ended) <= until:
                continue
            sailed = sailed_until(row, hour_rows(camp, voyage_id=int(row["id"])), until)
        if len(sailed) > 1:
            # the legend names the line: "voyage 2 of Sea Witch", with her own
            # count when it is not the campaign's id: "voyage 3 of Eel (her 2nd)"
            tracks.append((ship_voyage_name(row["ship"], int(row["id"]), nth), sailed))
    return tracks


def sailed_until(voyage: dict[str, Any], hours: list[dict[str, Any]], until: int) -> list[str]:
    """The hexes a voyage had sailed by the start of hour ``until``: from her origin along
    her route to the hex the last hour before ``until`` left her in (an hour row's hex is
    where the hour ended), the route's hexes between kept (a fast ship enters two hexes in
    an hour); a hex off the route (carried by a current, R64) is added as it is."""
    route = list(voyage["route"])
    if not route:
        return []
    sailed, at = [route[0]], 0
    for row in hours:
        where = row.get("hex")
        if not isinstance(row.get("clock"), int) or row["clock"] >= until or not where:
            continue
        if where == sailed[-1]:
            continue
        ahead = route.index(where, at + 1) if where in route[at + 1 :] else None
        if ahead is not None and sailed[-1] == route[at]:
            sailed.extend(route[at + 1 : ahead + 1])
            at = ahead
        else:
            sailed.append(str(where))
    return sailed


def positions_at(camp: Campaign, until: int) -> list[tuple[str, str]]:
    """(ship, hex) of every ship placed on the map, where she was at the start of hour
    ``until``: the hex the last hour before it left her in; before her first hour of a
    voyage begun by then, its origin; before any voyage, where the first voyage after
    ``until`` set out from; a ship that never sailed, where she is. A ship added after
    ``until`` is drawn where she is (the campaign keeps no date for it)."""
    voyages = voyage_list(camp)
    out = []
    for name, now in ship_positions(camp):
        mine = [v for v in voyages if str(v["ship"]).lower() == name.lower() and v["route"]]
        begun = [v for v in mine if int(v["started"]) <= until]
        where = now
        if begun:
            where = begun[-1]["route"][0]
            earlier = [
                r
                for v in begun
                for r in hour_rows(camp, voyage_id=int(v["id"]))
                if isinstance(r.get("clock"), int) and r["clock"] < until and r.get("hex")
            ]
            if earlier:
                where = str(max(earlier, key=lambda r: (r["clock"], r["id"]))["hex"])
        elif mine:
            where = mine[0]["route"][0]
        out.append((name, str(where)))
    return out


def lost_by(camp: Campaign, until: int) -> dict[str, str]:
    """The ships sunk or abandoned by the start of hour ``until`` (the voyage that ended
    so had ended by then): their status, by name."""
    lost = camp.lost_ships()
    ended: dict[str, int] = {}
    for v in voyage_list(camp):
        if v["status"] in ("sunk", "abandoned") and v["ended"] is not None:
            ended[str(v["ship"]).lower()] = int(v["ended"])
    return {n: s for n, s in lost.items() if ended.get(n.lower(), until) <= until}


def nth_voyage(camp: Campaign, ship: str, voyage_id: int) -> int:
    """Which of the ship's voyages ``voyage_id`` is (1 for her first), counting every
    voyage she made up to it (ids grow with time; voyage.base.voyagenames names it)."""
    row = camp.db.execute(
        "SELECT count(*) FROM voyages WHERE ship = ? COLLATE NOCASE AND id <= ?",
        [ship, voyage_id],
    ).fetchone()
    return int(row[0]) if row else 0
