"""An open fight holds the voyage clock (R94, our reading; docs/encounters.md).

A fight's rounds are 10 seconds of the voyage clock from the minute it began (R94: six a
minute), and the campaign has one clock for every ship. An advance while a fight lies open
would sail its ships off mid-fight, hours past a fight still standing at its minute, so it
is refused, naming the fight and the command that ends it; a fight's ships cannot be held
while the others sail on, since there is no clock of their own for them to wait on. Read
only: the advance (voyage.actions.voyages.advance) asks before it changes anything.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.store.calendarrow import clock_text
from voyage.store.fightrows import fighters_of, open_fights


def refuse_while_fighting(camp: Any) -> None:
    """Refuse an advance while any fight is open: one line naming each fight (its number,
    hex, sides, round and the time it began) and `voyage encounter end` (R94)."""
    fights = open_fights(camp)
    if not fights:
        return

    told = []
    for fight in fights:
        fight_id, where, clock, rounds = fight["id"], fight["hex"], fight["clock"], fight["round"]
        sides = [f["name"] for f in fighters_of(camp, fight_id)]
        at = f"round {rounds}" if rounds else "no round yet"
        names = " and ".join([", ".join(sides[:-1]), sides[-1]] if len(sides) > 1 else sides)
        told.append(f"fight {fight_id} at {where} ({names}; {at}, begun {clock_text(camp, clock)})")
    if len(told) == 1:
        raise VoyageRuleError(
            f"{told[0]} is still open: the clock stands at its minute until it ends; "
            "`voyage encounter end` closes it, then advance (R94)"
        )
    raise VoyageRuleError(
        f"{', '.join(told[:-1])} and {told[-1]} are still open: the clock stands at their "
        "minutes until they end; `voyage encounter end --fight N` closes each, then advance "
        "(R94)"
    )
