"""The campaign's sea map, its storms and its sea states, from the campaign database.

The map is stored as the YAML text it was loaded from (table ``sea_map``, migration m010),
so what the referee wrote is exactly what is used; its parse is cached in the campaign keyed
by the text's hash (:mod:`voyage.store.mapcache`), so a big map is parsed once, not per command.
Storms (table ``storms``, m011, m050) follow :mod:`voyage.map.storms`; the referee's
weather rerolls (R63) are counted by region and day (``weather_rerolls``). ``voyage undo`` takes
back a map load or a storm. The sea state of every hex (rolled cells and these storms,
R60-R63) is worked out by :mod:`voyage.world` from what is stored here: the referee's
storms and reroll counts (``weather_rerolls``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.errors import MapError, VoyageRuleError
from voyage.base.text import plural
from voyage.map import hexes as hexmap
from voyage.map.regions import check_climates
from voyage.map.seamap import SeaMap, bundled_campaign, load_map, parse_map
from voyage.map.storms import group_storms, storm_rows, storms_at
from voyage.store import mapcache
from voyage.store.calendarrow import campaign_calendar
from voyage.tables.calendar import calendar_seasons
from voyage.tables.world import SEA_STATES, WIND_SIDES
from voyage.world.cells import roll_hour
from voyage.world.seasons import season_of
from voyage.world.seastate import (
    RefereeStorm,
    SeaStateLookup,
    SeaStates,
    no_storms,
    referee_storms,
)

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign

_PARSED: dict[str, SeaMap] = {}
NO_MAP = "no map loaded in this campaign: `voyage map load salt_reach` (or your map)"


def resolve_map_path(path: str | Path) -> Path:
    """A map file, a campaign folder, or the name of a bundled campaign (``salt_reach``)."""
    target = Path(path)
    if target.exists():
        return target
    if len(target.parts) == 1 and not target.suffix:
        return bundled_campaign(str(path))  # MapError listing the bundled campaigns
    raise MapError(f"{path}: no such map file or campaign folder")


def save_map(campaign: Campaign, sea_map: SeaMap) -> None:
    """Store ``sea_map`` as the campaign's map: one undoable action."""
    with campaign.action("map load", f"map {sea_map.name} from {sea_map.source}") as act:
        campaign.db.table("sea_map").upsert(
            {
                "id": 1,
                "name": sea_map.name,
                "source": sea_map.source,
                "width": sea_map.width,
                "height": sea_map.height,
                "text": sea_map.text,
                "loaded_clock": campaign.clock,
                "action_id": act.id,
            },
            pk="id",
        )
        # The parse in hand goes into the cache in the same transaction as the map itself.
        key = mapcache.map_hash(sea_map.text)
        mapcache.write(campaign, key, sea_map)
        _remember(key, sea_map)


def load_into_campaign(campaign: Campaign, path: str | Path) -> SeaMap:
    """Validate the map at ``path`` and make it the campaign's; a bad file changes nothing."""
    return install_map(campaign, load_map(resolve_map_path(path)))  # raises before writing


def install_map(campaign: Campaign, sea_map: SeaMap) -> SeaMap:
    """Make a checked map the campaign's (a loaded file, or one imported from a drawing
    tool): refused, changing nothing, when its climates or the ships at sea do not fit."""
    # R61: every region's climate must be in the campaign's climates table, with a row for
    # each season of the campaign's calendar
    check_climates(
        sea_map.weather_regions(),
        campaign.rulebook.climates["climates"],
        sea_map.source,
        calendar_seasons(campaign_calendar(campaign)),
        implicit=not sea_map.regions,
    )
    stranded = [
        f"{name} ({where})"
        for name, where in ships_at_sea(campaign)
        if not (sea_map.in_bounds(where) and sea_map.is_sea(where))
    ]
    if stranded:
        # a ship under way on a hex the new map lacks (off it, or land there) could not go
        # on: refuse, and say which ships, rather than strand their voyages
        raise MapError(
            f"{sea_map.name} has no water where ships are at sea: {', '.join(stranded)}; "
            "bring them to port (or end their voyages) first, or load a map with those hexes"
        )
    save_map(campaign, sea_map)
    return sea_map


def ships_at_sea(campaign: Campaign) -> list[tuple[str, str]]:
    """(ship name, hex) for every ship on a voyage (under way, anchored, stuck, adrift)."""
    db = campaign.db
    if "ships" not in db.table_names():
        return []
    return [
        (r["name"], hexmap.canonical(r["hex"]))
        for r in db.query(
            "SELECT name, hex FROM ships WHERE status = 'at sea' AND hex IS NOT NULL ORDER BY rowid"
        )
        if hexmap.is_hex_name(r["hex"])
    ]


def map_row(campaign: Campaign) -> dict[str, Any] | None:
    """The stored map's row (name, source, size, text), or None."""
    db = campaign.db
    if "sea_map" not in db.table_names():
        return None
    rows = list(db.query("SELECT * FROM sea_map WHERE id = 1"))
    return rows[0] if rows else None


def current_map(campaign: Campaign) -> SeaMap:
    """The campaign's map; MapError with the command to load one if there is none.

    Parsed once: from this process's memory, else from the campaign's ``map_cache`` row for
    the text's hash, else parsed from the text and cached for the next command.
    """
    row = map_row(campaign)
    if row is None:
        raise MapError(NO_MAP)
    key = mapcache.map_hash(row["text"])
    found = _PARSED.get(key)
    if found is None:
        found = mapcache.read(campaign, key, row["text"], row["source"])
        if found is None:
            found = _parse_stored(row["text"], row["source"])
            mapcache.write(campaign, key, found)
        _remember(key, found)
    return found


def _parse_stored(text: str, source: str) -> SeaMap:
    """The stored map's text parsed; a copy that no longer reads (edited by hand, a damaged
    file) is one line naming the stored map and the fix, before a command prints anything."""
    try:
        return parse_map(text, source)
    except MapError as exc:
        said = str(exc).removeprefix(f"{source}, ").removeprefix(f"{source}: ")
        raise MapError(
            f"the map stored in the campaign (loaded from {Path(source).name}) no longer "
            f"reads: {said}; load a corrected map with `voyage map load FILE` "
            "(`voyage doctor` checks the rest)"
        ) from None


def _remember(key: str, sea_map: SeaMap) -> None:
    if len(_PARSED) > 8:
        _PARSED.clear()
    _PARSED[key] = sea_map


def ship_positions(campaign: Campaign) -> list[tuple[str, str]]:
    """(ship name, hex) for every ship that has a hex."""
    db = campaign.db
    if "ships" not in db.table_names():
        return []
    return [
        (r["name"], hexmap.canonical(r["hex"]))
        for r in db.query("SELECT name, hex FROM ships WHERE hex IS NOT NULL ORDER BY rowid")
        if hexmap.is_hex_name(r["hex"])
    ]


# ----------------------------------------------------------------------------- storms


def add_storm(
    campaign: Campaign,
    hexes: list[str],
    hours: int,
    *,
    around: str | None = None,
    radius: int | None = None,
    note: str | None = None,
    source: str = "referee",
    state: str = "stormy",
    moving: str | None = None,
    every: int = 3,
) -> dict[str, Any]:
    """Put a storm on ``hexes`` (and/or every hex within ``radius`` of ``around``) from now.

    It blows from the campaign clock for ``hours`` hours (R32). Hexes must be on the map
    when one is loaded. One undoable action; returns the storm as :func:`list_storms` does.
    """
    if (around is None) != (radius is None):
        raise MapError("give both --around HEX and --radius N, or neither")
    if radius is not None and radius < 0:
        raise MapError(f"radius must be 0 or more (got {radius})")

    if state not in SEA_STATES[1:]:
        raise MapError(f"unknown sea state {state!r}: use {', '.join(SEA_STATES[1:])} (R60)")
    if moving is not None:
        moving = moving.strip().upper()
        if moving not in WIND_SIDES:
            raise MapError(
                f"a storm moves towards a hex side, not {moving!r}: use {' '.join(WIND_SIDES)}"
            )
    if every < 1:
        raise MapError(f"a moving storm moves one hex every 1 or more hours (got {every})")
    names = [hexmap.canonical(h) for h in hexes]
    sea_map = current_map(campaign) if map_row(campaign) else None
    if around is not None:
        assert radius is not None
        if sea_map is not None and not sea_map.in_bounds(around):
            raise MapError(sea_map.off_map_message(around))
        width = sea_map.width if sea_map else None
        height = sea_map.height if sea_map else None
        names += hexmap.within(around, radius, width, height)
    if sea_map is not None:
        for name in names:
            if not sea_map.in_bounds(name):
                raise MapError(sea_map.off_map_message(name))
    if sea_map is not None and names:
        _check_blows_over_sea(sea_map, names, hours, moving, every)
    clock = campaign.clock
    summary = f"storm over {plural(len(set(names)), 'hex', 'hexes')} for {hours}h"
    with campaign.action("storm", summary) as act:
        number = next(campaign.db.query("SELECT COALESCE(MAX(storm), 0) + 1 AS n FROM storms"))
        rows = storm_rows(
            number["n"],
            names,
            clock,
            hours,
            source=source,
            note=note,
            state=state,
            moving=moving,
            every=every,
        )
        for row in rows:
            row["action_id"] = act.id
        campaign.db.table("storms").insert_all(rows)
    return group_storms(rows)[0]


def _check_blows_over_sea(
    sea_map: SeaMap, names: list[str], hours: int, moving: str | None, every: int
) -> None:
    """R32/R60: a storm tosses the sea. One that would blow over land alone for all its
    hours (still, or moving but never reaching water) is refused: no ship could meet it."""
    if any(sea_map.is_sea(h) for h in names):
        return
    if moving:
        storm = RefereeStorm(0, tuple(hexmap.to_cube(h) for h in names), 0, hours, 1, moving, every)
        for hour in range(every, hours, every):
            here = storm.footprint(hour, sea_map.width, sea_map.height)
            if not here:
                break  # blown off the map
            if any(sea_map.is_sea(h) for h in here):
                return
    shown = " ".join(sorted(set(names))[:6]) + (" ..." if len(set(names)) > 6 else "")
    raise MapError(
        f"every hex of this storm is land ({shown})"
        + (f", and moving {moving} it reaches no water in {hours}h" if moving else "")
        + ": a storm tosses the sea (R32, R60); give sea hexes"
    )


def storm_table(campaign: Campaign) -> list[dict[str, Any]]:
    """Every stored storm row (one a hex), in order; none in a campaign without the table."""
    if not campaign.db["storms"].exists():
        return []
    return [dict(r) for r in campaign.db.query("SELECT * FROM storms ORDER BY storm, id")]


def weather_rerolls(campaign: Campaign) -> dict[tuple[str, int], int]:
    """The referee's weather reroll counts by (region, day) (R63, table ``weather_rerolls``)."""
    if not campaign.db["weather_rerolls"].exists():
        return {}
    return {
        (r["region"], int(r["day"])): int(r["count"])
        for r in campaign.db.query("SELECT region, day, count FROM weather_rerolls")
    }


def set_reroll_count(campaign: Campaign, region: str, day: int, count: int) -> None:
    """The weather of ``region`` on ``day`` has been rerolled ``count`` times (R63)."""
    campaign.db.execute(
        "INSERT INTO weather_rerolls (region, day, count) VALUES (?, ?, ?) "
        "ON CONFLICT(region, day) DO UPDATE SET count = excluded.count",
        [region, day, count],
    )


def list_storms(campaign: Campaign) -> list[dict[str, Any]]:
    """Every storm with its hexes, hours and whether it is blowing now, is over, or to come."""
    clock = campaign.clock
    storms = group_storms(campaign.db.query("SELECT * FROM storms ORDER BY storm, id"))
    for s in storms:
        if s["end_hour"] <= clock:
            s["status"] = "over"
        elif s["start_hour"] > clock:
            s["status"] = "to come"
        else:
            s["status"] = "blowing"
    return storms


def clear_storms(campaign: Campaign, storm: int | None = None, *, everything: bool = False) -> int:
    """Remove one storm by number, or all with ``everything``; returns hexes removed."""
    if storm is None and not everything:
        raise MapError("say which storm to clear (its number from `voyage weather list`) or --all")
    if storm is not None:
        found = next(
            campaign.db.query("SELECT COUNT(*) AS n FROM storms WHERE storm = ?", [storm])
        )["n"]
        if not found:
            known = [s["storm"] for s in list_storms(campaign)]
            listed = ", ".join(map(str, known)) if known else "there are none"
            raise MapError(f"no storm {storm} (storms: {listed})")
    summary = "clear all storms" if storm is None else f"clear storm {storm}"
    with campaign.action("storm clear", summary):
        if storm is None:
            cursor = campaign.db.execute("DELETE FROM storms")
        else:
            cursor = campaign.db.execute("DELETE FROM storms WHERE storm = ?", [storm])
    return int(cursor.rowcount)


def storms_now(campaign: Campaign) -> set[str]:
    """Hexes storm-tossed at the campaign clock: the referee's storms and rolled cells (R60)."""
    return set(sea_levels(campaign, campaign.clock))


def all_storm_rows(campaign: Campaign) -> Iterable[dict[str, Any]]:
    """Every storm row the referee placed, storm by storm (voyage.map.storms)."""
    if "storms" not in campaign.db.table_names():
        return []
    return campaign.db.query("SELECT * FROM storms ORDER BY storm, id")


def storm_rows_at(campaign: Campaign, hour: int) -> Iterable[dict[str, Any]]:
    """The storm rows the referee placed that blow at campaign ``hour``."""
    if "storms" not in campaign.db.table_names():
        return []
    return campaign.db.query(
        "SELECT * FROM storms WHERE start_hour <= ? AND end_hour > ? ORDER BY storm, id",
        [hour, hour],
    )


def storm_hexes_during(campaign: Campaign, first: int, last: int) -> list[str]:
    """Hexes a storm the referee placed covers at some hour from ``first`` up to ``last``."""
    if not campaign.db["storms"].exists():
        return []
    rows = campaign.db.query(
        "SELECT DISTINCT hex FROM storms WHERE start_hour < ? AND end_hour > ? ORDER BY hex",
        [last, first],
    )
    return [str(r["hex"]) for r in rows]


def sea_levels(campaign: Campaign, hour: int) -> dict[str, int]:
    """Hex -> sea-state level (1 stormy seas, 2 major storm, 3 hurricane) at ``hour``."""
    if map_row(campaign) is None:
        return {h: 1 for h in storms_at(storm_rows_at(campaign, hour), hour)}
    return dict(sea_states_for(campaign).levels(hour))


def unplaced_encounter_regions(book: Any, sea_map: SeaMap) -> list[str]:
    """R93: one line for each region the encounter table names that the map has not (a
    misspelt ``nrth`` is never rolled: its hexes take the table's ``all``)."""
    known = set(sea_map.weather_regions())
    lost = [r for r in book.encounters["regions"] if r != "all" and r not in known]
    if not lost:
        return []
    have = ", ".join(sorted(known)) or "none"
    return [
        f"Warning: the encounter table's region {r!r} is not a region of {sea_map.name} "
        f"({have}): it is never rolled (a region it does not list uses 'all', R93)"
        for r in lost
    ]


def tables_fit_map(camp: Campaign, book: Any) -> list[str]:
    """New house tables ``book`` against the campaign's map, as `map load` checks a map
    against the tables: every region's climate has a row for each season of the calendar
    (R61; else one line, nothing changes); the encounter table's regions that the map has
    not come back as warnings (R93)."""
    if map_row(camp) is None:
        return []
    sea_map = current_map(camp)
    check_climates(
        sea_map.weather_regions(),
        book.climates["climates"],
        "the campaign's map",
        calendar_seasons(campaign_calendar(camp)),
        implicit=not sea_map.regions,
    )
    return unplaced_encounter_regions(book, sea_map)


# -- the sea: rolled cells and the referee's storms (R60-R63) ------------------------------


def rerolls(camp: Campaign) -> dict[tuple[str, int], int]:
    """The referee's reroll counts by (region, day)."""
    if not camp.db["weather_rerolls"].exists():
        return {}
    return {
        (r["region"], int(r["day"])): int(r["count"])
        for r in camp.db.query("SELECT region, day, count FROM weather_rerolls")
    }


def sea_states_for(camp: Campaign, sea_map: Any = None) -> SeaStates:
    """The campaign's sea: rolled cells (unless the option is off) and referee storms."""
    sea_map = sea_map if sea_map is not None else current_map(camp)
    calendar = campaign_calendar(camp)
    # the campaign's tables may have changed since the map was loaded: say so in one line
    check_climates(
        sea_map.weather_regions(),
        camp.rulebook.climates["climates"],
        "the campaign's map",
        calendar_seasons(calendar),  # R61: a row for each season
        implicit=not sea_map.regions,
    )
    storms = referee_storms(all_storm_rows(camp))
    return SeaStates(
        camp.seed,
        sea_map,
        camp.rulebook,
        rerolls=rerolls(camp),
        storms=storms,
        rolled=bool(camp.settings.get("rolled_weather", True)),
        # the one call on the calendar: the season at the day's 06:00 roll (R61)
        season=lambda day: season_of(calendar, roll_hour(day)),
    )


def campaign_chart(camp: Campaign) -> tuple[SeaMap, SeaStateLookup]:
    """The campaign's sea map and its sea states (R60: rolled cells and the referee's
    storms), read once for an advance or an action; no map is a VoyageRuleError."""
    try:
        chart = current_map(camp)
    except MapError as exc:
        raise VoyageRuleError(str(exc)) from None
    sea = sea_states_for(camp, chart)
    if not sea.rolled and not sea.storms:
        return chart, no_storms
    return chart, sea.lookup()


def port_weather(camp: Campaign, chart: Any) -> SeaStateLookup:
    """The storms over the campaign's hexes, ports not sheltered (R103: the rain a ship
    in port catches; her sea is calm, R60): what the ships lying in port are stepped in."""
    sea = sea_states_for(camp, chart)
    if not sea.rolled and not sea.storms:
        return no_storms
    return sea.over_ports()
