"""What the engine asks of the map (typing only; voyage.map.seamap has the map).

Kept apart from voyage.engine.clock so the engine stays a list of phases (DESIGN.md);
``voyage.engine.clock`` re-exports every name here.
"""

from __future__ import annotations

from typing import Any, Protocol


class HexInfo(Protocol):
    """What the engine asks the map about one hex (voyage.map.seamap.Hex has it)."""

    terrain: str
    seabed: str | None
    coastal: bool
    narrow_passage: bool
    port: str | None


class Chart(Protocol):
    """What the engine asks of a sea map (voyage.map.seamap.SeaMap has it)."""

    def hex(self, name: str) -> Any: ...

    def is_sea(self, name: str) -> bool: ...
