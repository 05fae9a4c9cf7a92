"""Repairing leaks (R36, R86): a leak goes on, in port as at sea, until it is repaired.

At sea the crew work on one leak at a time (R86): ``repair leak N`` sets them to work on
leak N, and the engine rolls 2d6 every 10 minutes, 8+ stopping it (voyage.rules.leakwork);
``repair leak N --now`` is the referee's call, the leak patched at once. In port a leak is
repaired at once (R86): ``repair leak`` with no number patches every leak. When nothing
else is wrong aboard a ship in port, her voyage ends with the repair.
"""

from __future__ import annotations

from typing import Any

from voyage.base.errors import VoyageRuleError
from voyage.base.text import plural
from voyage.rules.leakwork import _find, start_work


def repair_leak(
    s: Any, ship: Any, number: int | None, now: int | None = None
) -> tuple[str, dict[str, Any]]:
    """Patch leak ``number`` of voyage ``s`` (voyage.engine.clock.ShipState); in port with no
    number, every leak at once (R86); at sea with ``now`` (the campaign minute), the crew
    start work on it instead (R86). Returns the log text and the changes."""
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
        if number is None:
            raise VoyageRuleError(f"say which leak to repair (1-{len(s.leaks)}; {shown})")
        # a number past her leaks names it, rather than offer the range "1-1"
        raise VoyageRuleError(
            f"{ship.name} has no leak {number}: she has {plural(len(s.leaks), 'leak')} "
            f"({shown}); `voyage act {ship.name!r} repair leak N`"
        )
    if now is not None and not (s.status == "arrived" and ship.status == "in port"):
        return start_work(s, ship, number, now)
    work = s.more.get("repair")
    if work and _find(s, work) == number - 1:  # R86: the leak they worked on is patched
        s.more.pop("repair", None)
    gone = s.leaks.pop(number - 1)  # another leak patched by the referee: work goes on
    text = f"Leak {number} of {ship.name} ({gone} hlbs an hour) is patched."
    if s.status == "arrived" and not s.in_trouble:
        text += " Her voyage ends here (R36)."
    return text, {"leaks": list(s.leaks)}
