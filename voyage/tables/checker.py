"""What every table's check shares (voyage.tables.rulebook and the checks of each family of
tables): a :class:`Checker` whose failures are one TableError naming the file, the key path
and the problem, and :func:`face_ranges`, a die's faces each given once (R20)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from voyage.base.errors import TableError, VoyageError
from voyage.base.tiers import parse_tier
from voyage.dice.roller import DiceError, parse


class Checker:
    """Helpers that raise a TableError naming the file and the key path."""

    def __init__(self, file: Path) -> None:
        self.file = file

    def fail(self, key: str, problem: str) -> TableError:
        where = f" at '{key}'" if key else ""
        return TableError(f"{self.file}{where}: {problem}")

    def mapping(
        self,
        value: Any,
        key: str,
        required: set[str],
        optional: set[str] | frozenset[str] = frozenset(),
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping, found {type(value).__name__}")
        keys = {str(k) for k in value}
        unknown = keys - required - optional
        if unknown:
            allowed = ", ".join(sorted(required | optional))
            raise self.fail(key, f"unknown key '{sorted(unknown)[0]}' (allowed: {allowed})")
        missing = required - keys
        if missing:
            raise self.fail(key, f"missing key '{sorted(missing)[0]}'")
        return value

    def typed(self, value: Any, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        if isinstance(value, bool) and kind in (int, (int, float)):
            raise self.fail(key, f"expected {what}, found {value!r}")
        if not isinstance(value, kind):
            raise self.fail(key, f"expected {what}, found {value!r}")
        if isinstance(value, float) and not math.isfinite(value):
            # .nan and .inf are floats to YAML: no rule number may be either
            raise self.fail(key, f"expected a finite number, found {value!r}")
        return value

    def number(self, value: Any, key: str, minimum: float | None = None) -> float:
        self.typed(value, key, (int, float), "a number")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"expected a number of at least {minimum}, found {value!r}")
        return value

    def integer(
        self, value: Any, key: str, minimum: int | None = None, maximum: int | None = None
    ) -> int:
        self.typed(value, key, int, "a whole number")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"expected at least {minimum}, found {value}")
        if maximum is not None and value > maximum:
            raise self.fail(key, f"expected at most {maximum}, found {value}")
        return value

    def tier(self, value: Any, key: str) -> int:
        try:
            return parse_tier(value)
        except VoyageError:
            raise self.fail(key, f"unknown tier {value!r}: use I-X or 1-10") from None

    def dice(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"expected a dice expression like d6, found {value!r}")
        try:
            parse(value)
        except DiceError as exc:
            raise self.fail(key, str(exc)) from None
        return value

    def tier_bands(self, bands: Any, key: str, field_name: str) -> dict[int, int]:
        """Bands like ``[{tiers: [1, 4], knots: 4}]`` -> {tier: value}, each tier once."""
        if not isinstance(bands, list) or not bands:
            raise self.fail(key, "expected a list of {tiers: [first, last], ...} bands")
        out: dict[int, int] = {}
        for i, band in enumerate(bands):
            where = f"{key}[{i}]"
            self.mapping(band, where, {"tiers", field_name})
            span = band["tiers"]
            if not (isinstance(span, list) and len(span) == 2):
                raise self.fail(f"{where}.tiers", "expected [first, last] tiers")
            first, last = self.tier(span[0], f"{where}.tiers"), self.tier(span[1], f"{where}.tiers")
            if last < first:
                raise self.fail(f"{where}.tiers", f"band runs backwards ({span[0]} to {span[1]})")
            value = self.integer(band[field_name], f"{where}.{field_name}", 0)
            for t in range(first, last + 1):
                if t in out:
                    raise self.fail(f"{where}.tiers", f"tier {t} appears in two bands")
                out[t] = value
        missing = sorted(set(range(1, 11)) - set(out))
        if missing:
            raise self.fail(key, f"tier {missing[0]} is in no band (bands must cover I-X)")
        return out


def face_ranges(
    c: Checker, rows: Any, key: str, low: int = 1, high: int = 6, die: str = "d6"
) -> list[tuple[int, int, Any]]:
    """Entries ``{faces: [first, last], value: ...}`` covering every face ``low``-``high``
    of ``die`` exactly once (R20: the tables spell out every face range)."""
    if not isinstance(rows, list) or not rows:
        raise c.fail(key, "expected a list of {faces: [first, last], value: ...} entries")
    covered: dict[int, int] = {}
    out = []
    for i, entry in enumerate(rows):
        where = f"{key}[{i}]"
        c.mapping(entry, where, {"faces", "value"})
        faces = entry["faces"]
        if not (
            isinstance(faces, list)
            and len(faces) == 2
            and all(isinstance(f, int) and not isinstance(f, bool) for f in faces)
        ):
            raise c.fail(f"{where}.faces", f"expected [first, last] {die} faces, found {faces!r}")
        first, last = faces
        if not (low <= first <= last <= high):
            raise c.fail(
                f"{where}.faces", f"faces {faces} must run from {low} to {high}, low to high"
            )
        for f in range(first, last + 1):
            if f in covered:
                raise c.fail(f"{where}.faces", f"face {f} is doubled (also in entry {covered[f]})")
            covered[f] = i
        out.append((first, last, entry["value"]))
    missing = sorted(set(range(low, high + 1)) - set(covered))
    if missing:
        raise c.fail(
            key, f"face {missing[0]} is missing (every face {low}-{high} of {die} needs a value)"
        )
    return out
