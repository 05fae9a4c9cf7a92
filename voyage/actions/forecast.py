"""Forecasts: a voyage sailed thousands of times in memory, and what came of it.

A forecast takes a ship as she is now (in port with a route to sail, or already at sea),
sails her with the same pure engine (:mod:`voyage.engine.clock`) ``runs`` times, each run with its
own dice, and counts what happened: arrivals, losses and where, groundings, empty tanks,
halts for the referee, arrival times, fuel burnt and water taken on.

Nothing here writes to the campaign or draws on its dice:

- the campaign is read through :func:`voyage.store.campaign.read_only_campaign`: a
  read-only connection copied into memory, so the file is never written
  (tests/test_forecast.py checks its bytes);
- run ``i`` rolls with ``random.Random(run_seed(seed, i))``: a stable hash (hashlib) of the
  forecast's seed and the run's index, never the campaign's roller. The forecast's seed is
  ``--seed``, else a hash of the campaign seed and the clock, so the same campaign at the
  same hour forecasts the same, and results do not depend on how runs are shared among
  worker processes.

The halt policy (docs/forecast.md): where the engine would stop for the referee, a forecast
counts the halt and lets the run go on by the rules' defaults with no referee action: a
stuck ship tries to get off every hour (R34; with ``stuck_escape: referee`` she stays
stuck and the run ends there), a fire is fought by the whole crew (R50), a sinking ship
sinks unless she is saved by the rules alone (R40), nobody pumps, jettisons or repairs. A run
ends when she arrives, is lost, or can make no more way by herself (engine broken, no fuel,
stuck for the referee: "stranded"), or after :data:`MAX_HOURS`.

The World is the one seam with the campaign's weather: :func:`prepare` asks
:func:`voyage.actions.voyages.world_for` for it, so whatever the campaign's World holds (storms on
the map today; rolled weather, sea states and currents when they land) the forecast sails in.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import signal
import threading
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from voyage.actions import voyages
from voyage.actions.storesplan import against_passage, room_of, stores_lines
from voyage.base.errors import VoyageError
from voyage.base.stopsignals import ending_at_once, for_pool_worker
from voyage.base.text import plain, plural
from voyage.dice.events import LoggedEvent
from voyage.dice.roller import CheckOptions, Roll, Roller
from voyage.engine.clock import SCRAPED_FREE, Engine, ShipState, World
from voyage.rules.arrival import ended
from voyage.rules.shoals import draft_chart
from voyage.rules.stores import rain_catcher
from voyage.rules.storesplan import Outlook, after_hours, hourly_use, outlook
from voyage.store import mapstore
from voyage.tables.calendar import format_time
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import pace_text, set_charge
from voyage.vessels.stores import StoreRules, Stores, store_rules, stores_weight
from voyage.vessels.submersible import depth_now, sub_spec
from voyage.world.seastate import no_storms

#: Fewest and most runs a forecast makes.
MIN_RUNS, MAX_RUNS = 1, 1_000_000
DEFAULT_RUNS = 10_000
#: A run that has neither arrived nor been lost after this many hours ends (stranded).
MAX_HOURS = 24 * 366
#: Runs handed to a worker process at a time.
CHUNK = 250
#: Chunks each extra worker must have to be worth forking (a fork and its start cost about
#: as much as one chunk of runs).
CHUNKS_PER_WORKER = 2
#: z for a 95% interval.
Z95 = 1.959963984540054

LOST = "lost"
ARRIVED = "arrived"
STRANDED = "stranded"


T = TypeVar("T")


class ForecastError(VoyageError):
    """A forecast cannot be made as asked (bad runs, workers, route or ship)."""


# -- what is sailed -----------------------------------------------------------------------


@dataclass
class Leg:
    """A further leg of a voyage with stops (voyage.actions.plan): after arriving at the end of the
    previous leg she buys ``buy`` hlbs of fuel and sails ``route`` (inshore flags per hex)."""

    route: list[str]
    inshore: list[bool]
    buy: int = 0
    #: R82: a built boat recharges her plant to this many power units (None: no recharge)
    recharge: int | None = None
    #: R103: person-days of food and of fresh water she takes on there
    food: int = 0
    fresh_water: int = 0


@dataclass
class Setup:
    """Everything a run needs: the World, the ship as she is now, the clock, and the
    legs after the first (fuel stops). Built once; each run sails a copy."""

    world: World
    state: ShipState
    clock: int
    options: CheckOptions = field(default_factory=CheckOptions)
    legs: list[Leg] = field(default_factory=list)
    label: str = ""
    #: R101-R104: her food and fresh water as she sets out (None: not counted) and the
    #: people who use them. The runs' ship carries their weight, not the stores: each run
    #: reads :attr:`outlook` against her own hours (:func:`went_without`).
    stores: Stores | None = None
    people: int = 0
    store_rules: StoreRules | None = None
    outlook: Outlook | None = None
    #: R103: the clocks, in order, at which a hex of her route is storm-tossed, for a ship
    #: with a rain catcher whose stores are counted (None: she catches no rain). A run
    #: steps those hours one by one, to see whether her own hex is (:func:`drive`).
    storm_clocks: tuple[int, ...] | None = None
    #: R103: for the first leg, by her place on its route, the clocks at which a hex of
    #: the route from that place on is storm-tossed (a storm behind her she cannot meet)
    storms_ahead: list[tuple[int, ...]] | None = None
    #: R100, R103: the most person-days of food and of fresh water she can carry as she
    #: sets out (voyage.actions.storesplan.room_of), for the warnings' fix
    store_room: dict[str, int] | None = None

    @property
    def route(self) -> list[str]:
        """Every hex still to sail, from where she is, over all legs."""
        hexes = list(self.state.route[self.state.position :])
        for leg in self.legs:
            hexes.extend(leg.route[1:])
        return hexes


def prepare(
    camp: Any,
    ship_name: str,
    to: str | None = None,
    via: Sequence[str] = (),
    route: Sequence[str] | None = None,
    inshore: bool = False,
    pace: str | None = None,
    strain: int = 0,
    legs: Sequence[Leg] = (),
    world: World | None = None,
) -> Setup:
    """The forecast's starting point: the ship's open voyage as it stands (a new course
    from her hex with ``to``/``route``), or, for a ship not at sea, the voyage `voyage sail`
    would open with these orders (checked the same way, written nowhere)."""

    chart, storms = mapstore.campaign_chart(camp)
    world = world or voyages.world_for(camp, chart, storms)
    # R93: encounters are met at the table, not forecast
    world.encounters = None
    current = voyages.open_voyage(camp, ship_name)
    if current is None:
        ship = camp.get_ship(ship_name)
        if ship.status in ("sunk", "abandoned"):
            raise ForecastError(f"{ship.name} is {ship.status}: there is no voyage to forecast")
        if not to and not route:
            raise ForecastError(
                f"{ship.name} is {ship.status} with no route: give --to HEX (or --route)"
            )
        state = voyages.planned_voyage(
            camp, ship_name, to, via, route, pace, strain, inshore, chart
        )
    else:
        state = current
        if to or route:
            # R83: round a built boat's shoals, as `voyage act SHIP course` does
            hexes = voyages.plan_route(
                draft_chart(chart, state.ship, camp.rulebook),
                state.hex,
                to,
                via,
                route,
                voyages.shallows(camp.rulebook),
                who=state.ship.name,
            )
            flags = [False] + [bool(inshore and chart.hex(h).coastal) for h in hexes[1:]]
            if state.route[state.position + 1 : state.position + 2] != hexes[1:2]:
                state.progress = 0  # a new heading, as `voyage act course` does
            state.route = [*state.route[: state.position], *hexes]
            state.inshore = [*state.inshore[: state.position], *flags]
            if state.status == "arrived":
                state.status = "under way"
        if pace is not None:
            state.pace, state.strain = voyages.check_pace(state.ship, camp, pace, strain)
        if state.status == "anchored" or (state.status == "adrift" and (to or route)):
            # the forecast asks: what if she weighs anchor (or, lying adrift where she
            # could not anchor, R65, gets under way on the new course) now?
            state.status = "under way"
        if not state.active:
            raise ForecastError(f"{state.ship.name} is not at sea: give --to HEX")
    # the runs read her route thousands of times over: as a list, made once and shared by
    # every run, unless it is too long to split whole (then the text as read:
    # voyage.map.routetext)
    if len(state.route) <= SHARED_ROUTE_HEXES:
        state.route, state.inshore = list(state.route), list(state.inshore)
    # the engine sets these on the ship when it first works out her figures; set here, every
    # run starts alike whatever an earlier run of the same engine did
    state.ship.pace, state.ship.strain = state.pace, state.strain
    setup = Setup(world, state, camp.clock, camp.check_options(), list(legs))
    stores = state.ship.stores
    if stores is not None:
        # R101-R102 counted from each run's hours (voyage.rules.storesplan), as cheap as a
        # look-up: hour by hour they would cost several times the rest of a run. Their
        # weight stays in her Load (R100) as it is when she sets out.
        setup.stores, setup.people = stores, state.ship.crew + state.ship.passengers
        setup.store_rules = rules = store_rules(camp.rulebook)
        setup.outlook = outlook(stores, setup.people, camp.clock, MAX_HOURS, rules)
        setup.store_room = room_of(state.ship, camp.rulebook, camp.water_in_load)
        if rain_catcher(state.ship, rules) and world.sea_state is not no_storms:
            clocks, ahead = storm_clocks(
                world, state.route, state.position, setup.route, camp.clock
            )
            if clocks:  # R103: rain to catch on her way
                setup.storm_clocks, setup.storms_ahead = clocks, ahead
        state.ship.cargo += math.floor(stores_weight(stores, camp.rulebook))
        state.ship.stores = None
    return setup


def storm_clocks(
    world: World, first: Sequence[str], position: int, route: Sequence[str], clock: int
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """R103: the clocks from ``clock`` within the forecast's horizon at which any hex of
    ``route`` (every leg's) is storm-tossed, where a rain catcher may catch rain; and for
    each place on the first leg's route ``first`` (from ``position``), the clocks at which
    a hex from there on is."""
    sea_state = world.sea_state
    index = {h: i for i, h in enumerate(first) if i >= position}
    hexes = set(route)
    clocks: list[int] = []
    furthest: list[int] = []  # the furthest stormy place on the first leg at each clock
    for c in range(clock, clock + MAX_HOURS):
        stormy = [h for h in hexes if sea_state(h, c)]
        if stormy:
            clocks.append(c)
            furthest.append(max((index.get(h, -1) for h in stormy), default=-1))
    ahead = [
        tuple(c for c, far in zip(clocks, furthest, strict=True) if far >= p)
        for p in range(len(first))
    ]
    return tuple(clocks), ahead


# -- seeds -----------------------------------------------------------------------------------


def default_seed(campaign_seed: int, clock: int) -> int:
    """The forecast seed when none is given: from the campaign seed and the clock."""
    return _hash_int(f"voyage forecast:{campaign_seed}:{clock}")


def run_seed(seed: int, index: int) -> int:
    """Run ``index``'s own seed: a stable hash of the forecast seed and the index."""
    return _hash_int(f"{seed}:{index}")


def _hash_int(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


# -- one run ---------------------------------------------------------------------------------


def _shallow(obj: T) -> T:
    """A shallow copy of a plain dataclass (copy.copy, without its slow generic path:
    a forecast copies the ship once a run)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


#: A route of more hexes than this is shared by a forecast's runs as it was read (a
#: TextRoute: read a hex at a time); a shorter one is split into a list once, which every
#: run shares (a list is read ten times faster, and a run reads it hundreds of times).
SHARED_ROUTE_HEXES = 4096


def fresh_state(template: ShipState) -> ShipState:
    """A copy of ``template`` (and its ship) that a run may step; lists are not shared, but
    for her route and inshore flags."""
    ship = _shallow(template.ship)
    ship.traits = list(ship.traits)
    ship.equipment = dict(ship.equipment)
    s = _shallow(template)
    s.ship = ship
    # her route and flags are shared: nothing changes them in place (a new course, a drift
    # or a tow makes new ones), and the engine knows a quiet stretch of them by identity
    # (Engine.quiet_hours)
    s.leaks = list(template.leaks)
    s.new_leaks = []
    s.more = dict(template.more)  # R83-R86 work, R36's part of an hlb: each run its own
    return s


def drive(
    engine: Engine,
    s: ShipState,
    start: int,
    limit: int = MAX_HOURS,
    *,
    events: list[LoggedEvent] | None = None,
    storms: Sequence[int] | None = None,
    rain: list[int] | None = None,
    storms_ahead: list[tuple[int, ...]] | None = None,
) -> int:
    """Sail ``s`` (the engine's one ship) from clock ``start`` until she is no longer at
    sea, can make no way by herself, or ``limit`` hours have passed; return the clock.
    Halts do not stop her (the forecast's policy). Every hour is the engine's
    (:meth:`voyage.engine.clock.Engine.hour`), quiet ones as cheap as it makes them.

    R103: with ``storms`` (:attr:`Setup.storm_clocks`; ``storms_ahead``, on the first
    leg: those of the route from her place on) the hours at those clocks are
    stepped one by one (a quiet hour is sailed exactly as the engine's own, so this
    changes nothing that happens), and the first hour of each day that she starts in a
    storm-tossed hex, where a rain catcher catches rain (voyage.rules.stores.stores_phase),
    is added to ``rain``."""
    clock, end = start, start + limit
    stuck_rolls = engine.world.stuck_escape == "roll"
    quick = not engine.rows  # the engine says whether she made way (Engine.made_way)
    quiet_events = events if events is not None else []  # (R33's clear water, unread)
    sea_state = engine.world.sea_state
    while clock < end and (s.status == "under way" or s.active):
        if quick:
            # the hours in which she only makes way, sailed at once (Engine.quiet_hours)
            most = end - clock
            if storms is not None:
                if storms_ahead is not None and s.position < len(storms_ahead):
                    storms = storms_ahead[s.position]  # (a storm behind her is not met)
                i = bisect_left(storms, clock)
                if rain and i < len(storms) and storms[i] // 24 == rain[-1] // 24:
                    i = bisect_left(storms, (rain[-1] // 24 + 1) * 24)  # caught today
                if i < len(storms):
                    most = min(most, storms[i] - clock)
            if most > 0:
                clock += engine.quiet_hours(clock, most, quiet_events)
            if clock >= end:
                break
        if (
            rain is not None
            and s.ship.hex
            and (not rain or rain[-1] // 24 != clock // 24)
            and sea_state(s.ship.hex, clock)
        ):
            rain.append(clock)  # R103: her first storm hour of the day
        hour_rows, hour_events = engine.hour(clock)
        clock += 1
        if events is not None and hour_events:
            events.extend(hour_events)
        if quick and engine.made_way and s.status == "under way":
            continue  # most hours: still under way (not ended) and making way (not becalmed)
        if ended(s) and not s.emergency:
            break  # the voyage is over; a leak runs on in her (R36), but not in the forecast
        if (
            s.active
            and not (engine.made_way if not engine.rows else any(r.miles for r in hour_rows))
            and not s.emergency
            and not (s.status == "stuck" and stuck_rolls)
        ):
            break  # becalmed: only the referee can move her on
    return clock


@dataclass(slots=True)
class RunResult:
    """What came of one run (small, so it crosses process boundaries cheaply)."""

    outcome: str
    arrival: int | None  # minutes since day 1, 00:00
    loss_hex: str | None
    halts: tuple[str, ...]
    fuel_burnt: int | float  # hlbs, or a built boat's power units (R82)
    fuel_left: int | float
    water_taken: int
    died: int = 0  # R102: people who died going without


class RunRoller(Roller):
    """A run's dice: the Roller's own rolls, but no records kept (a forecast reads what
    happened, not the log, and 10,000 runs would otherwise hold every roll)."""

    def _keep(self, roll: Roll) -> Roll:
        return roll


def run_once(engine: Engine, setup: Setup, seed: int) -> RunResult:
    """One run: a fresh copy of the ship, her own dice, every leg in turn."""
    s = fresh_state(setup.state)
    ship = s.ship
    fuel0, water0 = shipfig.aboard(ship), ship.water
    bought = 0
    engine.states = [s]
    engine.roller = RunRoller(seed, setup.options)
    events: list[LoggedEvent] = []
    clock = setup.clock
    legs = list(setup.legs)
    ends: list[int] = []  # the clock at the end of each leg sailed
    rain: list[int] | None = [] if setup.storm_clocks is not None else None  # R103
    while True:
        clock = drive(
            engine,
            s,
            clock,
            MAX_HOURS - (clock - setup.clock),
            events=events,
            storms=setup.storm_clocks,
            storms_ahead=setup.storms_ahead if not ends else None,
            rain=rain,
        )
        ends.append(clock)
        if not legs or not ended(s) or s.emergency:
            break
        leg = legs.pop(0)
        ship.fuel += leg.buy  # the fuel stop (voyage.actions.plan): bought, and on she sails
        bought += leg.buy
        if leg.recharge is not None:  # R82: a built boat's recharging stop
            bought += leg.recharge - shipfig.aboard(ship)
            set_charge(ship, leg.recharge)
        s = ShipState(
            ship,
            s.voyage_id,
            leg.route,  # (shared by the runs, as the first leg's: fresh_state)
            inshore=leg.inshore,
            pace=s.pace,
            strain=s.strain,
        )
        engine.states = [s]
    halts: list[str] = []
    arrival: int | None = None
    for e in events:
        if e.halt == "arrived":
            arrival = e.clock * 60 + e.event.minute  # the last arrival: the end of the last leg
        elif e.halt and e.halt not in halts:
            halts.append(e.halt)
    died = 0
    if setup.outlook is not None:
        gone, died = went_without(setup, ends, engine.roller, rain or ())
        halts.extend(h for h in gone if h not in halts)
    lost = s.status == "sunk" or s.sinking_in is not None
    if lost:
        outcome, arrival = LOST, None
    elif ended(s) and not legs:
        outcome = ARRIVED
    else:
        outcome, arrival = STRANDED, None
    return RunResult(
        outcome,
        arrival,
        ship.hex if lost else None,
        tuple(halts),
        plain(fuel0 + bought - shipfig.aboard(ship)),
        plain(shipfig.aboard(ship)),
        ship.water - water0,
        died,
    )


def went_without(
    setup: Setup, ends: Sequence[int], roller: Roller, rain: Sequence[int] = ()
) -> tuple[list[str], int]:
    """R101-R104 in one run that sailed legs ending at clocks ``ends``: the stores that ran
    out (as the engine's halts name them) and how many people died going without (R102's
    dawn rolls, on the run's own dice). Each leg reads the voyage's outlook; after a stop
    in port (voyage.actions.plan) the stores left, and those taken on, are counted again,
    and likewise after each hour of ``rain`` (R103: the first storm hour of a day she
    starts in a storm-tossed hex, :func:`drive`), when a rain catcher takes on a
    person-day of fresh water a head: that hour's dawn first, then the rain, then its use."""
    ahead, stores, rules = setup.outlook, setup.stores, setup.store_rules
    assert ahead is not None and stores is not None and rules is not None
    alive, start = setup.people, setup.clock
    out: list[str] = []
    died = 0
    # (clock, 0 a leg's end / 1 rain, leg): a leg's end comes before rain in the next leg's
    # first hour
    points = sorted(
        [(end, 0, i) for i, end in enumerate(ends)]
        + [(c, 1, 0) for c in rain if c // 24 != stores.rain_day]
    )
    leg_end = ends[0] if ends else start
    dawn_done = False  # the dawn at ``start`` was counted before the rain there
    for at, kind, i in points:
        hours = at - start
        out.extend(h for h in ahead.out_within(hours) if h not in out)
        for t, target in ahead.dawns:
            if (t > hours if kind else t >= hours) or alive <= 0:
                break
            for _ in range(alive):
                roll = roller.roll(
                    "going without (R102)", rules.death_dice, target=target, compare="<="
                )
                if roll.total <= target:
                    died += 1
                    alive -= 1
        if kind:  # R103: rain caught, after the dawn of that hour
            stores = after_hours(stores, alive, start, hours, rules, dawn_done)
            if alive > 0:
                stores.fresh_water += alive * rules.rain_per_person
                stores.dry_water = Fraction(0)
            stores.rain_day = at // 24
            ahead = outlook(stores, alive, at, leg_end - at, rules, dawn_done=True)
            start, dawn_done = at, True
        elif i + 1 < len(ends):  # a stop in port: what is left, and what she takes on
            stores = _after_stop(stores, alive, hours, setup.legs[i], rules)
            leg_end = ends[i + 1]
            ahead = outlook(stores, alive, at, leg_end - at, rules)
            start, dawn_done = at, False
    return out, died


def _after_stop(stores: Stores, people: int, hours: int, leg: Leg, rules: StoreRules) -> Stores:
    """Her stores at a stop after ``hours`` of use (R101), with what she takes on there
    (R103: a store taken on is no longer missed, R102)."""
    food = max(Fraction(0), stores.food - hourly_use(people, stores.half_food, rules) * hours)
    water = max(
        Fraction(0), stores.fresh_water - hourly_use(people, stores.half_water, rules) * hours
    )
    return Stores(
        food + leg.food,
        water + leg.fresh_water,
        stores.half_food,
        stores.half_water,
        Fraction(0) if water + leg.fresh_water else stores.dry_water,
        Fraction(0) if food + leg.food else stores.dry_food,
    )


# -- many runs, over worker processes --------------------------------------------------------

_SETUPS: dict[int, Setup] = {}  # filled before the workers fork; read in them
_ENGINES: dict[int, Engine] = {}


def _engine_for(key: int) -> Engine:
    engine = _ENGINES.get(key)
    if engine is None:
        setup = _SETUPS[key]
        # a run reads no hour rows: the engine makes none (Engine.made_way for drive)
        engine = _ENGINES[key] = Engine(
            setup.world, [fresh_state(setup.state)], Roller(0), rows=False
        )
    return engine


def run_chunk(key: int, seed: int, first: int, stop: int) -> list[RunResult]:
    """Runs ``first`` to ``stop - 1`` of the forecast ``key`` (in a worker, or here)."""
    setup = _SETUPS[key]
    engine = _engine_for(key)
    return [run_once(engine, setup, run_seed(seed, i)) for i in range(first, stop)]


def _chunk_job(job: tuple[int, int, int, int]) -> list[RunResult]:
    return run_chunk(*job)


def _quiet_worker(closing: Any) -> None:
    """Ctrl-C, SIGTERM and SIGHUP are the parent's to handle; a worker just stops when the
    pool is closed (multiprocessing sends it SIGTERM, ``closing`` set:
    voyage.base.stopsignals.for_pool_worker), with no traceback of its own."""

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for_pool_worker(closing)


def _kill_workers(closing: Any) -> None:
    """End this process's workers at once (a stop signal came: voyage.base.stopsignals). With
    ``closing`` set, a worker the pool starts to replace them ends as it starts."""

    closing.value = 1
    for _ in range(2):  # again, for one the pool was starting meanwhile
        children = multiprocessing.active_children()
        for child in children:
            child.kill()
        for child in children:
            child.join(1)  # reaped: no zombie left when this process ends at once


def check_counts(runs: int, workers: int | None) -> None:
    """Refuse run and worker counts out of range (one line each)."""
    if not MIN_RUNS <= runs <= MAX_RUNS:
        raise ForecastError(f"--runs must be between {MIN_RUNS} and {MAX_RUNS:,} (got {runs:,})")
    if workers is not None and workers < 1:
        raise ForecastError(f"--workers must be 1 or more (got {workers})")


#: Seconds of runs a forecast with the default workers makes itself first, while it
#: measures the cores' idle time (:func:`free_cores`): a clock tick is 10 ms, so a few
#: ticks a core.
SAMPLE_SECONDS = 0.06
#: Clock ticks a core (/proc/stat) the idle time must be measured over to be believed.
SAMPLE_TICKS = 4


def cpu_sample() -> dict[int, tuple[int, int]] | None:
    """Each CPU's idle and total clock ticks so far, by CPU number (Linux's /proc/stat),
    or None where there is no such file."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            lines = [line.split() for line in stat if line.startswith("cpu")]
        return {
            int(p[0][3:]): (int(p[4]) + int(p[5]), sum(int(x) for x in p[1:9]))
            for p in lines
            if p[0] != "cpu"
        }
    except (OSError, ValueError, IndexError):
        return None


def free_cores(since: dict[int, tuple[int, int]] | None = None) -> int:
    """The cores this process may use that other work is not already using: the cores it
    is allowed (os.sched_getaffinity where the platform has it) that stood idle since
    ``since`` (:func:`cpu_sample`, taken while this process kept one of them busy, so that
    one counts as free too), else less the load average of the last minute; at least one."""
    try:
        cpus = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        cpus = set(range(os.cpu_count() or 1))
    allowed = len(cpus)
    now = cpu_sample() if since is not None else None
    if since is not None and now is not None:
        idle = total = 0
        for cpu in cpus:
            if cpu in since and cpu in now:
                idle += now[cpu][0] - since[cpu][0]
                total += now[cpu][1] - since[cpu][1]
        if total >= SAMPLE_TICKS * allowed:
            return max(1, min(allowed, 1 + math.floor(idle / total * allowed + 0.5)))
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        busy = 0.0
    return max(1, min(allowed, round(allowed - busy + 0.25)))


def workers_for(runs: int, workers: int | None, free: int | None = None) -> int:
    """The worker processes for ``runs`` runs: ``workers`` when given, else the free cores
    (``free``, else :func:`free_cores`), never more than the work keeps busy
    (:data:`CHUNKS_PER_WORKER` chunks each): on a loaded machine a second process only
    shares the one free core, and its fork is pure cost."""
    chunks = -(-runs // CHUNK)
    if workers is not None:
        return max(1, min(workers, chunks))
    return max(1, min(free or free_cores(), chunks // CHUNKS_PER_WORKER))


#: Seconds a forecast waits for its next chunk of runs before it gives up on its workers
#: (a chunk takes well under a second; a year-long voyage on a loaded machine, seconds).
WORKER_WAIT = 600.0
#: Seconds between looks at the workers while a chunk is awaited.
WORKER_LOOK = 0.5
#: Seconds the pool is given to close once every result is in (its workers leave on the
#: pool's "no more work" message); after that they are killed and the forecast ends.
SHUTDOWN_WAIT = 5.0

WORKER_DIED = (
    "a forecast worker process ended before its runs were done (killed, or out of memory): "
    "run the forecast again, or with --workers 1"
)


def _watched(results: Any, count: int, workers: Sequence[Any]) -> Any:
    """The ``count`` chunks of ``results`` (a pool's imap) in order, looked after: a
    worker of ``workers`` that ended (a chunk it held is lost for good: the pool would wait
    for it for ever) or no chunk for :data:`WORKER_WAIT` seconds ends the forecast in one
    line (:class:`ForecastError`) instead of a hang."""
    for _ in range(count):
        waited = 0.0
        while True:
            try:
                chunk = results.next(timeout=WORKER_LOOK)
                break
            except multiprocessing.TimeoutError:
                if any(p.exitcode is not None for p in workers):
                    raise ForecastError(WORKER_DIED) from None
                waited += WORKER_LOOK
                if waited >= WORKER_WAIT:
                    raise ForecastError(
                        f"no forecast worker answered for {WORKER_WAIT:g} s: run the "
                        "forecast again, or with fewer --runs or --workers 1"
                    ) from None
        yield chunk


def _in_time(step: Callable[[], None], seconds: float) -> bool:
    """Run ``step`` in a daemon thread; whether it ended within ``seconds`` (a step that
    hangs on a lock a killed worker held is left behind, and never waited on again)."""
    thread = threading.Thread(target=step, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()


def _end_pool(pool: Any, closing: Any, clean: bool) -> None:
    """Close a forecast's pool without ever waiting for ever (the runs are in memory:
    nothing is lost by killing a worker). With every result in (``clean``), each worker leaves on
    the pool's own "no more work" message, so none is killed while it holds a queue lock;
    one that has not left within :data:`SHUTDOWN_WAIT` seconds (stuck on a lock, or
    killed), or any worker after an error, is killed, and the pool's own shutdown, which
    may wait on a lock a killed worker held, is given the same time and then left."""
    closing.value = 1  # the pool's SIGTERM now ends its workers
    if clean:

        def close() -> None:
            pool.close()
            pool.join()

        if _in_time(close, SHUTDOWN_WAIT):
            return
    _kill_workers(closing)
    _in_time(pool.terminate, SHUTDOWN_WAIT)


#: The clock a forecast's estimate reads (a test stands a slow one in its place).
_now = time.perf_counter


def simulate(
    setup: Setup,
    runs: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[float], None] | None = None,
) -> list[RunResult]:
    """``runs`` runs of ``setup`` in index order, over ``workers`` processes (default: the
    first chunks made here for :data:`SAMPLE_SECONDS` while the cores' idle time is
    measured, then :func:`workers_for` the rest by the cores found free). Each run's dice
    depend only on ``seed`` and its index, so any number of workers gives the same list.
    ``progress`` is told how many runs each finished chunk held; ``estimate`` is told once,
    when the first chunks are in, the seconds the whole forecast should take at that pace.
    Workers are forked (they inherit the prepared setup); where a platform cannot fork,
    the runs are made in this process."""

    check_counts(runs, workers)
    key = id(setup)
    _SETUPS[key] = setup
    jobs = [(key, seed, i, min(i + CHUNK, runs)) for i in range(0, runs, CHUNK)]
    out: list[RunResult] = []
    started = _now()
    estimated = False

    def told(chunk: list[RunResult], rounds: int = 0, timed: int = 1) -> None:
        """A chunk is in: the runs kept, the bar told; and once, given ``rounds``, the
        estimate: the whole forecast takes ``rounds`` times each of the ``timed`` rounds
        (a chunk, or a chunk on each worker) in so far."""
        nonlocal estimated
        out.extend(chunk)
        if estimate is not None and rounds and not estimated:
            estimated = True
            estimate((_now() - started) / timed * rounds)
        if progress and chunk:
            progress(len(chunk))

    try:
        done = 0
        forks = "fork" in multiprocessing.get_all_start_methods()
        if workers is None and forks and len(jobs) >= 2 * CHUNKS_PER_WORKER:
            # the first chunks here, while the cores' idle time is measured: the workers
            # are chosen by the cores actually free (free_cores), and inherit what these
            # runs taught the engine (its quiet stretches)
            sample = cpu_sample()
            until = time.perf_counter() + SAMPLE_SECONDS
            while done < len(jobs) and (not done or time.perf_counter() < until):
                told(_chunk_job(jobs[done]))
                done += 1
            workers = workers_for((len(jobs) - done) * CHUNK, None, free_cores(sample))
            told([], done + -(-(len(jobs) - done) // workers), done)
        else:
            workers = workers_for(runs, workers)
        left = jobs[done:]
        if workers > 1 and forks:
            _engine_for(key)  # built once here, inherited by every worker
            context = multiprocessing.get_context("fork")
            rounds = -(-len(jobs) // workers)

            # the runs are in memory: a SIGTERM ends it all at once (no pool left waiting)
            closing = context.RawValue("b", 0)
            with ending_at_once(lambda: _kill_workers(closing)):
                pool = context.Pool(workers, initializer=_quiet_worker, initargs=(closing,))
                clean = False
                try:
                    members = multiprocessing.active_children()
                    for chunk in _watched(pool.imap(_chunk_job, left), len(left), members):
                        told(chunk, rounds)
                    clean = True
                finally:
                    _end_pool(pool, closing, clean)
        else:
            for job in left:
                told(_chunk_job(job), len(jobs))
    finally:
        _SETUPS.pop(key, None)
        _ENGINES.pop(key, None)
    return out


# -- what the runs say -------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def percentile(ordered: Sequence[int], q: float) -> int:
    """The nearest-rank percentile of sorted values (an observed value, never a blend)."""
    if not ordered:
        raise ValueError("no values")
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def figures(values: Sequence[int]) -> dict[str, Any] | None:
    """Mean and 10th/50th/90th percentiles of whole numbers (None when there are none)."""
    if not values:
        return None
    ordered = sorted(values)
    return {
        "mean": round(sum(ordered) / len(ordered), 2),
        "p10": percentile(ordered, 10),
        "p50": percentile(ordered, 50),
        "p90": percentile(ordered, 90),
    }


CHANCES = (
    ("arrives", "arrives"),
    ("lost", "is lost (sunk, destroyed, capsized)"),
    ("aground", "runs aground at least once"),
    ("out_of_fuel", "runs out of fuel"),
    ("halted", "needs the referee (a halt)"),
    ("out_of_stores", "runs out of food or fresh water"),  # R104, a ship whose stores count
    ("went_without", "loses people going without (R102)"),
)
#: the chances told only of a ship whose stores are counted (R100)
STORE_CHANCES = ("out_of_stores", "went_without")
#: the engine's halts for stores run out (R104)
STORE_HALTS = ("out of food", "out of fresh water")


def summarize(setup: Setup, results: Sequence[RunResult], seed: int) -> dict[str, Any]:
    """The forecast as plain data (what --json prints; the text is made from it)."""
    n = len(results)
    counts = {
        "arrives": sum(r.outcome == ARRIVED for r in results),
        "lost": sum(r.outcome == LOST for r in results),
        # R34: running aground, stuck or scraping free (engine.SCRAPED_FREE)
        "aground": sum("aground" in r.halts or SCRAPED_FREE in r.halts for r in results),
        # R82: a built boat runs out of charge (the same key, for plan and the JSON)
        "out_of_fuel": sum("out of fuel" in r.halts or "out of charge" in r.halts for r in results),
        "halted": sum(bool(r.halts) for r in results),
        "out_of_stores": sum(any(h in STORE_HALTS for h in r.halts) for r in results),
        "went_without": sum(r.died > 0 for r in results),
    }
    chances = {}
    for key, _ in CHANCES:
        low, high = wilson(counts[key], n)
        chances[key] = {
            "runs": counts[key],
            "chance": round(counts[key] / n, 6),
            "low": round(low, 6),
            "high": round(high, 6),
        }
    halt_kinds: Counter[str] = Counter(h for r in results for h in r.halts)
    losses: Counter[str] = Counter(r.loss_hex for r in results if r.loss_hex)
    # the hour by which she has arrived (in at 01:43 is 2 hours from 00:00), as `voyage sail`
    # expects her: flooring the minutes said "0 h" for a voyage that ends within the hour
    arrivals = [-(-r.arrival // 60) for r in results if r.arrival is not None]
    time = figures([h - setup.clock for h in arrivals])
    slow = percentile(sorted(arrivals), 95) - setup.clock if arrivals else None
    s = setup.state
    route = setup.route
    return {
        "ship": s.ship.name,
        "from": route[0],
        "to": route[-1],
        "hexes": len(route) - 1,
        "route": route,
        "stops": [leg.route[0] for leg in setup.legs],
        "inshore": any(s.inshore[s.position :]) or any(any(g.inshore) for g in setup.legs),
        "pace": s.pace,
        "strain": s.strain,
        "speed_text": boat_speed_text(setup),  # R82, R84: a built boat's set speed
        "clock": setup.clock,
        "runs": n,
        "seed": seed,
        "chances": chances,
        "halts": {k: halt_kinds[k] for k in sorted(halt_kinds)},
        "arrival_hours": time,
        "fuel_burnt": figures([r.fuel_burnt for r in results]),  # type: ignore[misc]
        "fuel_left": figures([r.fuel_left for r in results]),  # type: ignore[misc]
        "fuel_unit": shipfig.fuel_words(s.ship)[1],  # hlbs, or power units (R82)
        "water_taken_on": figures([r.water_taken for r in results]),
        "loss_hexes": [
            {"hex": h, "losses": c, "chance": round(c / n, 6)}
            for h, c in sorted(losses.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        ],
        "stores": _stores_of(setup, None if time is None else time["mean"], slow),
    }


def _stores_of(setup: Setup, expected: float | None, slow: int | None) -> dict[str, Any] | None:
    """R104: her stores against the runs' passage: the mean hours of the runs that
    arrived, and the slow one, their 95th percentile (None: not counted). A plan that
    takes on stores at a stop is weighed by its runs alone (the chance they run out)."""
    if setup.stores is None or setup.store_rules is None:
        return None
    taking_on = any(leg.food or leg.fresh_water for leg in setup.legs)
    passages: dict[str, float | None] = {} if taking_on else {"expected": expected, "slow": slow}
    data = against_passage(
        setup.stores, setup.people, passages, setup.store_rules, setup.store_room
    )
    if data is not None:
        # R103: the runs count the rain she catches in the storms on her way; the days she
        # carries against the passage do not (rain is not in her stores when she sets out)
        data["rain_counted"] = setup.storm_clocks is not None
    return data


def boat_speed_text(setup: Setup) -> str | None:
    """A built boat's pace as it means something for her (R82): the speed in mph her
    skipper set (``20 mph (default)``), and a submersible's depth (R84: full speed
    submerged, 3/4 of her top speed surfaced). None for a rolled ship (normal, slow,
    strain: R13-R15)."""
    ship = setup.state.ship
    if ship.design is None:
        return None

    text = pace_text(setup.state.pace, ship, setup.world.book, setup.world.water_in_load)
    if sub_spec(ship) is not None:
        depth = depth_now(ship)
        text += (
            f", {depth} ft down (R84: full speed)"
            if depth
            else ", surfaced (R84: at most 3/4 of her top speed)"
        )
    return text


def forecast(
    setup: Setup,
    runs: int = DEFAULT_RUNS,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[float], None] | None = None,
) -> tuple[dict[str, Any], list[RunResult]]:
    """Run the forecast; return its summary and every run's result (for the plot)."""
    results = simulate(setup, runs, seed, workers, progress, estimate)
    return summarize(setup, results, seed), results


# -- the forecast told --------------------------------------------------------------------------


def pct(p: float) -> str:
    """A chance for people: ``12.3%`` (two decimals below 1%, so small risks show)."""
    value = p * 100
    return f"{value:.2f}%" if 0 < value < 1 else f"{value:.1f}%"


def when(calendar: Any, clock: int, hours: float) -> str:
    """A time ``hours`` after ``clock``, in the campaign's one time format, with the hours."""

    return f"{format_time(calendar, clock + math.floor(hours + 0.5))} ({hours:g} h)"


def text_report(data: dict[str, Any], calendar: Any = None, in_port: bool = True) -> list[str]:
    """The forecast as lines for a referee (times by the campaign's ``calendar``);
    ``in_port``: she sets out from a port, where stores are taken on (R103)."""

    n = data["runs"]
    charge = data.get("fuel_unit", "hlbs") != "hlbs"  # R82: a built boat's power units
    stopping = "stopping to recharge at" if charge else "stopping for fuel at"
    stops = f", {stopping} {', '.join(data['stops'])}" if data["stops"] else ""
    lines = [
        f"Forecast for {data['ship']}: {data['from']} to {data['to']}, "
        f"{plural(data['hexes'], 'hex', 'hexes')}"
        f"{' inshore' if data['inshore'] else ''}{stops}, "
        + (f"speed {data['speed_text']}" if data.get("speed_text") else f"pace {data['pace']}")
        + f"{' +' + str(data['strain']) + ' knots' if data['pace'] == 'strain' else ''}, "
        f"from {format_time(calendar, data['clock'])}.",
        f"{n:,} run{'' if n == 1 else 's'}, seed {data['seed']} "
        "(the same seed gives the same forecast).",
        "",
        "Chance she ...                            (95% interval)",
    ]
    width = max(len(label) for _, label in CHANCES)
    for key, label in CHANCES:
        if key in STORE_CHANCES and not data.get("stores"):
            continue
        c = data["chances"][key]
        if charge and key == "out_of_fuel":
            label = "runs out of charge"  # R82
        lines.append(
            f"  {label:<{width}}  {pct(c['chance']):>6}  ({pct(c['low'])} - {pct(c['high'])})"
        )
    lines.append("")
    arrival = data["arrival_hours"]
    if arrival:
        got = data["chances"]["arrives"]["runs"]
        lines.append(f"Arrival ({got:,} run{'' if got == 1 else 's'} that arrived):")
        lines.append(f"  mean {when(calendar, data['clock'], arrival['mean'])}")
        for q in ("p10", "p50", "p90"):
            lines.append(f"  {q[1:]:>2}th percentile {when(calendar, data['clock'], arrival[q])}")
    else:
        lines.append("Arrival: in no run did she arrive.")
    fuel_label = "Fuel burnt" if data.get("fuel_unit", "hlbs") == "hlbs" else "Charge spent"
    for key, label in (("fuel_burnt", fuel_label), ("water_taken_on", "Water taken on")):
        unit = data.get("fuel_unit", "hlbs") if key == "fuel_burnt" else "hlbs"
        f = data[key]
        lines.append(
            f"{label} ({unit}): mean {f['mean']:g}; 10th {f['p10']}, 50th {f['p50']}, "
            f"90th {f['p90']} percentile"
        )
    if data["loss_hexes"]:
        shown = ", ".join(f"{h['hex']} ({pct(h['chance'])})" for h in data["loss_hexes"])
        lines.append(f"Where she was lost (most first): {shown}")
    else:
        lines.append("Where she was lost: in no run was she lost.")
    if data["halts"]:
        shown = ", ".join(f"{k} {pct(v / n)}" for k, v in data["halts"].items())
        lines.append(f"Halts for the referee (runs with each): {shown}")
    lines += stores_lines(data.get("stores"), data["ship"], in_port)
    return lines
