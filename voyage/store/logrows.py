"""The log rows an advance or a referee action writes: hours and events (R4).

Every event carries the hex it happened in (the log reads on a map, and Datasette
can facet and link by hex): an advance's events take the hex their ship ended that hour in
(the hour rows written beside them), a referee's event the ship's hex now.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from voyage.dice.events import Event, LoggedEvent
from voyage.dice.roller import rolls_json
from voyage.engine.clock import _ENCODER, AdvanceResult, HourRow, dumps
from voyage.store.hourdays import write_hours
from voyage.store.manyrows import insert_many

if TYPE_CHECKING:
    from voyage.store.campaigndb import Action, Campaign

_EVENT_SQL = (
    "INSERT INTO events (action_id, voyage_id, ship, clock, day, hour, minute, kind, text, "
    "rolls, changes, hex) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

__all__ = ["events_between", "log_event", "rolls_json", "write_log"]


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
    """Hour rows (voyage.store.hourdays) and events of an advance (one transaction: an
    error half-way rolls the whole action back, as before)."""
    conn = camp.db.conn
    rows = result.rows
    write_hours(conn, act.id, rows)
    insert_many(conn, _EVENT_SQL, _event_rows(act.id, result.events, _hexes(rows, result.events)))


def _event_rows(aid: int, logged: list[LoggedEvent], hexes: list[Any]) -> Iterator[tuple[Any, ...]]:
    """The parameters of :data:`_EVENT_SQL` for each event, made as they are inserted."""
    for e, where in zip(logged, hexes, strict=True):
        ev, clock = e.event, e.clock
        rolls, changes = ev.rolls, ev.changes
        yield (
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
            "{}" if type(changes) is dict and not changes else _changes_json(changes),
            where,
        )


def _hexes(rows: list[HourRow], logged: list[LoggedEvent]) -> list[Any]:
    """The hex of each event: that of its ship's hour row at its clock (the last such row),
    None without one. An advance's rows come in clock order (its hours one after the
    other): each event's are found by bisection among the rows of its clock, not through a
    table of every ship-hour (a year of ten ships has 87,600 rows for 32,000
    events); rows in any other order are looked up in such a table."""
    if not logged:
        return []
    clocks = [r.clock for r in rows]
    try:
        if clocks == sorted(clocks):
            out: list[Any] = []
            add = out.append
            last: Any = _NONE
            here: dict[Any, Any] = {}
            for e in logged:
                clock = e.clock
                if clock != last:
                    lo = bisect_left(clocks, clock)
                    here = {r.ship: r.hex for r in rows[lo : bisect_right(clocks, clock, lo)]}
                    last = clock
                add(here.get(e.ship))
            return out
    except TypeError:  # clocks that do not compare: the table below
        pass
    hex_at = {(r.ship, r.clock): r.hex for r in rows}
    return [hex_at.get((e.ship, e.clock)) for e in logged]


_NONE = object()


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


# -- reading events for the journal, the map's marks and the fights' stories ------------


def events_between(camp: Campaign, since: int, until: int) -> list[tuple[Any, ...]]:
    """Every event from the hour ``since`` up to (not at) ``until``, in the order they
    happened: (clock, minute, ship, kind, text, rolls, changes)."""
    rows: list[tuple[Any, ...]] = camp.db.execute(
        "SELECT clock, minute, ship, kind, text, rolls, changes FROM events "
        "WHERE clock >= ? AND clock < ? ORDER BY clock, minute, id",
        [since, until],
    ).fetchall()
    return rows


def meeting_events(camp: Campaign, until: int) -> list[dict[str, Any]]:
    """The encounters, fights and rams logged up to the hour ``until``, in the order they
    were logged: kind, changes (as stored), voyage_id."""
    if not camp.db["events"].exists():
        return []
    rows = camp.db.query(
        "SELECT kind, changes, voyage_id FROM events WHERE kind IN ('encounter', 'fight', "
        "'ram') AND clock <= ? ORDER BY id",
        [until],
    )
    return [dict(r) for r in rows]


def voyage_events(camp: Campaign, voyage_id: int) -> Iterator[dict[str, Any]]:
    """The rows of voyage ``voyage_id``'s events as stored, in the order they happened."""
    if not camp.db["events"].exists():
        return iter(())
    return camp.db.query(
        "SELECT * FROM events WHERE voyage_id = ? ORDER BY clock, minute, id", [voyage_id]
    )


def first_action_of_voyage(camp: Campaign, voyage_id: int) -> int | None:
    """The first action that logged an hour or an event of voyage ``voyage_id`` (None if it
    logged none, or the campaign has no log yet)."""
    db = camp.db
    if not all(db[t].exists() for t in ("actions", "events", "hours")):
        return None
    row = db.execute(
        "SELECT min(a) FROM (SELECT min(action_id) AS a FROM events WHERE voyage_id = ? "
        "UNION ALL SELECT min(action_id) FROM hours WHERE voyage_id = ?)",
        [voyage_id, voyage_id],
    ).fetchone()
    return row[0] if row else None


def fight_events(camp: Campaign, fight: int) -> list[dict[str, Any]]:
    """The events tagged with fight ``fight`` (R94), in the order they were logged."""
    rows = camp.db.query(
        "SELECT * FROM events WHERE json_extract(changes, '$.fight') = ? ORDER BY id", [fight]
    )
    return [dict(r) for r in rows]


def events_amid_fight(
    camp: Campaign, first: int, last: int, voyages: list[int]
) -> list[dict[str, Any]]:
    """The events of ``voyages`` logged between the events ``first`` and ``last`` of a
    fight, untagged and not by an advance (a fire or a sinking carried in mid-fight)."""
    marks = ",".join("?" * len(voyages))
    rows = camp.db.query(
        f"SELECT * FROM events WHERE id > ? AND id < ? AND voyage_id IN ({marks}) "  # noqa: S608
        "AND json_extract(changes, '$.fight') IS NULL AND action_id NOT IN "
        "(SELECT id FROM actions WHERE kind = 'advance') ORDER BY id",
        [first, last, *voyages],
    )
    return [dict(r) for r in rows]


def encounter_rows(camp: Campaign, ship: str | None = None) -> list[dict[str, Any]]:
    """Every encounter met (engine checks and checks by hand), oldest first: the event
    rows of kind ``encounter`` with what was met."""
    sql = "SELECT * FROM events WHERE kind = 'encounter'"
    args: list[Any] = []
    if ship:
        sql += " AND ship = ?"
        args.append(camp.get_ship(ship, archived=True).name)
    out = []
    for row in camp.db.query(sql + " ORDER BY clock, minute, id", args):
        found = json.loads(row["changes"] or "{}").get("encounter", {})
        out.append(
            {
                "ship": row["ship"],
                "clock": row["clock"],
                "minute": row["minute"],
                "kind": found.get("kind"),
                "hex": found.get("hex"),
                "terrain": found.get("terrain"),
                "text": found.get("text", row["text"]),
                "encounter": found,
            }
        )
    return out
