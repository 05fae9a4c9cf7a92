"""A campaign folder's campaign.yaml, read and checked against its map (its demo's hexes).

The folder's name, description, seed, map and demo voyage, as :class:`CampaignInfo`; the
map format itself is voyage.map.seamap's.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap
from voyage.map.mapreader import kind_of
from voyage.map.seamap import campaign_map_path, load_map, read_campaign_file


@dataclass(frozen=True)
class DemoShip:
    """A ship of the demo: a name, where it starts and where it is bound."""

    name: str
    start: str
    destination: str


@dataclass(frozen=True)
class DemoPlan:
    """The demo voyage a campaign folder suggests (campaign.yaml ``demo:``)."""

    start: str
    destination: str
    storm_around: str | None = None
    storm_radius: int | None = None
    storm_hours: int | None = None
    ships: tuple[DemoShip, ...] = ()


@dataclass(frozen=True)
class CampaignInfo:
    """What a campaign folder's campaign.yaml says, checked against its map."""

    folder: Path
    name: str
    description: str
    seed: int | None
    map_path: Path
    demo: DemoPlan | None


CAMPAIGN_KEYS = ("name", "description", "seed", "map", "demo", "settings", "tables")


def load_campaign_info(folder: str | Path) -> CampaignInfo:
    """Read and check a campaign folder: its campaign.yaml, its map, its demo's hexes.

    Every demo hex must be water on the map (start and destination ports or sea), so a
    demo never starts a ship on land.
    """
    folder = Path(folder)
    path = folder / "campaign.yaml"
    data = read_campaign_file(folder)
    for key in data:
        if key not in CAMPAIGN_KEYS:
            close = difflib.get_close_matches(str(key), CAMPAIGN_KEYS, n=1)
            hint = f"did you mean {close[0]!r}?" if close else "use " + ", ".join(CAMPAIGN_KEYS)
            raise MapError(f"{path}: unknown key {key!r}: {hint}")
    name = data.get("name", folder.name)
    if not isinstance(name, str):
        raise MapError(f"{path}: name must be text")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise MapError(f"{path}: seed must be a whole number, got {kind_of(seed)}")
    map_path = campaign_map_path(folder)
    sea_map = load_map(map_path)

    def water(value: Any, what: str) -> str:
        if not isinstance(value, str) or not hexmap.is_hex_name(value):
            raise MapError(
                f'{path}: {what} {value!r} is not a CCRR name: write it in quotes, e.g. "0812"'
            )
        if not sea_map.in_bounds(value):
            raise MapError(f"{path}: {what}: {sea_map.off_map_message(value)}")
        if not sea_map.is_sea(value):
            raise MapError(f"{path}: {what} {value} is land on {sea_map.name}")
        return hexmap.canonical(value)

    demo = None
    raw = data.get("demo")
    if raw is not None:
        if not isinstance(raw, dict) or "start" not in raw or "destination" not in raw:
            raise MapError(f"{path}: demo needs start and destination hexes")
        storm = raw.get("storm") or {}
        if not isinstance(storm, dict):
            raise MapError(f"{path}: demo storm is a mapping: {{around: HEX, radius: N}}")
        around = water(storm["around"], "demo storm around") if "around" in storm else None
        radius, hours = storm.get("radius"), storm.get("hours")
        for what, value in (("radius", radius), ("hours", hours)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise MapError(f"{path}: demo storm {what} must be a whole number")
        ships = []
        for i, ship in enumerate(raw.get("ships") or [], start=1):
            if not isinstance(ship, dict) or not {"start", "destination"} <= set(ship):
                raise MapError(f"{path}: demo ship {i} needs start and destination")
            ships.append(
                DemoShip(
                    str(ship.get("name", f"Ship {i}")),
                    water(ship["start"], f"demo ship {i} start"),
                    water(ship["destination"], f"demo ship {i} destination"),
                )
            )
        demo = DemoPlan(
            water(raw["start"], "demo start"),
            water(raw["destination"], "demo destination"),
            around,
            radius,
            hours,
            tuple(ships),
        )
    description = data.get("description", "")
    return CampaignInfo(folder, name, str(description).strip(), seed, map_path, demo)
