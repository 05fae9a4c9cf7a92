"""A roll's log record written directly (issue 14.5): :meth:`voyage.dice.roller.Roll.to_json`'s
bytes, those of ``voyage.engine.clock.dumps(roll.to_dict())``, built from the parts a kind of roll
shares (its shape, made once) and its own dice, and kept by everything it is made of (a
year's 45,000 rolls have some 1,300 distinct records). A value of an unexpected type raises
:class:`_Unusual`: Roll.to_json then leaves the record to the JSON encoder.

Moved out of voyage.dice.roller as it was (that module is at its 900 lines).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

_STR = json.encoder.encode_basestring_ascii  # what _LOG_JSON uses for a string (ASCII)


class _Unusual(Exception):
    """A value Roll.to_json leaves to the JSON encoder."""


def _json_value(v: Any) -> str:
    """One value as _LOG_JSON writes it, for the plain types a roll holds."""
    kind = type(v)
    if kind is str:
        return _STR(v)
    if kind is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if kind is float and v - v == 0:  # finite (NaN and infinities are spelled apart)
        return float.__repr__(v)
    raise _Unusual


def _json_list(values: Iterable[Any]) -> str:
    if type(values) is list and set(map(type, values)) == {int}:
        return "[" + ",".join(map(int.__repr__, values)) + "]"  # faces: the usual case
    return "[" + ",".join(_json_value(v) for v in values) + "]"


def _int_texts(values: Any) -> list[str]:
    """The faces as text (a plain list of ints, else _Unusual): both the JSON list and the
    line are joins of these."""
    if type(values) is not list:
        raise _Unusual
    for v in values:
        if type(v) is not int:
            raise _Unusual
    return list(map(int.__repr__, values))


#: What the JSON and the line of a roll share with every roll of the same kind (label,
#: dice, modifiers, target...): built once per kind, see _roll_shape.
_SHAPES: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _roll_key(r: Roll) -> tuple[Any, ...]:
    """The parts of a roll that its shape is made of, each checked for its exact type (so
    that keys equal as Python values, 1 and True say, are also written alike)."""
    label, dice, compare, text = r.label, r.dice, r.compare, r.target_text
    if not (
        type(label) is str
        and type(dice) is str
        and (compare is None or type(compare) is str)
        and (text is None or type(text) is str)
    ):
        raise _Unusual
    mods: tuple[Any, ...] = ()
    if r.modifiers:
        pairs = []
        for m in r.modifiers:
            if type(m) is not Modifier or type(m.value) is not int or type(m.reason) is not str:
                raise _Unusual
            pairs.append((m.value, m.reason))
        mods = tuple(pairs)
    reasons: tuple[str, ...] = ()
    if r.boon_reasons:
        reasons = tuple(r.boon_reasons)
        if type(r.boon_reasons) is not list or set(map(type, reasons)) != {str}:
            raise _Unusual
    boons = len(r.boon_faces)
    return (label, dice, compare, text, r.target, mods, reasons, boons, boons and r.boon >= 0)


def _roll_shape(r: Roll, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """(JSON from boon_reasons to expression, JSON of label and modifiers, the dice as the
    line starts them, kept-dice notation, the boon's words, the modifiers' and the target's
    text in the line, whether the line shows the total, the target's JSON, the last odds)."""
    dice, target, mods, bf = r.dice, r.target, r.modifiers, r.boon_faces
    head = (
        f'"boon_reasons":{_json_list(r.boon_reasons) if r.boon_reasons else "[]"},'
        f'"compare":{"null" if r.compare is None else _STR(r.compare)},'
        f'"dice":{_STR(dice)},"expression":{_STR(r.expression)},'
    )
    mods_json = ",".join(
        f'{{"reason":{_STR(m.reason)},"value":{int.__repr__(m.value)}}}' for m in mods
    )
    middle = f',"label":{_STR(r.label)},', f',"modifiers":[{mods_json}],"natural":'
    boon = None
    if bf:
        ahead = r.boon >= 0
        boon = (
            " " + ("+" if ahead else "-"),
            f" ({'boon' if ahead else 'bane'} {len(bf)}d6=",
            f": {'; '.join(r.boon_reasons)})",
        )
    after = "".join(" " + m.text() for m in mods)
    target_text = ""
    if target is not None:
        target_text = f" {r.target_text or default_target_text(target, r.compare)}"
    kept = "kh" in dice or "kl" in dice
    shape = (
        head,
        middle,
        f"{r.label}: {dice}=" if dice else f"{r.label}: ",
        kept,
        boon,
        after,
        bool(mods or bf),
        target_text,
        "null" if target is None else int.__repr__(target),
        [None, "null"],  # the last probability seen and its JSON (see _roll_json)
    )
    if len(_SHAPES) > 4096:  # bounded: a campaign has a few hundred kinds of roll
        _SHAPES.clear()
    _SHAPES[key] = shape
    return shape


#: The records of the rolls written lately by what they are made of, with their odds
_DONE: dict[tuple[Any, ...], tuple[str, Any]] = {}


def _roll_json(r: Roll) -> str:
    """Roll.to_dict() in _LOG_JSON's bytes, keys in sorted order, and its line() inside,
    from the shape of its kind (_roll_shape) and its own dice. The plain fields are checked
    for their usual types first (a roll with anything else raises _Unusual).

    A plain Roll's record is kept by everything it is made of (issue 14.5: a year's 45,000
    rolls have some 1,300 distinct records). Every part of the key is checked for its exact
    type first, so equal keys are equal records (1, True and 1.0 are equal as Python
    values, not as JSON). The odds go by identity: the cache holds them (no id reused)."""
    target, success, natural, total, boon = r.target, r.success, r.natural, r.total, r.boon
    outcome = r.outcome
    if not (
        type(natural) is int
        and type(total) is int
        and type(boon) is int
        and type(outcome) is str
        and (target is None or type(target) is int)
        and (success is None or type(success) is bool)
    ):
        raise _Unusual
    cls = type(r)
    if cls is not Roll:
        if cls.expression is not Roll.expression:
            raise _Unusual  # a kind of roll that words its expression its own way
        return _roll_text(r, cls)
    faces, mods, bf, reasons = r.faces, r.modifiers, r.boon_faces, r.boon_reasons
    prob = r.probability
    if type(faces) is not list or type(bf) is not list:
        raise _Unusual
    dealt = tuple(faces)
    for v in dealt:
        if type(v) is not int:
            raise _Unusual
    if not (mods or bf or reasons) and type(mods) is list and type(reasons) is list:
        label, dice, compare, text = r.label, r.dice, r.compare, r.target_text  # a bare die
        if not (type(label) is str and type(dice) is str and (compare is None or
                type(compare) is str) and (text is None or type(text) is str)):  # fmt: skip
            raise _Unusual
        key: tuple[Any, ...] = (label, dice, compare, text, target, dealt, natural, total,
                                boon, outcome, success, id(prob))  # fmt: skip
    else:  # (the shape's key checks the label, dice, modifiers and reasons)
        shown = tuple(bf)
        for v in shown:
            if type(v) is not int:
                raise _Unusual
        key = (_roll_key(r), dealt, shown, natural, total, boon, outcome, success, id(prob))
    done = _DONE.get(key)
    if done is not None:
        return done[0]
    made = _roll_text(r, cls)
    if len(_DONE) > 8192:  # bounded: a year of ten ships writes ~1,300 distinct rolls
        _DONE.clear()
    _DONE[key] = made, prob
    return made


def _roll_text(r: Roll, cls: type[Roll]) -> str:
    """_roll_json's record made from the shape of its kind (_roll_json checks the fields)."""
    success, natural, total, boon = r.success, r.natural, r.total, r.boon
    outcome = r.outcome
    key = _roll_key(r)
    shape = _SHAPES.get(key) or _roll_shape(r, key)
    head, (label, mods), line, kept, boon_words, after, shows_total, target_text, tj, seen = shape
    faces = _int_texts(r.faces)
    bf = r.boon_faces
    shown = _int_texts(bf) if bf else []
    bf_json = "[" + ",".join(shown) + "]"
    if cls is not Roll and cls.line is not Roll.line:
        line = r.line()  # its own line (a tally of drowning rolls, voyage.rules.water)
        if type(line) is not str:
            raise _Unusual
    else:
        if not r.dice:
            line += int.__repr__(natural)  # a number without dice: the faces are not shown
        elif kept:
            line += ",".join(faces) + f"\u2192{natural}"
        elif len(faces) > 1:
            line += "+".join(faces) + f"={natural}"
        elif faces:
            line += faces[0]
        if bf:
            line += f"{boon_words[0]}{abs(boon)}{boon_words[1]}{','.join(shown)}{boon_words[2]}"
        line += after
        if shows_total:
            line += f" = {total}"
        line += target_text
        if outcome:
            line += f": {outcome}"
    prob = r.probability
    if prob is seen[0]:  # rolls of a kind mostly share one (immutable) odds object
        pj = seen[1]
    elif prob is None:
        pj = "null"
    else:
        p = float(prob)
        if type(p) is not float or p - p != 0:
            raise _Unusual
        pj = float.__repr__(p)
        seen[:] = prob, pj
    return (
        f'{{"boon":{boon},"boon_faces":{bf_json},{head}"faces":[{",".join(faces)}]{label}'
        f'"line":{_STR(line)}{mods}{natural},"outcome":{_STR(outcome)},"probability":{pj},'
        f'"success":{"null" if success is None else ("true" if success else "false")},'
        f'"target":{tj},"total":{total}}}'
    )


# Roll and Modifier are the records this module writes: imported last, as voyage.dice.roller
# imports this module's encoder at its end (either module may be imported first).
from voyage.dice.roller import Modifier, Roll, default_target_text  # noqa: E402
