"""The engine's quiet ship-hour in one step (issue 14: the year-long engine bench).

Most hours of a voyage roll no dice and log nothing: a rolled ship under way in open water,
nothing wrong aboard, not straining, no current, every hex she enters open and calm and not
her destination, fuel to spare. :func:`quiet_hour` sails such an hour straight through and
writes its hour row, exactly as :class:`voyage.engine.clock._ShipHour` would (the same state after,
the same row, no dice drawn); any other hour it leaves untouched and returns None, and the
engine steps it minute by minute as before. It decides from what the hour starts with, and
changes nothing before it knows the hour is quiet.

What makes an hour not quiet here (each is a phase of the slow path that might roll, log or
change something): a status other than under way; a fire, listing, sinking, capsize, leak or
water aboard (R36-R41, R50); a search (R74); R83-R86 work (``more``), pumps switched on (R85)
or a built boat (R80-R86: her figures are the slow path's); a current in her hex (R64); an
Overload (R41); out of fuel at the edge of her next hex or on
entering one (R16); a hex entered that is her destination, inshore, a narrow passage or
shallows (R33) or storm-tossed (R32, R60); an hour spent in a storm-tossed hex (R32, R60).
A straining engine (R14) rolls here, as the slow path rolls it, when the rest of the hour is
quiet: holding, the hour goes on quietly; broken, the slow path takes over from that roll.
An hour that is quiet at its start but enters such hexes (inshore, shallows, storm) rolls
them here as _ShipHour.enter_hex rolls them (:func:`_rolled_hour`), and makes the slow
path's _ShipHour only when something needs it (a capsize, a hazard found, a
same-hex storm Check due).
A ship stuck aground (R34) with nothing else wrong has her hour here too
(:func:`stuck_hour`: her try to get off; afloat, the rest of her hour is an under way
ship's). tests/test_quickhour.py steps random voyages both ways.

The engine runs :func:`quiet_ships`, the loop over its ships with the quiet hour inline
(:func:`quiet_hour` is its one-ship form); the rules' ``coast_event``, ``capsize_event`` and
``strain_hour`` give the very rolls and events of ``coast_hazard``, ``capsize_check`` and
``strain_check`` without their result records (issue 14: thousands a year). Each change is
checked by bench/engine_digest.py (the year's rows, events, rolls and states unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from voyage.base.text import plain
from voyage.dice.events import Event, LoggedEvent
from voyage.engine.shipstate import MINUTES, HourRow, ShipState
from voyage.rules.aground import coast_event, stuck_event
from voyage.rules.capsize import capsize_event, storm_clock
from voyage.rules.drift import NO_CURRENT
from voyage.rules.strain import strain_hour
from voyage.vessels.submersible import submerged

#: voyage.engine.clock.Engine, whose hours these are: it imports this module, and this
#: module asks it for its ship-hour (Engine.ship_hour) rather than import it
Engine = Any

_HOUR_ROW: Any = None  #: voyage.engine.shipstate.HourRow (bound on first use)
_new = object.__new__


#: the fields quiet_hour sets on the hour rows it makes
_ROW_FIELDS = (
    "voyage_id", "ship", "clock", "hex", "miles", "speed", "pace", "fuel", "load",
    "load_category", "water", "leaks", "status",
)  # fmt: skip


def _bind() -> Any:
    """voyage.engine.shipstate.HourRow, its fields checked
    (quiet_hour sets its fields one by one: a field added to it must be set there too)."""
    global _HOUR_ROW
    row_class = HourRow
    if tuple(f.name for f in fields(row_class)) != _ROW_FIELDS:
        raise RuntimeError("HourRow's fields changed: quiet_hour must set them all")
    _HOUR_ROW = row_class
    return _HOUR_ROW


def quiet_hour(e: Engine, s: ShipState, clock: int, out: list[LoggedEvent]) -> HourRow | None:
    """The hour row of ship ``s``'s hour from ``clock`` if it is quiet (and she has sailed
    it; the strain roll's event, if any, appended to ``out``), else None with nothing
    changed and nothing rolled (the engine steps the hour)."""
    rows: list[Any] = []
    quiet_ships(e, (s,), clock, out, rows, _not_quiet)
    return rows[0] if rows else None


#: quiet_ships' sea before it is asked for (:func:`quiet_ships`)
_UNASKED: Any = object()


def _not_quiet(s: ShipState) -> None:
    return None


def quiet_ships(
    e: Engine,
    ships: Iterable[ShipState],
    clock: int,
    out: list[LoggedEvent],
    rows: list[Any],
    slow: Callable[[ShipState], Any],
) -> None:
    """Engine.hour's ships, in order: the hour row of each ship it steps (under way, or
    active, ShipState.active) appended to ``rows``, a quiet hour sailed here as
    :func:`quiet_hour` sails it, any other by ``slow(s)`` (nothing changed or rolled here
    first). One loop for the fleet: what the engine and its world hold is looked up once
    an hour, not once a ship-hour (issue 14)."""
    world = e.world
    current_at = world.current_at
    currents = current_at is not NO_CURRENT
    # a map's currents as a dict (voyage.rules.drift.current_lookup gives its get): asked
    # with `in` rather than a call every ship-hour (R64)
    current_map = getattr(current_at, "__self__", None)
    if type(current_map) is not dict:
        current_map = None
    sea_state = world.sea_state
    # the hour's storm-tossed hexes and the sheltered ports (R60), asked once an hour (by
    # the first ship that sails it quietly) of a SeaStates lookup (voyage.world.seastate):
    # sea_state(h, clock) is 0 for h in ports, else seas.get(h, 0)
    of_hour: Any = getattr(sea_state, "of_hour", None)
    seas: Any = None if of_hour is None else _UNASKED
    ports: Any = None
    water_in_load = world.water_in_load
    fuel_weighs, fixed, deadweight = e._fuel_weighs, e._fixed, e._dw
    categories, memo, opened, known = e._categories, e._memo, e._open, e._quiet_figures
    hex_miles = e._hex_miles
    stuck_rolls = world.stuck_escape == "roll"  # R34: a stuck ship tries to get off
    append = rows.append
    for s in ships:
        status = s.status
        if status != "under way" and (status != "stuck" or not stuck_rolls):
            if s.active:
                append(slow(s))
            continue
        # (a ship stuck aground, R34, is asked the same as one under way, then tries to get
        # off below)
        if (
            s.leaks
            or s.fire
            or s.listing
            or s.capsized
            or s.searching
            or s.more
            or s.new_leaks
            or s.sinking_in is not None
            or s.swallow_in is not None
        ):
            append(slow(s))
            continue
        ship = s.ship
        if ship.water or ship.design is not None:
            append(slow(s))
            continue
        eq = ship.equipment
        # (`in` first: the keys are seldom there, and a look-up costs less than a call)
        if ("pumps_on" in eq or "pumps_switch" in eq) and (
            eq.get("pumps_on") or eq.get("pumps_switch") == "on"
        ):
            append(slow(s))  # R85: the pumps work this hour
            continue
        if status == "stuck":
            if ship.crew < 1:  # R70: nobody to try to get her off (voyage.rules.crewphase)
                append(slow(s))
                continue
            row = stuck_hour(e, s, clock, out)
            if row is None:
                append(slow(s))
                continue
            if row is not AFLOAT:
                append(row)
                continue
            # R34: she got off; the rest of her hour is an under way ship's (below)
        route = s.route
        position = s.position
        last = len(route) - 1
        if position >= last:
            append(slow(s))
            continue
        # her hex, read once (a voyage's route is read from its text a hex at a time,
        # voyage.map.routetext: each read cuts a new string out of it)
        here = route[position]
        if currents and (
            (here in current_map and current_map[here] is not None)
            if current_map is not None
            else current_at(here) is not None
        ):
            append(slow(s))  # R64: a current helps or hinders her
            continue
        name = ship.name
        fuel = ship.fuel
        # R92: a tow counts in her load category (R41 too)
        tow = eq["tow_counted"] if "tow_counted" in eq else None  # noqa: SIM401 (no call)
        # her Load as _load counts it (inline: every ship-hour)
        weighs = fuel_weighs[name]
        load = ship.cargo + (fuel if weighs else 0) + fixed[name] + (tow or 0)
        if water_in_load:
            load += ship.water
        powered = ship.engine_tier is not None and not ship.engine_broken and fuel > 0  # R13
        # her load category, figures and what they make of the hour, by what decides them
        # (worked out as below once per ship, Load and pace: issue 14, every ship-hour)
        key = (name, load, powered, s.pace, s.strain, tow)
        hour = known.get(key)
        if hour is None:
            dw = deadweight[name]
            category = categories.get((load, dw)) or e.category_of(load, dw)
            if category == "overloaded":
                append(slow(s))  # R41: a capsize Check every hour
                continue
            figures = memo.get((name, category, powered, s.pace, s.strain, tow, None))
            speed, fuel_use, cruising = figures if figures is not None else e.figures(s, category)
            hour = known[key] = (
                category,
                speed,
                fuel_use,
                cruising,
                type(speed) is int and speed > 0,  # she makes way (else the slow path's)
                s.pace == "strain" and speed > cruising and powered,  # R14: rolled below
                bool(fuel_use and powered),  # R16: she burns fuel hex by hex
            )
        category, speed, fuel_use, cruising, sails, strain, burns = hour
        if not sails:
            append(slow(s))
            continue
        progress = s.progress
        if burns and fuel < fuel_use and progress >= hex_miles:
            append(slow(s))  # R16: adrift at her next hex's edge
            continue
        if seas is _UNASKED:
            seas, ports = of_hour(clock)
        need = hex_miles - progress
        entered = 0
        rolls = False  # a coast hazard (R33) or storm (R32, R60) roll this hour
        if need <= speed:
            # each hex entered: -1 for open, calm water, else its sea state (0 calm:
            # inshore, a narrow passage or shallows, R33), as _ShipHour.enter_hex enters it
            calm: list[int] = []
            inshore = s.inshore
            left = fuel
            while need <= speed:
                at = position + entered + 1
                if at >= last:
                    break  # she arrives (the slow path logs it)
                if burns:
                    if left <= fuel_use:
                        break  # R16: short of it, or burns her last
                    left -= fuel_use
                there = route[at]
                ok = opened.get(there)
                if ok is None:
                    ok = opened[there] = open_hex(e, there)
                if seas is None:
                    level = int(sea_state(there, clock))
                elif there in seas:
                    level = 0 if there in ports else seas[there]
                else:
                    level = 0
                if ok and not level and not (at < len(inshore) and inshore[at]):
                    calm.append(-1)
                else:
                    calm.append(level)
                    rolls = True
                entered += 1
                need += hex_miles
            if need <= speed:  # (the loop above broke off)
                append(slow(s))
                continue
        elif (
            sea_state(here, clock)
            if seas is None
            else here in seas and seas[here] and here not in ports
        ):
            rolls = True  # R32/R60: an hour in a storm-tossed hex counts toward its Check
            calm = []  # (no hex entered)
        if rolls:
            append(
                _rolled_hour(e, s, clock, out, (speed, fuel_use, cruising), category, strain, calm)
            )
            continue
        if strain:
            # R14: the hour is quiet but for the straining engine's roll, made as the slow
            # path makes it (nothing was rolled before it this hour). Holding, it only logs;
            # broken, the slow path takes the hour on from there (R13, R50).
            result = strain_hour(speed - cruising, e.roller, e.book, speed=cruising)
            if type(result) is not Event:  # broken
                h = e.ship_hour(s, clock, out)
                h.moving = True
                h.speed, h.fuel_use, h.cruising = speed, fuel_use, cruising
                h.strained(result)
                h.make_way()
                h.hourly_capsize(category)
                append(_broken_sail(e, h))
                continue
            out.append(LoggedEvent(s.voyage_id, name, clock, result))  # holding (min 0)
        # the hour is quiet: sail it as the slow path does
        if entered:
            if burns:
                ship.fuel -= fuel_use  # R16, hex by hex (as the slow path's float fuel adds up)
                if entered > 1:
                    for _ in range(entered - 1):
                        ship.fuel -= fuel_use
                fuel = ship.fuel
                if weighs:  # her Load at the end of the hour, as _row counts it
                    load = ship.cargo + fuel + fixed[name] + (tow or 0)
                    if water_in_load:
                        load += ship.water
                    dw = deadweight[name]
                    category = categories.get((load, dw)) or e.category_of(load, dw)
            s.position = position = position + entered
            ship.hex = here = there  # (the last hex entered: route[position])
            s.hours_in_hex = 0
        else:
            s.hours_in_hex += 1
        s.storm_hours = 0
        s.progress = progress + speed - entered * hex_miles
        # the hour row, as _row writes it (nothing but her fuel changed since her Load
        # above), made field by field: calling the class costs more than its 13 fields
        # (a row every ship-hour; tests/test_quickhour.py compares every field with the
        # slow path's)
        row = _new(_HOUR_ROW or _bind())
        row.voyage_id = s.voyage_id
        row.ship = name
        row.clock = clock
        row.hex = here
        row.miles = row.speed = speed
        row.pace = s.pace
        row.fuel = fuel if type(fuel) is int else plain(fuel)
        row.load = load if type(load) is int else plain(load)
        row.load_category = category
        row.water = ship.water
        row.leaks = 0
        row.status = (
            f"under way, {depth} ft down"
            if "depth_ft" in eq and (depth := eq["depth_ft"])  # R84
            else "under way"
        )
        append(row)


#: :func:`quiet_ships`, the engine's loop over the ships (Engine.hour uses it while
#: quiet_hour is this module's: a test that turns quiet_hour off steps every hour)
quiet_hour.fleet = quiet_ships  # type: ignore[attr-defined]


#: :func:`stuck_hour`'s answer for a ship that got off: the hour goes on under way
AFLOAT: Any = object()


def stuck_hour(e: Engine, s: ShipState, clock: int, out: list[LoggedEvent]) -> Any:
    """The hour of a ship stuck aground (R34) with nothing else wrong, as
    :class:`voyage.engine.clock._ShipHour` steps it: her try to get off (stuck_event, logged at
    minute 0); still stuck, the end of the hour (her same-hex storm clock, R32/R60, and a
    capsize Check when it is due) and its row. :data:`AFLOAT` when she got off (her status
    is "under way" and the roll logged: the rest of the hour is an under way ship's, as
    _ShipHour.start_of_hour goes on with it), or None, with nothing rolled or changed, for
    an hour the slow path must step: Overloaded (R41's hourly Check). The caller,
    :func:`quiet_ships`, has asked the rest as it asks a ship under way (R83-R86 work, a
    built boat, pumps at work, R85, a leak, water, fire, listing, sinking, capsized or
    searching, R74) and that the world's ``stuck_escape`` is "roll"."""
    ship = s.ship
    eq = ship.equipment
    name = ship.name
    dw = e._dw[name]
    tow = eq.get("tow_counted")  # R92: counted in her load category (R41 too)
    if e.category_of(e.load(s) + (tow or 0), dw) == "overloaded":
        return None  # R41: her hourly capsize Check
    # start_phase does nothing for her (no R83-R86 work, a rolled ship, no pumps at work);
    # R34: her try to get off (escape_mods: no R83 modifiers for a rolled ship)
    event = stuck_event(e.roller, e.book, [])
    out.append(LoggedEvent(s.voyage_id, name, clock, event))  # (minute 0)
    if event.rolls[0].success:
        s.status = "under way"
        return AFLOAT
    # still stuck: she makes no way (no anchor phase, no drift: R65, R64), nothing runs
    # minute by minute; the end of the hour (_ShipHour.end_of_hour) counts her hour in
    # the same hex and its storm clock (R32/R60)
    s.hours_in_hex += 1
    level = int(e.world.sea_state(s.route[s.position], clock))
    s.storm_hours, due = storm_clock(s.storm_hours, level, e._sea)
    if due:
        h = e.ship_hour(s, clock, out)
        h.minute = MINUTES - 1
        h.storm_check(level)
        if ship.water or s.listing:
            h.flooding()
    load = e.load(s) + (eq.get("tow_counted") or 0)
    return (_HOUR_ROW or _bind())(
        s.voyage_id,
        name,
        clock,
        s.route[s.position],
        0,
        0,
        s.pace,
        plain(ship.fuel),  # (a rolled ship's fuel: shipfig.aboard)
        plain(load),
        e.category_of(load, dw),
        ship.water,
        sum(s.leaks),
        s.condition,
    )


def _load(e: Engine, ship: Any, tow: Any) -> Any:
    """Her Load as the slow path's end of hour counts it: cargo, fuel where it weighs, the
    fixed part, a tow (R92: in her load category, R41 too) and water where it counts."""
    name = ship.name
    load = ship.cargo + (ship.fuel if e._fuel_weighs[name] else 0) + e._fixed[name] + (tow or 0)
    if e.world.water_in_load:
        load += ship.water
    return load


def _row(e: Engine, s: ShipState, clock: int, speed: int) -> HourRow:
    """The hour row of a rolled ship that sailed the whole hour at ``speed`` and ends it
    under way with no water or leaks aboard, as the slow path's end of hour writes it."""
    ship = s.ship
    name = ship.name
    fuel = ship.fuel
    load = _load(e, ship, ship.equipment.get("tow_counted"))
    dw = e._dw[name]
    return (_HOUR_ROW or _bind())(
        s.voyage_id,
        name,
        clock,
        s.route[s.position],
        speed,
        speed,
        s.pace,
        fuel if type(fuel) is int else plain(fuel),
        load if type(load) is int else plain(load),
        e._categories.get((load, dw)) or e.category_of(load, dw),
        ship.water,
        0,
        f"under way, {depth} ft down" if (depth := ship.equipment.get("depth_ft")) else "under way",
    )


def _rolled_hour(
    e: Engine,
    s: ShipState,
    clock: int,
    out: list[LoggedEvent],
    figures: tuple[int, int, int],
    category: str,
    strain: bool,
    calm: list[int],
) -> HourRow:
    """An hour that starts quietly but rolls on the way (R33's coast hazard, R32's storm
    Check): the slow path's own hex entries and end of hour (voyage.engine.clock._ShipHour) for
    it, each calm hex entered as :meth:`~voyage.engine.clock._ShipHour.enter_hex` enters it (its
    fuel, R16; the same-hex clocks, R32, R60), the others as it enters them (R32/R60 with
    the sea state ``calm`` holds for the hex, R33-R35)."""
    speed, fuel_use, cruising = figures
    # the slow path's ship-hour (voyage.engine.clock._ShipHour), made once something in the hour
    # needs it (a capsize, a hazard, a broken engine, a same-hex Check due): till then the
    # hour is the quiet hour's plus coast rolls that find clear water and storm Checks she
    # holds through, logged here as _ShipHour.log logs them
    h: Any = None
    ship, route = s.ship, s.route
    name, voyage_id = ship.name, s.voyage_id
    if strain:
        result = strain_hour(speed - cruising, e.roller, e.book, speed=cruising)
        if type(result) is Event:  # the engine holds (as h.strained logs it, at minute 0)
            out.append(LoggedEvent(voyage_id, name, clock, result))
        else:
            h = _ship_hour(e, s, clock, out, figures, 0, 0)
            h.strained(result)
            h.make_way()
            h.hourly_capsize(category)
            return _broken_sail(e, h)
    # (no current, a whole speed, no Overload, no water: make_way and hourly_capsize do
    # nothing this hour)
    hex_miles = e._hex_miles
    need = hex_miles - s.progress
    entries = []  # _ShipHour.entry_minutes (R31): quiet_hour counted the hexes entered
    for _ in calm:
        minute = need * 60 // speed  # (min(59, max(0, ...)) without the two calls)
        entries.append(59 if minute > 59 else minute if minute > 0 else 0)
        need += hex_miles
    i, count = 0, len(entries)
    entered = 0
    while i < count and (h is None or (h.moving and not s.emergency)):
        minute = entries[i]
        # enter the next hex as enter_hex does (R31): its fuel (R16; fuel to spare was
        # checked before: fuel.may_enter lets her in, fuel.burn leaves some aboard)
        s.position = at = s.position + 1
        entered += 1
        if h is not None:
            h.minute = minute
            h.entered += 1
        ship.hex = there = route[at]
        s.hours_in_hex = 0
        if (
            fuel_use and ship.engine_tier is not None and not ship.engine_broken and (ship.fuel > 0)
        ):  # R16 under power (R13), as fuel.burn
            ship.fuel -= fuel_use
        s.storm_hours = 0  # R60: the same-hex clock starts again on entering a hex
        level = calm[i]
        if level >= 0:  # (not open, calm water)
            if level:  # R32/R60: every hex travelled in storm-tossed seas
                if h is not None:
                    _storm(h, level)
                elif (check := _storm_check(e, s, level)) is not None:
                    # _storm's Check (nothing wrong aboard yet); she holds: logged as
                    # h.capsize_logged logs it; she capsizes: the slow path's from here
                    event, reason, context = check
                    if event.rolls[0].success:
                        event.text = context + event.text
                        event.minute = minute
                        out.append(LoggedEvent(voyage_id, name, clock, event))
                    else:
                        h = _ship_hour(e, s, clock, out, figures, minute, entered)
                        h.capsize_logged(event, reason, context)
            info = e.hex_info(there)
            # R33 (amended): inshore legs, narrow passages, shallows (a rolled ship: no
            # charted depth of R83, by_depth)
            # (ShipState.active, a property, asked last: the tests are pure reads)
            if (
                (
                    (at < len(s.inshore) and s.inshore[at])
                    or info.narrow_passage
                    or info.terrain in e.shallows
                )
                and s.sinking_in is None
                and s.active
            ):
                if h is not None:
                    _coast(h, info)
                else:  # _coast, its event logged as h.log would log it
                    event = coast_event(e.roller, e.book)
                    event.minute = minute
                    out.append(LoggedEvent(voyage_id, name, clock, event))
                    if event.rolls[0].success:  # R34 on the hazard
                        h = _ship_hour(e, s, clock, out, figures, minute, entered)
                        h.run_aground(info)
            if at == len(route) - 1 and s.status == "under way" and not s.capsized:
                # (not so: quiet_hour leaves her last hex to the slow path)
                h = h or _ship_hour(e, s, clock, out, figures, minute, entered)
                h.arrive(info)
        i += 1
    if h is None:
        if entered:  # every hex entered, nothing wrong aboard (R31's progress carried)
            s.progress += speed - entered * hex_miles
            return _row(e, s, clock, speed)
        # R32/R60: an hour in her storm-tossed hex; its same-hex clock as end_of_hour runs
        # it, and with no Check due (most hours) the end of the hour here as finish() ends it
        level = int(e.world.sea_state(route[s.position], clock))
        storm_hours, due = storm_clock(s.storm_hours, level, e._sea)
        if not due:
            s.progress += speed
            s.hours_in_hex += 1
            s.storm_hours = storm_hours
            return _row(e, s, clock, speed)
        h = _ship_hour(e, s, clock, out, figures, 0, 0)
    elif (
        i == count
        and h.moving
        and h.entered
        and s.status == "under way"
        and not s.emergency
        and not s.capsized
        and not s.leaks
        and not s.new_leaks
        and not ship.water
    ):
        # every hex entered and nothing wrong aboard: the end of the hour as finish() ends
        # it (R31's progress carried over; no leak, water or same-hex storm clock to run)
        h.minute = MINUTES - 1
        s.progress += speed - h.entered * hex_miles
        return _row(e, s, clock, speed)
    if s.emergency and s.active:
        h.minute += 1
    return h.finish(entries, i)


def _ship_hour(
    e: Engine,
    s: ShipState,
    clock: int,
    out: list[LoggedEvent],
    figures: tuple[int, int, int],
    minute: int,
    entered: int,
) -> Any:
    """The _ShipHour of a rolled hour under way at ``figures``, at ``minute`` with
    ``entered`` hexes entered (her progress is still the hour's start's)."""
    h = e.ship_hour(s, clock, out)
    h.moving = True
    h.speed, h.fuel_use, h.cruising = figures
    h.minute = minute
    h.entered = entered
    return h


def _broken_sail(e: Engine, h: Any) -> HourRow:
    """``h.sail()`` of an hour whose engine broke at its start (R14, R13): stopped under
    way with no current in her hex and nothing drifted (R64: drift_phase would leave her
    drift at "0"; not anchored, R65), the hour from minute 0 on as sail() runs it, without
    asking whether she makes way of her own (a load category and speed worked out)."""
    s = h.s
    if not h.moving and s.status == "under way" and s.drift_miles == "0":
        current_at = e.world.current_at
        if current_at is NO_CURRENT or current_at(s.route[s.position]) is None:
            h.minute = 0
            return h.finish([], 0)
    return h.sail()


def _coast(h: Any, info: Any) -> None:
    """_ShipHour.coast (R33, then R34 and R35 on a hazard) with the same roll and event."""
    event = coast_event(h.roller, h.book)
    h.log(event)
    if event.rolls[0].success:
        h.run_aground(info)


def _storm(h: Any, level: int) -> None:
    """_ShipHour.storm_check (R32/R60, R41) with the same Check and event."""
    check = _storm_check(h.e, h.s, level)
    if check is not None:
        h.capsize_logged(*check)


def _storm_check(e: Engine, s: ShipState, level: int) -> tuple[Event, str, str] | None:
    """The capsize Check of a hex in storm-tossed seas of ``level`` (R32/R60, R41), with
    its reason and context, not yet logged; None where none is rolled (R84: a submerged
    submersible dives under the storm; capsized or sinking already)."""
    if submerged(s) or s.capsized or s.sinking_in is not None:
        return None
    ship = s.ship
    reason, banes, context = e._sea[min(level, 3)].terms(s.hex)
    event = capsize_event(
        ship.tier, e.category(s), e.roller, e.book, ship.traits, disadvantages=banes, reason=reason
    )
    return event, reason, context


def open_hex(e: Engine, name: str) -> bool:
    """Whether entering hex ``name`` rolls no coast hazard on an open-sea leg (R33: not a
    narrow passage nor drawn shallows)."""
    info = e.hex_info(name)
    return not info.narrow_passage and info.terrain not in e.shallows


__all__ = ["open_hex", "quiet_hour"]
