"""Food and fresh water aboard, in person-days (R100-R102, docs/rulings.md "Stores").

A ship's stores are ``None`` until the referee loads some (`voyage ship load SHIP --food N
--fresh-water N`): an untracked ship eats and drinks as the rules before R100 had it, so
ships rolled before stores were counted, and campaigns that never count them, sail exactly as
they did. Once loaded, the counts are kept exactly (fractions: R101 uses 1/24 of a
person-day an hour). "Water" stays the flooding's word (R37); stores are "fresh water".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from voyage.tables.rulebook import RuleBook

#: R100: hlbs a person-day weighs in the Load (a built boat: 2 lbs and 8 lbs, the same hlbs);
#: the built-in table's numbers (tables/procedures.yaml ``stores``), which a campaign's own
#: tables may change (:func:`store_rules`)
FOOD_HLB = Fraction(1, 5)
WATER_HLB = Fraction(4, 5)


@dataclass(frozen=True)
class StoreRules:
    """The numbers of R100-R103 (the ``stores`` section of tables/procedures.yaml), exact."""

    food_hlb: Fraction
    water_hlb: Fraction
    galley_food: int
    raft_max: int
    hourly: Fraction  #: R101: a person's use an hour, in person-days
    dawn_hour: int
    water_deadly: int
    food_deadly: int
    death_dice: str
    water_less: int
    food_less: int
    thirsty_above: int
    rain_per_person: int
    rain_catcher_tier: int


def store_rules(book: RuleBook) -> StoreRules:
    """R100-R103's numbers from the campaign's tables (read once per rule book)."""
    found = book.stores_cache
    if found is None:
        t = book.procedures["stores"]
        found = book.stores_cache = StoreRules(
            Fraction(str(t["food_hlb"])),
            Fraction(str(t["fresh_water_hlb"])),
            int(t["galley_food"]),
            int(t["raft_max"]),
            Fraction(1, int(t["hours_a_day"])),
            int(t["dawn_hour"]),
            int(t["water_deadly"]),
            int(t["food_deadly"]),
            str(t["death_dice"]),
            int(t["water_less"]),
            int(t["food_less"]),
            int(t["thirsty_above"]),
            int(t["rain_per_person"]),
            int(t["rain_catcher_tier"]),
        )
    return found


@dataclass
class Stores:
    """What a ship carries to eat and drink (R100), and how her people stand (R101-R102)."""

    food: Fraction = Fraction(0)
    fresh_water: Fraction = Fraction(0)
    half_food: bool = False  #: R101: half rations of food
    half_water: bool = False  #: R101: half rations of water
    dry_water: Fraction = Fraction(0)  #: R102: days without water, counted at 06:00
    dry_food: Fraction = Fraction(0)  #: R102: days without food
    raft: int = 0  #: R100: person-days of each in every life raft's emergency stores

    rain_day: int = -1  #: R103: the day (clock // 24) rain last refilled her water

    #: the last weight worked out and what it was of (the engine asks each hour, often
    #: twice, with the stores unchanged between): not a store, never compared or saved
    memo: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)

    def weight(self, food_hlb: Fraction = FOOD_HLB, water_hlb: Fraction = WATER_HLB) -> Fraction:
        """R100: hlbs in the Load (fractions kept), at the table's weights."""
        m = self.memo
        if (
            m is not None
            and m[0] is self.food
            and m[1] is self.fresh_water
            and m[2] is food_hlb
            and m[3] is water_hlb
        ):
            return m[4]  # type: ignore[no-any-return]
        w = self.food * food_hlb + self.fresh_water * water_hlb
        self.memo = (self.food, self.fresh_water, food_hlb, water_hlb, w)
        return w

    def to_text(self) -> str:
        """The ``ships.stores`` column: JSON, fractions as text."""
        return json.dumps(
            {
                "food": str(self.food),
                "fresh_water": str(self.fresh_water),
                "half_food": self.half_food,
                "half_water": self.half_water,
                "dry_water": str(self.dry_water),
                "dry_food": str(self.dry_food),
                "raft": self.raft,
                "rain_day": self.rain_day,
            },
            sort_keys=True,
        )


def stores_weight(stores: Stores, book: RuleBook) -> Fraction:
    """R100: her stores' hlbs in the Load at the campaign's table's weights."""
    rules = store_rules(book)
    return stores.weight(rules.food_hlb, rules.water_hlb)


def raft_stores_weight(stores: Stores | None, rafts: int, book: RuleBook) -> Fraction:
    """R100: hlbs of the life rafts' emergency stores in the Load (``rafts`` rafts aboard,
    each with ``stores.raft`` person-days of food and of fresh water)."""
    if stores is None or not stores.raft or rafts <= 0:
        return Fraction(0)
    rules = store_rules(book)
    return rafts * stores.raft * (rules.food_hlb + rules.water_hlb)


def raft_launched(stores: Stores | None) -> str | None:
    """R100: the emergency stores a raft launched off a ship with ``stores`` takes with it
    (text for the raft's row), or None when her stores are not counted."""
    if stores is None:
        return None
    return Stores(Fraction(stores.raft), Fraction(stores.raft)).to_text()


def stores_from_text(text: str | None) -> Stores | None:
    """A ``ships.stores`` column read back (None: untracked)."""
    if not text:
        return None
    d = json.loads(text)
    return Stores(
        Fraction(d["food"]),
        Fraction(d["fresh_water"]),
        bool(d.get("half_food")),
        bool(d.get("half_water")),
        Fraction(d.get("dry_water", "0")),
        Fraction(d.get("dry_food", "0")),
        int(d.get("raft", 0)),
        int(d.get("rain_day", -1)),
    )


def days_left(amount: Fraction, people: int, half: bool = False) -> Fraction | None:
    """R101: days ``amount`` person-days last ``people`` (half rations: twice as long);
    None with nobody aboard to use them."""
    if people <= 0:
        return None
    return amount / people * (2 if half else 1)


def as_number(value: Fraction) -> int | float:
    """A person-day count for JSON: whole numbers as int, else a float."""
    return int(value) if value.denominator == 1 else float(value)


def stores_figures(stores: Stores | None, people: int) -> dict[str, Any]:
    """What `ship show`, `status` and `ship list` add for a ship with stores (R100, R101):
    person-days of food and fresh water (exact as text too) and the days each lasts."""
    if stores is None:
        return {}
    food_days = days_left(stores.food, people, stores.half_food)
    water_days = days_left(stores.fresh_water, people, stores.half_water)
    return {
        "food": as_number(stores.food),
        "fresh_water": as_number(stores.fresh_water),
        "food_exact": str(stores.food),
        "fresh_water_exact": str(stores.fresh_water),
        "food_days": None if food_days is None else round(float(food_days), 2),
        "fresh_water_days": None if water_days is None else round(float(water_days), 2),
        "rations": {
            "food": "half" if stores.half_food else "full",
            "fresh_water": "half" if stores.half_water else "full",
        },
        "raft_stores": stores.raft,
        "days_without_water": as_number(stores.dry_water),
        "days_without_food": as_number(stores.dry_food),
    }


def stores_line(fig: dict[str, Any]) -> list[str]:
    """The card's line for a ship with stores (R100-R102), none for an untracked one:
    ``Stores: food 30 person-days (5 days), fresh water 12 person-days (2 days)``."""
    if "food" not in fig:
        return []

    def one(word: str, key: str, rations: str) -> str:
        days = fig[f"{key}_days"]
        lasts = "" if days is None else f" ({days:g} days)"
        half = ", half rations" if rations == "half" else ""
        return f"{word} {fig[key]:g} person-days{lasts}{half}"

    text = "  Stores: " + ", ".join(
        (
            one("food", "food", fig["rations"]["food"]),
            one("fresh water", "fresh_water", fig["rations"]["fresh_water"]),
        )
    )
    if fig.get("raft_stores"):
        text += f"; each life raft {fig['raft_stores']} person-days of each"
    if fig["days_without_water"] or fig["days_without_food"]:
        text += (
            f"; days without fresh water {fig['days_without_water']:g}, "
            f"food {fig['days_without_food']:g} (R102)"
        )
    return [text]
