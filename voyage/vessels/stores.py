"""Food and fresh water aboard, in person-days (R100-R102, docs/rulings.md "Stores").

A ship's stores are ``None`` until the referee loads some (`voyage ship load SHIP --food N
--fresh-water N`): an untracked ship eats and drinks as the rules before R100 had it, so
ships rolled before stores were counted, and campaigns that never count them, sail exactly as
they did. Once loaded, the counts are kept exactly (fractions: R101 uses 1/24 of a
person-day an hour). "Water" stays the flooding's word (R37); stores are "fresh water".
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
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
    space_person_days: int  #: R100 (our reading): what a built boat's free space holds
    low_days: int  #: R101: at 06:00 a store lasting this many days or fewer runs low


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
            int(t["space_person_days"]),
            int(t["low_days"]),
        )
    return found


class Stores:
    """What a ship carries to eat and drink (R100), and how her people stand (R101-R102).

    Food and fresh water are exact person-days (``food``, ``fresh_water``: Fractions in and
    out), kept as whole numbers of a common part of a person-day (``1/parts``): an hour's
    use is then a subtraction of whole numbers. Once the engine names the table's weights
    (:meth:`weigh_by`), :attr:`whole_hlbs` holds the weight in whole hlbs (with her life
    rafts' emergency stores, when the engine names them), kept up to date as the counts
    change (the engine reads it every hour of every ship that counts them)."""

    __slots__ = (
        "_parts",
        "_food",
        "_water",
        "_half_food",
        "_half_water",
        "dry_water",
        "dry_food",
        "raft",
        "rain_day",
        "weighed_by",
        "whole_hlbs",
        "_food_coef",
        "_water_coef",
        "_divisor",
        "_extra",
        "_extra_hlb",
        "_use",
        "_weighed",
    )

    def __init__(
        self,
        food: Fraction | int = Fraction(0),
        fresh_water: Fraction | int = Fraction(0),
        half_food: bool = False,
        half_water: bool = False,
        dry_water: Fraction = Fraction(0),
        dry_food: Fraction = Fraction(0),
        raft: int = 0,
        rain_day: int = -1,
    ) -> None:
        self._parts = 1  #: the part of a person-day the counts below are whole numbers of
        self._food = 0  #: food in parts
        self._water = 0  #: fresh water in parts
        #: (people, hourly, food parts, water parts, their weight) of :meth:`hour_use`; None
        #: once the rations, the parts or the weights change
        self._use: tuple[int, Fraction, int, int, int] | None = None
        self._half_food = half_food
        self._half_water = half_water
        self.dry_water = dry_water  #: R102: days without water, counted at 06:00
        self.dry_food = dry_food  #: R102: days without food
        self.raft = raft  #: R100: person-days of each in every life raft's emergency stores
        self.rain_day = rain_day  #: R103: the day (clock // 24) rain last refilled her water
        #: the (food hlb, water hlb) :attr:`whole_hlbs` is reckoned at (:meth:`weigh_by`)
        self.weighed_by: tuple[Fraction, Fraction] | None = None
        self.whole_hlbs = 0  #: R100: the weight in whole hlbs, at :attr:`weighed_by`
        # whole_hlbs = _weighed // divisor, where _weighed is
        # food parts * food coef + water parts * water coef + extra (0 until weigh_by)
        self._food_coef = self._water_coef = self._extra = self._weighed = 0
        self._divisor = 1
        self._extra_hlb = Fraction(0)  #: hlbs weighed with the stores (:meth:`weigh_by`)
        self.food = food
        self.fresh_water = fresh_water

    # -- the counts, exact ---------------------------------------------------------------
    def _fit(self, denominator: int) -> None:
        """Make ``1/denominator`` of a person-day a whole number of parts."""
        parts = self._parts
        if parts % denominator:
            more = denominator // math.gcd(parts, denominator)
            self._parts = parts * more
            self._food *= more
            self._water *= more
            self._use = None
            if self.weighed_by is not None:
                self.weigh_by(self.weighed_by, self._extra_hlb)

    def _parts_of(self, value: Fraction | int) -> int:
        """``value`` person-days in parts (finer parts first if it needs them)."""
        if type(value) is int:
            return value * self._parts
        if type(value) is not Fraction:
            value = Fraction(value)
        denominator = value.denominator
        if self._parts % denominator:
            self._fit(denominator)
        return value.numerator * (self._parts // denominator)

    def _reweigh(self) -> None:
        weighed = self._food * self._food_coef + self._water * self._water_coef + self._extra
        self._weighed = weighed
        self.whole_hlbs = weighed // self._divisor

    @property
    def food(self) -> Fraction:
        """R100: person-days of food aboard."""
        return Fraction(self._food, self._parts)

    @food.setter
    def food(self, value: Fraction | int) -> None:
        self._food = self._parts_of(value)
        self._reweigh()

    @property
    def fresh_water(self) -> Fraction:
        """R100: person-days of fresh water aboard."""
        return Fraction(self._water, self._parts)

    @fresh_water.setter
    def fresh_water(self, value: Fraction | int) -> None:
        self._water = self._parts_of(value)
        self._reweigh()

    def add_fresh_water(self, value: Fraction | int) -> None:
        """``value`` person-days of fresh water taken on (R103), exact."""
        self._water += self._parts_of(value)
        self._reweigh()

    @property
    def half_food(self) -> bool:
        """R101: half rations of food."""
        return self._half_food

    @half_food.setter
    def half_food(self, value: bool) -> None:
        self._half_food = value
        self._use = None

    @property
    def half_water(self) -> bool:
        """R101: half rations of fresh water."""
        return self._half_water

    @half_water.setter
    def half_water(self, value: bool) -> None:
        self._half_water = value
        self._use = None

    @property
    def has_food(self) -> bool:
        """Any food left (no Fraction made)."""
        return self._food > 0

    @property
    def has_water(self) -> bool:
        """Any fresh water left (no Fraction made)."""
        return self._water > 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stores):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # (mutable, as the dataclass it was)

    def _key(self) -> tuple[Any, ...]:
        return (
            self.food,
            self.fresh_water,
            self.half_food,
            self.half_water,
            self.dry_water,
            self.dry_food,
            self.raft,
            self.rain_day,
        )

    def __repr__(self) -> str:
        return (
            f"Stores(food={self.food!r}, fresh_water={self.fresh_water!r}, "
            f"half_food={self.half_food!r}, half_water={self.half_water!r}, "
            f"dry_water={self.dry_water!r}, dry_food={self.dry_food!r}, raft={self.raft!r}, "
            f"rain_day={self.rain_day!r})"
        )

    # -- an hour's use and the weight, in whole parts --------------------------------------
    def hour_use(self, people: int, hourly: Fraction) -> tuple[int, int]:
        """R101: the parts of food and of fresh water ``people`` use in an hour (half
        rations: half), ``hourly`` person-days a head an hour."""
        use = self._use
        if use is None or use[0] != people or use[1] is not hourly:
            use = self._hour_use(people, hourly)
        return use[2], use[3]

    def _hour_use(self, people: int, hourly: Fraction) -> tuple[int, Fraction, int, int, int]:
        self._fit(2 * hourly.denominator)  # an hour at half rations in whole parts
        need = people * hourly.numerator * (self._parts // hourly.denominator)
        food = need // 2 if self._half_food else need
        water = need // 2 if self._half_water else need
        use = self._use = (
            people, hourly, food, water, food * self._food_coef + water * self._water_coef
        )  # fmt: skip
        return use

    def use_parts(self, food: int, water: int) -> list[str]:
        """Take ``food`` and ``water`` parts (:meth:`hour_use`) from what is left, never below
        0; the stores that ran out ("fresh water", "food")."""
        out: list[str] = []
        if self._water > 0:
            self._water -= water
            if self._water <= 0:
                self._water = 0
                out.append("fresh water")
        if self._food > 0:
            self._food -= food
            if self._food <= 0:
                self._food = 0
                out.append("food")
        self._reweigh()
        return out

    def both_last_over(self, days: int, people: int) -> bool:
        """Food and fresh water each last ``people`` more than ``days`` days at full rations
        (R101; in whole parts, no Fraction made)."""
        need = days * people * self._parts
        return self._food > need and self._water > need

    def quiet_hour(self, people: int, hourly: Fraction) -> bool:
        """R101: an hour's use by ``people`` taken when no store runs out in it (True);
        else nothing is taken (False: :func:`voyage.rules.stores.use_hour` logs it, and
        with nobody aboard there is nothing to take)."""
        use = self._use
        if use is None or use[0] != people or use[1] is not hourly:
            if people <= 0:
                return False
            use = self._hour_use(people, hourly)
        food, water = self._food, self._water
        if food > use[2] and water > use[3]:  # (the common hour: both last it)
            self._food, self._water = food - use[2], water - use[3]
            weighed = self._weighed - use[4]
            self._weighed = weighed
            self.whole_hlbs = weighed // self._divisor
            return True
        if 0 < water <= use[3] or 0 < food <= use[2]:
            return False  # one runs out this hour
        if water > 0:  # (a store already gone takes nothing)
            self._water = water - use[3]
        if food > 0:
            self._food = food - use[2]
        self._reweigh()
        return True

    def weigh_by(self, hlbs: tuple[Fraction, Fraction], extra: Fraction = Fraction(0)) -> None:
        """Keep :attr:`whole_hlbs` at these weights of a person-day of food and of fresh
        water (R100: the campaign's table's), ``extra`` hlbs with them (R100: her life
        rafts' emergency stores)."""
        food_hlb, water_hlb = hlbs
        common = math.lcm(food_hlb.denominator, water_hlb.denominator, extra.denominator)
        self._food_coef = food_hlb.numerator * (common // food_hlb.denominator)
        self._water_coef = water_hlb.numerator * (common // water_hlb.denominator)
        self._extra = extra.numerator * (common // extra.denominator) * self._parts
        self._extra_hlb = extra
        self._divisor = self._parts * common
        self.weighed_by = hlbs
        self._use = None  # (its weight)
        self._reweigh()

    def weight(self, food_hlb: Fraction = FOOD_HLB, water_hlb: Fraction = WATER_HLB) -> Fraction:
        """R100: hlbs in the Load (fractions kept), at the table's weights."""
        return self._food * food_hlb / self._parts + self._water * water_hlb / self._parts

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


def said(value: Fraction | float) -> str:
    """A count of person-days (or days) as the referee reads it: 12, 8.75, 98.3, 1102;
    three figures, never a power of ten (``1.1e+03`` read as nonsense at the table)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.3g}"
    return f"{float(value):.0f}" if "e" in text else text


def days_said(days: Fraction | float) -> str:
    """Days as the referee reads them, to the hundredth as the JSON gives them: "1 day",
    "0.51 days", "16.67 days"."""
    return "1 day" if days == 1 else f"{round(float(days), 2):g} days"


def person_days_said(amount: Fraction | float) -> str:
    """Person-days as the referee reads them: "1 person-day", "46.2 person-days"."""
    return "1 person-day" if amount == 1 else f"{said(amount)} person-days"


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
        lasts = "" if days is None else f" ({days_said(days)})"
        half = ", half rations" if rations == "half" else ""
        return f"{word} {person_days_said(fig[key])}{lasts}{half}"

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
            f"; days without fresh water {said(fig['days_without_water'])}, "
            f"food {said(fig['days_without_food'])} (R102)"
        )
    return [text]
