"""Text for people: ship cards and short lines, shared by the CLI and the exports."""

from __future__ import annotations

from typing import Any

from voyage.base.tiers import roman
from voyage.vessels.boatships import boat_card
from voyage.vessels.ships import load_part_said
from voyage.vessels.stores import stores_line

LOAD_LABELS = {"quarter": "Quarter", "half": "Half", "full": "Full", "overloaded": "Overloaded"}


def equipment_text(eq: dict[str, Any]) -> list[str]:
    """The ship's equipment as short phrases."""
    out = []
    for key, label in (("light", "Light"), ("radio", "Radio"), ("net", "Net")):
        if eq.get(key):
            out.append(f"{label}: {eq[key]}")
    for weapon in eq.get("heavy_weapons", []):
        out.append(f"Heavy weapon: {weapon}")
    if eq.get("armor"):
        out.append(f"Armored plating: {eq['armor']}")
    if eq.get("harpoons"):
        out.append(f"Explosive harpoons: {eq['harpoons']}")
    if eq.get("firehose"):
        out.append("Firehose")
    if eq.get("ram"):
        out.append("Ram")
    if eq.get("list_side"):
        out.append(f"Lists to {eq['list_side']}")
    if eq.get("standard"):
        out.append("Standard: " + ", ".join(eq["standard"]))
    return out


#: the status of a ship in port but on no hex (rolled, not yet placed)
_NOWHERE = ", not on the map yet (`voyage ship place` puts her in a port)"


def ship_card(fig: dict[str, Any]) -> list[str]:
    """A ship's figures (from ships.figures) as lines of text."""
    if "built" in fig:  # R80: a built boat shows her design sheet
        return boat_card(fig)
    engine = f"Engine {roman(fig['engine_tier'])}" if fig["engine_tier"] else "No engine"
    traits = ", ".join(fig["traits"]) or "none"
    parts = fig["load_parts"]
    load_detail = ", ".join(f"{load_part_said(k)} {v}" for k, v in parts.items() if v)
    speed = f"{fig['speed']} knots"
    if fig["pace"] != "normal":
        speed += f" ({fig['pace']}{' +' + str(fig['strain']) if fig['pace'] == 'strain' else ''};"
        speed += f" cruising {fig['cruising_speed']})"
    if fig["engine_tier"] and not fig["under_power"]:
        why = "engine broken" if fig.get("engine_broken") else "no fuel"
        speed += f" ({why}; {fig['rated_speed']} knots under power)"  # adrift: her Status at sea
    lines = [
        f"{fig['name']}: {fig['class']}, Tier {roman(fig['tier'])}, {engine}",
        f"  Traits: {traits}",
        f"  Deadweight {fig['deadweight']} hlbs; Load {fig['load']} hlbs "
        f"({LOAD_LABELS.get(fig['load_category'], fig['load_category'])}; {load_detail}); "
        f"sinks above {fig['sinking_load']}",
        f"  Speed {speed}; may strain up to +{fig['max_strain']}; "
        f"Fuel Use {fig['fuel_use']} hlb/hex; To-hit {fig['to_hit']:+d}",
        f"  Aboard: crew {fig['crew']}, passengers {fig['passengers']}, cargo {fig['cargo']}, "
        f"fuel {fig['fuel']}, water in her hull {fig['water']}"
        f"{', anchors ' + str(fig['anchors']) if fig.get('anchors') is not None else ''}"
        f"{', life jackets ' + str(fig['life_jackets']) if fig.get('life_jackets') else ''}"
        f"{', life rafts ' + str(fig['life_rafts']) if fig.get('life_rafts') else ''}",
        f"  Status: {fig['status']}{' at ' + fig['hex'] if fig.get('hex') else ''}"
        # a ship just rolled is "in port" nowhere: say so, and how she gets somewhere
        f"{_NOWHERE if not fig.get('hex') and fig['status'] == 'in port' else ''}"
        f"{'; engine broken' if fig.get('engine_broken') else ''}",
    ]
    lines += stores_line(fig)  # R100-R102, a ship whose stores are counted
    eq = equipment_text(fig["equipment"]) + ([fig["pumps"]] if fig.get("pumps") else [])
    if eq:
        lines.append("  Equipment: " + "; ".join(eq))
    return lines
