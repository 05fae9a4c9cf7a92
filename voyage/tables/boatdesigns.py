"""Built boats (R80-R82): a design from the boats table -> weight, spaces, cost and speed.

Pure: no campaign, no click. A *spec* is a plain dict (what is stored in the ``design`` JSON
column of a built ship, migration m080)::

    {"body": "cruiser", "plant": "large", "propellers": 2, "propeller_armor": 0,
     "crew": 2, "passengers": 0, "accessories": {"bilge-pump": 1},
     "armor": {"F": 10}, "extras": [{"name": "Laser", "weight": 500, "spaces": 2,
     "cost": 0, "in_cargo": False}], "design": "Lucky Catch" or None,
     "weapons": [{"key": "mg", "name": "MG", "weight": 150, "spaces": 1, "cost": 0}]}

``weapons`` (R87): one entry a weapon mounted, its key a row of tables/weapons.yaml; a
sample design's named weapons are ``stated`` (their weight and cost are inside the design's
stated totals, the "unpriced" extra), so they add nothing to the sheet.

:func:`sheet` checks R80's limits and the body's maximum load and spaces (one
:class:`~voyage.base.errors.ShipError` line each, naming the overage) and returns the design
sheet in the seed's terms; :func:`sample_spec` makes the seed's bundled designs.
"""

from __future__ import annotations

import difflib
import math
from fractions import Fraction
from typing import Any

from voyage.base.errors import ShipError
from voyage.base.text import load_said
from voyage.base.tiers import roman

#: Keys of a spec, for the doctor and for validation of stored designs.
SPEC_KEYS = (
    "body",
    "plant",
    "propellers",
    "propeller_armor",
    "crew",
    "passengers",
    "accessories",
    "armor",
    "extras",
    "design",
    "submersible",
    "weapons",
)


def _norm(text: str) -> str:
    return "".join(ch for ch in str(text).lower() if ch.isalnum())


def lookup(kind: str, name: str, known: dict[str, Any]) -> str:
    """The key of ``name`` in ``known`` (by key or display name, any case or spacing);
    an unknown name fails in one line with the nearest known name (difflib)."""
    wanted = _norm(name)
    for key, row in known.items():
        if wanted in (_norm(key), _norm(row.get("name", key) if isinstance(row, dict) else key)):
            return key
    lowered = {str(k).lower(): str(k) for k in known}
    near = difflib.get_close_matches(str(name).lower(), list(lowered), n=1, cutoff=0.5)
    hint = f": did you mean {lowered[near[0]]!r}?" if near else ""
    raise ShipError(f"unknown {kind} {name!r}{hint} (known: {', '.join(map(str, known))})")


def _plural(word: str) -> str:
    return word[:-1] + "ies" if word.endswith("y") and word[-2] not in "aeiou" else word + "s"


def _share(value: Any, body: dict[str, Any]) -> Fraction:
    """An accessory's cost or weight: a number, or a share of the body ({body_cost: 0.1})."""
    if isinstance(value, dict):
        ((basis, share),) = value.items()
        return (
            Fraction(str(share))
            * body[{"body_cost": "cost", "body_weight": "weight", "max_load": "max_load"}[basis]]
        )
    return Fraction(value)


def _num(x: Fraction) -> int | float:
    """A Fraction as the plainest number (an int when whole)."""
    return int(x) if x.denominator == 1 else float(x)


# ----------------------------------------------------------------------------- speed (R82)


def performance(
    table: dict[str, Any], power_factors: int, weight: Fraction | int
) -> dict[str, Any]:
    """R82: acceleration and top speed from power factors / weight (the seed's table)."""
    ratio = Fraction(power_factors) / Fraction(weight) if weight else Fraction(0)
    for row in table["performance"]:
        if ratio >= Fraction(str(row["from"])):
            return {
                "ratio": ratio,
                "acceleration": row["acceleration"],
                "top_speed": row["top_speed"],
            }
    return {"ratio": ratio, "acceleration": 0, "top_speed": 0}  # table ends at 0: unreachable


def speeds(spec: dict[str, Any], table: dict[str, Any], weight: Fraction | int) -> dict[str, Any]:
    """R82: acceleration and top speed at ``weight`` lbs, with jet drives, hydrofoils, oars."""
    acc = spec.get("accessories", {})
    notes: list[str] = []
    if spec.get("plant"):
        plant = table["plants"][spec["plant"]]
        perf = performance(table, plant["power_factors"], weight)
        accel, top = Fraction(str(perf["acceleration"])), Fraction(str(perf["top_speed"]))
        ratio = perf["ratio"]
        if acc.get("jet-drives"):
            jets = table["jet_drives"]
            if ratio >= Fraction(str(jets["min_ratio"])):
                accel += Fraction(str(jets["acceleration"]))
                top += Fraction(str(jets["top_speed"]))
            else:
                notes.append(
                    f"jet drives do not work: power factors {plant['power_factors']} are less "
                    f"than half her weight ({_num(Fraction(weight))} lbs; R82)"
                )
        if acc.get("hydrofoils"):
            foils = table["hydrofoils"]
            if top >= foils["lift_speed"]:
                top += foils["top_speed"]
            else:
                notes.append(f"hydrofoils never lift (top speed under {foils['lift_speed']} mph)")
    else:
        ratio = Fraction(0)
        accel = top = Fraction(0)
    oars = Fraction(0)
    if acc.get("oars"):
        o = table["oars"]
        oars = min(
            Fraction(str(o["mph_per_rower"])) * spec.get("crew", 0), Fraction(str(o["max_mph"]))
        )
        if not spec.get("plant"):
            accel = Fraction(str(o["acceleration"])) if oars else Fraction(0)
            top = oars
    return {
        "ratio": ratio,
        "acceleration": _num(accel),
        "top_speed": _num(top),
        "oars_speed": _num(oars),
        "notes": notes,
    }


def units_per_10_miles(table: dict[str, Any], mph: float) -> int:
    """R82: 10 units per 10 miles at 20 mph or less, +2 for each FULL 10 mph above 20."""
    p = table["power"]
    above = max(0, math.floor((Fraction(str(mph)) - p["base_mph"]) / p["step_mph"]))
    return p["base_units"] + p["step_units"] * above


def units_per_hex(table: dict[str, Any], mph: float, hex_miles: int = 12) -> Fraction:
    """R82: a hex (12 miles) costs 1.2 times the 10-mile figure, fractions kept."""
    return Fraction(units_per_10_miles(table, mph) * hex_miles, table["power"]["per_miles"])


def range_miles(table: dict[str, Any], mph: float) -> Fraction:
    """R82: miles on a full charge at a steady ``mph`` (200 at 20 mph)."""
    p = table["power"]
    return Fraction(p["units"] * p["per_miles"], units_per_10_miles(table, mph))


# ----------------------------------------------------------------------------- the sheet


def _armor_locations(table: dict[str, Any], body_key: str, acc: dict[str, int]) -> list[str]:
    locs = table["armor_locations"]["yacht" if body_key == "yacht" else "small"]
    out = list(locs["base"])
    if acc.get("boat-top"):
        out += locs["full_top"]
    elif acc.get("half-top"):
        out += locs["top"]
    if acc.get("deck"):
        out += locs["deck"]
    return out


def _check_limits(spec: dict[str, Any], table: dict[str, Any]) -> None:
    """R80's limits, each refused in one line."""
    body_key = spec["body"]
    body = table["bodies"][body_key]
    acc = spec.get("accessories", {})
    for key, count in acc.items():
        row = table["accessories"][key]
        if count < 0:
            raise ShipError(f"{row['name']}: a count cannot be negative")
        if row.get("once") and count > 1:
            raise ShipError(f"{row['name']} may be fitted only once (R80), not {count} times")
        if count and row.get("only_on") and body_key not in row["only_on"]:
            bodies = " and ".join(_plural(table["bodies"][b]["name"]) for b in row["only_on"])
            raise ShipError(
                f"{row['name']} may be fitted only on {bodies} (R80), not on a {body['name']}"
            )
        if count and body_key in row.get("not_on", []):
            raise ShipError(f"a {body['name']} cannot have a {row['name']} (R80)")
        for other in row.get("excludes", []):
            if count and acc.get(other):
                raise ShipError(
                    f"{row['name']} and {table['accessories'][other]['name']} "
                    "cannot both be fitted: choose one"
                )
    for key, row in table["accessories"].items():
        if body_key in row.get("required_on", []) and not acc.get(key):
            raise ShipError(
                f"a {body['name']} must have a {row['name']} (R80): add {key} to --with"
            )
    if not spec.get("plant") and not acc.get("oars"):
        raise ShipError("a boat needs a power plant or oars (R80): give --plant or --with oars")
    if acc.get("jet-drives") and spec.get("propellers", 0):
        raise ShipError("jet drives replace propellers (R80): drop --propellers")
    if spec.get("propellers", 0) and not spec.get("plant"):
        raise ShipError("propellers need a power plant: give --plant or drop --propellers")
    if spec.get("plant") and not acc.get("jet-drives") and not spec.get("propellers", 0):
        # R80/R85: a plant drives her through propellers (or jet drives); with none she
        # only drifts, and `repair propellers` cannot give her what she never had
        raise ShipError(
            "a power plant needs a propeller (R80): give --propellers 1 or more, "
            "or add jet-drives to --with"
        )
    pa = table["propeller_armor"]
    if not 0 <= spec.get("propeller_armor", 0) <= pa["max_points"]:
        raise ShipError(
            f"propeller armor is 0 to {pa['max_points']} points a propeller (R80), "
            f"not {spec['propeller_armor']}"
        )
    allowed = _armor_locations(table, body_key, acc)
    for loc, points in spec.get("armor", {}).items():
        if loc not in allowed:
            raise ShipError(
                f"a {body['name']} has no armor location {loc!r} with this fit "
                f"(locations: {', '.join(allowed)})"
            )
        if points < 0:
            raise ShipError(f"armor {loc}{points}: points cannot be negative")
    for n in ("crew", "passengers", "propellers"):
        if spec.get(n, 0) < 0:
            raise ShipError(f"{n} cannot be negative")


def sheet(spec: dict[str, Any], table: dict[str, Any], *, check: bool = True) -> dict[str, Any]:
    """The design sheet: every component's cost, weight and spaces, the totals, and R82's
    speeds and R81's figures. With ``check``, R80's limits and the body's maximum load and
    spaces are enforced (a ShipError naming the overage)."""
    body_key = spec["body"]
    body = table["bodies"][body_key]
    acc = spec.get("accessories", {})
    if check:
        _check_limits(spec, table)
    # (item, cost, weight, spaces, may use cargo space)
    items: list[tuple[str, Fraction, Fraction, int, bool]] = [
        (f"{body['name']} body", Fraction(body["cost"]), Fraction(body["weight"]), 0, False)
    ]
    if spec.get("plant"):
        plant = table["plants"][spec["plant"]]
        items.append(
            (
                f"{plant['name']} power plant",
                Fraction(plant["cost"]),
                Fraction(plant["weight"]),
                plant["spaces"],
                False,
            )
        )
        n = spec.get("propellers", 0)
        if n:
            prop = table["propellers"][spec["plant"]]
            items.append(
                (
                    f"{n} propeller{'s' if n > 1 else ''}",
                    Fraction(prop["cost"] * n),
                    Fraction(prop["weight"] * n),
                    0,
                    False,
                )
            )
            pts = spec.get("propeller_armor", 0)
            if pts:
                pa = table["propeller_armor"]
                items.append(
                    (
                        f"propeller armor {pts} points x{n}",
                        Fraction(pa["cost"] * pts * n),
                        Fraction(pa["weight"] * pts * n),
                        0,
                        False,
                    )
                )
    for key, count in acc.items():
        if not count:
            continue
        row = table["accessories"][key]
        label = row["name"] if count == 1 else f"{count} x {row['name']}"
        items.append(
            (
                label,
                _share(row["cost"], body) * count,
                _share(row["weight"], body) * count,
                row["spaces"] * count,
                bool(row.get("in_cargo")),
            )
        )
    for extra in spec.get("extras", []):
        items.append(
            (
                extra["name"],
                Fraction(str(extra.get("cost", 0))),
                Fraction(str(extra["weight"])),
                extra.get("spaces", 0),
                bool(extra.get("in_cargo")),
            )
        )
    for weapon in spec.get("weapons", []):  # R87: mounted like any other component
        if weapon.get("stated"):
            continue
        items.append(
            (
                weapon["name"],
                Fraction(str(weapon.get("cost", 0))),
                Fraction(str(weapon["weight"])),
                weapon.get("spaces", 0),
                False,
            )
        )
    people = spec.get("crew", 0) + spec.get("passengers", 0)
    if people:
        items.append(
            (
                f"{people} aboard (crew {spec.get('crew', 0)}, passengers "
                f"{spec.get('passengers', 0)})",
                Fraction(0),
                Fraction(table["person_weight"] * people),
                0,
                False,
            )
        )
    points = sum(spec.get("armor", {}).values())
    if points:
        items.append(
            (
                f"armor {points} points",
                Fraction(body["armor_cost"] * points),
                Fraction(body["armor_weight"] * points),
                0,
                False,
            )
        )
    # R80: Passenger Accommodations (and extras marked so) use cargo space first.
    cargo_free = body["cargo_spaces"]
    spaces_used = cargo_used = 0
    for _name, _c, _w, used, in_cargo in items:
        into_cargo = min(used, cargo_free) if in_cargo else 0
        cargo_free -= into_cargo
        cargo_used += into_cargo
        spaces_used += used - into_cargo
    cost = sum((i[1] for i in items), Fraction(0))
    weight = sum((i[2] for i in items), Fraction(0))
    if check and weight > body["max_load"]:
        raise ShipError(
            f"{_num(weight)} lbs is over the {body['name']}'s maximum load of "
            f"{body['max_load']} lbs by {_num(weight - body['max_load'])} lbs (R80)"
        )
    if check and spaces_used > body["spaces"]:
        raise ShipError(
            f"{spaces_used} spaces is over the {body['name']}'s {body['spaces']} "
            f"spaces by {spaces_used - body['spaces']} (R80; cargo space holds only "
            "passengers, cargo and Passenger Accommodations)"
        )
    sp = speeds(spec, table, weight)
    draft = body["draft_ft"] + (table["keel_draft_ft"] if acc.get("weighted-keel") else 0)
    pf = table["plants"][spec["plant"]]["power_factors"] if spec.get("plant") else 0
    cruise = min(Fraction(table["power"]["default_cruise_mph"]), Fraction(str(sp["top_speed"])))
    return {
        "design": spec.get("design"),
        "body": body["name"],
        "plant": table["plants"][spec["plant"]]["name"] if spec.get("plant") else None,
        "items": [
            {"item": n, "cost": _num(c), "weight": _num(w), "spaces": s} for n, c, w, s, _ in items
        ],
        "cost": _num(cost),
        "weight": _num(weight),
        "max_load": body["max_load"],
        "spaces_used": spaces_used,
        "spaces": body["spaces"],
        "cargo_spaces_used": cargo_used,
        "cargo_spaces": body["cargo_spaces"],
        "armor": dict(spec.get("armor", {})),
        "power_factors": pf,
        "ratio": round(float(sp["ratio"]), 3),
        "acceleration": sp["acceleration"],
        "top_speed": sp["top_speed"],
        "oars_speed": sp["oars_speed"],
        "hc": body["hc"] + (1 if acc.get("hydrofoils") else 0),
        "draft_ft": draft,
        "range_miles_at_20": _num(range_miles(table, 20)) if spec.get("plant") else 0,
        "cruise_mph": _num(cruise),
        "units_per_hex_at_cruise": _num(units_per_hex(table, float(cruise)))
        if spec.get("plant")
        else 0,
        "tier": body["tier"],
        "deadweight": _num(Fraction(body["max_load"] - body["weight"], 10)),
        "load": _num((weight - body["weight"]) / 10),
        "notes": sp["notes"],
        "submersible": spec.get("submersible"),  # R84
    }


# ----------------------------------------------------------------------------- samples


def sample_spec(name: str, table: dict[str, Any]) -> dict[str, Any]:
    """R80: one of the seed's bundled designs as a spec. What the seed does not price is one
    extra, "unpriced (...)", whose weight and cost are what the stated totals leave."""
    key = lookup("design", name, {k: {"name": k} for k in table["designs"]})
    d = table["designs"][key]
    spec: dict[str, Any] = {
        "design": key,
        "body": d["body"],
        "plant": d.get("plant"),
        "propellers": d.get("propellers", 0),
        "propeller_armor": d.get("propeller_armor", 0),
        "crew": d.get("crew", 0),
        "passengers": d.get("passengers", 0),
        "accessories": dict(d.get("accessories", {})),
        "armor": dict(d.get("armor", {})),
        "extras": [dict(e) for e in d.get("extras", [])],
    }
    if d.get("weapons"):  # R87: the unpriced weapons it names, inside its stated figures
        spec["weapons"] = [
            {"key": key, "name": key, "weight": 0, "spaces": 0, "cost": 0, "stated": True}
            for key, n in d["weapons"].items()
            for _ in range(n)
        ]
    known = sheet(spec, table, check=False)
    stated = d["stated"]
    rest_w = Fraction(str(stated["weight"])) - Fraction(str(known["weight"]))
    rest_c = Fraction(str(stated["cost"])) - Fraction(str(known["cost"]))
    if rest_w < 0 or rest_c < 0:
        raise ShipError(
            f"design {key!r}: its components ({known['weight']} lbs, "
            f"${known['cost']}) exceed its stated {stated['weight']} lbs, "
            f"${stated['cost']}"
        )
    if rest_w or rest_c:
        spec["extras"].append(
            {
                "name": f"unpriced ({', '.join(d.get('unpriced', [])) or 'fittings'})",
                "weight": _num(rest_w),
                "cost": _num(rest_c),
                "spaces": 0,
                "in_cargo": False,
            }
        )
    return spec


def sample_names(table: dict[str, Any]) -> list[str]:
    return list(table["designs"])


# ----------------------------------------------------------------------------- text


def sheet_lines(s: dict[str, Any], name: str | None = None) -> list[str]:
    """The design sheet as the seed prints a design, one fact a line."""
    title = name or s.get("design") or "Design"
    plant = f"{s['plant']} power plant" if s["plant"] else "oars only"
    out = [
        f"{title}: {s['body']}, {plant}"
        + (f" (design {s['design']})" if s.get("design") and name else "")
    ]
    width = max(len(i["item"]) for i in s["items"])
    for i in s["items"]:
        out.append(
            f"  {i['item']:<{width}}  ${i['cost']:>9,}  {i['weight']:>8,} lbs  {i['spaces']:>2} sp"
        )
    armor = ", ".join(f"{loc}{pts}" for loc, pts in s["armor"].items()) or "none"
    out += [
        f"  Armor: {armor}",
        f"  Weight {s['weight']:,} lbs of {s['max_load']:,} max load; spaces "
        f"{s['spaces_used']}/{s['spaces']} (+cargo {s['cargo_spaces_used']}/{s['cargo_spaces']})",
        f"  Accel. {s['acceleration']}, Top Speed {s['top_speed']}, HC {s['hc']}, "
        f"{s['weight']:,} lbs; ${s['cost']:,}",
        f"  Power factors {s['power_factors']} / {s['weight']:,} lbs = {s['ratio']}"
        + (f"; oars {s['oars_speed']} mph" if s["oars_speed"] else ""),
        f"  Range {s['range_miles_at_20']} miles at 20 mph; cruising {s['cruise_mph']} mph "
        f"uses {s['units_per_hex_at_cruise']} power units a hex (R82); draft {s['draft_ft']} ft",
        f"  R81: Tier {roman(s['tier'])}, Deadweight {s['deadweight']} hlbs, "
        f"Load {load_said(s['load'])} hlbs",
    ]
    sub = s.get("submersible")
    if sub:  # R84
        hull = [
            w
            for k, w in (("reinforced", "reinforced hull"), ("ca_frame", "CA frame"))
            if sub.get(k)
        ]
        out.append(
            f"  Submersible: rated to {sub['dive_depth']:,} ft"
            + (f" ({', '.join(hull)})" if hull else "")
            + "; 3/4 speed surfaced (R84)"
        )
    out += [f"  Note: {n}" for n in s["notes"]]
    return out


def submersible_part(
    submersible: bool, dive_depth: int | None, reinforced: bool = False, ca_frame: bool = False
) -> dict[str, Any] | None:
    """R84: the ``submersible`` part of a spec from `ship build`'s options (one line each)."""
    if not submersible:
        if dive_depth is not None or reinforced or ca_frame:
            raise ShipError(
                "--dive-depth, --reinforced and --ca-frame are for a submersible: add --submersible"
            )
        return None
    if dive_depth is None:
        raise ShipError("a submersible needs her rated depth: add --dive-depth FEET (R84)")
    if dive_depth < 1:
        raise ShipError(f"--dive-depth is in feet, 1 or more, not {dive_depth}")
    return {"dive_depth": dive_depth, "reinforced": reinforced, "ca_frame": ca_frame}


# ----------------------------------------------------------------------------- from options


def spec_from_options(
    table: dict[str, Any],
    *,
    body: str,
    plant: str | None,
    propellers: int | None = None,
    propeller_armor: int = 0,
    armor: str | None = None,
    fittings: list[str] | None = None,
    extras: list[str] | None = None,
    crew: int = 1,
    passengers: int = 0,
    weapons: list[str] | None = None,
    weapons_table: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A spec from the `ship build` options; every bad name or value is one ShipError line.

    ``fittings``: accessory names, each optionally ``:N`` ("bilge-pump:2"); ``extras``:
    ``NAME:WEIGHT:SPACES[:COST]`` for what the seed does not price (R80); ``armor``:
    ``F10,L7,...``. ``plant`` "none" (or None) means oars only. ``weapons``:
    ``NAME[:LBS:SPACES[:COST]]`` each, rows of ``weapons_table`` (R87).
    """
    body_key = lookup("body", body, table["bodies"])
    plant_key = None
    if plant and _norm(plant) not in ("none", "oars"):
        plant_key = lookup("power plant", plant, table["plants"])
    accessories: dict[str, int] = {}
    for raw in fittings or []:
        for item in (p.strip() for p in raw.split(",")):
            if not item:
                continue
            name, _, count = item.partition(":")
            n = _count(count, f"--with {item}") if count else 1
            key = lookup("accessory", name, table["accessories"])
            accessories[key] = accessories.get(key, 0) + n
    jets = bool(accessories.get("jet-drives"))
    spec: dict[str, Any] = {
        "design": None,
        "body": body_key,
        "plant": plant_key,
        "propellers": (0 if jets or not plant_key else 1) if propellers is None else propellers,
        "propeller_armor": propeller_armor,
        "crew": crew,
        "passengers": passengers,
        "accessories": accessories,
        "armor": parse_armor(armor),
        "extras": [parse_extra(e) for e in extras or []],
    }
    for extra in spec["extras"]:  # R87: a weapon fires only when mounted as one
        for key, row in (weapons_table or {}).items():
            if _norm(extra["name"]) in (_norm(key), _norm(row["name"])):
                raise ShipError(
                    f"--extra {extra['name']!r} is a weapon: mount it with --weapon "
                    f"{key}:{extra['weight']}:{extra['spaces']}:{extra['cost']} (R87)"
                )
    if weapons:
        spec["weapons"] = [parse_weapon(w, weapons_table or {}) for w in weapons]
    return spec


def _count(text: str, what: str) -> int:
    raw = text.strip()
    # digits 0-9 only, at most nine ("٣" is not 3, and no typo reaches SQLite too large)
    if raw.startswith("-") and raw[1:].isascii() and raw[1:].isdigit():
        raise ShipError(f"{what}: a count cannot be negative")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise ShipError(f"{what}: {text!r} is not a whole number (digits 0-9, at most nine)")
    return int(raw)


def parse_armor(text: str | None) -> dict[str, int]:
    """``F10,L7,B3,U10`` -> {"F": 10, ...}; a location given twice is refused."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in (text or "").split(",")):
        if not part:
            continue
        loc = part.rstrip("0123456789").upper()
        digits = part[len(loc) :]
        if not loc or not digits or not loc.isalpha():
            raise ShipError(f"--armor {part!r}: write a location and its points, like F10 or FU100")
        if loc in out:
            raise ShipError(f"--armor: location {loc} is given twice")
        out[loc] = int(digits)
    return out


def parse_extra(text: str) -> dict[str, Any]:
    """``Laser:500:2[:COST]``: a component the seed does not price (R80), weight in lbs and
    spaces, optional cost in dollars."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (3, 4) or not parts[0]:
        raise ShipError(f"--extra {text!r}: write NAME:WEIGHT:SPACES or NAME:WEIGHT:SPACES:COST")
    weight = _count(parts[1], f"--extra {text} weight")
    spaces = _count(parts[2], f"--extra {text} spaces")
    cost = _count(parts[3], f"--extra {text} cost") if len(parts) == 4 else 0
    return {"name": parts[0], "weight": weight, "spaces": spaces, "cost": cost, "in_cargo": False}


def parse_weapon(text: str, weapons: dict[str, Any]) -> dict[str, Any]:
    """``--weapon NAME[:LBS:SPACES[:COST]]`` (R87): a row of the weapons table, with its own
    lbs, spaces and cost unless the referee gives them; a weapon with no boat figures in
    the table (a rolled ship's, like the Heavy Machine Gun) needs them given."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (1, 3, 4) or not parts[0]:
        raise ShipError(
            f"--weapon {text!r}: write NAME, NAME:LBS:SPACES or NAME:LBS:SPACES:COST (R87)"
        )
    key = lookup("weapon", parts[0], weapons)
    row = weapons[key]
    if len(parts) == 1:
        if "lbs" not in row:
            raise ShipError(
                f"--weapon {text!r}: the weapons table gives the {row['name']} no lbs for a "
                f"boat: write {key}:LBS:SPACES[:COST] (R87)"
            )
        weight, spaces, cost = row["lbs"], row["spaces"], row["cost"]
    else:
        weight = _count(parts[1], f"--weapon {text} lbs")
        spaces = _count(parts[2], f"--weapon {text} spaces")
        cost = _count(parts[3], f"--weapon {text} cost") if len(parts) == 4 else 0
    return {"key": key, "name": row["name"], "weight": weight, "spaces": spaces, "cost": cost}
