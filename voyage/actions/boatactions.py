"""A referee's actions for built boats (R82, R84, R85): recharging in port, new propellers,
armour worn by the deep made good.

Each is a referee's action (voyage.actions.referee: one undoable, logged action each).
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plain
from voyage.store.mapstore import campaign_chart
from voyage.vessels.boatpower import charge, full_charge, is_built, set_charge
from voyage.vessels.subarmor import ARMOR_NOW, repair_cost
from voyage.vessels.vessel import Ship


def _port(camp: Any, ship: Ship, s: Any, chart: Any, what: str) -> Any:
    """The port she lies in, or one line saying why not (at sea, nowhere, not a port)."""
    if s is not None and s.status not in ("arrived", "anchored"):
        raise VoyageRuleError(
            f"{ship.name} is at sea ({s.status} at {s.hex}): {what} only in a port"
        )
    if not ship.hex:
        raise VoyageRuleError(f"{ship.name} is nowhere on the map: place her in a port first")
    if chart is None:
        chart, _ = campaign_chart(camp)
    info = chart.hex(ship.hex)
    if not info.port:
        raise VoyageRuleError(f"{ship.hex} is not a port: {what} only in a port")
    return info


def recharge(camp: Any, ship: Ship, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:
    """R82: a full charge in a port: 10 minutes and $50 (the seed), logged."""
    if not is_built(ship):
        raise VoyageRuleError(
            f"{ship.name} is a rolled ship: she burns fuel (R16); buy it "
            f"with `voyage act {ship.name!r} refuel HLBS`"
        )
    full = full_charge(ship, camp.rulebook)
    if not full:
        raise VoyageRuleError(f"{ship.name} has no power plant to recharge (she rows, R82)")
    info = _port(camp, ship, s, chart, "a boat recharges")
    before = charge(ship)
    if before >= full:
        raise VoyageRuleError(
            f"{ship.name}'s plant is full ({full} power units): nothing to recharge"
        )
    power = camp.rulebook.boats["power"]
    set_charge(ship, full)
    cost, minutes = int(power["recharge_cost"]), int(power["recharge_minutes"])
    text = (
        f"{ship.name} recharges at {info.port} ({ship.hex}): {minutes} minutes, ${cost}; "
        f"{plain(before)} -> {full} power units (R82)."
    )
    return text, {
        "charge": full,
        "was": plain(before),
        "cost": cost,
        "minutes": minutes,
        "port": ship.hex,
    }


def repair_propellers(camp: Any, ship: Ship, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:
    """R85: propellers destroyed by bottom damage are replaced in port."""
    if not is_built(ship):
        raise VoyageRuleError(
            f"{ship.name} is a rolled ship: her propeller is part of her engine (`repair engine`)"
        )
    lost = int(ship.equipment.get("propellers_lost", 0) or 0)
    if not lost:
        raise VoyageRuleError(f"{ship.name} has lost no propeller")
    info = _port(camp, ship, s, chart, "propellers are replaced")
    ship.equipment.pop("propellers_lost", None)
    fitted = int((ship.design or {}).get("propellers", 0))
    text = (
        f"{ship.name}'s {lost} lost propeller{'s' if lost > 1 else ''} "
        f"{'are' if lost > 1 else 'is'} replaced at {info.port}: {fitted} fitted (R85)."
    )
    return text, {"propellers_left": fitted}


def repair_armor(camp: Any, ship: Ship, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:
    """R84 (our reading): armour the deep has worn (where the referee tracks it) is made
    good in a port, every point at the body's armour cost (R80)."""

    if not is_built(ship):
        raise VoyageRuleError(
            f"{ship.name} is a rolled ship: only a built boat's armour is "
            "worn by the deep and repaired (R84)"
        )
    book = camp.rulebook
    lost, cost = repair_cost(ship, book)
    if not lost:
        raise VoyageRuleError(f"{ship.name}'s armour is whole: nothing to repair")
    info = _port(camp, ship, s, chart, "armour is repaired")
    ship.equipment.pop(ARMOR_NOW, None)
    per = cost // lost
    text = (
        f"{ship.name}'s armour is made good at {info.port} ({ship.hex}): {lost} point"
        f"{'s' if lost > 1 else ''} at ${per} a point, ${cost:,} (R84, R80)."
    )
    return text, {"armor_points": lost, "cost": cost, "port": ship.hex}
