"""Straining (R14), slow ahead (R15), dodging (R51), changing movement (R53)."""

from fractions import Fraction

import pytest

from voyage.base.errors import VoyageError
from voyage.dice.roller import Roller
from voyage.rules.dodge import dodge, dodge_odds
from voyage.rules.movement import (
    change_movement_check,
    change_movement_odds,
    slow_ahead_speed,
    strain_limit,
)
from voyage.rules.strain import strain_check, strain_fire_odds, strain_odds


def test_r14_r15_pace_limits(book):
    assert strain_limit(7, book) == 3
    assert slow_ahead_speed(7, book) == 3


def test_r14_one_extra_knot_breaks_only_on_six(book, faces):
    assert not strain_check(1, faces(5), book).broke
    result = strain_check(1, faces(6, 5), book)
    assert result.broke and not result.fire
    assert result.changes == {"engine_broken": True}


def test_r14_break_then_fire_same_modifier(book, faces):
    result = strain_check(3, faces(4, 4), book, speed=6)  # 4 + 2 = 6 twice
    assert result.broke and result.fire
    assert result.changes == {"engine_broken": True, "fire_starts": True}
    assert result.rolls[1].modifiers == result.rolls[0].modifiers


def test_r14_odds(book):
    assert strain_odds(1, book) == Fraction(5, 6)
    assert strain_odds(3, book) == Fraction(3, 6)
    assert strain_fire_odds(3, book) == Fraction(1, 4)


def test_r14_limit_enforced(book):
    with pytest.raises(VoyageError, match="at most 2 knots"):
        strain_check(3, Roller(1), book, speed=5)
    with pytest.raises(VoyageError):
        strain_odds(0, book)


def test_r51_dodge_meets_tier(book, faces):
    assert dodge(5, faces(5), book).dodged
    assert not dodge(5, faces(4), book).dodged


def test_r51_modifiers(book, faces):
    # d12=6 +1 (fog) -2 (lethal) +1 (Nimble) = 6 vs Tier VI
    result = dodge(6, faces(6), book, ["Nimble"], ["fog"], [], "lethal")
    assert result.dodged and result.rolls[0].total == 6
    assert not dodge(6, faces(6), book, [], [], ["spray"], "secondary").dodged
    assert result.changes == {}


def test_r51_odds(book):
    # Tier VI, lethal (-2), Nimble (+1): d12 - 1 >= 6 -> d12 >= 7: 6/12
    assert dodge_odds(6, book, ["Nimble"], zone="lethal") == Fraction(6, 12)
    assert dodge_odds(1, book) == 1


def test_r53_change_movement_dv_is_tier(book, faces):
    assert change_movement_check(7, faces(7)).secret
    result = change_movement_check(7, faces(6))
    assert not result.secret and result.changes == {"declared_publicly": True}
    assert change_movement_odds(7) == Fraction(14, 20)


def test_r51_seeded_match_odds(book, binomial):
    roller = Roller(11)
    trials = 4000
    ok = sum(dodge(7, roller, book, zone="secondary").dodged for _ in range(trials))
    assert binomial(ok, trials, dodge_odds(7, book, zone="secondary"))
