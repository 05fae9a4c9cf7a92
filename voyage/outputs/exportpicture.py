"""A voyage's picture and page: the track on the map with its events numbered as
the Markdown log numbers them, a title in plain words, a rectangular crop, and the HTML page
with the picture inside. matplotlib is loaded only when a picture is drawn
(voyage.outputs.render)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from voyage.base.errors import MapError
from voyage.base.escape import md_text
from voyage.base.voyagenames import ship_voyage_name, voyage_name
from voyage.map import hexes as hexmap
from voyage.map.seamap import SeaMap
from voyage.outputs.encountermarks import overlay as encounter_overlay
from voyage.outputs.encountermarks import voyage_places
from voyage.outputs.export import VoyageLog, ending_time, event_numbers, the, track
from voyage.outputs.htmlpage import markdown_to_html
from voyage.outputs.picturemarks import Mark
from voyage.outputs.render import draw_map, render_map
from voyage.tables.calendar import format_days

if TYPE_CHECKING:
    from voyage.base.atomicfile import FileBatch


#: The end mark's word and kind by how the voyage ended: a ship lost is drawn as a wreck.
END_WORDS = {"sunk": ("sank", "wreck"), "abandoned": ("abandoned", "wreck")}


def picture_marks(log: VoyageLog) -> list[Mark]:
    """The marks of the picture: start, end, the numbers of the events that happened in
    each hex, as the Markdown log numbers them (an event has no hex of its own: it is
    placed in the hex the ship was in at the end of that hour), then the day marks
    (:func:`day_marks`). A hex with events is an event mark ("start 1", "end 6"); a
    voyage that ends where it began has one mark, "start & end"; a ship sunk or
    abandoned ends in a wreck mark ("sank 7")."""
    path = track(log)
    words: dict[str, list[str]] = {}
    kinds: dict[str, str] = {}
    if path:
        words[path[0]], kinds[path[0]] = ["start"], "start"
    hex_at: dict[Any, str] = {r.get("clock"): str(r["hex"]) for r in log.hours if r.get("hex")}
    found: dict[str, list[int]] = {}
    for index, number in event_numbers(log).items():
        event = log.events[index]
        where = hex_at.get(event.get("clock")) or event.get("hex")
        if where:
            found.setdefault(str(where), []).append(number)
    for where, numbers in found.items():
        words.setdefault(where, []).append(_number_list(numbers))
        kinds[where] = "event"
    if path and len(path) > 1:
        end, kind = END_WORDS.get(str(log.voyage.get("status")), ("end", "end"))
        if path[-1] == path[0]:
            words[path[0]][0] = f"start & {end}"  # one mark, not "end start 3"
        else:
            words.setdefault(path[-1], []).insert(0, end)
        if kind == "wreck" or path[-1] not in kinds:
            kinds[path[-1]] = kind
    marks = [Mark(kinds[where], where, " ".join(w)) for where, w in words.items()]
    return marks + day_marks(log)


#: Day marks are thinned to one every this many days, the fewest that keeps them to about
#: one for every three hexes of the track and never more than :data:`MOST_DAY_MARKS`.
DAY_STEPS = (1, 2, 3, 5, 7, 10, 14, 20, 30, 60, 90, 180, 365)
MOST_DAY_MARKS = 24


def midnights(log: VoyageLog) -> list[tuple[int, str]]:
    """(clock, hex) of each 00:00 the ship was at sea on this voyage (after it began, up
    to the hour it ended): where the hour ending at that midnight left her."""
    ended = log.voyage.get("ended")
    seen: dict[int, str] = {}
    for row in log.hours:
        clock, where = row.get("clock"), row.get("hex")
        if not isinstance(clock, int) or not where or (clock + 1) % 24:
            continue
        if isinstance(ended, int) and clock + 1 > ended:
            continue
        seen.setdefault(clock + 1, str(where))
    return sorted(seen.items())


def day_marks(log: VoyageLog) -> list[Mark]:
    """A mark where the ship was at 00:00 each day, with the day in the campaign's calendar
    ("3 Jun", "Day 3"), thinned on a long voyage so they never crowd (:data:`DAY_STEPS`);
    days spent in one hex share a mark ("Day 3-5")."""
    nights = midnights(log)
    if not nights:
        return []
    most = max(1, min(MOST_DAY_MARKS, len(track(log)) // 3))
    step = next((s for s in DAY_STEPS if -(-len(nights) // s) <= most), len(nights))
    kept = nights[::step]
    runs: list[list[tuple[int, str]]] = []
    for clock, where in kept:
        if runs and runs[-1][-1][1] == where:
            runs[-1].append((clock, where))
        else:
            runs.append([(clock, where)])
    return [
        Mark("day", run[0][1], format_days(log.calendar, run[0][0], run[-1][0])) for run in runs
    ]


#: Runs of event numbers written in one hex's label before the rest are counted: a hex a
#: long voyage passes again and again holds dozens of events, and their numbers in full
#: would run across the picture ("18, 133 and 15 more" says where to look and how many).
MOST_NUMBER_RUNS = 2


def _number_list(numbers: list[int]) -> str:
    """``3``, ``3-5``, ``2, 7``, ``1-3, 7``: event numbers as short as they go; past
    :data:`MOST_NUMBER_RUNS` runs, the first runs and how many events are left
    (``18, 133 and 15 more``)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    if len(runs) <= MOST_NUMBER_RUNS + 1:  # "2, 7, 9" is no longer than "2, 7 and 1 more"
        return ", ".join(words)
    left = sum(len(r) for r in runs[MOST_NUMBER_RUNS:])
    return f"{', '.join(words[:MOST_NUMBER_RUNS])} and {left} more"


def picture_area(log: VoyageLog, margin: int = 2) -> tuple[str | None, tuple[int, int] | None]:
    """(around, (columns, rows) each way) of the picture: the middle of the track's
    bounding box, and enough hexes each way to hold the whole track with ``margin`` to
    spare (at least 4 each way, so a short voyage keeps some sea round it). The render
    crops that rectangle, so the picture is the track's box and a margin (a long voyage
    east is a wide picture, not a square of empty sea), never a ragged cut."""
    path = track(log)
    if not path:
        return None, None
    cells = [hexmap.parse_hex(h) for h in path]
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    middle = hexmap.hex_name((min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2)
    each_col = (max(cols) - min(cols)) // 2 + 1 + margin
    each_row = (max(rows) - min(rows)) // 2 + 1 + margin
    return middle, (max(each_col, 4), max(each_row, 4))


def picture_title(log: VoyageLog) -> str:
    """The picture's title in plain words: ``Iron Harpy, voyage 1: Gullhaven to Ironport,
    arrived 3 Jun 1492, 12:00`` (no hex arithmetic in a title: players read it)."""
    v = log.voyage

    def named(hex_name: Any) -> str:
        return log.places.get(str(hex_name)) or f"hex {hex_name}"

    status = str(v.get("status") or "unknown")
    when = ending_time(log)
    path = track(log)
    if status == "arrived":
        end = f"arrived {when}" if when else "arrived"
    elif status == "sunk":
        end = f"sank in {named(path[-1]) if path else 'the sea'}" + (f", {when}" if when else "")
    elif status == "under way":
        end = f"at sea, last in {named(path[-1])}" if path else "at sea"
    else:
        end = status + (f" {when}" if when else "")
    return (
        f"{log.ship}, {voyage_name(log.id, log.nth)}: {named(v.get('origin'))} to "
        f"{named(v.get('destination'))}, {end}"
    )


def picture_args(log: VoyageLog, sea_map: SeaMap) -> dict[str, Any]:
    """What voyage.outputs.render draws for a voyage: the crop, the storms, the track, the marks,
    the title and the map's currents."""
    path = track(log)
    around, radius = picture_area(log)
    marks = [m for m in picture_marks(log) if sea_map.in_bounds(m.hex)]
    numbered = [(m.hex, m.text) for m in marks if m.kind != "day"]
    return {
        "around": around,
        "radius": radius,
        "storms": [h for h in log.storms if sea_map.in_bounds(h)],
        # the legend names what the line shows: "voyage 2 of Sea Witch", with her
        # own count when it is not the campaign's id: "voyage 3 of Eel (her 2nd)"
        "tracks": [(ship_voyage_name(log.ship, log.id, log.nth), path)] if path else [],
        "marks": marks,
        "title": picture_title(log),
        "currents": [(h, c.side, float(c.knots)) for h, c in sorted(sea_map.currents.items())],
        # encounters marked (R93, R94), numbered unless the event mark there shows it
        "overlay": encounter_overlay(voyage_places(log, numbered)),
        # the log speaks in hexes: the picture numbers them (R30)
        "numbered": numbered_hexes(sea_map, path, around, radius),
        # drawn with every handout: the grid as one collection per fill (render.draw_map)
        "lattice": False,
    }


#: Hexes on each side of the track numbered when the picture is too big to number all.
NUMBERED_REACH = 2


def numbered_hexes(
    sea_map: SeaMap, path: list[str], around: str | None, radius: Any
) -> list[str] | None:
    """The hexes whose CCRR a voyage's picture writes: every hex of the crop when it has no
    more than voyage.outputs.render.MAX_LABELLED_HEXES, else those within
    :data:`NUMBERED_REACH` of the track (a long voyage on a big map)."""
    from voyage.outputs.render import MAX_LABELLED_HEXES, MapGeometry

    if not path:
        return None
    names = MapGeometry.for_map(sea_map, around, radius).names
    if len(names) <= MAX_LABELLED_HEXES:
        return names
    near: dict[str, None] = {}
    for name in path:
        for cube in hexmap.cube_within(hexmap.to_cube(name), NUMBERED_REACH):
            try:
                there = hexmap.from_cube(cube)
            except MapError:
                continue
            if sea_map.in_bounds(there):
                near.setdefault(there, None)
    return list(near)


def voyage_figure(log: VoyageLog, sea_map: SeaMap) -> Any:
    """The voyage's picture as a matplotlib Figure (what :func:`to_png` saves)."""
    return draw_map(sea_map, **picture_args(log, sea_map))


def to_png(
    log: VoyageLog,
    sea_map: SeaMap,
    out_path: str | Path,
    progress: Callable[[int], None] | None = None,
    files: FileBatch | None = None,
) -> Path:
    """Draw the voyage's track on the map with start, end, events and days marked (with
    ``files``, as one file of that batch: voyage.base.atomicfile)."""
    return render_map(
        sea_map, out_path, progress=progress, files=files, **picture_args(log, sea_map)
    )


def html_page(
    log: VoyageLog,
    markdown: str,
    paths: dict[str, Path],
    sea_map: SeaMap | None,
    files: FileBatch | None = None,
) -> str:
    """One self-contained page: the picture embedded (the PNG written beside it, or drawn in
    a scratch folder and gone again when no PNG was asked for: only named files are kept).
    A PNG of the same ``files`` batch is read where it is until the batch is put in place."""

    title = f"{log.ship}, {voyage_name(log.id, log.nth)}"
    base = paths["html"].parent
    if "png" in paths or sea_map is None or track(log) == []:
        return markdown_to_html(
            markdown, title, base=base, staged=files.where if files is not None else None
        )
    with tempfile.TemporaryDirectory() as scratch:
        to_png(log, sea_map, Path(scratch) / "track.png")
        markdown += (
            f"\n![Track of {md_text(the(log.ship))}, {voyage_name(log.id, log.nth)}](track.png)\n"
        )
        return markdown_to_html(markdown, title, base=Path(scratch))
