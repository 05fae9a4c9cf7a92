"""A fight told as a short story in the Markdown export (R94).

Every fight a voyage took part in (its events carry ``changes.fight``) is told after the
days, round by round: for players in the sea's words (the ships named, no dice, no ruling
codes, no modifiers), for the referee with the rulings and each round's rolls folded in
``<details>``. The story tells the whole fight as the voyage's log gathered it
(voyage.outputs.export.fights_of): the other sides' shots and the rounds' bookkeeping too
(those events belong to no single voyage), plus what the fighting ships' voyages logged
between the fight's first and last event (a fire the referee carried in with ``roll
--apply``), but not what an advance logged while the fight lay open. The fight's events in
the sea's words are voyage.outputs.chronicle.players_text, as the journal tells them.
"""

from __future__ import annotations

from typing import Any

from voyage.base.escape import md_text
from voyage.outputs.chronicle import named_in, players_text
from voyage.outputs.export import _roll_lines, event_time


def story(log: Any, audience: str, rolls: str) -> list[str]:
    """Markdown lines for ``log`` (a voyage.outputs.export.VoyageLog): one section per fight, a
    paragraph per round; the referee's rolls of each round folded (none when ``rolls`` is
    "none")."""
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
                text = players_text(e) if players else named_in(e)
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
