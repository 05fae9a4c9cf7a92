"""The JSON export of a voyage log (for tools): every hour row and event with its rolls, the
ship's figures and the summary, and its JSON Schema (checked by ``voyage export --validate``
and by the tests), built on the voyage's log as voyage.outputs.export reads it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from voyage import __version__
from voyage.base.escape import json_text as escaped_json
from voyage.base.paths import schemas_dir
from voyage.outputs.chronicle import players_line
from voyage.outputs.export import (
    JSON_VERSION,
    SCHEMA_FILE,
    ExportError,
    VoyageLog,
    _clock_of,
    ending_minute,
    event_time,
    is_notable,
    summary,
)
from voyage.tables.calendar import format_time


def to_json(log: VoyageLog, audience: str = "referee") -> dict[str, Any]:
    """Every hour row and event with its rolls, the ship's figures and the summary; for
    ``audience`` "players" the events the players' Markdown tells, in its words, with no
    rolls and no rulings' changes (voyage.outputs.chronicle.players_line)."""
    v = log.voyage
    voyage: dict[str, Any] = {
        "id": log.id,
        "ship": log.ship,
        "origin": v.get("origin"),
        "destination": v.get("destination"),
        "route": v.get("route") if isinstance(v.get("route"), list) else [],
        "position": v.get("position"),
        "progress_miles": v.get("progress_miles"),
        "inshore": v.get("inshore"),
        "pace": v.get("pace"),
        "strain": v.get("strain"),
        "status": v.get("status"),
        "started": v.get("started"),
        "ended": v.get("ended"),
        "started_time": format_time(log.calendar, v.get("started"))
        if v.get("started") is not None
        else None,
        "ended_time": format_time(log.calendar, v.get("ended"))
        if v.get("ended") is not None
        else None,
        # the minute she sank or arrived (ended_time names the hour, as it always has)
        "ended_minute": ending_minute(log),
    }
    # machine fields stay numbers (clock, day, hour, minute); "time" is the text people read
    hours = []
    for r in log.hours:
        hour = {k: r.get(k) for k in _HOUR_FIELDS}
        hour["time"] = format_time(log.calendar, _clock_of(r))
        hours.append(hour)
    players = audience == "players"
    events = []
    for e in log.events:
        told = players_line(e, log.places) if players and is_notable(e) else None
        if players and told is None:
            continue
        events.append(
            {
                **{k: e.get(k) for k in _EVENT_FIELDS},
                "time": event_time(log, e),
                "rolls": [] if players else list(e["rolls"]),
                "changes": {} if players else dict(e["changes"]),
            }
        )
        if told is not None:
            events[-1]["text"] = told
    told_summary = summary(log)
    if players:
        told_summary = {**told_summary, "events": len(events), "rolls": 0}
    return {
        "version": JSON_VERSION,
        "generator": f"voyage {__version__}",
        "campaign": log.campaign,
        "ship": dict(log.figures),
        "voyage": voyage,
        "summary": told_summary,
        "hours": hours,
        "events": events,
        "people": [dict(p) for p in log.people],
    }


_HOUR_FIELDS = (
    "id",
    "action_id",
    "voyage_id",
    "ship",
    "clock",
    "day",
    "hour",
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
)
_EVENT_FIELDS = (
    "id",
    "action_id",
    "voyage_id",
    "ship",
    "clock",
    "day",
    "hour",
    "minute",
    "kind",
    "text",
)


def schema_path() -> Path:
    """The JSON Schema of the JSON export, shipped in the package."""
    return schemas_dir() / SCHEMA_FILE


def load_schema() -> dict[str, Any]:
    """The JSON export's schema as a dict."""
    return json.loads(schema_path().read_text(encoding="utf-8"))


def validate(data: dict[str, Any]) -> None:
    """Check a JSON export against the shipped schema; raise :class:`ExportError` if not."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(load_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(top)"
        raise ExportError(f"the JSON export does not match its schema at {where}: {first.message}")


def json_text(log: VoyageLog, check: bool = False, audience: str = "referee") -> str:
    """The JSON export as text; with ``check``, validated against the schema first.

    The check (``voyage export --validate``) walks every row through jsonschema, which costs
    more than the export itself on a long voyage, so it is asked for, not done every time;
    the tests validate the exports the code writes.
    """
    data = to_json(log, audience)
    if check:
        validate(data)

    return escaped_json(data) + "\n"
