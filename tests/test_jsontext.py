"""voyage.base.jsontext writes exactly what json.dumps(indent=2, ensure_ascii=False) writes
(the JSON export's bytes depend on it)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voyage.base.jsontext import dumps_indented

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
KEYS = st.text() | st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none()
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(KEYS, inner, max_size=5)
    ),
    max_leaves=40,
)


def expected(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_the_same_text_as_json_dumps(value: Any) -> None:
    assert dumps_indented(value) == expected(value)


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        "",
        {"é": ['\n\t"\\', "\u2028", "\x00", "😀"]},
        [math.nan, math.inf, -math.inf, -0.0, 1e-310, 1e300],
        {7: "a", 2.5: "b", None: "c", True: "d", False: "e"},
        [[[[{}]]], {"a": []}],
        # flat containers (only scalars) go through json's C encoder in one call
        {"a": {"k\n": 1.5, "é": math.nan, "": None, "b": True, "c": 10**40}},
        [("x", 1, -0.0, False), [{"x": "\u2028"}, ["y", -math.inf]]],
        {"flat": {"1": 1}, 2: {"a": [1, 2]}},
    ],
)
def test_edge_values(value: Any) -> None:
    assert dumps_indented(value) == expected(value)


def test_what_json_treats_specially_is_left_to_json() -> None:
    class Flag(int):
        def __repr__(self) -> str:  # json writes int subclasses with int.__repr__
            return "Flag"

    assert dumps_indented({"f": Flag(3)}) == expected({"f": Flag(3)}) == '{\n  "f": 3\n}'
    with pytest.raises(TypeError):  # a type json cannot encode: json's own error
        dumps_indented({"x": object()})
    with pytest.raises(TypeError):  # a key json cannot take
        dumps_indented({(1, 2): 1})
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        dumps_indented(loop)


SHARED_ROLL = {"label": "coastal hazard", "faces": [4], "modifiers": [{"value": 1, "reason": "x"}]}


@settings(max_examples=200, deadline=None)
@given(VALUES, st.lists(st.integers(min_value=0, max_value=3), max_size=6))
def test_a_value_met_again_is_written_the_same(value: Any, places: list[int]) -> None:
    """A container met again (the same object: the JSON export's events share the roll
    records decoded from equal texts) is written from its first text, at its
    own indentation wherever it is met, exactly as json.dumps writes it each time."""
    inner = [value, SHARED_ROLL]
    doc: dict[str, Any] = {"a": [inner, inner], "b": {"c": inner}, "d": []}
    for depth in places:  # the same objects again, deeper or shallower
        box: Any = inner
        for _ in range(depth):
            box = [box]
        doc["d"].append(box)
        doc["d"].append(value)
    assert dumps_indented(doc) == expected(doc)


def test_shared_records_are_written_in_full_each_time() -> None:
    rolls = [SHARED_ROLL, SHARED_ROLL]
    doc = {"events": [{"rolls": rolls}, {"rolls": rolls}, {"rolls": list(rolls)}]}
    text = dumps_indented(doc)
    assert text == expected(doc)
    assert text.count('"coastal hazard"') == 6
