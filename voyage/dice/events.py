"""Events: what a rule procedure says happened, with the rolls that made it happen (R4).

Procedures in voyage/rules/ are pure functions of (state, roller) that return an
:class:`Outcome` (its rolls, a sentence, the changes) or events; the
engine applies each event's ``changes`` to the ship and writes the event to the log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
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


_BASE_FIELDS = ("kind", "text", "rolls", "changes")


@dataclass(frozen=True)
class Outcome:
    """What a procedure says happened: its rolls, a sentence and the state changes."""

    kind: str
    text: str
    rolls: tuple[Roll, ...]
    changes: Mapping[str, Any]

    def event(self, minute: int = 0) -> Event:
        """The outcome as an :class:`Event` for the log, at ``minute``."""
        return Event(self.kind, self.text, list(self.rolls), minute, dict(self.changes))

    def lines(self) -> list[str]:
        """Each roll (R4) on its own line, then what it means."""
        return [*(r.line() for r in self.rolls), self.text]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record with stable keys: kind, text, rolls, changes, then the
        procedure's own fields."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "text": self.text,
            "rolls": [r.to_dict() for r in self.rolls],
            "changes": _plain(dict(self.changes)),
        }
        for f in dataclasses.fields(self):
            if f.name not in _BASE_FIELDS:
                out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Outcome):
        return value.to_dict()
    if isinstance(value, Roll):
        return value.to_dict()
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
