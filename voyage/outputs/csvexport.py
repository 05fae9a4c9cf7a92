"""The CSV export (for spreadsheets): one row per ship-hour, with the events of that hour.

Events logged after the voyage's last hour row (a referee's act, a fight, a roll applied
between advances) belong to an hour not sailed yet: they get a row of their own at their
hour, with its time, the hex they happened in and the events, the ship's figures left empty
until the next advance writes that hour (then they share its row). So the CSV holds every
event the other exports hold, at any moment of the session.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from voyage.base.escape import csv_cell
from voyage.outputs.chronicle import players_line
from voyage.outputs.export import _clock_of, is_notable
from voyage.tables.calendar import format_time

if TYPE_CHECKING:
    from voyage.outputs.export import VoyageLog

#: The columns of the CSV export, one row per ship-hour, in this order.
CSV_COLUMNS = [
    "voyage",
    "ship",
    "clock",
    "day",
    "hour",
    "time",
    "hex",
    "miles",
    "speed",
    "pace",
    "fuel",
    "load",
    "load_category",
    "water",
    "leaks",
    "status",
    "events",
    "event_text",
]


def csv_rows(log: VoyageLog, audience: str = "referee") -> list[dict[str, Any]]:
    """One dict per ship-hour with :data:`CSV_COLUMNS`, events of that hour counted; an hour
    with events but no hour row yet (after the last advance) has a row of its own.

    For ``audience`` "players" the events are those the players' Markdown tells, in its
    words (voyage.outputs.chronicle.players_line: no routine lines, dice or rulings)."""
    players = audience == "players"
    by_clock: dict[int, list[dict[str, Any]]] = {}
    for event in log.events:
        if players:
            told = players_line(event, log.places) if is_notable(event) else None
            if told is None:
                continue
            event = {**event, "text": told}
        by_clock.setdefault(_clock_of(event), []).append(event)
    sailed = {_clock_of(r): r for r in log.hours}
    # an hour not sailed yet: its clock, day and hour, and the hex of its first event
    waiting = {
        clock: {
            "clock": clock,
            "day": clock // 24 + 1,
            "hour": clock % 24,
            "hex": events[0].get("hex"),
        }
        for clock, events in by_clock.items()
        if clock not in sailed
    }
    rows = []
    for r in sorted([*log.hours, *waiting.values()], key=_clock_of):
        events = by_clock.get(_clock_of(r), [])
        row = {k: r.get(k) for k in CSV_COLUMNS if k in r}
        row.update(
            {
                "voyage": log.id,
                "ship": log.ship,
                "time": format_time(log.calendar, _clock_of(r)),
                "events": len(events),
                "event_text": "; ".join(" ".join(str(e.get("text", "")).split()) for e in events),
            }
        )
        rows.append({k: row.get(k) for k in CSV_COLUMNS})
    return rows


def to_csv(log: VoyageLog, audience: str = "referee") -> str:
    """The hours of the voyage as CSV text with a header row (for players or the referee,
    as :func:`csv_rows`); a text cell that a spreadsheet would take for a formula starts
    with an apostrophe (voyage.base.escape.csv_cell)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(log, audience):
        writer.writerow({k: "" if v is None else csv_cell(v) for k, v in row.items()})
    return buffer.getvalue()
