"""Flooding thresholds (R37)."""

import pytest

from voyage.base.errors import VoyageError
from voyage.rules.flooding import flooding_state, flooding_thresholds


@pytest.mark.parametrize(
    "water,state",
    [
        (0, "none"),
        (25, "none"),
        (26, "capsize_hourly"),
        (62.5, "capsize_hourly"),
        (63, "listing"),
        (125, "listing"),
        (126, "sinking"),
    ],
)
def test_r37_states_for_tier_ii(book, water, state):
    assert flooding_state(water, 250, book).state == state


def test_r37_listing_checks_every_ten_minutes(book):
    flood = flooding_state(100, 250, book)
    assert flood.listing and flood.capsize_every_minutes == 10
    assert flooding_state(126, 250, book).sinking


def test_r37_thresholds(book):
    assert {k: float(v) for k, v in flooding_thresholds(1000, book).items()} == {
        "capsize_hourly": 100.0,
        "listing": 250.0,
        "sinking": 500.0,
    }


def test_flooding_rejects_nonsense(book):
    with pytest.raises(VoyageError):
        flooding_state(-1, 250, book)
    with pytest.raises(VoyageError):
        flooding_state(1, 0, book)
