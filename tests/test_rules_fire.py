"""Fires (R50)."""

from fractions import Fraction

import pytest

from voyage.base.errors import VoyageError
from voyage.dice.roller import Roller
from voyage.rules.fire import (
    fire_minute,
    fire_minute_odds,
    fire_start,
    fire_start_odds,
    spread_in_6,
)


def test_r50_new_fire_severity_d4(book, faces):
    roller = faces(3)
    result = fire_start(4, [], roller, book)
    assert result.severity == 3 and not result.out_of_control
    assert roller.sides_asked == [4]
    assert result.changes == {"fire_severity": 3}


def test_r50_fireproof_minus_two_zero_is_no_fire(book, faces):
    result = fire_start(4, ["Fireproof"], faces(2), book)
    assert result.severity == 0 and result.changes == {}
    assert "no fire" in result.text
    assert fire_start(4, ["Fireproof"], faces(4), book).severity == 2


def test_r50_out_of_control_from_the_start(book, faces):
    roller = faces(3, 2, 5)  # severity 3 on a Tier II ship; swallowed in 2 + 5 minutes
    result = fire_start(2, [], roller, book)
    assert result.out_of_control and result.swallowed_in == 7
    assert roller.sides_asked == [4, 6, 6]


def test_r50_start_odds(book):
    assert fire_start_odds(4, [], book) == {"no_fire": 0, "burning": 1, "out_of_control": 0}
    # Fireproof: d4 - 2 -> 0 fire on 1-2; Tier I: severity 2 (face 4) is out of control
    assert fire_start_odds(1, ["Fireproof"], book) == {
        "no_fire": Fraction(1, 2),
        "burning": Fraction(1, 4),
        "out_of_control": Fraction(1, 4),
    }


def test_r50_spread_then_crew_reduce(book, faces):
    roller = faces(2, 4)  # spreads on 2 (2-in-6), crew fight on 4 (4-in-6)
    result = fire_minute(2, 5, 3, roller, book)
    assert result.spread and result.fought and result.reduced
    assert result.severity == 2  # 2 -> 3 -> 2
    assert result.changes == {"fire_severity": 2}


def test_r50_no_spread_and_crew_fail(book, faces):
    result = fire_minute(2, 5, 2, faces(3, 5), book)
    assert not result.spread and result.fought and not result.reduced
    assert result.severity == 2


def test_r50_too_few_crew_cannot_fight(book, faces):
    roller = faces(1)  # spreads to 3; two crew cannot fight a 3
    result = fire_minute(2, 5, 2, roller, book)
    assert result.severity == 3 and not result.fought
    assert roller.sides_asked == [6]


def test_r50_firehose_counts_as_one_crew(book, faces):
    result = fire_minute(2, 5, 2, faces(1, 1), book, firehose=True)
    assert result.fought and result.severity == 2


def test_r50_fire_goes_out(book, faces):
    result = fire_minute(1, 3, 1, faces(6, 1), book)
    assert result.out and result.severity == 0


def test_r50_fireproof_spreads_on_one_in_six(book, faces):
    assert spread_in_6(["Fireproof"], book) == 1
    assert not fire_minute(1, 3, 0, faces(2), book, traits=["Fireproof"]).spread


def test_r50_spreading_past_tier_is_out_of_control(book, faces):
    roller = faces(1, 6, 6)  # spreads 3 -> 4 on a Tier III ship; swallowed in 12 minutes
    result = fire_minute(3, 3, 10, roller, book)
    assert result.out_of_control and result.swallowed_in == 12 and not result.fought
    assert result.changes["fire_out_of_control"]


def test_r50_already_out_of_control_is_an_error(book):
    with pytest.raises(VoyageError, match="out of control"):
        fire_minute(4, 3, 10, Roller(1), book)


def test_r50_minute_odds(book):
    # severity 2, Tier 5, 2 crew: spreads 1/3 (to 3: 2 crew cannot fight);
    # no spread 2/3, then reduce 2/3: 4/9
    assert fire_minute_odds(2, 5, 2, book) == {
        "spreads": Fraction(1, 3),
        "reduced": Fraction(4, 9),
        "out": 0,
        "out_of_control": 0,
    }
    # severity 1, Tier 1, 1 crew: spread 1/3 -> out of control; else out on 2/3 -> 4/9
    assert fire_minute_odds(1, 1, 1, book) == {
        "spreads": Fraction(1, 3),
        "reduced": Fraction(4, 9),
        "out": Fraction(4, 9),
        "out_of_control": Fraction(1, 3),
    }


def test_r50_seeded_minutes_match_odds(book, binomial):
    roller = Roller(7)
    trials = 3000
    reduced = sum(fire_minute(2, 5, 2, roller, book).reduced for _ in range(trials))
    assert binomial(reduced, trials, fire_minute_odds(2, 5, 2, book)["reduced"])
