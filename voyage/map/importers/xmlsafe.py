"""XML from a referee's file, read with the standard library but never expanded.

A document type declaration can define entities that expand to gigabytes from a few lines
("billion laughs") or pull in other files; no map tool voyage reads writes one, so any
``<!DOCTYPE`` or entity declaration is refused before the tree is built.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.parsers import expat

from voyage.base.errors import MapError


class _Refused(Exception):
    pass


def _refuse(*_args: object) -> None:
    raise _Refused


def parse_xml(text: str, source: str, what: str) -> ET.Element:
    """The root element of ``text``; one MapError line for a DTD, an entity or broken XML."""
    guard = expat.ParserCreate()
    guard.StartDoctypeDeclHandler = _refuse
    guard.EntityDeclHandler = _refuse
    guard.ExternalEntityRefHandler = _refuse  # type: ignore[assignment]
    try:
        guard.Parse(text, True)
    except _Refused:
        raise MapError(
            f"{source}: the {what} declares a DOCTYPE or entities, which voyage does not read "
            "(they can expand without end): save it again from the drawing tool"
        ) from None
    except expat.ExpatError as exc:
        raise MapError(
            f"{source}: the {what} is broken XML ({expat.ErrorString(exc.code)} at line "
            f"{exc.lineno}, column {exc.offset + 1}): save it again from the drawing tool"
        ) from None
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        raise MapError(f"{source}: the {what} is broken XML ({exc}): save it again") from None
