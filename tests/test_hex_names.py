"""hex_name's two-digit halves looked up (voyage.map.hexes._TWO) give the names the
format gave (R30: two digits each up to 99, three beyond), and the same errors."""

from __future__ import annotations

import pytest

from voyage.map.hexes import MapError, canonical, hex_name


def _formatted(col: object, row: object) -> str:
    """hex_name as it was: the numbers formatted."""
    if col <= 99 and row <= 99:  # type: ignore[operator]
        return f"{col:02d}{row:02d}"
    return f"{col:03d}{row:03d}"


def test_every_name_up_to_three_digits_is_the_formatted_one():
    for col in [*range(1, 130), 998, 999]:
        for row in [*range(1, 130), 998, 999]:
            assert hex_name(col, row) == _formatted(col, row)
    assert hex_name(8, 12) == "0812" and hex_name(100, 5) == "100005"
    assert canonical("008012") == "0812" and canonical("0812") == "0812"


def test_other_numbers_behave_as_before():
    assert hex_name(True, 7) == _formatted(True, 7) == "0107"  # a bool is the int it is
    with pytest.raises(ValueError):  # a float: the format refuses it, as it did
        hex_name(8.0, 12)
    for col, row in ((0, 5), (5, 0), (1000, 1), (-1, 3)):
        with pytest.raises(MapError):
            hex_name(col, row)
