"""A voyage's route and inshore flags as text, as ``voyage_routes`` stores them.

- ``route``: the hex names in order, origin first, separated by single spaces
  (``"0305 0405 0506"``); :func:`route_from_text` is ``text.split()``.
- ``inshore``: one character per flag, ``1`` for a leg sailed inshore (R33), ``0`` for one
  that is not (``"0011"``); as many characters as there are flags.

Older campaign files held both as JSON lists (``["0305", "0405"]``, ``[false, true]``):
:func:`route_from_json` and :func:`inshore_from_json` read those. Every reader goes through
this module.

A voyage read to be sailed (voyage.actions.voyages) keeps the text itself: :class:`TextRoute`
and :class:`TextFlags` are sequences that cut out of it only the items asked for (an advance
reads a few hexes about her position, the route's last hex and its length), where splitting
the whole text of a route of 94,001 hexes would be most of a day's advance. They are never
changed in place, so the store can tell a route it read is still the voyage's by identity
(voyages.save_state); whatever makes a new route (a new course, a drift, a tow) slices them
into plain lists.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, SupportsIndex, TypeVar, overload

_T = TypeVar("_T")

#: What the m106 format allows: digits and spaces in a route, 0 and 1 in the flags.
ROUTE_GLOB = "*[^0-9 ]*"
INSHORE_GLOB = "*[^01]*"


def route_text(route: Iterable[str]) -> str:
    """``["0305", "0405"]`` -> ``"0305 0405"``."""
    if isinstance(route, TextRoute):
        return route.text
    return " ".join(route)


def route_from_text(text: str) -> list[str]:
    """``"0305 0405"`` -> ``["0305", "0405"]`` (``""`` -> ``[]``)."""
    return text.split()


def inshore_text(flags: Iterable[Any]) -> str:
    """``[False, True]`` -> ``"01"`` (a flag is inshore when it is true)."""
    if isinstance(flags, TextFlags):
        return flags.text
    return "".join("1" if f else "0" for f in flags)


def inshore_from_text(text: str) -> list[bool]:
    """``"01"`` -> ``[False, True]``: found by scanning for the few ``1``s (a long route is
    mostly offshore), not by a test per flag."""
    flags = [False] * len(text)
    at = text.find("1")
    while at >= 0:
        flags[at] = True
        at = text.find("1", at + 1)
    return flags


def _json_list(value: Any) -> list[Any] | None:
    if not isinstance(value, str):
        return None
    try:
        found = json.loads(value)
    except ValueError:
        return None
    return found if isinstance(found, list) else None


def route_from_json(value: Any) -> Any:
    """A route stored as JSON before m106 -> the text; anything else is kept as it is."""
    found = _json_list(value)
    return value if found is None else route_text(str(h) for h in found)


def inshore_from_json(value: Any) -> Any:
    """Inshore flags stored as JSON before m106 -> the text; anything else is kept."""
    found = _json_list(value)
    return value if found is None else inshore_text(found)


# -- read lazily ---------------------------------------------------------------------------

#: A forward or backward walk of up to this many hexes goes name by name (str.find); a
#: longer one leaps and counts the spaces leapt over (str.count: C speed).
_WALK = 24
_DOUBLE_SPACE = re.compile(b"  ").search


class TextItems(Sequence[_T]):
    """What :class:`TextRoute` and :class:`TextFlags` share as the lists they stand for:
    equal to any sequence of the same items, ``+`` makes a plain list, the list's repr (a
    ShipState's repr, which the engine digest reads), and no hash (as a list has none).
    Never changed in place, so it may be shared (:func:`copy_of`)."""

    __slots__ = ()

    def _same_items(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have none

    def __add__(self, other: Iterable[_T]) -> list[_T]:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return [*self, *other]

    def __radd__(self, other: Iterable[_T]) -> list[_T]:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return [*other, *self]

    def __repr__(self) -> str:
        return repr(list(self))


class TextRoute(TextItems[str]):
    """A route as its stored text (``"0305 0405 0506"``), read an item at a time.

    When every name has the same width ``w`` (4 digits on a map up to 99 x 99, 6 on a
    route of hexes whose column or row passes 99, R30), hex ``i`` is
    ``text[i*(w+1) : i*(w+1)+w]``. Otherwise (a 200 x 200 map's route through hexes
    0101-9999 and 100100-200200) hex ``i`` is found from the nearest of the first hex, the
    last and the one found last (a cursor): name by name when it is near, else by counting
    spaces. Slices are plain lists, and so is what ``+`` makes; it equals any sequence of
    the same hexes. Only made by :func:`read_route`, from clean text (single spaces between
    names of digits): the same items as ``text.split()``.
    """

    __slots__ = ("text", "_n", "_w", "_at", "_start")

    def __init__(self, text: str, count: int, width: int) -> None:
        self.text = text
        self._n = count
        self._w = width  # 0: names of more than one width
        self._at = 0  # the cursor (non-uniform names): hex _at starts at text[_start]
        self._start = 0

    # -- the items ------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: SupportsIndex) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> str | list[str]:
        if isinstance(index, slice):
            return self._slice(index)
        i = index if index.__class__ is int else index.__index__()
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("route index out of range")
        w = self._w
        if w:
            at = i * (w + 1)
            return self.text[at : at + w]
        text = self.text
        start = self._find(i)
        end = text.find(" ", start)
        return text[start:] if end < 0 else text[start:end]

    def _slice(self, index: slice) -> list[str]:
        span = range(self._n)[index]
        if not span:
            return []
        if span.step != 1:
            return [self[i] for i in span]
        first, last = span.start, span.stop - 1
        w, text = self._w, self.text
        if w:
            return text[first * (w + 1) : last * (w + 1) + w].split(" ")
        start = self._find(first)
        end_start = self._find(last)
        end = text.find(" ", end_start)
        return (text[start:] if end < 0 else text[start:end]).split(" ")

    def _find(self, i: int) -> int:
        """Where hex ``i`` (0 <= i < len) starts in a text of names of several widths: from
        the nearest of the first hex, the cursor and the last hex, name by name when near,
        else by leaps of the mean width whose spaces are counted (each leap's miss is the
        next leap; the first costs a count over the text between, in C)."""
        text, last = self.text, self._n - 1
        if i == last:
            return text.rfind(" ") + 1
        at, start = self._at, self._start
        if i < at - i:
            at, start = 0, 0
        if last - i < abs(i - at):
            at, start = last, text.rfind(" ") + 1
        mean = (len(text) + 1) / (last + 1)
        for _ in range(8):  # a leap lands nearer unless widths vary wildly: then bisect
            steps = i - at
            if -_WALK <= steps <= _WALK:
                break
            if steps > 0:
                end = text.find(" ", min(start + int(steps * mean), len(text) - 1))
                if end < 0:  # past the last space: leap back from the last hex
                    at, start = last, text.rfind(" ") + 1
                    continue
                at, start = at + text.count(" ", start, end + 1), end + 1
            else:
                begin = text.rfind(" ", 0, max(start + int(steps * mean), 1)) + 1
                at, start = at - text.count(" ", begin, start), begin
        else:
            if i < at:
                at, start = 0, 0
            start = _forward(text, start, i - at)
            at = i
        while at < i:
            start = text.index(" ", start) + 1
            at += 1
        while at > i:
            start = text.rfind(" ", 0, start - 1) + 1
            at -= 1
        self._at, self._start = i, start
        return start

    def __iter__(self) -> Iterator[str]:
        return iter(self.text.split(" ") if self._n else ())

    def __reversed__(self) -> Iterator[str]:
        return reversed(self.text.split(" ") if self._n else [])

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, str) or not value or " " in value:
            return False
        text, size = self.text, len(value)
        at = text.find(value)
        while at >= 0:
            end = at + size
            if (at == 0 or text[at - 1] == " ") and (end == len(text) or text[end] == " "):
                return True
            at = text.find(value, at + 1)
        return False

    # -- as a list --------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextRoute):
            return self.text == other.text  # clean texts: the same text, the same hexes
        return self._same_items(other)

    __hash__ = None  # type: ignore[assignment]  # (a class defining __eq__ gets one back)


class TextFlags(TextItems[bool]):
    """Inshore flags as their stored text (``"0011"``): flag ``i`` is ``text[i] == "1"``
    (as :func:`inshore_from_text` reads them). Slices and ``+`` make plain lists."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __len__(self) -> int:
        return len(self.text)

    @overload
    def __getitem__(self, index: SupportsIndex) -> bool: ...

    @overload
    def __getitem__(self, index: slice) -> list[bool]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> bool | list[bool]:
        if isinstance(index, slice):
            return list(map("1".__eq__, self.text[index]))
        return self.text[index] == "1"

    def __iter__(self) -> Iterator[bool]:
        return map("1".__eq__, self.text)

    def __reversed__(self) -> Iterator[bool]:
        return map("1".__eq__, reversed(self.text))

    def __contains__(self, value: object) -> bool:
        if value is True or value == 1:
            return "1" in self.text
        if value is False or value == 0:
            return self.text.count("1") < len(self.text)
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextFlags) and self.text == other.text:
            return True
        return self._same_items(other)

    __hash__ = None  # type: ignore[assignment]  # (a class defining __eq__ gets one back)


def _forward(text: str, start: int, steps: int) -> int:
    """Where the name ``steps`` names on from the one at ``start`` starts (by bisection,
    counting spaces in halved stretches of the text)."""
    # spaces in text[start:low] == below < steps <= spaces in text[start:high]
    low, below, high = start, 0, len(text)
    while high - low > 128:
        mid = (low + high) >> 1
        found = below + text.count(" ", low, mid)
        if found >= steps:
            high = mid
        else:
            low, below = mid, found
    while below < steps:
        low = text.index(" ", low) + 1
        below += 1
    return low


#: An hour of sailing reads a few hexes of her route; a read from the text costs about ten
#: times a list's, and splitting the text about a tenth of a read per hex. A route of fewer
#: hexes than this many per hour to be sailed is split once into a list (a year's advance
#: reads each hex many times over), a longer one read lazily (a day on a 94,001-hex route).
EAGER_HEXES_PER_HOUR = 64


def read_route(text: str, hours: int | None = None) -> Sequence[str]:
    """A stored route to sail: a :class:`TextRoute` of ``text`` when it is clean (names of
    digits between single spaces, as :func:`route_text` writes it), else the plain list
    :func:`route_from_text` makes (the same hexes either way). ``hours``, the hours she will
    be sailed before she is saved, if known: a route short for them is split at once into
    a list (:data:`EAGER_HEXES_PER_HOUR`)."""
    if not text:
        return TextRoute("", 0, 0)
    if hours is not None and text.count(" ") < hours * EAGER_HEXES_PER_HOUR:
        return route_from_text(text)
    if not text.isascii() or text[0] == " " or text[-1] == " ":
        return route_from_text(text)
    # each check a pass in C over the text (bytes.translate, ==, a slice, a search), a
    # tenth of what split() takes
    data = text.encode()
    gaps = data.translate(None, b"0123456789")  # the spaces, if only digits left
    count = len(gaps) + 1
    if gaps != b" " * (count - 1):
        return route_from_text(text)
    width = text.find(" ") if count > 1 else len(text)
    if len(text) == count * width + count - 1 and text[width :: width + 1] == " " * (count - 1):
        return TextRoute(text, count, width)  # every space where names of one width put it
    if _DOUBLE_SPACE(data):  # (on bytes, compiled: faster than str's ``in`` on such text)
        return route_from_text(text)
    return TextRoute(text, count, 0)


def read_inshore(text: str, hours: int | None = None) -> Sequence[bool]:
    """Stored inshore flags to sail: a :class:`TextFlags` of ``text``, or a list when
    ``hours`` are many for the route (as :func:`read_route`)."""
    if hours is not None and len(text) <= hours * EAGER_HEXES_PER_HOUR:
        return inshore_from_text(text)
    return TextFlags(text)


def copy_of(items: Sequence[Any]) -> Any:
    """A route or flags another voyage (a ship taken in tow, R92) or a forecast's run may
    take as its own: a :class:`TextRoute` or :class:`TextFlags` itself (never changed in
    place, so shared without copying its 94,001 hexes), else a list copy."""
    return items if isinstance(items, TextItems) else list(items)
