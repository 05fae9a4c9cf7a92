"""Built boats as campaign ships (R80, R81): the Ship made from a design, and her figures.

A built boat is a :class:`~voyage.vessels.ships.Ship` of class ``built`` whose ``design`` holds the
spec (voyage.tables.boatdesigns). Her Tier is her body's (R81); crew and passengers start as the
design's;
``charge`` holds her power units exactly (R82: 200 full; ``fuel`` keeps the whole units).
Her present weight is the design's plus 150 lbs for each person beyond the design's and 10
lbs a hlb of cargo and water, and R82's speeds are recomputed from it. She sails like any
ship: the rules ask voyage.vessels.ships for her figures, which come from voyage.vessels.boatpower.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from voyage.base.errors import ShipError, VoyageRuleError
from voyage.base.text import load_said
from voyage.base.tiers import roman
from voyage.tables.boatdesigns import sheet, sheet_lines
from voyage.tables.rulebook import RuleBook
from voyage.vessels.stores import raft_stores_weight, stores_line, stores_weight
from voyage.vessels.subarmor import armor_text
from voyage.vessels.vessel import Ship, life_rafts

BUILT_CLASS = "built"


def refuse_built(ship: Ship, what: str) -> None:
    """A rolled-ship figure that has no meaning for a built boat (R82: no engine Tier to
    strain, no hlbs of fuel): one clear line rather than wrong play."""
    if ship.design is not None:
        raise VoyageRuleError(f"{ship.name} is a built boat: {what}")


def make_built_ship(name: str, spec: dict[str, Any], book: RuleBook) -> Ship:
    """A new built boat in port, with her design's crew and a full charge (R80-R82)."""
    s = sheet(spec, book.boats)  # refuses a design over its limits before anything is made
    full = book.boats["power"]["units"] if spec.get("plant") else 0
    return Ship(
        name=name,
        ship_class=BUILT_CLASS,
        tier=s["tier"],
        engine_tier=None,
        equipment={"anchors": 1},  # the seed: "Anchors are standard equipment on all boats"
        crew=spec.get("crew", 0),
        passengers=spec.get("passengers", 0),
        fuel=full,
        design=spec,
        charge=str(full) if spec.get("plant") else None,
    )


def built_deadweight(ship: Ship, book: RuleBook) -> Fraction:
    """R81: (maximum load - body weight) / 10 hlbs."""
    body = book.boats["bodies"][(ship.design or {})["body"]]
    return Fraction(body["max_load"] - body["weight"], 10)


def built_load(
    ship: Ship, book: RuleBook, water_in_load: bool = True, stores: bool = True
) -> Fraction:
    """R81: (present weight - body weight) / 10 hlbs, water included (R11); ``stores``
    False leaves her food and fresh water out (R100: the engine adds them as they are used)."""
    body = book.boats["bodies"][(ship.design or {})["body"]]
    return (present_weight(ship, book, water_in_load, stores) - body["weight"]) / 10


def present_weight(
    ship: Ship, book: RuleBook, water_in_load: bool = True, stores: bool = True
) -> Fraction:
    """R81/R82: the design's weight with the people, cargo, water and stores aboard now (lbs;
    ``stores`` False: without her food and fresh water and her rafts' emergency stores)."""
    spec = ship.design or {}
    base = design_weight(spec, book.boats)
    extra_people = ship.crew + ship.passengers - spec.get("crew", 0) - spec.get("passengers", 0)
    hlbs = ship.cargo + (ship.water if water_in_load else 0)
    carried = (
        0
        if ship.stores is None or not stores
        else 10 * stores_weight(ship.stores, book)
        + 10 * raft_stores_weight(ship.stores, life_rafts(ship), book)
    )  # R100: 2 and 8 lbs, the rafts' emergency stores too
    return base + book.boats["person_weight"] * extra_people + 10 * hlbs + carried


_WEIGHTS: dict[tuple[str, int], tuple[dict[str, Any], Fraction]] = {}


def design_weight(spec: dict[str, Any], table: dict[str, Any]) -> Fraction:
    """R80: the design's weight (its sheet's total), remembered: the engine asks every
    hour, and a sheet is slow to draw up."""
    key = (json.dumps(spec, sort_keys=True), id(table))
    found = _WEIGHTS.get(key)
    if found is None or found[0] is not table:
        if len(_WEIGHTS) > 256:
            _WEIGHTS.clear()
        found = _WEIGHTS[key] = (table, Fraction(str(sheet(spec, table, check=False)["weight"])))
    return found[1]


def check_built_load(ship: Ship, book: RuleBook, water_in_load: bool = True) -> None:
    """`ship load` on a built boat: her weight may not pass her body's maximum load (R80),
    nor her charge a full plant's power units (R82)."""
    spec = ship.design or {}
    body = book.boats["bodies"][spec["body"]]
    weight = present_weight(ship, book, water_in_load)
    if weight > body["max_load"]:
        raise ShipError(
            f"{ship.name} would weigh {as_figure(weight)} lbs, "
            f"{as_figure(weight - body['max_load'])} lbs "
            f"over her {body['name']}'s maximum load of {body['max_load']} lbs (R80); carry less"
        )
    full = book.boats["power"]["units"] if spec.get("plant") else 0
    if ship.fuel > full:
        raise ShipError(
            f"{ship.name}'s charge is 0 to {full} power units (R82; --fuel on a built boat), "
            f"not {ship.fuel}"
        )


def boat_card(fig: dict[str, Any]) -> list[str]:
    """`ship show` for a built boat: her design sheet, then R81's figures and what is aboard."""
    s = fig["built"]
    lines = sheet_lines(s, fig["name"])
    lines += [
        f"  Now: {s['present_weight']:,} lbs; Accel. {s['acceleration']}, Top Speed "
        f"{s['top_speed']} mph; pace {fig['pace_mph']}, making {fig['speed']} mph, "
        f"{fig['fuel_use']} power units a hex (R82)",
        f"  Tier {roman(fig['tier'])}; Deadweight {fig['deadweight']} hlbs; "
        f"Load {load_said(fig['load'])} "
        f"hlbs ({fig['load_category'].capitalize()}); sinks above {fig['sinking_load']}",
        f"  Aboard: crew {fig['crew']}, passengers {fig['passengers']}, cargo {fig['cargo']}, "
        f"charge {fig['fuel']}/{fig['full_charge']} power units, water in her hull {fig['water']}, "
        f"anchors {fig['anchors']}"
        # R70, R71: her bought Life Rafts are rafts, four seats each
        + (f", life rafts {fig['life_rafts']}" if fig.get("life_rafts") else "")
        + (f", life jackets {fig['life_jackets']}" if fig.get("life_jackets") else ""),
        f"  Status: {fig['status']}{' at ' + fig['hex'] if fig.get('hex') else ''}"
        + (f", {s['depth_ft']} ft down (R84)" if s.get("depth_ft") else ""),
    ]
    lines += stores_line(fig)  # R100-R102
    lines += [f"  {fig['pumps']}"] if fig.get("pumps") else []  # R85
    if "armor_now" in fig:  # R84: where the referee tracks armour (track_armor)
        built = {loc: p for loc, p in s["armor"].items() if p > 0}
        lines.append(f"  Armor now (tracked; now/as built): {armor_text(built, fig['armor_now'])}")
    return lines


def as_figure(x: Fraction | int | float) -> int | float:
    """A figure as the card and the JSON show it: whole, or rounded to two places."""
    x = Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    return int(x) if x.denominator == 1 else round(float(x), 2)
