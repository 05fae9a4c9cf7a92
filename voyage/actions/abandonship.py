"""`voyage act SHIP abandon` on her voyage (R71), and what becomes of the hull (R40, R50).

All hands leave her as R71 says (voyage.actions.people.abandon: rafts four to a raft, jackets to
non-swimmers first, the rest in the water; no roll). A sound ship floats on, abandoned,
and her voyage ends. A ship already sinking (R40), or whose fire is out of control (R50),
is not saved by being left, nor lost any sooner: her clock runs on, with nobody aboard to
work her (the voyage stays open, adrift where she was under way), and the next advance
logs her going under at its minute, as for any ship (R52). A fire still under control
burns on too: it was the crew who kept it down (R50: they fight it only with as many hands
as its severity, and a firehose needs hands at it, our reading of R70 in docs/rulings.md,
"A ship with no crew"); left alone it spreads on its 2-in-6 each minute until it passes
her Tier and swallows her (R50, R40). It no longer went out when her people left. The
referee may still declare her saved (`act SHIP saved`, R40). A ship leaking (R36) or listing
(R37) is left the same way, adrift with her voyage open: the water comes in at her leaks'
rate each hour with nobody to pump or bail (R85 needs crew, R70), until R37 lists, capsizes
or sinks her (:func:`leaking_on`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from voyage.actions.people import abandon
from voyage.base.tiers import roman
from voyage.rules.emergency import count_ends_at
from voyage.rules.fire import spread_in_6
from voyage.rules.flooding import flooding_state
from voyage.rules.leakwater import SIXTIETHS, part_of
from voyage.rules.pumps import pumps_working
from voyage.store.calendarrow import clock_text
from voyage.vessels.boatpower import is_built
from voyage.vessels.ships import deadweight


def abandon_voyage(camp: Any, ship: Any, s: Any, chart: Any) -> tuple[str, dict[str, Any]]:
    """R71 for the open voyage ``s``: (log text, changes). The people leave her; a sinking
    or burning ship keeps her clock (module docstring)."""

    text, changes = abandon(camp, ship, s.hex, chart, s.voyage_id)
    s.searching = False
    if s.sinking_in is None and s.swallow_in is None and not s.fire:
        if not s.leaks and not lists(camp, s):  # sound: she floats on, abandoned (a
            s.status = "abandoned"  # bigger question, a sound derelict adrift, left alone)
            return text, changes
        if s.status == "under way":
            s.status = "adrift"  # nobody aboard to work her (R70, voyage.actions.crewless)
        return text + " " + leaking_on(camp, s), {**changes, "status": s.status}
    if s.status == "under way":
        s.status = "adrift"  # nobody aboard to work her (R70, voyage.actions.crewless)
    changes = {**changes, "status": s.status}
    if s.sinking_in is not None:
        minute = count_ends_at(s.sinking_since, s.sinking_in, camp.clock)
        text += (
            f" Nobody is aboard to save her: she goes under at {_at(camp, minute)} (R40: "
            "unless the referee declares her saved; the next advance runs her clock)."
        )
        return text, {**changes, "goes_under": minute}
    if s.swallow_in is not None:
        minute = count_ends_at(s.fire_since, s.swallow_in, camp.clock)
        text += (
            " Nobody aboard, the fire burns on out of control: it swallows her at "
            f"{_at(camp, minute)} and she sinks (R50, R40; the next advance runs its clock)."
        )
        return text, {**changes, "swallowed": minute}
    return text + " " + burning_on(camp, s), {**changes, "fire": s.fire}


def lists(camp: Any, s: Any) -> bool:
    """Her voyage ``s`` lists (R37): flagged by the engine, or with water over DW/4 aboard
    now (R37's thresholds hold at every moment: water loaded since the last hour lists her
    at the next hour's minute 0). A built boat's water has R85's thresholds instead."""

    if s.listing:
        return True
    if is_built(s.ship) or s.ship.water <= 0:
        return False
    book = camp.rulebook
    return flooding_state(s.ship.water, deadweight(s.ship, book), book).listing


def leaking_on(camp: Any, s: Any) -> str:
    """Her voyage ``s``, leaking (R36) or listing (R37), left with nobody to pump or bail
    (R85 needs crew at the switch, R70): the water goes on coming in at her leaks' rate at
    the end of each hour (voyage.rules.leakwater), and R37 lists, capsizes and sinks her as
    any ship: ``Nobody is aboard to pump or bail: she is left leaking 7 hlbs an hour (3
    aboard): she will list at Day 1, 12:59 (over 25 hlbs, DW/4) and begin sinking at Day 1,
    16:59 (over 50 hlbs, DW/2), if she does not capsize first (R36, R37: over DW/10 she may
    capsize each hour; the next advance runs it).`` The minutes are the ends of the hours
    her water passes each line; with pumps left running (R85) or a built boat's own
    thresholds (R85) no minute is promised."""

    ship, book = s.ship, camp.rulebook
    rate, water = sum(s.leaks), int(ship.water)
    head = "Nobody is aboard to pump or bail: she is left "
    runs = "the next advance runs it)."
    if not rate:  # listing from water already aboard (R37): nothing comes in
        return (
            f"{head}listing with {water} hlbs of water aboard: she may capsize every 10 "
            "minutes (R37; " + runs
        )
    head += f"leaking {rate} hlbs an hour ({water} hlbs aboard): "
    eq = ship.equipment
    pumping = eq.get("pumps_switch") != "off" and (
        eq.get("pumps_switch") == "on" or eq.get("pumps_on")
    )
    if is_built(ship):
        return f"{head}she fills until her water shorts her plant and sinks her (R36, R85; " + runs
    if pumping and pumps_working(ship):
        return (
            f"{head}her pumps, left running, bail while they work, and what they do "
            f"not bail lists, capsizes and sinks her (R36, R37, R85; {runs}"
        )
    dw = deadweight(ship, book)
    rules = book.procedures["flooding"]
    part, listing = part_of(s), lists(camp, s)
    said = []
    for key, verb, share in (
        ("listing_above", "list", "DW/4"),
        ("sinking_above", "begin sinking", "DW/2"),
    ):
        limit = dw * Fraction(rules[key]).limit_denominator(1000)
        if key == "listing_above" and listing:
            continue
        hours = 1
        while water + (part + rate * SIXTIETHS * hours) // SIXTIETHS <= limit:
            hours += 1
        minute = (camp.clock + hours - 1) * 60 + 59
        said.append(f"{verb} at {_at(camp, minute)} (over {float(limit):g} hlbs, {share})")
    now = "she lists now and will " if listing else "she will "
    return (
        f"{head}{now}{' and '.join(said)}, if she does not capsize first (R36, R37: over "
        f"DW/10 she may capsize each hour, over DW/4 every 10 minutes; {runs}"
    )


def burning_on(camp: Any, s: Any) -> str:
    """The fire under control in her voyage ``s``, left with nobody to fight it (R50, R70):
    ``Nobody is aboard to fight the fire (severity 2): it burns on, and will grow out of
    control and swallow her (R50, R40: it spreads on a 2-in-6 each minute; past her Tier,
    IV, it swallows her in 2d6 minutes; the next advance runs it).`` It can only grow: the
    crew's 4-in-6 is what brought it down. The mechanics sit in the ruling's parenthesis,
    which the players' share leaves out (voyage.outputs.chronicle.for_players)."""

    book = camp.rulebook
    spread = spread_in_6(s.ship.traits, book)
    swallow = book.procedures["fire"]["swallow_dice"]
    return (
        f"Nobody is aboard to fight the fire (severity {s.fire}): it burns on, and will grow "
        f"out of control and swallow her (R50, R40: it spreads on a {spread}-in-6 each minute; "
        f"past her Tier, {roman(s.ship.tier)}, it swallows her in {swallow} minutes; the next "
        "advance runs it)."
    )


def _at(camp: Any, minute: int) -> str:
    """A campaign minute as people read it: ``Day 1, 03:08``."""

    return clock_text(camp, minute // 60, minute % 60)
