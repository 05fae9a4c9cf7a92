"""What the engine asks of the map (typing only; voyage.maps has the map).

Kept apart from voyage.engine so the engine stays a list of phases (DESIGN.md);
``voyage.engine`` re-exports every name here.
"""

from __future__ import annotations

from typing import Any, Protocol


class HexInfo(Protocol):
    """What the engine asks the map about one hex (voyage.maps.Hex has it)."""

    terrain: str
    seabed: str | None
    coastal: bool
    narrow_passage: bool
    port: str | None


class Chart(Protocol):
    """What the engine asks of a sea map (voyage.maps.SeaMap has it)."""

    def hex(self, name: str) -> Any: ...

    def is_sea(self, name: str) -> bool: ...
