"""Names imported when first used (issue 14: start-up).

Every command that advances imports the engine, and the engine imported every rule it may
ever call: grounding, ramming, hull hits, fire, depth... A quiet hour at sea calls none of
them, yet importing them (and making their classes) cost every ``voyage advance`` ~10 ms.
A module lists such names in its import block as

    if TYPE_CHECKING:
        from .rules.aground import aground
    else:
        aground = lazy("voyage.rules.aground", "aground", globals())

and its code calls ``aground(...)`` as before. The stand-in imports the module on its first
use and puts the real object in the module's namespace in its own place, so from then on
the name is the real function (or module: ``lazy("voyage.rules.depth", None, globals(),
"depth")``), with no cost per call. Nothing else changes: the same code runs, later.
"""

from __future__ import annotations

import importlib
from typing import Any


class _StandIn:
    """A name of ``module`` (or the module itself) not imported yet."""

    __slots__ = ("_module", "_attr", "_into", "_name")

    def __init__(self, module: str, attr: str | None, into: dict[str, Any], name: str) -> None:
        self._module, self._attr, self._into, self._name = module, attr, into, name

    def _load(self) -> Any:
        found: Any = importlib.import_module(self._module)
        if self._attr is not None:
            found = getattr(found, self._attr)
        if self._into.get(self._name) is self:
            self._into[self._name] = found  # the real thing from now on
        return found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._load()(*args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        return f"<{self._module}{'.' + self._attr if self._attr else ''}, not imported yet>"


def lazy(module: str, attr: str | None, into: dict[str, Any], name: str | None = None) -> Any:
    """A stand-in for ``module.attr`` (``attr`` None: the module) kept in the namespace
    ``into`` as ``name`` (default ``attr``), imported on its first call or attribute."""
    key = name or attr
    if key is None:
        raise ValueError("a lazy module needs the name it is kept under")
    return _StandIn(module, attr, into, key)


__all__ = ["lazy"]
