"""A port's fuel stock (the map's ``fuel: {price, stock}``, less what ships took there:
table ``port_fuel``), drawn on by `voyage act SHIP refuel` and by `voyage ship load SHIP
--fuel N` in a port (*our reading*, docs/rulings.md under R16).

`ship load --fuel N` sets her fuel aboard. In a port hex the difference is the port's:

* more fuel is taken from its stock, at its price (the event says what it cost); more than
  is left is refused in one line naming what is left and the most she can load there, and a
  port that sells no fuel gives none (nothing changes either way);
* less fuel is put ashore into its tanks: back in its stock, never above the map's figure.

At sea, or for a ship not yet on the map, there is no stock to draw on: the load is the
referee's say-so (a tender, another ship's tanks, a wreck's) and the line says so. A built
boat's ``--fuel`` is her charge in power units (R82), not fuel: no port's stock is touched.
Each draw is written in the same action as the load, so `voyage undo` takes both back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.store.mapstore import campaign_chart


def sold_at(camp: Any, hex_name: str) -> int:
    """The hlbs of fuel ships have taken from the port at ``hex_name`` (0: none yet)."""
    row = camp.db.execute("SELECT sold FROM port_fuel WHERE hex = ?", [hex_name]).fetchone()
    return int(row[0]) if row else 0


def sold_everywhere(camp: Any) -> dict[str, int]:
    """The hlbs of fuel ships have taken from each port, by hex (ports none took from are
    left out)."""
    return {str(r[0]): int(r[1]) for r in camp.db.execute("SELECT hex, sold FROM port_fuel")}


def left_after(info: Any, sold: int) -> int | None:
    """The fuel the port in hex ``info`` (voyage.map.seamap.Hex) has left once ``sold`` hlbs were
    taken there: its stock less that, never below 0; None where the map sets no limit (or
    the port sells no fuel)."""
    if info.fuel is None or info.fuel.stock is None:
        return None
    return max(0, info.fuel.stock - sold)


def fuel_left(camp: Any, sea_map: Any) -> dict[str, int | None]:
    """Each port's fuel left to sell, by hex: its ``stock`` less what ships bought there
    (``port_fuel``), None where the map sets no limit; ports without fuel are left out."""
    sold = sold_everywhere(camp)
    ports = [p for p in sea_map.ports() if p.fuel is not None]
    return {p.name: left_after(p, sold.get(p.name, 0)) for p in ports}


def fuel_words(h: Any, left: dict[str, int | None], per: str = "/hlb") -> str:
    """A port's fuel for people: ``fuel 2/hlb (40 of 600 hlbs left)``, ``fuel 3.5/hlb (no
    limit)`` or ``no fuel``."""
    if h.fuel is None:
        return "no fuel"
    if h.fuel.stock is None:
        return f"fuel {h.fuel.price:g}{per} (no limit)"
    have = left.get(h.name, h.fuel.stock)
    return f"fuel {h.fuel.price:g}{per} ({have:,} of {h.fuel.stock:,} hlbs left)"


def stock_left(camp: Any, info: Any) -> int | None:
    """The fuel the port in hex ``info`` has left to sell, in hlbs (:func:`left_after`)."""
    return left_after(info, sold_at(camp, info.name))


def record_sale(camp: Any, hex_name: str, hlbs: int) -> None:
    """Add ``hlbs`` (negative: fuel put back ashore) to what the port at ``hex_name`` has
    sold; inside the caller's action, so undo restores the row exactly."""
    camp.db.execute(
        "INSERT INTO port_fuel (hex, sold) VALUES (?, MAX(0, ?)) ON CONFLICT(hex) "
        "DO UPDATE SET sold = MAX(0, sold + ?)",
        [hex_name, hlbs, hlbs],
    )


@dataclass(frozen=True)
class FuelDraw:
    """What `ship load --fuel` does to a port's stock: ``hlbs`` taken (negative: put back)
    at the port in ``hex`` (None: none touched), and the line that says so ('' for none)."""

    hex: str | None
    hlbs: int
    text: str


def load_fuel(camp: Any, ship: Any, old: int, new: int, chart: Any = None) -> FuelDraw:
    """Check ``ship`` going from ``old`` to ``new`` hlbs of fuel where she lies against the
    port's stock there: the draw to record, or one line refusing it (VoyageRuleError)."""
    if new == old or ship.design is not None or not ship.hex:
        return FuelDraw(None, 0, "")  # R82: a built boat's charge; off the map: set-up
    if chart is None:
        chart, _ = campaign_chart(camp)
    info = chart.hex(ship.hex)
    name = ship.name
    if not info.port:
        if new < old:
            return FuelDraw(None, 0, "")
        return FuelDraw(
            None,
            0,
            (
                f"{name} takes on {new - old} hlbs of fuel at sea at {ship.hex}: no port's stock "
                "is drawn on (the referee's say-so: a tender, another ship's tanks, a wreck's)."
            ),
        )
    port = f"{info.port} ({ship.hex})"
    if new < old:
        if info.fuel is None or info.fuel.stock is None:
            return FuelDraw(None, 0, "")
        back = min(old - new, sold_at(camp, ship.hex))  # never above the map's stock
        left = (stock_left(camp, info) or 0) + back
        into = (
            "all back into its stock"
            if back == old - new
            else f"{back} back into its stock, which is then full"
            if back
            else "its stock is full already"
        )
        return FuelDraw(
            ship.hex,
            -back,
            (
                f"{name} puts {old - new} hlbs of fuel ashore at {port}, {into} "
                f"({left:,} of {info.fuel.stock:,} hlbs left)."
            ),
        )
    if info.fuel is None:
        raise VoyageRuleError(
            f"{port} sells no fuel: {name} can take on none there (she has {old} hlbs); load "
            "it in a port that sells it (`voyage map show` lists them)"
        )
    want, have = new - old, stock_left(camp, info)
    if have is not None and want > have:
        raise VoyageRuleError(
            f"{info.port} has only {have:,} hlbs of fuel left to sell: {name} can load at most "
            f"--fuel {old + have} there (she has {old} hlbs aboard)"
        )
    cost = want * info.fuel.price
    where = (
        " (no limit to its stock)"
        if have is None
        else f": {have - want:,} of its {info.fuel.stock:,} hlbs left"
    )
    return FuelDraw(
        ship.hex,
        want,
        (
            f"{name} takes on {want} hlbs of fuel at {port} for {cost:g} "
            f"({info.fuel.price:g} a hlb){where}."
        ),
    )
