"""The referee's actions for a ship with nobody to work her (R70, *our reading*:
docs/rulings.md, "A ship with no crew"; the rule itself is voyage.rules.crewless): the
refusal of an action that needs her hands (:func:`refuse_crewless`), and a ship whose last
crewman is taken off at sea (:func:`heave_to`: `ship load --crew 0`, `crew move`, `crew
remove`), who lies adrift at once.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.rules.crewless import (
    ONLY_DRIFTS,
    SEARCH_ENDS,
    adrift_words,
    crew_work,
    lie_adrift,
    no_crew,
)
from voyage.store.mapstore import campaign_chart
from voyage.store.voyagerows import open_voyage
from voyage.vessels.submersible import sub_spec


def refuse_crewless(
    camp: Any, ship: Any, s: Any, what: str, target: str | None, chart: Any
) -> None:
    """Refuse the referee's action ``what`` for a ship with no crew when it needs her hands
    (voyage.rules.crewless.crew_work); nothing is changed. A ship with crew aboard passes
    untouched."""
    if ship.crew >= 1:
        return
    if what == "abandon" and ship.passengers < 1:  # R71 with nobody to leave her
        raise VoyageRuleError(
            f"nobody is aboard {ship.name} to abandon her: she is a derelict as she lies "
            f"({ONLY_DRIFTS}); put people aboard with `voyage ship load {ship.name!r} --crew N`"
        )
    if what in ("dive", "surface") and sub_spec(ship) is None:
        return  # not a submersible: the action's own refusal says so (R84)
    where = s.hex if s is not None else ship.hex
    in_port = False
    if what in ("anchor", "repair") and where:
        if chart is None:
            chart, _ = campaign_chart(camp)
        in_port = bool(chart.hex(where).port)
    work = crew_work(what, target, s, in_port)
    if work is None:
        return
    drifts = what in ("anchor", "weigh", "course")
    raise no_crew(ship, work, ONLY_DRIFTS if drifts else "")


def heave_to(camp: Any, ship: Any) -> tuple[Any, str]:
    """Her crew taken off at sea (`voyage ship load SHIP --crew 0`, `voyage crew move` or
    `crew remove` of her last crewman): under way, nobody is left to sail her, so she
    makes no way of her own and lies adrift (R64; our reading, R70); searching (R74),
    anchored or adrift as well, her search ends at once (it ran on to the next advance,
    which ended it with its own event). Returns her voyage (with ``ship`` as its ship, to
    save inside the caller's action) and the line saying so; (None, '') where neither
    changed or she keeps a crew."""
    if ship.crew >= 1:
        return None, ""

    s = open_voyage(camp, ship.name)
    if s is None or not (s.status == "under way" or s.searching):
        return None, ""
    s.ship = ship  # the loaded ship is what the voyage saves
    under_way, searched = s.status == "under way", s.searching
    lie_adrift(s)
    if not under_way:
        return s, f"{ship.name} has no crew now: her {SEARCH_ENDS}"
    line = f"{ship.name} has no crew now: {adrift_words(ship, s.hex)}"
    return s, line + (f" Her {SEARCH_ENDS}" if searched else "")
