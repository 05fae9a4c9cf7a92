"""Referee actions of R83 and R84: diving, surfacing, and a port's salvage crew.

``voyage act SHIP dive DEPTH`` / ``surface`` (R84) set a submersible's depth (her
equipment's ``depth_ft``); she cannot dive below the charted seabed of her hex, nor, where
the map charts none, below an anchor's 150 ft in a port, coastal or shallow hex (R65). Diving past
her rated depth she rolls on the Depth Damage Table at once ("on first passing it"), as the
engine rolls it (:func:`first_passing`). ``voyage
act SHIP salvage`` (R83) calls a salvage crew from a port in or next to her hex to get a
stuck boat off: 1 hour, $1,000 per 5,000 lbs of her weight (rounded up), never where ships
are fighting. Each is one undoable action (voyage.actions.referee).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.actions.voyages import world_for
from voyage.base.errors import VoyageRuleError
from voyage.engine.clock import Engine, _ShipHour
from voyage.map import hexes as hexmap
from voyage.rules.depth import help_cost, uncharted_bottom
from voyage.store.fightrows import fighters_of, open_fights
from voyage.store.mapstore import campaign_chart
from voyage.store.peoplerows import floaters, roster, save_floaters
from voyage.vessels import ships as shipfig
from voyage.vessels.boatpower import draft_ft
from voyage.vessels.boatships import present_weight
from voyage.vessels.submersible import ROLLED_AT, depth_now, depth_roll, sub_spec
from voyage.world.waterphase import WaterPhase


def depth_action(
    camp: Any, ship: Any, s: Any, what: str, amount: int | None, chart: Any
) -> tuple[str, dict[str, Any], list[Any]]:
    """``dive``, ``surface`` or ``salvage`` for voyage ``s``: (log text, changes, the
    engine's events that follow it: the Depth Damage roll on first passing her rating and
    what it did, voyage.engine.clock.LoggedEvent)."""
    if chart is None:
        chart, _ = campaign_chart(camp)
    if what == "salvage":
        return (*_salvage(camp, ship, s, chart), [])

    spec = sub_spec(ship)
    if spec is None:
        raise VoyageRuleError(
            f"{ship.name} is not a submersible: only a boat built with --submersible "
            f"--dive-depth FEET dives (R84)"
        )
    if what == "surface":
        if not depth_now(ship):
            raise VoyageRuleError(f"{ship.name} is on the surface already")
        ship.equipment.pop("depth_ft", None)
        s.more.pop("passed", None)
        return (
            f"{ship.name} surfaces at {s.hex}: her top speed is 3/4 on the surface, and "
            "the sea state touches her again (R84).",
            {"depth": 0},
            [],
        )
    return _dive(camp, ship, s, amount, spec, chart)


def _dive(
    camp: Any, ship: Any, s: Any, amount: int | None, spec: dict[str, Any], chart: Any
) -> tuple[str, dict[str, Any], list[Any]]:

    if amount is None or amount < 1:
        raise VoyageRuleError("say how deep she dives, in feet: dive 200 (or `surface`)")
    if s.status in ("stuck", "sunk", "abandoned") or s.capsized or s.sinking_in is not None:
        raise VoyageRuleError(f"{ship.name} is {s.condition}: she cannot dive (R84)")
    info = chart.hex(s.hex)
    draws = draft_ft(ship, camp.rulebook) or 0
    if info.depth is not None and amount + draws > info.depth:
        most = max(0, int(info.depth) - draws)
        raise VoyageRuleError(
            f"{ship.name} cannot dive below the charted seabed: {s.hex} is {info.depth:g} ft "
            f"deep and she draws {draws} ft, so {most} ft at most (R84)"
        )

    shallow = uncharted_bottom(info, camp.rulebook)
    if shallow and amount + draws > shallow:
        most = max(0, shallow - draws)
        raise VoyageRuleError(
            f"{ship.name} cannot dive below {most} ft at {s.hex}: the map charts no "
            f"depth there, and an uncharted port, coastal or shallow hex has its bottom "
            f"within an anchor's {shallow} ft (R65, R84; she draws {draws} ft); chart "
            "its depth (`depths:` in the map) to dive deeper"
        )
    rated = int(spec["dive_depth"])
    passing = amount > rated and (depth_now(ship) <= rated or not s.more.get("passed"))
    ship.equipment["depth_ft"] = amount
    text = f"{ship.name} dives to {amount} ft at {s.hex}"
    if passing:
        text += (
            f", {amount - rated} ft below her rated {rated} ft: she rolls on the Depth "
            "Damage Table now, on passing it, and every hour she stays there (R84)."
        )
    elif amount > rated:
        text += (
            f", {amount - rated} ft below her rated {rated} ft: she rolls on the Depth "
            "Damage Table every hour she stays there (R84)."
        )
    else:
        s.more.pop("passed", None)
        text += f" (rated {rated} ft): under the storms, at full speed (R84)."
    text += _bottom_ahead(camp, s, chart, amount + draws)
    after = first_passing(camp, s, spec, amount, chart) if passing else []
    return text, {"depth": amount}, after


def bottom_on_course(camp: Any, ship: Any, s: Any, chart: Any) -> str:
    """A submerged sub's new course (`voyage act SHIP course`): where her route meets the
    bottom at her depth (:func:`_bottom_ahead`); '' on the surface or for any other ship."""

    down = depth_now(ship) if ship.design is not None else 0
    if not down:
        return ""
    return _bottom_ahead(camp, s, chart, down + (draft_ft(ship, camp.rulebook) or 0))


def _bottom_ahead(camp: Any, s: Any, chart: Any, keel: int) -> str:
    """R83, R84 with R65: the first hex of her route ahead whose bottom (charted, or an
    uncharted port, coastal or shallow hex's 150 ft) is above her keel at this depth: she
    meets it there unless she comes up first. '' when there is none."""

    for name in s.route[s.position + 1 :]:
        info = chart.hex(name)
        bottom = info.depth if info.depth is not None else uncharted_bottom(info, camp.rulebook)
        if bottom and keel > bottom:
            how = (
                f"charted {bottom:g} ft"
                if info.depth is not None
                else f"uncharted water within an anchor's {bottom} ft (R65)"
            )
            return (
                f" Her route enters {name}, {how}, above her keel at {keel} ft: she will "
                "meet the bottom there unless she comes up first (R83)."
            )
    return ""


def first_passing(camp: Any, s: Any, spec: dict[str, Any], depth: int, chart: Any) -> list[Any]:
    """R84: the Depth Damage roll "on first passing" her rating, made when she dives past
    it, at the campaign clock (minute 0): the engine's own roll and its effects
    (voyage.vessels.submersible.depth_roll on a ship-hour of the engine), so a leak opens as
    in an advance and an implosion sinks her as the engine sinks a ship (R71: who is aboard
    rolls to escape, rafts are launched, and the people in the water are kept). The
    events, for the action to log after the dive."""

    world = world_for(camp, chart)
    engine = Engine(world, [s], camp.roller)
    people = roster(camp)
    if world.chart is not None:
        engine.water = WaterPhase(engine, floaters(camp), people, camp.settings)
    out: list[Any] = []
    h = _ShipHour(engine, s, camp.clock, out)
    depth_roll(h, spec, depth, first=True)
    s.more[ROLLED_AT] = camp.clock  # R84: the hour beginning now makes no second roll
    if engine.water is not None and s.status == "sunk":
        save_floaters(camp, engine.water.floaters, people)  # R71: who got out
    return out


def _salvage(camp: Any, ship: Any, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:

    if s.status != "stuck":
        raise VoyageRuleError(
            f"{ship.name} is not aground: a salvage crew gets a stuck ship off (R83)"
        )
    if s.more.get("salvage_at") is not None:
        raise VoyageRuleError(f"a salvage crew is already at work on {ship.name}")
    near = [s.hex, *chart.neighbours(s.hex)]
    ports = [chart.hex(h) for h in near if chart.is_sea(h) and chart.hex(h).port]
    if not ports:
        raise VoyageRuleError(
            f"no port in or next to {s.hex}: a salvage crew comes only from "
            "a port in or next to her hex (R83)"
        )

    for fight in open_fights(camp):
        if any(f["name"].lower() == ship.name.lower() for f in fighters_of(camp, fight["id"])):
            raise VoyageRuleError(
                f"{ship.name} is in a fight: no salvage crew comes near a "
                "battle, whatever the price (R83)"
            )
    weight = _weight_lbs(camp, ship)
    cost = help_cost(weight, camp.rulebook)
    hours = int(camp.rulebook.boats["grounding"]["help_hours"])
    s.more["salvage_at"] = camp.clock + hours
    port = sorted(ports, key=lambda p: hexmap.parse_hex(p.name))[0]
    text = (
        f"A salvage crew from {port.port} ({port.name}) sets to work on {ship.name}: "
        f"afloat in {hours} hour{'s' if hours != 1 else ''}, for ${cost:,} (R83: $1,000 "
        f"per 5,000 lbs of her {weight:,} lbs)."
    )
    return text, {"salvage_cost": cost, "salvage_port": port.name}


def _weight_lbs(camp: Any, ship: Any) -> int:
    """Her weight in lbs: a built boat's present weight; a rolled ship's Deadweight and
    Load at 10 lbs a hlb (our reading, R81's scale)."""

    if ship.design is not None:
        return int(Fraction(present_weight(ship, camp.rulebook, camp.water_in_load)).__ceil__())

    book = camp.rulebook
    return 10 * (shipfig.deadweight(ship, book) + shipfig.load(ship, book, camp.water_in_load))
