"""The referee's actions for a ship between advances (``voyage act SHIP ...``, ``voyage
pace``): a registry of small handlers, each one undoable action, each logged as an event.

A handler is a function registered by name with :func:`handler`; it takes the ship as the
action finds her (:class:`Aboard`: the campaign, the action, the ship and her open voyage)
and its own keyword options, and returns what happened (:class:`Done`). What every action
shares lives in :func:`referee_action`: one transaction, the refusals for a ship that is
lost (sunk or abandoned) or has nobody aboard to do the work (R70), saving her and logging
the event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from voyage.actions.abandonship import abandon_voyage
from voyage.actions.boatactions import recharge as recharge_boat
from voyage.actions.boatactions import repair_armor, repair_propellers
from voyage.actions.crewless import refuse_crewless
from voyage.actions.depthacts import bottom_on_course, depth_action
from voyage.actions.passage import anchor_or_weigh
from voyage.actions.people import rescue, start_search
from voyage.actions.provisions import found, rations, transfer
from voyage.actions.towing import tow_action
from voyage.actions.voyages import check_pace, plan_route, shallows
from voyage.base.errors import VoyageRuleError
from voyage.base.text import plural
from voyage.dice.events import Event
from voyage.engine.clock import ShipState
from voyage.rules.crewless import adrift_now
from voyage.rules.flooding import flooding_state
from voyage.rules.fuel import no_way
from voyage.rules.leakwater import pumped_dry
from voyage.rules.pumps import switch_pumps
from voyage.rules.repair import repair_leak
from voyage.rules.shoals import draft_chart
from voyage.store.campaigndb import Action, Campaign
from voyage.store.logrows import log_event
from voyage.store.mapstore import campaign_chart
from voyage.store.portfuel import record_sale, stock_left
from voyage.store.voyagerows import open_voyage, save_state
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import pace_line
from voyage.vessels.ships import Ship

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap


@dataclass
class Aboard:
    """The ship an action is for, as the action finds her: ``s`` is her open voyage (None in
    port), and ``ship`` is the voyage's own Ship when there is one, so what the action
    changes is what is saved."""

    camp: Campaign
    act: Action
    ship: Ship
    s: ShipState | None
    #: The sea map once a handler has read it (:meth:`sea_map`); passed on as read.
    chart: SeaMap | None = None

    def voyage(self, doing: str) -> ShipState:
        """Her open voyage, or the refusal: ``doing`` is for a ship on a voyage."""
        if self.s is None:
            raise VoyageRuleError(
                f"{self.ship.name} is not at sea: {doing} is for a ship on a voyage"
            )
        return self.s

    def sea_map(self) -> SeaMap:
        """The campaign's sea map, read once."""
        if self.chart is None:
            self.chart, _ = campaign_chart(self.camp)
        return self.chart


@dataclass
class Done:
    """What an action did: the log line, the changes (the event's), and the engine's events
    that follow it at once (R84's dive past her rated depth), logged after it."""

    text: str
    changes: dict[str, Any]
    after: list[Any] = field(default_factory=list)


def lost_words(ship: Ship, what: str) -> str:
    """The refusal for a sunk or abandoned ship."""
    if ship.status == "sunk":
        return f"{ship.name} is sunk: nothing more can be done for her"
    where = f" at {ship.hex}" if ship.hex else ""
    return (
        f"{ship.name} was abandoned{where}: nobody is aboard her to {what} "
        "(her people are listed by `voyage survivors`)"
    )


@dataclass(frozen=True)
class ActionHandler:
    """One referee's action: its name (``voyage act SHIP NAME``), the function doing it (an
    :class:`Aboard` and its own keyword options), and its refusal for a lost ship."""

    name: str
    run: Callable[..., Done]
    lost: Callable[[Ship, str], str] = lost_words


#: Every referee's action by name, in the order the refusal for an unknown one lists them.
REGISTRY: dict[str, ActionHandler] = {}

H = TypeVar("H", bound=Callable[..., Done])


def handler(name: str, lost: Callable[[Ship, str], str] = lost_words) -> Callable[[H], H]:
    """Register the decorated function as the referee's action ``name``."""

    def register(run: H) -> H:
        REGISTRY[name] = ActionHandler(name, run, lost)
        return run

    return register


def referee_action(camp: Campaign, ship_name: str, what: str, **options: Any) -> Event:
    """The referee's action ``what`` for a ship, with its own ``options`` (one undoable
    action), logged as an event; the event is returned, with the engine's events that
    followed it (their dice too) in its text."""
    found = REGISTRY.get(what)
    if found is None:
        raise VoyageRuleError(f"unknown action {what!r}: use one of {', '.join(REGISTRY)}")
    with camp.action(f"act {what}", f"{what} {ship_name}") as act:
        event = _run(camp, act, ship_name, found, options)
        camp.set_summary(act, event.text.split("\n", 1)[0])  # its own line (R84: not its dice)
    return event


def _run(
    camp: Campaign, act: Action, ship_name: str, found: ActionHandler, options: dict[str, Any]
) -> Event:
    what = found.name
    ship = camp.get_ship(ship_name)
    if ship.status in ("sunk", "abandoned"):
        raise VoyageRuleError(found.lost(ship, what))
    s = open_voyage(camp, ship.name)
    at = Aboard(camp, act, s.ship if s is not None else ship, s)
    # R70: nobody aboard to work her
    refuse_crewless(camp, at.ship, s, what, options.get("target"), at.chart)
    done = found.run(at, **options)
    ship, s = at.ship, at.s
    if s is not None:
        save_state(camp, s, camp.clock)
    else:
        camp.save_ship(ship)
    event = Event(what, done.text, [], 0, done.changes)
    log_event(camp, act, ship.name, s.voyage_id if s else None, event)
    if not done.after:
        return event
    # what the referee is shown: the action, then what followed it with its dice
    lines = [done.text]
    for later in done.after:
        log_event(camp, act, later.ship, later.voyage_id, later.event)
        lines += [later.event.text, *(f"  {r.line()}" for r in later.event.rolls)]
    return Event(what, "\n".join(lines), [], 0, done.changes)


# -- cargo, fuel, power -----------------------------------------------------------------------


@handler("jettison")
def jettison(at: Aboard, amount: int | None = None) -> Done:
    """Throw ``amount`` hlbs of cargo overboard (R11, R12)."""
    ship = at.ship
    if not amount or amount < 1:
        raise VoyageRuleError("say how many hlbs of cargo to throw over, e.g. jettison 100")
    if amount > ship.cargo:
        raise VoyageRuleError(f"{ship.name} carries only {ship.cargo} hlbs of cargo")
    ship.cargo -= amount
    text = f"{ship.name} throws {amount} hlbs of cargo overboard ({ship.cargo} left)."
    return Done(text, {"cargo": ship.cargo})


@handler("refuel")
def refuel(at: Aboard, amount: int | None = None) -> Done:
    """Buy ``amount`` hlbs of fuel in a port that sells it, within her Load (R12) and the
    port's stock left (voyage.store.portfuel)."""
    camp, ship, s = at.camp, at.ship, at.s
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
    chart = at.sea_map()
    if not ship.hex:
        raise VoyageRuleError(f"{ship.name} is nowhere on the map")
    info = chart.hex(ship.hex)
    if not info.port:
        raise VoyageRuleError(f"{ship.hex} is not a port: fuel is sold only in ports")
    if info.fuel is None:
        raise VoyageRuleError(f"{info.port} ({ship.hex}) sells no fuel")
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
    record_sale(camp, ship.hex, amount)
    text = (
        f"{ship.name} buys {amount} hlbs of fuel at {info.port} for {cost:g} "
        f"({info.fuel.price:g} a hlb); {ship.fuel} hlbs aboard."
    )
    return Done(text, {"fuel": ship.fuel, "bought": amount, "port": ship.hex, "cost": cost})


@handler("recharge")
def recharge(at: Aboard) -> Done:
    """A built boat's full charge in a port (R82)."""
    return Done(*recharge_boat(at.camp, at.ship, at.s, at.chart))


# -- food and fresh water (R101, R103) -------------------------------------------------------


@handler("rations")
def set_rations(
    at: Aboard, target: str | None = None, food: bool = False, water: bool = False
) -> Done:
    """Half or full rations of food, fresh water or both (R101)."""
    return Done(*rations(at.ship, target, food, water))


@handler("found")
def stores_found(at: Aboard, food: int | None = None, fresh_water: int | None = None) -> Done:
    """Food and fresh water the referee declares found (wreckage, R93; R103)."""
    return Done(*found(at.camp, at.ship, food, fresh_water))


@handler("transfer")
def transfer_stores(
    at: Aboard,
    target: str | None = None,
    food: int | None = None,
    fresh_water: int | None = None,
) -> Done:
    """Hand food and fresh water over to ``target`` in the same hex (R103)."""
    where = at.s.hex if at.s is not None else at.ship.hex
    return Done(*transfer(at.camp, at.act, at.ship, where, target, food, fresh_water))


# -- repairs, water, fire ---------------------------------------------------------------------


@handler("repair")
def repair(
    at: Aboard, target: str | None = None, amount: int | None = None, now: bool = False
) -> Done:
    """Repair the engine, a leak (R86: at sea the crew set to work, 2d6 every 10 minutes;
    ``now``: patched at once), a built boat's propellers (R85) or her worn armour (R84)."""
    camp, ship = at.camp, at.ship
    s = at.voyage("repairing a leak") if target == "leak" else at.s
    if target == "engine":
        if not ship.engine_broken:
            raise VoyageRuleError(f"{ship.name}'s engine is not broken")
        ship.engine_broken = False
        return Done(f"The engine of {ship.name} is repaired.", {"engine_broken": False})
    if target == "leak":
        return Done(*repair_leak(s, ship, amount, None if now else camp.clock * 60))
    if target == "propellers":
        return Done(*repair_propellers(camp, ship, s, at.chart))
    if target == "armor":
        return Done(*repair_armor(camp, ship, s, at.chart))
    raise VoyageRuleError(
        "repair what? `repair engine`, `repair leak N`, `repair propellers` or `repair armor`"
    )


@handler("pump")
def pump(at: Aboard, amount: int | None = None) -> Done:
    """Pump and bail ``amount`` hlbs of water out (R37): a listing ship pumped below a
    quarter of her Deadweight lists no more."""
    ship, s, book = at.ship, at.s, at.camp.rulebook
    if not amount or amount < 1:
        raise VoyageRuleError("say how many hlbs of water to pump out, e.g. pump 20")
    if ship.water <= 0:
        raise VoyageRuleError(f"{ship.name} has no water aboard to pump out")
    out = min(amount, ship.water)
    ship.water -= out
    if s is not None:
        pumped_dry(s)  # R36: bailed dry, the part of an hlb goes too
    text = f"The crew of {ship.name} pump and bail out {out} hlbs of water ({ship.water} left)."
    if s is not None and s.listing:
        dw = shipfig.deadweight(ship, book)
        if not flooding_state(ship.water, dw, book).listing and s.sinking_in is None:
            s.listing, s.listing_since = False, None
            text += " She no longer lists (R37)."
    return Done(text, {"water": ship.water})


@handler("pumps")
def pumps(at: Aboard, target: str | None = None) -> Done:
    """The bilge pumps' switch: on, off, or the crew's (R85)."""
    return Done(*switch_pumps(at.ship, target or "", at.camp.rulebook))


@handler("fight-fire")
def fight_fire(at: Aboard, crew: int | None = None) -> Done:
    """Set how many aboard fight her fire (R50)."""
    ship = at.ship
    s = at.voyage("fighting a fire")
    if not s.fire and s.swallow_in is None:
        raise VoyageRuleError(f"{ship.name} is not on fire")
    if crew is None or crew < 0:
        raise VoyageRuleError("say how many crew fight the fire: fight-fire --crew N")
    aboard = ship.crew + ship.passengers
    if crew > aboard:
        raise VoyageRuleError(f"only {aboard} people are aboard {ship.name}")
    s.fire_crew = crew
    text = f"{crew} aboard {ship.name} fight the fire (severity {s.fire}; R50)."
    return Done(text, {"fire_crew": crew})


@handler("saved")
def saved(at: Aboard) -> Done:
    """The referee declares a sinking ship saved (R40)."""
    ship = at.ship
    s = at.voyage("saving a ship")
    if s.sinking_in is None:
        raise VoyageRuleError(f"{ship.name} is not sinking")
    s.sinking_in = s.sinking_since = None
    s.capsized = False
    text = f"The referee declares {ship.name} saved: she stays afloat (R40)."
    return Done(text, {"sinking": False})


@handler("abandon")
def abandon(at: Aboard) -> Done:
    """Abandon ship (R71: rafts, jackets, the water; R40, R50: a sinking ship's clock runs
    on)."""
    s = at.voyage("abandoning ship")
    return Done(*abandon_voyage(at.camp, at.ship, s, at.sea_map()))


# -- people in the water ----------------------------------------------------------------------


@handler("search")
def search(at: Aboard) -> Done:
    """Stop and search her hex each hour (R74); a ship lying in it puts out to search."""
    text, at.s = start_search(at.camp, at.ship, at.s)
    return Done(text, {"searching": True})


def _rescue_lost(ship: Ship, what: str) -> str:
    return f"{ship.name} is {ship.status}: she can take nobody aboard"


@handler("rescue", lost=_rescue_lost)
def rescue_people(at: Aboard, names: Sequence[str] = (), everyone: bool = False) -> Done:
    """Take people in her hex aboard, by the referee's ruling (R74)."""
    event = rescue(at.camp, at.act, at.ship, list(names), everyone)
    return Done(event.text, event.changes)


# -- lying, anchoring, towing -----------------------------------------------------------------


@handler("refloat")
def refloat(at: Aboard) -> Done:
    """A stuck ship got off the bottom (R34, the referee's call)."""
    ship = at.ship
    s = at.voyage("refloating")
    if s.status != "stuck":
        raise VoyageRuleError(f"{ship.name} is not stuck")
    s.status = "under way"
    text = f"{ship.name} is got off the bottom: afloat again (R34, the referee's call)."
    changes: dict[str, Any] = {"stuck": False}
    adrift = adrift_now(s)  # R70: with no crew aboard nobody sails her (R64)
    if adrift:
        text, changes["status"] = f"{text} {adrift}", s.status
    return Done(text, changes)


@handler("anchor")
def anchor(at: Aboard) -> Done:
    """Drop anchor, or moor in a port (R65)."""
    s = at.voyage("anchoring")
    return Done(*anchor_or_weigh(at.camp, at.ship, s, "anchor", at.chart))


@handler("weigh")
def weigh(at: Aboard) -> Done:
    """Weigh anchor and get under way (R65)."""
    s = at.voyage("anchoring")
    return Done(*anchor_or_weigh(at.camp, at.ship, s, "weigh", at.chart))


@handler("tow")
def tow(at: Aboard, target: str | None = None) -> Done:
    """Take the ship ``target`` in tow (R92)."""
    return Done(*tow_action(at.camp, at.act, at.voyage("towing"), "tow", target))


@handler("cast-off")
def cast_off(at: Aboard) -> Done:
    """Cast off the ship in tow (R92)."""
    return Done(*tow_action(at.camp, at.act, at.voyage("towing"), "cast-off", None))


# -- under the sea (R83, R84) -----------------------------------------------------------------


@handler("dive")
def dive(at: Aboard, amount: int | None = None) -> Done:
    """Take a submersible down to ``amount`` feet (R84)."""
    return Done(*depth_action(at.camp, at.ship, at.voyage("dive"), "dive", amount, at.chart))


@handler("surface")
def surface(at: Aboard) -> Done:
    """Surface a submersible (R84)."""
    s = at.voyage("surface")
    return Done(*depth_action(at.camp, at.ship, s, "surface", None, at.chart))


@handler("salvage")
def salvage(at: Aboard) -> Done:
    """A salvage crew from a port gets a stuck ship off (R83)."""
    s = at.voyage("salvage")
    return Done(*depth_action(at.camp, at.ship, s, "salvage", None, at.chart))


# -- course and pace --------------------------------------------------------------------------


@handler("course")
def course(
    at: Aboard,
    to: str | None = None,
    via: Sequence[str] = (),
    route: Sequence[str] | None = None,
) -> Done:
    """A new route from the hex she is in: to ``to`` (by ``via``) or along ``route``,
    round her shoals (R83); a voyage sailed inshore goes on inshore (R33); a search ends
    (R74)."""
    camp, ship = at.camp, at.ship
    s = at.voyage("changing course")
    # adrift, a new course gets her under way if she can make way; else what she needs
    why = no_way(ship, camp.rulebook, s.pace, camp.water_in_load) if s.status == "adrift" else ""
    if why:
        raise VoyageRuleError(f"{ship.name} is adrift: {why}")
    chart = at.sea_map()
    hexes = plan_route(
        draft_chart(chart, ship, camp.rulebook),
        s.hex,
        to,
        via,
        route,
        shallows(camp.rulebook),
        who=ship.name,
    )
    flags = [False] + [bool(f) for f in _inshore_flags(chart, hexes[1:], s)]
    if s.route[s.position + 1 : s.position + 2] != hexes[1:2]:
        s.progress = 0  # a new heading: the miles toward the old next hex are lost
    s.route = [*s.route[: s.position], *hexes]
    s.inshore = [*s.inshore[: s.position], *flags]
    was = s.status
    if s.status in ("arrived", "adrift"):
        s.status = "under way"
    s.searching = False  # R74: a new course ends a search
    # a voyage sailed inshore goes on inshore (R33): said, as `course` has no --inshore
    close = ", inshore as she sailed" if any(flags) else ""
    text = (
        f"{ship.name} changes course at {hexes[0]} for {hexes[-1]} "
        f"({plural(len(hexes) - 1, 'hex', 'hexes')}{close})."
    )
    if was == "adrift":
        text += " She gets under way."
    elif was == "anchored":
        text += f" She lies at anchor until `voyage act {ship.name!r} weigh`."
    text += bottom_on_course(camp, ship, s, chart)  # R84: a sub deep on her new course
    changes: dict[str, Any] = {"route": hexes}
    if s.status != was:
        changes["status"] = s.status
    return Done(text, changes)


def _inshore_flags(chart: Any, hexes: Iterable[str], s: ShipState) -> list[bool]:
    """Keep sailing inshore on a new course if the voyage was sailed inshore."""
    was_inshore = any(s.inshore)
    return [was_inshore and bool(chart.hex(h).coastal) for h in hexes]


@handler("pace")
def pace(at: Aboard, pace: str | None = None, strain: int = 0) -> Done:
    """Her pace: slow (R15), normal, or straining over her Speed (R14); a built boat's
    speed in mph and what a hex costs (R82)."""
    camp, ship, s = at.camp, at.ship, at.s
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
    if ship.design is not None:
        text = pace_line(ship, camp.rulebook, camp.water_in_load)
    return Done(text, {"pace": new_pace, "strain": new_strain})
