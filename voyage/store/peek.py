"""Names and the map looked up in a campaign file without opening it as a campaign, for
shell completion (voyage.cli.completion): read-only (``mode=ro``: a lookup never makes or
changes a file), without sqlite-utils (a Tab must answer fast), and answering nothing rather
than failing (a half-typed command line must never print an error).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def _column(path: Path, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    """The first column of ``sql``'s rows in the file at ``path``; [] if it cannot say."""
    if not path.is_file():
        return []
    try:
        with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as conn:
            return [row[0] for row in conn.execute(sql, args)]
    except sqlite3.Error:
        return []


def ship_names(path: Path) -> list[Any]:
    """The ships not archived, by name (every ship, in a file from before archiving)."""
    return _column(path, "SELECT name FROM ships WHERE NOT archived ORDER BY name") or _column(
        path, "SELECT name FROM ships ORDER BY name"
    )


def people_names(path: Path) -> list[Any]:
    """The named people on the roster (R70), by name."""
    return _column(path, "SELECT name FROM people ORDER BY name")


def afloat_names(path: Path) -> list[Any]:
    """Named people and rafts still afloat (R74), in the order they went into the water."""
    return _column(
        path, "SELECT name FROM floaters WHERE state = 'afloat' AND name IS NOT NULL ORDER BY id"
    )


def map_text(path: Path) -> str | None:
    """The stored map's text, or None."""
    texts = _column(path, "SELECT text FROM sea_map WHERE id = 1")
    return texts[0] if texts else None


def map_cache_blob(path: Path, key: str, fmt: int) -> bytes | None:
    """The parsed-map cache's row for the map text hashed ``key`` in format ``fmt``
    (voyage.store.mapcache), or None."""
    blobs = _column(path, "SELECT blob FROM map_cache WHERE hash = ? AND format = ?", (key, fmt))
    return blobs[0] if blobs else None
