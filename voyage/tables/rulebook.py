"""Load and validate the rule tables in tables/ (and a campaign's override tables).

Each YAML file is one table: ``tiers``, ``load``, ``traits``, ``classes``, ``procedures``,
``options``, ``names``, ``climates``, ``calendars``, ``boats`` (R80-R83,
checked in voyage.tables.boats). Files are read within voyage.base.readlimits' limits (regular
files of at most 256 KB, YAML's safe subset, no duplicate key) and checked against a small
schema; any problem stops with one :class:`~voyage.base.errors.TableError` naming the file, the
key and what is wrong. A campaign may name a folder of override tables: a file there
replaces the built-in table of the same name whole (house rules, table by table).
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from voyage.base.errors import TableError, VoyageError
from voyage.base.escape import visible
from voyage.base.paths import tables_dir
from voyage.base.readlimits import TABLE_MAX_BYTES, file_mode, read_text, yaml_loader
from voyage.base.text import bad_number
from voyage.dice.roller import parse
from voyage.tables.boats import check_boats
from voyage.tables.checker import Checker, face_ranges
from voyage.tables.encounters import check_encounters, check_leviathans, check_weapons
from voyage.tables.terrains import check_terrains
from voyage.tables.world import check_calendars, check_climates

#: No number in a rule table may be larger than this (either way): every rule number is
#: small, and a runaway one would overflow SQLite or make a procedure loop for ever.
TABLE_NUMBER_LIMIT = 1_000_000_000

TABLE_NAMES = (
    "tiers",
    "load",
    "traits",
    "classes",
    "procedures",
    "options",
    "names",
    "climates",
    "calendars",
    "encounters",
    "leviathans",
    "weapons",
    "boats",
    "terrains",
)
#: Built-in tables checked on first use rather than at every start (a house copy is checked
#: when it is loaded, like any table).
LAZY_TABLES = frozenset({"boats"})
ROW_KEYS = {"tier", "engine", "light", "radio", "net", "heavy_weapon", "harpoons", "armor"}
TRAIT_EFFECTS: dict[str, type | tuple[type, ...]] = {
    "deadweight_multiplier": (int, float),
    "fire_severity": int,
    "fire_spread_in_6": int,
    "firehose_in_6": int,
    "armor_dice": str,
    "list_side": list,
    "dodge_bonus": int,
    "ram_die": str,
    "capsize_advantage": int,
    "tow_multiplier": (int, float),
    "fuel_use": int,
    "base_speed": int,
    "heavy_weapon": list,
}


# ----------------------------------------------------------------------------- per table


def _check_tiers(data: Any, c: Checker) -> dict[str, Any]:
    c.mapping(data, "", {"deadweight", "base_speed", "fuel_use"})
    dw_raw = data["deadweight"]
    if not isinstance(dw_raw, dict):
        raise c.fail("deadweight", "expected a mapping of tier -> hlbs")
    deadweight: dict[int, int] = {}
    for k, v in dw_raw.items():
        t = c.tier(k, f"deadweight.{k}")
        if t in deadweight:
            raise c.fail(f"deadweight.{k}", f"tier {t} is given twice")
        deadweight[t] = c.integer(v, f"deadweight.{k}", 1)
    missing = sorted(set(range(1, 11)) - set(deadweight))
    if missing:
        raise c.fail("deadweight", f"tier {missing[0]} has no deadweight")
    return {
        "deadweight": deadweight,
        "base_speed": c.tier_bands(data["base_speed"], "base_speed", "knots"),
        "fuel_use": c.tier_bands(data["fuel_use"], "fuel_use", "hlbs"),
    }


def _check_load(data: Any, c: Checker) -> dict[str, Any]:
    c.mapping(data, "", {"person_weight", "sink_multiple", "categories"})
    c.integer(data["person_weight"], "person_weight", 0)
    c.number(data["sink_multiple"], "sink_multiple", 1)
    cats = data["categories"]
    if not isinstance(cats, list) or len(cats) < 2:
        raise c.fail("categories", "expected a list of load categories")
    previous = 0.0
    names = set()
    for i, cat in enumerate(cats):
        where = f"categories[{i}]"
        c.mapping(cat, where, {"name", "label", "up_to", "speed", "capsize", "fuel_multiplier"})
        c.typed(cat["name"], f"{where}.name", str, "a name")
        if cat["name"] in names:
            raise c.fail(f"{where}.name", f"category '{cat['name']}' is given twice")
        names.add(cat["name"])
        last = i == len(cats) - 1
        if last:
            if cat["up_to"] is not None:
                raise c.fail(f"{where}.up_to", "the last category must have up_to: null")
        else:
            bound = c.number(cat["up_to"], f"{where}.up_to", 0)
            if bound <= previous:
                raise c.fail(f"{where}.up_to", "categories must be in increasing order")
            previous = bound
        c.integer(cat["speed"], f"{where}.speed")
        c.integer(cat["capsize"], f"{where}.capsize")
        c.number(cat["fuel_multiplier"], f"{where}.fuel_multiplier", 1)
    return data


def _check_classes(data: Any, c: Checker) -> dict[str, Any]:
    c.mapping(data, "", {"classes"})
    classes = data["classes"]
    if not isinstance(classes, dict) or not classes:
        raise c.fail("classes", "expected a mapping of class key -> class table")
    out: dict[str, Any] = {}
    for key, table in classes.items():
        where = f"classes.{key}"
        c.mapping(table, where, {"name", "engine", "rows", "standard_equipment"}, {"letter"})
        c.typed(table["name"], f"{where}.name", str, "a name")
        c.typed(table["engine"], f"{where}.engine", bool, "true or false")
        rows = c.mapping(table["rows"], f"{where}.rows", {"tier"}, ROW_KEYS)
        if table["engine"] and "engine" not in rows:
            raise c.fail(f"{where}.rows", "a class with an engine needs an 'engine' row")
        if not table["engine"] and "engine" in rows:
            raise c.fail(f"{where}.rows.engine", "a class without an engine has no engine row")
        parsed_rows: dict[str, list[tuple[int, int, Any]]] = {}
        for row_key, row in rows.items():
            entries = face_ranges(c, row, f"{where}.rows.{row_key}")
            checked = []
            for i, (first, last, value) in enumerate(entries):
                vkey = f"{where}.rows.{row_key}[{i}].value"
                if row_key in ("tier", "engine"):
                    value = c.tier(value, vkey)
                elif row_key == "armor":
                    value = c.integer(value, vkey, 0)
                elif row_key == "harpoons":
                    value = (
                        c.dice(value, vkey) if isinstance(value, str) else c.integer(value, vkey, 0)
                    )
                else:
                    value = c.typed(value, vkey, str, "a name")
                checked.append((first, last, value))
            parsed_rows[row_key] = checked
        equip = c.mapping(
            table["standard_equipment"], f"{where}.standard_equipment", {"weight", "items"}
        )
        c.integer(equip["weight"], f"{where}.standard_equipment.weight", 0)
        if not isinstance(equip["items"], list) or not all(
            isinstance(i, str) for i in equip["items"]
        ):
            raise c.fail(f"{where}.standard_equipment.items", "expected a list of names")
        out[str(key)] = {
            "key": str(key),
            "letter": table.get("letter"),
            "name": table["name"],
            "engine": table["engine"],
            "rows": parsed_rows,
            "standard_equipment": {"weight": equip["weight"], "items": list(equip["items"])},
        }
    return out


def _check_traits(data: Any, c: Checker) -> dict[str, Any]:
    c.mapping(data, "", {"chance", "die", "traits"})
    c.integer(data["chance"], "chance", 0, 6)
    die = parse(c.dice(data["die"], "die"))
    traits = data["traits"]
    if not isinstance(traits, list):
        raise c.fail("traits", "expected a list of traits")
    faces: dict[int, str] = {}
    by_name: dict[str, Any] = {}
    for i, trait in enumerate(traits):
        where = f"traits[{i}]"
        c.mapping(trait, where, {"face", "name", "description", "effects"})
        face = c.integer(trait["face"], f"{where}.face", 1, die.sides)
        if face in faces:
            raise c.fail(f"{where}.face", f"face {face} is doubled ({faces[face]})")
        name = c.typed(trait["name"], f"{where}.name", str, "a name")
        faces[face] = name
        effects = c.mapping(trait["effects"] or {}, f"{where}.effects", set(), set(TRAIT_EFFECTS))
        for ekey, evalue in effects.items():
            c.typed(evalue, f"{where}.effects.{ekey}", TRAIT_EFFECTS[ekey], "a valid value")
            if ekey in ("armor_dice", "ram_die"):
                c.dice(evalue, f"{where}.effects.{ekey}")
        by_name[name] = {
            "face": face,
            "name": name,
            "description": trait["description"],
            "effects": dict(effects),
        }
    missing = sorted(set(range(1, die.sides + 1)) - set(faces))
    if missing:
        raise c.fail("traits", f"face {missing[0]} of the {data['die']} has no trait")
    return {"chance": data["chance"], "die": data["die"], "by_face": faces, "traits": by_name}


def _check_procedures(data: Any, c: Checker) -> dict[str, Any]:
    required = {
        "pace",
        "capsize",
        "storm",
        "coast",
        "aground",
        "ram",
        "hull",
        "flooding",
        "sinking",
        "fire",
        "dodge",
    }
    optional = {
        "no_fuel_speed",
        "fuel_minimum",
        "hex_miles",
        "to_hit_divisor",
        "leviathan",
        "anchor",
        "water",
        "stores",
    }
    c.mapping(data, "", required, optional)
    c.integer(
        data["capsize"].get("dv") if isinstance(data["capsize"], dict) else None, "capsize.dv", 1
    )
    for key in ("severity_die", "swallow_dice"):
        c.dice(data["fire"].get(key), f"fire.{key}")
    c.dice(data["sinking"].get("dice"), "sinking.dice")
    c.dice(data["aground"].get("die"), "aground.die")
    c.dice(data["ram"].get("die"), "ram.die")
    c.dice(data["hull"].get("leak_die"), "hull.leak_die")
    c.dice(data["hull"].get("explosion_die"), "hull.explosion_die")
    c.dice(data["dodge"].get("die"), "dodge.die")
    for key in ("spread_in_6", "fight_in_6"):
        c.integer(data["fire"].get(key), f"fire.{key}", 0, 6)
    c.integer(data["coast"].get("hazard_in_6"), "coast.hazard_in_6", 0, 6)
    shallows = data["coast"].setdefault("shallow_terrains", [])
    if not isinstance(shallows, list) or not all(isinstance(x, str) for x in shallows):
        raise c.fail("coast.shallow_terrains", "expected a list of terrain names")
    for key in ("capsize_hourly_above", "listing_above", "sinking_above"):
        c.number(data["flooding"].get(key), f"flooding.{key}", 0)
    c.integer(data["storm"].get("hours_in_same_hex"), "storm.hours_in_same_hex", 1)
    data.setdefault("hex_miles", 12)
    data.setdefault("fuel_minimum", 1)
    data.setdefault("no_fuel_speed", 0)
    data.setdefault("to_hit_divisor", 2)
    c.integer(data["hex_miles"], "hex_miles", 1)
    # R65: an override file from before anchors gets the seed's numbers
    anchor = data.setdefault("anchor", {})
    c.mapping(anchor, "anchor", set(), {"max_depth_feet", "cable_dice", "parts_on"})
    anchor.setdefault("max_depth_feet", 150)
    anchor.setdefault("cable_dice", "2d6")
    anchor.setdefault("parts_on", [2, 12])
    c.integer(anchor["max_depth_feet"], "anchor.max_depth_feet", 0)
    c.dice(anchor["cable_dice"], "anchor.cable_dice")
    if not isinstance(anchor["parts_on"], list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in anchor["parts_on"]
    ):
        raise c.fail("anchor.parts_on", "expected a list of totals, e.g. [2, 12]")
    _check_water(data, c)
    _check_stores(data, c)
    return data


#: R100-R103 defaults, for an override file from before stores were counted.
STORES_DEFAULTS: dict[str, Any] = {
    "food_hlb": 0.2,
    "fresh_water_hlb": 0.8,
    "galley_food": 28,
    "space_person_days": 28,
    "raft_max": 4,
    "hours_a_day": 24,
    "dawn_hour": 6,
    "water_deadly": 3,
    "food_deadly": 21,
    "death_dice": "2d6",
    "water_less": 1,
    "food_less": 19,
    "thirsty_above": 2,
    "rain_per_person": 1,
    "rain_catcher_tier": 3,
    "low_days": 2,
}


def _check_stores(data: dict[str, Any], c: Checker) -> None:
    """R100-R103: the numbers of food and fresh water (defaults filled in)."""
    stores = data.setdefault("stores", {})
    c.mapping(stores, "stores", set(), set(STORES_DEFAULTS))
    for key, value in STORES_DEFAULTS.items():
        stores.setdefault(key, value)
    for key in ("food_hlb", "fresh_water_hlb"):
        c.number(stores[key], f"stores.{key}", 0)
    for key in ("galley_food", "raft_max", "water_less", "food_less", "rain_per_person"):
        c.integer(stores[key], f"stores.{key}", 0)
    for key in (
        "hours_a_day",
        "water_deadly",
        "food_deadly",
        "rain_catcher_tier",
        "space_person_days",
    ):
        c.integer(stores[key], f"stores.{key}", 1)
    c.integer(stores["dawn_hour"], "stores.dawn_hour", 0, 23)
    c.integer(stores["thirsty_above"], "stores.thirsty_above", 0)
    c.integer(stores["low_days"], "stores.low_days", 0)
    c.dice(stores["death_dice"], "stores.death_dice")


#: R70-R74 defaults, for an override file from before people in the water.
WATER_DEFAULTS: dict[str, Any] = {
    "raft_weight": 3,
    "raft_seats": 4,
    "raft_tier": 1,
    "drowning_dice": "2d6",
    "drowned_on": {"calm": 2, "stormy seas": 3, "major storm": 4, "hurricane": 6},
    "jacketed_swimmer_on": {"major storm": 2, "hurricane": 4},
    "below_deck_in_6": 2,
    "above_deck": {"dice": "2d6", "target": 3},
    "raft_launch_in_6": 4,
    "search_raft_in_6": 3,
    "search_person_day_in_6": 2,
    "search_person_night_in_6": 1,
}


def _check_water(data: dict[str, Any], c: Checker) -> None:
    """R70-R74: the numbers of people in the water (defaults filled in)."""
    water = data.setdefault("water", {})
    # ``night`` is read and left alone: night in every ruling is the calendar's dusk to
    # dawn (voyage.tables.calendar.is_night), and tables that still give hours load
    c.mapping(water, "water", set(), {*WATER_DEFAULTS, "night"})
    for key, value in WATER_DEFAULTS.items():
        water.setdefault(key, copy.deepcopy(value))
    for key in ("raft_weight", "raft_seats", "raft_tier"):
        c.integer(water[key], f"water.{key}", 0)
    for key in (
        "below_deck_in_6",
        "raft_launch_in_6",
        "search_raft_in_6",
        "search_person_day_in_6",
        "search_person_night_in_6",
    ):
        c.integer(water[key], f"water.{key}", 0, 6)
    c.dice(water["drowning_dice"], "water.drowning_dice")
    c.dice(
        water["above_deck"].get("dice") if isinstance(water["above_deck"], dict) else None,
        "water.above_deck.dice",
    )
    for key in ("drowned_on", "jacketed_swimmer_on"):
        if not isinstance(water[key], dict):
            raise c.fail(f"water.{key}", "expected a mapping of sea state -> total")
        for state, total in water[key].items():
            c.integer(total, f"water.{key}.{state}", 0)


def _check_options(data: Any, c: Checker) -> dict[str, Any]:
    c.mapping(data, "", {"options"})
    opts = data["options"]
    if not isinstance(opts, dict):
        raise c.fail("options", "expected a mapping of option name -> option")
    for key, opt in opts.items():
        where = f"options.{key}"
        c.mapping(opt, where, {"default", "description"}, {"ruling", "choices", "range"})
        if ("choices" in opt) == ("range" in opt):
            raise c.fail(where, "give either 'choices' (a list) or 'range' ([lowest, highest])")
        if "range" in opt:
            bounds = opt["range"]
            if (
                not isinstance(bounds, list)
                or len(bounds) != 2
                or not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds)
                or bounds[0] > bounds[1]
            ):
                raise c.fail(f"{where}.range", "expected [lowest, highest], two whole numbers")
            default = opt["default"]
            if (
                isinstance(default, bool)
                or not isinstance(default, int)
                or not (bounds[0] <= default <= bounds[1])
            ):
                raise c.fail(f"{where}.default", f"default {default!r} is not in the range")
        elif not isinstance(opt["choices"], list) or opt["default"] not in opt["choices"]:
            raise c.fail(f"{where}.default", f"default {opt['default']!r} is not in choices")
    return opts


def _check_names(data: Any, c: Checker) -> dict[str, Any]:
    c.mapping(data, "", {"first", "second"}, {"whole"})
    for key in ("first", "second", "whole"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise c.fail(key, "expected a list of names")
    if not data["first"] or not data["second"]:
        raise c.fail("first", "name lists must not be empty")
    return {"first": data["first"], "second": data["second"], "whole": data.get("whole", [])}


_CHECKS: dict[str, Callable[[Any, Checker], Any]] = {
    "tiers": _check_tiers,
    "load": _check_load,
    "traits": _check_traits,
    "classes": _check_classes,
    "procedures": _check_procedures,
    "options": _check_options,
    "names": _check_names,
    "climates": check_climates,
    "calendars": check_calendars,
    "encounters": check_encounters,
    "leviathans": check_leviathans,
    "weapons": check_weapons,
    "terrains": check_terrains,
    "boats": check_boats,
}


def read_table_text(file: Path) -> str:
    """A table file's text: a regular file of at most :data:`TABLE_MAX_BYTES`."""
    return read_text(file, what="table file", limit=TABLE_MAX_BYTES, error=TableError)


def read_yaml(file: Path) -> Any:
    """Safe-load a YAML table file; any problem becomes one TableError line."""
    return parse_yaml(read_table_text(file), file)


def parse_yaml(text: str, file: Path | str) -> Any:
    """Safe-load YAML text within voyage.base.readlimits' limits; errors name ``file`` (a
    path, or where a stored table came from)."""
    loader = yaml_loader(text, source=str(file), error=TableError, limit=TABLE_MAX_BYTES)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise TableError(f"{file}{where}: {problem}") from None
    finally:
        loader.dispose()


def load_table(name: str, file: Path) -> Any:
    """Load and validate one table file."""
    return checked_text(name, read_table_text(file), file)


def checked_text(name: str, text: str, file: Path | str) -> Any:
    """Parse and validate one table's YAML text; errors name ``file``."""
    return check_table(name, parse_yaml(text, file), file)


def check_table(name: str, data: Any, file: Path | str) -> Any:
    """Validate one table's parsed YAML; errors name ``file``."""
    if data is None:
        raise TableError(f"{file}: the file is empty")
    problem = bad_number(data, TABLE_NUMBER_LIMIT, "a table")
    if problem is not None:
        where, what = problem
        raise TableError(f"{file} at '{where}': {what}")
    return _CHECKS[name](data, Checker(Path(file)))


@dataclass
class RuleBook:
    """All rule tables, validated; what the rules and the engine read their numbers from."""

    tiers: dict[str, Any]
    load: dict[str, Any]
    traits: dict[str, Any]
    classes: dict[str, Any]
    procedures: dict[str, Any]
    options: dict[str, Any]
    names: dict[str, Any]
    calendars: dict[str, Any]
    encounters: dict[str, Any] = field(default_factory=dict)
    leviathans: dict[str, Any] = field(default_factory=dict)
    weapons: dict[str, Any] = field(default_factory=dict)
    climates: dict[str, Any] = field(default_factory=dict)
    #: imported maps' terrain names and port fuel (voyage.tables.terrains)
    terrains: dict[str, Any] = field(default_factory=dict)
    #: R80-R83 (voyage.tables.boatdesigns): a house table is checked with the others; the
    #: built-in one on first use (:attr:`boats`), so commands that never touch a boat do not
    #: pay for it.
    boats_table: dict[str, Any] | None = None
    sources: dict[str, str] = field(default_factory=dict)
    _trait_cache: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    _class_cache: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    #: R100-R103's numbers as exact fractions, once read (voyage.vessels.stores.store_rules)
    stores_cache: Any = field(default=None, repr=False, compare=False)

    @property
    def boats(self) -> dict[str, Any]:
        """The boats table (R80-R83), validated."""
        if self.boats_table is None:
            self.boats_table = load_table("boats", tables_dir() / "boats.yaml")
        return self.boats_table

    # -- lookups -------------------------------------------------------------------------
    def deadweight(self, tier: int) -> int:
        """R10: Deadweight of a Tier (before Broad)."""
        return self.tiers["deadweight"][tier]

    def base_speed(self, tier: int) -> int:
        """R13: base speed in knots by Tier band."""
        return self.tiers["base_speed"][tier]

    def fuel_band(self, tier: int) -> int:
        """R16: Fuel Use in hlbs per hex by Tier band."""
        return self.tiers["fuel_use"][tier]

    def load_categories(self) -> list[dict[str, Any]]:
        return self.load["categories"]

    def load_category(self, name: str) -> dict[str, Any]:
        for cat in self.load["categories"]:
            if cat["name"] == name:
                return cat
        names = ", ".join(c["name"] for c in self.load["categories"])
        raise VoyageError(f"unknown load category {name!r}: use one of {names}")

    def ship_class(self, name: str) -> dict[str, Any]:
        """A class table by key, letter or name, case-insensitively ('freighter', 'E')."""
        found = self._class_cache.get(name)
        if found is not None:  # asked for every ship's Load, many times an advance
            return found
        wanted = _norm(name)
        for key, table in self.classes.items():
            aliases = {_norm(key), _norm(table["name"])}
            if table.get("letter"):
                aliases.add(_norm(table["letter"]))
            aliases |= {_norm(w) for w in table["name"].split()}
            if wanted in aliases:
                self._class_cache[name] = table
                return table
        known = ", ".join(self.classes)
        raise VoyageError(f"unknown ship class {name!r}: use one of {known}")

    def trait(self, name: str) -> dict[str, Any]:
        found = self._trait_cache.get(name)
        if found is not None:  # the voyage engine asks for the same traits every minute
            return found
        wanted = _norm(name)
        for trait_name, trait in self.traits["traits"].items():
            if _norm(trait_name) == wanted:
                self._trait_cache[name] = trait
                return trait
        known = ", ".join(self.traits["traits"])
        raise VoyageError(f"unknown trait {name!r}: use one of {known}")

    def leviathan(self, name: str) -> dict[str, Any]:
        """A leviathan (R54) by key or name, case-insensitively ('kraken', 'Sea Serpent')."""
        wanted = _norm(name)
        for key, beast in self.leviathans["leviathans"].items():
            if wanted in (_norm(key), _norm(beast["name"])):
                return beast
        known = ", ".join(self.leviathans["leviathans"])
        raise VoyageError(f"unknown leviathan {name!r}: use one of {known}")

    def option_defaults(self) -> dict[str, Any]:
        return {key: opt["default"] for key, opt in self.options.items()}


def _norm(text: str) -> str:
    return "".join(ch for ch in str(text).lower() if ch.isalnum())


_CACHE: dict[tuple[str, ...], RuleBook] = {}


def read_override_folder(folder: str | Path) -> dict[str, str]:
    """The texts of a folder of override tables (house rules): ``{table name: YAML text}``.

    Only the known tables may be there (a stray ``*.yaml`` is refused, so a misspelt file
    name is not silently ignored); nothing is validated here, see :func:`rulebook_from_texts`.
    """
    override = Path(folder)
    mode = file_mode(override)
    if mode is None:
        raise TableError(f"override tables folder {override} does not exist")
    if not stat.S_ISDIR(mode):
        raise TableError(f"{override} is not a folder: name the folder that holds the house tables")
    known = {f"{n}.yaml" for n in TABLE_NAMES}
    for extra in sorted(override.glob("*.y*ml")):
        if extra.name not in known:
            raise TableError(
                f"{extra}: not a rule table (known tables: {', '.join(sorted(known))})"
            )
    texts: dict[str, str] = {}
    for name in TABLE_NAMES:
        file = override / f"{name}.yaml"
        # anything there by that name is read, or refused: a pipe, a device or a broken
        # link is never taken for an absent table (that would reset it to the built-in one)
        if os.path.lexists(file):
            texts[name] = read_table_text(file)
    return texts


def rulebook_from_texts(
    overrides: dict[str, str], origin: dict[str, str] | None = None
) -> RuleBook:
    """The built-in tables, each replaced whole by ``overrides[name]`` (YAML text) if given.

    ``origin`` names where each override came from, for error messages and
    :attr:`RuleBook.sources` (a file path, or the campaign file that keeps it). Validated
    books are cached per process by the texts themselves.
    """
    base = tables_dir()
    unknown = sorted(set(overrides) - set(TABLE_NAMES))
    if unknown:
        raise TableError(f"{unknown[0]}: not a rule table (known tables: {', '.join(TABLE_NAMES)})")
    origin = origin or {}
    digest = hashlib.sha256(
        "\0".join(f"{n}\0{origin.get(n)}\0{overrides[n]}" for n in sorted(overrides)).encode()
    ).hexdigest()
    cache_key = (str(base), digest)
    if cache_key in _CACHE:
        return _CACHE[cache_key]
    loaded: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name in TABLE_NAMES:
        if name in overrides:
            where = origin.get(name, f"{name}.yaml")
            loaded[name] = checked_text(name, overrides[name], where)
            sources[name] = where
        elif name in LAZY_TABLES:  # checked on first use (RuleBook.boats)
            sources[name] = str(base / f"{name}.yaml")
        else:
            file = base / f"{name}.yaml"
            loaded[name] = load_table(name, file)
            sources[name] = str(file)
    if "boats" in loaded:
        loaded["boats_table"] = loaded.pop("boats")
    book = RuleBook(**loaded, sources=sources)
    _CACHE[cache_key] = book
    return book


def load_rulebook(override_dir: str | Path | None = None) -> RuleBook:
    """Load every table (built-in, replaced file by file by ``override_dir``), validated.

    Loaded once per process for each set of override texts.
    """
    if override_dir is None or override_dir == "":
        return rulebook_from_texts({})
    folder = Path(override_dir)
    texts = read_override_folder(folder)
    return rulebook_from_texts(texts, {n: str(folder / f"{n}.yaml") for n in texts})


def option_allows(option: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` is one the option takes: a whole number within its range, or one
    of its choices of the same type (true is not 1). The one check of a setting, whether
    typed (:func:`option_value`) or read back from the campaign (:func:`stored_option`)."""
    if "range" in option:
        low, high = option["range"]
        return type(value) is int and low <= value <= high
    return any(type(choice) is type(value) and choice == value for choice in option["choices"])


def option_fix(option: dict[str, Any]) -> str:
    """What a setting may be, as a refusal says it: "use a whole number from 0 to 20"."""
    if "range" in option:
        return "use a whole number from {} to {}".format(*option["range"])
    choices = option["choices"]
    ints = [c for c in choices if isinstance(c, int) and not isinstance(c, bool)]
    if len(ints) == len(choices) > 3 and ints == list(range(ints[0], ints[0] + len(ints))):
        # a run of whole numbers, as `voyage settings` lists it ("0 to 20", not 21 numbers)
        return f"use a whole number from {ints[0]} to {ints[-1]}"
    return "use one of " + ", ".join(json.dumps(c) for c in choices)


_UNSET = object()


def option_value(key: str, option: dict[str, Any], raw: str) -> Any:
    """A setting typed by a referee, as the option's value: one of its choices, or a whole
    number within its range; a one-line error naming what would do otherwise."""
    value: Any = _UNSET
    lowered = raw.strip().lower()
    if "range" in option:
        text = lowered.replace("_", "").replace(",", "")
        # digits 0-9 only ("٣" is not 3), and few enough that int() is never asked for more
        if text.isascii() and text.isdigit() and len(text) <= 18:
            value = int(text)
    else:
        for choice in option["choices"]:
            if isinstance(choice, bool):
                said = ("true", "yes", "on", "1") if choice else ("false", "no", "off", "0")
                if lowered in said:
                    value = choice
                    break
            elif str(choice).lower() == lowered:
                value = choice
                break
    if value is _UNSET or not option_allows(option, value):
        raise VoyageError(f"setting {key} cannot be {raw!r}: {option_fix(option)}")
    return value


#: The longest stored setting read (a JSON text): every option's value is short.
_STORED_MAX = 100


def stored_option(key: str, option: dict[str, Any], stored: Any) -> Any:
    """A setting as the campaign file keeps it (JSON text), checked as a typed one is: a
    value edited into the file by hand that no option takes is one line naming the setting
    and the command that sets it again, not a failure deep in a rule."""
    value: Any = None
    readable = isinstance(stored, str) and len(stored) <= _STORED_MAX
    if readable:
        try:
            value = json.loads(stored)
        except (ValueError, RecursionError):
            readable = False
    if not readable or not option_allows(option, value):
        shown = visible(stored if isinstance(stored, str) else repr(stored))
        shown = shown if len(shown) <= 30 else shown[:30] + "..."
        raise VoyageError(
            f"setting {key} in the campaign file is {shown}, which it cannot be: set it "
            f"with `voyage settings {key} VALUE` ({option_fix(option)}; the default is "
            f"{json.dumps(option['default'])})"
        )
    return value
