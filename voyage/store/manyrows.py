"""Rows inserted many to a statement: an advance's log (a year of ten ships: 32,000 events).

``executemany`` of a one-row INSERT runs the statement once per row, and each run has its
fixed cost in SQLite (its cursors opened and closed, the statement halted and reset) and
in Python's driver (the GIL given up and taken back). :func:`insert_many` gives SQLite
:data:`CHUNK` rows to a run, as one INSERT with that many ``VALUES`` lists, and the rest
one at a time as before: the same rows, in the same order, with the same rowids and values
(SQLite inserts a ``VALUES`` list's rows one after the other, as separate INSERTs would).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any

#: Rows to a statement (12 columns: 768 parameters, far below SQLite's limit of 32,766).
CHUNK = 64

_VALUES = re.compile(r"VALUES\s*(\([?,\s]*\))\s*$")
#: The many-row statement of each one-row INSERT (voyage's own constant SQL).
_MANY: dict[str, str] = {}


def many_sql(sql: str, rows: int = CHUNK) -> str:
    """The INSERT ``sql`` (one ``VALUES`` list of ``?``) with ``rows`` lists."""
    found = _MANY.get(sql) if rows == CHUNK else None
    if found is None:
        match = _VALUES.search(sql)
        if match is None:
            raise ValueError(f"not a one-row INSERT with a VALUES list of ? marks: {sql!r}")
        group = match.group(1)
        found = sql[: match.start(1)] + ", ".join([group] * rows)
        if rows == CHUNK:
            _MANY[sql] = found
    return found


def insert_many(conn: sqlite3.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    """Run the one-row INSERT ``sql`` for each of ``rows`` in order: :data:`CHUNK` rows to
    a statement while there are that many left, then one at a time. The rows are read as
    they are inserted (a generator's are made one chunk at a time, not all kept)."""
    it = iter(rows)
    batch = list(islice(it, CHUNK))
    if len(batch) == CHUNK:

        def chunks() -> Iterator[list[Any]]:
            nonlocal batch
            while len(batch) == CHUNK:
                yield list(chain.from_iterable(batch))
                batch = list(islice(it, CHUNK))

        conn.executemany(many_sql(sql), chunks())
    if batch:
        conn.executemany(sql, batch)
