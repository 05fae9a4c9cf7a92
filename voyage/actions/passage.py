"""A ship's passage beyond the hour-by-hour engine: the time a route should take with the
currents (R64), anchoring and weighing (R65), and the clock with every ship in port.

They are called from ``sail``, ``advance`` (:mod:`voyage.actions.voyages`) and the referee's
actions: what a passage takes, apart from stepping the hours.
"""

from __future__ import annotations

from typing import Any, cast

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plain
from voyage.dice.events import Event
from voyage.engine.clock import Chart, ShipState, World
from voyage.rules.anchors import anchorage_problem
from voyage.rules.drift import NO_CURRENT, current_lookup
from voyage.rules.emergency import minutes_left
from voyage.rules.eta import route_hours_now
from voyage.rules.fuel import no_way
from voyage.store.calendarrow import campaign_calendar
from voyage.store.campaigndb import Campaign
from voyage.store.logrows import log_event
from voyage.store.mapstore import campaign_chart, map_row
from voyage.store.voyagerows import save_state
from voyage.vessels import ships as shipfig
from voyage.vessels.fittings import anchors_aboard
from voyage.vessels.submersible import depth_now
from voyage.vessels.vessel import Ship


def expected_hours(camp: Campaign, s: ShipState, chart: Any) -> tuple[int | None, int | None]:
    """(hours with the currents, hours in still water) to sail the rest of her route at her
    speed now, rising as she lightens on the way (R12-R16, R31, R64, R101:
    voyage.rules.eta); None where she would make no way."""

    rest = s.route[s.position :]
    miles = int(camp.rulebook.procedures["hex_miles"])
    if chart is None:
        chart, _ = campaign_chart(camp)

    def hours(current_at: Any) -> int | None:
        return route_hours_now(
            s.ship, camp.rulebook, camp.water_in_load, s.pace, s.strain, rest, current_at, miles
        )

    return hours(current_lookup(chart)), hours(NO_CURRENT)


def fuel_short(camp: Campaign, s: ShipState) -> dict[str, Any] | None:
    """What `voyage sail` warns of when what she carries will not take her the whole way at
    her use a hex now (R16 fuel in hlbs; R82 a built boat's charge in power units): the
    hexes she can enter, the hexes she must, and the hex at whose edge she runs dry. None
    when it will (or she burns nothing: sail, oars). Her use a hex can change on the way (a
    lighter Load, R12; a boat's speed with her weight, R82), so it is an estimate."""
    ship = s.ship
    use = shipfig.fuel_use(ship, camp.rulebook, s.pace, camp.water_in_load)
    if not use:
        return None
    needed = len(s.route) - 1 - s.position
    aboard = shipfig.aboard(ship)
    reach = int(aboard // use)
    if reach >= needed:
        return None
    what, unit = shipfig.fuel_words(ship)
    return {
        "what": what,
        "unit": unit,
        "aboard": plain(aboard),
        "per_hex": plain(use),
        "reach": reach,
        "needed": needed,
        "dry_at": s.route[s.position + reach + 1],
    }


def expected_text(with_current: int | None, still_water: int | None) -> str:
    """``expected 11 hours with the currents (14 hours without)`` for the sail event."""
    if with_current == still_water:
        return f"expected {_hours_text(still_water)}"
    still = _hours_text(still_water)
    return f"expected {_hours_text(with_current)} with the currents ({still} without)"


def _hours_text(hours: int | None) -> str:
    return "never (she makes no way)" if hours is None else f"{hours} hours"


def harbour_world(camp: Campaign) -> World | None:
    """With every ship in port the clock runs even before a map is loaded (no ship asks it
    anything): the engine's world then has the calendar and no chart."""

    if map_row(camp) is not None:
        return None
    return World(camp.rulebook, cast(Chart, None), calendar=campaign_calendar(camp))


def anchor_or_weigh(
    camp: Campaign, ship: Ship, s: ShipState, what: str, chart: Any
) -> tuple[str, dict[str, Any]]:
    """R65: drop anchor where an anchor reaches the bottom, with an anchor aboard; weigh it
    (or, adrift, get under way again)."""

    if what == "weigh":
        if s.status not in ("anchored", "adrift"):
            raise VoyageRuleError(f"{ship.name} is {s.status}: not at anchor or adrift")
        why = no_way(ship, camp.rulebook, s.pace, camp.water_in_load)
        if s.status == "adrift" and why:  # R13, R16: she cannot get under way
            raise VoyageRuleError(f"{ship.name} is adrift: {why}")
        was = s.status
        s.status = "under way"
        text = (
            f"{ship.name} weighs anchor and gets under way."
            if was == "anchored"
            # adrift after a parted cable (R65) or a tow cast off (R92): say whither, as
            # a cast-off ship goes on along her tower's route
            else f"{ship.name} gets under way again, bound for {s.route[-1]} (R64, R65; "
            f"`voyage act {ship.name!r} course --to CCRR` to change it)."
        )
        return text, {"status": s.status}
    if s.status not in ("under way", "adrift"):
        raise VoyageRuleError(f"{ship.name} is {s.status}, not under way")

    if depth_now(ship) > 0:  # R84, R65 (our reading): an anchor is worked from the deck
        raise VoyageRuleError(
            f"{ship.name} is {depth_now(ship)} ft down: bring her up first "
            f"(`voyage act {ship.name!r} surface`), then anchor or moor her (R84, R65)"
        )
    if chart is None:
        chart, _ = campaign_chart(camp)
    info = chart.hex(s.hex)
    if info.port:
        # a harbour: she moors at a quay, anchor or none, sheltered from the sea (our
        # reading; a port call on the way, to refuel, needs no anchor)
        s.status = "anchored"
        s.drift_miles = "0"
        return _still_sinking(camp, s, f"{ship.name} moors in {info.port} ({s.hex})")
    if anchors_aboard(ship) < 1:
        raise VoyageRuleError(
            f"{ship.name} has no anchor aboard: buy one in port "
            f"(`voyage ship load {ship.name!r} --anchors 1`) (R65)"
        )
    problem = anchorage_problem(info, camp.rulebook)
    if problem:
        raise VoyageRuleError(problem)
    s.status = "anchored"
    s.drift_miles = "0"
    return _still_sinking(camp, s, f"{ship.name} drops anchor at {s.hex}")


def _still_sinking(camp: Campaign, s: ShipState, done: str) -> tuple[str, dict[str, Any]]:
    """The anchoring event: ``done`` (she moors, or drops anchor), and, if she is sinking,
    that neither a quay nor an anchor stops it (R40): she goes under when her minutes run
    out unless the referee declares her saved (counted from now, as the log will give her
    minute: voyage.rules.emergency.minutes_left)."""

    changes: dict[str, Any] = {"status": s.status}
    if s.sinking_in is None:
        return f"{done}.", changes
    changes["sinking_in"] = s.sinking_in
    left = minutes_left(s.sinking_since, s.sinking_in, camp.clock)
    return (
        f"{done}, but she is still sinking (R40): she goes under in "
        f"{left} minutes unless saved (`voyage act {s.ship.name!r} saved`).",
        changes,
    )


def end_lying(camp: Campaign, act: Any, s: ShipState) -> None:
    """End the voyage a ship lies on, anchored or adrift (voyage.rules.arrival.lying), so
    that `voyage sail` or `voyage ship place` can start her afresh; logged on that voyage."""

    ship, was = s.ship, s.status
    text = (
        f"{ship.name} weighs anchor at {s.hex}: her voyage {s.voyage_id} ends here (R65)."
        if was == "anchored"
        else f"{ship.name} gets under way at {s.hex}, where she lay adrift: her voyage "
        f"{s.voyage_id} ends here (R64)."
    )
    s.status = "arrived"
    save_state(camp, s, camp.clock)
    log_event(camp, act, ship.name, s.voyage_id, Event("weigh", text, [], 0, {"status": was}))
