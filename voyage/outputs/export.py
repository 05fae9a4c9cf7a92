"""The voyage's log as the exports read it: :func:`load_voyage` gathers one voyage into a
:class:`VoyageLog` from the log tables the engine writes (``voyages``, ``hours``, ``events``),
and the text helpers every format shares (times, track, summary, Markdown escaping, the
notable events' numbers). Nothing here changes the campaign.

The formats (voyage.outputs.exportmd, exportjson, csvexport, exportpicture) build on this
module; voyage.outputs.handouts writes their files.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from voyage.actions.people import fate_rows
from voyage.base.errors import VoyageError
from voyage.base.escape import md_code, md_text
from voyage.base.text import plain
from voyage.dice.roller import Roll
from voyage.map.routetext import inshore_from_text, route_from_text
from voyage.rules.aground import STUCK_TEXT
from voyage.rules.emergency import count_ends_at
from voyage.rules.pumps import DRY_PUMPS
from voyage.store import mapstore
from voyage.store.calendarrow import campaign_calendar
from voyage.store.hourdays import voyage_hours
from voyage.store.logrows import (
    events_amid_fight,
    fight_events,
    first_action_of_voyage,
    voyage_events,
)
from voyage.store.mapstore import map_row, sea_states_for
from voyage.store.voyagerows import ship_voyage_rows
from voyage.tables.calendar import format_time
from voyage.vessels.ships import aboard, figures, ship_from_row

if TYPE_CHECKING:
    from voyage.map.seamap import SeaMap
    from voyage.store.campaigndb import Campaign
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
#: Events that are routine when nothing changed: a clear sea, a check that held, a ship
#: placed, drowning rolls nobody died of (R72), an hour's search that found nobody (R74).
#: Neither numbered on the picture nor told to players; the referee's views keep them.
ROUTINE_KINDS = frozenset({"coast", "capsize", "place", "water", "search"})
#: an hour's pumping that bailed nothing (R85): a built boat's pumps run every hour
IDLE_PUMPS = "The bilge pumps bail out nothing"
_JSON_COLUMNS_VOYAGES = ("state",)


class ExportError(VoyageError):
    """A voyage cannot be exported: no such voyage, a file in the way, a bad format."""


def refuse_other_suffix(target: str | Path, fmt: str, error: type[VoyageError]) -> None:
    """Refuse in one line an ``--out`` whose suffix names another format than ``fmt``:
    `--format csv --out log.md` would write CSV into a file every program opens as
    Markdown. Every command that writes a format to a named file (export, journal) asks
    this before anything is written."""
    target = Path(target)
    named = target.suffix.lower().lstrip(".")
    if named in FORMATS and named != fmt:
        raise error(
            f"--out {target.name} ends in .{named} but the format is {fmt}: "
            f"name it .{fmt}, or give --format {named}"
        )


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
    #: R94: the events of every fight of the voyage (:func:`fights_of`)
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
    (a long voyage repeats a few hundred roll records thousands of times), which
    also lets the JSON export write each shared record's text once (voyage.base.jsontext)."""
    decoded: dict[str, list[Any]] = {}
    events = []
    for row in voyage_events(camp, voyage_id):
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
    out = []
    for r in ship_voyage_rows(camp, ship):
        row = _decode(r, _JSON_COLUMNS_VOYAGES)
        # the route and its inshore flags are text since m106 (voyage.map.routetext)
        row["route"] = route_from_text(row["route"])
        row["inshore"] = inshore_from_text(row["inshore"])
        out.append(row)
    return out


def load_voyage(camp: Campaign, ship: str, voyage_id: int | None = None) -> VoyageLog:
    """Gather one voyage of ``ship`` (its latest unless ``voyage_id`` is given)."""
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
    hours = voyage_hours(camp, vid)
    events = _events_of(camp, vid)
    departure = ship_at_departure(camp, found.name, vid)
    raw_state = voyage.get("state")
    state: dict[str, Any] = raw_state if isinstance(raw_state, dict) else {}
    if departure is not None and _fuel_key(state) is None:
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
        places=port_names(camp),
        calendar=campaign_calendar(camp),
        people=fate_rows(camp, vid),
        fights=fights_of(camp, events),
        nth=[int(v["id"]) for v in voyages].index(vid) + 1,
        clock=camp.clock,
    )


def port_names(camp: Campaign) -> dict[str, str]:
    """hex -> port name for every port of the map (when one is loaded), as `voyage log`
    names them: a port the voyage left off her route by a course change (the destination
    she first set sail for) is named too."""
    sea_map = sea_map_for(camp)
    return {h.name: str(h.port) for h in sea_map.ports()} if sea_map is not None else {}


def ship_at_departure(camp: Campaign, name: str, voyage_id: int) -> Ship | None:
    """The ship as she was when the voyage set sail, or None.

    Rebuilt from the undo journal of the voyage's first action (the one that set sail, or
    else the one that wrote its first hour) and every later one (voyage.store.undojournal), or taken
    from that action's snapshot in a campaign older than the journal. So the ship card
    shows the ship as she sailed, and the fuel burnt is counted from what she carried.
    None when the journal no longer reaches back so far (``undo_keep``).
    """
    action_id = first_action_of_voyage(camp, voyage_id)
    if action_id is None:
        return None
    action = camp.action_row(action_id)
    if action is None:
        return None
    try:
        if action.get("undo") == "journal":
            rowid = camp.ship_rowid(name)
            before = camp.row_before("ships", rowid, action_id) if rowid is not None else None
            return ship_from_row(before) if before else None
        ships = json.loads(action["snapshot"]).get("ships", [])
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

    if map_row(camp) is None:
        return mapstore.storm_hexes_during(camp, first, last)

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
        return len(hours_sailed(log))
    started = log.voyage.get("started")
    if isinstance(started, int) and isinstance(ended, int):
        return max(0, ended - started)
    return 0


def place(log: VoyageLog, hex_name: Any) -> str:
    """A hex as people say it: ``Ironport (2812)`` for a port, else ``hex 1409``."""
    name = log.places.get(str(hex_name))
    return f"{name} ({hex_name})" if name else f"hex {hex_name}"


def ending_event(log: VoyageLog) -> dict[str, Any] | None:
    """The event that ended the voyage (she sank, arrived or was abandoned), if any: none
    that left her at sea ("arrives at 0706 but cannot anchor there": she lay adrift), none
    before an hour she was stepped at sea after it. So the header, the summary's hours and
    the days all read one end (``ended``, to this event's minute)."""
    if log.voyage.get("ended") is None:
        return None
    rows = hours_sailed(log)
    since = _clock_of(rows[-1]) if rows else None
    final = [
        e
        for e in log.events
        if e.get("kind") in ("sunk", "arrived", "abandon")
        and (e.get("changes") or {}).get("status") in (None, "arrived", "abandoned", "sunk")
        and (since is None or _clock_of(e) >= since)
    ]
    return final[-1] if final else None


def hours_sailed(log: VoyageLog) -> list[dict[str, Any]]:
    """The hour rows of the voyage up to the hour it ended (all of them while under way):
    what :func:`hours_at_sea` counts and the days of the exports tell."""
    ended = log.voyage.get("ended")
    if not isinstance(ended, int):
        return log.hours
    return [r for r in log.hours if int(r.get("clock") or 0) <= ended]


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
    that hour, at the minute it did (she sank at 02:56, not "at 03:00"). A ship that
    arrived hours before with her voyage still open (a wreck towed in, leaking with nobody
    aboard, R92) arrived when she came in, not at the day's last hour."""
    clock = _clock_of(last)
    status = last.get("status")
    if status in ("sunk", "arrived", "abandoned"):
        final = [
            e
            for e in log.events
            if (e.get("kind") in ("sunk", "arrived", "abandon") and _clock_of(e) == clock)
            or (status == "arrived" == _status_set(e) and _clock_of(e) < clock)
        ]
        if final:
            return event_time(log, final[-1])
    return format_time(log.calendar, clock + 1)


def _status_set(event: dict[str, Any]) -> Any:
    """The voyage status an event set (its decoded changes' ``status``), if any."""
    changes = event.get("changes")
    return changes.get("status") if isinstance(changes, dict) else None


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


def the(name: str) -> str:
    """``the Sea Witch``, but ``The Grey Lady`` stays as she is."""
    return name if name.lower().startswith("the ") else f"the {name}"


# ----------------------------------------------------------------------------- PNG


def is_routine(event: dict[str, Any]) -> bool:
    """Whether an event is a routine line that changed nothing (:data:`ROUTINE_KINDS`, a
    stuck ship's hourly try that failed (R34: told players every hour aground), pumps that
    bailed nothing or ran dry without burning out (R85)): the one test of the picture's
    numbers and the players' exports and journal (``advance`` tells the referee a dry hour).
    ``changes`` decoded or as stored."""
    kind, text = event.get("kind"), str(event.get("text") or "")
    if text.startswith(DRY_PUMPS) and "burn out" not in text:
        return True  # R85: a dry hour the pumps ran, counted toward burning out
    if event.get("changes") not in (None, "", "{}", {}):
        return False
    return (
        kind in ROUTINE_KINDS
        or (kind == "aground" and text == STUCK_TEXT)
        or text.startswith(IDLE_PUMPS)
    )


def is_notable(event: dict[str, Any]) -> bool:
    """Whether an event is news: not routine (:func:`is_routine`) and not the sailing
    itself."""
    if is_routine(event):
        return False
    return bool(event.get("changes")) or event.get("kind") not in QUIET_KINDS


def event_numbers(log: VoyageLog) -> dict[int, int]:
    """The notable events numbered 1, 2, 3 … in order (by position in ``log.events``): the
    same numbers on the picture and in the Markdown log."""
    numbers: dict[int, int] = {}
    for index, event in enumerate(log.events):
        if is_notable(event):
            numbers[index] = len(numbers) + 1
    return numbers


def sea_map_for(camp: Campaign) -> SeaMap | None:
    """The campaign's sea map, or None when no map has been loaded into it."""
    if mapstore.map_row(camp) is None:
        return None
    return mapstore.current_map(camp)


# ----------------------------------------------------------------------------- fights


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for col in ("rolls", "changes"):
        value = out.get(col)
        try:
            out[col] = json.loads(value) if isinstance(value, str) else value
        except json.JSONDecodeError:
            out[col] = None
    out["rolls"] = out["rolls"] if isinstance(out["rolls"], list) else []
    out["changes"] = out["changes"] if isinstance(out["changes"], dict) else {}
    return out


def fights_of(camp: Campaign, events: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events of every fight ``events`` (one voyage's) took part in, each fight's in
    the order they were logged."""
    ids: list[int] = []
    for e in events:
        fight = (e.get("changes") or {}).get("fight")
        if isinstance(fight, int) and fight not in ids:
            ids.append(fight)
    out = []
    for fight in sorted(ids):
        tagged = [_decoded(r) for r in fight_events(camp, fight)]
        if not tagged:
            continue
        voyages = sorted({int(r["voyage_id"]) for r in tagged if r.get("voyage_id")})
        # not what an advance logged while the fight lay open (the referee was warned): the
        # fight stands at its minute, and an arrival hours later is not in its round
        between = (
            [
                _decoded(r)
                for r in events_amid_fight(camp, tagged[0]["id"], tagged[-1]["id"], voyages)
            ]
            if voyages
            else []
        )
        for r in between:  # a fire or a sinking carried in mid-fight: in its round
            r["changes"] = {**r["changes"], "round": _round_at(tagged, int(r["id"]))}
        out.append(sorted(tagged + between, key=lambda r: int(r["id"])))
    return out


def _round_at(tagged: list[dict[str, Any]], event_id: int) -> int:
    found = 0
    for r in tagged:
        if int(r["id"]) > event_id:
            break
        found = int(r["changes"].get("round") or 0)
    return found
