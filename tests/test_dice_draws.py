"""A single die drawn inline by Roller.roll and Roller.check is the die that
Roller.die draws: the same face from the same stream, leaving the same dice state (R5)."""

from __future__ import annotations

import pytest

from voyage.dice.roller import Modifier, Roller


@pytest.mark.parametrize("sides", [2, 3, 6, 7, 8, 12, 20, 100, 1000])
def test_a_rolled_die_is_the_die_drawn(sides: int) -> None:
    for seed in range(60):
        rolled, drawn = Roller(seed), Roller(seed)
        record = rolled.roll("x", f"d{sides}+2", [Modifier(1, "a")], target=sides // 2)
        face = drawn.die(sides)
        assert record.faces == [face] and record.natural == face
        assert record.total == face + 3
        assert rolled.get_state() == drawn.get_state()


def test_a_checks_d20_is_the_die_drawn() -> None:
    for seed in range(200):
        checked, drawn = Roller(seed), Roller(seed)
        record = checked.check("x", 11, advantages=["a"] if seed % 2 else ())
        faces = [drawn.die(20)] + ([drawn.die(6)] if seed % 2 else [])
        assert [*record.faces, *record.boon_faces] == faces
        assert checked.get_state() == drawn.get_state()


def test_a_roller_with_its_own_die_is_asked_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    class Fours(Roller):
        def die(self, sides: int) -> int:
            return 4

    assert Fours(1).roll("x", "d6").faces == [4]
    assert Fours(1).check("x", 10).faces == [4]
    monkeypatch.setattr(Roller, "die", lambda self, sides: 5)  # as tests force faces
    assert Roller(1).roll("x", "d6").faces == [5]
    assert Roller(1).check("x", 10).faces == [5]


class _Stepped(Roller):
    """A roller whose every die is drawn by Roller.die's own code, called (so roll(),
    check() and chance() take their general path, not their inline draws)."""

    def die(self, sides: int) -> int:
        return Roller.die(self, sides)


def test_chances_checks_and_several_dice_are_rolled_as_die_by_die() -> None:
    # R3 chances (the second of each is drawn by chance() itself), R1/R2 Checks with boons
    # and banes, and sums of several dice (2d6, 3d6+1) record what die() by die() gives
    for seed in range(40):
        fast, stepped = Roller(seed), _Stepped(seed)
        for roller in (fast, stepped):
            for x, sides in ((1, 6), (2, 6), (1, 6), (3, 20), (2, 6)):
                roller.chance("hazard", x, sides, success="a hazard", failure="clear")
            for net in (-2, -1, 0, 1, 2):
                roller.check(
                    "capsize",
                    16,
                    (Modifier(5, "Tier V"), Modifier(2, "Half")),
                    ["Steady"] * max(0, net),
                    ["stormy"] * max(0, -net),
                )
            roller.roll("escape", "2d6", target=8)
            roller.roll("sinking", "3d6+1", [Modifier(-2, "x")], target=9, compare="<")
        assert [r.to_dict() for r in fast.records] == [r.to_dict() for r in stepped.records]
        assert fast.get_state() == stepped.get_state()
