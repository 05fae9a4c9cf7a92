"""The log rows an advance or a referee action writes: hours and events (R4).

Every event carries the hex it happened in (issue 15: the log reads on a map, and Datasette
can facet and link by hex): an advance's events take the hex their ship ended that hour in
(the hour rows written beside them), a referee's event the ship's hex now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dice import Roll
from .engine import AdvanceResult, dumps
from .events import Event

if TYPE_CHECKING:
    from .store import Action, Campaign

_EVENT_SQL = (
    "INSERT INTO events (action_id, voyage_id, ship, clock, day, hour, minute, kind, text, "
    "rolls, changes, hex) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def rolls_json(rolls: list[Roll]) -> str:
    """An event's rolls as the log stores them: the same bytes as ``dumps([r.to_dict() ...])``
    but each record encodes itself (a drowning roll from a template, voyage.rules.water)."""
    return "[" + ",".join([r.to_json() for r in rolls]) + "]"


def _changes_json(changes: Any) -> str:
    """An event's changes as :func:`dumps` writes them; most events change nothing ("{}")."""
    return "{}" if type(changes) is dict and not changes else dumps(changes)


def write_log(camp: Campaign, act: Action, result: AdvanceResult) -> None:
    """Hour rows and events of an advance, with executemany (one transaction)."""
    conn = camp.db.conn
    conn.executemany(
        "INSERT INTO hours (action_id, voyage_id, ship, clock, day, hour, hex, miles, speed, "
        "pace, fuel, load, load_category, water, leaks, status) VALUES "
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                act.id,
                r.voyage_id,
                r.ship,
                r.clock,
                r.clock // 24 + 1,
                r.clock % 24,
                r.hex,
                r.miles,
                r.speed,
                r.pace,
                r.fuel,
                r.load,
                r.load_category,
                r.water,
                r.leaks,
                r.status,
            )
            for r in result.rows
        ],
    )
    hex_at = {(r.ship, r.clock): r.hex for r in result.rows}
    conn.executemany(
        _EVENT_SQL,
        [
            (
                act.id,
                e.voyage_id,
                e.ship,
                e.clock,
                e.clock // 24 + 1,
                e.clock % 24,
                e.event.minute,
                e.event.kind,
                e.event.text,
                rolls_json(e.event.rolls),
                _changes_json(e.event.changes),
                hex_at.get((e.ship, e.clock)),
            )
            for e in result.events
        ],
    )


def log_event(
    camp: Campaign, act: Action, ship: str | None, voyage_id: int | None, event: Event
) -> None:
    """One event written by a referee action, at the campaign clock, in the ship's hex."""
    clock = camp.clock
    where = None
    if ship is not None:
        row = camp.db.execute("SELECT hex FROM ships WHERE name = ?", [ship]).fetchone()
        where = row[0] if row else None
    camp.db.execute(
        _EVENT_SQL,
        [
            act.id,
            voyage_id,
            ship,
            clock,
            clock // 24 + 1,
            clock % 24,
            event.minute,
            event.kind,
            event.text,
            rolls_json(event.rolls),
            dumps(event.changes),
            where,
        ],
    )
