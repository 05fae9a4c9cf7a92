"""The Ship: generation from the class tables and the figures the rules derive from it.

Figures follow RULINGS R10-R17: deadweight, load and its parts, load category, speed at the
current load and pace, fuel use per hex, to-hit modifier. Generation follows R18-R21: each
row of the class table rolled separately on a d6, a Trait on a 1-in-6 and then the d12, with
the trait's own rolls. Every roll goes through the campaign's roller and is returned.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields
from fractions import Fraction
from typing import Any

from voyage.base.errors import ShipError
from voyage.base.text import check_name, load_said
from voyage.base.tiers import roman
from voyage.dice.roller import Roll, Roller
from voyage.tables.boatdesigns import sheet, speeds
from voyage.tables.rulebook import RuleBook
from voyage.vessels import boatpower
from voyage.vessels.boatships import (
    BUILT_CLASS,
    as_figure,
    built_deadweight,
    built_load,
    present_weight,
)
from voyage.vessels.fittings import harpoons_aboard, pump_weight
from voyage.vessels.stores import raft_stores_weight, stores_from_text, stores_weight
from voyage.vessels.submersible import depth_now
from voyage.vessels.vessel import Ship, aboard_figures, life_rafts, load_category_for


def trait_effect(ship: Ship, book: RuleBook, effect: str, default: Any = 0) -> Any:
    """Sum (or for non-numbers, the first) of an effect over the ship's traits (R18)."""
    values = [
        book.trait(t)["effects"][effect] for t in ship.traits if effect in book.trait(t)["effects"]
    ]
    if not values:
        return default
    if all(isinstance(v, int | float) for v in values):
        return sum(values) if effect != "deadweight_multiplier" else math.prod(values)
    return values[0]


# ----------------------------------------------------------------------------- figures


def deadweight(ship: Ship, book: RuleBook) -> Any:
    """R10: Deadweight by Tier; Broad x1.5 (a built boat's from her body, R81)."""
    if ship.design is not None:
        return built_deadweight(ship, book)
    return math.floor(
        book.deadweight(ship.tier) * trait_effect(ship, book, "deadweight_multiplier", 1)
    )


def standard_equipment_weight(ship: Ship, book: RuleBook) -> int:
    """R11: the class's Additional Standard Equipment weight."""
    return book.ship_class(ship.ship_class)["standard_equipment"]["weight"]


#: A part of the Load as a person reads it, where its key is not plain: "water" is the water
#: in her hull (R11), never her fresh water (R100), which is in "stores".
LOAD_PART_WORDS = {"water": "hull water", "raft_stores": "raft stores"}


def load_part_said(key: str) -> str:
    """The words for a key of :func:`load_parts` in `ship show` and on the card."""
    return LOAD_PART_WORDS.get(key, key.replace("_", " "))


def load_parts(ship: Ship, book: RuleBook, water_in_load: bool = True) -> dict[str, Any]:
    """R11: what makes up the Load, in hlbs."""
    person = book.load["person_weight"]
    return {
        "cargo": ship.cargo,
        "fuel": ship.fuel,
        "people": person * (ship.crew + ship.passengers),
        "equipment": standard_equipment_weight(ship, book),
        "rafts": life_rafts(ship) * int(book.procedures["water"]["raft_weight"]),  # R70
        "pumps": pump_weight(ship, book),  # R85: 20 hlbs a bilge pump
        "harpoons": harpoons_aboard(ship),  # R87: an explosive harpoon weighs 1 hlb
        "water": ship.water if water_in_load else 0,
        **({} if ship.stores is None else {"stores": stores_weight(ship.stores, book)}),  # R100
        # R100: each life raft's emergency stores
        **(
            {"raft_stores": raft_stores_weight(ship.stores, life_rafts(ship), book)}
            if ship.stores is not None and ship.stores.raft
            else {}
        ),
        # R92: a tow counts in the tower's Load for category, speed and fuel (not sinking)
        "tow": int(ship.equipment.get("tow_counted", 0) or 0),
    }


def load(ship: Ship, book: RuleBook, water_in_load: bool = True) -> Any:
    """R11: everything aboard, in hlbs (a built boat's from her present weight, R81)."""
    if ship.design is not None:
        # R92 (R81): a tow counts in a towing boat's Load as in a rolled ship's
        return built_load(ship, book, water_in_load) + int(
            ship.equipment.get("tow_counted", 0) or 0
        )
    return sum(load_parts(ship, book, water_in_load).values())


def shown_load(ship: Ship, book: RuleBook, water_in_load: bool = True) -> int:
    """The Load as every command shows it (voyage.base.text.load_said)."""
    return load_said(load(ship, book, water_in_load))


def fixed_load(ship: Ship, book: RuleBook) -> Any:
    """The part of the Load that an hour at sea does not change (R11: people, equipment,
    rafts, R85 pumps; R81: a built boat's own weight and people): the engine adds cargo, water,
    stores (R100, as they are used) and, where it weighs (:func:`fuel_in_load`), fuel."""
    if ship.design is not None:
        return built_load(ship, book, False, stores=False) - ship.cargo
    parts = load_parts(ship, book, False)
    # R85 pumps, R87 explosive harpoons
    return (
        parts["people"] + parts["equipment"] + parts["rafts"] + parts["pumps"] + parts["harpoons"]
    )


def fuel_in_load(ship: Ship) -> bool:
    """R11: fuel is weight; a built boat's charge is not (R81: her plant weighs the same)."""
    return ship.design is None


def aboard(ship: Ship) -> Any:
    """What she moves on: fuel in hlbs (R16), or a built boat's charge in units (R82)."""
    if ship.design is not None:
        return boatpower.charge(ship)
    return ship.fuel


def spend(ship: Ship, amount: Any) -> None:
    """Spend fuel (R16) or power units (R82) as a hex is entered."""
    if ship.design is not None:
        boatpower.set_charge(ship, boatpower.charge(ship) - amount)
    else:
        ship.fuel -= amount


def draft_ft(ship: Ship, book: RuleBook) -> int | None:
    """R83: her draft in feet; None for a rolled ship (depth changes nothing for her)."""
    return boatpower.draft_ft(ship, book)


def fuel_words(ship: Ship) -> tuple[str, str]:
    """(what she carries, its unit) for the log: fuel in hlbs, or charge in power units."""
    return ("charge", "power units") if ship.design is not None else ("fuel", "hlbs")


def load_category(ship: Ship, book: RuleBook, water_in_load: bool = True) -> str:
    """R12: the ship's load category now."""
    return load_category_for(load(ship, book, water_in_load), deadweight(ship, book), book)


def sinking_load(ship: Ship, book: RuleBook) -> Any:
    """R12: a Load above this sinks the ship (2 x Deadweight)."""
    if ship.design is not None:
        return book.load["sink_multiple"] * deadweight(ship, book)
    return math.floor(book.load["sink_multiple"] * deadweight(ship, book))


def has_engine(ship: Ship) -> bool:
    return ship.engine_tier is not None


def under_power(ship: Ship) -> bool:
    """R13: a ship makes way under power only with a working engine and fuel (R82: a
    built boat with her plant, some charge and a propeller)."""
    if ship.design is not None:
        return boatpower.powered(ship)
    # (has_engine inline: asked of every ship under way every hour)
    return ship.engine_tier is not None and not ship.engine_broken and ship.fuel > 0


def rows(ship: Ship) -> bool:
    """R13: a ship with oars (the Dinghy) rows at its no-engine speed."""
    return any(item.lower() == "oars" for item in ship.equipment.get("standard", []))


def cruising_speed(
    ship: Ship, book: RuleBook, water_in_load: bool = True, powered: bool | None = None
) -> int:
    """R13: Speed in knots at the current load, before pace; 0 when adrift.

    ``powered=True`` gives the ship's rated Speed as if its engine worked and had fuel.
    """
    if ship.design is not None:  # R82: her set pace, capped by her top speed now
        if powered:
            return boatpower.cruise_mph(ship, book, water_in_load)  # type: ignore[return-value]
        return boatpower.speed_now(ship, book, water_in_load)  # type: ignore[return-value]
    powered = under_power(ship) if powered is None else powered and has_engine(ship)
    if has_engine(ship) and not powered and not rows(ship):
        return book.procedures["no_fuel_speed"]
    engine = ship.engine_tier if powered and ship.engine_tier else 0
    cat = book.load_category(load_category(ship, book, water_in_load))
    speed = (
        book.base_speed(ship.tier)
        + (engine - ship.tier)
        + cat["speed"]
        + trait_effect(ship, book, "base_speed")
    )
    return max(0, speed)


def max_strain(speed: int) -> int:
    """R14: a ship may go up to floor(Speed/2) knots faster."""
    return speed // 2


def speed(
    ship: Ship,
    book: RuleBook,
    pace: str | None = None,
    strain: int | None = None,
    water_in_load: bool = True,
) -> int:
    """R13-R15: travelling speed at a pace (normal, slow = half, strain = + extra knots)."""
    if ship.design is not None:  # R82: no slow pace, no straining
        return cruising_speed(ship, book, water_in_load)
    pace = pace or ship.pace
    base = cruising_speed(ship, book, water_in_load)
    if pace == "slow":
        return base // book.procedures["pace"]["slow"]["speed_divisor"]
    if pace == "strain":
        extra = ship.strain if strain is None else strain
        if not under_power(ship):
            return base
        return base + min(extra, max_strain(base))
    return base


def fuel_use(
    ship: Ship, book: RuleBook, pace: str | None = None, water_in_load: bool = True
) -> int:
    """R16: hlbs of fuel per hex. Subtractions first (Thrifty, slow), then multipliers
    (Overloaded x2, straining x2); never below 1 with an engine; 0 without. A built boat:
    power units a hex at her speed now (R82, a fraction)."""
    if ship.design is not None:
        return boatpower.use_per_hex(ship, book, water_in_load)  # type: ignore[return-value]
    if not has_engine(ship):
        return 0
    pace = pace or ship.pace
    use = book.fuel_band(ship.tier) + trait_effect(ship, book, "fuel_use")
    if pace == "slow":
        use += book.procedures["pace"]["slow"]["fuel_use"]
    cat = book.load_category(load_category(ship, book, water_in_load))
    use = use * cat["fuel_multiplier"]
    if pace == "strain" and ship.strain > 0:
        use = use * book.procedures["pace"]["strain"]["fuel_multiplier"]
    return max(book.procedures["fuel_minimum"], math.floor(use))


def to_hit(ship: Ship, book: RuleBook) -> int:
    """R17: Tier / 2 (rounded down), for shots at the hull."""
    return ship.tier // book.procedures["to_hit_divisor"]


def figures(ship: Ship, book: RuleBook, water_in_load: bool = True) -> dict[str, Any]:
    """Every derived figure of a ship, with stable names (the JSON of `ship show`)."""
    if ship.design is not None:  # R81: a built boat's figures come from her design
        return built_figures(ship, book, water_in_load)
    dw = deadweight(ship, book)
    total = load(ship, book, water_in_load)
    cls = book.ship_class(ship.ship_class)
    return {
        "name": ship.name,
        "class": cls["name"],
        "class_key": cls["key"],
        "tier": ship.tier,
        "engine_tier": ship.engine_tier,
        "deadweight": dw,
        "load": math.floor(total),  # R100: stores keep fractions, the Load shows whole hlbs
        "load_parts": {k: math.floor(v) for k, v in load_parts(ship, book, water_in_load).items()},
        "load_category": load_category_for(total, dw, book),
        "sinking_load": sinking_load(ship, book),
        "cruising_speed": cruising_speed(ship, book, water_in_load),
        "rated_speed": cruising_speed(ship, book, water_in_load, powered=True),
        "under_power": under_power(ship),
        "speed": speed(ship, book, water_in_load=water_in_load),
        "max_strain": (
            max_strain(cruising_speed(ship, book, water_in_load)) if under_power(ship) else 0
        ),  # R14: only an engine strains
        "fuel_use": fuel_use(ship, book, water_in_load=water_in_load),
        "to_hit": to_hit(ship, book),
        **aboard_figures(ship),
    }


def built_figures(ship: Ship, book: RuleBook, water_in_load: bool = True) -> dict[str, Any]:
    """Every figure of a built boat, under the same names as a rolled ship's (R81), with
    ``built`` holding her design sheet at her present weight."""
    spec = ship.design or {}
    table = book.boats
    s = sheet(spec, table, check=False)
    weight = present_weight(ship, book, water_in_load)
    sp = speeds(spec, table, weight)
    body = table["bodies"][spec["body"]]
    dw = Fraction(body["max_load"] - body["weight"], 10)
    tow = int(ship.equipment.get("tow_counted", 0) or 0)  # R92: a tow counts in her Load
    load = (weight - body["weight"]) / 10 + tow
    cruise = boatpower.cruise_mph(ship, book, water_in_load)
    person = table["person_weight"]
    design_people = spec.get("crew", 0) + spec.get("passengers", 0)
    powered = boatpower.powered(ship)
    use = boatpower.use_per_hex(ship, book, water_in_load)
    # her top speed now (R84: a surfaced submersible makes 3/4 of it)
    top = (
        as_figure(boatpower.top_speed(ship, book, water_in_load))
        if spec.get("plant")
        else sp["top_speed"]
    )
    s.update(
        present_weight=as_figure(weight),
        acceleration=sp["acceleration"],
        top_speed=top,
        notes=sp["notes"],
        depth_ft=depth_now(ship),
    )  # R84: 0 on the surface
    return {
        "name": ship.name,
        "class": f"Built {body['name']}",
        "class_key": BUILT_CLASS,
        "tier": ship.tier,
        "engine_tier": None,
        "deadweight": as_figure(dw),
        "load": as_figure(load),
        "load_parts": {  # hlbs; they add up to the Load (R81)
            "boat": as_figure(
                (Fraction(str(s["weight"])) - body["weight"] - person * design_people) / 10
            ),
            "people": as_figure(Fraction(person * (ship.crew + ship.passengers), 10)),
            "cargo": ship.cargo,
            "water": ship.water if water_in_load else 0,
            # R100: her food and fresh water (2 and 8 lbs a person-day), her rafts' too
            **(
                {}
                if ship.stores is None
                else {"stores": as_figure(stores_weight(ship.stores, book))}
            ),
            **(
                {"raft_stores": as_figure(raft_stores_weight(ship.stores, life_rafts(ship), book))}
                if ship.stores is not None and ship.stores.raft
                else {}
            ),
            **({"tow": tow} if tow else {}),  # R92
        },
        "load_category": load_category_for(load, dw, book),  # type: ignore[arg-type]
        "sinking_load": as_figure(book.load["sink_multiple"] * dw),
        "cruising_speed": as_figure(cruise),
        "rated_speed": as_figure(boatpower.top_speed(ship, book, water_in_load)),
        "under_power": powered,
        "speed": as_figure(boatpower.speed_now(ship, book, water_in_load)),
        "pace_mph": boatpower.pace_text(ship.pace, ship, book, water_in_load),
        "propellers_left": boatpower.propellers_left(ship),
        "draft_ft": boatpower.draft_ft(ship, book),
        "max_strain": 0,  # R82: no straining
        "fuel_use": as_figure(use),  # power units a hex (R82)
        "to_hit": ship.tier // book.procedures["to_hit_divisor"],
        **aboard_figures(ship),  # R70's jackets and rafts too, as on a rolled ship's card
        "fuel": as_figure(boatpower.charge(ship)),  # R82: her charge in power units, exactly
        "full_charge": boatpower.full_charge(ship, book),
        "built": s,
    }


# ----------------------------------------------------------------------------- new ships


def base_equipment(cls: dict[str, Any]) -> dict[str, Any]:
    """A new ship's equipment before her rolls: her class's standard items, nothing else."""
    return {
        "standard": list(cls["standard_equipment"]["items"]),
        "heavy_weapons": [],
        "armor": 0,
        "harpoons": 0,
        "firehose": False,
        "ram": False,
    }


def make_ship(
    book: RuleBook,
    name: str,
    ship_class: str,
    tier: int,
    engine_tier: int | None = None,
    traits: list[str] | tuple[str, ...] = (),
    equipment: dict[str, Any] | None = None,
) -> Ship:
    """A ship with attributes the referee states (no rolls). Checks them against the rules."""
    cls = book.ship_class(ship_class)
    if cls["engine"] and engine_tier is None:
        raise ShipError(f"a {cls['name']} has an engine: give its tier with --engine (I-X)")
    if not cls["engine"] and engine_tier is not None:
        raise ShipError(f"a {cls['name']} has no engine: leave out --engine")
    names = [book.trait(t)["name"] for t in traits]
    if len(set(names)) != len(names):
        raise ShipError("a trait is given twice: give each trait once")
    eq = base_equipment(cls)
    for key, value in (equipment or {}).items():
        if key in ("heavy_weapons",):
            eq[key] = list(value)
        else:
            eq[key] = value
    for trait in names:
        effects = book.trait(trait)["effects"]
        if "ram_die" in effects:
            eq["ram"] = True
    return Ship(
        name=name,
        ship_class=cls["key"],
        tier=tier,
        engine_tier=engine_tier,
        traits=names,
        equipment=eq,
    )


def generate_name(book: RuleBook, roller: Roller, taken: set[str]) -> tuple[str, Roll]:
    """A ship name from tables/names.yaml, not yet used in the campaign (case-insensitive).

    When every name in the lists is taken, a numeral is added ("Sea Witch II").
    """
    names = book.names
    pool = [f"{a} {b}" for a in names["first"] for b in names["second"] if a != b]
    pool += list(names["whole"])
    free = [n for n in pool if n.lower() not in taken]
    name, record = roller.choose("ship name", free if len(free) >= 2 else pool)
    if name.lower() in taken:
        number = 2
        while f"{name} {roman(number)}".lower() in taken:
            number += 1
        name = f"{name} {roman(number)}"
        record.outcome = name
    return name, record


# ----------------------------------------------------------------------------- storage


def ship_to_row(ship: Ship) -> dict[str, Any]:
    """The ship as a row of the campaign's ``ships`` table; a name that is not one clean line
    (typed, or from a house names table) is refused here, before it is stored."""
    check_name(ship.name, "the ship's name", error=ShipError)
    # the fields as they are (not asdict's deep copy): traits and equipment become JSON here
    rec = {f.name: getattr(ship, f.name) for f in fields(ship)}
    rec["class"] = rec.pop("ship_class")
    rec["traits"] = json.dumps(rec["traits"])
    rec["equipment"] = json.dumps(rec["equipment"], sort_keys=True)
    rec["engine_broken"] = int(rec["engine_broken"])
    rec["design"] = None if rec["design"] is None else json.dumps(rec["design"])  # R80
    rec["stores"] = None if ship.stores is None else ship.stores.to_text()  # R100
    return rec


def ship_from_row(row: dict[str, Any]) -> Ship:
    """A ship from a row of the campaign's ``ships`` table."""
    return Ship(
        name=row["name"],
        ship_class=row["class"],
        tier=row["tier"],
        engine_tier=row["engine_tier"],
        traits=json.loads(row["traits"]),
        equipment=json.loads(row["equipment"]),
        crew=row["crew"],
        passengers=row["passengers"],
        cargo=row["cargo"],
        fuel=row["fuel"],
        water=row["water"],
        status=row["status"],
        hex=row["hex"],
        engine_broken=bool(row["engine_broken"]),
        pace=row["pace"],
        strain=row["strain"],
        design=json.loads(row["design"]) if row.get("design") else None,
        charge=row.get("charge"),
        stores=stores_from_text(row.get("stores")),  # R100
    )
