"""Built boats as campaign ships (R80, R81): the Ship made from a design, and her figures.

A built boat is a :class:`~voyage.ships.Ship` of class ``built`` whose ``design`` holds the
spec (voyage.boats). Her Tier is her body's (R81); crew and passengers start as the design's;
``fuel`` counts her charge in power units (R82: 200 full). Her present weight is the design's
plus 150 lbs for each person beyond the design's and 10 lbs a hlb of cargo and water, and
R82's speeds are recomputed from it. Sailing her is for a later version (issue 11.3).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .boats import sheet, sheet_lines
from .ships import Ship, aboard_figures, load_category_for
from .tables import RuleBook
from .tiers import roman

BUILT_CLASS = "built"


def refuse_built(ship: Ship, what: str = "sail") -> None:
    """Built boats are built, listed and shown in this version; the voyage rules for them
    (issue 11.3-11.6) come later: one clear line rather than wrong play."""
    if ship.design is not None:
        from .errors import VoyageRuleError

        tail = {
            "sail": "built boats sail in a later version",
            "roll": "rolls for built boats come in a later version "
                    "(give the figures as options instead)",
        }[what]
        raise VoyageRuleError(f"{ship.name} is a built boat: {tail}")


def make_built_ship(name: str, spec: dict[str, Any], book: RuleBook) -> Ship:
    """A new built boat in port, with her design's crew and a full charge (R80-R82)."""
    s = sheet(spec, book.boats)  # refuses a design over its limits before anything is made
    return Ship(
        name=name,
        ship_class=BUILT_CLASS,
        tier=s["tier"],
        engine_tier=None,
        equipment={"anchors": 1},  # the seed: "Anchors are standard equipment on all boats"
        crew=spec.get("crew", 0),
        passengers=spec.get("passengers", 0),
        fuel=book.boats["power"]["units"] if spec.get("plant") else 0,
        design=spec,
    )


def present_weight(ship: Ship, book: RuleBook, water_in_load: bool = True) -> Fraction:
    """R81/R82: the design's weight with the people, cargo and water aboard now (lbs)."""
    spec = ship.design or {}
    base = Fraction(str(sheet(spec, book.boats, check=False)["weight"]))
    extra_people = ship.crew + ship.passengers - spec.get("crew", 0) - spec.get("passengers", 0)
    hlbs = ship.cargo + (ship.water if water_in_load else 0)
    return base + book.boats["person_weight"] * extra_people + 10 * hlbs


def check_built_load(ship: Ship, book: RuleBook, water_in_load: bool = True) -> None:
    """`ship load` on a built boat: her weight may not pass her body's maximum load (R80),
    nor her charge a full plant's power units (R82)."""
    from .errors import ShipError

    spec = ship.design or {}
    body = book.boats["bodies"][spec["body"]]
    weight = present_weight(ship, book, water_in_load)
    if weight > body["max_load"]:
        raise ShipError(
            f"{ship.name} would weigh {_n(weight)} lbs, {_n(weight - body['max_load'])} lbs "
            f"over her {body['name']}'s maximum load of {body['max_load']} lbs (R80); carry less"
        )
    full = book.boats["power"]["units"] if spec.get("plant") else 0
    if ship.fuel > full:
        raise ShipError(
            f"{ship.name}'s charge is 0 to {full} power units (R82; --fuel on a built boat), "
            f"not {ship.fuel}"
        )


def built_figures(ship: Ship, book: RuleBook, water_in_load: bool = True) -> dict[str, Any]:
    """Every figure of a built boat, under the same names as a rolled ship's (R81), with
    ``built`` holding her design sheet at her present weight."""
    from .boats import speeds, units_per_hex

    spec = ship.design or {}
    table = book.boats
    s = sheet(spec, table, check=False)
    weight = present_weight(ship, book, water_in_load)
    sp = speeds(spec, table, weight)
    body = table["bodies"][spec["body"]]
    dw = Fraction(body["max_load"] - body["weight"], 10)
    load = (weight - body["weight"]) / 10
    cruise = min(Fraction(table["power"]["default_cruise_mph"]), Fraction(str(sp["top_speed"])))
    person = table["person_weight"]
    design_people = spec.get("crew", 0) + spec.get("passengers", 0)
    powered = bool(spec.get("plant")) and ship.fuel > 0 and not ship.engine_broken
    use = units_per_hex(table, float(cruise)) if powered else Fraction(0)
    s.update(present_weight=_n(weight), acceleration=sp["acceleration"],
             top_speed=sp["top_speed"], notes=sp["notes"])
    return {
        "name": ship.name,
        "class": f"Built {body['name']}",
        "class_key": BUILT_CLASS,
        "tier": ship.tier,
        "engine_tier": None,
        "deadweight": _n(dw),
        "load": _n(load),
        "load_parts": {  # hlbs; they add up to the Load (R81)
            "boat": _n((Fraction(str(s["weight"])) - body["weight"] - person * design_people)
                       / 10),
            "people": _n(Fraction(person * (ship.crew + ship.passengers), 10)),
            "cargo": ship.cargo,
            "water": ship.water if water_in_load else 0,
        },
        "load_category": load_category_for(load, dw, book),  # type: ignore[arg-type]
        "sinking_load": _n(book.load["sink_multiple"] * dw),
        "cruising_speed": _n(cruise),
        "rated_speed": sp["top_speed"],
        "under_power": powered,
        "speed": _n(cruise) if powered else sp["oars_speed"],
        "max_strain": 0,  # R82: no straining
        "fuel_use": _n(use),  # power units a hex (R82)
        "to_hit": ship.tier // book.procedures["to_hit_divisor"],
        **aboard_figures(ship),  # R70's jackets and rafts too, as on a rolled ship's card
        "built": s,
    }


def boat_card(fig: dict[str, Any]) -> list[str]:
    """`ship show` for a built boat: her design sheet, then R81's figures and what is aboard."""
    s = fig["built"]
    lines = sheet_lines(s, fig["name"])
    lines += [
        f"  Now: {s['present_weight']:,} lbs; Accel. {s['acceleration']}, Top Speed "
        f"{s['top_speed']} mph; cruising {fig['cruising_speed']} mph, "
        f"{fig['fuel_use']} power units a hex",
        f"  Tier {roman(fig['tier'])}; Deadweight {fig['deadweight']} hlbs; Load {fig['load']} "
        f"hlbs ({fig['load_category']}); sinks above {fig['sinking_load']}",
        f"  Aboard: crew {fig['crew']}, passengers {fig['passengers']}, cargo {fig['cargo']}, "
        f"charge {fig['fuel']} power units, water {fig['water']}, anchors {fig['anchors']}",
        f"  Status: {fig['status']}{' at ' + fig['hex'] if fig.get('hex') else ''}",
    ]
    lines += [f"  {fig['pumps']}"] if fig.get("pumps") else []  # R85
    return lines


def _n(x: Fraction | int | float) -> int | float:
    x = Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    return int(x) if x.denominator == 1 else round(float(x), 2)
