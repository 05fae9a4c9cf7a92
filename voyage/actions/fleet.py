"""The campaign's ships in harbour-master's terms: rolling new ships (R18-R21), adding one
as stated, building a boat (R80), setting what a ship carries and removing one; each is
one undoable action (``voyage ship roll|add|build|load|remove``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from voyage.actions.crewless import heave_to
from voyage.actions.people import check_counts, set_stores
from voyage.actions.voyages import save_state
from voyage.base.errors import ShipError
from voyage.base.text import plural
from voyage.base.tiers import roman
from voyage.dice.roller import Roll
from voyage.rules.shiptables import roll_ship
from voyage.store.campaigndb import Campaign
from voyage.store.mapstore import campaign_chart
from voyage.store.portfuel import load_fuel, record_sale
from voyage.store.portstores import record_taken, stores_left
from voyage.vessels.boatpower import set_charge
from voyage.vessels.boatships import check_built_load
from voyage.vessels.fittings import (
    anchors_aboard,
    harpoon_cannon,
    harpoons_aboard,
    set_anchors,
    set_harpoons,
    set_pumps,
)
from voyage.vessels.ships import Ship, generate_name, load, sinking_load
from voyage.vessels.stores import Stores, store_rules
from voyage.vessels.storesroom import at_most, over_room
from voyage.vessels.vessel import life_rafts


def roll_ships(
    camp: Campaign, count: int, ship_class: str | None, name: str | None
) -> list[tuple[Ship, list[Roll]]]:
    """Roll ``count`` new ships of ``ship_class`` (any class where None; R18-R21), named
    ``name`` (numbered I, II, ... for more than one) or by the name tables, and keep them:
    each ship with the rolls that made her."""
    book = camp.rulebook
    if ship_class:
        book.ship_class(ship_class)  # unknown class: fail before anything is written
    made: list[tuple[Ship, list[Roll]]] = []
    with camp.action("ship roll", f"roll {plural(count, 'ship')}") as act:
        roller = camp.roller
        taken = camp.ship_names()
        for i in range(count):
            records = []
            if name:
                ship_name = name if count == 1 else f"{name} {roman(i + 1)}"
            else:
                ship_name, record = generate_name(book, roller, taken)
                records.append(record)
            new_ship, ship_rolls = roll_ship(book, roller, ship_name, ship_class)
            records.extend(ship_rolls)
            camp.add_ship(new_ship)
            taken.add(ship_name.lower())
            camp.record_rolls(records, ship_name)
            made.append((new_ship, records))
        # `voyage history` and `voyage undo` name what was rolled
        rolled = ", ".join(f"{s.name} ({book.ship_class(s.ship_class)['name']})" for s, _ in made)
        summary = f"roll {plural(count, 'ship')}: {rolled}"
        camp.set_summary(act, summary if len(summary) <= 200 else summary[:197] + "...")
    return made


def add_ship(camp: Campaign, ship: Ship) -> None:
    """Keep a ship made as the referee stated her (no rolls), with what `ship load` asks of
    her too: explosive harpoons only with a harpoon cannon (R87, R21), and no Load over
    twice her Deadweight (R12)."""
    if harpoons_aboard(ship) and not harpoon_cannon(ship):
        raise ShipError(
            f"{ship.name} has no harpoon cannon (R21: a Whaler's standard equipment): "
            "explosive harpoons are for a ship that carries one; leave out --harpoons"
        )
    total = load(ship, camp.rulebook, camp.water_in_load)
    limit = sinking_load(ship, camp.rulebook)
    if total > limit:
        raise ShipError(
            f"{ship.name} would sink: a load of {total} hlbs is {total - limit} hlbs over twice "
            f"its Deadweight ({limit} hlbs, R12); carry less"
        )
    with camp.action("ship add", f"add {ship.name}"):
        camp.add_ship(ship)


def build_boat(camp: Campaign, boat: Ship) -> None:
    """Keep a boat built from the boat tables (R80)."""
    with camp.action("ship build", f"build {boat.name}"):
        camp.add_ship(boat)


@dataclass(frozen=True)
class Loading:
    """What a ship is to carry (totals, not additions); None leaves it as it is."""

    crew: int | None = None
    passengers: int | None = None
    cargo: int | None = None
    fuel: int | None = None
    water: int | None = None
    anchors: int | None = None
    jackets: int | None = None
    rafts: int | None = None
    pumps: int | None = None
    harpoons: int | None = None
    food: int | None = None  #: R100: person-days of food
    fresh_water: int | None = None  #: R100: person-days of fresh water
    raft_stores: int | None = None  #: R100: person-days of each per life raft, 0-4

    @property
    def empty(self) -> bool:
        return all(
            v is None
            for v in (
                self.food,
                self.fresh_water,
                self.raft_stores,
                self.crew,
                self.passengers,
                self.cargo,
                self.fuel,
                self.water,
                self.anchors,
                self.jackets,
                self.rafts,
                self.pumps,
                self.harpoons,
            )
        )


def ship_to_load(camp: Campaign, name: str) -> Ship:
    """The ship ``name`` as `ship load` finds her: a sunk one is refused (as `ship place`
    and `sail` refuse her)."""
    s = camp.get_ship(name)
    if s.status == "sunk":
        raise ShipError(
            f"{s.name} is sunk: she lies on the bottom at {s.hex}, with nothing to load"
        )
    return s


def load_ship(camp: Campaign, s: Ship, loading: Loading) -> list[str]:
    """Set what ship ``s`` carries (one action): never over twice her Deadweight (R12), a
    built boat within her body's maximum load (R80), her charge in power units (R82); in a
    port the fuel she takes on comes out of the port's stock and fuel put ashore goes back;
    with no crew left under way she lies adrift (R70). The notes to show (the port's fuel,
    the crew's absence)."""
    fuel_before = s.fuel
    if loading.pumps is not None:
        set_pumps(s, loading.pumps, camp.rulebook)  # R85
    if loading.harpoons is not None:
        set_harpoons(s, loading.harpoons)  # R87
    if loading.jackets is not None or loading.rafts is not None:
        set_stores(camp, s, loading.jackets, loading.rafts)
    if loading.anchors is not None:
        if loading.anchors > anchors_aboard(s) and s.status != "in port":
            raise ShipError(
                f"{s.name} is {s.status}: anchors are bought in port (R65); "
                f"bring her into a port first"
            )
        set_anchors(s, loading.anchors)
    for field, value in (
        ("crew", loading.crew),
        ("passengers", loading.passengers),
        ("cargo", loading.cargo),
        ("fuel", loading.fuel),
        ("water", loading.water),
    ):
        if value is not None:
            setattr(s, field, value)
    stores_draw = load_stores(camp, s, loading)  # R100, R103
    check_counts(camp, s)  # R70: never fewer than the named people aboard
    if loading.food is not None or loading.fresh_water is not None:  # R100, R103: her room
        refused = over_room(s, camp.rulebook, camp.water_in_load, loading.food, loading.fresh_water)
        if refused:
            raise ShipError(refused)
    if s.design is not None:  # R80: a built boat's weight against her body's maximum load
        check_built_load(s, camp.rulebook, camp.water_in_load)
        if loading.fuel is not None:  # R82: --fuel on a built boat is her charge in power units
            set_charge(s, loading.fuel)
    total = 0 if s.design is not None else load(s, camp.rulebook, camp.water_in_load)
    limit = 0 if s.design is not None else sinking_load(s, camp.rulebook)
    if total > limit:
        raise ShipError(
            f"{s.name} would sink: a load of {total} hlbs is {total - limit} hlbs over twice "
            f"its Deadweight ({limit} hlbs, R12); carry less"
        )
    # a port's fuel stock gives what she takes on there, and takes back what she puts ashore
    draw = load_fuel(camp, s, fuel_before, s.fuel) if loading.fuel is not None else None
    # R70: nobody sails her
    adrift, crew_note = heave_to(camp, s) if loading.crew == 0 else (None, "")
    with camp.action("ship load", f"load {s.name}"):
        if adrift is not None:
            save_state(camp, adrift, camp.clock)
        camp.save_ship(s)
        if draw is not None and draw.hex is not None:
            record_sale(camp, draw.hex, draw.hlbs)
        if stores_draw is not None:  # R103: what she took from the port's stock
            record_taken(camp, *stores_draw)
    return [n for n in (draw.text if draw is not None else "", crew_note) if n]


def load_stores(camp: Campaign, s: Ship, loading: Loading) -> tuple[str, Fraction, Fraction] | None:
    """R100/R103: food and fresh water set in person-days, taken on in port only (at sea
    see `act found` and `act transfer`) and up to the port's stock (the map's ``stores``,
    unlimited unless written); her first load starts counting them (an untracked ship has
    none). Stores taken on reset the count of days without them (R102). What she takes
    from (or puts back into) the port's stock: (hex, food, fresh water), or None."""
    if loading.food is None and loading.fresh_water is None and loading.raft_stores is None:
        return None
    if s.status != "in port":
        raise ShipError(
            f"{s.name} is {s.status}: food and fresh water are taken on in port (R103); "
            f"bring her into a port first (at sea: `voyage act {s.name!r} found` or "
            "`transfer`)"
        )
    most = store_rules(camp.rulebook).raft_max
    if loading.raft_stores is not None and not 0 <= loading.raft_stores <= most:
        raise ShipError(
            f"a life raft holds 0 to {most} person-days of each (R100), not {loading.raft_stores}"
        )
    if loading.raft_stores and life_rafts(s) < 1:
        raise ShipError(
            f"{s.name} carries no life rafts to hold emergency stores (R70, R100): "
            f"load rafts first (`voyage ship load {s.name!r} --rafts N`)"
        )
    untracked = s.stores is None and loading.food is None and loading.fresh_water is None
    if loading.raft_stores is not None and untracked:
        raise ShipError(
            f"{s.name}'s food and fresh water are not counted: load them with her "
            f"rafts' stores (`--food N --fresh-water N --raft-stores {loading.raft_stores}`)"
            " so that they are counted from then on (R100)"
        )
    stores = s.stores if s.stores is not None else Stores()
    draw = _port_draw(camp, s, stores, loading)
    if loading.food is not None:
        if loading.food > stores.food:
            stores.dry_food = Fraction(0)  # R102: taken on again
        stores.food = Fraction(loading.food)
    if loading.fresh_water is not None:
        if loading.fresh_water > stores.fresh_water:
            stores.dry_water = Fraction(0)  # R102
        stores.fresh_water = Fraction(loading.fresh_water)
    if loading.raft_stores is not None:
        stores.raft = loading.raft_stores
    s.stores = stores
    return draw


def _port_draw(
    camp: Campaign, s: Ship, stores: Stores, loading: Loading
) -> tuple[str, Fraction, Fraction] | None:
    """R103: what loading takes from the port's stock where she lies; more than it has left
    is refused in one line naming what is left."""
    if (loading.food is None and loading.fresh_water is None) or not s.hex:
        return None
    info = campaign_chart(camp)[0].hex(s.hex)
    if not info.port:
        return None
    left = stores_left(camp, info)
    change = {
        "food": Fraction(0) if loading.food is None else loading.food - stores.food,
        "fresh_water": (
            Fraction(0) if loading.fresh_water is None else loading.fresh_water - stores.fresh_water
        ),
    }
    for store, more in change.items():
        have = left[store]
        if have is not None and more > have:
            word, flag = store.replace("_", " "), "--" + store.replace("_", "-")
            most = math.floor(getattr(stores, store) + have)
            raise ShipError(
                f"{info.port} has only {float(have):g} person-days of {word} left (R103), not "
                f"the {float(more):g} more {s.name} would take on; "
                + at_most(f"voyage ship load {s.name!r}", flag, most)
            )
    return s.hex, change["food"], change["fresh_water"]


def remove_ship(camp: Campaign, name: str, force: bool) -> tuple[Ship, int, bool]:
    """Remove a ship (one action; voyage.store.campaigndb.Campaign.remove_ship): the ship,
    her voyages in the log, and whether she is archived rather than gone."""
    with camp.action("ship remove", f"remove {name}"):
        gone, sailed = camp.remove_ship(name, force=force)
    return gone, sailed, camp.is_archived(gone.name)
