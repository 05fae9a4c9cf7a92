"""The Ship record: what a vessel is (a ship rolled from the class tables, or a boat built
from a design, R80) and what is aboard her, the same for both kinds.

voyage.vessels.ships derives the rules' figures from it (R10-R17), asking
voyage.vessels.boatships and boatpower for a built boat's (R81, R82).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from voyage.base.errors import VoyageError
from voyage.tables.rulebook import RuleBook
from voyage.vessels.fittings import anchors_aboard, harpoons_aboard, pump_text, pumps_fitted
from voyage.vessels.stores import Stores, stores_figures

PACES = ("normal", "slow", "strain")


@dataclass
class Ship:
    """A ship: what it is (class, tiers, traits, equipment) and what is aboard it."""

    name: str
    ship_class: str
    tier: int
    engine_tier: int | None
    traits: list[str] = field(default_factory=list)
    equipment: dict[str, Any] = field(default_factory=dict)
    crew: int = 0
    passengers: int = 0
    cargo: int = 0
    fuel: int = 0
    water: int = 0
    status: str = "in port"
    hex: str | None = None
    engine_broken: bool = False
    pace: str = "normal"
    strain: int = 0
    #: A built boat's design spec (R80, voyage.tables.boatdesigns); None for a rolled ship.
    design: dict[str, Any] | None = None
    #: A built boat's charge in power units, exactly (a fraction as text, R82); None else.
    charge: str | None = None
    #: Food and fresh water aboard (R100, voyage.vessels.stores); None: untracked. Left out
    #: of the repr, which the engine's digest hashes: an untracked ship reads as before R100.
    stores: Stores | None = field(default=None, repr=False)

    def has_trait(self, name: str) -> bool:
        return any(t.lower() == name.lower() for t in self.traits)

    def to_record(self) -> dict[str, Any]:
        """The ship's own fields (no derived figures), for storage."""
        return asdict(self)


def life_jackets(ship: Ship) -> int:
    """R70: life jackets in the ship's stores (they weigh nothing that counts)."""
    return int(ship.equipment.get("life_jackets", 0) or 0)


def life_rafts(ship: Ship) -> int:
    """R70: life rafts in the ship's stores (3 hlbs each in the Load, four seats each). A
    built boat's bought Life Rafts (R80, Boats in Car Wars) are hers until the referee
    stores another number or they are launched (R71 stores 0): her design's count."""
    stored = ship.equipment.get("life_rafts")
    if stored is None and ship.design is not None:
        return int((ship.design.get("accessories") or {}).get("life-raft", 0) or 0)
    return int(stored or 0)


def load_category_for(load_hlbs: int, dw: int, book: RuleBook) -> str:
    """R12: Quarter if Load <= DW/4, Half if <= DW/2, Full if <= DW, else Overloaded."""
    for cat in book.load_categories():
        if cat["up_to"] is None or load_hlbs <= cat["up_to"] * dw:
            return cat["name"]
    raise VoyageError("load categories do not end with an open category")  # table validated


def aboard_figures(ship: Ship) -> dict[str, Any]:
    """What is aboard and how she stands, the same for a rolled ship and a built boat."""
    return {
        "traits": list(ship.traits),
        "equipment": dict(ship.equipment),
        "anchors": anchors_aboard(ship),  # R65: ship's stores
        "life_jackets": life_jackets(ship),  # R70: ship's stores
        "life_rafts": life_rafts(ship),
        "bilge_pumps": pumps_fitted(ship),  # R85
        "harpoons": harpoons_aboard(ship),  # R87: explosive harpoons
        "pumps": pump_text(ship),
        "crew": ship.crew,
        "passengers": ship.passengers,
        "cargo": ship.cargo,
        "fuel": ship.fuel,
        "water": ship.water,
        "status": ship.status,
        "hex": ship.hex,
        "pace": ship.pace,
        "strain": ship.strain,
        "engine_broken": ship.engine_broken,
        **stores_figures(ship.stores, ship.crew + ship.passengers),  # R100-R101, if tracked
    }
