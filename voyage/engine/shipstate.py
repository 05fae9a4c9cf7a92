"""A ship at sea and her voyage (:class:`ShipState`), what :mod:`voyage.engine.clock` steps,
and what each of her hours leaves (:class:`HourRow`, a row of the ``hours`` table): the
engine's data, apart from the engine that changes it, so that every phase of the hour
(voyage.engine.quickhour, voyage.engine.towing, the store) can name it without importing
the clock. voyage.engine.clock imports and re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any

from voyage.vessels.vessel import Ship

#: Voyage statuses of a ship the engine moves or keeps an eye on.
OPEN_STATUSES = ("under way", "anchored", "stuck", "adrift", "under tow")
#: Voyage statuses that end a voyage.
CLOSED_STATUSES = ("arrived", "sunk", "abandoned")
#: The minutes of an hour, stepped one by one in an emergency (R52).
MINUTES = 60


@dataclass
class ShipState:
    """A ship at sea and its voyage: what the engine steps.

    The ship's own figures (fuel, water, cargo, engine) live on :attr:`ship`; the voyage's
    position and emergencies here. :meth:`extra` is what the ``voyages.state`` JSON holds.
    """

    ship: Ship
    voyage_id: int
    route: Sequence[str]
    position: int = 0
    progress: int = 0
    inshore: Sequence[bool] = field(default_factory=list)
    status: str = "under way"
    pace: str = "normal"
    strain: int = 0
    # extra state (voyages.state JSON)
    leaks: list[int] = field(default_factory=list)
    fire: int = 0
    fire_crew: int | None = None
    fire_since: int | None = None
    swallow_in: int | None = None
    sinking_in: int | None = None
    sinking_since: int | None = None
    sinking_cause: str | None = None
    listing: bool = False
    listing_since: int | None = None
    capsized: bool = False
    destroyed: bool = False
    hours_in_hex: int = 0
    storm_hours: int = 0  # R32/R60: storm hours in this hex since entry, arrival or Check
    drift_miles: str = "0"  # R64: miles drifted toward the next hex downstream (a fraction)
    current_carry: str = "0"  # R64: the part of a knot the current left over last hour
    searching: bool = False  # R74: she has stopped to search her hex
    water_rolls: int = 0  # R85: the highest water level whose plant roll is made
    new_leaks: list[tuple[int, int]] = field(default_factory=list, repr=False)

    #: R83-R86 (voyage.rules.hourly): grounding speed, leak work, salvage, depth passed
    more: dict[str, Any] = field(default_factory=dict)

    EXTRA = (
        "leaks",
        "fire",
        "fire_crew",
        "fire_since",
        "swallow_in",
        "sinking_in",
        "sinking_since",
        "sinking_cause",
        "listing",
        "listing_since",
        "capsized",
        "destroyed",
        "hours_in_hex",
        "storm_hours",
        "drift_miles",
        "current_carry",
        "searching",
        "water_rolls",
        "more",
    )

    def extra(self) -> dict[str, Any]:
        """The engine's per-ship state beyond the voyage columns, every key."""
        data = {k: getattr(self, k) for k in self.EXTRA}
        data["leaks"] = list(self.leaks)
        data["stuck"] = self.status == "stuck"
        data["emergency"] = self.emergency
        return data

    def stored_extra(self) -> dict[str, Any]:
        """What ``voyages.state`` keeps: only what differs from a new voyage's
        (:meth:`set_extra` leaves the rest at its default), so the hourly update of a quiet
        voyage, and its undo journal entry, stay a few bytes."""
        data = {k: v for k in self.EXTRA if (v := getattr(self, k)) != EXTRA_DEFAULTS[k]}
        if self.leaks:
            data["leaks"] = list(self.leaks)
        if self.status == "stuck":
            data["stuck"] = True
        if self.emergency:
            data["emergency"] = True
        return data

    def set_extra(self, data: dict[str, Any]) -> None:
        for key in self.EXTRA:
            if key in data:
                setattr(self, key, data[key])
        self.leaks = list(self.leaks)
        self.more = dict(self.more)

    # -- the changes the rules make; the engine and `voyage roll --apply` both use these --
    def open_leak(self, hlbs_per_hour: int) -> None:
        """R36: the hull takes on this many hlbs of water an hour from now on; leaks add up."""
        self.leaks.append(hlbs_per_hour)

    def catch_fire(self, severity: int, now: int, swallowed_in: int | None = None) -> None:
        """R50: the worse fire burns from the minute after ``now``; out of control, it
        swallows the ship in ``swallowed_in`` minutes."""
        self.fire = max(self.fire, severity)
        self.fire_since = now
        if swallowed_in is not None:
            self.swallow_in = swallowed_in

    def start_sinking(self, minutes: int, now: int, cause: str) -> None:
        """R40: she submerges ``minutes`` after ``now`` unless the crew save her."""
        self.sinking_in = minutes
        self.sinking_since = now
        self.sinking_cause = cause

    @property
    def emergency(self) -> bool:
        """A fire, a listing or a sinking is under way: the hour runs minute by minute."""
        return bool(
            self.fire or self.swallow_in is not None or self.sinking_in is not None or self.listing
        )

    @property
    def in_trouble(self) -> bool:
        """R36: a leak, fire, listing or sinking: it runs in port as at sea until dealt with."""
        return bool(self.leaks) or self.emergency

    @property
    def active(self) -> bool:
        """Whether the engine steps this ship: an open voyage, or trouble aboard (R36)."""
        if self.status in ("sunk", "abandoned"):
            return False
        return self.status in OPEN_STATUSES or self.in_trouble

    @property
    def condition(self) -> str:
        """The voyage status, or what is wrong aboard (for the hour rows and the status
        table): sinking, capsized, on fire, listing."""
        if self.status in ("sunk", "abandoned"):
            return self.status
        if self.sinking_in is not None:
            return "sinking"
        if self.capsized:
            return "capsized"
        if self.fire or self.swallow_in is not None:
            return "on fire"
        if self.listing:
            return "listing"
        depth = self.ship.equipment.get("depth_ft")  # R84: the status line and log say it
        base = f"{self.status}, {depth} ft down" if depth else self.status
        return f"{base}, searching" if self.searching else base  # R74: she has stopped

    @property
    def destination(self) -> str:
        return self.route[-1]

    @property
    def hex(self) -> str:
        return self.route[self.position]


#: The value each of ShipState.EXTRA has on a new voyage (what extra() leaves out).
EXTRA_DEFAULTS: dict[str, Any] = {
    f.name: f.default_factory() if f.default_factory is not MISSING else f.default
    for f in fields(ShipState)
    if f.name in ShipState.EXTRA
}


@dataclass(slots=True)
class HourRow:
    """One ship's hour, as the ``hours`` table stores it."""

    voyage_id: int
    ship: str
    clock: int
    hex: str
    miles: int
    speed: int
    pace: str
    fuel: int | float
    load: int | float
    load_category: str
    water: int
    leaks: int
    status: str

    @property
    def day(self) -> int:
        return self.clock // 24 + 1

    @property
    def hour(self) -> int:
        return self.clock % 24

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["day"], data["hour"] = self.day, self.hour
        return data
