"""``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte, several times faster.

CPython's json module encodes in C only without ``indent``; with it, every value passes
through a stack of Python generators, which made the JSON export of a 1,000-day voyage cost
more than reading the voyage. Here each container is
one Python call appending to a list, and every string, number and constant is encoded by
the same C and ``repr`` routines that json uses, so the text is identical (a test compares
the two over generated values). A value json would not take (a circular structure, an
unknown type, a key that is not a str, int, float, bool or None) is handed to json.dumps
itself, so errors read as json's own. A container that is not flat and is met again (the
same object, at the same depth) is written from the text it got the first time: the JSON
export's events share the roll records decoded from equal texts (voyage.outputs.export), so a long
voyage's few hundred distinct records are encoded once each, not thousands of times.
"""

from __future__ import annotations

import json
from typing import Any

_STR = getattr(json.encoder, "c_encode_basestring", None) or json.encoder.py_encode_basestring
_FLOAT = float.__repr__
_INT = int.__repr__
_INDENT = "  "
#: the types a flat container holds (exact types: a subclass goes the long way)
_SCALARS = frozenset({str, int, float, bool, type(None)})
_KEYS = frozenset({str})
_MAKE = getattr(json.encoder, "c_make_encoder", None)
#: level -> json's C encoder writing a flat container's items at that level (see _flat)
_FLAT: dict[int, Any] = {}


class _Unsupported(Exception):
    """A value json.dumps would treat specially: let it do so."""


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return _FLOAT(value)


def _key(key: Any) -> str:
    """A dict key as json writes it: str as is; float, int, bool and None as their JSON."""
    kind = type(key)
    if kind is str:
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if kind is int:
        return _INT(key)
    if kind is float:
        return _float(key)
    raise _Unsupported


def _no_default(value: Any) -> Any:
    raise _Unsupported


def _flat(level: int) -> Any:
    """json's C encoder (no indent) whose item separator is the comma, newline and indent
    of a container's items at ``level``: a dict or list holding only scalars, encoded by
    it, is the indented text but for its brackets' own newlines (added in _encode). Its
    strings, floats (NaN included) and ints are json's own, as everywhere here."""
    found = _FLAT.get(level)
    if found is None:
        assert _MAKE is not None
        sep = ",\n" + _INDENT * (level + 1)
        found = _FLAT[level] = _MAKE(None, _no_default, _STR, None, ": ", sep, False, False, True)
    return found


#: (id, level) of each container that is not flat encoded so far in a call -> where its
#: text lies in the output (start, end), or that text once it is met again (see _again)
Spans = dict[tuple[int, int], Any]


def _again(value: Any, level: int, out: list[str], spans: Spans) -> bool:
    """Whether ``value`` (a dict or list that is not flat) was encoded before at ``level``
    in this call: if so, its text is appended again. Only the same object counts (equal
    values are not found here: voyage.outputs.export shares the records it decodes from equal
    texts). Every object in the value being encoded lives until the call ends and nothing
    changes it meanwhile, so an ``id`` names one object and one text; that text is joined
    from the output only when the object is met a second time."""
    found = spans.get((id(value), level))
    if found is None:
        return False
    if type(found) is tuple:
        found = spans[id(value), level] = "".join(out[found[0] : found[1]])
    out.append(found)
    return True


def _encode(value: Any, level: int, out: list[str], depth: int, spans: Spans) -> None:
    kind = type(value)
    if kind is str:
        out.append(_STR(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(_INT(value))
    elif kind is float:
        out.append(_float(value))
    elif depth > 200:  # deep (or circular): json.dumps decides, as it would have
        raise _Unsupported
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = "\n" + _INDENT * (level + 1)
        if (
            _MAKE is not None
            and _KEYS.issuperset(map(type, value))
            and _SCALARS.issuperset(map(type, value.values()))
        ):  # a flat dict (an hour row, a roll's record) in one C call
            text = "".join(_flat(level)(value, 0))
            out.append("{" + inner + text[1:-1] + "\n" + _INDENT * level + "}")
            return
        if _again(value, level, out, spans):
            return
        start = len(out)
        first = True
        for key, item in value.items():
            out.append(("{" if first else ",") + inner + _STR(_key(key)) + ": ")
            first = False
            _encode(item, level + 1, out, depth + 1, spans)
        out.append("\n" + _INDENT * level + "}")
        spans[id(value), level] = (start, len(out))
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = "\n" + _INDENT * (level + 1)
        if _MAKE is not None and _SCALARS.issuperset(map(type, value)):
            text = "".join(_flat(level)(value, 0))
            out.append("[" + inner + text[1:-1] + "\n" + _INDENT * level + "]")
            return
        if _again(value, level, out, spans):
            return
        start = len(out)
        first = True
        for item in value:
            out.append(("[" if first else ",") + inner)
            first = False
            _encode(item, level + 1, out, depth + 1, spans)
        out.append("\n" + _INDENT * level + "]")
        spans[id(value), level] = (start, len(out))
    else:  # subclasses of str/int/float/dict/list, or a type json cannot encode
        raise _Unsupported


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text."""
    out: list[str] = []
    try:
        _encode(value, 0, out, 0, {})
    except _Unsupported:
        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(out)


__all__ = ["dumps_indented"]
