"""Checks of the encounter tables (R93), the leviathans (R54) and the weapons (R94), as
voyage.tables.rulebook checks every other table: one TableError naming the file, the key and the
problem: the tables of what a ship meets at sea."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from voyage.tables.checker import Checker, face_ranges

ENCOUNTER_KINDS = ("ship", "leviathan", "wreckage", "castaways", "sight")
ENCOUNTER_TERRAINS = ("open sea", "coastal", "port approach")


def _faces_of(c: Checker, rows: Any, key: str, check: Callable[[Any, str], Any]) -> list[Any]:
    """A d6 face table (R20) whose values pass ``check(value, key)``: [(first, last, v)]."""
    out = []
    for i, (first, last, value) in enumerate(face_ranges(c, rows, key)):
        out.append((first, last, check(value, f"{key}[{i}].value")))
    return out


def check_encounters(data: Any, c: Checker) -> dict[str, Any]:
    """R93: regions -> terrains -> {interval, day, night, results}; the ship, disposition
    and sight tables; the castaways dice."""
    c.mapping(data, "", {"regions", "ships", "dispositions", "castaways", "sights"})
    regions = data["regions"]
    if not isinstance(regions, dict) or "all" not in regions:
        raise c.fail("regions", "expected a mapping of region -> terrains, with a region 'all'")

    def result(value: Any, key: str) -> dict[str, Any]:
        c.mapping(value, key, {"kind"}, {"text"})
        if value["kind"] not in ENCOUNTER_KINDS:
            raise c.fail(
                f"{key}.kind",
                f"unknown kind {value['kind']!r}: use one of {', '.join(ENCOUNTER_KINDS)}",
            )
        if "text" in value:
            c.typed(value["text"], f"{key}.text", str, "a sentence")
        return dict(value)

    out_regions: dict[str, dict[str, Any]] = {}
    for region, terrains in regions.items():
        where = f"regions.{region}"
        if not isinstance(terrains, dict) or "open sea" not in terrains:
            raise c.fail(where, "expected a mapping of terrain -> table, with 'open sea'")
        out_regions[str(region)] = {}
        for terrain, spec in terrains.items():
            tw = f"{where}.{terrain}"
            if terrain not in ENCOUNTER_TERRAINS:
                raise c.fail(tw, f"unknown terrain: use one of {', '.join(ENCOUNTER_TERRAINS)}")
            c.mapping(spec, tw, {"results"}, {"interval", "day", "night"})
            checked: dict[str, Any] = {
                "results": _faces_of(c, spec["results"], f"{tw}.results", result)
            }
            if "interval" in spec:
                checked["interval"] = c.integer(spec["interval"], f"{tw}.interval", 0, 24)
            for part in ("day", "night"):
                if part in spec:
                    checked[part] = c.integer(spec[part], f"{tw}.{part}", 0, 6)
            out_regions[str(region)][str(terrain)] = checked
    # class keys in `ships` are checked against classes.yaml when a ship is rolled

    def text(value: Any, key: str) -> str:
        c.typed(value, key, str, "text")
        return str(value)

    return {
        "regions": out_regions,
        "ships": _faces_of(c, data["ships"], "ships", text),
        "dispositions": _faces_of(c, data["dispositions"], "dispositions", text),
        "castaways": c.dice(data["castaways"], "castaways"),
        "sights": _faces_of(c, data["sights"], "sights", text),
    }


def check_leviathans(data: Any, c: Checker) -> dict[str, Any]:
    """R54: beasts with speed, Tier and an Explosion attack; the d6 table of beasts."""
    c.mapping(data, "", {"leviathans", "table"})
    beasts = data["leviathans"]
    if not isinstance(beasts, dict) or not beasts:
        raise c.fail("leviathans", "expected a mapping of key -> leviathan")
    out: dict[str, Any] = {}
    for key, beast in beasts.items():
        where = f"leviathans.{key}"
        c.mapping(beast, where, {"name", "speed", "tier", "attack"}, {"note"})
        c.typed(beast["name"], f"{where}.name", str, "a name")
        c.mapping(beast["attack"], f"{where}.attack", {"zones", "modifier"})
        zones = beast["attack"]["zones"]
        parts = str(zones).replace("yd", "").strip().split("/")
        if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
            raise c.fail(f"{where}.attack.zones", f"expected zones like '1/3/6 yd', not {zones!r}")
        out[str(key)] = {
            "key": str(key),
            "name": beast["name"],
            "speed": c.integer(beast["speed"], f"{where}.speed", 0),
            "tier": c.tier(beast["tier"], f"{where}.tier"),
            "zones": str(zones),
            "modifier": c.integer(beast["attack"]["modifier"], f"{where}.attack.modifier"),
            "note": str(beast.get("note") or ""),
        }

    def known(value: Any, key: str) -> str:
        if value not in out:
            raise c.fail(key, f"unknown leviathan {value!r}: use one of {', '.join(out)}")
        return str(value)

    return {"leviathans": out, "table": _faces_of(c, data["table"], "table", known)}


WEAPON_CARRIED = ("heavy_weapon", "harpoons", "any", "built")
WEAPON_TARGETS = ("surface", "submerged", "any")
#: R87: an Explosion's zones (lethal / secondary radii) for a burst weapon that names none
BURST_ZONES = "0/1/2 yd"


def check_weapons(data: Any, c: Checker) -> dict[str, Any]:
    """R94: weapons with their hit (harm / explosion), modifier, aim and how carried; R87:
    a boat weapon's dice and burst give its hit and modifier (a burst an Explosion with a
    modifier of its dice, direct fire Harm with its dice - 1), with lbs, spaces, cost,
    shots and what it serves against."""
    c.mapping(data, "", {"to_hit", "weapons"})
    c.mapping(data["to_hit"], "to_hit", {"dv"})
    c.integer(data["to_hit"]["dv"], "to_hit.dv", 1)
    weapons = data["weapons"]
    if not isinstance(weapons, dict) or not weapons:
        raise c.fail("weapons", "expected a mapping of key -> weapon")
    out: dict[str, Any] = {}
    for key, w in weapons.items():
        where = f"weapons.{key}"
        if isinstance(w, dict) and "dice" in w:  # R87
            c.mapping(
                w,
                where,
                {"name", "carried", "dice", "burst", "lbs", "spaces", "cost"},
                {"aim", "zones", "shots", "targets"},
            )
            dice = c.integer(w["dice"], f"{where}.dice", 1)
            if not isinstance(w["burst"], bool):
                raise c.fail(f"{where}.burst", "expected true or false")
            hit, modifier = ("explosion", dice) if w["burst"] else ("harm", dice - 1)
            zones = str(w.get("zones", BURST_ZONES)) if w["burst"] else ""
        else:
            c.mapping(w, where, {"name", "carried", "hit", "modifier"}, {"aim", "zones", "targets"})
            hit, modifier = w["hit"], c.integer(w["modifier"], f"{where}.modifier")
            zones = str(w.get("zones", ""))
        if w["carried"] not in WEAPON_CARRIED:
            raise c.fail(f"{where}.carried", f"use one of {', '.join(WEAPON_CARRIED)}")
        if hit not in ("harm", "explosion"):
            raise c.fail(f"{where}.hit", "use harm or explosion")
        if hit == "explosion" and not zones:
            raise c.fail(f"{where}.zones", "an explosion needs its zones, e.g. '1/3/6 yd'")
        targets = w.get("targets", "surface")
        if targets not in WEAPON_TARGETS:
            raise c.fail(f"{where}.targets", f"use one of {', '.join(WEAPON_TARGETS)}")
        row: dict[str, Any] = {
            "key": str(key),
            "name": c.typed(w["name"], f"{where}.name", str, "a name"),
            "carried": w["carried"],
            "hit": hit,
            "modifier": modifier,
            "aim": c.integer(w.get("aim", 0), f"{where}.aim"),
            "zones": zones,
            "targets": targets,
        }
        if "dice" in w:
            row["dice"] = w["dice"]
            row["burst"] = w["burst"]
            for field in ("lbs", "spaces", "cost"):
                row[field] = c.integer(w[field], f"{where}.{field}", 0)
            shots = w.get("shots")
            row["shots"] = None if shots is None else c.integer(shots, f"{where}.shots", 1)
        out[str(key)] = row
    return {"dv": data["to_hit"]["dv"], "weapons": out}
