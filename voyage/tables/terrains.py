"""The terrain table for imported maps (tables/terrains.yaml, or a campaign's house copy):
a drawing tool's terrain names mapped to voyage's terrains, and the fuel of imported ports.

The same shape serves ``voyage map import --terrain-map FILE``; the importer applies the
campaign's table first and a file given on the command line over it.
"""

from __future__ import annotations

from typing import Any

from voyage.tables.checker import Checker

#: What a terrain name can be mapped to.
TERRAIN_TARGETS = (
    "sea",
    "coast",
    "land",
    "port",
    "reef",
    "shoal",
    "sandbank",
    "rocky shallows",
    "wreck",
)


def check_terrains(data: Any, check: Checker) -> dict[str, Any]:
    """``terrains: {NAME: target}`` and optionally ``port_fuel: {price: P, stock: N}`` or
    ``none``; one TableError line naming the file and the key otherwise."""
    if not isinstance(data, dict) or not set(data) <= {"terrains", "port_fuel"}:
        raise check.fail("", "a terrain table has 'terrains:' (name: terrain) and 'port_fuel:'")
    terrains = data.get("terrains") or {}
    if not isinstance(terrains, dict):
        raise check.fail("terrains", "a mapping, e.g. terrains: {Hills: land}")
    for name, target in terrains.items():
        if target not in TERRAIN_TARGETS:
            raise check.fail(
                f"terrains.{name}", f"{target!r}: use one of {', '.join(TERRAIN_TARGETS)}"
            )
    out: dict[str, Any] = {"terrains": {str(k): str(v) for k, v in terrains.items()}}
    if "port_fuel" in data:
        fuel = data["port_fuel"]
        price_ok = isinstance(fuel, dict) and _number(fuel.get("price"))
        stock = fuel.get("stock") if isinstance(fuel, dict) else None
        stock_ok = stock is None or (_number(stock) and isinstance(stock, int))
        if fuel in (None, "none"):
            out["port_fuel"] = None
        elif price_ok and stock_ok and set(fuel) <= {"price", "stock"}:
            out["port_fuel"] = dict(fuel)
        else:
            raise check.fail("port_fuel", "{price: 2} (with stock: N if limited) or none")
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
