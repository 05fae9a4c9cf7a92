"""Castaways met at sea (R93 with R70-R74): an encounter of kind ``castaways``
puts its people in the water of the hex where they were met, as a group of the people
tables (voyage.world.water.Floater, table ``floaters``; met by the engine, :func:`into_phase`;
by a check at the table, voyage.actions.encounters), so the referee can search for them
(`voyage act SHIP search`) or take them aboard (`voyage act SHIP rescue --all`), and the
drowning rolls (R72) and drift (R64) run for them each hour like anyone off a ship.

**Our reading** (the seeds say nothing of who castaways are): they are the crew of a lost
ship, swimmers of rank 1 like unnamed crew (R70), in life jackets (so they lasted long
enough to be met: R72 spares a swimmer with a jacket in calm and stormy seas).
"""

from __future__ import annotations

from typing import Any

from voyage.world.water import Floater

#: Who they are (Floater.ship: "3 crew of a lost ship").
LOST_SHIP = "a lost ship"


def castaways(found: dict[str, Any], clock: int, next_id: int) -> Floater | None:
    """The group in the water for an encounter ``found`` of kind castaways, else None."""
    if found.get("kind") != "castaways" or not found.get("hex"):
        return None
    return Floater(
        id=next_id,
        kind="people",
        ship=LOST_SHIP,
        role="crew",
        count=max(1, int(found.get("people") or 1)),
        swimming=1,
        jacket=True,
        hex=str(found["hex"]),
        since=clock,
        note=f"met at {found['hex']}",
    )


def into_phase(water: Any, found: dict[str, Any], clock: int) -> str:
    """In the engine: add them to its water phase (voyage.world.waterphase.WaterPhase);
    the words to add to the encounter's text."""
    if water is None:
        return ""
    group = castaways(found, clock, 0)
    if group is None:
        return ""
    group.id = water.next_id()
    water.floaters.append(group)
    return castaway_words(group)


def castaway_words(group: Floater) -> str:
    """What the encounter's text says of them: where they are and how to find them."""
    return (
        f" They are in the water at {group.hex} ({group.who()}, "
        f"{group.swimmer_text()}): `voyage act SHIP search` or `rescue` (R74)."
    )
