"""Sinking (R40) and what sinks a ship at once (R12, R37)."""

from fractions import Fraction

from voyage.rules.sinking import sinking_distribution, sinking_odds, sinking_reasons, sinking_time


def test_r40_sinking_time_full_load(book, faces):
    roller = faces(2, 3, 4)
    result = sinking_time(4, "full", roller, book)
    assert result.minutes == 2 + 3 + 4 + 4
    assert not result.doubled
    assert roller.sides_asked == [6, 6, 6]
    assert result.changes == {"sinking": True, "submerges_in": 13}


def test_r40_doubled_at_half_or_less(book, faces):
    assert sinking_time(4, "half", faces(2, 3, 4), book).minutes == 26
    assert sinking_time(4, "quarter", faces(1, 1, 1), book).minutes == 14
    assert sinking_time(4, "overloaded", faces(1, 1, 1), book).minutes == 7


def test_r40_distribution(book):
    dist = sinking_distribution(1, "full", book)
    assert min(dist) == 4 and max(dist) == 19
    assert dist[4] == Fraction(1, 216)
    assert sum(dist.values()) == 1
    doubled = sinking_distribution(1, "half", book)
    assert min(doubled) == 8 and max(doubled) == 38
    # afloat after 4 minutes: everything but 3d6 = 3
    assert sinking_odds(1, "full", 4, book) == Fraction(215, 216)


def test_r12_r37_sinking_reasons(book):
    assert sinking_reasons(1000, 500, 0, book) == []
    assert len(sinking_reasons(1001, 500, 0, book)) == 1
    assert len(sinking_reasons(100, 500, 251, book)) == 1
    assert sinking_reasons(100, 500, 250, book) == []
