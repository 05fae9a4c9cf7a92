"""Route planning: the sensible ways from here to there, each forecast, side by side.

:func:`candidates` lists the routes a referee would weigh, numbered in a fixed order
(never by the objective), so ``voyage sail SHIP --plan N`` recomputes the same list from
the same campaign and sails number N; nothing about a plan is stored:

1. ``shortest``: the shortest sea route (keeping out of shallows where it can, R33);
2. ``offshore``: a route out of coastal waters, narrow passages and shallows (no R33
   hazard rolls), leaving the coast only as near the two ends as it must;
3. ``inshore``: the shortest route sailed within a mile of the coast (R33);
4. ``storms``: a route that keeps out of every storm cell blowing now or to come (R32);
5. ``currents``: on a map with currents, the route of fewest hours with them (R64);
6. ``fuel``: when the fuel aboard cannot reach (R16: fuel per hex entered), routes that
   stop at a port selling fuel (the map's ports and their stock, less what was bought),
   with the fuel to buy there; for a built boat (R82: power units a hex by her speed,
   fractions kept) routes that stop to recharge in a port (``recharge``);
7. ``stores``: when her food or fresh water will not last the shortest route's expected
   passage and a quarter more (R101, R104), routes that stop at a port to take them on
   (R103: the port's stock, unlimited unless the map writes one), with what to take on;
   a fuel stop (6.) takes on the stores she needs too.

Routes that come out the same as an earlier one are dropped. :func:`plan` forecasts each
(voyage.actions.forecast, the same seed for all, so they are compared on the same dice) and orders
them by the objective.
"""

from __future__ import annotations

import copy
import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from voyage.actions.depthroutes import shoal_warning
from voyage.actions.forecast import Leg, Setup, check_counts, default_seed, forecast, prepare
from voyage.actions.voyages import campaign_chart, check_pace, open_voyage, plan_route, shallows
from voyage.base.errors import VoyageError
from voyage.base.text import plural
from voyage.map import hexes as hexmap
from voyage.map.seamap import sea_hex
from voyage.rules.arrival import lying
from voyage.rules.drift import current_lookup, leg_speed, route_hours, side_of_step
from voyage.rules.shoals import draft_chart
from voyage.rules.storesplan import days_of, hourly_use
from voyage.store.mapstore import list_storms
from voyage.store.portfuel import left_after, sold_everywhere
from voyage.store.portstores import stores_left
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import full_charge
from voyage.vessels.stores import Stores, store_rules
from voyage.vessels.storesroom import room

OBJECTIVES = ("fastest", "safest", "fuel")
KINDS = {
    "shortest": "shortest sea route",
    "offshore": "offshore, out of coastal waters",
    "inshore": "inshore, along the coast",
    "storms": "keeping out of the storms",
    "currents": "fastest with the currents",
    "fuel": "through a fuel port",
    "recharge": "recharging in a port",  # R82: a built boat
    "stores": "through a port for stores",  # R103
}
#: Fuel bought at a stop: what the rest of the way needs, and this much again for bad luck.
FUEL_SPARE = 0.25
#: Fuel-stop routes offered (the shortest ones).
FUEL_ROUTES = 2


class PlanError(VoyageError):
    """No plan can be made as asked (the ship is at sea, no route, no such plan)."""


@dataclass
class Candidate:
    """One way to go: its first leg, and the legs after each fuel stop."""

    number: int
    kind: str
    route: list[str]
    inshore: bool = False
    legs: list[Leg] = field(default_factory=list)
    stops: list[dict[str, Any]] = field(default_factory=list)

    @property
    def hexes(self) -> int:
        """Hexes entered over the whole way."""
        return len(self.route) - 1 + sum(len(leg.route) - 1 for leg in self.legs)

    @property
    def label(self) -> str:
        if self.stops:
            where = ", ".join(f"{s['port']} ({s['hex']})" for s in self.stops)
            return f"{KINDS[self.kind]}: {where}"
        return KINDS[self.kind]


def fuel_per_hex(ship: Any, book: Any, pace: str, water_in_load: bool) -> Any:
    """R16: fuel burnt per hex entered at this pace and the load she has now (whole hlbs).
    A built boat: power units a hex at the speed ``pace`` gives her now (R82), exactly (a
    Fraction: 14.4 at 30 mph); 0 when she rows or has no plant."""
    if ship.design is not None:
        if not full_charge(ship, book):
            return 0
        probe = copy.copy(ship)
        probe.pace = pace  # her speed at the planned pace (R82), the ship itself untouched
        return shipfig.fuel_use(probe, book, pace, water_in_load)
    if not shipfig.has_engine(ship) or shipfig.rows(ship):
        return 0
    return int(shipfig.fuel_use(ship, book, pace, water_in_load))


def candidates(
    camp: Any, ship_name: str, to: str, pace: str | None = None, strain: int = 0
) -> list[Candidate]:
    """The numbered candidate routes for a ship in port (see the module docstring)."""

    ship = camp.get_ship(ship_name)
    current = open_voyage(camp, ship.name)
    # a ship lying anchored or adrift (as at the end of a voyage outside a port, R65) is
    # planned from where she lies: `voyage sail` ends that voyage and opens the one chosen
    if current is not None and not lying(current):
        raise PlanError(
            f"{ship.name} is at sea: plan a voyage from a port; to weigh a new course "
            f"use `voyage forecast {ship.name!r} --to HEX`"
        )
    if not ship.hex:
        raise PlanError(f"{ship.name} is nowhere on the map: place her in a port first")
    chart, _ = campaign_chart(camp)
    book = camp.rulebook
    start, goal = sea_hex(chart, ship.hex), sea_hex(chart, to)
    if start == goal:
        raise PlanError(f"{ship.name} is already at {goal}")
    if pace is None:
        pace, strain = ship.pace or "normal", ship.strain
    pace, strain = check_pace(ship, camp, pace, strain)
    avoid = shallows(book)
    chart = draft_chart(chart, ship, book)  # R83: round charted water too shallow for her
    shortest = plan_route(chart, start, goal, avoid=avoid)
    found: list[tuple[str, list[str], bool, list[Leg], list[dict[str, Any]]]] = [
        ("shortest", shortest, False, [], [])
    ]
    offshore = _offshore(chart, start, goal, avoid)
    if offshore:
        found.append(("offshore", offshore, False, [], []))
    if any(chart.is_coastal(h) for h in shortest[1:]):
        found.append(("inshore", shortest, True, [], []))
    stormy = {
        hexmap.canonical(h) for s in list_storms(camp) if s["status"] != "over" for h in s["hexes"]
    }
    if stormy & set(shortest):
        calm = chart.route(start, goal, avoid=[*avoid, *(stormy - {start, goal})]) or chart.route(
            start, goal, avoid=stormy - {start, goal}
        )
        if calm:
            found.append(("storms", calm, False, [], []))
    if getattr(chart, "currents", None):
        speed = shipfig.speed(ship, book, pace, strain, camp.water_in_load)
        fastest = _with_currents(chart, start, goal, speed, avoid)
        # offered only when it beats every way above it (hours, then hazard rolls): a route
        # as slow as the shortest, through a narrow passage it keeps out of, is no faster
        if fastest and all(
            route_cost(chart, fastest, speed, avoid) < route_cost(chart, other, speed, avoid)
            for _, other, _, _, _ in found
        ):
            found.append(("currents", fastest, False, [], []))
    use = fuel_per_hex(ship, book, pace, camp.water_in_load)
    speed = shipfig.speed(ship, book, pace, strain, camp.water_in_load)
    hours = _hours_of(camp, chart, speed)
    stores = _stores_short(camp, ship, hours(shortest))
    if use and shipfig.aboard(ship) <= use * (len(shortest) - 1):
        if ship.design is not None:  # R82: a built boat recharges in any port
            found.extend(_recharge_routes(chart, ship, book, start, goal, use, avoid))
        else:
            found.extend(_fuel_routes(camp, chart, ship, start, goal, use, avoid, stores, hours))
    elif stores:  # R103: a stop for stores alone, as for fuel (no fuel bought)
        found.extend(_fuel_routes(camp, chart, ship, start, goal, 0, avoid, stores, hours))
    out: list[Candidate] = []
    seen: set[tuple[Any, ...]] = set()
    for kind, route, inshore, legs, stops in found:
        key = (tuple(route), inshore, tuple(tuple(leg.route) for leg in legs))
        if key in seen:
            continue
        seen.add(key)
        out.append(Candidate(len(out) + 1, kind, route, inshore, legs, stops))
    return out


def _offshore(chart: Any, start: str, goal: str, avoid: list[str]) -> list[str] | None:
    """The shortest route out of coastal waters, narrow passages and shallows, except as
    near its two ends as it must be (a port is on the coast). The hexes kept out of are
    hex ids found in the map's byte arrays: a big sea's coast is thousands of hexes."""
    width = chart.width
    ends = (chart.hex_id(start), chart.hex_id(goal))
    inshore = [
        (min(hexmap.id_distance(i, end, width) for end in ends), i)
        for i in chart.inshore_ids(avoid)
    ]
    for reach in range(0, 4):
        keep_out = [i for near, i in inshore if near > reach]
        route = chart.route(start, goal, avoid=avoid, avoid_ids=keep_out)
        if route:
            return list(route)
    return None


def _with_currents(
    chart: Any, start: str, goal: str, speed: int, avoid: list[str]
) -> list[str] | None:
    """The route of fewest hours at ``speed`` knots with the currents (R64), then of fewest
    R33 hazard rolls (a narrow passage or shallows entered), then of fewest hexes, out of
    the ``avoid`` terrains where another way exists: :func:`fewest_hours` on each tier of
    terrain kept out, the strictest first."""

    current_at = current_lookup(chart)
    shoals = set(getattr(chart, "shoals", ()))  # R83: a built boat's (voyage.actions.depthroutes)
    tiers = [set(avoid) | shoals, shoals, set()] if shoals else [set(avoid), set()]
    for keep_out in tiers:

        def open_to(there: str, keep_out: set[str] = keep_out) -> bool:
            return chart.is_sea(there) and (
                there == goal or not (chart.terrain(there) in keep_out or there in keep_out)
            )

        route = fewest_hours(
            chart.neighbours,
            open_to,
            start,
            goal,
            speed,
            current_at,
            hazard=lambda there: _hazard(chart, there, avoid),
        )
        if route:
            return route
    return None


def _hazard(chart: Any, name: str, shallows_terrains: list[str]) -> bool:
    """Whether entering ``name`` on an offshore leg rolls R33: a narrow passage or shallows."""
    return bool(chart.terrain(name) in shallows_terrains or chart.hex(name).narrow_passage)


def route_cost(
    chart: Any, route: list[str], speed: int, avoid: list[str]
) -> tuple[float, int, int]:
    """(hours with the currents, R33 hazard rolls on an offshore leg, hexes) of a route:
    what :func:`_with_currents` minimises, in its order (no way on: infinite hours)."""
    hours = route_hours(route, speed, current_lookup(chart))
    hazards = sum(_hazard(chart, h, avoid) for h in route[1:])
    return (math.inf if hours is None else hours, hazards, len(route) - 1)


#: A state of :func:`fewest_hours`: at the start of an hour, (hex, the hex she is heading
#: for or "" when she has just come in and may choose, miles made toward it); or inside an
#: hour whose way is already fixed, (hex, "*", miles still to run this hour).
_State = tuple[str, str, Fraction]
#: (hours, hazard hexes, hexes): what :func:`fewest_hours` minimises, in that order.
_Cost = tuple[int, int, int]


def fewest_hours(
    neighbours: Any,
    open_to: Any,
    start: str,
    goal: str,
    speed: int | Fraction,
    current_at: Any,
    hex_miles: int = 12,
    hazard: Any = None,
) -> list[str] | None:
    """The route from ``start`` to ``goal`` that the engine sails in the fewest hours,
    then with the fewest hexes where ``hazard(hex)`` holds, then the fewest hexes.

    Hours are the engine's own reckoning (voyage.rules.drift.route_hours): each hour her
    speed is set by the current of the hex she starts it in and the side toward the next
    hex of her route, for the whole hour, however many hexes she crosses in it; the miles
    left over carry (R31, R64). A hex's current so carries on past its edge until the hour
    ends, which a cost of 12 miles a hex at that hex's current does not model. Dijkstra
    over (hours, hazards, hexes) on the states of :data:`_State`; None when no way makes
    headway."""

    speed = Fraction(speed)
    miles = Fraction(hex_miles)
    first: _State = (start, "", Fraction(0))
    best: dict[_State, _Cost] = {first: (0, 0, 0)}
    came: dict[_State | None, tuple[_State, str | None]] = {}
    heap: list[tuple[int, int, int, int, _State | None]] = [(0, 0, 0, 0, first)]
    count = 0
    best_goal: list[_Cost] = [(0, 0, 0)]

    def enter(cost: _Cost, there: str, hours: int = 0) -> _Cost:
        """The cost once ``there`` is entered, ``hours`` more begun."""
        risky = 1 if hazard is not None and hazard(there) else 0
        return (cost[0] + hours, cost[1] + risky, cost[2] + 1)

    def reach(cost: _Cost, state: _State | None, parent: _State, entered: str | None) -> None:
        nonlocal count
        if state is None:  # at the goal
            if None not in came or cost < best_goal[0]:
                best_goal[0] = cost
                came[None] = (parent, entered)
                count += 1
                heapq.heappush(heap, (*cost, count, None))
            return
        if cost < best.get(state, (cost[0] + 1, 0, 0)):
            best[state] = cost
            came[state] = (parent, entered)
            count += 1
            heapq.heappush(heap, (*cost, count, state))

    def arrive(cost: _Cost, parent: _State, there: str, left: Fraction) -> None:
        """She has entered ``there`` with ``left`` miles of this hour still to run."""
        if there == goal:
            reach(cost, None, parent, there)
        elif left >= miles:
            reach(cost, (there, "*", left), parent, there)
        else:
            reach(cost, (there, "", left), parent, there)

    while heap:
        *popped, _, state = heapq.heappop(heap)
        cost: _Cost = (popped[0], popped[1], popped[2])
        if state is None:
            path: list[str] = []
            node: _State | None = None
            while node != first:
                parent, entered = came[node]
                if entered is not None:
                    path.append(entered)
                node = parent
            return [start, *path[::-1]]
        if cost > best[state]:
            continue
        here, heading, made = state
        if heading == "*":  # inside an hour: on into any open neighbour
            for there in neighbours(here):
                if open_to(there):
                    arrive(enter(cost, there), state, there, made - miles)
            continue
        for there in [heading] if heading else neighbours(here):
            if not open_to(there):
                continue
            side = side_of_step(here, there)
            knots = leg_speed(speed, current_at(here), side if side is not None else 0)
            if knots <= 0:
                continue  # held still by the current: no way on this leg
            total = made + knots
            if total < miles:
                reach((cost[0] + 1, cost[1], cost[2]), (here, there, total), state, None)
            else:
                arrive(enter(cost, there, 1), state, there, total - miles)
    return None


def _hours_of(camp: Any, chart: Any, speed: int) -> Callable[[list[str]], int | None]:
    """The expected hours of a route at ``speed`` with the currents (as `sail` expects
    them, R13-R15, R64); None where she makes no way."""
    miles = int(camp.rulebook.procedures["hex_miles"])
    currents = current_lookup(chart)

    def hours(route: list[str]) -> int | None:
        return route_hours(route, speed, currents, miles) if speed > 0 else None

    return hours


def _stores_short(camp: Any, ship: Any, hours: int | None) -> dict[str, Any] | None:
    """R104: her stores and the people who use them, when her food or fresh water will not
    last ``hours`` and a quarter more (:data:`FUEL_SPARE`, the same margin as fuel); None
    when they will, or are not counted."""
    people = ship.crew + ship.passengers
    if ship.stores is None or people <= 0 or hours is None:
        return None
    need = Fraction(math.ceil(hours * (1 + FUEL_SPARE)), 24)
    days = days_of(ship.stores, people)
    if all(d is not None and d >= need for d in days.values()):
        return None
    return {
        "stores": ship.stores,
        "people": people,
        "rules": store_rules(camp.rulebook),
        "ship": ship,
    }


def _take_on(
    short: dict[str, Any], info: Any, camp: Any, first: int, then: int, fuel: int | None = None
) -> dict[str, Any] | None:
    """R103: person-days of each store to take on at the port ``info`` after ``first``
    hours at sea, to last the ``then`` hours still to sail and a quarter more, the port's
    stock and her room permitting (R100, R103: her Load there, with ``fuel`` hlbs aboard
    if a rolled ship buys fuel at the stop, and a built boat's spaces; fresh water first,
    R102: it is missed first). ``room`` in the answer: she has room for less than she needs
    (what she takes is all she can carry); ``*_total`` what she has then, in whole
    person-days, for `ship load`. None when she runs out before she gets there, or the port
    has none of what she needs."""
    stores, people, rules = short["stores"], short["people"], short["rules"]
    left_now = stores_left(camp, info)
    out: dict[str, Any] = {}
    left: dict[str, Fraction] = {}
    for key, half in (("food", stores.half_food), ("fresh_water", stores.half_water)):
        use = hourly_use(people, half, rules)
        left[key] = getattr(stores, key) - use * first
        if left[key] <= 0:
            return None  # she would go without before the stop
        take = max(0, math.ceil(use * math.ceil(then * (1 + FUEL_SPARE)) - left[key]))
        stock = left_now[key]
        if stock is not None:
            if take and stock <= 0:
                return None
            take = min(take, math.floor(stock))
        out[key] = take
    there = copy.copy(short["ship"])  # R103: her room at the stop, her stores as they are then
    there.stores = Stores(left["food"], left["fresh_water"])
    if fuel is not None and there.design is None:
        there.fuel = fuel
    r = room(there, camp.rulebook, camp.water_in_load)
    most = r.water_for(left["food"])
    water = min(out["fresh_water"], max(0, math.floor((most or 0) - left["fresh_water"])))
    most = r.food_for(left["fresh_water"] + water)
    food = min(out["food"], max(0, math.floor((most or 0) - left["food"])))
    if (food, water) != (out["food"], out["fresh_water"]):
        out.update(food=food, fresh_water=water, room=True)
    whole = math.floor if out.get("room") else math.ceil  # never more than she can carry
    for key in ("food", "fresh_water"):
        out[f"{key}_total"] = whole(left[key] + out[key])
    return out


def _fuel_routes(
    camp: Any,
    chart: Any,
    ship: Any,
    start: str,
    goal: str,
    use: int,
    avoid: list[str],
    stores: dict[str, Any] | None = None,
    hours: Callable[[list[str]], int | None] | None = None,
) -> list[tuple[str, list[str], bool, list[Leg], list[dict[str, Any]]]]:
    """One-stop routes through ports that sell fuel, shortest first (R16); with ``use`` 0,
    through any port, for ``stores`` alone. With ``stores`` (her food or fresh water will
    not last: :func:`_stores_short`) each stop takes on what the rest of the way needs
    (R103)."""

    sold = sold_everywhere(camp)
    options = []
    for port in chart.ports():
        if (use and port.fuel is None) or port.name in (start, goal):
            continue
        left = left_after(port, sold.get(port.name, 0)) if use else None
        if left is not None and left <= 0:
            continue
        try:
            first = plan_route(chart, start, port.name, avoid=avoid)
            then = plan_route(chart, port.name, goal, avoid=avoid)
        except VoyageError:
            continue
        aboard = ship.fuel - use * (len(first) - 1)
        if use and aboard <= 0:
            continue  # she cannot reach this port either
        need = use * (len(then) - 1)
        buy = max(0, math.ceil(need * (1 + FUEL_SPARE)) + 1 - aboard) if use else 0
        if left is not None:
            buy = min(buy, left)
        stop: dict[str, Any] = {"hex": port.name, "port": port.port, "buy": buy}
        if use:
            stop.update(price=port.fuel.price, cost=buy * port.fuel.price)
        leg = Leg(then, [False] * len(then), buy)
        if stores is not None and hours is not None:
            to_port, onward = hours(first), hours(then)
            take = None if to_port is None or onward is None else _take_on(
                stores, port, camp, to_port, onward, aboard + buy if use else None
            )  # fmt: skip
            if take is None and not use:
                continue
            if take and (take["food"] or take["fresh_water"]):
                stop.update(take)
                leg.food, leg.fresh_water = take["food"], take["fresh_water"]
            elif take and take.get("room") and not use:
                continue  # R103: no room there for any of what she needs
        options.append((len(first) + len(then), port.name, first, leg, stop))
    options.sort(key=lambda o: (o[0], hexmap.parse_hex(o[1])))
    best = options[:FUEL_ROUTES]
    kind = "fuel" if use else "stores"
    return [(kind, first, False, [leg], [stop]) for _, _, first, leg, stop in best]


def _recharge_routes(
    chart: Any, ship: Any, book: Any, start: str, goal: str, use: Any, avoid: list[str]
) -> list[tuple[str, list[str], bool, list[Leg], list[dict[str, Any]]]]:
    """R82: routes for a built boat that stop to recharge in ports (every port: 10 minutes
    and $50 for a full plant), fewest hexes first, then fewest stops. A leg is sailable when
    the charge she starts it with (aboard now, then a full plant) covers its hexes with some
    left (she enters a hex only with its cost aboard). Offered: the best way with as many
    stops as it takes (Dijkstra over the ports) and the best one-stop ways."""

    full = full_charge(ship, book)
    ports = {p.name: p for p in chart.ports() if p.name not in (start, goal)}
    legs_cache: dict[tuple[str, str], list[str] | None] = {}

    def leg(a: str, b: str) -> list[str] | None:
        if (a, b) not in legs_cache:
            try:
                legs_cache[a, b] = plan_route(chart, a, b, avoid=avoid)
            except VoyageError:
                legs_cache[a, b] = None
        return legs_cache[a, b]

    def reaches(charge: Any, route: list[str] | None) -> bool:
        return route is not None and charge - use * (len(route) - 1) > 0

    ways: list[list[str]] = []  # each: start, the ports, goal
    for name in ports:  # one stop
        if reaches(shipfig.aboard(ship), leg(start, name)) and reaches(full, leg(name, goal)):
            ways.append([start, name, goal])
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    came: dict[str, str] = {}
    heap: list[tuple[int, int, str]] = [(0, 0, start)]
    while heap:  # any number of stops
        hexes, stops, here = heapq.heappop(heap)
        if here == goal:
            path = [goal]
            while path[-1] != start:
                path.append(came[path[-1]])
            if len(path) > 3:
                ways.append(path[::-1])
            break
        if (hexes, stops) > best[here]:
            continue
        charge = shipfig.aboard(ship) if here == start else full
        for there in [*ports, goal]:
            if there == here or here == goal:
                continue
            route = leg(here, there)
            if not reaches(charge, route):
                continue
            assert route is not None
            cost = (hexes + len(route) - 1, stops + (there != goal))
            if cost < best.get(there, (cost[0] + 1, 0)):
                best[there], came[there] = cost, here
                heapq.heappush(heap, (*cost, there))
    power = book.boats["power"]
    found: list[tuple[Any, list[str], list[Leg], list[dict[str, Any]]]] = []
    for way in ways:
        routes = [leg(a, b) or [] for a, b in zip(way, way[1:], strict=False)]
        calls = [
            {
                "hex": name,
                "port": ports[name].port,
                "recharge": full,
                "buy": 0,
                "price": int(power["recharge_cost"]),
                "cost": int(power["recharge_cost"]),
                "minutes": int(power["recharge_minutes"]),
            }
            for name in way[1:-1]
        ]
        legs = [Leg(r, [False] * len(r), 0, recharge=full) for r in routes[1:]]
        hexes = sum(len(r) - 1 for r in routes)
        key = (hexes, len(calls), [hexmap.parse_hex(n) for n in way[1:-1]])
        found.append((key, routes[0], legs, calls))
    found.sort(key=lambda f: f[0])
    return [
        ("recharge", first, False, legs, calls) for _, first, legs, calls in found[:FUEL_ROUTES]
    ]


def setup_for(
    camp: Any, ship_name: str, cand: Candidate, pace: str | None = None, strain: int = 0
) -> Setup:
    """The forecast setup of one candidate."""
    setup = prepare(
        camp,
        ship_name,
        route=cand.route,
        inshore=cand.inshore,
        pace=pace,
        strain=strain,
        legs=cand.legs,
    )
    setup.label = cand.label
    return setup


def choose(found: list[Candidate], number: int) -> Candidate:
    """Candidate ``number`` (as `voyage plan` numbers them)."""
    for cand in found:
        if cand.number == number:
            return cand
    raise PlanError(
        f"there is no plan {number}: `voyage plan` offers 1 to {len(found)} for this voyage"
    )


def order(rows: list[dict[str, Any]], objective: str) -> list[dict[str, Any]]:
    """Rows ordered by the objective; ties by plan number. A route that seldom arrives
    is neither fast nor safe, so the chance of arriving comes first for each:
    fastest - then the expected arrival; safest - then the chance of loss, then of running
    aground; fuel - then the most fuel left."""
    if objective not in OBJECTIVES:
        raise PlanError(f"--objective must be one of {', '.join(OBJECTIVES)}")

    def never(value: float | None) -> float:
        return math.inf if value is None else value

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        if objective == "fastest":
            return (-row["arrives"], never(row["hours"]), row["plan"])
        if objective == "fuel":
            return (-row["arrives"], -row["fuel_left"], row["plan"])
        return (-row["arrives"], row["lost"], row["aground"], row["plan"])

    return sorted(rows, key=key)


def plan(
    camp: Any,
    ship_name: str,
    to: str,
    objective: str = "safest",
    runs: int = 2000,
    seed: int | None = None,
    workers: int | None = None,
    pace: str | None = None,
    strain: int = 0,
    progress: Callable[[int], None] | None = None,
    estimate: Callable[[float, int], None] | None = None,
) -> dict[str, Any]:
    """Every candidate forecast (the same seed for each), ordered by ``objective``.
    ``progress`` is told the runs of each chunk done, over all the routes; ``estimate`` is
    told once, when the first chunk is in, the seconds the whole plan should take at that
    pace and the runs it makes in all."""

    if objective not in OBJECTIVES:
        raise PlanError(f"--objective must be one of {', '.join(OBJECTIVES)}")
    check_counts(runs, workers)
    seed = default_seed(camp.seed, camp.clock) if seed is None else seed

    rows = []
    found = candidates(camp, ship_name, to, pace, strain)

    def whole_plan(seconds: float) -> None:  # the first route's pace, for every route
        if estimate is not None:
            estimate(seconds * len(found), runs * len(found))

    for cand in found:
        setup = setup_for(camp, ship_name, cand, pace, strain)
        data, _ = forecast(
            setup, runs, seed, workers, progress, whole_plan if cand is found[0] else None
        )
        c = data["chances"]
        arrival = data["arrival_hours"]
        rows.append(
            {
                "plan": cand.number,
                "kind": cand.kind,
                "label": cand.label,
                "hexes": cand.hexes,
                "route": setup.route,
                "inshore": cand.inshore,
                "stops": cand.stops,
                "arrives": c["arrives"]["chance"],
                "lost": c["lost"]["chance"],
                "aground": c["aground"]["chance"],
                "out_of_fuel": c["out_of_fuel"]["chance"],
                "out_of_stores": c["out_of_stores"]["chance"],  # R104
                "stores": data["stores"],
                "hours": None if arrival is None else arrival["mean"],
                "fuel_left": data["fuel_left"]["mean"],
                # R83: the route crosses water too shallow for a built boat's draft
                "depth_warning": shoal_warning(camp, None, setup.state.ship, setup.route),
            }
        )
    ship = camp.get_ship(ship_name)
    return {
        "ship": ship.name,
        "from": ship.hex,
        "to": hexmap.canonical(to),
        "objective": objective,
        "runs": runs,
        "seed": seed,
        "plans": order(rows, objective),
        "shortfall": shortfall(camp, ship, to, pace, rows),
        # R82: a built boat's fuel_left is her charge, in power units
        "fuel_unit": "power units" if ship.design is not None else "hlbs",
    }


def shortfall(
    camp: Any, ship: Any, to: str, pace: str | None, rows: list[dict[str, Any]]
) -> str | None:
    """Why no plan gets there, when none does because her fuel (R16) or a built boat's
    charge (R82) runs out on every way, stops included: how far a tankful or a full
    charge takes her, so the referee sees it is the map's gaps between ports, not bad luck.
    None when some plan arrives, or when the plans fail for another reason."""
    if not rows or any(r["arrives"] > 0 for r in rows):
        return None
    if not all(r["out_of_fuel"] >= 0.5 for r in rows):
        return None

    if pace is None:
        pace = ship.pace or "normal"
    pace, _ = check_pace(ship, camp, pace, ship.strain if pace == "strain" else 0)
    use = fuel_per_hex(ship, camp.rulebook, pace, camp.water_in_load)
    if not use:
        return None
    goal = hexmap.canonical(to)
    if ship.design is not None:  # R82: a built boat
        full = full_charge(ship, camp.rulebook)
        reach = int(full // use)  # she enters a hex only with its cost aboard
        least = fuel_per_hex(ship, camp.rulebook, "20mph", camp.water_in_load)
        slower = (
            f" (R82: {float(least):g} a hex at 20 mph or less: `voyage pace {ship.name!r} 20mph`)"
            if least < use
            else " (R82)"
        )
        return (
            f"No plan reaches {goal}: a full charge ({full} power units) takes {ship.name} "
            f"{reach} hexes at {float(use):g} units a hex{slower}, and no chain of ports on "
            "the way has legs that short."
        )
    reach = int(ship.fuel // use)
    return (
        f"No plan reaches {goal}: her {plural(ship.fuel, 'hlb')} of fuel "
        f"take {ship.name} {plural(reach, 'hex', 'hexes')} "
        f"at {plural(use, 'hlb')} a hex (R16), and no port within reach on the "
        f"way sells enough to go on: load more (`voyage ship load {ship.name!r} --fuel N`)."
    )
