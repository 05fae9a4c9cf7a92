"""Water, capsizing and the bottom for a built boat (R85), as engine phases.

* **Water in spaces** replaces R37 for her: water counts in spaces of 500 lbs (50 hlbs)
  against her body's spaces. At a quarter her plant shorts out on 1-2 on d6 (rolled once),
  at a half on 1-4 (once), at three quarters it shorts out, full she sinks at once (no R40
  countdown: the seed's "immediately sinks"; who is aboard rolls R71's escape). R12 (a Load
  over twice her Deadweight) still sinks her as any ship. A shorted plant is her broken
  engine: `voyage act SHIP repair engine`.
* **A Weighted Keel** rights her at the next minute after a capsize, instead of R41's
  sinking (the seed: after 5 turns). She makes no more way that hour; the advance does not
  stop for it (both are logged).
* **Bottom damage** (R35 on the bottom, when she rams a hazard or the seabed) destroys a
  propeller on 1-3 on d6; with none left (and no jet drives) she drifts until repaired in
  port (`voyage act SHIP repair propellers`).

Each function takes the engine's ship-hour ``h`` (voyage.engine.clock._ShipHour), as the drift
and fuel phases do.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Event, Outcome
from voyage.rules.sinking import sinking_reasons
from voyage.vessels.boatpower import drives, has_keel, is_built, propellers_left

#: R85 levels of water: none, a quarter, a half, three quarters, full.
LEVELS = ("dry", "a quarter", "a half", "three quarters", "full")


def water_spaces(ship: Any, book: Any) -> int:
    """R85: whole spaces of water aboard (500 lbs = 50 hlbs each)."""
    return (ship.water * 10) // int(book.boats["water"]["space_lbs"])


def water_level(ship: Any, book: Any) -> int:
    """R85: 0 dry, 1 a quarter of her spaces, 2 a half, 3 three quarters, 4 full."""
    spaces = Fraction(book.boats["bodies"][ship.design["body"]]["spaces"])
    got = water_spaces(ship, book)
    for level in (4, 3, 2, 1):
        if got >= spaces * level / 4:
            return level
    return 0


def boat_flooding(h: Any) -> None:
    """R85 at the moment the engine looks at the water (start and end of the hour)."""
    s, ship, book = h.s, h.ship, h.book
    if s.status == "sunk":
        return
    level = water_level(ship, book)
    spaces = book.boats["bodies"][ship.design["body"]]["spaces"]
    said = f"{water_spaces(ship, book)} of her {spaces} spaces hold water ({ship.water} hlbs)"
    if level == 4:
        s.sinking_cause = f"she filled with water: {said} (R85)"
        h.note(
            "flooding",
            f"{ship.name} is full of water: {said}; she sinks at once (R85).",
            "sinking",
            {"water": ship.water},
        )
        h.stop_moving()
        h.sunk()
        return
    if level == 0:
        s.water_rolls = 0  # pumped out: the next quarter rolls again
    rules = book.boats["water"]
    for at, faces in ((1, rules["quarter_shorts_on"]), (2, rules["half_shorts_on"])):
        if level >= at > s.water_rolls:
            s.water_rolls = at
            if ship.engine_broken:
                continue
            roll = h.roller.chance(
                f"plant shorting out ({LEVELS[at]} full)",
                int(faces),
                success="shorts out",
                failure="holds",
            )
            _plant(h, roll.success, f"{said}, {LEVELS[at]} of her spaces", [roll])
    if level >= 3 and not ship.engine_broken:
        _plant(h, True, f"{said}, three quarters of her spaces", [])
    if s.sinking_in is None:
        reasons = sinking_reasons(h.e.load(s), h.e._dw[ship.name], 0, book)  # R12 only
        if reasons:
            h.begin_sinking("; ".join(reasons) + " (R12)")


def _plant(h: Any, shorts: bool, said: str, rolls: list[Any]) -> None:
    ship = h.ship
    if shorts:
        ship.engine_broken = True
        text = f"Water in {ship.name}: {said}; her power plant shorts out (R85)."
        h.log(Event("flooding", text, rolls, h.minute, {"engine_broken": True}), "engine broken")
        h.speed = 0 if not h.moving else h.speed
    else:
        h.log(
            Event(
                "flooding",
                f"Water in {ship.name}: {said}; her plant holds (R85).",
                rolls,
                h.minute,
                {},
            )
        )


def keel_rights(h: Any, event: Event) -> bool:
    """R85: a Weighted Keel rights a capsized boat at the next minute (True: the capsize
    ``event`` and the righting are logged, without a halt: nothing waits for the referee,
    so the advance goes on), instead of R41's sinking (False: the caller logs the capsize,
    a halt, and sinks her)."""
    ship = h.ship
    if not (is_built(ship) and has_keel(ship)):
        return False
    event.text = event.text.replace(" and begins sinking", "")
    event.changes = {k: v for k, v in event.changes.items() if k != "sinking"}
    h.log(event)  # righted at once: logged, and the advance goes on (no halt)
    h.stop_moving()
    h.s.capsized = False
    was = h.minute
    h.minute = min(59, was + 1)
    h.note(
        "capsize",
        f"{ship.name}'s Weighted Keel rights her (R85); she makes no more way this hour.",
        changes={"capsized": False},
    )
    h.minute = was
    return True


def bottom_damage(h: Any, damaged: bool) -> None:
    """R85: her bottom was damaged (R35 on the bottom): a propeller is destroyed on 1-3; with
    none left she drifts until repaired in port. Call it after any ram on the bottom (R34's
    hazards, R83's grounding)."""
    ship = h.ship
    if not (damaged and is_built(ship) and propellers_left(ship) > 0):
        return
    faces = int(h.book.boats["water"]["propeller_lost_on"])
    roll = h.roller.chance(
        "a propeller hit from below", faces, success="destroyed", failure="unharmed"
    )
    if not roll.success:
        h.log(
            Event("aground", f"{ship.name}'s propellers come through (R85).", [roll], h.minute, {})
        )
        return
    lost = int(ship.equipment.get("propellers_lost", 0) or 0) + 1
    ship.equipment["propellers_lost"] = lost
    left = propellers_left(ship)
    text = f"A propeller of {ship.name} is destroyed (R85): {left} left."
    halt = None
    if not drives(ship):
        text += " With none left she drifts until repaired in port."
        halt = "engine broken"
        h.stop_moving()
    h.log(Event("aground", text, [roll], h.minute, {"propellers_left": left}), halt)


# -- at the table (`voyage roll capsize SHIP`) ---------------------------------------------


@dataclass(frozen=True)
class KeelRighted(Outcome):
    """R85 at the table: a built boat's Weighted Keel rights her at the next minute after a
    capsize (voyage.actions.apply carries it: she is upright again, and nothing sinks her)."""


def table_water_notes(ship: Any, book: Any) -> tuple[str, ...]:
    """R85 for `voyage roll capsize` on a built boat: her water counts in spaces, not by
    R37 (no listing, no flooding capsize Check); what her level means for her plant."""
    if not is_built(ship):
        return ()
    spaces = book.boats["bodies"][ship.design["body"]]["spaces"]
    level = water_level(ship, book)
    said = (
        f"water: {water_spaces(ship, book)} of her {spaces} spaces ({ship.water} hlbs), "
        f"{LEVELS[level]}"
    )
    meaning = (
        ""
        if not level
        else "; her plant shorts out at a quarter on 1-2, at a half on 1-4, at three "
        "quarters always; full she sinks at once"
    )
    return (
        f"{said}: R85 replaces R37 for a built boat (no listing, no flooding capsize "
        f"Check){meaning} (R85)",
    )


def table_capsize(ship: Any, first: Any) -> list[Any] | None:
    """R85 for `voyage roll capsize` on a built boat with a Weighted Keel: a capsize is
    followed by her keel righting her at the next minute instead of R41's sinking (no
    sinking time is rolled). None when that does not apply (the caller goes on as R41)."""
    if not (is_built(ship) and has_keel(ship)):
        return None
    if not first.capsized:
        return [first]
    over = dataclasses.replace(
        first,
        text=first.text.replace(" and begins sinking", ""),
        changes={k: v for k, v in first.changes.items() if k != "sinking"},
    )
    righted = KeelRighted(
        "capsize",
        f"{ship.name}'s Weighted Keel rights her at the next "
        "minute (R85) instead of sinking (R41).",
        (),
        {"capsized": False},
    )
    return [over, righted]
