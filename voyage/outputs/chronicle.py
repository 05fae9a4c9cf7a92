"""The campaign journal: every ship's story over a stretch of the campaign, day
by day, for players (what happened, in the sea's words) or for the referee (every roll).

This is what a referee posts after a session: ``voyage journal --since "day 3"``. It reads
the events the engine and the referee's actions logged (table ``events``), never changes the
campaign, and writes Markdown, a self-contained HTML page (voyage.outputs.htmlpage) or JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from voyage.base.errors import VoyageError
from voyage.base.escape import md_code, md_text, md_with_code
from voyage.outputs.export import is_routine, port_names, the
from voyage.store.calendarrow import campaign_calendar
from voyage.store.logrows import events_between
from voyage.tables.calendar import format_date, format_time

#: The referee's own doings that players do not hear of: a day's weather rolled again (R63:
#: its text gives the storm cells' hours and drift to come).
REFEREE_KINDS = frozenset({"weather"})
#: A parenthesis that cites a ruling, "(R60)" or "(R60, 1 Disadvantage)", and a bare "R36:".
_RULING_NOTE = re.compile(r"\s*\((?:[^()]*?\bR\d{1,3}\b[^()]*?)\)")
_RULING_WORD = re.compile(r"\bR\d{1,3}\b:?\s*")
#: R72's mechanics in a drowning event, which players do not read as dice: the swimmers'
#: parenthesis "(swimmers rank 1, no jackets, keeping afloat)" (older logs: "..., a swimmer
#: (rank 1) keeping afloat)", hence the nested parentheses) and the
#: schedule ": rolls every hour, drowned on 2-3 in stormy seas" (voyage.rules.water).
_SWIM_NOTE = re.compile(r"\s*\((?:non-)?swimmers?\b[^()]*(?:\([^()]*\)[^()]*)*\)")
#: The same figures after who they are, as castaways met at sea are told (R93): "at 0506 (6
#: crew of a lost ship, swimmers rank 1, jackets)".
_WHO_SWIMS = re.compile(r"\s*\([^()]*?,\s*(?:non-)?swimmers?\b[^()]*\)")
_SCHEDULE = re.compile(r":? rolls every (?:hour|minute), drowned on [\d-]+ in [^;.]*")
#: A leviathan's figures (R54, R93: voyage.world.encounters.leviathan_text), the referee's stat
#: block: "(speed 6, Tier VIII, attacks as an Explosion 0/2/4 yd +3)".
#: A rule's fraction of her deadweight (R36, R37: "(over 187.5 hlbs, DW/4)").
_DEADWEIGHT_NOTE = re.compile(r"\s*\([^()]*\bDW/\d+[^()]*\)")
_BEAST_FIGURES = re.compile(r"\s*\(speed [\d.]+, Tier [IVXLC]+, attacks as [^()]*\)")
#: The referee's note on castaways met (R93, voyage.world.castaways): where they are, who, their
#: swimmers and jackets, and the commands to search or rescue them (R74). Players read that
#: there are people in the water, not the referee's instructions.
_CASTAWAY_NOTE = re.compile(
    r"\s*They are in the water at \d{4,6} \((?:[^()]|\([^()]*\))*\): "
    r"`voyage act SHIP search` or `rescue`"
    r"(?: \(R\d{1,3}\))?\."
)
#: R85's terms told when the pumps are switched on and left on (voyage.rules.pumps): the
#: referee's tally of dry hours, not the master's words.
_PUMPS_TERMS = re.compile(r": running every hour, wet or dry; more than \d+ dry hours in all[^.]*")
#: The referee's advice where to anchor instead (R65, voyage.rules.anchors): "...: anchor in
#: a coastal or shallow hex, ..." or "...: anchor near a coast, on a shallow, ...".
_ANCHOR_ADVICE = re.compile(r"[;:] anchor (?:in a coastal|near a coast)[^.]*")
#: A tow's weight and what it counts in the tower's Load (R92): the referee's figures.
_TOW_WEIGHT = re.compile(r": the tow weighs \d+ hlbs[^.]*")
FORMATS = ("md", "html", "json")
#: Mechanics players do not read: dice ("2d6", "d20"), a target ("8+"), a roll, a DV.
_MECHANICS = re.compile(r"\b\d*d\d+\b|\b\d+\+|\brolls?\b|\bDV\b|\bDisadvantages?\b", re.I)
#: R91's kinds of ram as a ship's master tells them
RAM_WORDS = {
    "head-on": "head-on",
    "t-bone": "amidships",
    "shunt": "from astern",
    "sideswipe": "along her side",
}
_RAM_OPENING = re.compile(
    r"\b(rams (?:the )?.+?) (head-on|t-bone|shunt|sideswipe) at \d+ knots against \d+"
)


class JournalError(VoyageError):
    """A journal cannot be made as asked."""


def for_players(text: str) -> str:
    """An event's text as players read it: ruling codes left out, the words kept."""
    text = _BEAST_FIGURES.sub("", _DEADWEIGHT_NOTE.sub("", text))
    text = _CASTAWAY_NOTE.sub("", _PUMPS_TERMS.sub("", text))
    text = _TOW_WEIGHT.sub("", _ANCHOR_ADVICE.sub("", text))
    text = without_rulings(text)
    text = _SCHEDULE.sub("", _WHO_SWIMS.sub("", _SWIM_NOTE.sub("", text)))
    text = without_mechanics(without_commands(text))
    text = _RAM_OPENING.sub(lambda m: f"{m.group(1)} {RAM_WORDS[m.group(2)]}", text)
    return re.sub(r"\s{2,}", " ", text).replace(" .", ".").strip()


def without_rulings(text: str) -> str:
    """``text`` without the codes of the rulings it cites: "(R60)", "(R60, 1
    Disadvantage)", a bare "R81:"."""
    return _RULING_WORD.sub("", _RULING_NOTE.sub("", text))


def without_mechanics(text: str) -> str:
    """``text`` without the dice and targets a ruling names: a clause after ":" or ";"
    that holds them is left out ("The crew set to work on leak 1 (8 hlbs an hour): 2d6
    every 10 minutes, 8+ stops it." reads "The crew set to work on leak 1 (8 hlbs an
    hour)."), and a sentence that begins with them is left out whole ("8 drowning rolls
    at 0806, nobody drowns: ...")."""
    if not _MECHANICS.search(text):
        return text
    kept = []
    for sentence in _sentences(text):
        parts = re.split(r"(: |; )", sentence.strip())
        if _MECHANICS.search(parts[0]):
            continue
        words = parts[0]
        for sep, clause in zip(parts[1::2], parts[2::2], strict=False):
            if _MECHANICS.search(clause):
                break  # what follows explains the dice: left out with them
            words += sep + clause
        kept.append(words.rstrip(" .;:,") + ".")
    return " ".join(kept)


def _sentences(text: str) -> list[str]:
    """``text`` cut after each full stop that ends a sentence, never inside a `command`."""
    out, start, quoted = [], 0, False
    for i, ch in enumerate(text):
        if ch == "`":
            quoted = not quoted
        elif ch in ".!?" and not quoted and (i + 1 == len(text) or text[i + 1] == " "):
            out.append(text[start : i + 1])
            start = i + 1
    if text[start:].strip():
        out.append(text[start:])
    return out


def without_commands(text: str) -> str:
    """``text`` without what the tool tells the referee to type: a sentence that starts
    with a `command` is left out ("Sail on with `voyage sail ...`; buy an anchor ..."), a
    sentence that ends in one keeps its words before it ("They are in the water at 0506:
    `voyage act SHIP search` or `rescue`." reads "They are in the water at 0506.")."""
    if "`" not in text:
        return text
    kept = []
    for sentence in _sentences(text):
        tick = sentence.find("`")
        if tick < 0:
            kept.append(sentence)
            continue
        head = sentence[:tick]
        cut = max(head.rfind(":"), head.rfind(";"), head.rfind("("), head.rfind(","))
        if cut > 0 and head[:cut].strip():
            kept.append(head[:cut].rstrip() + ".")
    return "".join(kept)


#: A hex named bare after a word of place ("from 0305", "at 2812"), not already followed by
#: a name in parentheses ("at 2812 (Ironport)"; a count may follow: "for 2812 (23 hexes)");
#: a year ("Jun 1492") follows no such word.
_BARE_HEX = re.compile(
    r"\b(from|for|to|at|in|into|towards|reaches) (\d{4,6})\b(?! \([^\d])", re.ASCII
)


def name_places(text: str, places: dict[str, str] | None) -> str:
    """Ports by their names (for players and the referee alike; the stored text keeps the
    bare hex): "sets sail from 0305 for 2812" reads "from Gullhaven (0305) for Ironport
    (2812)" (``places``: hex -> port name)."""
    if not places:
        return text
    return _BARE_HEX.sub(
        lambda m: (
            f"{m.group(1)} {port_named(m.group(2), places)}" if m.group(2) in places else m.group(0)
        ),
        text,
    )


def port_named(hex_name: Any, places: dict[str, str] | None) -> str:
    """A hex as a column shows it: ``Ironport (2812)`` for a port, else the hex itself."""
    name = places.get(str(hex_name)) if places and hex_name is not None else None
    return f"{name} ({hex_name})" if name else str(hex_name if hex_name is not None else "")


def map_places(camp: Any) -> dict[str, str]:
    """hex -> port name for every port of the campaign's map (none without a map)."""
    return port_names(camp)


def ship_met_for_players(met: dict[str, Any]) -> str | None:
    """A ship met at sea (R93) as players hear of it: "A ship sighted at 0405: a whaler, the
    Grey Anchor." Her disposition (hostile, wary, friendly: tables/encounters.yaml) is the
    referee's roll of how she will behave, which players learn by play, not from the log
    (docs/rulings.md, R93). None when the encounter is not a ship met, or its words are not
    the ones voyage.world.encounters writes (the stored text is told as it is then)."""
    words = met.get("text")
    disposition = met.get("disposition")
    if met.get("kind") != "ship" or not isinstance(words, str) or not met.get("hex"):
        return None
    said = f", {disposition}."
    if not isinstance(disposition, str) or said not in words:
        return None
    return f"A ship sighted at {met['hex']}: {words.replace(said, '.', 1)}"


def event_for_players(event: dict[str, Any], places: dict[str, str] | None = None) -> str | None:
    """An event (a row of ``events``: kind, ship, text, changes) as players read it, or None
    when they would not hear of it. A fight's events (R94) are told as the export's fight
    story tells them (voyage.outputs.fightstory: no Explosion's zones, no modifiers, no rounds'
    bookkeeping); a ship met without her disposition (:func:`ship_met_for_players`); every
    other event by :func:`for_players`. With ``places`` the ports are named
    (:func:`name_places`)."""
    changes = event.get("changes")
    if isinstance(changes, str):
        try:
            read = "fight" in changes or event.get("kind") == "encounter"
            changes = json.loads(changes) if read else {}
        except json.JSONDecodeError:
            changes = {}
    met = changes.get("encounter") if isinstance(changes, dict) else None
    if event.get("kind") == "encounter" and isinstance(met, dict):
        told = ship_met_for_players(met)
        if told is not None:
            return name_places(for_players(told), places)
    if not isinstance(changes, dict) or "fight" not in changes:
        return name_places(for_players(str(event.get("text") or "")), places)
    told = players_text({**event, "changes": changes})
    return None if told is None else name_places(told, places)


def players_line(event: dict[str, Any], places: dict[str, str] | None = None) -> str | None:
    """The one players' view of an event, for every players' format (the journal, the
    Markdown and HTML export, its CSV and JSON): None when players do not hear of it (a
    routine line, :func:`voyage.outputs.export.is_routine`; the referee's own doings; a
    fight's bookkeeping; a line that is all mechanics), else its words as
    :func:`event_for_players` tells them (no dice, rulings or commands)."""
    if is_routine(event) or event.get("kind") in REFEREE_KINDS:
        return None
    told = event_for_players(event, places)
    return told if told and told.strip(" .") else None


def _target_of(changes: Any) -> str | None:
    """The side an event was done to (a shot's or a ram's target), from stored changes."""
    if isinstance(changes, str) and '"target"' in changes:
        try:
            changes = json.loads(changes)
        except json.JSONDecodeError:
            return None
    found = changes.get("target") if isinstance(changes, dict) else None
    return found if isinstance(found, str) else None


def _changed(changes: Any, key: str) -> bool:
    """Whether an event's stored changes (JSON text, or read back) set ``key``."""
    if isinstance(changes, dict):
        return key in changes
    return isinstance(changes, str) and f'"{key}":' in changes


def _towed_side(changes: Any) -> bool:
    """Whether a tow event (R92) is the towed ship's side: taken in tow or cast off, her
    ``towed_by`` changed (the tower's side changes her ``tow``)."""
    return _changed(changes, "towed_by")


def _tower_lines(rows: list[Any], wanted: set[str] | None) -> dict[tuple[int, int], list[str]]:
    """The tower's side of each tow event the journal tells (R92), by (clock, minute): the
    texts of her `tow` and `cast-off` (her ``tow`` changed), each naming the other ship."""
    out: dict[tuple[int, int], list[str]] = {}
    for clock, minute, ship, kind, text, _, changes in rows:
        tower = kind in ("tow", "cast-off") and _changed(changes, "tow")
        if tower and (wanted is None or ship in wanted):
            out.setdefault((clock, minute), []).append(text)
    return out


def _told_by_tower(
    towers: dict[tuple[int, int], list[str]], clock: int, minute: int, ship: str
) -> bool:
    """Whether the tower's line of the same minute names ``ship``, the towed one."""
    return any(names_ship(text, ship) for text in towers.get((clock, minute), ()))


@dataclass
class Entry:
    """One thing that happened: when, to whom, what; the rolls for the referee."""

    clock: int
    minute: int
    time: str
    ship: str | None
    kind: str
    text: str
    rolls: list[str] = field(default_factory=list)


@dataclass
class Journal:
    """The journal of a stretch of the campaign, its entries grouped by day."""

    campaign: str
    since: int
    until: int
    audience: str
    days: list[tuple[str, list[Entry]]]

    #: ``since`` and ``until`` as people read them (the campaign's one time format)
    since_time: str = ""
    until_time: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "since": self.since,
            "until": self.until,
            "since_time": self.since_time,
            "until_time": self.until_time,
            "for": self.audience,
            "days": [
                {"day": day, "entries": [e.__dict__ for e in entries]} for day, entries in self.days
            ],
        }


def gather(
    camp: Any,
    since: int,
    until: int,
    audience: str = "players",
    *,
    to_now: bool = False,
    ships: list[str] | None = None,
) -> Journal:
    """The events of hours ``since`` up to ``until`` (exclusive), for ``audience``.

    ``to_now``: ``until`` is the campaign's clock, and what the referee did at that hour
    (actions and rolls logged at the clock, after the last advance) is included: the
    journal runs up to now, and says so, not to an hour that has not come yet.

    ``ships``: only the events of these ships (by their exact names), for a journal shared
    with the players of one ship (what others did to her too: a shot at her, a ram);
    None for every ship's."""
    if audience not in ("players", "referee"):
        raise JournalError(f"a journal is --for players or referee, not {audience!r}")
    if until < since or (until == since and not to_now):
        raise JournalError("--until must come after --since: nothing happens in no time")
    cal = campaign_calendar(camp)
    rows = events_between(camp, since, until + 1 if to_now else until)
    days: dict[int, list[Entry]] = {}
    wanted = None if ships is None else set(ships)
    places = map_places(camp)  # the stored text names a port by its bare hex
    towers = _tower_lines(rows, wanted)
    for clock, minute, ship, kind, text, rolls, changes in rows:
        if wanted is not None and ship not in wanted and _target_of(changes) not in wanted:
            continue
        if kind == "tow" and _towed_side(changes) and _told_by_tower(towers, clock, minute, ship):
            continue  # R92: the tower's line tells it ("Gull takes Tern in tow"), once
        lines = (
            [r.get("line", "") for r in json.loads(rolls or "[]")] if audience == "referee" else []
        )
        shown = (
            name_places(text, places)
            if audience == "referee"
            else players_line(
                {"kind": kind, "ship": ship, "text": text, "changes": changes}, places
            )
        )
        if shown is None:  # routine, the referee's, a fight's bookkeeping: not for players
            continue
        day = days.setdefault(clock // 24, [])
        if any(
            (e.clock, e.minute, e.text, e.rolls) == (clock, minute, shown, lines)
            and names_ship(shown, e.ship)
            and names_ship(shown, ship)
            for e in day
        ):
            continue  # told once for both ships it names ("A fight begins ...: A, B")
        day.append(
            Entry(
                clock,
                minute,
                format_time(cal, clock, minute),
                ship,
                kind,
                shown,
                [line for line in lines if line],
            )
        )
    return Journal(
        camp.name,
        since,
        until,
        audience,
        [(format_date(cal, day * 24), entries) for day, entries in sorted(days.items())],
        format_time(cal, since),
        format_time(cal, until),
    )


def to_markdown(journal: Journal, cal: Any = None) -> str:
    """The journal as Markdown: a heading per day, a line per thing that happened."""
    span = f"{format_time(cal, journal.since)} to {format_time(cal, journal.until)}"
    out = [f"# {md_text(journal.campaign)}: the journal", "", f"*{md_text(span)}*", ""]
    if not journal.days:
        out += ["Nothing happened at sea in these hours.", ""]
    for day, entries in journal.days:
        out += [f"## {md_text(day)}", ""]
        for e in entries:
            # the ship's name in bold before a line that does not name her ("The hull is
            # holed"); a line that names her is read as it stands ("All hands abandon Grey
            # Widow", "4 crew of a lost ship ...": castaways met at sea tell of their ship)
            who = f"**{md_text(e.ship)}**: " if e.ship and not names_ship(e.text, e.ship) else ""
            out.append(f"- {md_text(e.time[-5:])} {who}{md_with_code(e.text)}")
            out += [f"    - {md_code(line)}" for line in e.rolls]
        out.append("")
    return "\n".join(out)


def names_ship(text: str, ship: str | None) -> bool:
    """Whether ``text`` names ``ship`` (a whole name: "Gull" is not named in "Gullhaven")."""
    return bool(ship) and re.search(rf"(?<!\w){re.escape(str(ship))}(?!\w)", text) is not None


# ---------------------------------------------------------------- a fight, for players

#: A parenthesis holding figures: "(0/1/1 yd)", "(relative speed 13)".
_FIGURES = re.compile(r"\s*\([^()]*\d[^()]*\)")
_MODIFIER = re.compile(r",? with a modifier of [+-]?\d+")
_DICE = re.compile(r"\b\d*d\d+=")

#: Rules' words and the sea's, for players.
_SEA_WORDS = [
    (re.compile(r"(?:,)? \d+ minutes? of the voyage clock"), ""),
    (re.compile(r": relative speed \d+"), ""),
    (re.compile(r" is hit by an Explosion(?:,? in its \w+ zone)?"), " takes the blow"),
    # R91: each side of a ram told as its own master tells it
    (re.compile(r"\bis rammed by ([^.:;]+?) and takes the blow"), r"takes the shock of \1's ram"),
    (re.compile(r"\brams ([^.:;]+?) and takes the blow"), r"takes the shock of her ram on \1"),
    (re.compile(r"hull survives the Explosion"), "hull holds"),
    (re.compile(r"(?:an|the) Explosion"), "the blast"),
]


def named_in(event: dict[str, Any]) -> str:
    """The event's text with "the ship" replaced by her name."""
    text = " ".join(str(event.get("text") or "").split())
    ship = event.get("ship")
    if not ship:
        return text
    name = the(str(ship))
    text = re.sub(r"^The ship\b", name[0].upper() + name[1:], text)
    text = re.sub(r"(?<=[.:;] )The ship\b", name[0].upper() + name[1:], text)
    text = re.sub(r"\bthe ship\b", "she", text)
    text = re.sub(r"(?:^|(?<=[.:;] ))The hull\b", f"{name[0].upper() + name[1:]}'s hull", text)
    return text if text.endswith((".", "!", "?")) else text + "."


def players_text(event: dict[str, Any]) -> str | None:
    """A fight's event in the sea's words, or None when players would not hear of it (the
    journal, the days of the players' export, their CSV and the fight story tell a fight's
    events so)."""
    kind, changes = event.get("kind"), event["changes"]
    if kind == "fight round":
        return None
    if kind == "fight" and not changes.get("ended") and _DICE.search(str(event["text"])):
        ship = event.get("ship")  # R53: a change of movement
        return (
            f"{the(str(ship)).capitalize()[:1]}{the(str(ship))[1:]} changes her speed."
            if ship
            else None
        )
    text = for_players(named_in(event))
    text = _MODIFIER.sub("", _FIGURES.sub("", text))
    for words, plain in _SEA_WORDS:
        text = words.sub(plain, text)
    return re.sub(r"\s{2,}", " ", text).replace(" .", ".").replace(" ,", ",").strip()
