"""Voyages in the campaign: setting sail, advancing the clock, the log (the referee's
actions between advances: voyage.actions.referee).

This is the store side of :mod:`voyage.engine.clock`: it loads the ships at sea from the campaign,
runs the pure engine with the campaign's roller, and writes the hour rows, the events, the
ships and the voyages back in one transaction
(:meth:`voyage.store.campaigndb.Campaign.action`), so an advance is one undoable action and an
interrupted one leaves the campaign as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from voyage.actions.depthroutes import shoal_warning
from voyage.actions.fightclock import refuse_while_fighting
from voyage.actions.passage import end_lying, expected_hours, expected_text, harbour_world
from voyage.base.errors import VoyageRuleError
from voyage.base.text import plain, plural
from voyage.dice.events import Event
from voyage.engine.clock import (
    UNTIL,
    AdvanceResult,
    Chart,
    Engine,
    SeaStateLookup,
    ShipState,
    World,
    no_storms,
)
from voyage.map import hexes as hexmap
from voyage.map.seamap import sea_hex
from voyage.rules.arrival import lying
from voyage.rules.crewless import already_at_sea
from voyage.rules.drift import current_lookup
from voyage.rules.shoals import draft_chart
from voyage.store.calendarrow import campaign_calendar, clock_text
from voyage.store.campaigndb import Action, Campaign
from voyage.store.logrows import log_event, write_log
from voyage.store.mapstore import campaign_chart, port_weather
from voyage.store.peoplerows import floaters, roster, save_floaters
from voyage.store.voyagerows import (
    insert_voyage,
    moored_states,
    open_voyage,
    open_voyages,
    place_at_sea,
    save_state,
)
from voyage.vessels import boatpower
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import check_can_sail, pace_text
from voyage.vessels.vessel import PACES, Ship
from voyage.world.encounters import encounter_checks
from voyage.world.waterphase import WaterPhase

if TYPE_CHECKING:
    pass


# -- the map and the storms --------------------------------------------------------------


def world_for(
    camp: Campaign, chart: Chart | None = None, storms: SeaStateLookup | None = None
) -> World:
    """The engine's world for the campaign: rule book, map, storms and options."""
    if chart is None:
        chart, found = campaign_chart(camp)
        storms = storms or found

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


def in_port_world(camp: Campaign, world: World) -> World:
    """The world the ships lying in port are stepped in (Engine.moor): the advance's, with
    the storms over their hexes (R103: the rain falls in port, where R60 shelters a ship
    only from the sea)."""
    if world.chart is None:  # (no map: no storms)
        return world
    return replace(world, sea_state=port_weather(camp, world.chart))


# -- setting sail --------------------------------------------------------------------------


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
        hexes = [sea_hex(chart, h) for h in route]
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
    stops = [sea_hex(chart, h) for h in (*via, to)]
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
        camp.set_summary(act, f"{state.ship.name} sails {state.route[0]} -> {state.route[-1]}")
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
    start, avoid = sea_hex(chart, ship.hex), shallows(camp.rulebook)  # R83: and her shoals
    hexes = plan_route(
        draft_chart(chart, ship, camp.rulebook), start, to, via, route, avoid, who=ship.name
    )
    if pace is None:  # the pace set in port with `voyage pace`, checked again at this load
        pace, strain = ship.pace or "normal", ship.strain
    pace, strain = check_pace(ship, camp, pace, strain)
    if ship.design is not None:
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
        end_lying(camp, act, lies)
    pace, strain = planned.pace, planned.strain
    vid = insert_voyage(camp, ship.name, hexes, flags, pace, strain)
    state = ShipState(ship, vid, hexes, inshore=flags, pace=pace, strain=strain)
    ship.status = "at sea"
    save_state(camp, state, camp.clock)
    leg = " inshore" if inshore else ""

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
    """Advance every ship at sea together (one action, one transaction); the people of a
    ship in port use her stores all the same (R101-R103: voyage.store.voyagerows
    moored_states). ``progress`` is told 1 after each hour (the CLI's progress bar)."""
    if hours is None and until is None:
        hours = 1
    if hours is not None and hours < 1:
        raise VoyageRuleError("advance at least 1 hour")
    if until is not None and until not in UNTIL:
        raise VoyageRuleError(f"--until must be one of {', '.join(UNTIL)}")
    with camp.action("advance", "advance") as act:
        # read inside the transaction (BEGIN IMMEDIATE): no other process can change the
        # campaign between what the engine reads and what it writes

        refuse_while_fighting(camp)  # R94: an open fight holds the clock
        states = open_voyages(camp, hours)
        moored = moored_states(camp)  # R101: in port, her people eat and drink

        afloat = floaters(camp)
        someone_afloat = any(f.afloat for f in afloat)
        if not any(s.active for s in states) and until == "arrival":
            raise VoyageRuleError(
                "no ship is at sea to wait for an arrival: advance --hours N or "
                "--until dawn|dusk, or set sail first with `voyage sail SHIP --to CCRR`"
            )
        if (
            until == "event"
            and not any(s.active for s in states)
            and not someone_afloat
            and not moored
        ):  # R101-R102: a ship in port counting her stores has events (run out, 06:00)
            raise VoyageRuleError(
                "nothing can happen to wait for an event: no ship is at sea, nobody is "
                "afloat and no ship in port counts her stores; advance --hours N or "
                "--until dawn|dusk, or set sail first with `voyage sail SHIP --to CCRR`"
            )
        if world is None and not any(s.active for s in states) and not someone_afloat:
            world = harbour_world(camp)
        world = world or world_for(camp)
        start = camp.clock
        engine = Engine(world, states, camp.roller)
        # R36: a voyage open in port for her trouble ends when it is over, her people eating
        berthing = [s for s in states if s.status == "arrived" and s.ship.stores is not None]
        if moored or berthing:
            engine.moor(moored, in_port_world(camp, world), berthing)
        engine.progress = progress
        people = roster(camp)
        if world.chart is not None:
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
        for s in moored:
            camp.save_ship(s.ship)  # her stores, and her people after R102's dawn
        camp.set_clock(result.end)
        summary = f"advance {plural(result.hours_run, 'hour')} to {clock_text(camp, result.end)}"
        if not any(s.active for s in states) and not result.rows:
            summary += " with every ship in port"
        if result.stopped:
            summary += f" (stopped: {result.stopped})"
        camp.set_summary(act, summary)
    return result


def place_ship(camp: Campaign, ship_name: str, hex_name: str, chart: Any = None) -> str:
    """Put a ship in a hex (a port, usually) before she sails (one action)."""
    with camp.action("ship place", f"place {ship_name} at {hex_name}") as act:
        ship = camp.get_ship(ship_name)
        if ship.status == "sunk":
            raise VoyageRuleError(f"{ship.name} is sunk: she lies on the bottom at {ship.hex}")

        current = open_voyage(camp, ship.name)
        if current is not None and not lying(current):
            raise VoyageRuleError(f"{ship.name} is at sea: she moves by sailing")
        if chart is None:
            chart, _ = campaign_chart(camp)
        key = sea_hex(chart, hex_name)
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
