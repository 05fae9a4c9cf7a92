"""Hull hits and Explosions (R36), ramming (R35)."""

from fractions import Fraction

import pytest

from voyage.base.errors import VoyageError
from voyage.dice.roller import Roller
from voyage.rules.hull import (
    explosion_check,
    explosion_odds,
    hull_hit,
    hull_leak,
    leak_distribution,
)
from voyage.rules.ramming import ram, ram_die, ram_odds


def test_r36_leak_is_d6_plus_weapon(book, faces):
    result = hull_leak(2, faces(4), book)
    assert result.leak_per_hour == 6 and result.changes == {"add_leak": 6}


def test_r36_leak_never_below_zero(book, faces):
    result = hull_leak(-3, faces(2), book)
    assert result.leak_per_hour == 0 and result.changes == {}
    assert leak_distribution(-3, book) == {
        0: Fraction(1, 2),
        1: Fraction(1, 6),
        2: Fraction(1, 6),
        3: Fraction(1, 6),
    }


def test_r36_explosion_destroys_on_20(book, faces):
    # d20=15 + 2 (weapon) + 5 (lethal) - 2 (Tier II) = 20
    result = explosion_check(2, 2, "lethal", faces(15), book)
    assert result.destroyed and result.changes == {"destroyed": True, "sinking": True}
    assert not explosion_check(2, 2, "lethal", faces(14), book).destroyed


def test_r36_explosion_odds(book):
    # Tier IV, weapon +3, secondary +2: d20 + 1 >= 20 -> destroyed on 19-20; survives 18/20
    assert explosion_odds(4, 3, "secondary", book) == Fraction(18, 20)
    assert explosion_odds(10, 0, None, book) == 1
    with pytest.raises(VoyageError, match="unknown zone"):
        explosion_odds(4, 3, "primary", book)


def test_r36_hull_hit_with_explosion(book, faces):
    roller = faces(3, 1)
    result = hull_hit(5, 1, roller, book, explosion=True, zone="secondary")
    assert roller.sides_asked == [6, 20]
    assert result.leak.leak_per_hour == 4 and not result.destroyed
    assert len(result.rolls) == 2


def test_r35_ram_avoids_damage_over_speed(book, faces):
    result = ram(3, 5, faces(6), book)
    assert not result.damaged and result.hit is None
    assert ram(3, 5, faces(5, 1, 1), book).damaged  # 5 is not over 5


def test_r35_failure_is_explosion_with_margin_in_lethal_zone(book, faces):
    roller = faces(2, 3, 18)  # d12=2 vs speed 7 -> margin 5; leak d6=3; d20=18
    result = ram(4, 7, roller, book)
    assert result.margin == 5
    assert result.hit.leak.leak_per_hour == 8
    blast = result.hit.explosion.rolls[0]
    assert blast.total == 18 + 5 + 5 - 4 and result.destroyed
    assert [m.reason for m in blast.modifiers] == ["weapon", "lethal zone", "Tier IV"]


def test_r35_ram_bowed_rolls_d20(book, faces):
    assert ram_die(["Ram-bowed"], book) == "d20"
    roller = faces(12)
    assert not ram(4, 11, roller, book, ["Ram-bowed"]).damaged
    assert roller.sides_asked == [20]


def test_r35_ram_odds(book):
    assert ram_odds(5, book) == Fraction(7, 12)
    assert ram_odds(5, book, ["Ram-bowed"]) == Fraction(15, 20)
    assert ram_odds(12, book) == 0


def test_r35_seeded_rams_match_odds(book, binomial):
    roller = Roller(99)
    trials = 4000
    clean = sum(not ram(5, 6, roller, book).damaged for _ in range(trials))
    assert binomial(clean, trials, ram_odds(6, book))
