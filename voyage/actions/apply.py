"""A table roll for a campaign ship (``voyage roll PROCEDURE SHIP``) as one action, and
carrying it into her voyage (``--apply``).

A roll at the table (voyage/cli/roll.py) returns the procedure's :class:`Outcome` records;
here they change the ship's :class:`~voyage.engine.clock.ShipState` exactly as the engine changes
it when the same thing happens during an advance (``_ShipHour.capsize``, ``apply_damage``,
``begin_sinking``, ``start_fire``, ``tick``, ``strain_check``), so the next
``voyage advance`` carries on from it: water flows through a new leak at the end of the
hour, a fire burns minute by minute, the sinking clock counts down (R52).

Each applied outcome is logged as an event on the ship's voyage at the campaign clock
(minute 0), the same shape as the engine's events, inside the roll's own action, so
``voyage undo`` takes back the roll and its effect together.

Only a ship on a voyage can take an applied result: the engine steps only ships at sea, so
a leak or a fire given to a ship in port would never flood or burn. Such a ship is refused
with one line saying to sail first (see :func:`voyage_for_apply`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.dice.events import Event, Outcome
from voyage.dice.roller import Roller
from voyage.engine.clock import ShipState
from voyage.rules.aground import AgroundResult, EscapeResult
from voyage.rules.boatwater import KeelRighted
from voyage.rules.capsize import CapsizeResult
from voyage.rules.emergency import minutes_left
from voyage.rules.fire import FireMinute, FireStart
from voyage.rules.hull import HullHitResult
from voyage.rules.ramming import RamResult
from voyage.rules.sinking import SinkingResult
from voyage.rules.strain import StrainResult
from voyage.store.campaigndb import Action, Campaign
from voyage.store.logrows import log_event
from voyage.store.voyagerows import open_voyage, save_state
from voyage.vessels import ships as shipfig

#: The ``voyage roll`` procedures whose results can be applied, as the checks below name them.
APPLIED = (
    "capsize",
    "hull-hit",
    "ram",
    "aground",
    "escape",
    "fire",
    "fire minute",
    "strain",
    "sinking",
)

#: Why a ship sinks when the referee rolls the sinking time on its own (R40).
REFEREE_CAUSE = "the referee's call (R40)"


def voyage_for_apply(camp: Campaign, ship_name: str, procedure: str) -> ShipState:
    """The voyage an applied ``procedure`` changes, or a one-line refusal saying why not.

    Refused: a sunk or abandoned ship; a ship not at sea (sail first); and a result that
    cannot happen to the ship as she is (capsizing when already capsized or sinking, a
    second sinking, running aground when stuck, getting off when not stuck, a minute of a
    fire that is not burning or is already out of control, straining a broken engine).
    """
    if procedure not in APPLIED:
        raise VoyageRuleError(f"a {procedure} roll changes no ship: there is nothing to apply")
    ship = camp.get_ship(ship_name)
    if ship.status == "sunk":
        raise VoyageRuleError(f"{ship.name} is sunk: nothing more can happen to her")
    s = open_voyage(camp, ship.name)
    if s is None:
        if ship.status == "abandoned":
            raise VoyageRuleError(f"{ship.name} was abandoned: her voyage is over")
        raise VoyageRuleError(
            f"{ship.name} is not at sea: --apply changes a ship on a voyage; sail first "
            f"(`voyage sail {ship.name!r} --to CCRR`) or roll without --apply"
        )
    name = s.ship.name
    if procedure in ("capsize", "sinking"):
        if s.sinking_in is not None:
            # counted as the status table counts
            left = minutes_left(s.sinking_since, s.sinking_in, camp.clock)
            raise VoyageRuleError(
                f"{name} is already sinking ({left} minutes left, R40): "
                f"`voyage act {name!r} saved` first if the crew saved her"
            )
        if procedure == "capsize" and s.capsized:
            raise VoyageRuleError(f"{name} has already capsized (R41)")
    elif procedure == "aground":
        if s.status == "stuck":
            raise VoyageRuleError(f"{name} is already stuck fast: roll `escape` (R34)")
        if s.status not in ("under way", "anchored"):
            raise VoyageRuleError(f"{name} is {s.status}: only a ship at sea runs aground (R34)")
    elif procedure == "escape":
        if s.status != "stuck":
            raise VoyageRuleError(f"{name} is not stuck: there is nothing to get off (R34)")
    elif procedure == "fire minute":
        if s.swallow_in is not None:
            # R52: as the log will give her minute
            left = minutes_left(s.fire_since, s.swallow_in, camp.clock)
            raise VoyageRuleError(
                f"the fire aboard {name} is out of control: it swallows her in {left} "
                "minutes (R50); advance the clock"
            )
        if not s.fire:
            raise VoyageRuleError(
                f"{name} is not on fire: `voyage roll fire {name!r} --apply` starts one (R50)"
            )
    elif procedure == "strain":
        if not shipfig.has_engine(s.ship):
            raise VoyageRuleError(f"{name} has no engine to strain (R14)")
        if s.ship.engine_broken:
            raise VoyageRuleError(f"{name}'s engine is already broken (R14)")
    return s


def apply_outcomes(s: ShipState, outcomes: Sequence[Outcome], now: int) -> list[Event]:
    """Change ``s`` as the engine would for each outcome, in order; the events to log.

    ``now`` is the campaign time in minutes (clock x 60): a fire or a sinking started now
    burns or counts down from the next minute, as one started in an advance does (R52).
    A :class:`SinkingResult` after a capsize or a destroyed hull sinks the ship for that
    cause; on its own it is the referee's call (R40).
    """
    events: list[Event] = []
    cause: str | None = None
    fire_where: str | None = None
    name = s.ship.name
    for outcome in outcomes:
        event = outcome.event(0)
        if isinstance(outcome, CapsizeResult):
            # R41: on a failure the ship capsizes and begins sinking (R40)
            if outcome.capsized:
                s.capsized = True
                cause = f"she capsized ({outcome.reason})" if outcome.reason else "she capsized"
        elif isinstance(outcome, (HullHitResult, RamResult, AgroundResult)):
            if isinstance(outcome, AgroundResult) and outcome.stuck:
                s.status = "stuck"  # R34
            leak = int(outcome.changes.get("add_leak", 0) or 0)
            if leak:
                s.open_leak(leak)  # R36
            if outcome.changes.get("destroyed"):
                s.destroyed = True  # R36: destroyed, she begins sinking
                cause = "the hull is destroyed (R36)"
        elif isinstance(outcome, KeelRighted):
            s.capsized = False  # R85: a built boat's Weighted Keel rights her, no sinking
            event = outcome.event(1)
        elif isinstance(outcome, EscapeResult):
            if outcome.freed:
                s.status = "under way"  # R34
        elif isinstance(outcome, StrainResult):
            if outcome.broke:
                s.ship.engine_broken = True  # R14 (R13: no way under power)
            if outcome.fire:
                fire_where = "the engine"
        elif isinstance(outcome, FireStart):
            if fire_where:
                event.text = f"Fire in {fire_where}! {event.text}"
            if outcome.severity:
                # R50, as the engine's start_fire: the worse fire, burning from the next minute
                s.catch_fire(
                    outcome.severity, now, outcome.swallowed_in if outcome.out_of_control else None
                )
        elif isinstance(outcome, FireMinute):
            s.fire = outcome.severity  # R50, as the engine's tick
            if outcome.out_of_control:
                s.swallow_in = outcome.swallowed_in
                s.fire_since = now
            if outcome.out:
                s.fire = 0
                s.fire_since = None
        elif isinstance(outcome, SinkingResult) and s.sinking_in is None:
            # R40, as the engine's begin_sinking: the count starts the next minute
            s.start_sinking(outcome.minutes, now, cause or REFEREE_CAUSE)
            event.text = f"{name} is sinking: {s.sinking_cause}. {event.text}"
        events.append(event)
    return events


@contextmanager
def logged_roll(
    camp: Campaign, ship_name: str, procedure: str, applying: bool
) -> Iterator[tuple[Action, Roller]]:
    """A roll at the table for the campaign's ship ``ship_name``, as one undoable action:
    the action and the campaign's roller, inside it; the rolls made are logged against her
    when it ends. With ``applying``, :func:`apply_roll` carries the outcome into her voyage
    inside the same action."""
    summary = f"roll {procedure} for {ship_name}"
    if applying:
        summary += " (applied)"
    with camp.action(f"roll {procedure}", summary) as act:
        roller = camp.roller
        start = len(roller.records)
        yield act, roller
        camp.record_rolls(roller.records[start:], ship_name)


def apply_roll(
    camp: Campaign, act: Action, ship_name: str, procedure: str, outcomes: Sequence[Outcome]
) -> tuple[ShipState, list[Event]]:
    """Apply a roll's outcomes to the ship's voyage inside the roll's action ``act``: the
    state is read again inside the transaction, changed, saved, and each outcome logged."""
    s = voyage_for_apply(camp, ship_name, procedure)
    events = apply_outcomes(s, outcomes, camp.clock * 60)
    save_state(camp, s, camp.clock)
    for event in events:
        log_event(camp, act, s.ship.name, s.voyage_id, event)
    return s, events


def state_summary(s: ShipState) -> dict[str, Any]:
    """What the voyage holds for the ship after an applied roll (``voyages.state`` and the
    ship's engine and water), for the command's report."""
    return {
        "voyage": s.voyage_id,
        "status": s.status,
        "condition": s.condition,
        **s.extra(),
        "engine_broken": s.ship.engine_broken,
        "water": s.ship.water,
    }


def state_line(s: ShipState) -> str:
    """The ship's state after an applied roll, in a line:
    ``under way; capsized; leaks 4/h; sinking in 14 min``."""
    parts = [s.status]
    if s.capsized:
        parts.append("capsized")
    if s.destroyed:
        parts.append("destroyed")
    if s.leaks:
        parts.append("leaks " + ", ".join(f"{v}/h" for v in s.leaks))
    if s.swallow_in is not None:
        parts.append(f"fire out of control, swallows her in {s.swallow_in} min")
    elif s.fire:
        parts.append(f"fire severity {s.fire}")
    if s.sinking_in is not None:
        parts.append(f"sinking in {s.sinking_in} min")
    if s.listing:
        parts.append("listing")
    if s.ship.engine_broken:
        parts.append("engine broken")
    return "; ".join(parts)
