"""Encounter checks (R93) at the table: ``voyage encounter check`` rolled by hand with the
campaign's roller (:func:`check_by_hand`: castaways met go into its floaters table), and
the encounters met, as logged (:func:`encounter_rows`). The checks themselves, their own
dice streams and the engine's phase are voyage.world.encounters.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from voyage.actions.people import floaters, save_floaters
from voyage.actions.voyages import campaign_chart, log_event, open_voyage
from voyage.base.errors import VoyageRuleError
from voyage.tables.calendar import campaign_calendar
from voyage.world.castaways import castaways, in_water_words
from voyage.world.encounters import (
    EncounterResult,
    chance_for,
    encounter_check,
    is_night,
    region_lookup,
    terrain_of,
)


def check_by_hand(
    camp: Any, ship_name: str, sure: bool = False, chart: Any = None
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
        camp.db.execute(
            "UPDATE actions SET summary = ? WHERE id = ?",
            [f"encounter check {ship.name}: {result.encounter.get('kind', 'nothing')}", act.id],
        )
    where = {
        "ship": ship.name,
        "hex": hex_name,
        "terrain": terrain,
        "night": night,
        "chance": chance,
        "clock": camp.clock,
    }
    return result, where


def encounter_rows(camp: Any, ship: str | None = None) -> list[dict[str, Any]]:
    """Every encounter met (engine checks and checks by hand), oldest first: the event
    rows of kind ``encounter`` with what was met."""
    sql = "SELECT * FROM events WHERE kind = 'encounter'"
    args: list[Any] = []
    if ship:
        sql += " AND ship = ?"
        args.append(camp.get_ship(ship, archived=True).name)
    out = []
    for row in camp.db.query(sql + " ORDER BY clock, minute, id", args):
        found = json.loads(row["changes"] or "{}").get("encounter", {})
        out.append(
            {
                "ship": row["ship"],
                "clock": row["clock"],
                "minute": row["minute"],
                "kind": found.get("kind"),
                "hex": found.get("hex"),
                "terrain": found.get("terrain"),
                "text": found.get("text", row["text"]),
                "encounter": found,
            }
        )
    return out


def castaways_into_campaign(camp: Any, found: dict[str, Any]) -> str:
    """Castaways met by a check at the table (R93 with R70-R74; inside the caller's action):
    written to the floaters table (voyage.world.castaways); the words for the encounter."""
    rows = floaters(camp)
    group = castaways(found, camp.clock, max([f.id for f in rows] + [0]) + 1)
    if group is None:
        return ""
    save_floaters(camp, [*rows, group], [])
    return in_water_words(group)
