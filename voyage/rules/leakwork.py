"""Repairing a leak at sea (R86): the crew work on one leak at a time, rolling 2d6 every 10
minutes; on 8+ the leak is stopped (AquaWars' "roll 8+", on our scale).

``voyage act SHIP repair leak N`` at sea sets the crew to work on leak N (the voyage state's
``more["repair"]``: the leak's number, its hlbs an hour and the minute work began); the
engine rolls at each tenth minute after that (:func:`repair_phase`). A stopped leak lets in
its water up to the minute it was stopped. ``--now`` is the referee's call: patched at once.
Numbers: ``leak_repair`` in tables/boats.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Outcome
from voyage.dice.roller import Roller, odds
from voyage.rules.leakwater import stopped_in
from voyage.rules.stores import working_crew
from voyage.tables.rulebook import RuleBook
from voyage.vessels.stores import store_rules


@dataclass(frozen=True)
class LeakWorkResult(Outcome):
    """One try at a leak: ``stopped``."""

    stopped: bool


def leak_try(hlbs: int, roller: Roller, book: RuleBook) -> LeakWorkResult:
    """R86: one 10-minute try at a leak of ``hlbs`` an hour: 2d6 >= 8 stops it."""
    rule = book.boats["leak_repair"]
    roll = roller.roll(
        "repairing a leak",
        str(rule["dice"]),
        target=int(rule["target"]),
        success="stopped",
        failure="still leaking",
        target_text=f"needs {rule['target']}+",
    )
    if roll.success:
        return LeakWorkResult(
            "repair",
            f"The crew stop the leak of {hlbs} hlbs an hour (R86).",
            (roll,),
            {"leak_stopped": hlbs},
            True,
        )
    return LeakWorkResult(
        "repair", f"The leak of {hlbs} hlbs an hour still runs (R86).", (roll,), {}, False
    )


def leak_try_odds(book: RuleBook) -> Fraction:
    """Exact chance one try stops the leak (R86: 2d6 >= 8, 15/36)."""
    rule = book.boats["leak_repair"]
    return odds(str(rule["dice"]), 0, int(rule["target"]), ">=")


def start_work(s: Any, ship: Any, number: int, now: int) -> tuple[str, dict[str, Any]]:
    """`act SHIP repair leak N` at sea: the crew turn to leak N (one leak at a time)."""
    hlbs = s.leaks[number - 1]
    before = s.more.get("repair")
    left = _find(s, before) if before else None
    s.more["repair"] = {"leak": number, "hlbs": hlbs, "since": now}
    text = (
        f"The crew of {ship.name} set to work on leak {number} ({hlbs} hlbs an hour): "
        "2d6 every 10 minutes, 8+ stops it (R86)."
    )
    if left is not None and left != number - 1:  # one leak at a time: say which they leave
        text += f" They leave leak {left + 1} ({s.leaks[left]} hlbs an hour) as it is."
    return text, {"repairing": number}


def _find(s: Any, work: dict[str, Any]) -> int | None:
    """The index of the leak under repair (leaks may have been patched since)."""
    i = int(work["leak"]) - 1
    if 0 <= i < len(s.leaks) and s.leaks[i] == work["hlbs"]:
        return i
    return s.leaks.index(work["hlbs"]) if work["hlbs"] in s.leaks else None


def repair_phase(h: Any) -> None:
    """The engine's hour ``h``: every try of the hour, from its start; a stopped leak's
    water up to its minute is let in here (the end of the hour no longer counts it)."""
    s = h.s
    work = s.more.get("repair")
    if not work:
        return
    index = _find(s, work)
    if index is None or s.status == "sunk":
        s.more.pop("repair", None)
        return
    if h.ship.crew < 1:  # R70 (our reading): her crew worked it, and none is left aboard
        s.more.pop("repair", None)
        name = h.ship.name
        h.note(
            "repair",
            f"Nobody is left aboard {name} to work on leak {index + 1} "
            f"({s.leaks[index]} hlbs an hour): the work stops (R86, R70); put crew aboard "
            f"(`voyage ship load {name!r} --crew N`) and set them to it again.",
            changes={"repairing": None},
        )
        return
    stores = h.ship.stores
    if stores is not None and working_crew(h.ship.crew, stores, store_rules(h.book)) < 1:  # R102
        s.more.pop("repair", None)
        h.note(
            "repair",
            f"The crew of {h.ship.name} are too weak with thirst to work on leak {index + 1} "
            f"({s.leaks[index]} hlbs an hour): the work stops (R102, R86); give them fresh "
            "water and set them to it again.",
            changes={"repairing": None},
        )
        return
    every = int(h.book.boats["leak_repair"]["every_minutes"])
    base, since = h.clock * 60, int(work["since"])
    t = since + every * max(1, -(-(base - since) // every))
    while t < base + 60:
        h.minute = t - base
        result = leak_try(s.leaks[index], h.roller, h.book)
        h.log(result.event())
        if result.stopped:
            gone = s.leaks.pop(index)
            stopped_in(s, gone, t - base)  # its water to the minute, parts kept (R36)
            s.more.pop("repair", None)
            break
        t += every
    h.minute = 0
