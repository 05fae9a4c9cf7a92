"""The referee's encounter check at the table (``voyage encounter check SHIP``, R93): one
check for a ship where she is, with the campaign's dice, as one undoable action; the
castaways it may meet go into the water of her hex (R71-R74)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.store.calendarrow import campaign_calendar
from voyage.store.campaigndb import Campaign
from voyage.store.logrows import log_event
from voyage.store.mapstore import campaign_chart
from voyage.store.peoplerows import floaters, save_floaters
from voyage.store.voyagerows import open_voyage
from voyage.tables.calendar import is_night
from voyage.world.castaways import castaway_words, castaways
from voyage.world.encounters import (
    EncounterResult,
    chance_for,
    encounter_check,
    region_lookup,
    terrain_of,
)


def check_by_hand(
    camp: Campaign, ship_name: str, sure: bool = False, chart: Any = None
) -> tuple[EncounterResult, dict[str, Any]]:
    """``voyage encounter check SHIP``: one encounter check for the ship where she is, with
    the campaign's dice (one undoable action, logged on her voyage if she is at sea).
    ``sure`` skips the chance: the referee says something is met; roll what."""
    if chart is None:
        chart, _ = campaign_chart(camp)
    # read and refused inside the action: a refusal changes nothing (the action rolls back)
    with camp.action("encounter check", f"encounter check {ship_name}") as act:
        ship = camp.get_ship(ship_name)
        if ship.status == "sunk":
            raise VoyageRuleError(f"{ship.name} is sunk: she meets nothing more")
        if ship.status == "abandoned":  # R93: the advance checks only ships with a voyage
            raise VoyageRuleError(
                f"{ship.name} was abandoned: nobody aboard her meets anything; check a ship "
                "near her instead"
            )
        if not ship.hex:
            raise VoyageRuleError(
                f"{ship.name} is nowhere on the map: place her first (`voyage ship place "
                f"{ship.name!r} CCRR`)"
            )
        s = open_voyage(camp, ship.name)
        hex_name = s.hex if s is not None else ship.hex
        terrain = terrain_of(chart.hex(hex_name))
        night = is_night(campaign_calendar(camp), camp.clock)
        region = region_lookup(chart)(hex_name)
        chance = chance_for(camp.rulebook, camp.settings, region, terrain, night)
        result = encounter_check(
            camp.rulebook, camp.roller, chance, region, terrain, hex_name, camp.ship_names, sure
        )
        # castaways go into the water of her hex (R71-R74): the referee searches
        result = replace(result, text=result.text + castaways_into_campaign(camp, result.encounter))
        log_event(camp, act, ship.name, s.voyage_id if s else None, result.event(0))
        kind = result.encounter.get("kind", "nothing")
        camp.set_summary(act, f"encounter check {ship.name}: {kind}")
    where = {
        "ship": ship.name,
        "hex": hex_name,
        "terrain": terrain,
        "night": night,
        "chance": chance,
        "clock": camp.clock,
    }
    return result, where


def castaways_into_campaign(camp: Campaign, found: dict[str, Any]) -> str:
    """Castaways met by a check at the table (inside its action): a group in the floaters
    table; the words to add to the encounter's text ('' for any other encounter)."""
    rows = floaters(camp)
    group = castaways(found, camp.clock, max([f.id for f in rows] + [0]) + 1)
    if group is None:
        return ""
    save_floaters(camp, [*rows, group], [])
    return castaway_words(group)
