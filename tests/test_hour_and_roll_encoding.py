"""How an advance is saved: roll records kept by what they are made of
(voyage.dice.roller._roll_json), hour arrays written from looked-up texts
(voyage.store.hourdays.pack), the hexes of events found among the rows of their clock
(voyage.store.logrows._hexes). Each gives exactly the bytes (and values) of the plain
encoding."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from voyage.dice import roller as dice
from voyage.dice.roller import Modifier, Roll
from voyage.engine.clock import dumps
from voyage.store import hourdays
from voyage.store.logrows import _hexes, rolls_json


class _Str(str):
    """A str subclass: equal to its value, and json writes it alike."""


def _roll(**kw: Any) -> Roll:
    base: dict[str, Any] = {
        "label": "engine strain",
        "dice": "d6",
        "faces": [1],
        "natural": 1,
        "total": 1,
        "target": 6,
        "compare": ">=",
        "success": False,
        "outcome": "the engine holds",
        "probability": Fraction(1, 6),
    }
    return Roll(**{**base, **kw})


def test_rolls_equal_as_values_but_not_as_json_are_not_taken_for_each_other():
    """A record kept for one roll is given only to a roll equal to it part for part and of
    the same types: 1, True and 1.0 compare equal but are written apart; every roll here,
    encoded after every other in both orders, gives the encoder's bytes."""
    odds = Fraction(1, 6)
    mods = [Modifier(2, "Tier II")]
    variants: list[dict[str, Any]] = [
        {},
        {"faces": [True], "natural": True},
        {"faces": [1.0]},
        {"natural": 1.0},
        {"total": True},
        {"target": 6.0},
        {"success": 0},
        {"success": None},
        {"boon": False},
        {"outcome": _Str("the engine holds")},
        {"label": _Str("engine strain")},
        {"dice": _Str("d6")},
        {"compare": None},
        {"target_text": "breaks on 6+"},
        {"probability": odds},
        {"probability": Fraction(1, 6)},  # equal odds, another object
        {"probability": 1 / 6},
        {"probability": None},
        {"faces": (1,)},
        {"faces": [[1]]},  # not a plain value (unhashable)
        {"modifiers": ()},
        {"modifiers": mods, "total": 3},
        {"modifiers": [Modifier(True, "Tier II")], "total": 3},
        {"modifiers": mods, "total": 3, "target": True},
        {"modifiers": mods, "total": 3, "faces": [True], "natural": True},
        {"boon_faces": [4], "boon": 4, "boon_reasons": ["fog"], "total": 5},
        {"boon_faces": [True], "boon": 4, "boon_reasons": ["fog"], "total": 5},
        {"boon_faces": (4,), "boon": 4, "boon_reasons": ["fog"], "total": 5},
        {"boon_faces": [4], "boon": 4, "boon_reasons": [_Str("fog")], "total": 5},
        {"dice": "2d6", "faces": [1, 5], "natural": 6, "total": 6},
        {"dice": "2d6", "faces": [1, 5, 6], "natural": 6, "total": 6},
    ]
    rolls = [_roll(**v, **({} if "probability" in v else {"probability": odds})) for v in variants]
    for order in (rolls, rolls[::-1], rolls + rolls):
        dice._DONE.clear()
        for roll in order:
            assert roll.to_json() == dumps(roll.to_dict()), roll
    assert rolls_json(rolls) == dumps([r.to_dict() for r in rolls])


def test_a_roll_changed_after_it_was_written_is_written_anew():
    roll = _roll()
    first = roll.to_json()
    roll.faces, roll.natural, roll.total, roll.outcome = [6], 6, 6, "the engine breaks"
    roll.success = True
    assert roll.to_json() != first and roll.to_json() == dumps(roll.to_dict())
    roll.modifiers.append(Modifier(1, "strain"))
    assert roll.to_json() == dumps(roll.to_dict())


def test_many_seeded_rolls_give_the_encoders_bytes():
    """Rolls of a few kinds with random faces and outcomes, as an advance writes them."""
    rng = random.Random(145)
    kinds = [
        ("engine strain", "d6", [], 6),
        ("coastal hazard", "d20", [Modifier(2, "Tier II"), Modifier(-1, "night")], 12),
        ("capsize check", "2d6", [], None),
    ]
    made = []
    for _ in range(2000):
        label, expr, mods, target = rng.choice(kinds)
        count, sides = (2, 6) if expr == "2d6" else (1, int(expr[1:]))
        faces = [rng.randint(1, sides) for _ in range(count)]
        total = sum(faces) + sum(m.value for m in mods)
        ok = None if target is None else total >= target
        made.append(
            Roll(
                label=label,
                dice=expr,
                faces=faces,
                natural=sum(faces),
                modifiers=list(mods),
                total=total,
                target=target,
                compare=None if target is None else ">=",
                success=ok,
                outcome="" if ok is None else ("fails" if ok else "holds"),
                probability=Fraction(rng.randint(1, 5), 6),
            )
        )
    for roll in made:
        assert roll.to_json() == dumps(roll.to_dict())


def _reference_pack(action_id: int, rows: list[Any], first: int) -> list[tuple[Any, ...]]:
    """voyage.store.hourdays.pack as it was (every hour a tuple, each day one encoding)."""
    groups: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for n, r in enumerate(rows, first):
        hour = (n, r.clock, r.clock % 24, r.hex, r.miles, r.speed, r.pace,
                hourdays._whole(r.fuel), hourdays._whole(r.load), r.load_category, r.water,
                r.leaks, r.status)  # fmt: skip
        groups.setdefault((r.voyage_id, r.ship, r.clock // 24), []).append(hour)
    return [
        (action_id, v, s, d + 1, hours[0][0], hours[-1][0], hourdays._encode(hours))
        for (v, s, d), hours in groups.items()
    ]


def _hour(**kw: Any) -> SimpleNamespace:
    base = {"voyage_id": 1, "ship": "Gull", "clock": 0, "hex": "0305", "miles": 6, "speed": 6,
            "pace": "normal", "fuel": 40, "load": 12, "load_category": "half", "water": 0,
            "leaks": 0, "status": "under way"}  # fmt: skip
    return SimpleNamespace(**{**base, **kw})


def test_packed_hours_are_the_encoders_text_whatever_their_values():
    """Plain hours are written from looked-up texts, any other is encoded in full: the
    packed rows are those the tuples' encoding gave, ids and all (two ships' hours
    interleaved, so a ship-day's ids are not consecutive)."""
    odd = [
        {"fuel": 400.0},
        {"fuel": 12.5, "load": 7.0},
        {"water": True},
        {"leaks": 1.0},
        {"miles": False},
        {"hex": None},
        {"hex": _Str("0306")},
        {"status": '\u00e9chou\u00e9 \u2192 "stuck"'},
        {"pace": 3},
        {"pace": True},
        {"status": 6.0},
        {"load_category": 40},
        {"speed": -4, "fuel": -1},
        {"load": 2**70},
    ]
    rows = []
    for clock in range(60):
        for ship, vid in (("Gull", 1), ("Tern", 2)):
            extra = odd[clock % len(odd)] if clock % 3 == 0 else {}
            rows.append(_hour(**{"clock": clock, "ship": ship, "voyage_id": vid, **extra}))
    assert hourdays.pack(9, rows, 31) == _reference_pack(9, rows, 31)
    packed = hourdays.pack(9, rows, 31)
    assert [p[4:6] for p in packed[:2]] == [(31, 31 + 2 * 23), (32, 32 + 2 * 23)]
    assert json.loads(packed[0][6])[1][0] == 33


def test_event_hexes_are_those_of_their_ships_rows():
    """By bisection among the rows of each clock when the rows come in clock order, by a
    table of every row otherwise: the same hexes (the last row of a ship and clock wins;
    an event without a row has none)."""
    rng = random.Random(5)
    rows = [
        SimpleNamespace(ship=ship, clock=clock, hex=f"{clock:02d}{i:02d}")
        for clock in range(50)
        for i, ship in enumerate(["A", "B", "C"])
        if rng.random() < 0.8
    ]
    rows.append(SimpleNamespace(ship="A", clock=49, hex="last"))
    events = [SimpleNamespace(ship=rng.choice("ABCD"), clock=rng.randrange(52)) for _ in range(300)]
    ordered = sorted(events, key=lambda e: e.clock)

    def reference(rows: list[Any], events: list[Any]) -> list[Any]:
        at = {(r.ship, r.clock): r.hex for r in rows}
        return [at.get((e.ship, e.clock)) for e in events]

    for evs in (ordered, events):
        for rs in (rows, rows[::-1]):
            assert _hexes(rs, evs) == reference(rs, evs)  # type: ignore[arg-type]
    assert "last" in _hexes(rows, [SimpleNamespace(ship="A", clock=49)])  # type: ignore[list-item]
    assert _hexes([], events) == [None] * len(events)  # type: ignore[arg-type]
    assert _hexes(rows, []) == []  # type: ignore[arg-type]
