"""The ``people`` and ``floaters`` tables (R70-R74): the roster of named people, and every
raft and group of people off a ship, read and written inside the caller's action
(voyage.actions.people changes them; voyage.world.water is what the rows mean)."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from voyage.base.errors import VoyageRuleError
from voyage.world.water import AFLOAT, FLOATER_FIELDS, Floater

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign


# -- the roster (R70) -----------------------------------------------------------------------


def roster(camp: Campaign, ship: str | None = None) -> list[dict[str, Any]]:
    """Named people, in the order they were added (optionally only those aboard ``ship``)."""
    if "people" not in camp.db.table_names():
        return []
    if ship is None:
        rows = camp.db.query("SELECT * FROM people ORDER BY id")
    else:
        rows = camp.db.query("SELECT * FROM people WHERE ship = ? ORDER BY id", [ship])
    return [dict(r) for r in rows]


def person(camp: Campaign, name: str) -> dict[str, Any]:
    """A named person (case does not matter), or a one-line error naming the roster."""
    rows = list(camp.db.query("SELECT * FROM people WHERE name = ? COLLATE NOCASE", [name]))
    if not rows:
        known = [r["name"] for r in roster(camp)][:8]
        hint = f" (roster: {', '.join(known)})" if known else " (the roster is empty)"
        raise VoyageRuleError(f"no person named {name!r} in this campaign{hint}")
    return dict(rows[0])


def on_roster(camp: Campaign, name: str) -> bool:
    """Whether someone named ``name`` (case does not matter) is on the roster."""
    rows = camp.db.query("SELECT id FROM people WHERE name = ? COLLATE NOCASE", [name])
    return bool(list(rows))


def named_count(camp: Campaign, ship: str, role: str) -> int:
    """How many of the people aboard ``ship`` in ``role`` are named."""
    row = camp.db.execute(
        "SELECT COUNT(*) FROM people WHERE ship = ? AND role = ?", [ship, role]
    ).fetchone()
    return int(row[0])


def insert_person(
    camp: Campaign, name: str, ship: str, role: str, swimming: int, jacket: bool
) -> None:
    """Put a named person on the roster, aboard ``ship``."""
    camp.db.execute(
        "INSERT INTO people (name, ship, role, swimming, jacket) VALUES (?, ?, ?, ?, ?)",
        [name, ship, role, swimming, int(jacket)],
    )


def set_person_ship(camp: Campaign, person_id: int, ship: str) -> None:
    """The named person ``person_id`` is aboard ``ship`` now."""
    camp.db.execute("UPDATE people SET ship = ? WHERE id = ?", [ship, person_id])


def delete_person(camp: Campaign, person_id: int) -> None:
    """Take the named person ``person_id`` off the roster."""
    camp.db.execute("DELETE FROM people WHERE id = ?", [person_id])


# -- floaters ---------------------------------------------------------------------------------


#: The stored columns of a floater, in Floater's field order, then the hour its present
#: swim is counted from (m140).
_COLUMNS = (*FLOATER_FIELDS, "swim_since")
_SWUM = FLOATER_FIELDS.index("hours_swum")
_FLAGS = tuple(FLOATER_FIELDS.index(k) for k in ("jacket", "capsized", "radio"))


def floaters(camp: Campaign) -> list[Floater]:
    """Every raft and group of people off a ship, afloat or not, in order, with their hours
    swum at the campaign clock (R72: those in the water count the hours since their
    ``swim_since``, m140)."""
    if "floaters" not in camp.db.table_names():
        return []
    clock = camp.clock
    out = []
    rows = camp.db.conn.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM floaters ORDER BY id"  # noqa: S608 (fixed)
    ).fetchall()
    _keep_stored(camp, {row[0]: row for row in rows})
    for row in rows:
        values = list(row[:-1])
        for i in _FLAGS:
            values[i] = bool(values[i])
        if row[-1] is not None:
            values[_SWUM] += clock - row[-1]
        out.append(Floater(*values))
    return out


def _stored(
    hours: int, values: tuple[Any, ...], old: tuple[Any, ...] | None, clock: int
) -> tuple[Any, ...]:
    """The stored row (:data:`_COLUMNS`) of a floater in the water at ``clock`` with
    ``hours`` swum: it keeps the ``swim_since`` it had (their hours swum grow with the clock,
    so a quiet hour changes nothing), or counts from now; ``hours_swum`` keeps the rest."""
    since = old[-1] if old is not None else None
    if since is None:
        since = clock
    elif hours < clock - since:
        since = clock - hours
    return (*values[:_SWUM], hours - (clock - since), *values[_SWUM + 1 :], since)


_STORED = ("floaters", "stored")


def _version(camp: Campaign) -> tuple[int, int]:
    """What changes whenever the file may have changed: this connection's writes and other
    connections' commits (SQLite's ``data_version``)."""
    conn = camp.db.conn
    return conn.total_changes, int(conn.execute("PRAGMA data_version").fetchone()[0])


def _keep_stored(camp: Campaign, rows: dict[int, tuple[Any, ...]]) -> None:
    """Keep the stored rows just read or written (the campaign's cache, dropped on rollback
    and undo), for :func:`save_floaters` to compare against if nothing wrote in between."""
    camp.cache[_STORED] = (_version(camp), rows)


def _stored_rows(camp: Campaign) -> dict[int, tuple[Any, ...]] | None:
    """The stored rows kept by :func:`_keep_stored`, if the file is as it was then."""
    kept = camp.cache.pop(_STORED, None)
    if kept is None or kept[0] != _version(camp):
        return None
    rows: dict[int, tuple[Any, ...]] = kept[1]
    return rows


def _ints(values: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(int(v) if type(v) is bool else v for v in values)


def save_floaters(
    camp: Campaign, rows: list[Floater], people: list[dict[str, Any]], clock: int | None = None
) -> None:
    """Write the floaters and the roster back (inside the caller's action), as they stand
    at ``clock`` (the campaign clock unless given: an advance gives the hour it ends at).
    Only the rows that changed are written (the undo journal keeps the old value of each
    changed column only), and an hour in the water changes nobody's row: their hours swum
    are counted from ``swim_since`` (m140, R72)."""
    clock = camp.clock if clock is None else clock
    cols = _COLUMNS
    listed = ", ".join(cols)
    before = _stored_rows(camp)
    if before is None:  # not read since the last write: read them now
        before = {
            r[0]: tuple(r)
            for r in camp.db.conn.execute(f"SELECT {listed} FROM floaters")  # noqa: S608
        }
    stored: dict[int, tuple[Any, ...]] = {}
    capsized = {f.id for f in rows if f.kind == "raft" and f.capsized and f.state == AFLOAT}
    new: list[tuple[Any, ...]] = []
    # the rows changed, by which columns changed (an hour afloat changes one or two)
    changed: dict[tuple[int, ...], list[tuple[Any, ...]]] = {}
    values_of = attrgetter(*FLOATER_FIELDS)  # flags stay bools here: True == 1 compares
    for f in rows:
        old = before.pop(f.id, None)
        if f.kind == "people" and f.state == AFLOAT and (f.raft is None or f.raft in capsized):
            values = _stored(f.hours_swum, values_of(f), old, clock)  # in the water (R72)
        else:
            values = (*values_of(f), None)
        if old is None:
            new.append(stored.setdefault(f.id, _ints(values)))
        elif old != values:
            which = tuple(i for i in range(1, len(cols)) if old[i] != values[i])
            changed.setdefault(which, []).append(_ints(tuple(values[i] for i in which)) + (f.id,))
            stored[f.id] = _ints(values)
        else:
            stored[f.id] = old
    if before:
        camp.db.conn.executemany("DELETE FROM floaters WHERE id = ?", [[k] for k in before])
    for which, params in changed.items():
        sets = ", ".join(f"{cols[i]} = ?" for i in which)
        camp.db.conn.executemany(
            f"UPDATE floaters SET {sets} WHERE id = ?",
            params,  # noqa: S608 (fixed columns)
        )
    if new:
        camp.db.conn.executemany(
            f"INSERT INTO floaters ({listed}) VALUES ({', '.join('?' for _ in cols)})", new
        )
    for p in people:
        camp.db.execute(
            "UPDATE people SET ship = ?, role = ? WHERE id = ?", [p["ship"], p["role"], p["id"]]
        )
    _keep_stored(camp, stored)  # what the table holds now
