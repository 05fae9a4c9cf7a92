"""What a ship carries beyond her class's rows: her anchors (R65), her bilge pumps (R85) and
her explosive harpoons (R87).

Anchors are ship's stores: a class whose standard equipment lists an anchor starts with one,
more are loaded in port (equipment ``anchors``). A rolled ship's bilge pumps are loaded
(equipment ``bilge_pumps``, 20 hlbs each in her Load), a built boat's are her design's Bilge
Pump accessory; burnt-out pumps, dry hours and the referee's switch are kept beside them.
The procedures that use them (the cable's roll, the pumps' hour) are voyage.rules.anchors
and voyage.rules.pumps.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import ShipError
from voyage.base.text import plural
from voyage.tables.rulebook import RuleBook


def anchors_aboard(ship: Any) -> int:
    """How many anchors the ship carries (R65): her stores, else one if her class's
    standard equipment lists an anchor."""
    stored = ship.equipment.get("anchors")
    if isinstance(stored, int) and not isinstance(stored, bool):
        return stored
    standard = ship.equipment.get("standard", [])
    return 1 if any(str(item).lower() == "anchor" for item in standard) else 0


def set_anchors(ship: Any, count: int) -> None:
    """Record the anchors aboard (ship's stores, R65)."""
    ship.equipment["anchors"] = count


def pumps_fitted(ship: Any) -> int:
    """R85: bilge pumps aboard (a built boat's from her design, a rolled ship's loaded)."""
    if ship.design is not None:
        return int(ship.design.get("accessories", {}).get("bilge-pump", 0) or 0)
    return int(ship.equipment.get("bilge_pumps", 0) or 0)


def pumps_working(ship: Any) -> int:
    """R85: pumps fitted and not burnt out."""
    return max(0, pumps_fitted(ship) - int(ship.equipment.get("pumps_burnt", 0) or 0))


def pump_weight(ship: Any, book: RuleBook) -> int:
    """R85: hlbs a rolled ship's pumps add to her Load (a built boat's are in her design)."""
    n = 0 if ship.design is not None else pumps_fitted(ship)
    return n * int(book.boats["bilge_pump"]["weight_hlbs"]) if n else 0


def pump_text(ship: Any) -> str | None:
    """``Bilge pumps: 2 (1 burnt out; 3 dry hours)`` for a card, or None without pumps."""
    fitted = pumps_fitted(ship)
    if not fitted:
        return None
    burnt = fitted - pumps_working(ship)
    dry = int(ship.equipment.get("pump_dry_hours", 0) or 0)
    notes = [f"{burnt} burnt out"] if burnt else []
    switch = ship.equipment.get("pumps_switch")
    notes += [f"switched {switch} by hand"] if switch else []
    notes += [plural(dry, "dry hour")] if dry else []
    return f"Bilge pumps: {fitted}" + (f" ({'; '.join(notes)})" if notes else "")


def set_pumps(ship: Any, count: int, book: RuleBook) -> None:
    """`ship load --pumps N`: new pumps (none burnt, no dry hours); a built boat's number is
    her design's, so for her N replaces burnt-out ones and must match it (R85)."""
    if ship.design is not None and count != pumps_fitted(ship):
        raise ShipError(
            f"{ship.name} is built with {plural(pumps_fitted(ship), 'bilge pump')} (R85): "
            f"--pumps {pumps_fitted(ship)} replaces burnt-out ones; fit others with ship build"
        )
    if count > pumps_working(ship) and ship.status != "in port":
        raise ShipError(f"{ship.name} is {ship.status}: bilge pumps are fitted in port (R85)")
    if ship.design is None:
        ship.equipment["bilge_pumps"] = count
    for key in ("pumps_burnt", "pump_dry_hours", "pumps_on"):
        ship.equipment.pop(key, None)
    book.boats  # noqa: B018 - the pump table is checked before pumps are fitted


def harpoon_cannon(ship: Any) -> bool:
    """R87, R21: a rolled ship whose class's standard equipment lists a harpoon cannon."""
    standard = ship.equipment.get("standard", [])
    return any(str(item).lower() == "harpoon cannon" for item in standard)


def harpoons_aboard(ship: Any) -> int:
    """R87: explosive harpoons aboard (1 hlb each in her Load; each shot spends one)."""
    return int(ship.equipment.get("harpoons", 0) or 0)


def set_harpoons(ship: Any, count: int) -> None:
    """`ship load --harpoons N` (R87, our reading): explosive harpoons are taken aboard in
    port, by a ship with a harpoon cannon; fewer may be put ashore or over the side anywhere."""
    if not harpoon_cannon(ship):
        raise ShipError(
            f"{ship.name} has no harpoon cannon (R21: a Whaler's standard equipment): "
            "explosive harpoons are for a ship that carries one"
        )
    if count > harpoons_aboard(ship) and ship.status != "in port":
        raise ShipError(
            f"{ship.name} is {ship.status}: explosive harpoons are taken aboard in port (R87); "
            "bring her into a port first"
        )
    ship.equipment["harpoons"] = count
