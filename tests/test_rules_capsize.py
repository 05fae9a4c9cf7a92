"""Capsizing (R41) and its triggers (R12, R32, R37)."""

from fractions import Fraction

import pytest

from voyage.base.errors import VoyageError
from voyage.dice.roller import CheckOptions, Roller
from voyage.rules.capsize import (
    capsize_check,
    capsize_modifiers,
    capsize_odds,
    capsize_triggers,
    storm_checks_due,
)


def test_r41_tier_iii_at_half_is_even_odds(book):
    # d20 + 3 (Tier III) + 2 (Half) >= 16 -> d20 >= 11 -> 10/20
    assert capsize_odds(3, "half", book) == Fraction(1, 2)


def test_r41_load_category_modifiers(book):
    # Tier IV: Quarter +1 -> d20 >= 11; Full 0 -> d20 >= 12; Overloaded -4 -> d20 >= 16
    assert capsize_odds(4, "quarter", book) == Fraction(10, 20)
    assert capsize_odds(4, "full", book) == Fraction(9, 20)
    assert capsize_odds(4, "overloaded", book) == Fraction(5, 20)
    reasons = [m.reason for m in capsize_modifiers(4, "overloaded", book)]
    assert reasons == ["Tier IV", "Overloaded"]


def test_r41_steady_adds_a_boon(book):
    # Tier III at Half with one boon (d6): need d20 + b >= 11, so P = sum_b (10 + b)/20 / 6
    # = (11 + 12 + 13 + 14 + 15 + 16) / 120 = 81/120 = 27/40
    assert capsize_odds(3, "half", book, traits=["Steady"]) == Fraction(27, 40)


def test_r2_steady_cancels_a_disadvantage(book):
    assert capsize_odds(3, "half", book, ["Steady"], disadvantages=["heavy seas"]) == Fraction(1, 2)


def test_r2_2d20_option_for_steady(book):
    # 2d20 keep higher >= 11: 1 - (10/20)^2 = 3/4
    opts = CheckOptions(advantage_mode="2d20")
    assert capsize_odds(3, "half", book, ["Steady"], options=opts) == Fraction(3, 4)


def test_r1_natural_option(book):
    # Tier I Overloaded with a Disadvantage: d20 + 1 - 4 - bane >= 16 needs d20 = 20 and a
    # bane of 1: 1/20 * 1/6 = 1/120. With natural 20s always succeeding: 1/20.
    assert capsize_odds(1, "overloaded", book, disadvantages=["gale"]) == Fraction(1, 120)
    opts = CheckOptions(natural=True)
    assert capsize_odds(1, "overloaded", book, disadvantages=["gale"], options=opts) == (
        Fraction(1, 20)
    )


def test_r41_capsize_check_holds(book, faces):
    roller = faces(11)
    result = capsize_check(3, "half", roller, book, reason="storm")
    assert not result.capsized
    assert result.changes == {}
    assert result.rolls[0].total == 16
    assert result.rolls[0].label == "capsize check (storm)"
    assert roller.sides_asked == [20]


def test_r41_capsize_check_fails_and_ship_begins_sinking(book, faces):
    result = capsize_check(3, "half", faces(10), book)
    assert result.capsized
    assert result.changes == {"capsized": True, "sinking": True}
    assert "capsizes and begins sinking" in result.text
    event = result.event(minute=7)
    assert event.minute == 7 and event.kind == "capsize"


def test_r41_steady_rolls_the_boon_die(book, faces):
    roller = faces(8, 3)  # d20=8, boon d6=3: 8 + 3 + 3 + 2 = 16
    result = capsize_check(3, "half", roller, book, traits=["Steady"])
    assert roller.sides_asked == [20, 6]
    assert result.rolls[0].boon_reasons == ["Steady"]
    assert not result.capsized


def test_r41_roll_line_shows_every_modifier(book, faces):
    line = capsize_check(4, "overloaded", faces(15), book).rolls[0].line()
    assert "+4 (Tier IV)" in line and "-4 (Overloaded)" in line and "DV 16" in line


def test_capsize_unknown_load_is_a_clean_error(book):
    with pytest.raises(VoyageError, match="unknown load category"):
        capsize_odds(3, "brimming", book)


def test_r12_r37_r32_triggers(book):
    assert capsize_triggers("half", 0, 500, book) == []
    (over,) = capsize_triggers("overloaded", 0, 500, book)
    assert over.every_minutes == 60 and over.ruling == "R41"
    (hourly,) = capsize_triggers("full", 51, 500, book)
    assert hourly.reason == "flooding" and hourly.every_minutes == 60
    assert capsize_triggers("full", 50, 500, book) == []  # R37: "greater than" DW/10
    (listing,) = capsize_triggers("full", 126, 500, book)
    assert listing.reason == "listing" and listing.every_minutes == 10
    assert capsize_triggers("full", 251, 500, book) == []  # sinking: no more checks
    (storm,) = capsize_triggers("half", 0, 500, book, storm=True)
    assert storm.per_hex and storm.every_hours_in_same_hex == 6


def test_r32_storm_checks_due(book):
    assert storm_checks_due(2, 0, book) == 2
    assert storm_checks_due(0, 13, book) == 2
    with pytest.raises(VoyageError):
        storm_checks_due(-1, 0, book)


@pytest.mark.parametrize("tier,load,traits", [(3, "half", []), (6, "overloaded", ["Steady"])])
def test_capsize_seeded_rolls_match_exact_odds(book, binomial, tier, load, traits):
    roller = Roller(20260512)
    trials = 4000
    held = sum(not capsize_check(tier, load, roller, book, traits).capsized for _ in range(trials))
    assert binomial(held, trials, capsize_odds(tier, load, book, traits))
