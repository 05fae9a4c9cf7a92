"""Repairing leaks (R36, R86): a leak goes on, in port as at sea, until it is repaired.

At sea the crew work on one leak at a time and the referee says when it is stopped (the
seed's 2d6 "roll 8+" every 10 minutes is left to the table): ``repair leak N`` patches leak
N. In port a leak is repaired at once (R86): ``repair leak`` with no number patches every
leak. When nothing else is wrong aboard a ship in port, her voyage ends with the repair.
"""

from __future__ import annotations

from typing import Any

from ..errors import VoyageRuleError
from ..report import plural


def repair_leak(s: Any, ship: Any, number: int | None) -> tuple[str, dict[str, Any]]:
    """Patch leak ``number`` of voyage ``s`` (voyage.engine.ShipState); in port with no
    number, every leak at once (R86). Returns the log text and the changes."""
    if not s.leaks:
        raise VoyageRuleError(f"{ship.name} has no leaks")
    if number is None and s.status == "arrived" and ship.status == "in port":
        # R86: in port a leak is repaired at once: all of them, no roll, no time
        count, total = len(s.leaks), sum(s.leaks)
        s.leaks = []
        verb = "is" if count == 1 else "are"
        text = (
            f"In port, {ship.name}'s {plural(count, 'leak')} ({total} hlbs an hour) {verb} "
            "repaired (R86)."
        )
        if not s.in_trouble:
            text += " Her voyage ends here (R36)."
        return text, {"leaks": []}
    if number is None and len(s.leaks) == 1:
        number = 1
    if number is None or not 1 <= number <= len(s.leaks):
        shown = ", ".join(f"{i + 1}: {v} hlbs/hour" for i, v in enumerate(s.leaks))
        raise VoyageRuleError(f"say which leak to repair (1-{len(s.leaks)}; {shown})")
    gone = s.leaks.pop(number - 1)
    text = f"Leak {number} of {ship.name} ({gone} hlbs an hour) is patched."
    if s.status == "arrived" and not s.in_trouble:
        text += " Her voyage ends here (R36)."
    return text, {"leaks": list(s.leaks)}
