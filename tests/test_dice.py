"""The roller (R1-R5): parsing, records, exact odds, seeded reproducibility."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from voyage.dice.roller import (
    CheckOptions,
    DiceError,
    Modifier,
    Roller,
    check_odds,
    distribution,
    odds,
    parse,
)


def test_parse_forms():
    assert (parse("d20").count, parse("d20").sides, parse("d20").bonus) == (1, 20, 0)
    assert (parse("3d6+2").count, parse("3d6+2").bonus) == (3, 2)
    assert parse("2d6-1").bonus == -1
    assert parse("5").bonus == 5


@pytest.mark.parametrize("bad", ["", "d", "3x6", "0d6", "d1", "1000d6", "d6+", "abc"])
def test_parse_rejects_with_a_clear_message(bad):
    with pytest.raises(DiceError, match="dice expression"):
        parse(bad)


@given(st.text(max_size=12))
def test_parse_any_text_is_valid_or_a_clean_error(text):
    try:
        d = parse(text)
    except DiceError as exc:
        assert "\n" not in str(exc)
    else:
        assert 0 <= d.count <= 100


def test_distribution_sums_to_one_and_matches_3d6():
    dist = distribution("3d6")
    assert sum(dist.values()) == 1
    assert dist[3] == Fraction(1, 216)
    assert dist[10] == Fraction(27, 216)


def test_r1_check_exact_odds():
    # d20 + 5 >= 16 needs 11+: 10 faces of 20.
    assert check_odds(16, 5) == Fraction(1, 2)
    assert check_odds(16, 20) == 1
    assert check_odds(16, -5) == 0


def test_r1_natural_option_odds():
    opts = CheckOptions(natural=True)
    assert check_odds(16, 20, options=opts) == Fraction(19, 20)  # natural 1 fails
    assert check_odds(16, -10, options=opts) == Fraction(1, 20)  # natural 20 succeeds


def test_r2_one_boon_exact_odds():
    # d20 + best of 1d6 + 3 >= 16: sum over the d6 of P(d20 >= 13 - b).
    expected = sum(Fraction(max(0, min(20, 20 - (13 - b) + 1)), 20) for b in range(1, 7)) / 6
    assert check_odds(16, 3, advantage=1) == expected


def test_r2_boons_and_banes_cancel():
    r = Roller(1)
    roll = r.check("test", 16, advantages=["a", "b"], disadvantages=["c"])
    assert len(roll.boon_faces) == 1 and roll.boon > 0
    roll = r.check("test", 16, advantages=["a"], disadvantages=["c"])
    assert roll.boon_faces == [] and roll.boon == 0


def test_r2_2d20_option_odds():
    opts = CheckOptions(advantage_mode="2d20")
    # keep the higher of two d20 >= 11: 1 - (10/20)^2
    assert check_odds(16, 5, advantage=1, options=opts) == Fraction(3, 4)
    assert check_odds(16, 5, advantage=-1, options=opts) == Fraction(1, 4)
    roll = Roller(3, opts).check("t", 16, [Modifier(5, "x")], advantages=["y"])
    assert roll.natural == max(roll.faces) and len(roll.faces) == 2


def _max_at_least(dice: int, target: int) -> Fraction:
    """P(the highest of ``dice`` d20 is at least ``target``)."""
    return 1 - Fraction(target - 1, 20) ** dice


def test_r2_2d20_n_advantages_roll_n_plus_one_d20():
    # R2 (2d20 option): n net Advantages roll n + 1 d20 and keep the highest; n net
    # Disadvantages keep the lowest of n + 1
    opts = CheckOptions(advantage_mode="2d20")
    for n in (1, 2, 3):
        assert check_odds(16, 5, advantage=n, options=opts) == _max_at_least(n + 1, 11)
        assert check_odds(16, 5, advantage=-n, options=opts) == Fraction(1, 2) ** (n + 1)
    roller = Roller(3, opts)
    roll = roller.check("t", 16, [Modifier(5, "x")], advantages=["a", "b"])
    assert len(roll.faces) == 3 and roll.natural == max(roll.faces)
    assert roll.dice == "3d20kh1"
    roll = roller.check("t", 16, disadvantages=["hurricane", "night"])
    assert len(roll.faces) == 3 and roll.natural == min(roll.faces) and roll.dice == "3d20kl1"


def test_r2_2d20_two_disadvantages_seeded_against_exact_odds(binomial):
    # two Disadvantages succeed on d20+5 >= 16 with odds (1/2)^3 = 1/8 (two dice would
    # give 1/4): 600 seeded Checks tell the two apart by more than 8 sigma
    opts = CheckOptions(advantage_mode="2d20")
    roller = Roller(20260305, opts)
    runs = 600
    hits = sum(
        roller.check("t", 16, [Modifier(5, "x")], disadvantages=["a", "b"]).success
        for _ in range(runs)
    )
    assert binomial(hits, runs, Fraction(1, 8), sigmas=4)
    assert not binomial(hits, runs, Fraction(1, 4), sigmas=4)


def test_r3_x_in_6():
    assert odds("d6", 0, 2, "<=") == Fraction(1, 3)
    roll = Roller(5).chance("spread", 2)
    assert roll.success == (roll.natural <= 2)
    assert roll.probability == Fraction(1, 3)


def test_r4_record_prints_as_one_line():
    r = Roller(0)
    roll = r.check(
        "capsize check",
        16,
        [Modifier(3, "Tier III"), Modifier(2, "Half")],
        success="holds",
        failure="capsizes",
    )
    line = roll.line()
    assert "\n" not in line
    assert line.startswith(
        f"capsize check: d20={roll.natural} +3 (Tier III) +2 (Half) = {roll.natural + 5} vs DV 16: "
    )
    assert line.endswith("holds" if roll.natural + 5 >= 16 else "capsizes")
    data = roll.to_dict()
    assert data["faces"] == [roll.natural] and data["target"] == 16
    assert data["modifiers"] == [{"value": 3, "reason": "Tier III"}, {"value": 2, "reason": "Half"}]


def test_r5_same_seed_same_rolls_and_state_round_trip():
    a, b = Roller(99), Roller(99)
    assert [a.die(20) for _ in range(50)] == [b.die(20) for _ in range(50)]
    state = a.get_state()
    first = [a.die(6) for _ in range(20)]
    c = Roller.from_state(state)
    assert [c.die(6) for _ in range(20)] == first


def test_check_frequencies_follow_exact_odds():
    """10,000 seeded capsize checks land within 5 standard errors of the exact odds."""
    r = Roller(2024)
    n = 10_000
    p = check_odds(16, 3, advantage=1)
    hits = sum(
        bool(r.check("t", 16, [Modifier(3, "Tier")], advantages=["Steady"]).success)
        for _ in range(n)
    )
    sigma = (float(p) * (1 - float(p)) / n) ** 0.5
    assert abs(hits / n - float(p)) < 5 * sigma


def test_recorded_probability_matches_roll_odds():
    roll = Roller(1).roll("aground", "d12", [Modifier(3, "sandy")], target=8, compare="<")
    assert roll.probability == Fraction(4, 12)  # d12 + 3 < 8: faces 1-4
