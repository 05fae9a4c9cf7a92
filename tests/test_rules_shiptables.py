"""Class-table rows (R20, R21) and Traits (R18)."""

import pytest

from voyage.base.errors import VoyageError
from voyage.rules.shiptables import class_rows, roll_class, roll_class_row, roll_trait


def test_r20_row_face_ranges(book, faces):
    # Freighter engine "VII, VII, VIII, IX": 1-2 VII, 3-4 VII, 5 VIII, 6 IX
    assert roll_class_row("freighter", "engine", faces(4), book).value == 7
    assert roll_class_row("E", "engine", faces(5), book).value == 8
    assert roll_class_row("warship", "armor", faces(2), book).value == 1


def test_r21_whaler_harpoons_are_rolled(book, faces):
    result = roll_class_row("whaler", "harpoons", faces(5, 3), book)
    assert result.value == 3 and len(result.rolls) == 2
    assert roll_class_row("whaler", "harpoons", faces(1), book).value == 0


def test_r21_whole_class(book, faces):
    result = roll_class("dinghy", faces(6), book)
    assert result.rows == {"tier": 2}
    assert class_rows("motorboat", book) == ["tier", "engine", "light", "radio"]


def test_unknown_row(book, faces):
    with pytest.raises(VoyageError, match="no row"):
        roll_class_row("dinghy", "engine", faces(1), book)


def test_r18_trait_chance(book, faces):
    assert roll_trait(faces(2), book).trait is None
    result = roll_trait(faces(1, 7), book)
    assert result.trait == "Steady"


def test_r18_trait_sub_rolls(book, faces):
    assert roll_trait(faces(1, 3, 4), book).details == {"armor": 4}
    assert roll_trait(faces(2, 5), book, force=True).details == {"firehose": False}
    assert roll_trait(faces(12, 2), book, force=True).details == {
        "heavy_weapon": "Artillery Cannon"
    }
    assert roll_trait(faces(4, 1), book, force=True).details == {"list_side": "port"}


def test_r20_row_odds_follow_the_face_ranges(book):
    from fractions import Fraction

    from voyage.rules.shiptables import class_row_odds

    # Freighter engine printed "VII, VII, VIII, IX": VII on 1-4
    assert class_row_odds("freighter", "engine", book) == {
        "VII": Fraction(2, 3),
        "VIII": Fraction(1, 6),
        "IX": Fraction(1, 6),
    }
    assert sum(class_row_odds("warship", "armor", book).values()) == 1


def test_r18_trait_odds(book):
    from fractions import Fraction

    from voyage.rules.shiptables import trait_odds

    assert trait_odds(book) == Fraction(1, 6)
    assert trait_odds(book, "steady") == Fraction(1, 72)
