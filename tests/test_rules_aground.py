"""Coastlines and running aground (R33, R34)."""

from fractions import Fraction

import pytest

from voyage.base.errors import VoyageError
from voyage.dice.roller import Roller
from voyage.rules.aground import (
    aground,
    aground_odds,
    coast_hazard,
    coast_hazard_odds,
    seabed_name,
    stuck_escape,
    stuck_escape_odds,
)


def test_r33_hazard_one_in_six(book, faces):
    assert coast_hazard(faces(1), book).hazard
    assert not coast_hazard(faces(2), book).hazard
    assert coast_hazard_odds(book) == Fraction(1, 6)


def test_r34_under_speed_avoids_getting_stuck(book, faces):
    # d12=5 + 3 (sandy) = 8 < 9: free; sandy cannot damage, so no ram
    result = aground(3, 9, "sandy", faces(5), book)
    assert not result.stuck and result.ram is None
    assert aground(3, 8, "sandy", faces(5), book).stuck  # 8 is not under 8


def test_r34_odds(book):
    # speed 9 sandy: d12 + 3 < 9 -> d12 <= 5: 5/12; wreckage +5: d12 <= 3: 3/12
    assert aground_odds(9, "sandy", book) == Fraction(5, 12)
    assert aground_odds(9, "ruins", book) == Fraction(3, 12)
    assert aground_odds(9, "rocky", book) == Fraction(8, 12)
    assert aground_odds(1, "rocky", book) == 0


def test_r34_damaging_seabed_rams_at_travelling_speed(book, faces):
    roller = faces(11, 10)  # stuck (11 not under 6); ram d12=10 over 6: no damage
    result = aground(3, 6, "rocky", roller, book)
    assert result.stuck and result.ram is not None and not result.ram.damaged
    assert result.changes == {"stuck": True}


def test_r34_stuck_escape(book, faces):
    assert stuck_escape(faces(4, 4), book).freed
    assert not stuck_escape(faces(3, 4), book).freed
    # 2d6 >= 8: 15/36
    assert stuck_escape_odds(book) == Fraction(15, 36)


def test_unknown_seabed(book):
    with pytest.raises(VoyageError, match="unknown seabed"):
        seabed_name("mud", book)


def test_r34_seeded_match_odds(book, binomial):
    roller = Roller(5)
    trials = 4000
    free = sum(not aground(4, 9, "sandy", roller, book).stuck for _ in range(trials))
    assert binomial(free, trials, aground_odds(9, "sandy", book))
