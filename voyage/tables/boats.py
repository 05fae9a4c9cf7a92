"""Validation of tables/boats.yaml (R80-R83): every row, one line naming file, key, problem.

Called by voyage.tables.rulebook like every other table's check (its ``Checker`` is passed
in). The sample designs are built (voyage.tables.boatdesigns) as part of the check: a design
over its body's load or spaces, or breaking an R80 limit, is a table error.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import ShipError
from voyage.tables.boatdesigns import sample_spec, sheet
from voyage.tables.submersibles import KEYS as SUB_KEYS
from voyage.tables.submersibles import check_depth_tables

_BODY = {
    "name",
    "cost",
    "weight",
    "max_load",
    "spaces",
    "cargo_spaces",
    "armor_cost",
    "armor_weight",
    "hc",
    "tier",
    "draft_ft",
}
_PLANT = {"name", "cost", "weight", "spaces", "dp", "power_factors"}
_ACC_OPTIONAL = {"once", "in_cargo", "only_on", "not_on", "required_on", "excludes"}
_SHARES = {"body_cost", "body_weight", "max_load"}
_DESIGN_OPTIONAL = {
    "plant",
    "propellers",
    "propeller_armor",
    "crew",
    "passengers",
    "accessories",
    "armor",
    "extras",
    "unpriced",
    "rule_figures",
    "weapons",
}
_STATED = {"weight", "cost", "acceleration", "top_speed"}


def check_boats(data: Any, c: Any) -> dict[str, Any]:
    """R80-R83: bodies, plants, propellers, accessories, performance, power, designs."""
    c.mapping(
        data,
        "",
        {
            "bodies",
            "armor_locations",
            "plants",
            "propellers",
            "propeller_armor",
            "accessories",
            "performance",
            "jet_drives",
            "hydrofoils",
            "oars",
            "person_weight",
            "keel_draft_ft",
            "power",
            "designs",
            *SUB_KEYS,
        },
        {"water"},
    )
    out: dict[str, Any] = {"water": _water(data.get("water", WATER_DEFAULTS), c)}
    bodies = _keyed(data["bodies"], "bodies", c)
    for key, row in bodies.items():
        where = f"bodies.{key}"
        c.mapping(row, where, _BODY)
        c.typed(row["name"], f"{where}.name", str, "a name")
        for f in sorted(_BODY - {"name", "tier"}):
            c.number(row[f], f"{where}.{f}", 0)
        row["tier"] = c.tier(row["tier"], f"{where}.tier")
        if row["max_load"] < row["weight"]:
            raise c.fail(f"{where}.max_load", "less than the body's own weight")
    if "yacht" not in bodies:
        raise c.fail("bodies", "a 'yacht' body is needed (its armor locations differ)")
    out["bodies"] = bodies
    locs = c.mapping(data["armor_locations"], "armor_locations", {"small", "yacht"})
    for size, row in locs.items():
        c.mapping(row, f"armor_locations.{size}", {"base", "top", "full_top", "deck"})
        for part, names in row.items():
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise c.fail(f"armor_locations.{size}.{part}", "expected a list of locations")
    out["armor_locations"] = locs
    plants = _keyed(data["plants"], "plants", c)
    for key, row in plants.items():
        c.mapping(row, f"plants.{key}", _PLANT)
        for f in sorted(_PLANT - {"name"}):
            c.integer(row[f], f"plants.{key}.{f}", 0)
    out["plants"] = plants
    props = _keyed(data["propellers"], "propellers", c)
    for key, row in props.items():
        if key not in plants:
            raise c.fail(f"propellers.{key}", f"no power plant {key!r}")
        c.mapping(row, f"propellers.{key}", {"cost", "weight", "dp"})
        for f in ("cost", "weight", "dp"):
            c.integer(row[f], f"propellers.{key}.{f}", 0)
    missing = sorted(set(plants) - set(props))
    if missing:
        raise c.fail("propellers", f"no propeller for the {missing[0]!r} plant")
    out["propellers"] = props
    pa = c.mapping(data["propeller_armor"], "propeller_armor", {"cost", "weight", "max_points"})
    for f in pa:
        c.integer(pa[f], f"propeller_armor.{f}", 0)
    out["propeller_armor"] = pa
    out["accessories"] = _accessories(data["accessories"], bodies, c)
    out["performance"] = _performance(data["performance"], c)
    jets = c.mapping(data["jet_drives"], "jet_drives", {"acceleration", "top_speed", "min_ratio"})
    foils = c.mapping(data["hydrofoils"], "hydrofoils", {"top_speed", "lift_speed"})
    oars = c.mapping(data["oars"], "oars", {"mph_per_rower", "max_mph", "acceleration"})
    for name, row in (("jet_drives", jets), ("hydrofoils", foils), ("oars", oars)):
        for f, v in row.items():
            c.number(v, f"{name}.{f}", 0)
    out.update(jet_drives=jets, hydrofoils=foils, oars=oars)
    out["person_weight"] = c.integer(data["person_weight"], "person_weight", 0)
    out["keel_draft_ft"] = c.integer(data["keel_draft_ft"], "keel_draft_ft", 0)
    power = c.mapping(
        data["power"],
        "power",
        {
            "units",
            "per_miles",
            "base_units",
            "base_mph",
            "step_mph",
            "step_units",
            "default_cruise_mph",
            "recharge_cost",
            "recharge_minutes",
        },
    )
    for f, v in power.items():
        c.integer(v, f"power.{f}", 1 if f in ("per_miles", "step_mph", "units") else 0)
    out["power"] = power
    check_depth_tables(data, c, out)  # R83-R85: grounding, bilge pumps, submersibles
    out["designs"] = {}
    designs = _keyed(data["designs"], "designs", c)
    for name, d in designs.items():
        c.mapping(d, f"designs.{name}", {"body", "stated"}, _DESIGN_OPTIONAL)
        stated = c.mapping(d["stated"], f"designs.{name}.stated", _STATED)
        for f in _STATED:
            c.number(stated[f], f"designs.{name}.stated.{f}", 0)
        if "rule_figures" in d:
            rf = c.mapping(
                d["rule_figures"], f"designs.{name}.rule_figures", {"acceleration", "top_speed"}
            )
            for f in rf:
                c.number(rf[f], f"designs.{name}.rule_figures.{f}", 0)
        armed = d.get("weapons", {})
        if not isinstance(armed, dict) or not all(
            isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) and n > 0
            for k, n in armed.items()
        ):
            raise c.fail(f"designs.{name}.weapons", "expected weapon key -> count (R87)")
        if not isinstance(d.get("unpriced", []), list):
            raise c.fail(f"designs.{name}.unpriced", "expected a list of names")
        out["designs"][name] = _design(name, d, out, c)
    return out


#: R85: water counts in spaces of 500 lbs; the plant shorts out on 1-2 at a quarter of her
#: spaces (rolled once), on 1-4 at a half, surely at three quarters; full, she sinks.
WATER_DEFAULTS = {
    "space_lbs": 500,
    "quarter_shorts_on": 2,
    "half_shorts_on": 4,
    "propeller_lost_on": 3,
}


def _water(value: Any, c: Any) -> dict[str, Any]:
    row = c.mapping(value, "water", set(WATER_DEFAULTS))
    c.integer(row["space_lbs"], "water.space_lbs", 1)
    for f in ("quarter_shorts_on", "half_shorts_on", "propeller_lost_on"):
        c.integer(row[f], f"water.{f}", 0)
        if row[f] > 6:
            raise c.fail(f"water.{f}", "a face of one d6: 0 to 6")
    return dict(row)


def _keyed(value: Any, key: str, c: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or not value:
        raise c.fail(key, "expected a mapping of name -> row")
    return {str(k): v for k, v in value.items()}


def _accessories(value: Any, bodies: dict[str, Any], c: Any) -> dict[str, Any]:
    accs = _keyed(value, "accessories", c)
    for key, row in accs.items():
        where = f"accessories.{key}"
        c.mapping(row, where, {"name", "cost", "weight", "spaces"}, _ACC_OPTIONAL)
        c.typed(row["name"], f"{where}.name", str, "a name")
        for f in ("cost", "weight"):
            v = row[f]
            if isinstance(v, dict):
                if len(v) != 1 or next(iter(v)) not in _SHARES:
                    raise c.fail(f"{where}.{f}", f"expected a number or one of {sorted(_SHARES)}")
                c.number(next(iter(v.values())), f"{where}.{f}", 0)
            else:
                c.number(v, f"{where}.{f}", 0)
        c.integer(row["spaces"], f"{where}.spaces", 0)
        for f in ("once", "in_cargo"):
            if f in row:
                c.typed(row[f], f"{where}.{f}", bool, "true or false")
        for f, known in (
            ("only_on", bodies),
            ("not_on", bodies),
            ("required_on", bodies),
            ("excludes", accs),
        ):
            names = row.get(f, [])
            if not isinstance(names, list):
                raise c.fail(f"{where}.{f}", "expected a list")
            for n in names:
                if n not in known:
                    raise c.fail(f"{where}.{f}", f"unknown name {n!r}")
    return accs


def _performance(rows: Any, c: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or not rows:
        raise c.fail("performance", "expected a list of {from, acceleration, top_speed} rows")
    last = None
    for i, row in enumerate(rows):
        c.mapping(row, f"performance[{i}]", {"from", "acceleration", "top_speed"})
        for f in ("from", "acceleration", "top_speed"):
            c.number(row[f], f"performance[{i}].{f}", 0)
        if last is not None and row["from"] >= last:
            raise c.fail(f"performance[{i}].from", "rows must run from the highest ratio down")
        last = row["from"]
    if last != 0:
        raise c.fail("performance", "the last row must start from 0 (every ratio has a row)")
    return rows


def _design(name: str, d: dict[str, Any], table: dict[str, Any], c: Any) -> dict[str, Any]:
    """A design's names resolve and it builds within R80 (sample_spec + sheet, checked)."""
    where = f"designs.{name}"
    if d["body"] not in table["bodies"]:
        raise c.fail(f"{where}.body", f"unknown body {d['body']!r}")
    if d.get("plant") is not None and d["plant"] not in table["plants"]:
        raise c.fail(f"{where}.plant", f"unknown plant {d['plant']!r}")
    for f in ("propellers", "propeller_armor", "crew", "passengers"):
        if f in d:
            c.integer(d[f], f"{where}.{f}", 0)
    for acc, n in (d.get("accessories") or {}).items():
        if acc not in table["accessories"]:
            raise c.fail(f"{where}.accessories", f"unknown accessory {acc!r}")
        c.integer(n, f"{where}.accessories.{acc}", 0)
    for loc, n in (d.get("armor") or {}).items():
        c.integer(n, f"{where}.armor.{loc}", 0)
    for i, e in enumerate(d.get("extras") or []):
        c.mapping(e, f"{where}.extras[{i}]", {"name", "weight"}, {"cost", "spaces", "in_cargo"})
        c.number(e["weight"], f"{where}.extras[{i}].weight", 0)
    table = {**table, "designs": {name: d}}
    try:
        sheet(sample_spec(name, table), table)
    except ShipError as exc:
        raise c.fail(where, str(exc)) from None
    return d
