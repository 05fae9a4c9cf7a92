"""A single die drawn inline by Roller.roll and Roller.check (issue 14) is the die that
Roller.die draws: the same face from the same stream, leaving the same dice state (R5)."""

from __future__ import annotations

import pytest

from voyage.dice import Modifier, Roller


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
