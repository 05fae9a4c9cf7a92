"""Voyage logs as Markdown (for players), JSON (for tools), CSV (for spreadsheets) and PNG.

Everything here reads the log tables the engine writes (``voyages``, ``hours``, ``events``)
and never changes the campaign. :func:`load_voyage` gathers one voyage into a
:class:`VoyageLog`; the ``to_*`` functions turn it into text; :func:`write_exports` writes
the files a referee asked for, and nothing else (R4: every roll is in the log, so every roll
is in the exports, unless the referee chooses to fold or hide them in the Markdown).

The exports carry no wall-clock time, so the same campaign, the same commands and the same
seed give byte-for-byte the same files (R5).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from voyage import __version__
from voyage.base.errors import VoyageError
from voyage.dice.roller import Roll
from voyage.outputs.chronicle import STUCK_TEXT
from voyage.outputs.csvexport import CSV_COLUMNS, csv_rows, to_csv  # noqa: F401 (the CSV export, there)
from voyage.rules.emergency import count_ends_at
from voyage.store.hourdays import read_hours
from voyage.tables.calendar import format_time

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap
    from voyage.store.campaign import Campaign
    from voyage.vessels.vessel import Ship

#: The JSON export's format version; bump it when a field changes meaning or goes away.
JSON_VERSION = "1"
SCHEMA_FILE = "voyage-log.schema.json"
FORMATS = ("md", "html", "json", "csv", "png")
RollsMode = Literal["shown", "folded", "none"]
ROLLS_MODES: tuple[str, ...] = ("shown", "folded", "none")

#: Event kinds not marked on the picture unless they changed something (R32, R33 checks
#: that came to nothing, the order to sail).
QUIET_KINDS = frozenset({"sail", "coast", "capsize"})
_JSON_COLUMNS_VOYAGES = ("state",)


class ExportError(VoyageError):
    """A voyage cannot be exported: no such voyage, a file in the way, a bad format."""


@dataclass
class VoyageLog:
    """One voyage with everything the exports need, JSON columns already decoded (read
    only: events whose rolls were stored as the same text share one decoded list)."""

    campaign: str
    ship: str
    voyage: dict[str, Any]
    hours: list[dict[str, Any]]
    events: list[dict[str, Any]]
    figures: dict[str, Any]
    storms: list[str] = field(default_factory=list)
    places: dict[str, str] = field(default_factory=dict)
    #: the campaign's calendar (voyage.tables.calendar): every time is written with format_time
    calendar: Any = None
    #: R71-R74: everyone who left the ship on this voyage (voyage.actions.people.fate_rows)
    people: list[dict[str, Any]] = field(default_factory=list)
    #: R94: the events of every fight of the voyage (voyage.outputs.fightstory.fights_of)
    fights: list[list[dict[str, Any]]] = field(default_factory=list)
    #: which of the ship's voyages this is (voyage.base.voyagenames; 0: not known)
    nth: int = 0
    #: the campaign's clock (hours) when read: when a ship left sinking goes under (R40)
    clock: int | None = None

    @property
    def id(self) -> int:
        return int(self.voyage["id"])


# ----------------------------------------------------------------------------- reading


def _decode(row: dict[str, Any], columns: Iterable[str]) -> dict[str, Any]:
    out = dict(row)
    for col in columns:
        value = out.get(col)
        if isinstance(value, str):
            # a plain string stays a string: the export shows what is stored
            with contextlib.suppress(json.JSONDecodeError):
                out[col] = json.loads(value)
    return out


def _events_of(camp: Campaign, voyage_id: int) -> list[dict[str, Any]]:
    """The voyage's events in order, their changes decoded ({} if not a dict) and their
    rolls too ([] if not a list). Rolls stored as the same text are decoded once and shared
    (a long voyage repeats a few hundred roll records thousands of times; issue 14.4), which
    also lets the JSON export write each shared record's text once (voyage.base.jsontext)."""
    if not camp.db["events"].exists():
        return []
    decoded: dict[str, list[Any]] = {}
    events = []
    for row in camp.db.query(
        "SELECT * FROM events WHERE voyage_id = ? ORDER BY clock, minute, id", [voyage_id]
    ):
        event = _decode(row, ("changes",))
        text = event.get("rolls")
        if not isinstance(text, str):
            event["rolls"] = []
        else:
            if text not in decoded:
                decoded[text] = _rolls_of(text)
            event["rolls"] = decoded[text]
        if not isinstance(event.get("changes"), dict):
            event["changes"] = {}
        events.append(event)
    return events


def _rolls_of(text: str) -> list[Any]:
    """A stored rolls text decoded; [] if it is not JSON or not a list."""
    with contextlib.suppress(json.JSONDecodeError):
        value = json.loads(text)
        if isinstance(value, list):
            return value
    return []


def voyages_of(camp: Campaign, ship: str) -> list[dict[str, Any]]:
    """The voyages of ``ship`` (any case), oldest first; [] if the campaign has none."""
    if not camp.db["voyages"].exists():
        return []
    from voyage.map.routetext import inshore_from_text, route_from_text
    from voyage.store.voyagerows import VOYAGE_SELECT

    rows = camp.db.query(f"{VOYAGE_SELECT} WHERE v.ship = ? COLLATE NOCASE ORDER BY v.id", [ship])
    out = []
    for r in rows:
        row = _decode(r, _JSON_COLUMNS_VOYAGES)
        # the route and its inshore flags are text since m106 (voyage.map.routetext)
        row["route"] = route_from_text(row["route"])
        row["inshore"] = inshore_from_text(row["inshore"])
        out.append(row)
    return out


def load_voyage(camp: Campaign, ship: str, voyage_id: int | None = None) -> VoyageLog:
    """Gather one voyage of ``ship`` (its latest unless ``voyage_id`` is given)."""
    from voyage.actions.people import fate_rows
    from voyage.outputs.fightstory import fights_of
    from voyage.tables.calendar import campaign_calendar
    from voyage.vessels.ships import figures

    found = camp.get_ship(ship, archived=True)  # an unknown ship fails here with the ship list
    voyages = voyages_of(camp, found.name)
    if not voyages:
        raise ExportError(
            f"{found.name} has made no voyage yet: sail one first "
            f"(`voyage sail {_quote(found.name)} --to HEX`)"
        )
    if voyage_id is None:
        voyage = voyages[-1]
    else:
        matching = [v for v in voyages if int(v["id"]) == voyage_id]
        if not matching:
            known = ", ".join(str(v["id"]) for v in voyages)
            raise ExportError(f"{found.name} has no voyage {voyage_id} (its voyages: {known})")
        voyage = matching[0]
    vid = int(voyage["id"])
    # SELECT * FROM hours WHERE voyage_id = ? ORDER BY clock, id (voyage.store.hourdays, m102)
    hours = read_hours(camp.db.conn, "WHERE voyage_id = ?", [vid])
    events = _events_of(camp, vid)
    departure = ship_at_departure(camp, found.name, vid)
    raw_state = voyage.get("state")
    state: dict[str, Any] = raw_state if isinstance(raw_state, dict) else {}
    if departure is not None and _fuel_key(state) is None:
        from voyage.base.text import plain
        from voyage.vessels.ships import aboard

        state = {**state, "fuel_at_start": plain(aboard(departure))}  # R82: exact charge
        voyage = {**voyage, "state": state}
    return VoyageLog(
        campaign=camp.name,
        ship=found.name,
        voyage=voyage,
        hours=hours,
        events=events,
        figures=figures(departure or found, camp.rulebook, camp.water_in_load),
        storms=storms_during(camp, hours),
        places=port_names(camp, voyage),
        calendar=campaign_calendar(camp),
        people=fate_rows(camp, vid),
        fights=fights_of(camp.db, events),
        nth=[int(v["id"]) for v in voyages].index(vid) + 1,
        clock=camp.clock,
    )


def port_names(camp: Campaign, voyage: dict[str, Any]) -> dict[str, str]:
    """hex -> port name for the ports on the voyage's route (when a map is loaded)."""
    sea_map = sea_map_for(camp)
    raw_route = voyage.get("route")
    route: list[Any] = raw_route if isinstance(raw_route, list) else []
    names: dict[str, str] = {}
    if sea_map is None:
        return names
    for hex_name in {
        str(h) for h in [*route, voyage.get("origin"), voyage.get("destination")] if h
    }:
        if sea_map.in_bounds(hex_name) and sea_map.hex(hex_name).port:
            names[hex_name] = str(sea_map.hex(hex_name).port)
    return names


def ship_at_departure(camp: Campaign, name: str, voyage_id: int) -> Ship | None:
    """The ship as she was when the voyage set sail, or None.

    Rebuilt from the undo journal of the voyage's first action (the one that set sail, or
    else the one that wrote its first hour) and every later one (voyage.store.undojournal), or taken
    from that action's snapshot in a campaign older than the journal. So the ship card
    shows the ship as she sailed, and the fuel burnt is counted from what she carried.
    None when the journal no longer reaches back so far (``undo_keep``).
    """
    from voyage.vessels.ships import ship_from_row

    db = camp.db
    if not all(db[t].exists() for t in ("actions", "events", "hours")):
        return None
    row = db.execute(
        "SELECT min(a) FROM (SELECT min(action_id) AS a FROM events WHERE voyage_id = ? "
        "UNION ALL SELECT min(action_id) FROM hours WHERE voyage_id = ?)",
        [voyage_id, voyage_id],
    ).fetchone()
    action_id = row[0] if row else None
    if action_id is None:
        return None
    rows = list(camp.db.query("SELECT * FROM actions WHERE id = ?", [action_id]))
    if not rows:
        return None
    try:
        if rows[0].get("undo") == "journal":
            found = db.execute("SELECT rowid FROM ships WHERE name = ?", [name]).fetchone()
            before = camp.row_before("ships", found[0], action_id) if found else None
            return ship_from_row(before) if before else None
        ships = json.loads(rows[0]["snapshot"]).get("ships", [])
        match = [r for r in ships if str(r.get("name", "")).lower() == name.lower()]
        return ship_from_row(match[0]) if match else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # an old or trimmed snapshot: fall back to the ship as she is now


def storms_during(camp: Campaign, hours: list[dict[str, Any]]) -> list[str]:
    """Hexes storm-tossed at some time during the voyage (R32, R60: the referee's storms
    and the rolled cells), for the picture."""
    if not hours:
        return []
    first = hours[0]["clock"]
    last = hours[-1]["clock"] + 1
    from voyage.store.mapstore import map_row

    if map_row(camp) is None:
        if not camp.db["storms"].exists():
            return []
        rows = camp.db.query(
            "SELECT DISTINCT hex FROM storms WHERE start_hour < ? AND end_hour > ? ORDER BY hex",
            [last, first],
        )
        return [str(r["hex"]) for r in rows]
    from voyage.store.mapstore import sea_states_for

    sea = sea_states_for(camp)
    found: set[str] = set()
    for hour in range(first, last):  # each hour's sea is worked out once: linear in hours
        found.update(sea.levels(hour))
    return sorted(found)


def _quote(name: str) -> str:
    return f'"{name}"' if " " in name else name


# ----------------------------------------------------------------------------- summary


def event_time(log: VoyageLog, event: dict[str, Any]) -> str:
    """When an event happened, to the minute, in the one time format."""
    clock = event.get("clock")
    if clock is None:
        clock = (_day_of(event) - 1) * 24 + int(event.get("hour") or 0)
    return format_time(log.calendar, int(clock), int(event.get("minute") or 0))


def duration_text(hours: int) -> str:
    """``76`` -> ``3 days 4 hours``."""
    days, rest = divmod(max(0, hours), 24)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if rest or not days:
        parts.append(f"{rest} hour{'s' if rest != 1 else ''}")
    return " ".join(parts)


def track(log: VoyageLog) -> list[str]:
    """The hexes the ship passed through, in order, starting at its origin.

    Taken from the route up to the ship's position when the engine kept them, else from the
    hexes of the hour rows (consecutive repeats removed).
    """
    v = log.voyage
    route = v.get("route")
    position = v.get("position")
    if isinstance(route, list) and route and isinstance(position, int):
        return [str(h) for h in route[: position + 1]]
    out: list[str] = [str(v["origin"])] if v.get("origin") else []
    for row in log.hours:
        hex_name = row.get("hex")
        if hex_name and (not out or out[-1] != hex_name):
            out.append(str(hex_name))
    return out


def _fuel_key(state: Any) -> str | None:
    if isinstance(state, dict):
        for key in ("fuel_at_start", "start_fuel", "fuel_start"):
            if isinstance(state.get(key), int | float):
                return key
    return None


def _fuel_at_start(log: VoyageLog) -> int | float | None:
    state = log.voyage.get("state")
    key = _fuel_key(state)
    return state[key] if key else None  # type: ignore[index,no-any-return]


def fuel_burnt(log: VoyageLog) -> int | float:
    """hlbs of fuel spent (R16; a built boat's power units, R82): start fuel less the last
    hour's, else the drops hour to hour."""
    fuels = [r["fuel"] for r in log.hours if isinstance(r.get("fuel"), int | float)]
    start = _fuel_at_start(log)
    if start is not None and fuels:
        return _whole(max(0, start - fuels[-1]))
    return _whole(sum(max(0, a - b) for a, b in zip(fuels, fuels[1:], strict=False)))


def _whole(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(float(x), 2)


def fuel_words(log: VoyageLog) -> tuple[str, str]:
    """("fuel", "hlbs"), or a built boat's ("charge", "power units") (R82)."""
    return ("charge", "power units") if "built" in log.figures else ("fuel", "hlbs")


def hours_at_sea(log: VoyageLog) -> int:
    """Hours the ship was stepped at sea: one per hour row, up to the hour the voyage ended.

    (``ended`` is the clock of the hour in which the voyage ended, so a voyage that started
    at clock 0 and ended in the hour at clock 26 spent 27 hours at sea.)
    """
    ended = log.voyage.get("ended")
    if log.hours:
        return sum(
            1 for r in log.hours if not isinstance(ended, int) or int(r.get("clock") or 0) <= ended
        )
    started = log.voyage.get("started")
    if isinstance(started, int) and isinstance(ended, int):
        return max(0, ended - started)
    return 0


def place(log: VoyageLog, hex_name: Any) -> str:
    """A hex as people say it: ``Ironport (2812)`` for a port, else ``hex 1409``."""
    name = log.places.get(str(hex_name))
    return f"{name} ({hex_name})" if name else f"hex {hex_name}"


def ending_event(log: VoyageLog) -> dict[str, Any] | None:
    """The event that ended the voyage (she sank, arrived or was abandoned), if any."""
    final = [e for e in log.events if e.get("kind") in ("sunk", "arrived", "abandon")]
    return final[-1] if final else None


def ending_time(log: VoyageLog) -> str | None:
    """When the voyage ended, to the minute when an event says so: ``Day 2, 02:56``."""
    v = log.voyage
    if v.get("ended") is None:
        return None
    final = ending_event(log)
    if final is not None:
        return event_time(log, final)
    return format_time(log.calendar, v.get("ended"))


def ending_minute(log: VoyageLog) -> int | None:
    """The minute of the hour ``ended`` in which the voyage ended (the JSON's
    ``ended_minute``): the ending event's, 0 when no event of that hour says; None while
    she is under way."""
    ended = log.voyage.get("ended")
    if ended is None:
        return None
    final = ending_event(log)
    if final is None or _clock_of(final) != int(ended):
        return 0
    return int(final.get("minute") or 0)


def day_end_time(log: VoyageLog, last: dict[str, Any]) -> str:
    """When a day's last hour row says the ship's status: at the end of its hour (its hex,
    fuel and status are those at the END of the hour), or, when the voyage ended inside
    that hour, at the minute it did (she sank at 02:56, not "at 03:00")."""
    clock = _clock_of(last)
    if last.get("status") in ("sunk", "arrived", "abandoned"):
        final = [
            e
            for e in log.events
            if e.get("kind") in ("sunk", "arrived", "abandon") and _clock_of(e) == clock
        ]
        if final:
            return event_time(log, final[-1])
    return format_time(log.calendar, clock + 1)


def left_outcome(log: Any, where: str) -> str | None:
    """How an open voyage stands whose people abandoned her (R71) while she sank, burned,
    leaked or listed (a :class:`VoyageLog`; ``where``: ``hex 1005``), for the
    export's outcome: ``abandoned and sinking in hex 1005, going under at Day 1, 06:13``
    (it read "adrift in hex 1005"); None when nobody abandoned her."""
    if not any(e.get("kind") == "abandon" for e in log.events):
        return None
    state = log.voyage.get("state")
    state = state if isinstance(state, dict) else {}
    clock = int(log.clock or 0)

    def at(since: Any, left: Any) -> str:
        minute = count_ends_at(since, int(left), clock)
        return format_time(log.calendar, minute // 60, minute % 60)

    if state.get("sinking_in") is not None:
        going = at(state.get("sinking_since"), state["sinking_in"])
        return f"abandoned and sinking in {where}, going under at {going}"
    if state.get("swallow_in") is not None:
        going = at(state.get("fire_since"), state["swallow_in"])
        return (
            f"abandoned and burning out of control in {where}, the fire swallowing her at {going}"
        )
    if state.get("fire"):
        return f"abandoned and on fire in {where}, nobody aboard to fight it"
    if state.get("leaks"):
        return f"abandoned and leaking in {where}, nobody aboard to pump or bail"
    if state.get("listing"):
        return f"abandoned and listing in {where}, nobody aboard to pump or bail"
    return f"abandoned, adrift in {where}"


def outcome_text(log: VoyageLog) -> str:
    """How the voyage ended, in plain words."""
    v = log.voyage
    status = str(v.get("status") or "unknown")
    path = track(log)
    where = place(log, path[-1] if path else v.get("origin"))
    when = ending_time(log)
    on = f" on {when}" if when else ""
    if status == "arrived":
        return f"arrived at {place(log, v.get('destination'))}{on}"
    if status == "sunk":
        return f"sank in {where}{on}"
    if status == "under way":
        return f"still under way, last in {where}"
    # R71: abandoned, sinking or burning on
    left = left_outcome(log, where) if when is None else None
    return left or f"{status} in {where}{on}"


def summary(log: VoyageLog) -> dict[str, Any]:
    """Distance, hexes entered, fuel burnt, time at sea and outcome of the voyage."""
    path = track(log)
    hours = hours_at_sea(log)
    return {
        "distance_miles": round(sum(float(r.get("miles") or 0) for r in log.hours), 2),
        "hexes_entered": max(0, len(path) - 1),
        "fuel_burnt": fuel_burnt(log),
        "hours_at_sea": hours,
        "time_at_sea": duration_text(hours),
        "outcome": outcome_text(log),
        "status": str(log.voyage.get("status") or "unknown"),
        "events": len(log.events),
        "rolls": sum(len(e["rolls"]) for e in log.events),
        "track": path,
    }


# ----------------------------------------------------------------------------- Markdown

# Escaped everywhere: emphasis, code, links, HTML, tables, headings, entities (&amp;),
# and GitHub's ~~strikethrough~~.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#&~!])")


def md_text(text: Any) -> str:
    """Plain text made safe for Markdown: no markup, no HTML, no table breaks."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def md_code(text: str) -> str:
    """Text as an inline code span (a roll line), whatever backticks it holds."""
    text = " ".join(text.split())
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A GitHub-flavoured Markdown table, every cell escaped."""
    lines = [
        "| " + " | ".join(md_text(h) for h in headers) + " |",
        "| " + " | ".join("---" for _ in headers) + " |",
    ]
    lines += [
        "| " + " | ".join(md_text("" if c is None else c) or " " for c in row) + " |"
        for row in rows
    ]
    return lines


def _roll_lines(rolls: list[dict[str, Any]]) -> list[str]:
    return [md_code(r.get("line") or Roll.from_dict(r).line()) for r in rolls]


def _clock_of(row: dict[str, Any]) -> int:
    if row.get("clock") is not None:
        return int(row["clock"])
    return (_day_of(row) - 1) * 24 + int(row.get("hour") or 0)


def _day_of(row: dict[str, Any]) -> int:
    if row.get("day") is not None:
        return int(row["day"])
    return int(row.get("clock") or 0) // 24 + 1


def to_markdown(
    log: VoyageLog,
    rolls: RollsMode = "shown",
    picture: str | None = None,
    audience: str = "referee",
) -> str:
    """The ship's log: ship card, a section per day, events and rolls, summary.

    ``rolls`` shows each event's rolls, folds them in ``<details>`` or leaves them out;
    ``picture`` is a relative path to the track picture, linked under the summary.
    ``audience`` "players" leaves out routine non-events (a clear sea, a check that held)
    and ruling codes; "referee" keeps everything. Notable events carry the numbers the
    picture marks them with.
    """
    from voyage.base.voyagenames import voyage_name
    from voyage.outputs.chronicle import event_for_players, for_players, name_places
    from voyage.outputs.fightstory import story as fight_story
    from voyage.outputs.report import ship_card

    if rolls not in ROLLS_MODES:
        raise ExportError(f"rolls can be shown, folded or none (not {rolls!r})")
    v = log.voyage
    s = summary(log)
    out: list[str] = [
        f"# Log of {md_text(the(log.ship))}: {voyage_name(log.id, log.nth)}",
        "",
        f"{md_text(log.campaign)}. From {md_text(place(log, v.get('origin')))} to "
        f"{md_text(place(log, v.get('destination')))}, "
        f"{md_text(format_time(log.calendar, v.get('started')))} to "
        f"{md_text(ending_time(log) or 'now')}: "
        f"{md_text(s['outcome'])}.",
        "",
        "## The ship",
        "",
    ]
    card = ship_card(log.figures)
    out.append(f"**{md_text(card[0])}**")
    out.append("")
    # her card as she set sail: its "Status: in port at 0305" read as now in a log that
    # ends with her sunk, so the line says when the card was true
    sailed = (
        f"As she set sail from {place(log, v.get('origin'))}, "
        f"{format_time(log.calendar, v.get('started'))}"
    )
    out += [
        f"- {md_text(sailed if line.strip().startswith('Status:') else line.strip())}"
        for line in card[1:]
    ]
    out += ["", "## Summary", ""]
    out += md_table(
        ["", voyage_name(log.id, log.nth).capitalize()],
        [
            ["Distance", f"{_number(s['distance_miles'])} miles"],
            ["Hexes entered", s["hexes_entered"]],
            [
                "Charge spent" if "built" in log.figures else "Fuel burnt",
                f"{s['fuel_burnt']} {fuel_words(log)[1]}",
            ],
            [
                "Time at sea",
                s["time_at_sea"]
                + (f" ({s['hours_at_sea']} hours)" if s["hours_at_sea"] >= 24 else ""),
            ],
            ["Outcome", s["outcome"]],
            ["Track", " \u2192 ".join(s["track"])],
        ],
    )
    if picture:
        out += [
            "",
            f"![Track of {md_text(the(log.ship))}, {voyage_name(log.id, log.nth)}]({picture})",
        ]

    from voyage.tables.calendar import format_date

    # one pass to sort rows and events into days (a filter per day made the export
    # quadratic in the voyage's length: 4.4 s for 1,000 days)
    hours_by_day: dict[int, list[dict[str, Any]]] = {}
    for r in log.hours:
        hours_by_day.setdefault(_day_of(r), []).append(r)
    events_by_day: dict[int, list[dict[str, Any]]] = {}
    for e in log.events:
        events_by_day.setdefault(_day_of(e), []).append(e)
    numbers = event_numbers(log)
    number_of = {id(log.events[i]): n for i, n in numbers.items()}
    players = audience == "players"
    for day in sorted(hours_by_day.keys() | events_by_day.keys()):
        hours = hours_by_day.get(day, [])
        events = events_by_day.get(day, [])
        if players:
            events = [e for e in events if id(e) in number_of]
        heading = format_date(log.calendar, (day - 1) * 24)
        if log.calendar is not None:
            heading += f" (day {day})"
        out += ["", f"## {md_text(heading)}", ""]
        if hours:
            first, last = hours[0], hours[-1]
            miles = sum(float(r.get("miles") or 0) for r in hours)
            out.append(
                f"{len(hours)} hour{'s' if len(hours) != 1 else ''} at sea, "
                # a port by her name ("from Gullhaven (0305)"), any other hex as "hex 1409"
                f"{_number(miles)} miles, from {md_text(place(log, first.get('hex')))} to "
                f"{md_text(place(log, last.get('hex')))}; {fuel_words(log)[0]} "
                f"{md_text(last.get('fuel'))} "
                f"{fuel_words(log)[1]}, "
                f"water aboard {md_text(last.get('water'))} hlbs, "
                f"{md_text(last.get('status'))} at {md_text(day_end_time(log, last))}."
            )
            out.append("")
        if not events:
            out.append("A quiet day: nothing to report.")
            continue
        for event in events:
            text = str(event.get("text", ""))
            # a fight's event as the fight story tells it (R94); the numbers stay the
            # picture's, so an event players would not hear of keeps its plain words
            text = (
                (event_for_players(event, log.places) or for_players(text))
                if players
                else name_places(text, log.places)
            )  # the referee's: ports named too
            mark = f"**({number_of[id(event)]})** " if id(event) in number_of else ""
            out.append(f"- {mark}**{md_text(event_time(log, event))}** {md_text(text)}")
            lines = _roll_lines(event["rolls"])
            if not lines or rolls == "none":
                continue
            if rolls == "shown":
                out += [f"  - {line}" for line in lines]
            else:
                count = f"{len(lines)} roll{'s' if len(lines) != 1 else ''}"
                out += ["", f"  <details><summary>{count}</summary>", ""]
                out += [f"  - {line}" for line in lines]
                out += ["", "  </details>", ""]
    out += fight_story(log, audience, rolls)  # R94: each fight told round by round
    if log.people:
        # R71-R74: the log of a lost ship ends with what became of everyone aboard
        out += ["", "## What became of everyone aboard", ""]
        out += [f"- {md_text(p['who'])}: {md_text(p['fate'])}" for p in log.people]
    # the referee's log without its rolls says where they are; the players' does not send
    # its readers to the referee's dice
    out += [
        "",
        f"*Written by voyage {__version__} from the campaign log. Every roll is in "
        f"the JSON export.*"
        if rolls != "shown" and not players
        else f"*Written by voyage {__version__} from the campaign log.*",
        "",
    ]
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text)


def the(name: str) -> str:
    """``the Sea Witch``, but ``The Grey Lady`` stays as she is."""
    return name if name.lower().startswith("the ") else f"the {name}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


# ----------------------------------------------------------------------------- PNG


def is_notable(event: dict[str, Any]) -> bool:
    """Whether an event is news: not a clear sea, a check that held, a stuck ship's hourly
    try that failed (R34: numbered on the picture and told players every hour aground) or
    the sailing itself."""
    if event.get("changes"):
        return True
    kind = event.get("kind")
    return kind not in QUIET_KINDS and not (kind == "aground" and event.get("text") == STUCK_TEXT)


def event_numbers(log: VoyageLog) -> dict[int, int]:
    """The notable events numbered 1, 2, 3 … in order (by position in ``log.events``): the
    same numbers on the picture and in the Markdown log (issue 15)."""
    numbers: dict[int, int] = {}
    for index, event in enumerate(log.events):
        if is_notable(event):
            numbers[index] = len(numbers) + 1
    return numbers


# ----------------------------------------------------------------------------- files


def default_stem(log: VoyageLog) -> str:
    """``sea-witch-voyage-3``: the ship's name made file-safe, and the voyage number."""
    slug = re.sub(r"[^a-z0-9]+", "-", log.ship.lower()).strip("-") or "ship"
    return f"{slug}-voyage-{log.id}"


def plan_paths(log: VoyageLog, formats: Sequence[str], out: str | Path | None) -> dict[str, Path]:
    """Where each format goes: ``out`` for one format; for several, ``out`` with each
    format's suffix; by default ``<ship>-voyage-<N>.<format>`` in the current folder."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ExportError(f"unknown format {unknown[0]!r}: use {', '.join(FORMATS)}")
    if not formats:
        raise ExportError(f"give at least one format: {', '.join(FORMATS)}")
    chosen = list(dict.fromkeys(formats))
    if out is None:
        return {f: Path(f"{default_stem(log)}.{f}") for f in chosen}
    target = Path(out)
    if len(chosen) == 1:
        named = target.suffix.lower().lstrip(".")
        if named in FORMATS and named != chosen[0]:
            # `--format csv --out log.md` would write CSV into a file every program opens
            # as Markdown: refuse before anything is written
            raise ExportError(
                f"--out {target.name} ends in .{named} but the format is {chosen[0]}: "
                f"name it .{chosen[0]}, or give --format {named}"
            )
        return {chosen[0]: target}
    stem = target.with_suffix("") if target.suffix.lstrip(".") in FORMATS else target
    return {f: stem.with_name(f"{stem.name}.{f}") for f in chosen}


def write_exports(
    log: VoyageLog,
    formats: Sequence[str],
    out: str | Path | None = None,
    *,
    force: bool = False,
    rolls: RollsMode = "shown",
    sea_map: SeaMap | None = None,
    validate_json: bool = False,
    audience: str = "referee",
    progress: Callable[[int], None] | None = None,
) -> dict[str, Path]:
    """Write the voyage in each format; refuse to overwrite a file unless ``force``.
    ``progress`` is told the steps of drawing the picture (voyage.outputs.render.RENDER_STEPS).

    Every target is checked before anything is written, so a refusal leaves no file behind.
    The Markdown links the picture when a PNG is written with it or already lies beside it.
    With ``validate_json`` the JSON export is checked against its schema before anything is
    written (and there must be a JSON export to check).
    """
    paths = plan_paths(log, formats, out)
    if validate_json and "json" not in paths:
        raise ExportError("--validate checks the JSON export: add --format json")
    for fmt, path in paths.items():
        if path.exists() and not force:
            raise ExportError(
                f"{path} already exists: add --force to overwrite it, or choose another --out"
            )
        if path.exists() and path.is_dir():
            raise ExportError(f"{path} is a folder: give a file name with --out")
        if not path.parent.is_dir():
            from voyage.base.paths import no_folder

            raise ExportError(no_folder(path.parent))
        if fmt == "png" and sea_map is None:
            raise ExportError("no map to draw on: load one with `voyage map load` first")
    texts: dict[str, str] = {}
    if "json" in paths:
        from voyage.outputs.exportjson import json_text

        texts["json"] = json_text(log, check=validate_json)  # before anything is written
    if "csv" in paths:
        texts["csv"] = to_csv(log, audience)
    for fmt in ("md", "html"):
        if fmt not in paths:
            continue
        picture = None
        page = paths[fmt]
        png = paths.get("png") or page.with_suffix(".png")
        if "png" in paths or png.is_file():
            picture = _relative(png, page.parent).replace(" ", "%20")
        texts[fmt] = to_markdown(log, rolls=rolls, picture=picture, audience=audience)
    from voyage.base.atomicfile import FileBatch

    with FileBatch(force=force) as files:  # every format whole, all put in place together
        if "png" in paths:
            assert sea_map is not None
            from voyage.outputs.exportpicture import to_png

            to_png(log, sea_map, paths["png"], progress, files)  # render_map: one line
        if "html" in paths:
            from voyage.outputs.exportpicture import html_page

            texts["html"] = html_page(log, texts["html"], paths, sea_map, files)
        files.write_texts({paths[f]: t for f, t in texts.items()}, ExportError, write_problem)
    return paths


def write_problem(exc: OSError) -> str:
    """What went wrong writing a file, in a referee's words."""
    import errno

    if exc.errno == errno.ENOSPC:
        return "no space left on the disk (free some, then export again)"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "not allowed to write there (choose another --out)"
    return exc.strerror or str(exc)


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


def sea_map_for(camp: Campaign) -> SeaMap | None:
    """The campaign's sea map, or None when no map has been loaded into it."""
    from voyage.store import mapstore

    if mapstore.map_row(camp) is None:
        return None
    return mapstore.current_map(camp)


# -- the JSON export: voyage.outputs.exportjson (its names read here too, for the callers that
# import
# them from this module: looked up at first use, as voyage.outputs.exportjson imports this module)
_JSON_NAMES = frozenset({"json_text", "load_schema", "schema_path", "to_json", "validate"})


def __getattr__(name: str) -> Any:
    if name in _JSON_NAMES:
        from voyage.outputs import exportjson

        return getattr(exportjson, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
