"""Submersibles (R84, AquaWars): built boats with a rated dive depth.

A submersible's design carries ``submersible: {dive_depth, reinforced, ca_frame}`` (``ship
build --submersible --dive-depth FEET [--reinforced] [--ca-frame]``). Her depth now is her
equipment's ``depth_ft`` (feet; 0 or none: surfaced), set with ``voyage act SHIP dive
DEPTH`` and ``surface``. Submerged she makes no storm capsize checks (R32/R60; the
seed: subs "can simply dive underneath any storms") and full speed; surfaced, 3/4 of it
(:func:`speed_factor`). A sub that loses power stays at her depth (nothing moves her).

Deeper than her rating she rolls d6 on the Depth Damage Table on first passing it and each
hour she stays below: -1 reinforced hull, +1 CA frame, +1 per full 10% beyond the rating.
0-4 nothing; 5-8 a leak on a 6 on d6; 9-10 on 5-6; 11 on 4-6; 12 or more she implodes
(destroyed, sunk). A leak is R36 with modifier 0: d6 hlbs an hour. Where the referee
tracks armour (the ``track_armor`` setting), the seed's armour modifiers count and the
table's damage wears her armour (voyage.vessels.subarmor). Numbers: ``submersible`` in
tables/boats.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Outcome
from voyage.dice.roller import Modifier, Roller, distribution
from voyage.tables.rulebook import RuleBook
from voyage.tables.submersibles import row_for
from voyage.vessels.subarmor import ARMOR_NOW, armor_modifier, armor_now, built_sides, wear


@dataclass(frozen=True)
class DepthDamageResult(Outcome):
    """A roll on the Depth Damage Table: the leak's hlbs an hour (0: none), or imploded."""

    total: int
    leak: int
    imploded: bool


def sub_spec(ship: Any) -> dict[str, Any] | None:
    """The submersible part of a built boat's design, or None (not a submersible)."""
    spec = ship.design
    return spec.get("submersible") if spec else None


def depth_now(ship: Any) -> int:
    """Her depth in feet (0: surfaced)."""
    return int(ship.equipment.get("depth_ft", 0) or 0)


def submerged(s: Any) -> bool:
    """R84: voyage ``s``'s ship is under the surface (no storm capsize checks)."""
    return depth_now(s.ship) > 0


def surfaced_factor(ship: Any, book: RuleBook) -> Fraction:
    """R84: a submersible on the surface makes 3/4 of her top speed; submerged, all of it.
    Any other vessel: 1 (voyage.vessels.boatpower.top_speed multiplies by it)."""
    if sub_spec(ship) is None or depth_now(ship) > 0:
        return Fraction(1)
    return Fraction(str(book.boats["submersible"]["surfaced_speed"]))


def damage_modifiers(
    depth: int, rated: int, spec: dict[str, Any], book: RuleBook
) -> list[Modifier]:
    """R84: the Depth Damage Table's modifiers at ``depth`` for a sub rated to ``rated``."""
    rule = book.boats["submersible"]
    mods = []
    if spec.get("reinforced"):
        mods.append(Modifier(int(rule["reinforced"]), "reinforced hull"))
    if spec.get("ca_frame"):
        mods.append(Modifier(int(rule["ca_frame"]), "CA frame"))
    tens = (depth - rated) * 10 // rated if rated else 0  # full 10% steps beyond
    if tens > 0:
        mods.append(
            Modifier(
                tens * int(rule["per_ten_percent"]),
                f"{(depth - rated) * 100 // rated}% beyond {rated} ft",
            )
        )
    return mods


def depth_damage(
    depth: int,
    rated: int,
    spec: dict[str, Any],
    roller: Roller,
    book: RuleBook,
    first: bool = False,
    armor: tuple[dict[str, int], dict[str, int]] | None = None,
) -> DepthDamageResult:
    """R84: one roll on the Depth Damage Table for a sub at ``depth`` rated to ``rated``.
    ``armor``: (her armour as built, now) by side where the referee tracks armour
    (voyage.vessels.subarmor): its modifier counts, and the row's damage wears every side
    (``changes["armor_now"]``); None leaves armour out (the dice as without it)."""
    rule = book.boats["submersible"]
    why = "passing her rated depth" if first else "an hour below her rated depth"
    mods = damage_modifiers(depth, rated, spec, book)
    worn = armor_modifier(*armor, book) if armor else None
    roll = roller.roll(f"depth damage ({why})", "d6", [*mods, worn] if worn else mods)
    row = row_for(rule["depth_damage"], roll.total)
    roll.outcome = "implodes" if row["implodes"] else f"row {_row_label(row)}"
    where = f"at {depth} ft, rated {rated} ft"
    if row["implodes"]:
        text = f"The hull buckles {where}: she implodes, destroyed (R84)."
        return DepthDamageResult("depth", text, (roll,), {"destroyed": True}, roll.total, 0, True)
    rolls = [roll]
    changes: dict[str, Any] = {}
    armor_words = ""
    if armor and armor[1] and row.get("armor_damage"):
        damage, left = wear(armor[1], str(row["armor_damage"]), roller)
        rolls.append(damage)
        changes["armor_now"] = left
        armor_words = f" Every armoured side takes {damage.total}: {damage.outcome}."
    need = int(row["leak_in_6"])
    if not need:
        return DepthDamageResult(
            "depth",
            f"The hull holds {where} (R84).{armor_words}",
            tuple(rolls),
            changes,
            roll.total,
            0,
            False,
        )
    leaks = roller.roll(
        "hull leaks",
        "d6",
        target=7 - need,
        success="a leak",
        failure="holds",
        target_text=f"leaks on {7 - need}-6",
    )
    rolls.append(leaks)
    if not leaks.success:
        return DepthDamageResult(
            "depth",
            f"The hull groans {where} but holds (R84).{armor_words}",
            tuple(rolls),
            changes,
            roll.total,
            0,
            False,
        )
    hlbs = roller.roll("leak", str(rule["leak"]))
    hlbs.outcome = f"{hlbs.total} hlbs an hour"
    rolls.append(hlbs)
    text = (
        f"The pressure springs a leak {where}: {hlbs.total} hlbs an hour (R84, R36).{armor_words}"
    )
    return DepthDamageResult(
        "depth",
        text,
        tuple(rolls),
        {**changes, "add_leak": hlbs.total},
        roll.total,
        hlbs.total,
        False,
    )


def depth_damage_odds(modifier: int, book: RuleBook) -> tuple[Fraction, Fraction]:
    """Exact (chance of a leak, chance of imploding) for one roll with ``modifier`` (R84)."""
    rows = book.boats["submersible"]["depth_damage"]
    leak = implode = Fraction(0)
    for face, p in distribution("d6").items():
        row = row_for(rows, face + modifier)
        if row["implodes"]:
            implode += p
        else:
            leak += p * Fraction(int(row["leak_in_6"]), 6)
    return leak, implode


#: ``ShipState.more`` key: the clock hour whose first minute a dive rolled in on passing
#: her rating.
ROLLED_AT = "depth_rolled_at"


def depth_phase(h: Any) -> None:
    """The engine's hour ``h``: a sub below her rating rolls (first passing, then hourly)."""
    s, ship = h.s, h.ship
    spec = sub_spec(ship)
    if spec is None or s.status == "sunk":
        return
    depth, rated = depth_now(ship), int(spec["dive_depth"])
    # the minute of a dive's roll on passing her rating (voyage.actions.depthacts): the
    # hour that begins in that same minute makes no second roll (R84, one roll, not two)
    rolled_at = s.more.pop(ROLLED_AT, None)
    if depth <= rated:
        s.more.pop("passed", None)
        return
    if rolled_at == h.clock:
        return
    depth_roll(h, spec, depth, first=not s.more.get("passed"))


def depth_roll(h: Any, spec: dict[str, Any], depth: int, first: bool) -> None:
    """One roll on the Depth Damage Table for the ship-hour ``h`` (voyage.engine.clock._ShipHour)
    at its minute, carried into her as the engine carries it: her armour worn (where the
    campaign tracks it, ``track_armor``), a leak (R36), or she implodes and is lost (the
    engine's sinking: R71 for who is aboard). The hour's depth phase calls it, and the
    ``dive`` action on first passing her rating (voyage.actions.depthacts)."""
    s, ship = h.s, h.ship
    rated = int(spec["dive_depth"])
    built = built_sides(ship) if getattr(h.e.world, "track_armor", False) else {}
    armor = (built, armor_now(ship)) if built else None
    result = depth_damage(depth, rated, spec, h.roller, h.book, first=first, armor=armor)
    s.more["passed"] = True
    if result.imploded:
        s.destroyed = True
        h.log(result.event(), "destroyed")
        s.sinking_cause = f"she imploded at {depth} ft (R84)"
        h.sunk()
        return
    if "armor_now" in result.changes:
        ship.equipment[ARMOR_NOW] = dict(result.changes["armor_now"])
    h.log(result.event())
    h.apply_damage(result.changes)


def _row_label(row: dict[str, Any]) -> str:
    """A Depth Damage Table row as the seed prints it: "5-8", and the first row (which the
    table starts below 0, for a reinforced hull's -1) "4 or less", not "-10-4"."""
    if int(row["from"]) < 0:
        return f"{row['to']} or less"
    return f"{row['from']}-{row['to']}"
