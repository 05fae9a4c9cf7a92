"""How a voyage is named to people.

Voyage ids count across the whole campaign (the Eel's second voyage may be voyage 3), and
an id is what a command takes (``voyage export Eel --voyage 3``, ``voyage log --voyage 3``,
the CSV's ``voyage`` column, the files ``eel-voyage-3.md``). Wherever a voyage is named to
people (an export's title, the track picture's title and legend, what ``sail`` and
``export`` say) the id stays, and the ship's own count follows it when the two differ:
``voyage 3 (her 2nd)``, ``voyage 3 of Eel (her 2nd)``; ``voyage 1`` when they agree.
"""

from __future__ import annotations


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def her_count(voyage_id: int, nth: int | None) -> str:
    """`` (her 2nd)`` when the ship's own count ``nth`` differs from the campaign's id."""
    return f" (her {ordinal(nth)})" if nth and nth != voyage_id else ""


def voyage_name(voyage_id: int, nth: int | None) -> str:
    """``voyage 3 (her 2nd)``, or ``voyage 1`` when her count is the id too."""
    return f"voyage {voyage_id}{her_count(voyage_id, nth)}"


def ship_voyage_name(ship: str, voyage_id: int, nth: int | None) -> str:
    """``voyage 3 of Eel (her 2nd)``: a picture's legend."""
    return f"voyage {voyage_id} of {ship}{her_count(voyage_id, nth)}"
