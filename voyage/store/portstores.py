"""A port's stock of food and fresh water (R103: the map's ``stores: {food, fresh_water}``
beside its fuel, unlimited unless written), less what ships took there (table
``port_stores``, person-days as exact fractions in text). Drawn on by `voyage ship load SHIP
--food N --fresh-water N` in a port; written in the caller's action, so undo restores it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

STORES = ("food", "fresh_water")


def taken_at(camp: Any, hex_name: str) -> dict[str, Fraction]:
    """Person-days of each store ships have taken from the port at ``hex_name``."""
    row = camp.db.execute(
        "SELECT food, fresh_water FROM port_stores WHERE hex = ?", [hex_name]
    ).fetchone()
    if row is None:
        return {store: Fraction(0) for store in STORES}
    return {"food": Fraction(row[0]), "fresh_water": Fraction(row[1])}


def stores_left(camp: Any, info: Any) -> dict[str, Fraction | None]:
    """What the port in hex ``info`` (voyage.map.seamap.Hex) has left of each store, None
    where the map sets no limit."""
    stock = info.stores or {}
    taken = taken_at(camp, info.name)
    return {
        store: None if store not in stock else max(Fraction(0), stock[store] - taken[store])
        for store in STORES
    }


def record_taken(camp: Any, hex_name: str, food: Fraction, fresh_water: Fraction) -> None:
    """Add what a ship took (negative: put ashore) to the port's count, never below 0."""
    taken = taken_at(camp, hex_name)
    food_now = max(Fraction(0), taken["food"] + food)
    water_now = max(Fraction(0), taken["fresh_water"] + fresh_water)
    camp.db.execute(
        "INSERT INTO port_stores (hex, food, fresh_water) VALUES (?, ?, ?) ON CONFLICT(hex) "
        "DO UPDATE SET food = excluded.food, fresh_water = excluded.fresh_water",
        [hex_name, str(food_now), str(water_now)],
    )
