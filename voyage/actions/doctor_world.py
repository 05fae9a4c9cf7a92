"""``voyage doctor``'s checks of the campaign's world: what newer code refuses when it comes
in (`voyage init`, `tables load`, `map load`, `weather storm`) but a campaign made before
those checks, or edited by hand, may still keep. Each finding is one line naming the fix;
none of them is damage, so no backup is suggested (voyage.actions.doctor.RECOVERY).

- the campaign's calendar (the copy `voyage init` kept) and the house calendars.yaml are
  within the limits new calendars are held to (voyage.tables.world.check_calendar_limits:
  1-1,000 days a month, at most 100 months), and the calendar still validates;
- the stored map still reads, and every weather region's climate has a row for each season
  of the calendar (R61; voyage.map.regions.check_climates, as `map load` and `tables
  load` check it and every advance does);
- no ship lies at sea without an open voyage, out of reach of storms (R60), her cable
  (R65) and the current (R64) - what m130 settles when an older campaign is opened
  (voyage.store.oldanchors), named when it could not;
- (a note, as `map load` warns) every region the encounter table names is a region of the
  map (R93: one it is not is never rolled);
- every storm placed by hand has a sea state, a hex side and hours a hex that `voyage
  weather storm` accepts (R60, R63).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from voyage.base.errors import VoyageError
from voyage.map.regions import check_climates
from voyage.map.seamap import parse_map
from voyage.store.campaignfile import Finding
from voyage.store.doctorreads import FileReads
from voyage.store.mapstore import unplaced_encounter_regions
from voyage.tables.calendar import CalendarDef, CampaignCalendar, calendar_seasons
from voyage.tables.checker import Checker
from voyage.tables.rulebook import rulebook_from_texts
from voyage.tables.world import SEA_STATES, WIND_SIDES, check_calendar_limits, check_calendars

#: The checks of this module (voyage.actions.doctor: findings that are not damage).
CHECKS = frozenset({"calendar", "map", "ship", "storm"})
_NEW_CAMPAIGN = "a corrected calendar needs a new campaign (`voyage init --tables FOLDER "


def examine_world(reads: FileReads, info: Any, report: Any) -> None:
    """Every check above, each finding appended to ``report.findings``."""

    found: list[Finding] = report.findings

    def add(check: str, where: str, problem: str) -> None:
        found.append(Finding(check, where, problem))

    book = _rulebook(reads, info, add)
    calendar = _calendar(reads, info, add)
    chart = _map(reads, info, add)
    if chart is not None and book is not None and calendar is not False:
        _seasons(chart, book, calendar, add)
    if chart is not None and book is not None:
        # R93: what `map load` and `tables load` warn of, a note (the campaign plays on)
        report.facts["world_notes"] = [
            line.removeprefix("Warning: ") for line in unplaced_encounter_regions(book, chart)
        ]
    _ships(reads, info, chart, add)
    _storms(reads, info, add)


def _rulebook(reads: FileReads, info: Any, add: Any) -> Any:
    """The campaign's rule book (None if its house tables do not validate: voyage.actions.doctor
    names that); its house calendars held to the limits of new ones."""

    texts: dict[str, str] = {}
    if "house_tables" in info.tables:
        texts = reads.house_table_texts()
    origin = {n: f"house table {n}.yaml" for n in texts}
    try:
        book = rulebook_from_texts(texts, origin)
    except VoyageError:
        return None
    if "calendars" in texts:
        try:
            check_calendar_limits(book.calendars, origin["calendars"])
        except VoyageError as exc:
            add(
                "calendar",
                "house_tables",
                f"{exc}; correct calendars.yaml in the campaign's "
                "tables folder and `voyage tables load FOLDER`",
            )
    return book


def _calendar(reads: FileReads, info: Any, add: Any) -> Any:
    """The campaign's own calendar (None: it has none; False: it does not read), checked as
    `voyage init` checks a house calendar: the table's validation, then its limits."""

    if "calendar" not in info.tables:
        return None
    found = reads.calendar_row()
    if found is None:
        return None
    key, text, year, month, day = found
    fix = f"{_NEW_CAMPAIGN}--calendar {key}`)"
    try:
        data = json.loads(text)
        stored = {k: v for k, v in data.items() if k != "key"}
        where = Checker(Path("the campaign's calendar"))  # named as a file names itself
        checked = check_calendars({"calendars": {key: stored}}, where)
        definition = CalendarDef.from_table(data)
    except (VoyageError, ValueError, TypeError, KeyError, AttributeError) as exc:
        add("calendar", "calendar", f"{_said(exc, 'it does not read')}; {fix}")
        return False
    try:
        check_calendar_limits(checked, "the campaign's calendar")
    except VoyageError as exc:
        add("calendar", "calendar", f"{exc}; it runs as it is (its dates never move): {fix}")
    return CampaignCalendar(definition, year, month, day)


def _said(exc: Exception, otherwise: str) -> str:
    return str(exc) if isinstance(exc, VoyageError) else otherwise


def _map(reads: FileReads, info: Any, add: Any) -> Any:
    """The stored map, parsed as every command parses it (None: none, or it does not read)."""

    if "sea_map" not in info.tables:
        return None
    found = reads.sea_map_row()
    if found is None:
        return None
    try:
        return parse_map(str(found[0]), str(found[1]))
    except VoyageError as exc:
        add("map", "sea_map", f"{exc}; load a corrected map: `voyage map load FILE`")
        return None


def _seasons(chart: Any, book: Any, calendar: Any, add: Any) -> None:
    """R61: each region's climate has a row for each season of the calendar, or no
    advance can roll the weather (every advance checks it: voyage.actions.weather)."""

    try:
        check_climates(
            chart.weather_regions(),
            book.climates["climates"],
            "the campaign's map",
            calendar_seasons(calendar),
            implicit=not chart.regions,
        )
    except VoyageError as exc:
        add("calendar", "seasons", str(exc))


def _ships(reads: FileReads, info: Any, chart: Any, add: Any) -> None:
    """Ships lying at sea with no open voyage, once m130 has run (before it, opening the
    campaign settles them: voyage.store.oldanchors)."""

    if "m130_anchored_voyages" not in info.applied:
        return
    for _, name, hex_name, status in reads.ships_lying_without_voyage():
        where = hex_name
        if chart is not None and not (chart.in_bounds(hex_name) and chart.is_sea(hex_name)):
            where = "CCRR"  # land or off the map now: a sea hex of the referee's choosing
        add(
            "ship",
            str(name),
            (
                f"{status!r} at {hex_name} with no open voyage: storms (R60), her cable (R65) and "
                f"the current (R64) pass her by; `voyage ship place {str(name)!r} {where}` lays "
                "her there as a ship arriving does (in a port she moors)"
            ),
        )


def _storms(reads: FileReads, info: Any, add: Any) -> None:
    """A storm row `voyage weather storm` would not have made (a hand edit)."""

    if "storms" not in info.tables:
        return
    have = reads.columns("storms")
    if not {"state", "moving", "every"} <= have:
        return  # before m050: every storm is stormy and stays put
    listed: set[int] = set()
    for storm, state, moving, every in reads.storm_rows():
        problem = None
        if state not in SEA_STATES:
            problem = f"sea state {state!r} is not one of {', '.join(SEA_STATES)}"
        elif moving is not None and moving not in WIND_SIDES:
            problem = f"it moves towards {moving!r}, not a hex side ({' '.join(WIND_SIDES)})"
        elif moving is not None and not (isinstance(every, int) and 1 <= every <= 8784):
            problem = f"it moves a hex every {every!r} hours, not 1 to 8784"
        if problem and storm not in listed:
            listed.add(storm)
            add(
                "storm",
                f"storm {storm}",
                f"{problem}: `voyage weather clear {storm}` and "
                "place it again with `voyage weather storm`",
            )
