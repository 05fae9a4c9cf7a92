"""Collisions between ships (R91, from Burning Plastic): relative speeds and speeds after.

Each ship in a collision rolls her own ramming roll (R35, voyage.rules.ramming) at the
relative speed of the collision's kind; the speeds afterwards follow the kind too.
"""

from __future__ import annotations

from voyage.base.errors import VoyageRuleError
from voyage.rules.common import check_count, check_tier

KINDS = ("head-on", "t-bone", "shunt", "sideswipe")
#: R91 (our reading): size classes by Tier, I-III, IV-VI, VII-X.
SIZE_CLASSES = ((1, 3), (4, 6), (7, 10))
#: R91: after a head-on the smaller ship counts this many knots less per size class between.
HEAD_ON_KNOTS_PER_CLASS = 2


def check_kind(kind: str) -> str:
    """A collision kind, or one line naming the four."""
    key = str(kind).strip().lower().replace("_", "-").replace(" ", "-")
    if key == "tbone":
        key = "t-bone"
    if key not in KINDS:
        raise VoyageRuleError(f"unknown collision kind {kind!r}: use one of {', '.join(KINDS)}")
    return key


def size_class(tier: int) -> int:
    """R91 (our reading): 0 for Tiers I-III, 1 for IV-VI, 2 for VII-X."""
    tier = check_tier(tier)
    for index, (low, high) in enumerate(SIZE_CLASSES):
        if low <= tier <= high:
            return index
    raise VoyageRuleError(f"no size class for Tier {tier}")  # check_tier keeps 1-10


def relative_speed(kind: str, rammer_speed: int, target_speed: int) -> int:
    """R91: head-on the sum; T-bone the rammer's speed; shunt the difference; sideswipe 1
    (our reading of the seed's one point of damage whatever the speeds)."""
    kind = check_kind(kind)
    a = check_count(rammer_speed, "the rammer's speed")
    b = check_count(target_speed, "the target's speed")
    if kind == "head-on":
        return a + b
    if kind == "t-bone":
        return a
    if kind == "shunt":
        return abs(a - b)
    return 1


def speeds_after(
    kind: str, rammer_speed: int, rammer_tier: int, target_speed: int, target_tier: int
) -> tuple[int, int]:
    """R91: (rammer's speed, target's speed) after the collision.

    Head-on: the smaller ship counts 2 knots less for each size class between them, and
    both go on at the difference of those speeds (in the direction of the faster; equal
    speeds stop both). T-bone: the rammer's speed halves, rounding up. Shunt: the faster
    comes down to the slower. Sideswipe: no change.
    """
    kind = check_kind(kind)
    a = check_count(rammer_speed, "the rammer's speed")
    b = check_count(target_speed, "the target's speed")
    if kind == "head-on":
        gap = abs(size_class(rammer_tier) - size_class(target_tier))
        counted_a, counted_b = a, b
        if size_class(rammer_tier) < size_class(target_tier):
            counted_a = max(0, a - HEAD_ON_KNOTS_PER_CLASS * gap)
        elif size_class(target_tier) < size_class(rammer_tier):
            counted_b = max(0, b - HEAD_ON_KNOTS_PER_CLASS * gap)
        left = abs(counted_a - counted_b)
        return left, left
    if kind == "t-bone":
        return (a + 1) // 2, b
    if kind == "shunt":
        slower = min(a, b)
        return slower, slower
    return a, b
