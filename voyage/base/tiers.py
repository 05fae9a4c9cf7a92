"""Tiers are integers 1-10 inside voyage and in JSON, Roman numerals for people."""

from __future__ import annotations

from voyage.base.errors import VoyageError

ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


def roman(tier: int | None) -> str:
    """``4`` -> ``IV``; None (no engine) -> ``-``."""
    if tier is None:
        return "-"
    if 1 <= tier <= len(ROMAN):
        return ROMAN[tier - 1]
    return str(tier)


def parse_tier(value: str | int, what: str = "tier") -> int:
    """Read a tier written as ``4``, ``IV`` or ``iv``; raise a clear error otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        text = str(value).strip().upper()
        if text.isascii() and text.isdigit():  # "٤" is not a tier: only 0-9 are digits
            number = int(text)
        elif text in ROMAN:
            number = ROMAN.index(text) + 1
        else:
            raise VoyageError(f"{what} {value!r} is not a tier: use I-X or 1-10")
    if not 1 <= number <= 10:
        raise VoyageError(f"{what} {value!r} is out of range: tiers run from I to X (1-10)")
    return number
