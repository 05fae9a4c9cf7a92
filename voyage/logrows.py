"""The log rows an advance or a referee action writes: hours and events (R4).

Every event carries the hex it happened in (issue 15: the log reads on a map, and Datasette
can facet and link by hex): an advance's events take the hex their ship ended that hour in
(the hour rows written beside them), a referee's event the ship's hex now.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .dice import Roll
from .engine import _ENCODER, AdvanceResult, dumps
from .events import Event
from .hourdays import write_hours

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


def _one_shot_encoder() -> Callable[[Any], str] | None:
    """:func:`dumps` with its C encoder made once, not on every call (JSONEncoder.encode
    builds one per value: most of the time of encoding a small dict); the same settings,
    so the same bytes. None where json has no C speedups."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    enc = _ENCODER
    strings = (
        json.encoder.encode_basestring_ascii if enc.ensure_ascii else json.encoder.encode_basestring
    )
    # no circular-reference markers: changes are plain data (a cycle would recurse and fail)
    one = make(
        None,
        enc.default,
        strings,
        None,
        enc.key_separator,
        enc.item_separator,
        enc.sort_keys,
        enc.skipkeys,
        enc.allow_nan,
    )
    return lambda value: "".join(one(value, 0))


_ENCODE = _one_shot_encoder() or dumps


def _changes_json(changes: Any) -> str:
    """An event's changes as :func:`dumps` writes them; most events change nothing ("{}")."""
    if type(changes) is dict:
        return _ENCODE(changes) if changes else "{}"
    return dumps(changes)


def write_log(camp: Campaign, act: Action, result: AdvanceResult) -> None:
    """Hour rows (voyage.hourdays) and events of an advance, with executemany (one
    transaction)."""
    conn = camp.db.conn
    write_hours(conn, act.id, result.rows)
    hex_at = {(r.ship, r.clock): r.hex for r in result.rows}
    aid = act.id
    events = []
    for e in result.events:
        ev, clock = e.event, e.clock
        rolls = ev.rolls
        events.append(
            (
                aid,
                e.voyage_id,
                e.ship,
                clock,
                clock // 24 + 1,
                clock % 24,
                ev.minute,
                ev.kind,
                ev.text,
                rolls_json(rolls) if rolls else "[]",
                _changes_json(ev.changes),
                hex_at.get((e.ship, clock)),
            )
        )
    conn.executemany(_EVENT_SQL, events)


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
