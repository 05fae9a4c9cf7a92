"""Shared fixtures: the built-in rule book and a roller that shows chosen faces."""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

import pytest

from voyage.dice import CheckOptions, Roller
from voyage.tables import RuleBook, load_rulebook


class FaceRoller(Roller):
    """A Roller whose dice show the faces given, in order.

    Only :meth:`die` is replaced, so every roll goes through the real Roller code (records,
    modifiers, targets, odds). It also notes the sides of each die asked for, and refuses a
    face the die cannot show.
    """

    def __init__(self, faces: Iterable[int], options: CheckOptions | None = None) -> None:
        super().__init__(0, options)
        self.faces = list(faces)
        self.sides_asked: list[int] = []

    def die(self, sides: int) -> int:
        self.sides_asked.append(sides)
        if not self.faces:
            raise AssertionError(f"the test gave too few faces (a d{sides} was asked for)")
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise AssertionError(f"a d{sides} cannot show {face}")
        return face


@pytest.fixture(scope="session")
def book() -> RuleBook:
    return load_rulebook()


@pytest.fixture
def faces():
    """``faces(3, 5)`` -> a FaceRoller showing 3 then 5."""

    def make(*shown: int, options: CheckOptions | None = None) -> FaceRoller:
        return FaceRoller(shown, options)

    return make


def within_binomial(successes: int, trials: int, p: Fraction, sigmas: float = 4.5) -> bool:
    """Whether ``successes`` in ``trials`` is within ``sigmas`` standard deviations of p.

    The rolls are seeded, so the test is deterministic; 4.5 sigma keeps a correct roller
    from ever failing by bad luck while still catching an off-by-one in a target (which
    moves a d20 chance by 5 points, many sigmas at 4000 trials).
    """
    mean = trials * float(p)
    sd = math.sqrt(trials * float(p) * (1 - float(p)))
    return abs(successes - mean) <= sigmas * max(sd, 0.5)


@pytest.fixture
def binomial():
    """The :func:`within_binomial` check, for statistical tests."""
    return within_binomial
