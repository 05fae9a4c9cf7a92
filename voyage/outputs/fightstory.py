"""A fight told as a short story in the Markdown export (issue 12, R94).

Every fight a voyage took part in (its events carry ``changes.fight``) is told after the
days, round by round: for players in the sea's words (the ships named, no dice, no ruling
codes, no modifiers), for the referee with the rulings and each round's rolls folded in
``<details>``. The story gathers the whole fight from the campaign log, the other sides'
shots and the rounds' bookkeeping too (those events belong to no single voyage), plus what
the fighting ships' voyages logged between the fight's first and last event (a fire the
referee carried in with ``roll --apply``), but not what an advance logged while the fight
lay open.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from voyage.store.logrows import events_amid_fight, fight_events

#: A parenthesis holding figures: "(0/1/1 yd)", "(relative speed 13)".
_FIGURES = re.compile(r"\s*\([^()]*\d[^()]*\)")
_MODIFIER = re.compile(r",? with a modifier of [+-]?\d+")
_DICE = re.compile(r"\b\d*d\d+=")
#: Rules' words and the sea's, for players.
_SEA_WORDS = [
    (re.compile(r"(?:,)? \d+ minute\(s\) of the voyage clock"), ""),
    (re.compile(r": relative speed \d+"), ""),
    (re.compile(r" is hit by an Explosion(?:,? in its \w+ zone)?"), " takes the blow"),
    (re.compile(r"hull survives the Explosion"), "hull holds"),
    (re.compile(r"(?:an|the) Explosion"), "the blast"),
]


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


def fights_of(db: Any, events: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events of every fight ``events`` (one voyage's) took part in, each fight's in
    the order they were logged."""
    ids: list[int] = []
    for e in events:
        fight = (e.get("changes") or {}).get("fight")
        if isinstance(fight, int) and fight not in ids:
            ids.append(fight)
    out = []
    for fight in sorted(ids):
        tagged = [_decoded(r) for r in fight_events(db, fight)]
        if not tagged:
            continue
        voyages = sorted({int(r["voyage_id"]) for r in tagged if r.get("voyage_id")})
        # not what an advance logged while the fight lay open (the referee was warned): the
        # fight stands at its minute, and an arrival hours later is not in its round
        between = (
            [_decoded(r) for r in events_amid_fight(db, tagged[0]["id"], tagged[-1]["id"], voyages)]
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


def _the(name: str) -> str:
    return name if name.lower().startswith("the ") else f"the {name}"


def _named(event: dict[str, Any]) -> str:
    """The event's text with "the ship" replaced by her name."""
    text = " ".join(str(event.get("text") or "").split())
    ship = event.get("ship")
    if not ship:
        return text
    name = _the(str(ship))
    text = re.sub(r"^The ship\b", name[0].upper() + name[1:], text)
    text = re.sub(r"(?<=[.:;] )The ship\b", name[0].upper() + name[1:], text)
    text = re.sub(r"\bthe ship\b", "she", text)
    text = re.sub(r"(?:^|(?<=[.:;] ))The hull\b", f"{name[0].upper() + name[1:]}'s hull", text)
    return text if text.endswith((".", "!", "?")) else text + "."


def _for_players(event: dict[str, Any]) -> str | None:
    """The event in the sea's words, or None when players would not hear of it."""
    from voyage.outputs.chronicle import for_players

    kind, changes = event.get("kind"), event["changes"]
    if kind == "fight round":
        return None
    if kind == "fight" and not changes.get("ended") and _DICE.search(str(event["text"])):
        ship = event.get("ship")  # R53: a change of movement
        return (
            f"{_the(str(ship)).capitalize()[:1]}{_the(str(ship))[1:]} changes her speed."
            if ship
            else None
        )
    text = for_players(_named(event))
    text = _MODIFIER.sub("", _FIGURES.sub("", text))
    for words, plain in _SEA_WORDS:
        text = words.sub(plain, text)
    return re.sub(r"\s{2,}", " ", text).replace(" .", ".").replace(" ,", ",").strip()


#: The event in the sea's words, or None when players would not hear of it (the journal,
#: the days of the players' export and their CSV tell a fight's events so too).
players_text = _for_players


def story(log: Any, audience: str, rolls: str) -> list[str]:
    """Markdown lines for ``log`` (a voyage.outputs.export.VoyageLog): one section per fight, a
    paragraph per round; the referee's rolls of each round folded (none when ``rolls`` is
    "none")."""
    from voyage.outputs.export import _roll_lines, event_time, md_text

    players = audience == "players"
    out: list[str] = []
    for events in log.fights:
        start = events[0]
        where = str(start.get("text", "")).split(" at ", 1)[-1].split(" ")[0].rstrip(":")
        out += ["", f"## The fight at {md_text(where)}", ""]
        rounds: dict[int, list[dict[str, Any]]] = {}
        for e in events:
            rounds.setdefault(int(e["changes"].get("round") or 0), []).append(e)
        for number in sorted(rounds):
            sentences: list[str] = []
            roll_lines: list[str] = []
            seen: set[tuple[str, str]] = set()
            for e in rounds[number]:
                key = (str(e.get("kind")), str(e.get("text")))
                if key in seen:  # the opening is logged on every side's voyage
                    continue
                seen.add(key)
                text = _for_players(e) if players else _named(e)
                if text:
                    sentences.append(text)
                roll_lines += _roll_lines(e["rolls"])
            if not sentences:
                continue
            head = (
                f"**{md_text(event_time(log, rounds[number][0]))}.** "
                if number == 0
                else f"**Round {number}.** "
            )
            out += [head + " ".join(md_text(s) for s in sentences), ""]
            if roll_lines and rolls != "none" and not players:
                count = f"{len(roll_lines)} roll{'s' if len(roll_lines) != 1 else ''}"
                out += [f"<details><summary>Round {number}: {count}</summary>", ""]
                out += [f"- {line}" for line in roll_lines]
                out += ["", "</details>", ""]
    return out
