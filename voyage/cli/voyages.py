"""Voyage commands: sail, advance, pace, log, status (act: voyage.cli.act)."""

from __future__ import annotations

from typing import Any

import click

from voyage.cli.common import (
    HOURS,
    NUMBER,
    SHIP,
    Whole,
    db_option,
    emit_json,
    handles_errors,
    hex_list,
    json_option,
    open_campaign,
    plural,
    read_campaign,
    table,
    whole_output,
)

#: knots of strain a referee may type (R14 then limits it to half the ship's Speed)
STRAIN = Whole(1, 99)


class _Pace(click.ParamType):
    """normal, slow or strain (R13-R15), or a built boat's speed such as ``30mph`` (R82)."""

    name = "PACE"

    def convert(self, value: Any, param: Any, ctx: Any) -> str:
        text = str(value).strip().lower().replace(" ", "")
        if text in ("normal", "slow", "strain"):
            return text
        from voyage.vessels.boatpower import is_mph

        if text.endswith("mph") and is_mph(text):
            return text
        self.fail(
            f"{value!r} is not a pace: normal, slow, strain N, or a built boat's speed "
            "such as 30mph (R82)",
            param,
            ctx,
        )


PACE = _Pace()


@click.command()
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@click.option(
    "--to",
    "to",
    default=None,
    help="Destination: a hex CCRR or a port's name (shortest sea route).",
)
@click.option(
    "--via", "via", multiple=True, help="A hex (or port) to pass on the way (repeatable)."
)
@click.option(
    "--route",
    "route",
    default=None,
    help="The whole route: adjacent sea hexes CCRR,CCRR,... from the ship's hex.",
)
@click.option(
    "--pace",
    type=PACE,
    default=None,
    help="R13 normal, R15 slow (half speed), R14 strain N; a built boat's speed, e.g. "
    "30mph (R82). Default: the pace set with `voyage pace`, else normal.",
)
@click.argument("strain", type=STRAIN, required=False, default=None)
@click.option(
    "--inshore",
    is_flag=True,
    help="Sail within a mile of the coast: coastal hexes risk hazards (R33).",
)
@click.option(
    "--plan",
    "plan_number",
    type=NUMBER,
    default=None,
    help="Sail route N of `voyage plan SHIP --to HEX` (give the same --to).",
)
@json_option
@handles_errors
def sail(
    db_path: str,
    ship_name: str,
    to: str | None,
    via: tuple[str, ...],
    route: str | None,
    pace: str | None,
    strain: int | None,
    inshore: bool,
    plan_number: int | None,
    as_json: bool,
) -> None:
    """Set sail: open a voyage from the ship's hex along a route of adjacent sea hexes.

    With --to (and --via) the shortest sea route is found: name a hex CCRR or a port
    of the map (--to Ironport); --route gives it hex by hex. To strain the engine give
    the extra knots after the pace: --pace strain 2. It says when she should arrive,
    warns when her fuel will not last the route (R16), and, for a ship whose food and
    fresh water are counted, gives the days they last against the expected passage and
    warns when one will not (R104).

    Examples:

        voyage sail "Sea Witch" --to 2812 --via 1409 --inshore

        voyage sail "Sea Witch" --to Ironport

        voyage sail "Sea Witch" --route 0405,0505,0605 --pace slow

        voyage sail "Sea Witch" --to 2812 --pace strain 2

        voyage sail "Sea Witch" --to 2812 --plan 3
    """
    from voyage.actions.depthroutes import shoal_warning
    from voyage.actions.passage import expected_hours, fuel_short
    from voyage.actions.voyages import sail as do_sail
    from voyage.store.calendarrow import clock_text

    if to and route:
        raise click.UsageError("give either --to (with --via) or --route, not both")
    if pace == "strain" and not strain:
        raise click.UsageError(
            "say how many knots to strain: --pace strain N, e.g. --pace strain 2 (R14)"
        )
    camp = open_campaign(db_path)
    from voyage.cli.hexarg import hex_or_port, hexes_or_ports

    to, via = hex_or_port(camp, to), hexes_or_ports(camp, via)
    stops: list[dict[str, Any]] = []
    if plan_number is not None:
        from voyage.actions.plan import candidates, choose

        if not to or route or via or inshore:
            raise click.UsageError("--plan N goes with --to HEX alone: the plan is the route")
        chosen = choose(candidates(camp, ship_name, to, pace, strain or 0), plan_number)
        to, route, inshore, stops = None, ",".join(chosen.route), chosen.inshore, chosen.stops
    state = do_sail(camp, ship_name, to, via, hex_list(route), pace, strain or 0, inshore)
    hours, still = expected_hours(camp, state, None)
    short = fuel_short(camp, state)
    from voyage.actions.storesplan import against_passage, room_of
    from voyage.vessels.stores import store_rules

    stores = against_passage(  # R104: the days she carries against the passage
        state.ship.stores,
        state.ship.crew + state.ship.passengers,
        {"expected": hours},
        store_rules(camp.rulebook),
        room_of(state.ship, camp.rulebook, camp.water_in_load),  # R100, R103
    )
    info = {
        "ship": state.ship.name,
        "voyage": state.voyage_id,
        "route": state.route,
        "pace": state.pace,
        "strain": state.strain,
        "inshore": state.inshore,
        "clock": camp.clock,
        "time": clock_text(camp, camp.clock),
        "expected_hours": hours,
        "expected_hours_still_water": still,
        "expected_arrival": None if hours is None else clock_text(camp, camp.clock + hours),
        "stops": stops,
        "fuel_short": short,
        "stores": stores,
        "depth_warning": shoal_warning(camp, None, state.ship, state.route),  # R83
    }
    if as_json:
        emit_json(info)
        return
    from voyage.base.voyagenames import voyage_name
    from voyage.outputs.chronicle import map_places, port_named
    from voyage.store.voyagelog import nth_voyage

    nth = nth_voyage(camp, state.ship.name, state.voyage_id)  # her own count (voyagenames)
    places = map_places(camp)  # "from Gullhaven (0305)", as the log and journal name ports
    click.echo(
        f"{state.ship.name} sails from {port_named(state.route[0], places)} for "
        f"{port_named(state.route[-1], places)}, "
        f"{plural(len(state.route) - 1, 'hex', 'hexes')}, at {clock_text(camp, camp.clock)} "
        f"- {voyage_name(state.voyage_id, nth)}."
    )
    click.echo("Route: " + " ".join(state.route))
    if hours is None:
        click.echo("Expected: she makes no way on this route (R13, R64).")
    else:
        current = ""
        if still is not None and hours != still:
            current = f" with the currents ({plural(still, 'hour')} without, R64)"
        click.echo(
            f"Expected: {plural(hours, 'hour')}{current}, arriving about "
            f"{clock_text(camp, camp.clock + hours)}."
        )
    if short and not stops:
        charge = short["what"] == "charge"
        refill = (
            f"R82; `voyage act {state.ship.name!r} recharge` in port"
            if charge
            else "R16; refuel in port or `voyage plan` a stop"
        )
        click.echo(
            f"Warning: {short['aboard']} {short['unit']} of {short['what']} aboard at "
            f"{short['per_hex']} a hex is enough for {short['reach']} of the "
            f"{short['needed']} hexes: she runs dry at the edge of {short['dry_at']} and "
            f"drifts ({refill})."
        )
    for n, stop in enumerate(stops):
        if stop.get("recharge") is not None:  # R82: a built boat's recharging stop
            click.echo(
                f"At {stop['port']} ({stop['hex']}) recharge (`voyage act "
                f"{state.ship.name!r} recharge`: {stop['minutes']} minutes, ${stop['cost']}), "
                "then plan the rest of the way from there."
                if not n
                else f"Then at {stop['port']} ({stop['hex']}) recharge again (R82)."
            )
            continue
        from voyage.actions.storesplan import stop_stores

        take = stop_stores(stop, state.ship.name)  # R103
        if "price" not in stop:  # a stop for stores alone
            click.echo(
                f"At {stop['port']} ({stop['hex']}) {take}, then plan the rest of the way "
                "from there."
            )
            continue
        click.echo(
            f"At {stop['port']} ({stop['hex']}) buy {stop['buy']} hlbs of fuel "
            f"(`voyage act {state.ship.name!r} refuel {stop['buy']}`)"
            + (f" and {take}" if take else "")
            + ", then plan the rest of the way from there."
        )
    from voyage.actions.storesplan import stores_lines

    sailed = None if state.route[0] in places else False  # from a port: `voyage undo` first
    for line in stores_lines(stores, state.ship.name, sailed):
        click.echo(line)  # R104
    if info["depth_warning"]:
        click.echo(info["depth_warning"])  # R83: her route has to cross water too shallow for her


#: what `advance --until` takes besides a time
UNTIL_WORDS = ("arrival", "event", "dawn", "dusk")


class _Advance(click.Command):
    """`voyage advance 6`, the hours typed bare, is refused naming --hours 6 (click said
    "Got unexpected extra argument (6)")."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0].isascii() and args[0].isdigit():
            raise click.ClickException(
                f"give the hours as an option: voyage advance --hours {args[0]} "
                "(or --days N, or --until arrival|event|dawn|dusk|WHEN)"
            )
        return super().parse_args(ctx, args)


@click.command(cls=_Advance)
@db_option
@click.option(
    "--hours", type=HOURS, default=None, help="Hours to advance (default 1; at most 8784, a year)."
)
@click.option(
    "--until",
    "until",
    default=None,
    metavar="arrival|event|dawn|dusk|WHEN",
    shell_complete=lambda _ctx, _param, typed: [w for w in UNTIL_WORDS if w.startswith(typed)],
    help="Advance until a ship arrives, something happens, dawn or dusk (by the calendar's "
    "season; 06:00 and 18:00 without a calendar), or a time: 'day 3, 06:00', "
    "'2 Jun 1492, 06:00', '+12h' (it still stops early for the referee).",
)
@click.option(
    "--days", type=Whole(1, 366), default=None, help="Days to advance: 24 hours each (1 to 366)."
)
@click.option(
    "--quiet", is_flag=True, help="Print only the summary and what stopped it, not every event."
)
@json_option
@handles_errors
def advance(
    db_path: str,
    hours: int | None,
    until: str | None,
    days: int | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Advance the clock: every ship at sea moves together, hour by hour.

    It stops early, and says why, when something needs the referee: an arrival, a ship
    aground, a fire, a listing, a capsizing, a sinking, a broken engine, no fuel, a lost
    anchor, an encounter (R93: docs/encounters.md). While a fight is open it is refused:
    `voyage encounter end` first (R94). With every ship in port the clock
    (and the weather) still moves: wait out a storm with --hours or --until dawn. At sea
    or in port, her people use the stores counted aboard (R101); running out stops it. One
    advance is one action: `voyage undo` takes it back exactly.

    Examples:

        voyage advance --hours 6

        voyage advance --until arrival

        voyage advance --until "day 2, 06:00"

        voyage advance --days 2 --quiet
    """
    from voyage.actions.voyages import advance as do_advance
    from voyage.base import gctune
    from voyage.cli.progress import progress_bar
    from voyage.store.calendarrow import campaign_calendar
    from voyage.tables.calendar import format_time

    if sum(x is not None for x in (hours, until, days)) > 1:
        raise click.UsageError("give one of --hours, --days or --until, not more than one")
    if days is not None:
        hours = 24 * days
    gctune.for_long_run()  # the modules loaded, the campaign not yet open
    camp = open_campaign(db_path)
    if until is not None and until.strip().lower() in UNTIL_WORDS:
        until = until.strip().lower()
    elif until is not None:  # a time: the hours from now to it, refused before any dice fall
        _near_word(until)
        hours, until = _hours_until(camp, until), None
    # a bar on a terminal for an advance over a second (no end is known for --until)
    with progress_bar(None if until else hours or 1, "Advancing") as progress:
        result = do_advance(camp, hours, until, progress=progress)
    cal = campaign_calendar(camp)
    if as_json:
        emit_json(
            {
                "start": result.start,
                "end": result.end,
                "start_time": format_time(cal, result.start),
                "end_time": format_time(cal, result.end),
                "hours": result.hours_run,
                "in_port": result.in_port,
                "stopped": result.stopped or None,
                "rows": [r.to_dict() for r in result.rows],
                "events": [e.to_dict() for e in result.events],
            }
        )
        return
    # in the order they happened (R52: each at its minute): the engine logs each ship's hour
    # in turn, so one ship's 15:25 came after another's 15:59; the storm cells that formed
    # (R61, R62) among them at their hour. --quiet keeps what stopped the advance ("Stopped:
    # Gull: encounter" alone did not say it was a Sea Serpent); a routine line that changed
    # nothing (a clear sea, pumps that bailed nothing: every hour of a built boat in port)
    # is the log's, not the table's
    from voyage.actions.weather import weather_moments
    from voyage.outputs.chronicle import names_ship
    from voyage.outputs.export import IDLE_PUMPS

    said: list[tuple[int, int, list[str]]] = []
    for e in result.events:
        routine = not e.event.changes and (
            e.event.kind == "coast" or e.event.text.startswith(IDLE_PUMPS)
        )
        if not e.halt and (quiet or routine):
            continue
        text = e.event.text
        if e.ship and not names_ship(text, e.ship):  # not "Gull: Everyone gets out of Gull"
            text = f"{e.ship}: {text}"
        lines = [f"{format_time(cal, e.clock, e.event.minute)}  {text}"]
        lines += [f"      {r.line()}" for r in e.event.rolls]
        said.append((e.clock, e.event.minute or 0, lines))
    if not quiet:
        said += [
            (hour, 0, [line]) for hour, line in weather_moments(camp, result.start, result.end)
        ]
    for _, _, lines in sorted(said, key=lambda s: (s[0], s[1])):
        for line in lines:
            click.echo(line)
    last: dict[str, Any] = {}
    for row in result.rows:
        last[row.ship] = row
    built = _built_names(camp, last)
    # each ship as `voyage status --all` gives her now: the last hour's row was written
    # before what ended it (a tow cast off in port leaves the tower's Load without it, R92);
    # a ship no longer listed (sunk and struck off) keeps her last row
    now = _status_now(camp) if last else {}
    for row in last.values():
        r = now.get(row.ship)
        if r is None:
            r = {
                "hex": row.hex,
                "status": row.status,
                "speed": row.speed,
                "pace": row.pace,
                "fuel": row.fuel,
                "load": row.load,
                "load_category": row.load_category,
                "water": row.water,
            }
        fuel = f"charge {r['fuel']} power units" if row.ship in built else f"fuel {r['fuel']}"
        # R82: a built boat makes the speed in mph her skipper set; no normal or slow pace
        speed = f"{r['speed']} mph" if row.ship in built else f"{r['speed']} ({r['pace']})"
        click.echo(
            f"  {row.ship}: {r['hex']}, {r['status']}, speed {speed}, "
            f"{fuel}, load {r['load']} ({r['load_category']}), hull water {r['water']}"
        )
    if result.in_port:
        click.echo(
            "Every ship is in port: the clock (and the weather) moved on "
            f"{plural(result.hours_run, 'hour')} to {format_time(cal, result.end)}."
        )
    else:
        ran = plural(result.hours_run, "hour")
        click.echo(f"Advanced {ran} to {format_time(cal, result.end)}.")
    if result.stopped:
        click.echo(f"Stopped: {_stopped_by(result)}.")


def _stopped_by(result: Any) -> str:
    """Why the advance stopped, naming the event when ``--until event`` found one (it said
    "Stopped: an event." and no more): ``an event: Gull: A Sea Serpent rises ...``."""
    if result.stopped != "an event":
        return str(result.stopped)
    from voyage.engine.clock import ROUTINE_KINDS

    last = result.end - 1
    news = [
        e
        for e in result.events
        if e.clock == last and (e.event.kind not in ROUTINE_KINDS or e.event.changes)
    ]
    if not news:
        return "an event"
    told = "; ".join(
        f"{e.ship}: {_first_sentence(e.event.text)}" if e.ship else _first_sentence(e.event.text)
        for e in news[:3]
    )
    return f"an event: {told}" + (f" (and {len(news) - 3} more)" if len(news) > 3 else "")


def _first_sentence(text: str) -> str:
    """An event's text up to its first full stop (a line, not a paragraph)."""
    head = text.split(". ", 1)[0].rstrip(".")
    return head if len(head) <= 100 else head[:99].rstrip() + "…"


def _near_word(until: str) -> None:
    """Refuse a misspelt word of --until ('arival') naming the word meant: the time
    reader's refusal listed every way to write a time first."""
    import difflib

    typed = until.strip().lower()
    if any(ch.isdigit() for ch in typed):
        return
    near = difflib.get_close_matches(typed, UNTIL_WORDS, n=1, cutoff=0.7)
    if near:
        raise click.ClickException(
            f"--until {until!r}: did you mean {near[0]!r}? (--until takes "
            f"{', '.join(UNTIL_WORDS)} or a time such as 'day 3, 06:00' or '+12h')"
        )


def _hours_until(camp: Any, when: str) -> int:
    """``advance --until WHEN``: the hours from now to a time (voyage.actions.weather's
    parse_when: 'day 3, 06:00', '2 Jun 1492, 06:00', '+12h'), from 1 to a year."""
    from voyage.actions.weather import parse_when
    from voyage.base.errors import VoyageError
    from voyage.store.calendarrow import campaign_calendar, clock_text

    words = "arrival, event, dawn, dusk or a time"
    try:
        target = parse_when(when, camp.clock, campaign_calendar(camp), option="--until")
    except VoyageError as exc:
        raise VoyageError(f"{exc} (--until takes {words})") from None
    hours = target - camp.clock
    if hours < 1:
        raise VoyageError(
            f"--until {when!r} is not after now ({clock_text(camp, camp.clock)}): give a later time"
        )
    if hours > 8784:
        raise VoyageError(
            f"--until {when!r} is {hours:,} hours away: advance at most a year "
            "(8784 hours) at a time"
        )
    return hours


def _built_names(camp: Any, names: Any) -> set[str]:
    """Which of these ships are built boats (R82: they carry a charge, not fuel)."""
    return {n for n in names if camp.get_ship(n, archived=True).design is not None}


@click.command()
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@click.argument("pace", type=PACE)
@click.argument("strain", type=STRAIN, required=False, default=None)
@handles_errors
def pace(db_path: str, ship_name: str, pace: str, strain: int | None) -> None:
    """Change a ship's pace between advances: normal, slow, strain N, or a boat's mph.

    A rolled ship sails normal, slow (R15) or strains N (R14); a built boat sails at the speed
    in mph her skipper sets (R82: default 20 mph or her top speed if lower, never above it).

    Examples:

        voyage pace "Sea Witch" slow

        voyage pace "Sea Witch" strain 2

        voyage pace "Moray" 30mph
    """
    from voyage.actions.referee import referee_action

    if pace == "strain" and not strain:
        raise click.UsageError("say how many knots to strain: voyage pace SHIP strain N (R14)")
    camp = open_campaign(db_path)
    event = referee_action(camp, ship_name, "pace", pace=pace, strain=strain or 0)
    click.echo(event.text)


@click.command("log")
@db_option
@click.argument("ship_name", metavar="SHIP", type=SHIP)
@click.option("--last", type=HOURS, default=None, help="Only the last N hours.")
@click.option("--voyage", "voyage_id", type=NUMBER, default=None, help="Only voyage N.")
@json_option
@handles_errors
@whole_output
def log(
    db_path: str, ship_name: str, last: int | None, voyage_id: int | None, as_json: bool
) -> None:
    """A ship's log: hour by hour, with every event and every roll (R4).

    The referee's log: for players, share `voyage export SHIP` or `voyage journal
    --ship SHIP`, which leave out the rolls, ruling codes and routine checks.

    Examples:

        voyage log "Sea Witch" --last 12

        voyage log "Sea Witch" --voyage 1 --json
    """
    from voyage.store.calendarrow import campaign_calendar
    from voyage.store.voyagelog import event_rows, hour_rows
    from voyage.tables.calendar import format_time

    camp = read_campaign(db_path)
    cal = campaign_calendar(camp)
    ship = camp.get_ship(ship_name, archived=True)
    if voyage_id is not None:
        from voyage.outputs.export import voyages_of

        known = [int(v["id"]) for v in voyages_of(camp, ship.name)]
        if voyage_id not in known:
            listed = ", ".join(map(str, known)) if known else "none yet"
            raise click.ClickException(
                f"{ship.name} has no voyage {voyage_id} (its voyages: {listed})"
            )
    hours = hour_rows(camp, ship.name, voyage_id, last)
    since = hours[0]["clock"] if last and hours else None
    events = event_rows(camp, ship.name, voyage_id, since)
    if as_json:
        keep = (
            "day",
            "hour",
            "clock",
            "voyage_id",
            "hex",
            "miles",
            "speed",
            "pace",
            "fuel",
            "load",
            "load_category",
            "water",
            "leaks",
            "status",
        )
        emit_json(
            {
                "ship": ship.name,
                "clock": camp.clock,  # the campaign hour this log was read at (one moment)
                "hours": [
                    {**{k: h[k] for k in keep}, "time": format_time(cal, h["clock"])} for h in hours
                ],
                "events": [
                    {
                        k: e[k]
                        for k in (
                            "day",
                            "hour",
                            "minute",
                            "clock",
                            "voyage_id",
                            "ship",
                            "kind",
                            "text",
                            "rolls",
                            "changes",
                        )
                    }
                    | {"time": format_time(cal, e["clock"], e["minute"])}
                    for e in events
                ],
            }
        )
        return
    if not hours and not events:
        click.echo(f"{ship.name} has no log yet.")
        return
    if hours:  # "01:00  0404" read as "in 0404 at 01:00", when she entered it at 01:59
        click.echo(
            f"{ship.name}, hour by hour: each row is the hour from its time, with the hex she "
            "ended it in, the miles made in it and her figures at its end; its events and "
            "rolls beneath."
        )
    advanced = {h["action_id"] for h in hours}
    fuel = "charge" if ship.design is not None else "fuel"  # R82: power units
    from voyage.outputs.chronicle import map_places

    places = map_places(camp) if events else {}
    # each hour row, then what happened in that hour; a referee's actions taken before the
    # hour was sailed come before its row
    items: list[tuple[int, int, int, dict[str, Any]]] = []
    for h in hours:
        items.append((h["clock"], h["action_id"], 1, h))
    for e in events:
        items.append((e["clock"], e["action_id"], 2 if e["action_id"] in advanced else 0, e))
    for _, _, kind, item in sorted(items, key=lambda x: (x[0], x[1], x[2])):
        if kind == 1:
            h = item
            click.echo(
                f"{format_time(cal, h['clock'])}  {h['hex']}  {h['miles']:>2} mi  "
                f"speed {h['speed']} ({h['pace']})  {fuel} {h['fuel']}  load {h['load']} "
                f"({h['load_category']})  hull water {h['water']}  leaks {h['leaks']}/h  "
                f"{h['status']}"
            )
        else:
            _echo_event(item, cal, places)


def _status_now(camp: Any) -> dict[str, dict[str, Any]]:
    """Every ship's row of `voyage status --all`, by name."""
    from voyage.store.voyagelog import status_rows

    rows = status_rows(camp)
    rows += _not_at_sea_rows(camp, {r["ship"] for r in rows})
    return {r["ship"]: r for r in rows}


def _not_at_sea_rows(camp: Any, at_sea: set[str]) -> list[dict[str, Any]]:
    """`status --all`: a row for each ship not at sea, in the status table's columns, her
    status and speed as every command names them (voyage.engine.standing)."""
    from voyage.base.text import plain
    from voyage.store.voyagelog import ship_standings
    from voyage.vessels import ships as shipfig
    from voyage.vessels.stores import stores_figures

    book, wil = camp.rulebook, camp.water_in_load
    now = ship_standings(camp)
    out = []
    for ship in camp.ships():
        if ship.name in at_sea:
            continue
        out.append(
            {
                "ship": ship.name,
                "voyage": None,
                "status": now[ship.name].status,
                "voyage_status": None,
                "hex": ship.hex,
                "destination": None,
                "hexes_left": 0,
                "miles_left": 0,
                "eta_hours": None,
                "speed": plain(now[ship.name].speed),
                "pace": ship.pace,
                "strain": ship.strain,
                "fuel": plain(shipfig.aboard(ship)),
                "fuel_unit": shipfig.fuel_words(ship)[1],
                "fuel_use": plain(shipfig.fuel_use(ship, book, ship.pace, wil)),
                "load": shipfig.shown_load(ship, book, wil),
                "load_category": shipfig.load_category(ship, book, wil),
                "water": ship.water,
                "leaks": [],
                "fire": 0,
                "fire_out_of_control": False,
                "sinking_minutes_left": None,
                "nobody_aboard": False,  # (in port her people may well be ashore)
                "listing": False,
                "capsized": False,
                "engine_broken": ship.engine_broken,
                **stores_figures(ship.stores, ship.crew + ship.passengers),  # R100-R101
            }
        )
    return out


def _echo_event(e: dict[str, Any], cal: Any, places: dict[str, str]) -> None:
    from voyage.outputs.chronicle import name_places
    from voyage.tables.calendar import format_time

    text = name_places(e["text"], places)  # "sets sail from Gullhaven (0305)"
    click.echo(f"  {format_time(cal, e['clock'], e['minute'])}  [{e['kind']}] {text}")
    for r in e["rolls"]:
        click.echo(f"        {r['line']}")


@click.command()
@db_option
@click.option(
    "--all", "show_all", is_flag=True, help="The ships not at sea too (in port, sunk, abandoned)."
)
@json_option
@handles_errors
@whole_output
def status(db_path: str, show_all: bool, as_json: bool) -> None:
    """Every ship at sea at a glance: where, whither, how fast, and what is wrong.

    Columns: status (under way, adrift, anchored, stuck, under tow, sinking ..., as `ship
    show`, `ship list` and the advance name it), hex (where she is), to (her destination),
    miles (still to go), eta h (hours to go, currents reckoned and faster as spent fuel and
    stores lighten her, as `sail` expects; - when she makes no way), speed (knots, pace:
    what she makes now), fuel and load (hlbs), hull water (hlbs in her hull), trouble
    (leaks, fire, sinking ...). --all lists the ships not at sea too: in port (the speed
    she would make), sunk or abandoned.

    Examples:

        voyage status

        voyage status --all
    """
    from voyage.store.calendarrow import clock_text
    from voyage.store.voyagelog import status_rows
    from voyage.vessels.stores import days_said

    camp = read_campaign(db_path)
    rows = status_rows(camp)
    if show_all:
        rows += _not_at_sea_rows(camp, {r["ship"] for r in rows})
    from voyage.cli.people import afloat_json

    if as_json:
        emit_json(
            {
                "clock": camp.clock,
                "time": clock_text(camp, camp.clock),
                "day": camp.clock // 24 + 1,
                "hour": camp.clock % 24,
                "ships": rows,
                "afloat": afloat_json(camp),  # R72-R74: rafts and people in the water
            }
        )
        return
    click.echo(f"{camp.name}: {clock_text(camp, camp.clock)}")
    from voyage.cli.people import water_lines

    afloat = water_lines(camp)
    if not rows:
        click.echo("No ship is at sea." if not show_all else "No ships yet.")
        for line in afloat:
            click.echo(line)
        return
    from voyage.outputs.chronicle import map_places, port_named

    places = map_places(camp)
    low_days = int(camp.rulebook.procedures["stores"]["low_days"])  # R101: running low
    lines = []
    for r in rows:
        trouble = ["nobody aboard"] if r["nobody_aboard"] else []  # R70, R71
        if r["fire"] or r["fire_out_of_control"]:
            trouble.append(
                "OUT OF CONTROL fire" if r["fire_out_of_control"] else f"fire {r['fire']}"
            )
        if r["sinking_minutes_left"] is not None:
            trouble.append(f"sinking ({r['sinking_minutes_left']} min)")
        if r["listing"]:
            trouble.append("listing")
        if r["capsized"]:
            trouble.append("capsized")
        if r["engine_broken"]:
            trouble.append("engine broken")
        for key, word in (("fresh_water", "fresh water"), ("food", "food")):  # R101, R104
            days = r.get(f"{key}_days")
            if key in r and r[key] <= 0:
                trouble.append(f"out of {word}")
            elif days is not None and days <= low_days:
                trouble.append(f"{word} {days_said(days)}")
        if r["leaks"]:
            # numbered as `act SHIP repair leak N` takes them ("leaks 1:4/h" was a riddle)
            trouble.append(
                ", ".join(f"leak {i + 1} at {v} hlbs/h" for i, v in enumerate(r["leaks"]))
            )
        lines.append(
            [
                r["ship"],
                r["status"],
                port_named(r["hex"], places),  # "Gullhaven (0305)", as the journal names it
                port_named(r["destination"], places),
                r["miles_left"] if r["voyage"] is not None else "-",
                # a ship that stops to search (R74) makes no way: no hours to go are known
                "-" if r["eta_hours"] is None or "searching" in r["status"] else r["eta_hours"],
                # R82: a built boat's pace is the speed her skipper set: mph, not "normal"
                f"{r['speed']} {r['pace']}" if r["fuel_unit"] == "hlbs" else f"{r['speed']} mph",
                r["fuel"] if r["fuel_unit"] == "hlbs" else f"{r['fuel']} units",
                f"{r['load']} {r['load_category']}",
                r["water"],
                "; ".join(trouble),
            ]
        )
    click.echo(
        table(
            lines,
            [
                "ship",
                "status",
                "hex",
                "to",
                "miles",
                "eta h",
                "speed",
                "fuel",
                "load",
                "hull water",
                "trouble",
            ],
        )
    )
    for line in afloat:
        click.echo(line)
