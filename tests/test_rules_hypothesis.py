"""Any inputs give a valid result or a clean VoyageError (never a traceback)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.dice import Roller
from voyage.errors import VoyageError
from voyage.rules import aground, capsize, dodge, fire, hull, ramming, sinking, strain

TRAITS = ["Steady", "Fireproof", "Nimble", "Ram-bowed", "Quiet", "Broad", "Nonesuch"]
tiers = st.one_of(st.integers(-2, 12), st.sampled_from(["IV", "x", "XI", "four"]))
loads = st.sampled_from(["quarter", "half", "full", "overloaded", "Half", "brimming"])
traits = st.lists(st.sampled_from(TRAITS), max_size=2)
zones = st.sampled_from([None, "none", "secondary", "lethal", "primary"])
seeds = st.integers(0, 2**32)


def _valid(result) -> None:
    assert result.text
    assert all(r.line() for r in result.rolls)
    result.to_dict()


@settings(max_examples=150, deadline=None)
@given(tiers, loads, traits, seeds)
def test_capsize_and_sinking(book, tier, load, names, seed):
    try:
        result = capsize.capsize_check(tier, load, Roller(seed), book, names)
        p = capsize.capsize_odds(tier, load, book, names)
        assert 0 <= p <= 1
        _valid(result)
        _valid(sinking.sinking_time(tier, load, Roller(seed), book))
    except VoyageError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(tiers, st.integers(-3, 30), st.integers(-3, 12), traits, st.booleans(), seeds)
def test_fire(book, tier, severity, crew, names, hose, seed):
    try:
        start = fire.fire_start(tier, names, Roller(seed), book)
        _valid(start)
        result = fire.fire_minute(severity, tier, crew, Roller(seed), book, names, hose)
        _valid(result)
        assert result.severity >= 0
        assert sum(fire.fire_minute_odds(severity, tier, crew, book, names, hose).values()) >= 0
    except VoyageError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(
    tiers,
    st.integers(-5, 40),
    st.integers(-5, 10),
    zones,
    traits,
    st.sampled_from(["sandy", "rocky", "wreckage", "ruins", "mud"]),
    seeds,
)
def test_hits_rams_aground_dodge_strain(book, tier, speed, mod, zone, names, bed, seed):
    roller = Roller(seed)
    calls = [
        lambda: hull.hull_hit(tier, mod, roller, book, True, zone),
        lambda: ramming.ram(tier, speed, roller, book, names),
        lambda: aground.aground(tier, speed, bed, roller, book, names),
        lambda: dodge.dodge(tier, roller, book, names, ["a"] * max(mod, 0), [], zone),
        lambda: strain.strain_check(mod, roller, book, speed),
    ]
    for call in calls:
        try:
            _valid(call())
        except VoyageError as exc:
            assert "\n" not in str(exc)
