"""The records Roller.roll, check and chance make field by field (voyage.dice.roller
_new): each is the Roll the plain constructor gives from the same values (R4), with its
fields in the same order (vars, repr, to_dict and the log's JSON alike), for every path:
with and without a target, each comparison, modifiers and a flat bonus, Checks with boons,
banes and 2d20 Advantage (R1, R2), natural 20s and 1s, and x-in-6 chances (R3)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from voyage.dice.roller import CheckOptions, Modifier, Roll, Roller, check_odds, odds
from voyage.engine.clock import dumps

FIELDS = [f.name for f in dataclasses.fields(Roll)]


def _plain(r: Roll) -> Roll:
    """The same record made by Roll's own __init__, from its values."""
    return Roll(*(getattr(r, name) for name in FIELDS))


def _same_as_plain(r: Roll) -> None:
    assert type(r) is Roll
    assert list(vars(r)) == FIELDS  # the order __init__ sets them in
    plain = _plain(r)
    assert r == plain and repr(r) == repr(plain) and vars(r) == vars(plain)
    assert r.to_json() == dumps(plain.to_dict()) == plain.to_json()


def test_rolls_with_and_without_targets_are_the_plain_records():
    roller = Roller(145)
    mods = [Modifier(2, "Tier II"), Modifier(-1, "night")]
    for _ in range(200):
        bare = roller.roll("cell drift", "d6")
        assert (bare.target, bare.compare, bare.target_text, bare.success) == (None,) * 4
        assert bare.probability is None and bare.total == bare.natural == bare.faces[0]
        _same_as_plain(bare)
        said = roller.roll("harpoons", "2d6+1", mods, outcome="counted")
        assert said.modifiers == [Modifier(1, "flat"), *mods] and said.outcome == "counted"
        assert said.total == sum(said.faces) + 2
        _same_as_plain(said)
        for compare in (">=", ">", "<", "<="):
            r = roller.roll("strain", "d6", mods, target=4, compare=compare, success="breaks",
                            failure="holds", target_text="breaks on 4+")  # fmt: skip
            total = r.natural + 1
            ok = {">=": total >= 4, ">": total > 4, "<": total < 4, "<=": total <= 4}[compare]
            assert (r.total, r.success, r.outcome) == (total, ok, "breaks" if ok else "holds")
            assert (r.target, r.compare, r.target_text) == (4, compare, "breaks on 4+")
            assert r.probability == odds("d6", 1, 4, compare)
            _same_as_plain(r)
        quiet = roller.roll("quiet", "d6", target=3, outcome="as it fell")
        assert quiet.outcome == "as it fell" and quiet.success is (quiet.natural >= 3)
        _same_as_plain(quiet)


def test_checks_are_the_plain_records():
    for options in (CheckOptions(), CheckOptions(natural=True),
                    CheckOptions(advantage_mode="2d20")):  # fmt: skip
        roller = Roller(7, options)
        for _ in range(300):
            for adv, dis in (((), ()), (("fog", "night"), ()), ((), ("storm",))):
                r = roller.check("capsize", 12, [Modifier(3, "Tier III")], adv, dis)
                net = len(adv) - len(dis)
                assert r.target == 12 and r.compare == ">=" and r.target_text is None
                assert r.probability == check_odds(12, 3, net, options)
                if options.natural and r.natural in (1, 20):
                    assert r.success is (r.natural == 20) and "natural" in r.outcome
                else:
                    assert r.success is (r.total >= 12)
                _same_as_plain(r)


def test_chances_are_the_plain_records():
    roller = Roller(3)
    for _ in range(300):
        for x, sides in ((2, 6), (1, 6), (5, 20)):
            r = roller.chance("coastal hazard", x, sides, success="strikes", failure="clear")
            assert (r.dice, r.target, r.compare) == (f"d{sides}", x, "<=")
            assert r.target_text == f"vs {x}-in-{sides}"
            assert r.probability == Fraction(x, sides) and r.total == r.natural == r.faces[0]
            assert r.outcome == ("strikes" if r.natural <= x else "clear")
            _same_as_plain(r)
    assert roller.records[-1] is r and len(roller.records) == 900
