"""Checks on what a person types or a file names: text without control characters, and
whole numbers in ASCII digits within a stated range.

Both the CLI (through its parameter types in voyage/cli/common.py) and the core (ship
names, map names) use these, so a name that reaches the campaign file is always one a
terminal, a log and a Markdown export can show on one line.
"""

from __future__ import annotations

import math
import unicodedata
from fractions import Fraction
from typing import Any

from voyage.base.errors import VoyageError

#: Longest name (campaign, ship, port, map) in characters.
NAME_MAX = 100
#: Longest free text (a storm's note, a reason, a title) in characters.
NOTE_MAX = 500

# Cc: C0/C1 controls (newline, tab, escape, NUL ...); Zl/Zp: the Unicode line and paragraph
# separators, which many terminals and editors show as a line break; Cs: halves of
# surrogate pairs (not text at all). Other invisible format characters (Cf) are allowed -
# Persian and Hindi names need the zero-width (non-)joiner - except the bidirectional
# overrides and isolates, which make a line display in another order than it reads.
_REFUSED_CATEGORIES = {"Cc", "Zl", "Zp", "Cs"}
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SHOWN = {"\n": "a newline", "\r": "a carriage return", "\t": "a tab", "\x00": "a NUL"}


def control_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of ``text`` a one-line name may not hold, described (or None).

    With ``multiline``, newlines (and tabs) are allowed: free notes in a map file.
    """
    for ch in text:
        if multiline and ch in "\n\t":
            continue
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _BIDI_CONTROLS:
            return _SHOWN.get(ch, f"U+{ord(ch):04X}")
    return None


def check_text(
    value: str,
    what: str,
    *,
    max_length: int = NAME_MAX,
    multiline: bool = False,
    required: bool = True,
    error: type[VoyageError] = VoyageError,
) -> str:
    """``value`` stripped, or a one-line ``error`` naming ``what`` and the fix: empty (when
    ``required``), longer than ``max_length``, or holding a control character."""
    text = value.strip()
    if required and not text:
        raise error(f"{what} must not be empty: give it at least one letter")
    if len(text) > max_length:
        raise error(f"{what} is {len(text)} characters long: at most {max_length} are allowed")
    bad = control_character(text, multiline=multiline)
    if bad:
        where = "" if multiline else "newlines, tabs or other "
        raise error(
            f"{what} holds a control character ({bad}): write it without {where}control characters"
        )
    return text


def check_name(
    value: str, what: str, *, max_length: int = NAME_MAX, error: type[VoyageError] = VoyageError
) -> str:
    """A name (a ship, a person, a campaign, a port) as :func:`check_text` takes it, which
    also holds at least one letter or digit: one made only of invisible or punctuation
    characters ("\u200b", "...") could not be told apart from another, or found again."""
    text = check_text(value, what, max_length=max_length, error=error)
    if not any(ch.isalnum() for ch in text):
        raise error(f"{what} {text!r} needs at least one letter or digit")
    return text


def parse_whole(text: str, what: str, low: int, high: int) -> int:
    """A whole number written in ASCII digits (an optional sign), from ``low`` to ``high``.

    Python's ``int()`` also reads other scripts' digits ('٤' is 4) and underscores; a
    referee's typo should not be read as a number, so only 0-9 are accepted.
    """
    raw = text.strip()
    digits = raw[1:] if raw[:1] in "+-" else raw
    if not digits or not digits.isascii() or not digits.isdigit():
        shown = raw if len(raw) <= 20 else raw[:20] + "..."
        raise VoyageError(
            f"{what} must be a whole number from {low} to {high} (in digits 0-9), not {shown!r}"
        )
    if len(digits) > 30:
        raise VoyageError(f"{what} must be from {low} to {high}: {raw[:20]}... is far too large")
    number = int(raw)
    if not low <= number <= high:
        raise VoyageError(f"{what} must be from {low} to {high}, not {number}")
    return number


def bad_number(data: Any, limit: int, where: str) -> tuple[str, str] | None:
    """(key path, problem) of the first number in parsed YAML ``data`` that no rule can use,
    or None: NaN or infinity, or a number beyond ``limit`` either way ("numbers in
    ``where`` run from -limit to limit").

    YAML reads ``.nan`` and ``.inf`` as floats that pass any ``<`` check, so they are refused
    wherever they stand. Shared (aliased) nodes are visited once, so a self-referencing YAML
    alias cannot loop.
    """
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return path or "(top)", f"expected a finite number, found {value!r}"
        if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > limit:
            return path or "(top)", (
                f"{value} is out of range: numbers in {where} run from -{limit} to {limit}"
            )
        if isinstance(value, dict | list):
            if id(value) in seen:
                continue
            seen.add(id(value))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                stack.append((f"{path}.{key}" if path else str(key), item))
    return None


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hour``, ``2 hours``; ``plural(1, "person", "people")``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def plain(x: Fraction | int | float) -> int | float:
    """A number as the log prints it: whole, or a decimal to two places."""
    if type(x) is int:  # the engine's hot path: a rolled ship's fuel, every ship-hour
        return x
    x = Fraction(str(x)) if isinstance(x, float) else Fraction(x)
    return int(x) if x.denominator == 1 else round(float(x), 2)


def load_said(total: Any) -> int:
    """A Load as a person reads it, in whole hlbs (rounded down, never more than she
    carries): a rolled ship's stores keep their fractions (R100) and a built boat's Load is
    her weight in tens of lbs (R81: 402.6 for 4,026 lbs over her body); the JSON of `ship
    show` keeps the exact figure."""
    return math.floor(total)
