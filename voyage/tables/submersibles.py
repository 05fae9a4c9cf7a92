"""Validation of the R83-R86 blocks of tables/boats.yaml: grounding, bilge pumps and
submersibles (the Depth Damage Table and the Submarine Control Table, faces explicit) and
leak repair at sea.

Called from :func:`voyage.tables.boats.check_boats` with its checker; one line per problem,
naming the file and the key, like every other table.
"""

from __future__ import annotations

from typing import Any

#: The blocks this module checks (keys of the boats table).
KEYS = {"grounding", "bilge_pump", "submersible", "leak_repair"}


def check_depth_tables(data: dict[str, Any], c: Any, out: dict[str, Any]) -> None:
    """R83 grounding, R85 bilge pumps, R84 submersibles: every figure checked."""
    g = c.mapping(
        data["grounding"],
        "grounding",
        {
            "escape_per_mph",
            "extra_propeller",
            "scrape_in_6",
            "help_cost",
            "help_per_lbs",
            "help_hours",
        },
    )
    for f, v in g.items():
        c.integer(v, f"grounding.{f}", 1 if f in ("escape_per_mph", "help_per_lbs") else 0)
    c.integer(g["scrape_in_6"], "grounding.scrape_in_6", 0, 6)
    out["grounding"] = g
    p = c.mapping(
        data["bilge_pump"],
        "bilge_pump",
        {"weight_hlbs", "works_in_6", "bails", "hlbs_per_pip", "dry_hours"},
    )
    for f in ("weight_hlbs", "hlbs_per_pip", "dry_hours"):
        c.integer(p[f], f"bilge_pump.{f}", 0)
    c.integer(p["works_in_6"], "bilge_pump.works_in_6", 0, 6)
    c.dice(p["bails"], "bilge_pump.bails")
    out["bilge_pump"] = p
    s = c.mapping(
        data["submersible"],
        "submersible",
        {
            "surfaced_speed",
            "reinforced",
            "ca_frame",
            "per_ten_percent",
            "leak",
            "depth_damage",
            "control",
        },
        {"armor_modifiers"},
    )
    c.number(s["surfaced_speed"], "submersible.surfaced_speed", 0)
    if s["surfaced_speed"] > 1:
        raise c.fail("submersible.surfaced_speed", "a share of her speed, 0 to 1")
    for f in ("reinforced", "ca_frame", "per_ten_percent"):
        c.integer(s[f], f"submersible.{f}")
    c.dice(s["leak"], "submersible.leak")
    _faces(
        s["depth_damage"],
        "submersible.depth_damage",
        c,
        lambda row, w: (
            c.mapping(row, w, {"from", "to", "leak_in_6", "implodes"}, {"armor_damage"}),
            c.integer(row["leak_in_6"], f"{w}.leak_in_6", 0, 6),
            c.typed(row["implodes"], f"{w}.implodes", bool, "true or false"),
            "armor_damage" in row and c.dice(row["armor_damage"], f"{w}.armor_damage"),
        ),
    )
    # R84: the seed's armour modifiers (where the referee tracks armour): a share of the
    # weakest side, 0 to 1, and a whole modifier
    mods = s.get("armor_modifiers", [])
    if not isinstance(mods, list):
        raise c.fail("submersible.armor_modifiers", "expected a list of {share, modifier}")
    for i, row in enumerate(mods):
        w = f"submersible.armor_modifiers[{i}]"
        c.mapping(row, w, {"share", "modifier"})
        c.number(row["share"], f"{w}.share", 0)
        if row["share"] > 1:
            raise c.fail(f"{w}.share", "a share of the weakest side, 0 to 1")
        c.integer(row["modifier"], f"{w}.modifier")
    _faces(
        s["control"],
        "submersible.control",
        c,
        lambda row, w: (
            c.mapping(row, w, {"from", "to", "effect"}),
            c.typed(row["effect"], f"{w}.effect", str, "a sentence"),
        ),
    )
    out["submersible"] = s
    r = c.mapping(data["leak_repair"], "leak_repair", {"dice", "target", "every_minutes"})
    c.dice(r["dice"], "leak_repair.dice")
    c.integer(r["target"], "leak_repair.target")
    c.integer(r["every_minutes"], "leak_repair.every_minutes", 1, 60)
    out["leak_repair"] = r


def _faces(rows: Any, where: str, c: Any, check_row: Any) -> None:
    """Rows of explicit faces, from the lowest total up, with no gap and no overlap."""
    if not isinstance(rows, list) or not rows:
        raise c.fail(where, "expected a list of rows with from and to")
    last = None
    for i, row in enumerate(rows):
        w = f"{where}[{i}]"
        if not isinstance(row, dict):
            raise c.fail(w, "expected a mapping")
        check_row(row, w)
        lo, hi = c.integer(row["from"], f"{w}.from"), c.integer(row["to"], f"{w}.to")
        if hi < lo:
            raise c.fail(w, f"runs backwards ({lo} to {hi})")
        if last is not None and lo != last + 1:
            raise c.fail(f"{w}.from", f"expected {last + 1} (rows follow on with no gap)")
        last = hi


def row_for(rows: list[dict[str, Any]], total: int) -> dict[str, Any]:
    """The row whose faces hold ``total`` (below the first: the first; above: the last)."""
    for row in rows:
        if row["from"] <= total <= row["to"]:
            return row
    return rows[0] if total < rows[0]["from"] else rows[-1]
