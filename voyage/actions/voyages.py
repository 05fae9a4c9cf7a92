"""Voyages in the campaign: setting sail, advancing the clock, referee actions, the log.

This is the store side of :mod:`voyage.engine.clock`: it loads the ships at sea from the campaign,
runs the pure engine with the campaign's roller, and writes the hour rows, the events, the
ships and the voyages back in one transaction (:meth:`voyage.store.campaign.Campaign.action`), so an
advance is one undoable action and an interrupted one leaves the campaign as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plain, plural
from voyage.dice.events import Event
from voyage.engine.clock import (
    OPEN_STATUSES,
    UNTIL,
    AdvanceResult,
    Chart,
    Engine,
    SeaStateLookup,
    ShipState,
    World,
    dumps,
    no_storms,
)
from voyage.map import hexes as hexmap
from voyage.rules.arrival import lying
from voyage.store.campaign import Action, Campaign
from voyage.store.logrows import log_event, write_log
from voyage.store.perfschema import VOYAGE_SELECT
from voyage.store.routetext import (
    TextFlags,
    TextRoute,
    inshore_text,
    read_inshore,
    read_route,
    route_text,
)
from voyage.vessels import ships as shipfig
from voyage.vessels.vessel import PACES, Ship

if TYPE_CHECKING:
    from voyage.actions.depthroutes import draft_chart, shoal_warning
    from voyage.rules.repair import repair_leak
else:  # setting sail and repairs only, not an advance (issue 14: start-up)
    from voyage.base.lazyimport import lazy

    draft_chart = lazy("voyage.actions.depthroutes", "draft_chart", globals())
    shoal_warning = lazy("voyage.actions.depthroutes", "shoal_warning", globals())
    repair_leak = lazy("voyage.rules.repair", "repair_leak", globals())

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap

OPEN_SQL = "ended IS NULL AND status NOT IN ('sunk', 'abandoned')"
OPEN_V = "v.ended IS NULL AND v.status NOT IN ('sunk', 'abandoned')"


# -- the map and the storms --------------------------------------------------------------


def campaign_chart(camp: Campaign) -> tuple[SeaMap, SeaStateLookup]:
    """The campaign's sea map (voyage.store.mapstore) and its sea states (R60: rolled cells and
    the referee's storms, voyage.world), read once for an advance."""
    from voyage.actions.weather import sea_states_for
    from voyage.base.errors import MapError
    from voyage.store.mapstore import current_map

    try:
        chart = current_map(camp)
    except MapError as exc:
        raise VoyageRuleError(str(exc)) from None
    sea = sea_states_for(camp, chart)
    if not sea.rolled and not sea.storms:
        return chart, no_storms
    return chart, sea.lookup()


def world_for(
    camp: Campaign, chart: Chart | None = None, storms: SeaStateLookup | None = None
) -> World:
    """The engine's world for the campaign: rule book, map, storms and options."""
    if chart is None:
        chart, found = campaign_chart(camp)
        storms = storms or found
    from voyage.rules.drift import current_lookup
    from voyage.tables.calendar import campaign_calendar
    from voyage.world.encounters import encounter_checks

    settings = camp.settings
    return World(
        camp.rulebook,
        chart,
        storms or no_storms,
        bool(settings["water_in_load"]),
        str(settings.get("stuck_escape", "roll")),
        calendar=campaign_calendar(camp),
        current_at=current_lookup(chart),
        encounters=encounter_checks(camp, chart),  # R93
        track_armor=bool(settings.get("track_armor", False)),  # R84
    )


# -- loading and saving state -------------------------------------------------------------


def _state_from_rows(
    camp: Campaign, voyage: dict[str, Any], ship: Ship, hours: int | None = None
) -> ShipState:
    s = ShipState(
        ship=ship,
        voyage_id=voyage["id"],
        # read as asked, or split when ``hours`` will read it all over (issue 14)
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
    # long route is the biggest value in the row (issue 14.5: per-advance cost flat).
    _keep_stored(camp, s)
    return s


def _keep_stored(camp: Campaign, s: ShipState) -> None:
    """Remember the route and flags as stored: a TextRoute or TextFlags itself (never
    changed in place: while it is still the voyage's, the stored text is hers), a plain list
    as a copy (a list may be changed in place, so it is compared item by item)."""
    camp.cache[("route", s.voyage_id)] = (
        s.route if isinstance(s.route, TextRoute) else list(s.route),
        s.inshore if isinstance(s.inshore, TextFlags) else list(s.inshore),
    )


def _route_unchanged(camp: Campaign, s: ShipState) -> bool:
    """Whether the voyage's route and flags are still what was stored (``_keep_stored``):
    the same objects read from the store (no compare of 94,001 hexes, issue 14), or equal."""
    stored = camp.cache.get(("route", s.voyage_id))
    if stored is None:  # never read
        return False
    route, inshore = stored
    return (s.route is route or s.route == route) and (s.inshore is inshore or s.inshore == inshore)


def open_voyages(camp: Campaign, hours: int | None = None) -> list[ShipState]:
    """Every voyage not yet over: ships at sea, or arrived with trouble aboard (R36: a leak,
    a fire, a listing or a sinking goes on in port until it is dealt with). ``hours``: how
    long they will be advanced, if known (routetext.read_route: a year's advance splits
    each route once, a day's reads a long one lazily; the same hexes either way)."""
    rows = list(camp.db.query(f"{VOYAGE_SELECT} WHERE {OPEN_V} ORDER BY v.id"))
    return [_state_from_rows(camp, r, camp.get_ship(r["ship"]), hours) for r in rows]


def open_voyage(camp: Campaign, ship_name: str) -> ShipState | None:
    """The ship's voyage not yet over, if any."""
    sql = f"{VOYAGE_SELECT} WHERE v.ship = ? AND {OPEN_V} ORDER BY v.id DESC LIMIT 1"
    rows = list(camp.db.query(sql, [ship_name]))
    return _state_from_rows(camp, rows[0], camp.get_ship(rows[0]["ship"])) if rows else None


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
        # issue 14.5: the route has its own row (voyage.store.perfschema), written only here
        camp.db.execute(
            "UPDATE voyage_routes SET route = ?, inshore = ? WHERE voyage_id = ?",
            [route_text(s.route), inshore_text(s.inshore), s.voyage_id],
        )
        camp.db.execute(
            "UPDATE voyages SET destination = ? WHERE id = ?", [s.route[-1], s.voyage_id]
        )
        _keep_stored(camp, s)
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
    """Open a voyage row and its route row (voyage.store.perfschema); the new voyage's id."""
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


# -- setting sail --------------------------------------------------------------------------


def _sea_hex(chart: Any, name: str) -> str:
    """A hex name checked against the map: a real name, on the map, and not land."""
    key = hexmap.canonical(name)
    if not chart.in_bounds(key):
        raise VoyageRuleError(chart.off_map_message(key))
    if not chart.is_sea(key):
        raise VoyageRuleError(f"hex {key} is land: a ship cannot sail there")
    return key


def shallows(book: Any) -> list[str]:
    """Terrains of shallow water (R33 project reading): hazards there, routes avoid them."""
    return list(book.procedures["coast"].get("shallow_terrains", ()))


def plan_route(
    chart: Any,
    start: str,
    to: str | None = None,
    via: Sequence[str] = (),
    route: Sequence[str] | None = None,
    avoid: Iterable[str] = (),
    who: str = "the ship",
) -> list[str]:
    """A route from ``start``: the hexes given (each next to the last), or the shortest sea
    route to ``to`` through each of ``via`` in turn (never over land), keeping out of the
    ``avoid`` terrains (shallows, R33) where another way exists."""
    if route:
        hexes = [_sea_hex(chart, h) for h in route]
        if hexes[0] != start:
            hexes.insert(0, start)
        for a, b in zip(hexes, hexes[1:], strict=False):
            if a == b or hexmap.distance(a, b) != 1:
                raise VoyageRuleError(
                    f"hex {b} is not next to {a}: a route is a chain of adjacent sea hexes"
                )
        if len(hexes) < 2:
            raise VoyageRuleError(f"{who} is already at {start}: give a route away from it")
        return hexes
    if not to:
        raise VoyageRuleError("say where to: --to CCRR, or --route CCRR,CCRR,...")
    stops = [_sea_hex(chart, h) for h in (*via, to)]
    hexes = [start]
    for stop in stops:
        if stop == hexes[-1]:
            continue
        leg = chart.route(hexes[-1], stop, avoid=avoid) or chart.route(hexes[-1], stop)
        if not leg:
            raise VoyageRuleError(f"no sea route from {hexes[-1]} to {stop}: land is in the way")
        hexes.extend(leg[1:])
    if len(hexes) < 2:
        raise VoyageRuleError(f"{who} is already at {start}")
    return hexes


def check_pace(ship: Ship, camp: Campaign, pace: str, strain: int) -> tuple[str, int]:
    """R13-R15: normal, slow, or strain N with 1 <= N <= floor(Speed/2); a built boat's
    pace is normal or a speed in mph (R82, voyage.vessels.boatpower)."""
    from voyage.vessels import boatpower

    if ship.design is not None:
        return boatpower.check_boat_pace(ship, camp.rulebook, pace, strain, camp.water_in_load), 0
    if boatpower.is_mph(pace):
        raise VoyageRuleError(
            f"{ship.name} is a rolled ship: her pace is normal, slow or strain N (R13-R15); "
            "a speed in mph is for built boats (R82)"
        )
    if pace not in PACES:
        raise VoyageRuleError(f"unknown pace {pace!r}: use normal, slow or strain")
    if pace != "strain":
        return pace, 0
    if not shipfig.has_engine(ship):
        raise VoyageRuleError(f"{ship.name} has no engine to strain (R14)")
    if ship.engine_broken:
        raise VoyageRuleError(f"{ship.name}'s engine is broken: it cannot strain (R14)")
    cruising = shipfig.cruising_speed(ship, camp.rulebook, camp.water_in_load, powered=True)
    most = shipfig.max_strain(cruising)
    if strain < 1 or strain > most:
        raise VoyageRuleError(
            f"{ship.name} may strain 1 to {most} knots over her Speed of {cruising} (R14), "
            f"not {strain}"
            if most
            else f"{ship.name}'s Speed of {cruising} is too low to strain (R14: at most "
            f"floor(Speed/2) = 0 extra knots)"
        )
    return pace, strain


def sail(
    camp: Campaign,
    ship_name: str,
    to: str | None = None,
    via: Sequence[str] = (),
    route: Sequence[str] | None = None,
    pace: str | None = None,
    strain: int = 0,
    inshore: bool = False,
    chart: Any = None,
) -> ShipState:
    """Set sail (one action): check the order, plan the route, open the voyage."""
    with camp.action("sail", f"{ship_name} sails") as act:
        state = _sail(camp, act, ship_name, to, via, route, pace, strain, inshore, chart)
        camp.db.execute(
            "UPDATE actions SET summary = ? WHERE id = ?",
            [f"{state.ship.name} sails {state.route[0]} -> {state.route[-1]}", act.id],
        )
    return state


def planned_voyage(
    camp: Campaign,
    ship_name: str,
    to: str | None = None,
    via: Sequence[str] = (),
    route: Sequence[str] | None = None,
    pace: str | None = None,
    strain: int = 0,
    inshore: bool = False,
    chart: Any = None,
) -> ShipState:
    """The voyage `voyage sail` would open, checked and planned but not written (voyage id
    0): what :func:`sail` records, and what a forecast (voyage.actions.forecast) sails in memory."""
    ship = camp.get_ship(ship_name)
    if ship.status == "sunk":
        raise VoyageRuleError(f"{ship.name} is sunk: she sails nowhere")
    if ship.status == "abandoned":
        raise VoyageRuleError(f"{ship.name} was abandoned: she has no crew to sail her")
    current = open_voyage(camp, ship.name)
    if current is not None and lying(current):
        pass  # anchored or adrift (R65, R64): `sail` ends that voyage and opens this one
    elif current is not None and current.status == "arrived":
        raise VoyageRuleError(
            f"{ship.name}'s voyage {current.voyage_id} is still open at {current.hex}: her "
            f"trouble goes on in port (R36); repair her leaks (`voyage act {ship.name!r} "
            f"repair leak`, R86) or sail on with `voyage act {ship.name!r} course --to CCRR`"
        )
    elif current is not None:
        from voyage.actions.crewless import already_at_sea

        raise already_at_sea(ship, current)
    if chart is None:
        chart, _ = campaign_chart(camp)
    if not ship.hex:
        raise VoyageRuleError(
            f"{ship.name} is nowhere on the map: put her in a port first "
            f"with `voyage ship place {ship.name!r} CCRR`"
        )
    if not ship.crew:  # nobody to sail her (nor to row, fight a fire or pump: R50, R70)
        raise VoyageRuleError(
            f"{ship.name} has no crew to sail her: `voyage ship load {ship.name!r} --crew N`"
        )
    start, avoid = _sea_hex(chart, ship.hex), shallows(camp.rulebook)  # R83: and her shoals
    hexes = plan_route(
        draft_chart(chart, ship, camp.rulebook), start, to, via, route, avoid, who=ship.name
    )
    if pace is None:  # the pace set in port with `voyage pace`, checked again at this load
        pace, strain = ship.pace or "normal", ship.strain
    pace, strain = check_pace(ship, camp, pace, strain)
    if ship.design is not None:
        from voyage.vessels.boatpower import check_can_sail

        check_can_sail(ship)  # R82, R85: charge, plant and propellers, unless she rows
    if shipfig.has_engine(ship) and not shipfig.rows(ship):
        if ship.engine_broken:
            raise VoyageRuleError(
                f"{ship.name}'s engine is broken: repair it first "
                f"(`voyage act {ship.name!r} repair engine`)"
            )
        if ship.fuel <= 0:
            raise VoyageRuleError(
                f"{ship.name} has no fuel: she would only drift (R13); refuel or load fuel first"
            )
    flags = [False] + [bool(inshore and chart.hex(h).coastal) for h in hexes[1:]]
    return ShipState(ship, 0, hexes, inshore=flags, pace=pace, strain=strain)


def _sail(
    camp: Campaign,
    act: Action,
    ship_name: str,
    to: str | None,
    via: Sequence[str],
    route: Sequence[str] | None,
    pace: str | None,
    strain: int,
    inshore: bool,
    chart: Any,
) -> ShipState:
    planned = planned_voyage(camp, ship_name, to, via, route, pace, strain, inshore, chart)
    ship, hexes, flags = planned.ship, planned.route, planned.inshore
    if (lies := open_voyage(camp, ship.name)) is not None:  # anchored or adrift: it ends
        from voyage.actions.passage import end_lying

        end_lying(camp, act, lies)
    pace, strain = planned.pace, planned.strain
    vid = insert_voyage(camp, ship.name, hexes, flags, pace, strain)
    state = ShipState(ship, vid, hexes, inshore=flags, pace=pace, strain=strain)
    ship.status = "at sea"
    save_state(camp, state, camp.clock)
    leg = " inshore" if inshore else ""
    from voyage.actions.passage import expected_hours, expected_text

    with_current, still_water = expected_hours(camp, state, chart)
    text = (
        f"{ship.name} sets sail from {hexes[0]} for {hexes[-1]}{leg}: "
        f"{plural(len(hexes) - 1, 'hex', 'hexes')} ({(len(hexes) - 1) * 12} miles), "
        f"{_pace_words(ship, camp, pace)}{f' +{strain} knots' if pace == 'strain' else ''}; "
        f"{expected_text(with_current, still_water)}."
    ) + (f" {warn}" if (warn := shoal_warning(camp, chart, ship, hexes)) else "")
    changes = {"route": hexes, "pace": pace, "expected_hours": with_current}
    log_event(camp, act, ship.name, vid, Event("sail", text, [], 0, changes))
    return state


def _pace_words(ship: Ship, camp: Campaign, pace: str) -> str:
    """``pace normal``, or a built boat's ``at 60 mph, 21.6 power units a hex`` (R82)."""
    if ship.design is None:
        return f"pace {pace}"
    from voyage.vessels.boatpower import pace_text

    use = plain(shipfig.fuel_use(ship, camp.rulebook, pace, camp.water_in_load))
    return f"at {pace_text(pace, ship, camp.rulebook, camp.water_in_load)}, {use} power units a hex"


# -- advancing the clock --------------------------------------------------------------------


def advance(
    camp: Campaign,
    hours: int | None = None,
    until: str | None = None,
    world: World | None = None,
    progress: Callable[[int], None] | None = None,
) -> AdvanceResult:
    """Advance every ship at sea together (one action, one transaction). ``progress`` is
    told 1 after each hour (the CLI's progress bar)."""
    if hours is None and until is None:
        hours = 1
    if hours is not None and hours < 1:
        raise VoyageRuleError("advance at least 1 hour")
    if until is not None and until not in UNTIL:
        raise VoyageRuleError(f"--until must be one of {', '.join(UNTIL)}")
    with camp.action("advance", "advance") as act:
        # read inside the transaction (BEGIN IMMEDIATE): no other process can change the
        # campaign between what the engine reads and what it writes
        from voyage.actions.fightclock import refuse_while_fighting

        refuse_while_fighting(camp)  # R94: an open fight holds the clock
        states = open_voyages(camp, hours)
        from voyage.actions.people import floaters, roster, save_floaters

        afloat = floaters(camp)
        someone_afloat = any(f.afloat for f in afloat)
        if not any(s.active for s in states) and (
            until == "arrival" or (until == "event" and not someone_afloat)
        ):
            raise VoyageRuleError(
                f"no ship is at sea to wait for an {until}: advance --hours N or "
                "--until dawn|dusk, or set sail first with `voyage sail SHIP --to CCRR`"
            )
        if world is None and not any(s.active for s in states) and not someone_afloat:
            from voyage.actions.passage import harbour_world

            world = harbour_world(camp)
        world = world or world_for(camp)
        start = camp.clock
        engine = Engine(world, states, camp.roller)
        engine.progress = progress
        people = roster(camp)
        if world.chart is not None:
            from voyage.world.waterphase import WaterPhase

            # R71-R74: rafts and people in the water, and ships that go down with people aboard
            engine.water = WaterPhase(engine, afloat, people, camp.settings)
        result = engine.run(start, hours, until)
        if engine.water is not None:  # as they stand when the advance ends (m140)
            save_floaters(camp, engine.water.floaters, people, result.end)
        elif someone_afloat:  # not stepped (no map): their hours swum stay as they were
            save_floaters(camp, afloat, people, result.end)
        write_log(camp, act, result)
        for s in states:
            save_state(camp, s, start + max(0, result.hours_run - 1))
        camp.set_clock(result.end)
        summary = f"advance {plural(result.hours_run, 'hour')} to {clock_text(camp, result.end)}"
        if not any(s.active for s in states) and not result.rows:
            summary += " with every ship in port"
        if result.stopped:
            summary += f" (stopped: {result.stopped})"
        camp.db.execute("UPDATE actions SET summary = ? WHERE id = ?", [summary, act.id])
    return result


def clock_text(camp: Campaign, clock: int, minute: int = 0) -> str:
    """A campaign time as people read it (voyage.tables.calendar.format_time: ``12 Jun 1492,
    14:00`` or ``Day 3, 14:00``)."""
    from voyage.tables.calendar import campaign_calendar, format_time

    return format_time(campaign_calendar(camp), clock, minute)


# -- referee actions -------------------------------------------------------------------------

ACTIONS = (
    "jettison",
    "refuel",
    "repair",
    "pump",
    "fight-fire",
    "saved",
    "abandon",
    "refloat",
    "anchor",
    "weigh",
    "course",
    "pace",
    "search",
    "rescue",
    "tow",
    "cast-off",
    "recharge",
    "dive",  # R84
    "surface",
    "salvage",  # R83
    "pumps",  # R85: the bilge pumps' switch
)


def _voyage_or_fail(s: ShipState | None, ship: Ship, what: str) -> ShipState:
    if s is None:
        raise VoyageRuleError(f"{ship.name} is not at sea: {what} is for a ship on a voyage")
    return s


def referee_action(
    camp: Campaign,
    ship_name: str,
    what: str,
    amount: int | None = None,
    target: str | None = None,
    crew: int | None = None,
    to: str | None = None,
    via: Sequence[str] = (),
    route: Sequence[str] | None = None,
    pace: str | None = None,
    strain: int = 0,
    chart: Any = None,
    names: Sequence[str] = (),
    everyone: bool = False,
    now: bool = False,
) -> Event:
    """A referee's action between advances (one undoable action), logged as an event."""
    with camp.action(f"act {what}", f"{what} {ship_name}") as act:
        if what == "rescue":
            from voyage.actions.people import rescue_action

            event = rescue_action(camp, act, ship_name, list(names), everyone)
        else:
            event = _referee_action(
                camp,
                act,
                ship_name,
                what,
                amount,
                target,
                crew,
                to,
                via,
                route,
                pace,
                strain,
                chart,
                now,
            )
        summary = event.text.split("\n", 1)[0]  # the action's own line (R84: not its dice)
        camp.db.execute("UPDATE actions SET summary = ? WHERE id = ?", [summary, act.id])
    return event


def _referee_action(
    camp: Campaign,
    act: Action,
    ship_name: str,
    what: str,
    amount: int | None,
    target: str | None,
    crew: int | None,
    to: str | None,
    via: Sequence[str],
    route: Sequence[str] | None,
    pace: str | None,
    strain: int,
    chart: Any,
    now: bool = False,
) -> Event:
    ship = camp.get_ship(ship_name)
    if ship.status == "sunk":
        raise VoyageRuleError(f"{ship.name} is sunk: nothing more can be done for her")
    if ship.status == "abandoned":  # it once said "not at sea", or "carries only 0 hlbs"
        where = f" at {ship.hex}" if ship.hex else ""
        raise VoyageRuleError(
            f"{ship.name} was abandoned{where}: nobody is aboard her to {what} "
            "(her people are listed by `voyage survivors`)"
        )
    s = open_voyage(camp, ship.name)
    if s is not None:
        ship = s.ship  # one Ship: what the action changes is what is saved
    from voyage.actions.crewless import adrift_now, refuse_crewless

    refuse_crewless(camp, ship, s, what, target, chart)  # R70: nobody aboard to work her
    book = camp.rulebook
    changes: dict[str, Any] = {}
    after: list[Any] = []  # the engine's events that follow the action's (R84's dive)
    if what == "jettison":
        if not amount or amount < 1:
            raise VoyageRuleError("say how many hlbs of cargo to throw over, e.g. jettison 100")
        if amount > ship.cargo:
            raise VoyageRuleError(f"{ship.name} carries only {ship.cargo} hlbs of cargo")
        ship.cargo -= amount
        text = f"{ship.name} throws {amount} hlbs of cargo overboard ({ship.cargo} left)."
        changes = {"cargo": ship.cargo}
    elif what == "refuel":
        text, changes = _refuel(camp, ship, s, amount, chart)
    elif what == "recharge":
        from voyage.actions.boatactions import recharge  # R82

        text, changes = recharge(camp, ship, s, chart)
    elif what == "repair":
        s = _voyage_or_fail(s, ship, "repairing a leak") if target == "leak" else s
        if target == "engine":
            if not ship.engine_broken:
                raise VoyageRuleError(f"{ship.name}'s engine is not broken")
            ship.engine_broken = False
            text = f"The engine of {ship.name} is repaired."
            changes = {"engine_broken": False}
        elif target == "leak":
            assert s is not None
            # R86: at sea the crew set to work (2d6 every 10 minutes); --now: patched at once
            text, changes = repair_leak(s, ship, amount, None if now else camp.clock * 60)
        elif target == "propellers":
            from voyage.actions.boatactions import repair_propellers  # R85

            text, changes = repair_propellers(camp, ship, s, chart)
        elif target == "armor":
            from voyage.actions.boatactions import repair_armor  # R84

            text, changes = repair_armor(camp, ship, s, chart)
        else:
            raise VoyageRuleError(
                "repair what? `repair engine`, `repair leak N`, "
                "`repair propellers` or `repair armor`"
            )
    elif what == "pump":
        if not amount or amount < 1:
            raise VoyageRuleError("say how many hlbs of water to pump out, e.g. pump 20")
        if ship.water <= 0:
            raise VoyageRuleError(f"{ship.name} has no water aboard to pump out")
        out = min(amount, ship.water)
        ship.water -= out
        if s is not None:
            from voyage.rules.leakwater import pumped_dry

            pumped_dry(s)  # R36: bailed dry, the part of an hlb goes too
        text = f"The crew of {ship.name} pump and bail out {out} hlbs of water ({ship.water} left)."
        changes = {"water": ship.water}
        if s is not None and s.listing:
            dw = shipfig.deadweight(ship, book)
            from voyage.rules.flooding import flooding_state

            if not flooding_state(ship.water, dw, book).listing and s.sinking_in is None:
                s.listing, s.listing_since = False, None
                text += " She no longer lists (R37)."
    elif what == "fight-fire":
        s = _voyage_or_fail(s, ship, "fighting a fire")
        if not s.fire and s.swallow_in is None:
            raise VoyageRuleError(f"{ship.name} is not on fire")
        if crew is None or crew < 0:
            raise VoyageRuleError("say how many crew fight the fire: fight-fire --crew N")
        aboard = ship.crew + ship.passengers
        if crew > aboard:
            raise VoyageRuleError(f"only {aboard} people are aboard {ship.name}")
        s.fire_crew = crew
        text = f"{crew} aboard {ship.name} fight the fire (severity {s.fire}; R50)."
        changes = {"fire_crew": crew}
    elif what == "saved":
        s = _voyage_or_fail(s, ship, "saving a ship")
        if s.sinking_in is None:
            raise VoyageRuleError(f"{ship.name} is not sinking")
        s.sinking_in = s.sinking_since = None
        s.capsized = False
        text = f"The referee declares {ship.name} saved: she stays afloat (R40)."
        changes = {"sinking": False}
    elif what == "abandon":
        from voyage.actions.abandonship import abandon_voyage

        s = _voyage_or_fail(s, ship, "abandoning ship")
        if chart is None:
            chart, _ = campaign_chart(camp)
        # R71: rafts, jackets, the water; R40, R50: a sinking ship's clock runs on
        text, changes = abandon_voyage(camp, ship, s, chart)
    elif what == "search":
        from voyage.actions.people import start_search

        text, s = start_search(camp, ship, s)
        changes = {"searching": True}
    elif what == "refloat":
        s = _voyage_or_fail(s, ship, "refloating")
        if s.status != "stuck":
            raise VoyageRuleError(f"{ship.name} is not stuck")
        s.status = "under way"
        text = f"{ship.name} is got off the bottom: afloat again (R34, the referee's call)."
        changes = {"stuck": False}
        adrift = adrift_now(s)  # R70: with no crew aboard nobody sails her (R64)
        if adrift:
            text, changes["status"] = f"{text} {adrift}", s.status
    elif what in ("anchor", "weigh"):
        from voyage.actions.passage import anchor_or_weigh

        s = _voyage_or_fail(s, ship, "anchoring")
        text, changes = anchor_or_weigh(camp, ship, s, what, chart)
    elif what in ("tow", "cast-off"):
        from voyage.actions.towing import tow_action  # R92

        text, changes = tow_action(camp, act, _voyage_or_fail(s, ship, "towing"), what, target)
    elif what == "pumps":
        from voyage.rules.pumps import switch_pumps  # R85

        text, changes = switch_pumps(ship, target or "", book)
    elif what in ("dive", "surface", "salvage"):
        from voyage.actions.depthacts import depth_action  # R83, R84

        s = _voyage_or_fail(s, ship, what)
        text, changes, after = depth_action(camp, ship, s, what, amount, chart)
    elif what == "course":
        s = _voyage_or_fail(s, ship, "changing course")
        if chart is None:
            chart, _ = campaign_chart(camp)
        hexes = plan_route(
            draft_chart(chart, ship, camp.rulebook),
            s.hex,
            to,
            via,
            route,
            shallows(camp.rulebook),
            who=ship.name,
        )  # R83: round her shoals
        flags = [False] + [bool(f) for f in _inshore_flags(chart, hexes[1:], s)]
        if s.route[s.position + 1 : s.position + 2] != hexes[1:2]:
            s.progress = 0  # a new heading: the miles toward the old next hex are lost
        s.route = [*s.route[: s.position], *hexes]
        s.inshore = [*s.inshore[: s.position], *flags]
        if s.status == "arrived":
            s.status = "under way"
        s.searching = False  # R74: a new course ends a search
        # a voyage sailed inshore goes on inshore (R33): said, as `course` has no --inshore
        close = ", inshore as she sailed" if any(flags) else ""
        text = (
            f"{ship.name} changes course at {hexes[0]} for {hexes[-1]} "
            f"({plural(len(hexes) - 1, 'hex', 'hexes')}{close})."
        )
        from voyage.actions.depthacts import bottom_on_course

        text += bottom_on_course(camp, ship, s, chart)  # R84: a sub deep on her new course
        changes = {"route": hexes}
    elif what == "pace":
        new_pace, new_strain = check_pace(ship, camp, pace or "normal", strain)
        if s is not None:
            s.pace, s.strain = new_pace, new_strain
        ship.pace, ship.strain = new_pace, new_strain
        text = f"{ship.name} goes at {new_pace} pace" + (
            f", straining {plural(new_strain, 'knot')} over her Speed (R14)."
            if new_pace == "strain"
            else " (R15)."
            if new_pace == "slow"
            else "."
        )
        if ship.design is not None:  # R82: her speed in mph and what a hex costs
            from voyage.vessels.boatpower import pace_line

            text = pace_line(ship, book, camp.water_in_load)
        changes = {"pace": new_pace, "strain": new_strain}
    else:
        raise VoyageRuleError(f"unknown action {what!r}: use one of {', '.join(ACTIONS)}")
    if s is not None:
        save_state(camp, s, camp.clock)
    else:
        camp.save_ship(ship)
    if what == "refuel" and "port" in changes:
        from voyage.store.portfuel import record_sale

        record_sale(camp, changes["port"], changes["bought"])
    event = Event(what, text, [], 0, changes)
    log_event(camp, act, ship.name, s.voyage_id if s else None, event)
    lines = [text]
    for later in after:
        log_event(camp, act, later.ship, later.voyage_id, later.event)
        lines += [later.event.text, *(f"  {r.line()}" for r in later.event.rolls)]
    # what the referee is shown: the action, then what followed it with its dice
    return Event(what, "\n".join(lines), [], 0, changes) if after else event


def _inshore_flags(chart: Any, hexes: Iterable[str], s: ShipState) -> list[bool]:
    """Keep sailing inshore on a new course if the voyage was sailed inshore."""
    was_inshore = any(s.inshore)
    return [was_inshore and bool(chart.hex(h).coastal) for h in hexes]


def _refuel(
    camp: Campaign, ship: Ship, s: ShipState | None, amount: int | None, chart: Any
) -> tuple[str, dict[str, Any]]:
    if not amount or amount < 1:
        raise VoyageRuleError("say how many hlbs of fuel to buy, e.g. refuel 40")
    if ship.design is not None:
        raise VoyageRuleError(
            f"{ship.name} is a built boat: she runs on a charge, not fuel "
            f"(R82); `voyage act {ship.name!r} recharge` in a port"
        )
    if not shipfig.has_engine(ship):
        raise VoyageRuleError(f"{ship.name} has no engine: she burns no fuel")
    if s is not None and s.status == "under way":
        raise VoyageRuleError(f"{ship.name} is under way: anchor in a port to refuel")
    if chart is None:
        chart, _ = campaign_chart(camp)
    if not ship.hex:
        raise VoyageRuleError(f"{ship.name} is nowhere on the map")
    info = chart.hex(ship.hex)
    if not info.port:
        raise VoyageRuleError(f"{ship.hex} is not a port: fuel is sold only in ports")
    if info.fuel is None:
        raise VoyageRuleError(f"{info.port} ({ship.hex}) sells no fuel")
    from voyage.store.portfuel import stock_left

    left = stock_left(camp, info)
    if left is not None and amount > left:
        raise VoyageRuleError(f"{info.port} has only {left} hlbs of fuel left to sell")
    book = camp.rulebook
    ship.fuel += amount
    total = shipfig.load(ship, book, camp.water_in_load)
    if total > shipfig.sinking_load(ship, book):
        raise VoyageRuleError(
            f"{amount} hlbs more fuel would sink {ship.name}: a Load of "
            f"{total} hlbs is over twice her Deadweight (R12)"
        )
    cost = amount * info.fuel.price
    text = (
        f"{ship.name} buys {amount} hlbs of fuel at {info.port} for {cost:g} "
        f"({info.fuel.price:g} a hlb); {ship.fuel} hlbs aboard."
    )
    return text, {"fuel": ship.fuel, "bought": amount, "port": ship.hex, "cost": cost}


def place_ship(camp: Campaign, ship_name: str, hex_name: str, chart: Any = None) -> str:
    """Put a ship in a hex (a port, usually) before she sails (one action)."""
    with camp.action("ship place", f"place {ship_name} at {hex_name}") as act:
        ship = camp.get_ship(ship_name)
        if ship.status == "sunk":
            raise VoyageRuleError(f"{ship.name} is sunk: she lies on the bottom at {ship.hex}")
        from voyage.actions.passage import end_lying, place_at_sea

        current = open_voyage(camp, ship.name)
        if current is not None and not lying(current):
            raise VoyageRuleError(f"{ship.name} is at sea: she moves by sailing")
        if chart is None:
            chart, _ = campaign_chart(camp)
        key = _sea_hex(chart, hex_name)
        info = chart.hex(key)
        if current is not None:  # anchored or adrift (R65, R64): that voyage ends here
            end_lying(camp, act, current)
            ship = current.ship
        ship.hex = key
        opened = None
        if info.port:
            ship.status = "in port"
            text = f"{ship.name} is at {info.port} ({key})."
        else:  # R65: at anchor where she can anchor, else adrift (R64)
            text = place_at_sea(camp, ship, info)
            opened = open_voyage(camp, ship.name)
        camp.save_ship(ship)
        vid = opened.voyage_id if opened else None
        log_event(camp, act, ship.name, vid, Event("place", text))
    return text


# -- reading the log: voyage.store.voyagelog (re-exported here for the callers that import it) --
from voyage.store.voyagelog import (  # noqa: E402, F401
    event_rows,
    hour_rows,
    status_rows,
    voyage_list,
    voyage_tracks,
)
