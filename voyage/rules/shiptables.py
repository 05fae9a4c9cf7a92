"""Rolling on the class tables (R20, R21) and the Trait table (R18): a row or a trait for
the table top, or a whole new ship (:func:`roll_ship`). The Ship and the figures derived
from her are voyage.vessels.ships.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageError
from voyage.base.tiers import roman
from voyage.dice.events import Outcome
from voyage.dice.roller import Roll, Roller, parse
from voyage.tables.rulebook import RuleBook
from voyage.vessels.ships import base_equipment
from voyage.vessels.vessel import Ship


@dataclass(frozen=True)
class RowResult(Outcome):
    """One class-table row rolled on a d6 (R20): the face and the value it gives."""

    ship_class: str
    row: str
    face: int
    value: Any


@dataclass(frozen=True)
class ClassResult(Outcome):
    """Every row of a class table rolled (R21): ``rows`` maps row name to value."""

    ship_class: str
    rows: dict[str, Any]


@dataclass(frozen=True)
class TraitResult(Outcome):
    """The Trait roll (R18): ``trait`` is None when the ship has none; ``details`` holds what
    the trait's own rolls gave (plating units, list side, firehose, heavy weapon)."""

    trait: str | None
    details: dict[str, Any]


def _show(row: str, value: Any) -> str:
    if row in ("tier", "engine") and isinstance(value, int):
        return roman(value)
    return str(value)


def class_rows(ship_class: str, book: RuleBook) -> list[str]:
    """The row names of a class table, in table order."""
    return list(book.ship_class(ship_class)["rows"])


def _row_key(table: dict[str, Any], row: str) -> str:
    key = row.strip().lower().replace("-", "_").replace(" ", "_")
    if key not in table["rows"]:
        raise VoyageError(
            f"the {table['name']} table has no row {row!r}: use one of {', '.join(table['rows'])}"
        )
    return key


def class_row_odds(ship_class: str, row: str, book: RuleBook) -> dict[str, Fraction]:
    """Exact chance of each value of a class-table row (R20), values as printed."""
    table = book.ship_class(ship_class)
    key = _row_key(table, row)
    out: dict[str, Fraction] = {}
    for first, last, value in table["rows"][key]:
        shown = _show(key, value)
        out[shown] = out.get(shown, Fraction(0)) + Fraction(last - first + 1, 6)
    return out


def trait_odds(book: RuleBook, name: str | None = None) -> Fraction:
    """Exact chance a new ship has a Trait (R18), or, with ``name``, that very Trait."""
    has = Fraction(int(book.traits["chance"]), 6)
    if name is None:
        return has
    wanted = book.trait(name)["name"]
    faces = sum(1 for trait in book.traits["by_face"].values() if trait == wanted)
    sides = parse(book.traits["die"]).sides
    return has * Fraction(faces, sides)


def roll_class_row(ship_class: str, row: str, roller: Roller, book: RuleBook) -> RowResult:
    """Roll a d6 on one row of a class table (R20: explicit face ranges from the tables).

    A value that is itself dice (Explosive Harpoons: d6) is rolled too.
    """
    table = book.ship_class(ship_class)
    key = _row_key(table, row)
    roll = roller.roll(f"{table['name']} {key.replace('_', ' ')}", "d6")
    value: Any = None
    for first, last, entry in table["rows"][key]:
        if first <= roll.total <= last:
            value = entry
    rolls = [roll]
    roll.outcome = _show(key, value)
    if isinstance(value, str) and key == "harpoons":
        roll.outcome = f"{value} explosive harpoons"
        count = roller.roll("explosive harpoons", value)
        count.outcome = f"{count.total} harpoons"
        rolls.append(count)
        value = count.total
    text = f"{table['name']} {key.replace('_', ' ')}: {_show(key, value)}"
    return RowResult(
        "class", text, tuple(rolls), {key: value}, table["key"], key, roll.total, value
    )


def roll_class(ship_class: str, roller: Roller, book: RuleBook) -> ClassResult:
    """Roll every row of a class table, each separately (R20)."""
    table = book.ship_class(ship_class)
    rolls: list[Roll] = []
    rows: dict[str, Any] = {}
    for row in table["rows"]:
        result = roll_class_row(table["key"], row, roller, book)
        rolls.extend(result.rolls)
        rows[row] = result.value
    shown = "; ".join(f"{r.replace('_', ' ')} {_show(r, v)}" for r, v in rows.items())
    text = f"{table['name']}: {shown}"
    return ClassResult("class", text, tuple(rolls), dict(rows), table["key"], rows)


def roll_trait(roller: Roller, book: RuleBook, force: bool = False) -> TraitResult:
    """A new ship's Trait (R18): on a ``chance``-in-6, roll the Trait table; then the
    trait's own rolls. ``force`` skips the chance roll (roll straight on the table)."""
    rolls: list[Roll] = []
    if not force:
        chance = roller.chance(
            "has a trait", int(book.traits["chance"]), success="a trait", failure="no trait"
        )
        rolls.append(chance)
        if not chance.success:
            return TraitResult(
                "trait", "The ship has no special Trait.", tuple(rolls), {}, None, {}
            )
    pick = roller.roll("trait", book.traits["die"])
    name = book.traits["by_face"][pick.total]
    pick.outcome = name
    rolls.append(pick)
    effects = book.trait(name)["effects"]
    details: dict[str, Any] = {}
    if "armor_dice" in effects:
        armor = roller.roll("armored plating", effects["armor_dice"])
        armor.outcome = f"{armor.total} units"
        rolls.append(armor)
        details["armor"] = armor.total
    if "list_side" in effects:
        side, coin = roller.choose("lists to", list(effects["list_side"]))
        rolls.append(coin)
        details["list_side"] = side
    if "firehose_in_6" in effects:
        hose = roller.chance(
            "firehose", int(effects["firehose_in_6"]), success="a firehose", failure="no firehose"
        )
        rolls.append(hose)
        details["firehose"] = bool(hose.success)
    if "heavy_weapon" in effects:
        weapon, pick_weapon = roller.choose("heavy weapon", list(effects["heavy_weapon"]))
        rolls.append(pick_weapon)
        details["heavy_weapon"] = weapon
    extra = "".join(f"; {k.replace('_', ' ')}: {v}" for k, v in details.items())
    text = f"Trait: {name} - {book.trait(name)['description']}{extra}"
    return TraitResult("trait", text, tuple(rolls), {"trait": name, **details}, name, details)


# ----------------------------------------------------------------------------- a new ship


def _roll_row(roller: Roller, cls: dict[str, Any], row: str) -> tuple[Any, Roll]:
    """R20: roll a d6 on one row of a class table and look the face up."""
    record = roller.roll(f"{cls['name']} {row.replace('_', ' ')}", "d6")
    face = record.natural
    for first, last, value in cls["rows"][row]:
        if first <= face <= last:
            shown = roman(value) if row in ("tier", "engine") else value
            record.outcome = f"{shown} (faces {first}-{last})" if first != last else str(shown)
            return value, record
    raise VoyageError(f"{cls['name']} {row}: no value for face {face}")  # table validated


def roll_random_class(book: RuleBook, roller: Roller) -> tuple[dict[str, Any], Roll]:
    """Pick a class at random, each class equally likely (d6 over the six classes)."""
    keys = list(book.classes)
    key, record = roller.choose("ship class", keys)
    record.outcome = book.classes[key]["name"]
    return book.classes[key], record


def _apply_trait_details(ship: Ship, trait: str, details: dict[str, Any], book: RuleBook) -> None:
    """Carry a trait's own rolls (R18) into the ship's equipment."""
    eq = ship.equipment
    if "armor" in details:
        eq["armor"] = eq.get("armor", 0) + details["armor"]
    if "heavy_weapon" in details:
        eq.setdefault("heavy_weapons", []).append(details["heavy_weapon"])
    if "firehose" in details:
        eq["firehose"] = details["firehose"]
    if "list_side" in details:
        eq["list_side"] = details["list_side"]
    if "ram_die" in book.trait(trait)["effects"]:
        eq["ram"] = True


def roll_ship(
    book: RuleBook, roller: Roller, name: str, ship_class: str | None = None
) -> tuple[Ship, list[Roll]]:
    """Roll a new ship of a class (or of a random class): every row, then a Trait (R18-R21)."""
    records: list[Roll] = []
    if ship_class:
        cls = book.ship_class(ship_class)
    else:
        cls, record = roll_random_class(book, roller)
        records.append(record)
    values: dict[str, Any] = {}
    for row in cls["rows"]:
        values[row], record = _roll_row(roller, cls, row)
        records.append(record)
    equipment = base_equipment(cls)
    for key in ("light", "radio", "net"):
        if key in values:
            equipment[key] = values[key]
    if "heavy_weapon" in values:
        equipment["heavy_weapons"].append(values["heavy_weapon"])
    if "armor" in values:
        equipment["armor"] = values["armor"]
    if "harpoons" in values:
        harpoons = values["harpoons"]
        if isinstance(harpoons, str):
            r = roller.roll(f"{cls['name']} explosive harpoons", harpoons)
            r.outcome = f"{r.total} explosive harpoons"
            records.append(r)
            harpoons = r.total
        equipment["harpoons"] = harpoons
    ship = Ship(
        name=name,
        ship_class=cls["key"],
        tier=values["tier"],
        engine_tier=values.get("engine") if cls["engine"] else None,
        equipment=equipment,
    )
    trait = roll_trait(roller, book)  # R18: 1-in-6, the d12, then the trait's own rolls
    records.extend(trait.rolls)
    if trait.trait:
        ship.traits.append(trait.trait)
        _apply_trait_details(ship, trait.trait, trait.details, book)
    return ship, records
