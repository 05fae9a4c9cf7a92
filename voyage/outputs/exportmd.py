"""The Markdown export: the ship's log for players or the referee (R4: every roll is in the
log, so every roll is in the export, unless the referee chooses to fold or hide them).

It carries no wall-clock time, so the same campaign, the same commands and the same seed
give byte-for-byte the same text (R5).
"""

from __future__ import annotations

import re
from typing import Any

from voyage import __version__
from voyage.base.escape import md_text
from voyage.base.voyagenames import voyage_name
from voyage.outputs.chronicle import name_places, players_line, without_rulings
from voyage.outputs.export import (
    ROLLS_MODES,
    ExportError,
    RollsMode,
    VoyageLog,
    _day_of,
    _roll_lines,
    day_end_time,
    ending_time,
    event_numbers,
    event_time,
    fuel_words,
    hours_sailed,
    md_table,
    place,
    summary,
    the,
)
from voyage.outputs.fightstory import story as fight_story
from voyage.outputs.report import ship_card
from voyage.tables.calendar import format_date, format_time


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
    # players read her figures without the rulings' codes ("(R82)", "R81: Tier VI ...")
    card_words = without_rulings if audience == "players" else str
    out += [
        f"- {md_text(sailed if line.strip().startswith('Status:') else card_words(line.strip()))}"
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

    # one pass to sort rows and events into days (a filter per day made the export
    # quadratic in the voyage's length: 4.4 s for 1,000 days)
    hours_by_day: dict[int, list[dict[str, Any]]] = {}
    for r in hours_sailed(log):  # the summary's hours: up to the hour the voyage ended
        hours_by_day.setdefault(_day_of(r), []).append(r)
    events_by_day: dict[int, list[dict[str, Any]]] = {}
    for e in log.events:
        events_by_day.setdefault(_day_of(e), []).append(e)
    numbers = event_numbers(log)
    number_of = {id(log.events[i]): n for i, n in numbers.items()}
    players = audience == "players"
    told: dict[int, str] = {}  # the players' words (voyage.outputs.chronicle.players_line)
    if players:
        for e in log.events:
            line = players_line(e, log.places) if id(e) in number_of else None
            if line is not None:
                told[id(e)] = line
    for day in sorted(hours_by_day.keys() | events_by_day.keys()):
        hours = hours_by_day.get(day, [])
        events = events_by_day.get(day, [])
        if players:
            events = [e for e in events if id(e) in told]
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
                f"water in her hull {md_text(last.get('water'))} hlbs, "
                f"{md_text(last.get('status'))} at {md_text(day_end_time(log, last))}."
            )
            out.append("")
        if not events:
            out.append("A quiet day: nothing to report.")
            continue
        for event in events:
            # the players' words (a fight's event as the fight story tells it, R94); the
            # numbers stay the picture's; the referee's text with the ports named
            text = (
                told[id(event)] if players else name_places(str(event.get("text", "")), log.places)
            )
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


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
