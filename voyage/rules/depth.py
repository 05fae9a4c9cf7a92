"""Draft and depth (R83): a built boat's grounding where the map charts a depth.

Drafts (Boats in Car Wars, 1" = 15 ft): Rowboat 0, Dinghy 4 ft, Speeder 8 ft, Cruiser
15 ft, Yacht 23 ft; a Weighted Keel adds 8 ft (tables/boats.yaml). In a charted hex the
depth decides instead of R33-R34, one hazard roll per hex at most:

- shallower than her draft she runs aground and is stuck, and rams the bottom (R35) at her
  speed, except on sand (our reading, as R33);
- at exactly her draft she scrapes: on rock or wreck she rams (R35) on a 1-in-6; on sand
  nothing happens;
- deeper, nothing.

A submerged submersible (R84) reaches her depth plus her draft. Where that keel meets a
bottom above it she runs aground on it as any boat (stuck; rams it except on sand), and,
as she cannot lie below the seabed (R84), she comes to rest at the water's depth less her
draft: on the surface where the water is no deeper than she draws (our reading, written in
docs/rulings.md under R84). Rolled ships have no
draft: depth changes nothing for them. Getting off: 2d6 >= 8 each hour, -1 for each full
10 mph of the speed she grounded at, +1 for each propeller beyond the first.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from voyage.dice.events import Outcome
from voyage.dice.roller import Modifier, Roller, odds
from voyage.rules.aground import seabed_damages, seabed_name
from voyage.rules.ramming import RamResult, ram
from voyage.tables.rulebook import RuleBook


@dataclass(frozen=True)
class DepthResult(Outcome):
    """What a charted depth did to a boat: ``stuck``, ``scraped``, and any ram."""

    stuck: bool
    scraped: bool
    ram: RamResult | None
    destroyed: bool


def uncharted_bottom(info: Any, book: RuleBook) -> int:
    """R84 with R65 (our reading): where the map charts no depth, a port, coastal or narrow
    hex, or a shallow (reef, shoal, wreck: R33), is anchorage water, its bottom within the
    anchor cable's reach (150 ft, R65): that many feet. 0 for uncharted open sea (no bottom
    known: only a submersible's hull bounds her) and for a charted hex (its depth decides)."""
    if getattr(info, "depth", None) is not None:
        return 0
    shallows = book.procedures["coast"].get("shallow_terrains", ())
    if info.port or info.coastal or info.narrow_passage or info.terrain in shallows:
        return int(book.procedures["anchor"]["max_depth_feet"])
    return 0


def depth_hazard(
    draft_ft: float,
    depth_ft: float,
    seabed: str,
    speed: int,
    tier: int,
    roller: Roller,
    book: RuleBook,
    traits: tuple[str, ...] | list[str] = (),
    down: int = 0,
) -> DepthResult | None:
    """R83: a boat drawing ``draft_ft`` (a submerged sub: her draft plus ``down``, her depth
    in feet, R84) enters water ``depth_ft`` deep at ``speed``; None when there is water
    enough (deeper than her keel). A sub that meets the bottom comes to rest on it: the
    changes carry her new ``depth`` (:func:`resting_depth`)."""
    bed = seabed_name(seabed, book)
    hard = seabed_damages(bed, book)
    if down:
        where = (
            f"{depth_ft:g} ft of water over a {bed} bottom; {down} ft down, her keel is "
            f"at {draft_ft:g} ft"
        )
    else:
        where = f"{depth_ft:g} ft of water over a {bed} bottom; she draws {draft_ft:g} ft"
    if depth_ft > draft_ft:
        return None
    if depth_ft < draft_ft:
        changes: dict[str, Any] = {"stuck": True, "grounded_mph": speed}
        if down:
            rest = resting_depth(depth_ft, draft_ft - down)
            changes["depth"] = rest
            lies = (
                f"she runs aground and lies on it {rest} ft down, stuck fast"
                if rest
                else "forced up to the surface, she runs aground there, stuck fast: she draws "
                f"{draft_ft - down:g} ft"
            )
            text = f"She meets the bottom in {where} (R83, R84): {lies}."
        else:
            text = f"She runs aground in {where} (R83): stuck fast."
        rolls: tuple[Any, ...] = ()
        rammed = None
        if bed != "sandy":
            rammed = ram(tier, speed, roller, book, traits, what=f"the {bed} bottom")
            rolls, text = rammed.rolls, text + " " + rammed.text
            changes.update(rammed.changes)
        else:
            text += " The sand takes the blow: no ramming (R83)."
        destroyed = bool(rammed and rammed.destroyed)
        return DepthResult("aground", text, rolls, changes, True, False, rammed, destroyed)
    if not hard:
        return DepthResult(
            "aground",
            f"She scrapes the bottom in {where}: no harm (R83).",
            (),
            {},
            False,
            True,
            None,
            False,
        )
    chance = roller.chance(
        "scraping a hard bottom",
        int(book.boats["grounding"]["scrape_in_6"]),
        success="she strikes",
        failure="she scrapes over",
    )
    text = f"She scrapes the bottom in {where} (R83)."
    if not chance.success:
        return DepthResult(
            "aground", text + " No harm done.", (chance,), {}, False, True, None, False
        )
    rammed = ram(tier, speed, roller, book, traits, what=f"the {bed} bottom")
    return DepthResult(
        "aground",
        f"{text} {rammed.text}",
        (chance, *rammed.rolls),
        dict(rammed.changes),
        False,
        True,
        rammed,
        rammed.destroyed,
    )


def resting_depth(bottom_ft: float, draft_ft: float) -> int:
    """R84 (our reading): the depth in feet at which a sub that met a bottom ``bottom_ft``
    down lies on it, drawing ``draft_ft``: the water's depth less her draft, and 0 (the
    surface) where the water is no deeper than she draws. She cannot lie below the seabed."""
    return max(0, int(bottom_ft - draft_ft))


def escape_modifiers(grounded_mph: int, propellers: int, book: RuleBook) -> list[Modifier]:
    """R83: -1 per full 10 mph of the grounding speed, +1 per propeller beyond the first."""
    rule = book.boats["grounding"]
    mods = []
    tens = int(grounded_mph) // int(rule["escape_per_mph"])
    if tens:
        mods.append(Modifier(-tens, f"grounded at {grounded_mph} mph"))
    extra = max(0, int(propellers) - 1) * int(rule["extra_propeller"])
    if extra:
        mods.append(Modifier(extra, f"{propellers} propellers"))
    return mods


def escape_odds(grounded_mph: int, propellers: int, book: RuleBook) -> Fraction:
    """Exact chance she gets off this hour (R83: 2d6 >= 8 with the modifiers)."""
    rule = book.procedures["aground"]["escape"]
    mod = sum(m.value for m in escape_modifiers(grounded_mph, propellers, book))
    return odds(rule["dice"], mod, int(rule["target"]), ">=")


def help_cost(weight_lbs: float, book: RuleBook) -> int:
    """R83: help from a port costs $1,000 per 5,000 lbs of her weight (rounded up)."""
    rule = book.boats["grounding"]
    per = int(rule["help_per_lbs"])
    return int(rule["help_cost"]) * max(1, -(-int(Fraction(str(weight_lbs)).__ceil__()) // per))
