"""Sea states in the engine (R60) and the storm-hour clock (R32 as amended).

The exact capsize odds are enumerated here from R1/R2/R41's text: d20 + Tier + the load
modifier, minus the highest of n d6 for n Disadvantages, against DV 16.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from engine_helpers import first_seed, run, ship, voyage, world

from voyage.rules.capsize import capsize_odds
from voyage.tables.rulebook import load_rulebook


def exact_capsize_odds(modifier: int, banes: int, dv: int = 16) -> Fraction:
    """P(d20 + modifier - (highest of `banes` d6, or 0) >= dv), by enumeration."""
    wins = total = 0
    for d20 in range(1, 21):
        for sixes in product(range(1, 7), repeat=banes):
            total += 1
            wins += d20 + modifier - (max(sixes) if sixes else 0) >= dv
    return Fraction(wins, total)


def anchored(**kw):
    """A Tier VIII freighter lying still (anchored) in 0403: only the same-hex clock runs."""
    return voyage(ship(tier=8, engine=8, cls="freighter", cargo=100), status="anchored", **kw)


def check_times(result) -> list[tuple[int, int]]:
    return [(e.clock, e.event.minute) for e in result.events if e.event.kind == "capsize"]


def upright_run(sea, hours: int):
    """The first seeded run in which the anchored ship never capsizes (so every Check due
    is rolled), whatever the dice."""
    _, result, _ = first_seed(
        lambda: [anchored()],
        lambda r, states: not states[0].capsized,
        hours=hours,
        w=world(sea),
    )
    return result


def test_calm_hours_before_the_storm_do_not_count() -> None:
    # the known bug: four calm hours, then a storm. The first same-hex Check is after six
    # storm hours (the end of hour 9), not six hours in the hex (hour 5).
    result = upright_run(lambda h, c: 1 if c >= 4 else 0, 16)
    assert check_times(result) == [(9, 59), (15, 59)]


def test_a_calm_hour_starts_the_clock_again() -> None:
    # storm hours 0-4, calm at hour 5, storm again from hour 6: checks at 6 storm hours
    # counted from hour 6 (end of hour 11), never at the end of hour 5
    result = upright_run(lambda h, c: 0 if c == 5 else 1, 12)
    assert check_times(result) == [(11, 59)]


def test_major_storm_every_3_hours_hurricane_every_hour() -> None:
    # R60: the interval of the state blowing at that hour
    major = upright_run(lambda h, c: 2, 9)
    assert check_times(major) == [(2, 59), (5, 59), (8, 59)]
    hurricane = upright_run(lambda h, c: 3, 3)
    assert check_times(hurricane) == [(0, 59), (1, 59), (2, 59)]
    # stormy for 2 hours, then a hurricane: the third storm hour is over the 1-hour interval
    mixed = upright_run(lambda h, c: 1 if c < 2 else 3, 4)
    assert check_times(mixed) == [(2, 59), (3, 59)]


def test_storm_checks_carry_the_sea_states_disadvantages_at_the_exact_odds() -> None:
    # R60: stormy seas as written, a major storm one Disadvantage, a hurricane two; the
    # probability each roll records is the exact one
    book = load_rulebook()
    for level, name, banes in ((1, "stormy seas", 0), (2, "major storm", 1), (3, "hurricane", 2)):
        st = anchored()
        result = run([st], seed=3, hours=6, w=world(lambda h, c, lv=level: lv), halt=False)
        checks = [e for e in result.events if e.event.kind == "capsize"]
        assert checks, name
        roll = checks[0].event.rolls[0]
        assert roll.label == f"capsize check (storm: {name})"
        assert len(roll.boon_faces) == banes and (roll.boon <= 0)
        assert roll.boon_reasons == [name] * banes
        # freighter Tier VIII at Quarter load (+1): modifier 9
        exact = exact_capsize_odds(8 + 1, banes)
        assert roll.probability == exact
        assert capsize_odds(8, "quarter", book, disadvantages=[name] * banes) == exact
    assert exact_capsize_odds(9, 0) > exact_capsize_odds(9, 1) > exact_capsize_odds(9, 2)


def test_every_hex_entered_in_a_storm_is_a_check_with_its_state() -> None:
    # R32/R60: a Check on entering each storm-tossed hex, at the state of that hex
    states = {"0403": 3, "0503": 2}
    _, result, _ = first_seed(
        lambda: [voyage(ship(tier=8, engine=8, cls="freighter", cargo=100))],
        lambda r, sts: not sts[0].capsized,
        hours=6,
        w=world(lambda h, c: states.get(h, 0)),
    )
    labels = [
        (e.event.rolls[0].label, [r for r in e.event.rolls[0].boon_reasons])
        for e in result.events
        if e.event.kind == "capsize"
    ]
    # the first on entering 0403 (hurricane; an hour lying there is another, R60's 1-hour
    # interval), then on entering 0503 (major storm)
    assert labels[0] == ("capsize check (storm: hurricane)", ["hurricane", "hurricane"])
    assert ("capsize check (storm: major storm)", ["major storm"]) in labels
    assert {lab for lab, _ in labels} <= {
        "capsize check (storm: hurricane)",
        "capsize check (storm: major storm)",
    }


def test_the_storm_clock_alone() -> None:
    # R32/R60 as a pure function: calm resets, the interval of the state now, restart
    from voyage.rules.capsize import sea_state_rules, storm_clock

    rules = sea_state_rules(load_rulebook())
    assert [r.hours_in_same_hex for r in rules[1:]] == [6, 3, 1]
    assert [r.disadvantages for r in rules] == [0, 0, 1, 2]
    assert storm_clock(5, 0, rules) == (0, False)
    assert storm_clock(4, 1, rules) == (5, False)
    assert storm_clock(5, 1, rules) == (0, True)
    assert storm_clock(2, 2, rules) == (0, True)
    assert storm_clock(0, 3, rules) == (0, True)
    reason, banes, text = rules[3].terms("1714")
    assert reason == "storm: hurricane" and banes == ["hurricane"] * 2
    assert text == "Hurricane in 1714 (R60, 2 Disadvantages). "
