"""Property tests of the procedures (d20's style: valid inputs give a valid result, bad ones
a clean error).

The valid-input tests generate only inputs a referee may give, so every example reaches the
rules, and check the result against the ruling and against the procedure's own exact odds
(an outcome the odds call impossible is a bug). One smaller test feeds bad inputs and
expects a one-line VoyageError every time. ``python bench/hypothesis_share.py`` measures the
share of generated calls that reach the rules.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.base.errors import VoyageError
from voyage.dice.roller import Roller
from voyage.rules import aground, capsize, dodge, fire, hull, ramming, sinking, strain

TRAITS = [
    "Broad",
    "Fireproof",
    "Ironclad",
    "Limpy",
    "Nimble",
    "Ram-bowed",
    "Steady",
    "Strong",
    "Thrifty",
    "Quick",
    "Quiet",
    "Well-armed",
]
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]

tier_numbers = st.integers(1, 10)
loads = st.sampled_from(["quarter", "half", "full", "overloaded", "Half", "FULL"])
traits = st.lists(st.sampled_from(TRAITS), max_size=2, unique=True)
zones = st.sampled_from([None, "none", "secondary", "lethal"])
seabeds = st.sampled_from(["sandy", "rocky", "wreckage", "ruins"])
seeds = st.integers(0, 2**32)


def _valid(result) -> None:
    assert result.text and result.rolls
    assert all(r.line() for r in result.rolls)
    assert set(result.to_dict()) >= {"kind", "text", "rolls", "changes"}


def _possible(success: bool, p_success) -> None:
    """The outcome had a chance under the procedure's exact odds."""
    assert 0 <= p_success <= 1
    assert p_success > 0 if success else p_success < 1


@settings(max_examples=100, deadline=None)
@given(tier_numbers, st.booleans(), loads, traits, seeds)
def test_capsize_and_sinking(book, tier, as_roman, load, names, seed):
    shown = ROMAN[tier - 1] if as_roman else tier
    result = capsize.capsize_check(shown, load, Roller(seed), book, names)
    _valid(result)
    roll = result.rolls[0]
    assert result.capsized == (roll.total < 16)  # R41: DV 16
    assert roll.modifiers[0].value == tier
    _possible(not result.capsized, capsize.capsize_odds(tier, load, book, names))
    sunk = sinking.sinking_time(shown, load, Roller(seed), book)
    _valid(sunk)
    assert sunk.minutes in sinking.sinking_distribution(tier, load, book)  # R40's range


@settings(max_examples=100, deadline=None)
@given(tier_numbers, st.data(), st.integers(0, 12), traits, st.booleans(), seeds)
def test_fire(book, tier, data, crew, names, hose, seed):
    start = fire.fire_start(tier, names, Roller(seed), book)
    _valid(start)
    assert start.out_of_control == (start.severity > tier)  # R50
    odds = fire.fire_start_odds(tier, names, book)
    kind = (
        "no_fire"
        if start.severity == 0
        else ("out_of_control" if start.out_of_control else "burning")
    )
    assert odds[kind] > 0 and sum(odds.values()) == 1
    severity = data.draw(st.integers(1, tier), label="severity")
    minute = fire.fire_minute(severity, tier, crew, Roller(seed), book, names, hose)
    _valid(minute)
    assert minute.severity - severity in (-1, 0, 1)
    assert minute.out == (minute.severity == 0)
    assert minute.out_of_control == (minute.severity > tier)
    chances = fire.fire_minute_odds(severity, tier, crew, book, names, hose)
    _possible(minute.spread, chances["spreads"])
    for happened in ("reduced", "out", "out_of_control"):
        if getattr(minute, happened):
            assert chances[happened] > 0, happened


@settings(max_examples=100, deadline=None)
@given(tier_numbers, st.integers(0, 30), st.integers(-5, 10), zones, traits, seabeds, seeds)
def test_hits_rams_aground_dodge(book, tier, speed, mod, zone, names, bed, seed):
    hit = hull.hull_hit(tier, mod, Roller(seed), book, True, zone)
    _valid(hit)
    assert hit.leak.leak_per_hour in hull.leak_distribution(mod, book)
    assert hit.explosion is not None
    _possible(not hit.destroyed, hull.explosion_odds(tier, mod, zone, book))

    rammed = ramming.ram(tier, speed, Roller(seed), book, names)
    _valid(rammed)
    assert rammed.damaged == (rammed.rolls[0].total <= speed)  # R35: over the speed
    assert rammed.margin == (speed - rammed.rolls[0].total if rammed.damaged else 0)
    _possible(not rammed.damaged, ramming.ram_odds(speed, book, names))

    grounded = aground.aground(tier, speed, bed, Roller(seed), book, names)
    _valid(grounded)
    assert grounded.stuck == (grounded.rolls[0].total >= speed)  # R34: under the speed
    assert (grounded.ram is not None) == (bed in ("rocky", "wreckage", "ruins"))  # R33
    _possible(not grounded.stuck, aground.aground_odds(speed, bed, book))

    advantages = ["a good helmsman"] * max(mod, 0)
    dodged = dodge.dodge(tier, Roller(seed), book, names, advantages, [], zone)
    _valid(dodged)
    assert dodged.dodged == (dodged.rolls[0].total >= tier)  # R51: meets or beats the Tier
    _possible(dodged.dodged, dodge.dodge_odds(tier, book, names, advantages, [], zone))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30), st.data(), seeds)
def test_strain(book, speed, data, seed):
    extra = data.draw(st.integers(1, speed // 2), label="extra knots")
    result = strain.strain_check(extra, Roller(seed), book, speed)
    _valid(result)
    first = result.rolls[0]
    assert result.broke == (first.total >= 6)  # R14: d6 + (extra - 1) >= 6
    assert result.fire == (result.broke and result.rolls[1].total >= 6)
    _possible(not result.broke, strain.strain_odds(extra, book, speed))


BAD_CALLS = {
    "tier": lambda book, bad, r: capsize.capsize_check(bad, "half", r, book),
    "load": lambda book, bad, r: sinking.sinking_time(4, bad, r, book),
    "trait": lambda book, bad, r: dodge.dodge(4, r, book, [bad]),
    "zone": lambda book, bad, r: hull.hull_hit(4, 0, r, book, True, bad),
    "seabed": lambda book, bad, r: aground.aground(4, 5, bad, r, book),
    "speed": lambda book, bad, r: ramming.ram(4, bad, r, book),
    "severity": lambda book, bad, r: fire.fire_minute(bad, 4, 2, r, book),
    "extra": lambda book, bad, r: strain.strain_check(bad, r, book, 6),
}
BAD_VALUES = {
    "tier": st.one_of(
        st.integers(-3, 0), st.integers(11, 99), st.sampled_from(["XI", "four", "", "iv v", "0x4"])
    ),
    "load": st.sampled_from(["brimming", "", "quarterly", "1/2"]),
    "trait": st.sampled_from(["Nonesuch", "", "Stedy", "Quickest"]),
    "zone": st.sampled_from(["primary", "lethal zone", "outer"]),
    "seabed": st.sampled_from(["mud", "", "coral", "sand bank"]),
    "speed": st.integers(-50, -1),
    "severity": st.one_of(st.integers(-5, 0), st.integers(5, 40)),  # 5+: over Tier IV
    "extra": st.one_of(st.integers(-5, 0), st.integers(4, 40)),  # Speed 6 strains 3 at most
}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(BAD_CALLS)), st.data(), seeds)
def test_bad_inputs_are_one_line_errors_and_roll_nothing(book, what, data, seed):
    bad = data.draw(BAD_VALUES[what], label=what)
    roller = Roller(seed)
    try:
        BAD_CALLS[what](book, bad, roller)
    except VoyageError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        raise AssertionError(f"{what}={bad!r} was accepted")
    assert roller.records == []  # refused before any die fell
