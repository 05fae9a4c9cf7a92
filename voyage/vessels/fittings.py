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


#: Equipment key (the ship's JSON): shots fired by weapon key, for weapons with few (R87)
SHOTS_FIRED = "shots_fired"


def armament(ship: Any, book: RuleBook) -> dict[str, int]:
    """R87: a built boat's weapons mounted, by key of the weapons table: her design's priced
    torpedoes and depth charges (accessories), her design's named weapons and those she was
    built with (`ship build --weapon`). A rolled ship: none (she fires her class's heavy
    weapons and harpoons, R21)."""
    if ship.design is None:
        return {}
    weapons = book.weapons.get("weapons", {})
    out: dict[str, int] = {}
    for key, n in (ship.design.get("accessories") or {}).items():
        if key in weapons and n:
            out[key] = out.get(key, 0) + int(n)
    for w in ship.design.get("weapons") or []:
        out[w["key"]] = out.get(w["key"], 0) + 1
    return out


def shots_left(ship: Any, row: dict[str, Any], mounted: int) -> int | None:
    """R87: shots left of a weapon with few (torpedoes, rockets and depth charges one each
    mounted, a loaded depth charge launcher 3); None: as many as the fight needs."""
    if row.get("shots") is None:
        return None
    fired = int((ship.equipment.get(SHOTS_FIRED) or {}).get(row["key"], 0))
    return max(0, int(row["shots"]) * mounted - fired)


def spend_shot(ship: Any, key: str) -> None:
    """R87: one shot of ``key`` fired (kept in her equipment, so undo takes it back)."""
    fired = dict(ship.equipment.get(SHOTS_FIRED) or {})
    fired[key] = int(fired.get(key, 0)) + 1
    ship.equipment[SHOTS_FIRED] = fired
