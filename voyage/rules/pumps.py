"""Bilge pumps (R85), for any ship that fits one.

A rolled ship carries the pumps loaded with ``ship load --pumps N`` (equipment
``bilge_pumps``; 200 lbs, 20 hlbs each in her Load); a built boat those of her design (the
Bilge Pump accessory, its weight in her design). The crew switch the pumps on when there
is water aboard at the start of an hour; each working pump then works on 1-4
on d6 and bails out d6 x 5 hlbs. Switched on with no water at the start of an hour they
count a dry hour and the crew switch them off; more than 5 dry hours in total burn them out
(``pumps_burnt``), until new ones are loaded in port. Numbers: ``bilge_pump`` in
tables/boats.yaml.

The referee may take the switch (``voyage act SHIP pumps on|off|auto``, equipment
``pumps_switch``): switched ``on`` they run every hour, wet or dry, and are not switched off
after a dry hour (so 6 dry hours burn them out); ``off`` they stay off whatever comes in;
``auto`` gives the switch back to the crew (above).

With no crew aboard (R70, our reading; voyage.rules.crewless) nobody throws the switch:
on ``auto`` pumps that are off stay off whatever comes in, and pumps the crew left running
run on, wet or dry (nobody switches them off after a dry hour), until they burn out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plural
from voyage.dice.events import Outcome
from voyage.dice.roller import Roller
from voyage.rules.leakwater import pumped_dry
from voyage.tables.rulebook import RuleBook
from voyage.vessels.fittings import pumps_fitted, pumps_working


@dataclass(frozen=True)
class PumpResult(Outcome):
    """An hour of the pumps: hlbs bailed, whether it was a dry hour, pumps burnt out."""

    bailed: int
    dry: bool
    burnt: int


#: how an hour of pumps with no water to bail begins (R85): a line for the referee, who
#: counts the dry hours; players hear only of pumps that burn out
DRY_PUMPS = "The bilge pumps run dry"


def pump_hour(
    water: int,
    working: int,
    dry_hours: int,
    roller: Roller,
    book: RuleBook,
    left_on: bool = False,
    crewless: bool = False,
) -> PumpResult:
    """R85: an hour of ``working`` pumps switched on with ``water`` hlbs aboard (``left_on``:
    the referee switched them on, or ``crewless``: nobody is aboard to switch them, R70, so
    a dry hour does not switch them off)."""
    rule = book.boats["bilge_pump"]
    if water <= 0:
        dry = dry_hours + 1
        burnt = working if dry > int(rule["dry_hours"]) else 0
        text = f"{DRY_PUMPS} ({plural(dry, 'dry hour')} in all; R85)"
        text += (
            ": they burn out."
            if burnt
            else "; nobody aboard switches them off (R70)."
            if crewless
            else "; they are left on."
            if left_on
            else "; the crew switch them off."
        )
        changes = {"pumps_burnt": burnt} if burnt else {}
        return PumpResult("pumps", text, (), changes, 0, True, burnt)
    rolls = []
    bailed = 0
    for n in range(1, working + 1):
        works = roller.chance(
            f"bilge pump {n}", int(rule["works_in_6"]), success="works", failure="clogged this hour"
        )
        rolls.append(works)
        if works.success:
            out = roller.roll(f"bilge pump {n} bails", str(rule["bails"]))
            amount = out.total * int(rule["hlbs_per_pip"])
            out.outcome = f"{amount} hlbs"
            rolls.append(out)
            bailed += amount
    bailed = min(bailed, water)
    text = (
        f"The bilge pumps bail out {bailed} hlbs of water ({water - bailed} left; R85)."
        if bailed
        else "The bilge pumps bail out nothing this hour (R85)."
    )
    return PumpResult("pumps", text, tuple(rolls), {}, bailed, False, 0)


def pump_phase(h: Any) -> None:
    """The engine's hour (voyage.engine.clock._ShipHour ``h``): the pumps work at its start."""
    ship, s = h.ship, h.s
    eq = ship.equipment
    if ship.design is None and not eq.get("bilge_pumps"):
        return  # none fitted (the common ship: pumps_working would say 0)
    working = pumps_working(ship)
    switch = eq.get("pumps_switch")  # the referee's hand on the switch, or None (the crew)
    if not working or s.status == "sunk" or switch == "off":
        return
    # R70 (our reading, voyage.rules.crewless): with no crew aboard nobody switches them,
    # on or off; pumps already running run on (equipment runs on its own)
    hands = ship.crew > 0
    if switch == "on" or (ship.water > 0 and hands):
        eq["pumps_on"] = True  # the crew (or the referee) switch them on
    if not eq.get("pumps_on"):
        return
    left_on = switch == "on" or not hands
    result = pump_hour(
        ship.water,
        working,
        int(eq.get("pump_dry_hours", 0) or 0),
        h.roller,
        h.book,
        left_on=left_on,
        crewless=not hands,
    )
    ship.water -= result.bailed
    pumped_dry(s)  # no whole hlb left: no part either (voyage.rules.leakwater)
    if result.dry:
        eq["pump_dry_hours"] = int(eq.get("pump_dry_hours", 0) or 0) + 1
        eq["pumps_on"] = left_on
        if result.burnt:
            eq["pumps_burnt"] = int(eq.get("pumps_burnt", 0) or 0) + result.burnt
    h.log(result.event())


SWITCHES = ("on", "off", "auto")


def switch_pumps(ship: Any, how: str, book: RuleBook) -> tuple[str, dict[str, Any]]:
    """`voyage act SHIP pumps on|off|auto` (R85): the referee takes the pumps' switch, or
    gives it back to the crew. (log text, changes); one line when it cannot be done."""
    if how not in SWITCHES:
        raise VoyageRuleError(f"pumps on, off or auto, not {how!r}")
    fitted = pumps_fitted(ship)
    if not fitted:
        load = (
            "fit them with `ship build --with bilge-pump`"
            if ship.design is not None
            else f"load them in port with `voyage ship load {ship.name!r} --pumps N`"
        )
        raise VoyageRuleError(f"{ship.name} has no bilge pumps (R85): {load}")
    if not pumps_working(ship):
        raise VoyageRuleError(
            f"{ship.name}'s bilge pumps are burnt out (R85): new ones are loaded in port"
        )
    eq = ship.equipment
    now = eq.get("pumps_switch") or "auto"
    if now == how:
        raise VoyageRuleError(
            f"{ship.name}'s bilge pumps are already "
            f"{'left to the crew' if how == 'auto' else 'switched ' + how}"
        )
    limit = int(book.boats["bilge_pump"]["dry_hours"])
    n = pumps_working(ship)
    pumps = "bilge pump is" if n == 1 else f"{n} bilge pumps are"
    if how == "auto":
        eq.pop("pumps_switch", None)
        text = (
            f"{ship.name}'s {pumps} left to the crew again: on while there is water "
            "at the start of an hour, off after a dry hour (R85)."
        )
    else:
        eq["pumps_switch"] = how
        eq["pumps_on"] = how == "on"
        text = (
            f"{ship.name}'s {pumps} switched on and left on (R85): running every "
            f"hour, wet or dry; more than {limit} dry hours in all burn a pump out."
            if how == "on"
            else f"{ship.name}'s {pumps} switched off and left off (R85), whatever water "
            "comes in, until `pumps on` or `pumps auto`."
        )
    return text, {"pumps_switch": how}
