"""How an advance is saved, against the plain encoding, on values drawn
at random: hour texts kept by their values (voyage.store.hourdays.pack) give exactly the bytes
of encoding each day's hours whole, and roll records kept by what they are made of
(voyage.dice.roller) those of encoding the record's dict, whatever the types, and however
often values repeat."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_hour_and_roll_encoding import _reference_pack  # every hour a tuple, each day one encoding

from voyage.dice import roller
from voyage.dice.roller import Modifier, Roll
from voyage.engine.clock import dumps
from voyage.store import hourdays


class _Str(str):
    """A str subclass: equal to its value, and json writes it alike."""


# few distinct values, so that kept texts are found again; numbers of every kind that
# equals an int (bools, whole floats) and words that equal a str (a subclass)
_NUMBER = st.sampled_from([0, 1, 2, 7, -3, 400, 2**70, True, False, 1.0, 7.0, 2.5, -0.0])
_WORD = st.sampled_from(["0305", "0306", "normal", "slow", "half", "under way",
                         "\u00e9chou\u00e9 \"x\"", _Str("0305"), _Str("normal"), None, 3,
                         True])  # fmt: skip
_PLAIN_NUMBER = st.sampled_from([0, 1, 6, 40, 399, 12])
_PLAIN_WORD = st.sampled_from(["0305", "0306", "normal", "half", "under way"])


_FIELDS = ["clock", "hex", "miles", "speed", "pace", "fuel", "load", "load_category", "water",
           "leaks", "status"]  # fmt: skip
_NUMBERS = {"clock", "miles", "speed", "fuel", "load", "water", "leaks"}


@st.composite
def _hour(draw: Any) -> SimpleNamespace:
    """A plain hour, often with one value (sometimes two) of another type."""
    hour = {
        "voyage_id": draw(st.sampled_from([1, 2, None])),
        "ship": draw(st.sampled_from(["Gull", "Tern"])),
        "clock": draw(st.integers(0, 80)),
        **{f: draw(_PLAIN_NUMBER if f in _NUMBERS else _PLAIN_WORD) for f in _FIELDS[1:]},
    }
    for field in draw(st.lists(st.sampled_from(_FIELDS), max_size=2)):
        hour[field] = draw(_NUMBER if field in _NUMBERS else _WORD)
    return SimpleNamespace(**hour)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(_hour(), max_size=80), first=st.integers(1, 10**6))
def test_packed_hours_are_the_encoders_text(rows, first):
    """Whatever the values, and in any order (a ship-day's ids need not be consecutive)."""
    for order in (rows, sorted(rows, key=lambda r: (float(r.clock), r.ship))):
        assert hourdays.pack(5, order, first) == _reference_pack(5, order, first)


_SIXTH = Fraction(1, 6)
#: a plain roll's fields (a bare die, or with a modifier and a boon), and values of other
#: types (or equal values of another type: 1 and True, 6 and 6.0, a str and a subclass)
_PLAIN: dict[str, Any] = {
    "label": ["engine strain", "capsize check"],
    "dice": ["d6", "2d6", "d20", "2d20kh1", ""],
    "faces": [[1], [6], [1, 5], [6, 6, 1]],
    "natural": [1, 6],
    "modifiers": [[], [], [Modifier(2, "Tier II")]],
    "boon_faces": [[], [], [4]],
    "boon": [0, 4, -3],
    "boon_reasons": [[], [], ["fog"]],
    "total": [1, 7],
    "target": [None, 6, 12],
    "compare": [None, ">=", "<="],
    "target_text": [None, "breaks on 6+"],
    "success": [None, True, False],
    "outcome": ["", "holds", "fails"],
    "probability": [None, _SIXTH, 0.5],
}
_ODD: dict[str, Any] = {
    "label": [_Str("engine strain")],
    "dice": [_Str("d6")],
    "faces": [[True], [1.0], (1,), [1, True]],
    "natural": [True, 1.0, 6.0],
    "modifiers": [(), [Modifier(True, "Tier II")], [Modifier(2, _Str("Tier II"))]],
    "boon_faces": [[True], (4,), [4.0]],
    "boon": [False, 4.0],
    "boon_reasons": [[_Str("fog")], ("fog",)],
    "total": [True, 7.0],
    "target": [True, 6.0],
    "compare": [_Str(">=")],
    "target_text": [_Str("breaks on 6+")],
    "success": [0, 1],
    "outcome": [_Str("holds")],
    "probability": [Fraction(1, 6), 1 / 6, Fraction(1, 2)],
}


@st.composite
def _roll(draw: Any, base: dict[str, Any]) -> Roll:
    """The base roll with a few of its fields plain values, some of another type."""
    fields = dict(base)
    for name in draw(st.lists(st.sampled_from(sorted(_PLAIN)), max_size=3)):
        pool = _ODD[name] if draw(st.booleans()) else _PLAIN[name]
        fields[name] = draw(st.sampled_from(pool))
    return Roll(**fields)


@st.composite
def _rolls(draw: Any) -> list[Roll]:
    base = {name: draw(st.sampled_from(values)) for name, values in _PLAIN.items()}
    return draw(st.lists(_roll(base), min_size=1, max_size=40))


@settings(max_examples=300, deadline=None)
@given(rolls=_rolls())
def test_roll_records_are_the_encoders_bytes(rolls):
    """voyage.dice.roller's records (kept by what the roll is made of) are the encoder's bytes,
    for rolls like one another, some equal to another as values but of other types."""
    roller._DONE.clear()
    for roll in rolls:
        assert roll.to_json() == dumps(roll.to_dict()), roll
