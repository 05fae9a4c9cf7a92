"""The engine's hooks for R83-R86, so the engine only orders phases (voyage.engine.clock).

- :func:`start_phase`, at the start of every ship's hour: a submersible below her rating
  rolls on the Depth Damage Table (R84), the crew work on a leak (R86), a port's salvage
  crew finish getting a stuck boat off (R83), the bilge pumps work (R85).
- :func:`by_depth`, on entering a hex under way or carried by a current (R64): where the
  map charts a depth, it decides a built boat's grounding instead of R33-R34 (R83); an
  uncharted port, coastal or shallow hex is 150 ft to a submerged sub below that (R84 with
  R65); rolled ships keep R33-R34.
- :func:`escape_mods`: R83's modifiers to getting off after grounding by depth.
- :func:`submerged`: R84, no storm capsize checks under the surface.
"""

from __future__ import annotations

from typing import Any

from voyage.dice.roller import Modifier
from voyage.rules import depth, leakwork, pumps
from voyage.rules.boatwater import bottom_damage
from voyage.rules.crewless import adrift_now
from voyage.vessels import submersible
from voyage.vessels.boatpower import draft_ft

submerged = submersible.submerged


def start_phase(h: Any) -> None:
    """R84, R86, R83, R85 at the start of the hour of ``h`` (voyage.engine.clock._ShipHour)."""
    s, ship = h.s, h.ship
    if not s.more and ship.design is None and not ship.equipment.get("bilge_pumps"):
        return  # a rolled ship with no work in hand and no pumps: nothing this hour
    if s.more and s.status != "stuck":
        s.more.pop("grounded_mph", None)
        s.more.pop("salvage_at", None)
    if s.more:
        submersible.depth_phase(h)
        leakwork.repair_phase(h)
        salvage_phase(h)
    elif ship.design is not None and _below_rating(ship):
        submersible.depth_phase(h)  # R84: below her rating with nothing else in hand
    pumps.pump_phase(h)


def _below_rating(ship: Any) -> bool:
    """R84: a submersible deeper than her rated depth (she rolls each hour)."""
    spec = submersible.sub_spec(ship)
    return spec is not None and submersible.depth_now(ship) > int(spec["dive_depth"])


def salvage_phase(h: Any) -> None:
    """R83: the hour a port's salvage crew took is up: she is afloat again."""
    s = h.s
    due = s.more.get("salvage_at")
    if due is None or s.status != "stuck" or h.clock < int(due):
        return
    s.status = "under way"
    s.more.pop("salvage_at", None)
    s.more.pop("grounded_mph", None)
    text = f"The salvage crew get {h.ship.name} off the bottom: afloat again (R83)."
    adrift = adrift_now(s)  # R70: with no crew aboard nobody sails her (R64)
    h.note(
        "aground",
        f"{text} {adrift}" if adrift else text,
        changes={"stuck": False, "status": s.status} if adrift else {"stuck": False},
    )


def escape_mods(h: Any) -> list[Modifier]:
    """R83: -1 per full 10 mph she grounded at, +1 per propeller beyond the first."""
    s = h.s
    mph = s.more.get("grounded_mph")
    if mph is None or s.ship.design is None:
        return []
    propellers = int(s.ship.design.get("propellers", 0) or 0)
    return depth.escape_modifiers(int(mph), propellers, h.book)


def by_depth(h: Any, info: Any, speed: int | None = None) -> bool:
    """R83: a built boat entering a charted hex: her draft against its depth (one hazard
    roll at most). False where R33-R34 decide (rolled ships, uncharted hexes). Under way
    she enters at her speed this hour; carried by a current (R64, voyage.rules.drift)
    the drift phase passes the current's ``speed``."""
    ship, s = h.ship, h.s
    if ship.design is None:
        return False
    bottom = info.depth
    down = submersible.depth_now(ship)
    draws = (draft_ft(ship, h.book) or 0) + down
    if bottom is None and down:
        # R84 with R65: uncharted, a port, coastal or shallow hex has its bottom within an
        # anchor's 150 ft; a sub whose keel is below that meets it, as a charted bottom
        shallow = depth.uncharted_bottom(info, h.book)
        bottom = shallow if shallow and draws > shallow else None
    if bottom is None:
        return False
    mph = int(h.speed) if speed is None else int(speed)
    result = depth.depth_hazard(
        draws,
        bottom,
        info.seabed or "sandy",
        mph,
        ship.tier,
        h.roller,
        h.book,
        ship.traits,
        down=down,
    )
    if result is None:
        return True
    if result.stuck:
        s.status = "stuck"
        s.more["grounded_mph"] = mph
        h.stop_moving()
        if "depth" in result.changes:  # R84: she lies on the bottom, never below it
            if result.changes["depth"]:
                ship.equipment["depth_ft"] = result.changes["depth"]
            else:
                ship.equipment.pop("depth_ft", None)
    h.log(result.event(), "aground" if result.stuck else None)
    h.apply_damage(result.changes)
    bottom_damage(h, bool(result.ram and result.ram.damaged))  # R85: her propellers
    return True
