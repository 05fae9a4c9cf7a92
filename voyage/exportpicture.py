"""A voyage's picture and page (issue 15): the track on the map with its events numbered as
the Markdown log numbers them, a title in plain words, a rectangular crop, and the HTML page
with the picture inside. matplotlib is loaded only when a picture is drawn (voyage.render)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .export import VoyageLog, ending_time, event_numbers, md_text, the, track
from .maps import SeaMap


def picture_marks(log: VoyageLog) -> list[tuple[str, str]]:
    """(hex, words) marks for the picture: start, end, and the numbers of the events that
    happened in each hex, as the Markdown log numbers them (an event has no hex of its own:
    it is placed in the hex the ship was in at the end of that hour)."""
    path = track(log)
    words: dict[str, list[str]] = {}
    if path:
        words[path[0]] = ["start"]
    hex_at: dict[Any, str] = {r.get("clock"): str(r["hex"]) for r in log.hours if r.get("hex")}
    found: dict[str, list[int]] = {}
    for index, number in event_numbers(log).items():
        event = log.events[index]
        where = hex_at.get(event.get("clock")) or event.get("hex")
        if where:
            found.setdefault(str(where), []).append(number)
    for where, numbers in found.items():
        words.setdefault(where, []).append(_number_list(numbers))
    if path and len(path) > 1:
        words.setdefault(path[-1], []).insert(0, "end")
    return [(where, " ".join(w)) for where, w in words.items()]


def _number_list(numbers: list[int]) -> str:
    """``3``, ``3-5``, ``2, 7``: event numbers as short as they go."""
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return ", ".join(str(n) for n in numbers)


def picture_area(log: VoyageLog, margin: int = 2) -> tuple[str | None, int | None]:
    """(around, radius) of the picture: the middle of the track's bounding box, and enough
    hexes each way to hold the whole track with ``margin`` to spare (the render crops a
    rectangle, so the picture is the track's box and a margin, never a ragged cut)."""
    from . import hexmap

    path = track(log)
    if not path:
        return None, None
    cells = [hexmap.parse_hex(h) for h in path]
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    middle = hexmap.hex_name((min(cols) + max(cols)) // 2, (min(rows) + max(rows)) // 2)
    half = max(max(cols) - min(cols), max(rows) - min(rows)) // 2 + 1
    return middle, half + margin


def picture_title(log: VoyageLog) -> str:
    """The picture's title in plain words: ``Iron Harpy, voyage 1: Gullhaven to Ironport,
    arrived 3 Jun 1492, 12:00`` (issue 15: no hex arithmetic in a title)."""
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
    return f"{log.ship}, voyage {log.id}: {named(v.get('origin'))} to " \
           f"{named(v.get('destination'))}, {end}"


def to_png(log: VoyageLog, sea_map: SeaMap, out_path: str | Path) -> Path:
    """Draw the voyage's track on the map with start, end and events marked."""
    from .encountermarks import overlay as encounter_overlay
    from .encountermarks import voyage_places
    from .render import render_map

    path = track(log)
    marks = [(h, t) for h, t in picture_marks(log) if sea_map.in_bounds(h)]
    around, radius = picture_area(log)
    return render_map(
        sea_map,
        out_path,
        around=around,
        radius=radius,
        storms=[h for h in log.storms if sea_map.in_bounds(h)],
        # the legend names what the line shows (issue 15): "voyage 2 of Sea Witch"
        tracks=[(f"voyage {log.id} of {log.ship}", path)] if path else [],
        marks=marks,
        title=picture_title(log),
        currents=[(h, c.side, float(c.knots)) for h, c in sorted(sea_map.currents.items())],
        overlay=encounter_overlay(voyage_places(log, marks)),  # issue 12: encounters marked
    )


def html_page(log: VoyageLog, markdown: str, paths: dict[str, Path],
               sea_map: SeaMap | None) -> str:
    """One self-contained page: the picture embedded (the PNG written beside it, or drawn in
    a scratch folder and gone again when no PNG was asked for: only named files are kept)."""
    import tempfile

    from .htmlpage import markdown_to_html

    title = f"{log.ship}, voyage {log.id}"
    base = paths["html"].parent
    if "png" in paths or sea_map is None or track(log) == []:
        return markdown_to_html(markdown, title, base=base)
    with tempfile.TemporaryDirectory() as scratch:
        to_png(log, sea_map, Path(scratch) / "track.png")
        markdown += f"\n![Track of {md_text(the(log.ship))}, voyage {log.id}](track.png)\n"
        return markdown_to_html(markdown, title, base=Path(scratch))
