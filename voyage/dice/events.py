"""Events: what a rule procedure says happened, with the rolls that made it happen (R4).

Procedures in voyage/rules/ are pure functions of (state, roller) that return events; the
engine applies each event's ``changes`` to the ship and writes the event to the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from voyage.dice.roller import Roll


@dataclass
class Event:
    """One thing that happened to a ship, in the referee's words, with its rolls."""

    kind: str
    text: str
    rolls: list[Roll] = field(default_factory=list)
    minute: int = 0
    changes: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "minute": self.minute,
            "rolls": [r.to_dict() for r in self.rolls],
            "changes": dict(self.changes),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        return cls(
            kind=data["kind"],
            text=data["text"],
            minute=data.get("minute", 0),
            rolls=[Roll.from_dict(r) for r in data.get("rolls", [])],
            changes=dict(data.get("changes", {})),
        )


@dataclass(slots=True)
class LoggedEvent:
    """An event of one ship in one hour (its minute is on the :class:`Event`)."""

    voyage_id: int | None
    ship: str
    clock: int
    event: Event
    halt: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "voyage_id": self.voyage_id,
            "ship": self.ship,
            "clock": self.clock,
            "day": self.clock // 24 + 1,
            "hour": self.clock % 24,
            "minute": self.event.minute,
            "kind": self.event.kind,
            "text": self.event.text,
            "rolls": [r.to_dict() for r in self.event.rolls],
            "changes": self.event.changes,
            "halt": self.halt,
        }
