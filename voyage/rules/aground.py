"""Coastlines and running aground (R33, R34).

Every hex travelled within a mile of a coastline has a ``coast.hazard_in_6`` (1-in-6) chance
of an underwater hazard. A ship that runs aground rolls ``aground.die`` (d12) + the seabed's
modifier (sandy +3, wreckage or ruins +5): under its travelling speed it avoids getting
stuck. On a seabed that can damage a hull (``coast.damaging_seabeds``: rocky, wreckage) it
also rams the obstacle at its travelling speed (R35). A stuck ship tries to get off once an
hour on ``aground.escape`` (2d6 >= 8), unless the campaign's ``stuck_escape`` option leaves
it to the referee.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageError
from voyage.dice.events import Event, Outcome
from voyage.dice.roller import Modifier, Roller, odds
from voyage.rules.common import check_count, check_tier
from voyage.rules.ramming import RamResult, ram
from voyage.tables.rulebook import RuleBook

SEABED_ALIASES = {"ruins": "wreckage", "sand": "sandy", "rocks": "rocky"}


@dataclass(frozen=True)
class HazardResult(Outcome):
    """The coastline roll: ``hazard`` is True when an underwater hazard lies in the way."""

    hazard: bool


@dataclass(frozen=True)
class AgroundResult(Outcome):
    """Running aground: ``stuck``, and the ramming roll when the seabed can damage."""

    stuck: bool
    seabed: str
    ram: RamResult | None
    destroyed: bool


@dataclass(frozen=True)
class EscapeResult(Outcome):
    """A stuck ship's hourly try to get off: ``freed``."""

    freed: bool


def seabed_name(seabed: str, book: RuleBook) -> str:
    """The seabed as the tables name it (sandy, rocky, wreckage; 'ruins' is wreckage)."""
    key = str(seabed).strip().lower()
    key = SEABED_ALIASES.get(key, key)
    known = book.procedures["aground"]["seabed_modifiers"]
    if key not in known:
        raise VoyageError(f"unknown seabed {seabed!r}: use one of {', '.join(known)} (or ruins)")
    return key


def seabed_damages(seabed: str, book: RuleBook) -> bool:
    """Whether an obstacle on this seabed can damage the hull (R33: rocky, wreckage)."""
    return seabed_name(seabed, book) in book.procedures["coast"]["damaging_seabeds"]


HAZARD_TEXT = "An underwater hazard hides in the shallows: the ship runs aground."
CLEAR_TEXT = "The shallows are clear."


def coast_hazard(roller: Roller, book: RuleBook) -> HazardResult:
    """A hex travelled within 1 mile of a coastline (R33): a hazard on a 1-in-6."""
    roll = coast_event(roller, book).rolls[0]  # the one roll and its texts, made once
    if roll.success:
        return HazardResult("coast", HAZARD_TEXT, (roll,), {"hazard": True}, True)
    return HazardResult("coast", CLEAR_TEXT, (roll,), {}, False)


def coast_event(roller: Roller, book: RuleBook) -> Event:
    """R33's roll for a hex travelled within 1 mile of a coastline and its event, as the
    engine logs it (:func:`coast_hazard` is it with a result record); its one roll's
    ``success`` says whether a hazard lies in the way."""
    roll = roller.chance(
        "coastal hazard",
        int(book.procedures["coast"]["hazard_in_6"]),
        success="a hazard",
        failure="clear water",
    )
    if roll.success:
        return Event("coast", HAZARD_TEXT, [roll], 0, {"hazard": True})
    return Event("coast", CLEAR_TEXT, [roll], 0, {})


def coast_hazard_odds(book: RuleBook) -> Fraction:
    """Exact chance of an underwater hazard in a coastal hex (R33)."""
    return Fraction(int(book.procedures["coast"]["hazard_in_6"]), 6)


def _aground_mods(seabed: str, book: RuleBook) -> list[Modifier]:
    value = int(book.procedures["aground"]["seabed_modifiers"][seabed])
    return [Modifier(value, f"{seabed} seabed")] if value else []


#: a seabed's name, modifiers (immutable: each roll copies them) and whether it damages a
#: hull, by (rule book, seabed as written), with the book they were read from
_SEABEDS: dict[tuple[int, str], tuple[RuleBook, str, tuple[Modifier, ...], bool]] = {}


def _seabed_terms(seabed: str, book: RuleBook) -> tuple[str, tuple[Modifier, ...], bool]:
    """:func:`seabed_name`, :func:`_aground_mods` and :func:`seabed_damages` of a seabed,
    worked out once per book (R34: a grounding in the engine, thousands a year)."""
    found = _SEABEDS.get((id(book), seabed))
    if found is None or found[0] is not book:
        bed = seabed_name(seabed, book)  # an unknown seabed is refused here, before any dice
        if len(_SEABEDS) >= 256:
            _SEABEDS.clear()
        found = _SEABEDS[id(book), seabed] = (
            book,
            bed,
            tuple(_aground_mods(bed, book)),
            seabed_damages(bed, book),
        )
    return found[1], found[2], found[3]


def aground(
    tier: int,
    speed: int,
    seabed: str,
    roller: Roller,
    book: RuleBook,
    traits: Sequence[str] = (),
) -> AgroundResult:
    """The ship runs aground at travelling ``speed`` on ``seabed`` (R34)."""
    tier = check_tier(tier)
    check_count(speed, "travelling speed")
    bed, mods, damages = _seabed_terms(seabed, book)
    roll = roller.roll(
        "running aground",
        book.procedures["aground"]["die"],
        mods,
        target=speed,
        compare="<",
        success="not stuck",
        failure="stuck",
        target_text=f"needs under {speed} (travelling speed)",
    )
    stuck = not roll.success
    text = "The ship is stuck fast." if stuck else "The ship scrapes free."
    changes: dict[str, object] = {"stuck": True} if stuck else {}
    rolls = [roll]
    rammed = None
    if damages:
        # R34: an obstacle that can damage the ship is rammed at the travelling speed
        rammed = ram(tier, speed, roller, book, traits, what=f"the {bed} seabed")
        rolls.extend(rammed.rolls)
        changes.update(rammed.changes)
        text += " " + rammed.text
    destroyed = bool(rammed and rammed.destroyed)
    return AgroundResult("aground", text, tuple(rolls), changes, stuck, bed, rammed, destroyed)


def aground_odds(speed: int, seabed: str, book: RuleBook) -> Fraction:
    """Exact chance the ship avoids getting stuck (R34): d12 + seabed under its speed."""
    check_count(speed, "travelling speed")
    bed = seabed_name(seabed, book)
    mod = sum(m.value for m in _aground_mods(bed, book))
    return odds(book.procedures["aground"]["die"], mod, speed, "<")


def stuck_escape(
    roller: Roller, book: RuleBook, modifiers: Sequence[Modifier] = ()
) -> EscapeResult:
    """A stuck ship's hourly try to get off (R34): 2d6 >= 8 (R83's modifiers for a boat
    grounded by depth)."""
    roll = stuck_event(roller, book, modifiers).rolls[0]  # the one roll and its texts
    if roll.success:
        return EscapeResult("aground", AFLOAT_TEXT, (roll,), {"stuck": False}, True)
    return EscapeResult("aground", STUCK_TEXT, (roll,), {}, False)


AFLOAT_TEXT = "The ship works herself off: afloat again."
STUCK_TEXT = "The ship is still stuck."


def stuck_event(roller: Roller, book: RuleBook, modifiers: Sequence[Modifier] = ()) -> Event:
    """A stuck ship's try to get off (R34) and its event, as the engine logs it every
    hour (:func:`stuck_escape` is it with a result record); its one roll's ``success``
    says whether she got off."""
    rule = book.procedures["aground"]["escape"]
    roll = roller.roll(
        "getting off",
        rule["dice"],
        modifiers,
        target=int(rule["target"]),
        success="afloat again",
        failure="still stuck",
        target_text=f"needs {rule['target']}+",
    )
    if roll.success:
        return Event("aground", AFLOAT_TEXT, [roll], 0, {"stuck": False})
    return Event("aground", STUCK_TEXT, [roll], 0, {})


def stuck_escape_odds(book: RuleBook) -> Fraction:
    """Exact chance a stuck ship gets off this hour (R34)."""
    rule = book.procedures["aground"]["escape"]
    return odds(rule["dice"], 0, int(rule["target"]), ">=")


def waiting_aground(states: Sequence[Any]) -> str:
    """The ships stuck aground that wait for the referee (``stuck_escape: referee``, R34), as
    the end of an advance's stop reason: ``"; Sea Witch is stuck aground at 1409: refloat
    her with `voyage act "Sea Witch" refloat` (R34)"``, or "" when none is."""
    stuck = [s for s in states if s.status == "stuck" and s.active]
    if not stuck:
        return ""
    parts = []
    for s in stuck:
        name = s.ship.name
        quoted = f'"{name}"' if " " in name else name
        parts.append(
            f"{name} is stuck aground at {s.route[s.position]}: refloat her with "
            f"`voyage act {quoted} refloat`"
        )
    return "; " + "; ".join(parts) + " (R34)"
