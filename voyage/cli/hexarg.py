"""A hex as a person types it: ``2812``, or the name of a port on the campaign's map
(``Ironport``), which every map names and every newcomer types first (a walk-through, ref24d).
"""

from __future__ import annotations

import re
from typing import Any

#: read as a hex name as it stands (hexmap refuses a malformed one in its own words): it
#: begins with a digit
_HEXLIKE = re.compile(r"^\s*\d")


def hex_or_port(camp: Any, text: str | None) -> str | None:
    """``text`` as a hex name: digits as they are, else the hex of the map's port of that
    name (any case). A name that is no port is refused in one line naming the ports."""
    if text is None or _HEXLIKE.match(text) or not any(ch.isalpha() for ch in text):
        return text  # a hex, or no port's name ('03 05', '12A4', ''): the hex's refusal
    from voyage.base.errors import MapError, quoted
    from voyage.map.hexes import NAME_HELP
    from voyage.outputs.export import sea_map_for

    sea_map = sea_map_for(camp)
    if sea_map is None:
        return text  # no map: the hex's own refusal says what to write
    try:
        return str(sea_map.port(text).name)
    except MapError:
        ports = ", ".join(f"{p.port} ({p.name})" for p in sea_map.ports()) or "none"
        raise MapError(
            f"{quoted(text)} is neither a CCRR hex name nor a port of {sea_map.name}: {NAME_HELP}, "
            f"or name a port: {ports}"
        ) from None


def hexes_or_ports(camp: Any, texts: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Each of ``texts`` through :func:`hex_or_port` (``--via``, repeated)."""
    return tuple(str(hex_or_port(camp, t)) for t in texts)
