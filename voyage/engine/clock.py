"""The voyage engine: every ship at sea, hour by hour, minute by minute in an emergency.

The engine is pure: it steps a plain in-memory :class:`World` (the rule book, the sea map,
the storms, the campaign options) and a list of :class:`ShipState` (a
:class:`~voyage.vessels.ships.Ship`
plus its voyage) with a :class:`~voyage.dice.roller.Roller`, and returns :class:`HourRow` records
and
:class:`LoggedEvent` records. It never touches the database: :mod:`voyage.actions.voyages` loads the
state, runs it and writes the results in one transaction.

One hour of one ship, at sea or in port with trouble open (R36), in order (docs/voyages.md):

1. minute 0: a stuck ship tries to get off (R34, unless ``stuck_escape`` is ``referee``);
   water over DW/4 or DW/2 lists or sinks her now (R37); a straining ship rolls for its
   engine (R14, R50); an Overloaded ship (R41) or one with water over DW/10 may capsize.
2. minutes 0-59: the ship makes its speed in miles (R13, R31) and enters the next hex of its
   route each time its progress reaches 12 miles, at the minute it gets there. Entering a
   hex burns fuel (R16; short of it she stops adrift at its edge), may capsize it in
   storm-tossed seas (R32, R60) and, inshore, in a narrow passage or in drawn shallows on
   any leg, may hide an underwater hazard (R33) it runs aground on (R34) and rams (R35,
   R36). While a fire, a listing or a sinking is under way the hour is stepped minute by
   minute (R52): the fire spreads and is fought each minute (R50), a listing ship may
   capsize every 10 minutes (R37), a sinking ship counts its minutes down (R40).
3. minute 59: water comes in from every leak (R36, R37); a ship that has spent 6 storm
   hours in the same hex (3 in a major storm, 1 in a hurricane, R60) may capsize (R32);
   water over DW/4 lists the ship, over DW/2 (or a Load over 2xDW, R12) sinks it.
4. after every ship's hour: the ships in port with no voyage open (:attr:`Engine.moored`)
   take only the hour's stores phase (R101-R103, the same voyage.rules.stores); a ship
   under tow ends it at her tower (R92, voyage.engine.towing); encounter checks (R93,
   voyage.world.encounters), from their own dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from voyage.base.text import plain
from voyage.dice.events import Event, LoggedEvent
from voyage.dice.roller import Roller
from voyage.engine.shipstate import (  # noqa: F401 (the engine's names, for its callers)
    CLOSED_STATUSES,
    EXTRA_DEFAULTS,
    MINUTES,
    OPEN_STATUSES,
    HourRow,
    ShipState,
)
from voyage.engine.towing import tow_phase
from voyage.map.chart import Chart
from voyage.rules import fuel, leakwater
from voyage.rules import hourly as phases
from voyage.rules.aground import aground, coast_event, stuck_event, waiting_aground
from voyage.rules.anchors import anchor_phase
from voyage.rules.arrival import arrive
from voyage.rules.boatwater import bottom_damage, keel_rights
from voyage.rules.capsize import (
    capsize_event,
    capsize_triggers,
    sea_state_rules,
    storm_clock,
)
from voyage.rules.crewless import no_hands
from voyage.rules.drift import current_leg, drift_phase
from voyage.rules.emergency import emergency_minute, emergency_minutes
from voyage.rules.fire import fire_start
from voyage.rules.floodphase import flooding, r37_water
from voyage.rules.sinking import sinking_time
from voyage.rules.stores import quiet_dawn, rain_catcher, stores_phase
from voyage.rules.strain import strain_hour
from voyage.rules.towing import TOW
from voyage.tables.calendar import is_dawn, is_dusk
from voyage.tables.rulebook import RuleBook
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import figures_key
from voyage.vessels.stores import raft_stores_weight, store_rules
from voyage.vessels.vessel import life_rafts
from voyage.world.seastate import SeaStateLookup, no_storms  # R60: a hex's sea state at an hour

#: R34: the stop for a grounding she got off at once (the referee hears of every one,
#: docs/voyages.md); "aground" said she was stuck
SCRAPED_FREE = "touched bottom and scraped free"
_NO_HLBS = Fraction(0)  #: R100: no life rafts' emergency stores in the Load
#: Why an advance stops early: something needs the referee (kinds of :class:`Halt`).
HALT_REASONS = (
    "arrived",
    "aground",
    "fire",
    "listing",
    "capsized",
    "sinking",
    "sunk",
    "engine broken",
    "out of fuel",
    "out of charge",
    "destroyed",
    "anchor lost",
    "people lost",
    "drowned",
    "raft capsized",
    "encounter",
    "tow parted",  # R93, R92; "out of charge": R82
    "out of fresh water",  # R101, R104: her stores ran out
    "out of food",
    SCRAPED_FREE,  # R34: she ran aground and got off at once
)


@dataclass
class World:
    """Everything the engine reads and never changes: rules, map, sea states, options."""

    book: RuleBook
    chart: Chart
    sea_state: SeaStateLookup = no_storms
    water_in_load: bool = True
    stuck_escape: str = "roll"
    track_armor: bool = False  #: R84: depth damage wears a built boat's armour
    #: the campaign's calendar (voyage.tables.calendar): dawn and dusk by season; None counts days
    calendar: Any = None
    #: R64: the current in a hex (voyage.map.currents.Current), or None
    current_at: Callable[[str], Any] = field(default=lambda hex_name: None)
    encounters: Any = None  #: R93: voyage.world.encounters.EncounterChecks, or None (no checks)


@dataclass
class AdvanceResult:
    """What an advance did: the hours run, the rows and events, and why it stopped."""

    start: int
    hours_run: int = 0
    rows: list[HourRow] = field(default_factory=list)
    events: list[LoggedEvent] = field(default_factory=list)
    halts: list[LoggedEvent] = field(default_factory=list)
    stopped: str = ""
    in_port: bool = False  #: every ship was in port: only the clock (and weather) moved

    @property
    def end(self) -> int:
        return self.start + self.hours_run


UNTIL = ("arrival", "event", "dawn", "dusk")
#: Kinds of event that are routine: they do not stop ``--until event``.
ROUTINE_KINDS = frozenset(
    {
        "coast",
        "fuel",
        "strain",
        "capsize",
        "sinking",
        "fire",
        "aground",
        "tow",
        "water",
        "search",  # R72/R74: quiet rolls
        "pumps",
        "repair",
        "depth",
    }
)  # R83-R86; a change still stops


class Engine:
    """Steps every active ship of a world, hour by hour, with one roller."""

    def __init__(
        self, world: World, ships: Iterable[ShipState], roller: Roller, *, rows: bool = True
    ) -> None:
        self.world = world
        #: whether :meth:`hour` makes hour rows; without them (a forecast reads none, and
        #: has no people in the water, R71-R74, nor a tow, R92, to read them) its first list
        #: is empty and :attr:`made_way` tells whether a ship made way that hour
        self.rows = rows
        self.made_way = False
        self.book = world.book
        self._water_in_load = world.water_in_load  # (the world never changes: load() reads it)
        rules = self._store_rules = store_rules(self.book)  # R100-R103, from the tables
        self._store_hlb = (rules.food_hlb, rules.water_hlb)
        self._dawn_hour, self._hourly = rules.dawn_hour, rules.hourly
        self._rain_catcher: dict[str, bool] = {}  # R103, by ship
        self.roller = roller
        self.states = list(ships)
        self._fixed: dict[str, Any] = {}
        self._fuel_weighs: dict[str, bool] = {}
        self._raft_hlb: dict[str, Fraction] = {}  # R100: the life rafts' emergency stores
        self._dw: dict[str, int] = {}
        self._memo: dict[tuple[Any, ...], tuple[int, int, int]] = {}
        self._hex_miles = int(self.book.procedures["hex_miles"])
        self.shallows = frozenset(self.book.procedures["coast"].get("shallow_terrains", ()))
        self._hexes: dict[str, Any] = {}
        self._open: dict[str, bool] = {}  # hexes entered without R33's roll (open_water)
        self._hour_figures: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # (hour_figures)
        self._categories: dict[tuple[int, int], str] = {}
        self._sea = sea_state_rules(self.book)
        self._listing_every = int(self.book.procedures["flooding"].get("listing_check_minutes", 10))
        for s in self.states:
            self.refresh(s)
            self._dw[s.ship.name] = shipfig.deadweight(s.ship, self.book)
        self.water: Any = None  # R71-R74: voyage.world.waterphase.WaterPhase, or None
        #: R101: ships in port with no voyage open, whose stores are used all the same
        #: (:meth:`moor`, :meth:`moored_hour`); never moved, never in :attr:`states`
        self.moored: list[ShipState] = []
        #: R101 with R36: voyages in port with trouble open (:meth:`moor`), each with
        #: whether the hour begins with her trouble over (then only the stores phase)
        self._berthing: list[list[Any]] = []
        #: R103 with R60: the weather whose rain a ship catches where it is not her sea's
        #: (a voyage in port with trouble open: her sea calm, the storm over her port), by
        #: ship (:meth:`moor`); every other ship catches the rain of her own sea
        self.rain_over: dict[str, SeaStateLookup] = {}
        self.progress: Callable[[int], None] | None = None  # told 1 after each hour (a bar)
        #: R33's rolls already made for the hour at :attr:`_ahead_clock` (coast_ahead), in
        #: the order her hexes are entered, not yet logged
        self._ahead: list[Event] = []
        self._ahead_clock = -1
        #: R34: a stuck ship's try that got her off, made for the hour at its clock by
        #: :meth:`_ShipHour.stuck` and not yet logged: that hour's start takes it
        self._got_off: tuple[int, Event] | None = None
        #: a forecast's quiet stretches worked out (_ShipHour.quiet), by where they start
        self._stretches: dict[tuple[Any, ...], _Stretch] = {}

    def coast_ahead(self, clock: int, index: int) -> Event:
        """R33's roll (:func:`~voyage.rules.aground.coast_event`, the roller's next dice) for
        the ``index``-th coastal hex entered in the hour at ``clock``, made now if not yet:
        a quiet hour's check rolls its coast hazards as the hour would, in the same order
        with no other roll between, and the hour that sails on keeps them
        (:meth:`next_coast`)."""
        ahead = self._ahead
        if self._ahead_clock != clock:
            if ahead:
                raise RuntimeError(f"coast rolls of hour {self._ahead_clock} were never used")
            self._ahead_clock = clock
        if index < len(ahead):
            return ahead[index]
        event = coast_event(self.roller, self.book)
        ahead.append(event)
        return event

    def next_coast(self, clock: int) -> Event:
        """R33's roll for the next coastal hex entered in the hour at ``clock``: the one
        :meth:`coast_ahead` made for it, else a new one."""
        if self._ahead:
            if self._ahead_clock != clock:
                raise RuntimeError(f"coast rolls of hour {self._ahead_clock} were never used")
            return self._ahead.pop(0)
        return coast_event(self.roller, self.book)

    def refresh(self, s: ShipState) -> None:
        """Re-reckon the fixed part of a ship's Load after people come or go (R11, R70)."""
        self._fixed[s.ship.name] = shipfig.fixed_load(s.ship, self.book)
        self._fuel_weighs[s.ship.name] = shipfig.fuel_in_load(s.ship)  # R11; R82: charge not
        self._rain_catcher[s.ship.name] = rain_catcher(s.ship, self._store_rules)
        stores = s.ship.stores
        raft = raft_stores_weight(stores, life_rafts(s.ship), self.book)
        if raft:
            self._raft_hlb[s.ship.name] = raft
        else:
            self._raft_hlb.pop(s.ship.name, None)
        if stores is not None:  # R100: weighed with her stores, kept up to date in them
            stores.weigh_by(self._store_hlb, raft)

    # -- figures -------------------------------------------------------------------------
    def load(self, s: ShipState) -> int:
        """R11: cargo + fuel + people + equipment (+ water, unless the option leaves it out)."""
        ship = s.ship
        water = ship.water if self._water_in_load else 0
        fuel = ship.fuel if self._fuel_weighs[ship.name] else 0
        load = ship.cargo + fuel + self._fixed[ship.name] + water
        stores = ship.stores
        if stores is None:
            return load
        # R100: fractions kept in the stores, the Load counted in whole hlbs (as shown), her
        # life rafts' emergency stores with them
        if stores.weighed_by is not self._store_hlb:  # (stores she took on since refresh())
            stores.weigh_by(self._store_hlb, self._raft_hlb.get(ship.name, _NO_HLBS))
        return load + stores.whole_hlbs

    def row_load(self, s: ShipState) -> Any:
        """:meth:`load` with a tow counted (R92): what her hour row shows and R12's
        category reads (R41 too; R12's sinking and R37 leave the tow out)."""
        return self.load(s) + (s.ship.equipment.get("tow_counted") or 0)

    def category(self, s: ShipState) -> str:
        """R12: the load category now, a tow counted (:meth:`row_load`)."""
        load = self.row_load(s)
        found = self._categories.get((load, self._dw[s.ship.name]))
        return found if found is not None else self.category_of(load, self._dw[s.ship.name])

    def category_of(self, load: int, deadweight: int) -> str:
        """R12 (voyage.vessels.ships.load_category_for), memoised: loads repeat hour after hour."""
        key = (load, deadweight)
        found = self._categories.get(key)
        if found is None:
            found = self._categories[key] = shipfig.load_category_for(load, deadweight, self.book)
        return found

    def figures(self, s: ShipState, cat: str | None = None) -> tuple[int, int, int]:
        """(travelling speed, fuel use per hex, cruising speed) now (R13-R16), memoised on
        the few things they depend on."""
        ship = s.ship
        cat = cat or self.category(s)
        powered = shipfig.under_power(ship)
        key = (
            ship.name,
            cat,
            powered,
            s.pace,
            s.strain,
            ship.equipment.get("tow_counted"),
            None if ship.design is None else figures_key(ship),
        )  # R82: a built boat's weight and power too
        found = self._memo.get(key)
        if found is None:
            ship.pace, ship.strain = s.pace, s.strain
            wil = self.world.water_in_load
            found = (
                shipfig.speed(ship, self.book, s.pace, s.strain, wil),
                shipfig.fuel_use(ship, self.book, s.pace, wil),
                shipfig.cruising_speed(ship, self.book, wil),
            )
            self._memo[key] = found
        return found

    def open_water(self, name: str) -> bool:
        """Whether entering hex ``name`` rolls no coast hazard on an open-sea leg (R33: not
        a narrow passage nor drawn shallows), looked up once per advance."""
        found = self._open.get(name)
        if found is None:
            info = self.hex_info(name)
            found = self._open[name] = not info.narrow_passage and info.terrain not in self.shallows
        return found

    def hour_figures(self, s: ShipState) -> tuple[str, Any, Any, Any, bool, Any]:
        """(load category, travelling speed, fuel use per hex, cruising speed, under power,
        Load) of a ship under way now (R12-R16, R13, a tow counted in her Load and
        category, R92, as :meth:`row_load` counts it), memoised on her Load and what
        :meth:`figures` depends on: the same few values hour after hour."""
        ship = s.ship
        tow = ship.equipment.get("tow_counted")
        load = self.load(s) + (tow or 0)
        powered = shipfig.under_power(ship)
        key = (
            ship.name,
            load,
            powered,
            s.pace,
            s.strain,
            tow,
            None if ship.design is None else figures_key(ship),
        )
        found = self._hour_figures.get(key)
        if found is None:
            category = self.category_of(load, self._dw[ship.name])
            found = (category, *self.figures(s, category), powered, load)
            self._hour_figures[key] = found
        return found

    def hex_info(self, name: str) -> Any:
        """What the map says about a hex (looked up once per advance)."""
        found = self._hexes.get(name)
        if found is None:
            found = self._hexes[name] = self.world.chart.hex(name)
        return found

    # -- the run -------------------------------------------------------------------------
    def run(
        self,
        start: int,
        hours: int | None = None,
        until: str | None = None,
        limit: int = 24 * 366,
        halt: bool = True,
    ) -> AdvanceResult:
        """Advance from clock ``start``: ``hours`` hours, or ``until`` arrival / event / dawn
        / dusk (at most ``limit`` hours). Stops early after any hour in which something
        needs the referee (unless ``halt`` is False: the benchmark and some tests run on)."""
        result = AdvanceResult(start)
        no_hands(self, start, result.events)  # R70: a crewless ship makes no way (R64)
        todo = hours if hours is not None else limit
        clock = start
        # with every ship in port the clock still runs (the weather moves on; a referee can
        # wait out a storm): only a voyage that ends during the advance stops it early
        in_port = result.in_port = not self._anyone_at_sea()
        while result.hours_run < todo:  # (someone is at sea in the first hour unless in_port)
            if not in_port and result.hours_run and not self._anyone_at_sea():
                result.stopped = result.stopped or "no ship at sea"
                break
            rows, events = self.hour(clock)
            result.rows.extend(rows)
            result.events.extend(events)
            result.hours_run += 1
            clock += 1
            if self.progress is not None:
                self.progress(1)
            halts = [e for e in events if e.halt] if halt else []
            if halts:
                result.halts.extend(halts)
                why: dict[str, list[str]] = {}
                for e in halts:
                    reasons = why.setdefault(e.ship, [])
                    if e.halt not in reasons:
                        reasons.append(str(e.halt))
                result.stopped = "; ".join(f"{ship}: {', '.join(r)}" for ship, r in why.items())
                break
            calm = self._becalmed(rows, until) if until in ("arrival", "event") else ""
            if calm:
                result.stopped = calm
                break
            if until == "event" and any(
                e.event.kind not in ROUTINE_KINDS or e.event.changes for e in events
            ):
                result.stopped = "an event"
                break
            if until == "dawn" and is_dawn(self.world.calendar, clock):
                result.stopped = "dawn"
                break
            if until == "dusk" and is_dusk(self.world.calendar, clock):
                result.stopped = "dusk"
                break
        else:
            if until in ("arrival", "event") and hours is None:
                result.stopped = f"nothing happened in {limit} hours"
        return result

    def _anyone_at_sea(self) -> bool:
        """A ship to step (under way first: no property call), or people afloat (R71-R74)."""
        for s in self.states:  # (a loop, not any() of a generator: asked every hour)
            if s.status == "under way" or s.active:
                return True
        return bool(self.water and self.water.active)

    def _becalmed(self, rows: list[HourRow], until: str = "event") -> str:
        """Why waiting for an arrival or an event would only fill the log with still hours
        (no ship made way this hour and none can by itself; nobody afloat rolled, drifted or
        was searched for: R72-R74; for an event, no ship in port uses her stores: R101), or
        "" while something can still happen."""
        if any(r.miles for r in rows) or (self.water and self.water.stirring):
            return ""
        if until == "event" and self._stores_in_port():
            return ""
        for s in self.states:
            if not s.active:
                continue
            if s.in_trouble or (
                s.status == "stuck" and self.world.stuck_escape == "roll" and s.ship.crew > 0
            ):  # R34 with R70: she tries to get off
                return ""
        why = "no ship is making way (anchored, adrift or waiting for the referee)"
        if self.water and self.water.active:
            why = str(self.water.settled())
        return why + waiting_aground(self.states)  # R34: a stuck ship named, and her way out

    def _stores_in_port(self) -> bool:
        """Whether a ship in port (:meth:`moor`) has people aboard using her stores, whose
        hours can still bring an event (R101: a store running out; R102: 06:00's rolls)."""
        return any(s.ship.crew + s.ship.passengers for s in self.moored) or any(
            s.status == "arrived" and s.ship.crew + s.ship.passengers for s, _ in self._berthing
        )

    def ship_hour(self, s: ShipState, clock: int, out: list[LoggedEvent]) -> _ShipHour:
        """The engine's own hour of ship ``s`` from ``clock``, its events appended to
        ``out``, for a phase that steps her through part of it (R92: the hexes a ship in tow
        enters behind her tower, voyage.engine.towing)."""
        return _ShipHour(self, s, clock, out)

    def hour(self, clock: int) -> tuple[list[HourRow], list[LoggedEvent]]:
        """One hour (``clock`` to ``clock + 1``) for every active ship, in order."""
        rows: list[HourRow] = []
        events: list[LoggedEvent] = []
        if self.rows:
            # what the stores of every ship ask this hour (R101-R103), looked up once
            day, dawn = clock // 24, clock % 24 == self._dawn_hour
            sea_state, catcher, hourly = self.world.sea_state, self._rain_catcher, self._hourly
            rain_over = self.rain_over
            for s in self.states:
                if s.status == "under way" or s.active:
                    h = _ShipHour(self, s, clock, events)
                    ship = s.ship
                    stores = ship.stores
                    if stores is not None:
                        # R101-R102 before the rest of the hour (as run()): the stores phase,
                        # unless nothing but the hour's use can happen to them: not a 06:00
                        # that counts, rolls or says a store runs low (quiet_dawn), no rain
                        # to catch (R103: caught today, no catcher, or a calm hex), no store
                        # running out (Stores.quiet_hour: the use taken, else nothing)
                        people = ship.crew + ship.passengers
                        if (
                            (dawn and not quiet_dawn(stores, people, self._store_rules))
                            or (
                                stores.rain_day != day
                                and catcher[ship.name]
                                and ship.hex
                                and (
                                    rain_over.get(ship.name, sea_state) if rain_over else sea_state
                                )(ship.hex, clock)
                            )
                            or not stores.quiet_hour(people, hourly)
                        ):
                            h.stores()
                    row = h.calm()  # (run(), inline: every ship-hour)
                    rows.append(h.stepped() if row is None else row)
        else:
            made_way = False
            for s in self.states:
                if s.status == "under way" or s.active:
                    h = _ShipHour(self, s, clock, events)
                    h.run()
                    made_way = made_way or h.miles > 0
            self.made_way = made_way
        if self.moored or self._berthing:
            self.moored_hour(clock, events)  # R101-R103 in port
        if self.water is not None:
            events.extend(self.water.hour(clock, rows))  # R71-R74: rafts, people afloat
        tow_phase(self, clock, events, rows)  # R92: a ship under tow ends the hour at her tower
        if self.world.encounters is not None:
            self.world.encounters.phase(self, clock, events)  # R93, after the ships move
        return rows, events

    #: the engine of the ships in port (:meth:`moor`): this one's roller, in port's world
    _harbour: Engine

    def moor(
        self,
        ships: Iterable[ShipState],
        world: World | None = None,
        berthing: Iterable[ShipState] = (),
    ) -> None:
        """Ships lying in port with no voyage open and stores counted (R101: each person
        aboard uses them at sea or in port): each hour gives them its stores phase alone
        (:meth:`moored_hour`), in ``world`` (the weather over the ports, whose rain they
        catch, R103; default this engine's). A state's ``voyage_id`` is her latest
        voyage, whose log goes on in port, or 0 for a ship that never sailed (her events
        belong to none). ``berthing``: this engine's voyages arrived in port with trouble
        open (R36), stepped as moored from the first hour that begins with it over."""
        self._harbour = Engine(world or self.world, [], self.roller)
        for s in ships:
            self._harbour.refresh(s)  # (R103's rain catcher; R102's deaths re-reckon her Load)
            self.moored.append(s)
        for s in berthing:
            self._harbour.refresh(s)
            self.rain_over[s.ship.name] = self._harbour.world.sea_state  # R103, her sea R60
            self._berthing.append([s, not (s.status == "under way" or s.active)])

    def moored_hour(self, clock: int, out: list[LoggedEvent]) -> None:
        """The hour of the ships in port (:meth:`moor`) with anyone aboard: the same stores
        phase as at sea (voyage.rules.stores: R101's use, R102's 06:00 count and rolls,
        R103's rain in a storm hour of the port's hex, a store running out stopping the
        advance): the whole phase every hour, as :meth:`_ShipHour.run` gives it."""
        harbour = self._harbour
        harbour.water = self.water  # R102: the named people aboard, from the one roster
        for s in self.moored:
            if not s.ship.crew + s.ship.passengers:
                continue  # (all dead in port: nobody left to use them or go without)
            first = len(out)
            _ShipHour(harbour, s, clock, out).stores()
            if not s.voyage_id:  # never sailed: no voyage to log it under
                for e in out[first:]:
                    e.voyage_id = None
        for berth in self._berthing:  # (the hour began with her trouble over: not stepped)
            s, idle = berth
            people = s.ship.crew + s.ship.passengers
            if idle and s.status == "arrived" and people:
                _ShipHour(harbour, s, clock, out).stores()
            berth[1] = not (s.status == "under way" or s.active)

    def quiet_hours(self, clock: int, limit: int, out: list[LoggedEvent]) -> int:
        """Up to ``limit`` hours from ``clock`` of an engine that keeps no rows (a
        forecast's) in which nothing can happen to its one ship but her way (R31) and her
        fuel (R16), sailed at once, each exactly as :meth:`hour` would sail it
        (:meth:`_ShipHour.quiet`), or, stuck, in which she only fails to get off (R34,
        :meth:`_ShipHour.stuck`); returns how many (0: the next hour is :meth:`hour`'s).
        Not with people afloat (R71-R74), encounter checks (R93), stores (R101-R102) or a
        tow (R92): their phases run every hour."""
        if (
            self.rows
            or self.water is not None
            or self.world.encounters is not None
            or len(self.states) != 1
        ):
            return 0
        s = self.states[0]
        if s.ship.stores is not None or TOW in s.ship.equipment:
            return 0
        if s.status == "stuck":
            self.made_way = False
            return _ShipHour(self, s, clock, out).stuck(limit)
        if s.status != "under way":
            return 0
        hours = _ShipHour(self, s, clock, out).quiet(limit)
        if hours:
            self.made_way = True
        return hours


#: the coast rolls' minutes of a quiet hour that has none (_ShipHour.quiet_rest), never
#: added to
_NO_COASTS: list[int] = []

#: Quiet stretches an engine keeps (:meth:`_ShipHour.quiet`); more, and it starts afresh.
STRETCHES = 4096
#: Hours with coast rolls (R33) a quiet stretch holds at most: worked out beyond the
#: likely hazard, a long inshore route would cost each run's stretch all of its hexes.
STRETCH_ROLLS = 8


@dataclass(slots=True)
class _Stretch:
    """A quiet stretch worked out (:meth:`_ShipHour.stretch`) on ``route`` and its
    ``inshore`` flags: each hour with coast rolls (R33) as (its clock, the minute of each
    roll, her state as it began: :meth:`_ShipHour.where`), her state at its end, and
    whether it ends only because it holds :data:`STRETCH_ROLLS` such hours (``more``)."""

    route: Any
    inshore: Any
    rolls: list[tuple[int, list[int], tuple[Any, ...]]]
    end: tuple[Any, ...]
    more: bool = False


#: what :meth:`_ShipHour.row` gives an engine that keeps no hour rows (Engine.rows): not
#: a row of any hour, never read
UNKEPT = HourRow(0, "", 0, "", 0, 0, "", 0, 0, "", 0, 0, "")
_new_row = object.__new__  # (_ShipHour.row fills a new HourRow's fields itself)


class _ShipHour:
    """One hour of one ship (see the module docstring for the order of things)."""

    __slots__ = (
        "e",
        "book",
        "roller",
        "s",
        "ship",
        "clock",
        "out",
        "minute",
        "moving",
        "speed",
        "fuel_use",
        "cruising",
        "miles",
        "entered",
        "progress_before",
    )

    def __init__(self, engine: Engine, s: ShipState, clock: int, out: list[LoggedEvent]) -> None:
        self.e = engine
        self.book = engine.book
        self.roller = engine.roller
        self.s = s
        self.ship = s.ship
        self.clock = clock
        self.out = out
        self.minute = 0
        self.moving = False
        self.speed = 0
        self.fuel_use = 0
        self.cruising = 0
        self.miles = 0
        self.entered = 0
        self.progress_before = s.progress

    # -- logging -------------------------------------------------------------------------
    def log(self, event: Event, halt: str | None = None) -> None:
        event.minute = self.minute
        self.out.append(LoggedEvent(self.s.voyage_id, self.ship.name, self.clock, event, halt))

    def note(
        self, kind: str, text: str, halt: str | None = None, changes: dict[str, Any] | None = None
    ) -> None:
        self.log(Event(kind, text, [], self.minute, changes or {}), halt)

    @property
    def now(self) -> int:
        """Minutes since day 1, 00:00."""
        return self.clock * MINUTES + self.minute

    # -- the hour ------------------------------------------------------------------------
    def run(self) -> HourRow:
        """The whole hour, the stores phase every hour of a ship that counts them (R101-R102,
        before the rest; :meth:`Engine.hour` leaves it out when it can only take the hour's
        use)."""
        if self.ship.stores is not None:
            self.stores()
        row = self.calm()
        return self.stepped() if row is None else row

    def stepped(self) -> HourRow:
        """The hour phase by phase, from its start (what :meth:`calm` leaves alone)."""
        phases.start_phase(self)  # R84-R86: depth damage, leak work, bilge pumps
        self.start_of_hour()
        return self.sail()

    def stores(self) -> None:
        """R101-R102: the hour's food and fresh water (voyage.rules.stores)."""
        stores_phase(self)

    def calm(self) -> HourRow | None:
        """The hour of a ship whose start can do nothing but set her figures, with its start
        phases skipped, and in one step if nothing can happen in the rest of it either; None,
        with nothing changed or rolled, when her start needs its phases.

        The start of the hour does nothing to a rolled ship under way, not at her
        destination, with nothing wrong or in hand aboard (no leak, water, fire, listing,
        sinking, capsize, R36-R41, R50; no search, R74; no R83-R86 work, no pumps), not
        Overloaded (R41), making whole miles (R31) with no current in her hex (R64) and not
        adrift at her next hex's edge (R16), but roll for a straining engine (R14); an
        engine that breaks, the rest of it runs (R13, R50). Then, if every hex she enters
        this hour is open, calm water that is not her destination with fuel to spare after
        it (R16, R32, R33, R60), and, entering none, her own hex is calm (R32, R60), each
        phase would only move her on (R31) and burn her fuel hex by hex (R16): that is done
        here; else the hour sails on as every hour does (:meth:`sail`)."""
        start = self.calm_start()
        if start is None:
            return None
        s, ship = self.s, self.ship
        category, speed, fuel_use, cruising, powered, load = start
        # her start: only her figures, and a straining engine's roll (R14)
        self.moving = True
        self.speed, self.fuel_use, self.cruising = speed, fuel_use, cruising
        if s.pace == "strain" and speed > cruising and powered:
            self.strain_check(speed - cruising)
            if ship.engine_broken:
                self.make_way()
                self.hourly_capsize(category)
                return self.sail()
        # the rest of her hour
        burns = fuel_use if fuel_use and powered else 0
        entered = self.quiet_rest(speed, burns)
        if entered < 0:
            return self.sail()  # something may happen on the way
        if entered and burns:
            # R11: the fuel burnt weighed hlb for hlb (a rolled ship's: calm_start takes no
            # built boat): her Load now without reckoning every part of it again
            load -= entered * burns
            dw = self.e._dw[ship.name]
            category = self.e._categories.get((load, dw)) or self.e.category_of(load, dw)
        # her Load and category as the hour began less the fuel burnt (nothing else that
        # counts in them changed)
        return self.row(s.route[s.position], (load, category))

    def troubled(self) -> bool:
        """Trouble only the hour's own phases step: leaks or water aboard (R36, R37), a
        fire (R50), a listing, a capsizing or a sinking (R37, R40), a search (R74), work
        under way on her (R83-R86), a built boat (R81) or bilge pumps (R85)."""
        s, ship = self.s, self.ship
        return bool(
            s.leaks
            or s.new_leaks
            or s.fire
            or s.listing
            or s.capsized
            or s.searching
            or s.more
            or s.sinking_in is not None
            or s.swallow_in is not None
            or ship.water
            or ship.design is not None
            or ship.equipment.get("bilge_pumps")
        )

    def calm_start(self) -> tuple[str, Any, Any, Any, bool, Any] | None:
        """Her figures (:meth:`Engine.hour_figures`) when the start of her hour can do
        nothing but set them (see :meth:`calm`; a straining engine's roll aside), else
        None; nothing changed or rolled."""
        s, e = self.s, self.e
        if s.status != "under way" or self.troubled():
            return None
        if s.position >= len(s.route) - 1:
            return None
        found = e.hour_figures(s)
        speed = found[1]
        if found[0] == "overloaded" or type(speed) is not int or speed <= 0:
            return None
        if found[2] and found[4] and s.progress >= e._hex_miles:
            return None  # R16: she may be adrift at her next hex's edge
        if e.world.current_at(s.route[s.position]) is not None:
            return None  # R64
        return found

    def quiet_rest(self, speed: int, burns: Any, plan: list[Any] | None = None) -> int:
        """The rest of the hour at :attr:`clock` after a quiet start (:meth:`calm_start`) at
        ``speed``, burning ``burns`` a hex: if every hex she enters is open, calm water that
        is not her destination with fuel to spare after it (R16, R32, R33, R60), and,
        entering none, her own hex is calm (R32, R60), each phase would only move her on
        (R31) and burn her fuel hex by hex (R16): that is done here, and the hexes entered
        returned; else -1, with nothing changed. With ``plan`` (:meth:`stretch`) her coast
        rolls (R33) are not made but taken as clear water: the hour's clock, the minute of
        each and where she was as the hour began are added to it."""
        s, ship, e = self.s, self.ship, self.e
        world = e.world
        clock = self.clock
        route, position = s.route, s.position
        last = len(route) - 1
        hex_miles = e._hex_miles
        need = hex_miles - s.progress
        entered = 0
        left = ship.fuel
        inshore = s.inshore
        opened = e._open  # (Engine.open_water's answers, asked first: no call on a known hex)
        here = route[position]
        coasts: list[int] = _NO_COASTS  # the minute of each R33 roll (Engine.coast_ahead)
        while need <= speed:
            at = position + entered + 1
            if at >= last:
                return -1  # she arrives
            if burns:
                if left <= burns:
                    return -1  # R16: she runs dry
                left -= burns
            there = route[at]
            if world.sea_state(there, clock):
                return -1  # R32/R60: a storm Check on the way
            ok = opened.get(there)
            if not (e.open_water(there) if ok is None else ok) or (
                at < len(inshore) and inshore[at]
            ):
                # R33: the hex's coast roll, made now; a hazard, and the hour sails on
                # phase by phase with the rolls made (R34 runs her aground)
                if plan is None and e.coast_ahead(clock, len(coasts)).rolls[0].success:
                    return -1
                if coasts is _NO_COASTS:  # (made only for an hour that rolls: few do)
                    coasts = []
                coasts.append(min(MINUTES - 1, max(0, need * MINUTES // speed)))  # R31
            entered += 1
            need += hex_miles
            here = there
        if not entered and world.sea_state(here, clock):
            return -1  # R32/R60: an hour in a storm-tossed hex counts
        # nothing can happen: her hour, as the phases would sail it
        if coasts and plan is not None:
            plan.append((clock, coasts, self.where()))
        elif coasts:
            for event, minute in zip(e._ahead, coasts, strict=True):
                self.minute = minute
                self.log(event)  # R33: clear water
            e._ahead = []
        self.miles = speed
        self.entered = entered
        self.minute = MINUTES - 1
        if entered:
            if burns:
                if ship.design is None:  # a rolled ship's fuel (shipfig.spend, inline)
                    for _ in range(entered):
                        ship.fuel -= burns  # R16, hex by hex
                else:
                    for _ in range(entered):
                        shipfig.spend(ship, burns)  # R16, hex by hex
            s.position = position + entered
            ship.hex = here  # (the last hex entered)
            s.hours_in_hex = 0
        else:
            s.hours_in_hex += 1
        s.storm_hours = 0  # R60: a hex entered, or a calm hour, starts the count again
        s.progress += speed - entered * hex_miles  # R31: carried over
        return entered

    def quiet(self, limit: int) -> int:
        """Up to ``limit`` hours from :attr:`clock` in which nothing can happen to her
        (:meth:`calm`'s hour, each checked as it checks one, with no engine to strain),
        sailed one after another in one call; returns how many (0: the hour at
        :attr:`clock` needs the engine's own hour).

        Such a stretch, from where she is, differs from run to run of a forecast only by
        its coast rolls (R33): it is worked out once, as if every roll came up clear
        (:meth:`stretch`), kept by everything it reads, and then followed (:meth:`follow`):
        each roll made in its turn, the stretch ending at the hour of a hazard. A stretch
        holds at most :data:`STRETCH_ROLLS` hours with coast rolls (a hazard is likely
        long before): one followed to such an end goes on with the next, kept likewise."""
        s, ship, e = self.s, self.ship, self.e
        hours = 0
        start = self.calm_start()
        while start is not None:
            route, inshore = s.route, s.inshore
            key = (
                id(route),
                id(inshore),
                *self.where(),
                s.pace,
                s.strain,
                ship.name,
                ship.equipment.get("tow_counted"),
                limit - hours,
                start,
            )
            found = e._stretches.get(key)
            if found is None or found.route is not route or found.inshore is not inshore:
                if len(e._stretches) >= STRETCHES:
                    e._stretches.clear()
                found = e._stretches[key] = self.stretch(limit - hours, start)
            sailed, whole = self.follow(found)
            hours += sailed
            if not (whole and found.more) or hours >= limit:
                break
            start = self.calm_start()
        return hours

    def where(self) -> tuple[Any, ...]:
        """What a quiet hour changes, as it stands at :attr:`clock`."""
        s, ship = self.s, self.ship
        return (
            self.clock,
            s.position,
            s.progress,
            ship.hex,
            ship.fuel,
            s.hours_in_hex,
            s.storm_hours,
        )

    def put(self, where: tuple[Any, ...]) -> None:
        """Her quiet hours' state as :meth:`where` took it."""
        s, ship = self.s, self.ship
        (
            self.clock,
            s.position,
            s.progress,
            ship.hex,
            ship.fuel,
            s.hours_in_hex,
            s.storm_hours,
        ) = where

    def stretch(self, limit: int, start: tuple[Any, ...]) -> _Stretch:
        """Her quiet hours from :attr:`clock` (:meth:`quiet_hours`), up to ``limit``, from a
        quiet start with ``start``'s figures (:meth:`calm_start`), worked out as if every
        coast roll (R33) came up clear, with nothing rolled; she is left as she was."""
        was = self.where()
        rolls: list[Any] = []
        self.sail_quiet(limit, start, rolls)
        end = self.where()
        self.put(was)
        return _Stretch(self.s.route, self.s.inshore, rolls, end, len(rolls) >= STRETCH_ROLLS)

    def follow(self, stretch: _Stretch) -> tuple[int, bool]:
        """Sail her quiet ``stretch`` from :attr:`clock`, where it starts: each hour's
        coast rolls made in turn (R33: the roller's next dice, :meth:`Engine.coast_ahead`)
        and logged, clear water; at a hazard she is left as that hour began, the rolls made
        kept for it (:meth:`Engine.next_coast`). Returns the hours sailed, and whether she
        sailed it to its end."""
        e = self.e
        first = self.clock
        for clock, minutes, before in stretch.rolls:
            for i in range(len(minutes)):
                if e.coast_ahead(clock, i).rolls[0].success:
                    self.put(before)
                    return clock - first, False
            self.clock = clock
            for event, minute in zip(e._ahead, minutes, strict=True):
                self.minute = minute
                self.log(event)  # R33: clear water
            e._ahead = []
        self.put(stretch.end)
        return self.clock - first, True

    def sail_quiet(self, limit: int, start: tuple[Any, ...] | None, plan: list[Any] | None) -> int:
        """:meth:`quiet`'s hours one by one, the coast rolls made as they come, or with
        ``plan`` taken as clear and noted in it (:meth:`quiet_rest`); ``start``: her
        figures now (:meth:`calm_start`).
        An hour that enters no hex leaves her figures as they were, so they are worked out
        again only after a hex is entered."""
        s = self.s
        hex_miles = self.e._hex_miles
        sea_state = self.e.world.sea_state
        hours = 0
        speed = burns = 0
        while hours < limit:
            if start is None:
                start = self.calm_start()
                if start is None:
                    break
            speed, cruising, powered = start[1], start[3], start[4]
            if s.pace == "strain" and speed > cruising and powered:
                break  # R14: her engine rolls
            burns = start[2] if start[2] and powered else 0
            # the hours before her next hex, each quiet while her hex stays calm (R32,
            # R60): quiet_rest's hour without an entry, hour after hour
            need = hex_miles - s.progress
            if need > speed:
                here = s.route[s.position]
                clock = self.clock
                stop = clock + min((need - 1) // speed, limit - hours)
                while clock < stop and not sea_state(here, clock):
                    clock += 1
                if clock > self.clock:
                    n = clock - self.clock
                    s.hours_in_hex += n
                    s.storm_hours = 0
                    s.progress += n * speed  # R31: short of her next hex
                    hours += n
                    self.clock = clock
                    continue
            entered = self.quiet_rest(speed, burns, plan)
            if entered < 0:
                break
            if entered:
                start = None  # her fuel, Load and hex changed
            hours += 1
            self.clock += 1
            if plan is not None and len(plan) >= STRETCH_ROLLS:
                break  # (the stretch is long enough: quiet goes on with the next)
        return hours

    def stuck(self, limit: int) -> int:
        """Up to ``limit`` hours from :attr:`clock` in which she is stuck (R34) and her try
        to get off is all that can happen: a rolled ship with nothing wrong or in hand
        aboard (as :meth:`calm_start` asks), not Overloaded (R41), crewed (R70), in a calm
        hex (R32, R60; no drift for a stuck ship, R64). Each such hour she rolls to get off
        (:func:`~voyage.rules.aground.stuck_event`, the roller's next dice, logged at minute
        0) and, still stuck, counts an hour in her hex, as the hour's phases would; the
        hour she gets off is left to the engine's hour, with the roll made
        (:attr:`Engine._got_off`). Returns the hours she stayed stuck."""
        s, ship, e = self.s, self.ship, self.e
        if (
            e.world.stuck_escape != "roll"
            or ship.crew <= 0
            or self.troubled()
            or e.category(s) == "overloaded"
        ):
            return 0
        sea_state = e.world.sea_state
        mods = phases.escape_mods(self)  # R83 (none for a rolled ship)
        hours = 0
        while hours < limit and not sea_state(s.hex, self.clock):
            got_off = stuck_event(self.roller, self.book, mods)
            if got_off.rolls[0].success:
                e._got_off = (self.clock, got_off)
                break
            self.minute = 0
            self.log(got_off)
            s.hours_in_hex += 1
            s.storm_hours = 0  # R60: a calm hour starts the count again
            hours += 1
            self.clock += 1
        return hours

    def sail(self) -> HourRow:
        """The hour after its start (:meth:`calm` joins here after a broken engine)."""
        s = self.s
        if not self.moving:
            anchor_phase(self)  # R65: in storm-tossed seas the cable may part
            drift_phase(self)  # R64: what makes no way of its own drifts with the current
        entries = self.entry_minutes() if self.moving else []
        i = 0
        self.minute = 0
        count = len(entries)
        if count and not s.emergency:
            # the quiet hour: straight from one hex entry to the next
            while i < count and self.moving and not s.emergency:
                self.minute = entries[i]
                self.enter_hex()
                i += 1
            if s.emergency and s.active:
                self.minute += 1
        return self.finish(entries, i)

    def finish(self, entries: list[int], i: int) -> HourRow:
        """The hour from its ``i``-th hex entry on: minute by minute while an emergency runs
        (R52), then its end."""
        s = self.s
        if i < len(entries) or s.emergency:
            emergency_minutes(self, entries, i)  # R52: minute by minute while one runs
        self.minute = MINUTES - 1
        if self.moving:
            # R31: progress that did not reach the next hex carries over
            s.progress += self.speed - self.entered * self.e._hex_miles
            self.miles = self.speed
        if s.active:
            self.end_of_hour()
        if s.status == "arrived" and not s.emergency:
            s.progress = 0
        return self.row(s.hex)

    def row(self, here: str, loaded: tuple[Any, str] | None = None) -> HourRow:
        """The hour row at its end, in hex ``here`` (her hex now); :data:`UNKEPT` for an
        engine that keeps no rows (Engine.rows). ``loaded``: her Load (a tow counted, as
        :meth:`Engine.row_load` counts it) and its category now, when the caller knows
        them."""
        s, ship, e = self.s, self.ship, self.e
        if not e.rows:
            return UNKEPT
        if loaded is None:
            load = e.row_load(s)  # R92: a tow counted, as the category
            dw = e._dw[ship.name]
            category = e._categories.get((load, dw)) or e.category_of(load, dw)
        else:
            load, category = loaded
        # R16 hlbs of fuel, R82 power units of charge (shipfig.aboard, a rolled ship's inline)
        aboard = ship.fuel if ship.design is None else shipfig.aboard(ship)
        # field by field (every field of HourRow; tests/test_engine_rows.py checks them
        # all): a row every ship-hour, and calling the class costs more than its fields
        row = _new_row(HourRow)
        row.voyage_id = s.voyage_id
        row.ship = ship.name
        row.clock = self.clock
        row.hex = here
        row.miles = self.miles
        row.speed = self.speed
        row.pace = s.pace
        row.fuel = aboard if type(aboard) is int else plain(aboard)
        row.load = load if type(load) is int else plain(load)
        row.load_category = category
        row.water = ship.water
        row.leaks = sum(s.leaks) if s.leaks else 0
        row.status = s.condition
        return row

    def start_of_hour(self) -> None:
        s, ship = self.s, self.ship
        if s.new_leaks:
            s.new_leaks = []
        if s.status == "stuck" and self.e.world.stuck_escape == "roll" and ship.crew > 0:  # R70
            ahead = self.e._got_off
            if ahead is None:
                got_off = stuck_event(self.roller, self.book, phases.escape_mods(self))  # R34, R83
            elif ahead[0] != self.clock:
                raise RuntimeError(f"the try to get off of hour {ahead[0]} was never used")
            else:
                got_off, self.e._got_off = ahead[1], None  # (made by _ShipHour.stuck)
            self.log(got_off)
            if got_off.rolls[0].success:  # she is afloat again
                s.status = "under way"
        afloat = s.sinking_in is None and not s.capsized and not s.searching  # R74: she stays
        last = len(s.route) - 1
        if s.status == "under way" and afloat and s.position == last:
            # she reached the last hex in trouble (capsized, then saved): she is there now
            self.arrive(self.e.hex_info(s.hex))
        self.moving = s.status == "under way" and afloat and s.position < last
        if ship.water and not s.listing and s.sinking_in is None and s.status != "sunk":
            # R37: sailing or loaded with water over DW/4 or DW/2, she lists or sinks now
            self.flooding()
            self.moving = self.moving and s.sinking_in is None and not s.capsized
        if not self.moving:
            category = self.e.category(s)
            self.speed = 0
        else:
            category, self.speed, self.fuel_use, self.cruising, _, _ = self.e.hour_figures(s)
            if (
                self.fuel_use and s.progress >= self.e._hex_miles and fuel.runs_dry_at_edge(self)
            ):  # R16: adrift at her next hex's edge (R13)
                self.moving = False
                self.speed = 0
            extra = self.speed - self.cruising
            if s.pace == "strain" and extra > 0 and shipfig.under_power(ship):
                self.strain_check(extra)
            self.make_way()
        self.hourly_capsize(category)

    def make_way(self) -> None:
        """Under way at her speed this hour, the current helping or hindering (R64)."""
        if self.speed <= 0:
            self.moving = False
            self.speed = 0
        else:
            current_leg(self)  # R64: the current helps or hinders this leg

    def hourly_capsize(self, category: str) -> None:
        """R41 / R37: an Overloaded ship, or one with more than DW/10 water aboard (but not
        yet listing, which checks every 10 minutes), may capsize every hour."""
        s, ship = self.s, self.ship
        if s.capsized or s.sinking_in is not None or (category != "overloaded" and not ship.water):
            return  # (the common hour: nothing to check)
        water = r37_water(ship)  # R85: a built boat's water does not trigger R37
        if category == "overloaded" or water:
            hourly = [
                t.reason
                for t in capsize_triggers(category, water, self.e._dw[ship.name], self.book)
                if t.every_minutes == MINUTES
            ]
            if hourly:
                self.capsize(" and ".join(hourly))

    def strain_check(self, extra: int) -> None:
        """R14: an hour of straining: the engine may break, and then catch fire (R50)."""
        self.strained(strain_hour(extra, self.roller, self.book, speed=self.cruising))

    def strained(self, result: Any) -> None:
        """What an hour of straining did (R14, :func:`~voyage.rules.strain.strain_hour`: the
        event of an engine that holds, else the result of one that broke): logged; a broken
        engine (R13), a fire (R50)."""
        if type(result) is Event:
            self.log(result)  # the engine holds
        elif result.broke:
            self.ship.engine_broken = True
            self.log(result.event(), "engine broken")
            # R13: with the engine broken the ship makes no way under power this hour
            self.speed, self.fuel_use, self.cruising = self.e.figures(self.s)
            if result.fire:
                self.start_fire("the engine")
        else:
            self.log(result.event())

    def entry_minutes(self) -> list[int]:
        """The minute of this hour at which each next hex is entered (R31)."""
        s = self.s
        hex_miles = self.e._hex_miles
        out: list[int] = []
        need = hex_miles - s.progress
        left = len(s.route) - 1 - s.position
        while need <= self.speed and len(out) < left:
            out.append(min(MINUTES - 1, max(0, need * MINUTES // self.speed)))
            need += hex_miles
        return out

    def enter_hex(self) -> None:
        """R31: the ship enters the next hex of its route."""
        s, ship, e = self.s, self.ship, self.e
        at = s.position + 1
        there = s.route[at]
        burns = self.fuel_use if self.fuel_use and shipfig.under_power(ship) else 0
        if (
            ship.design is None  # a rolled ship: no charted depth decides (R83)
            and (not burns or ship.fuel > burns)  # R16: fuel to spare after this hex
            and at < len(s.route) - 1  # not her destination
            and e.open_water(there)  # R33: no narrow passage, no shallows
            and not (at < len(s.inshore) and s.inshore[at])  # R33: not an inshore leg
            and not e.world.sea_state(there, self.clock)  # R32/R60: calm seas
        ):
            # the common entry: nothing can roll, log or stop her here, she only moves on
            s.position = at
            self.entered += 1
            ship.hex = there
            s.hours_in_hex = 0
            if burns:
                shipfig.spend(ship, burns)  # R16
            s.storm_hours = 0  # R60: the same-hex clock starts again on entering a hex
            return
        if self.fuel_use and not fuel.may_enter(self):  # R16: short of its Fuel Use, adrift
            return  # at its edge
        s.position += 1
        self.entered += 1
        ship.hex = s.route[s.position]
        s.hours_in_hex = 0
        if self.fuel_use:
            fuel.burn(self)  # R16: fuel is spent as each hex is entered
        info = self.e.hex_info(ship.hex)
        s.storm_hours = 0  # R60: the same-hex clock starts again on entering a hex
        if level := int(self.e.world.sea_state(ship.hex, self.clock)):
            self.storm_check(level)  # R32/R60: every hex travelled in storm-tossed seas
        inshore = s.inshore[s.position] if s.position < len(s.inshore) else False
        # R33 (amended): inshore legs, narrow passages, and on any leg every hex drawn as
        # shallows (reef, shoal, wreck: procedures coast.shallow_terrains)
        shallow = info.terrain in self.e.shallows
        if (
            s.active
            and s.sinking_in is None
            and not phases.by_depth(self, info)
            and (inshore or info.narrow_passage or shallow)
        ):
            self.coast(info)  # R83: a charted depth decides a built boat's grounding instead
        if s.position == len(s.route) - 1 and s.status == "under way" and not s.capsized:
            self.arrive(info)

    def coast(self, info: Any) -> None:
        """R33: a hex travelled within a mile of a coastline; R34 aground; R35 ramming."""
        event = self.e.next_coast(self.clock)
        self.log(event)
        if event.rolls[0].success:  # a hazard lies in the way
            self.run_aground(info)

    def run_aground(self, info: Any) -> None:
        """R34 on the hazard R33 found."""
        s, ship = self.s, self.ship
        speed = self.speed
        result = aground(
            ship.tier, speed, info.seabed or "sandy", self.roller, self.book, ship.traits
        )
        if result.stuck:
            s.status = "stuck"
            self.stop_moving()
        self.log(result.event(), "aground" if result.stuck else SCRAPED_FREE)  # R34
        self.apply_damage(result.changes)
        bottom_damage(self, bool(result.ram and result.ram.damaged))  # R85: her propellers

    def apply_damage(self, changes: Mapping[str, Any]) -> None:
        """Leaks (R36) and a destroyed hull (R36: it begins sinking)."""
        s = self.s
        leak = int(changes.get("add_leak", 0) or 0)
        if leak:
            s.open_leak(leak)
            s.new_leaks.append((leak, self.minute))
        if changes.get("destroyed"):
            s.destroyed = True
            self.stop_moving()
            self.begin_sinking("the hull is destroyed (R36)", "destroyed")

    def arrive(self, info: Any) -> None:
        """The last hex of her route: in port, else anchored or adrift (R65, R64)."""
        arrive(self, info)

    def stop_moving(self) -> None:
        """The ship makes no more way this hour; the miles made so far are kept."""
        if not self.moving:
            return
        self.moving = False
        s, hex_miles = self.s, self.e._hex_miles
        if self.entered:
            self.miles = self.entered * hex_miles - self.progress_before
            s.progress = 0
        else:
            made = self.speed * self.minute // MINUTES
            self.miles = made
            s.progress = min(hex_miles - 1, self.progress_before + made)

    # -- capsizing, sinking, fire --------------------------------------------------------
    def storm_check(self, level: int) -> None:
        """R32/R60: a storm Check with the sea state's Disadvantages, the state in the log."""
        if phases.submerged(self.s):
            return  # R84: a submerged submersible dives under the storm
        self.capsize(*self.e._sea[min(level, 3)].terms(self.s.hex))

    def capsize(self, reason: str, banes: list[str] | None = None, context: str = "") -> None:
        """R41: the helmsman's DV 16 Check (``context`` opens its text); failed, she sinks."""
        s, ship = self.s, self.ship
        if s.capsized or s.sinking_in is not None:
            return
        figures = (ship.tier, self.e.category(s), self.roller, self.book, ship.traits)
        event = capsize_event(
            *figures, disadvantages=banes or (), reason=reason, manned=ship.crew > 0
        )
        self.capsize_logged(event, reason, context)

    def capsize_logged(self, event: Event, reason: str, context: str = "") -> None:
        """The capsize Check's ``event`` logged (R41; R85: a Weighted Keel rights her)."""
        s = self.s
        event.text = context + event.text
        if not event.rolls[0].success:  # she capsizes
            s.capsized = True
            if keel_rights(self, event):  # R85: a Weighted Keel rights her instead of R41
                return
            self.log(event, "capsized")
            self.stop_moving()
            self.begin_sinking(f"she capsized ({reason})", "capsized")
        else:
            self.log(event)

    def begin_sinking(self, cause: str, halt: str = "sinking") -> None:
        """R40: 3d6 + Tier minutes to submerge, doubled at Half load or less."""
        s, ship = self.s, self.ship
        if s.sinking_in is not None:
            return
        result = sinking_time(ship.tier, self.e.category(s), self.roller, self.book, ship)
        s.start_sinking(result.minutes, self.now, cause)
        event = result.event()
        event.text = f"{ship.name} is sinking: {cause}. {event.text}"
        self.log(event, "sinking")
        self.stop_moving()

    def start_fire(self, where: str) -> None:
        """R50: a fire of d4 severity (Fireproof -2) starts aboard."""
        s, ship = self.s, self.ship
        result = fire_start(ship.tier, ship.traits, self.roller, self.book)
        event = result.event()
        event.text = f"Fire in {where}! {event.text}"
        if result.severity == 0:
            self.log(event)
            return
        s.catch_fire(
            result.severity, self.now, result.swallowed_in if result.out_of_control else None
        )
        self.log(event, "fire")

    def tick(self) -> None:
        """One minute of an emergency (R52): fire (R50), listing (R37), sinking (R40)."""
        emergency_minute(self)

    def sunk(self) -> None:
        s, ship = self.s, self.ship
        s.sinking_in = None
        s.status = "sunk"
        s.fire = 0
        s.swallow_in = None
        s.listing = False
        ship.status = "sunk"
        self.stop_moving()
        self.note("sunk", f"{ship.name} goes under and is lost ({s.sinking_cause}).", "sunk")
        if self.e.water is not None:
            self.e.water.ship_lost(self)  # R71: who is still aboard rolls to escape

    # -- end of the hour -----------------------------------------------------------------
    def end_of_hour(self) -> None:
        s, ship = self.s, self.ship
        if s.leaks:  # R36/R37: each leak's hlbs, a new one's from its minute; parts kept
            leakwater.hour_in(s)
        if s.new_leaks:
            s.new_leaks = []
        if self.entered == 0 and s.status != "sunk":
            s.hours_in_hex += 1
            level = int(self.e.world.sea_state(s.hex, self.clock))
            s.storm_hours, due = storm_clock(s.storm_hours, level, self.e._sea)
            if due:
                self.storm_check(level)  # R32/R60: storm hours in the same hex
        if ship.water or s.listing:
            self.flooding()

    def flooding(self) -> None:
        """R37 and R12, or R85 for a built boat (voyage.rules.floodphase)."""
        flooding(self)


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def dumps(value: Any) -> str:
    """Stable compact JSON for the log (byte-identical replays, R5); one encoder for all."""
    return _ENCODER.encode(value)
