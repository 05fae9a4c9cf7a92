"""Foreign keys declared (migration m190), and the keys an older campaign could not take.

The campaign's tables always pointed at each other (a voyage names its ship, an hour its
voyage and the action that logged it); m190 declares those links as SQLite foreign keys, so
SQLite refuses a row that points nowhere and Datasette (``voyage browse``) links the rows.

- Every key is ``DEFERRABLE INITIALLY DEFERRED``: SQLite checks it when the transaction
  commits, not after each statement. An action or an undo may pass through states where a
  row points nowhere (the undo journal puts rows back newest first, one statement each; the
  water phase rewrites the floaters table whole) as long as the campaign is whole when the
  action ends. No key has an ON DELETE action: a cascade would change rows the journal does
  not know of.
- SQLite cannot add a key to a table in place: each child table is rebuilt (SQLite's
  12-step procedure: the same CREATE TABLE text with the keys added, every row copied with
  its rowid, so the undo journal's entries still find their rows, and every value keeps its
  storage type; then its indexes and triggers, and the views, made again).
- The ship columns of people and floaters take ships.name's NOCASE collation
  (a key compares by its parent's collation, and only an index of the same collation finds
  a ship's rows when a ship is deleted).
- An older campaign may hold rows that point at nothing (a voyage whose ship was removed
  before voyage archived ships, log rows of actions an old voyage pruned). The migration
  keeps every row as it is and leaves that one key undeclared; ``voyage doctor`` names the
  keys left undeclared and the rows behind them (:func:`undeclared`).
- Only the tables named in :data:`FOREIGN_KEYS` are touched: tables other parts of voyage
  add are left as they are.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from voyage.store.sqlitedb import Database


@dataclass(frozen=True)
class ForeignKey:
    """``child.column`` points at ``parent.key``."""

    child: str
    column: str
    parent: str
    key: str

    @property
    def name(self) -> str:
        return f"{self.child}.{self.column} -> {self.parent}.{self.key}"


def _keys(*specs: str) -> list[ForeignKey]:
    out = []
    for spec in specs:
        child, column, parent, key = re.split(r"[.\s>-]+", spec)
        out.append(ForeignKey(child, column, parent, key))
    return out


#: Every link between the campaign's tables. Not keys, and why: the log tables' ``ship``
#: (hours, events, rolls) is the name the row was written for, as the log keeps it: a log
#: row links its voyage (``voyage_id``), which links the ship, and its action; a ship removed
#: before she sailed leaves her rolls and events (placed, a fight in port) and her name is
#: free again; and the engine's hour and event rows are spared a check each.
#: ``ships.created`` is 0 for
#: a ship made outside an action; ``rolls.ship`` is the name a roll was made for (a ship
#: removed before she sailed leaves her generation rolls, and her name is free again);
#: ``fighters.name`` is a ship or a leviathan; hex, region and port columns name places on
#: the map text, not rows.
FOREIGN_KEYS: list[ForeignKey] = _keys(
    "voyages.ship -> ships.name",
    "hour_days.action_id -> actions.id",
    "hour_days.voyage_id -> voyages.id",
    "events.action_id -> actions.id",
    "events.voyage_id -> voyages.id",
    "rolls.action_id -> actions.id",
    "storms.action_id -> actions.id",
    "sea_map.action_id -> actions.id",
    "people.ship -> ships.name",
    "floaters.voyage_id -> voyages.id",
    "floaters.raft -> floaters.id",
    "fighters.fight -> fights.id",
    "undo_journal.action_id -> actions.id",
)

#: Parent keys compared without regard to case (ships.name is COLLATE NOCASE).
NOCASE_PARENTS = {("ships", "name")}
_NEW = "_voyage_fk_new_"


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM main.sqlite_master WHERE type='table'")}


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, str, int]]:
    """(name, declared type, pk) of each column."""
    return [(r[1], r[2], r[5]) for r in conn.execute(f"PRAGMA main.table_info({_q(table)})")]


def declared(conn: sqlite3.Connection, fk: ForeignKey) -> bool:
    """Whether the campaign declares this key."""
    return any(
        r[2] == fk.parent and r[3] == fk.column and r[4] == fk.key
        for r in conn.execute(f"PRAGMA main.foreign_key_list({_q(fk.child)})")
    )


def orphans(conn: sqlite3.Connection, fk: ForeignKey) -> int:
    """How many rows of ``fk.child`` point at a ``fk.parent`` row that is not there
    (compared as SQLite compares the key: by the parent column's collation)."""
    child, col, parent, key = (_q(n) for n in (fk.child, fk.column, fk.parent, fk.key))
    # the parent column on the left: its collation decides the comparison
    return int(
        conn.execute(
            f"SELECT count(*) FROM main.{child} AS c WHERE c.{col} IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM main.{parent} AS p WHERE p.{key} = c.{col})"
        ).fetchone()[0]
    )


def applicable(conn: sqlite3.Connection) -> list[ForeignKey]:
    """The keys whose tables and columns this campaign has."""
    tables = _tables(conn)
    named = {fk.child for fk in FOREIGN_KEYS} | {fk.parent for fk in FOREIGN_KEYS}
    columns = {t: {c[0] for c in _columns(conn, t)} for t in named & tables}
    return [
        fk
        for fk in FOREIGN_KEYS
        if fk.column in columns.get(fk.child, ()) and fk.key in columns.get(fk.parent, ())
    ]


def undeclared(conn: sqlite3.Connection) -> list[tuple[ForeignKey, int]]:
    """The keys m190 left undeclared in this campaign, with the rows pointing nowhere now."""
    return [(fk, orphans(conn, fk)) for fk in applicable(conn) if not declared(conn, fk)]


# -- the rebuild -------------------------------------------------------------------------


def _with_keys(sql: str, table: str, keys: list[ForeignKey]) -> str:
    """The table's CREATE TABLE text under the temporary name, with the keys added."""
    head = re.match(r"\s*CREATE\s+TABLE\s+(\"(?:[^\"]|\"\")+\"|\[[^\]]+\]|`[^`]+`|\w+)", sql, re.I)
    if head is None:
        raise sqlite3.DatabaseError(f"cannot read the definition of table {table}")
    body = sql[head.end() :]
    for fk in keys:
        if (fk.parent, fk.key) in NOCASE_PARENTS:
            # the column compares as its parent does (its index then serves the key)
            column = re.escape(fk.column)
            line = re.compile(rf"(^[ \t]*{column}[ \t]+TEXT\b[^,\n]*?)([ \t]*,)", re.M)
            found = line.search(body)
            if found and "COLLATE" not in found.group(1).upper():
                body = body[: found.end(1)] + " COLLATE NOCASE" + body[found.end(1) :]
    # m075's note on fighters.fight, from before the keys
    body = body.replace("(no REFERENCES: undo restores table by table)", "(key declared by m190)")
    close = body.rstrip().rfind(")")
    clauses = "".join(
        f",\n            FOREIGN KEY ({_q(fk.column)}) REFERENCES {_q(fk.parent)} ({_q(fk.key)}) "
        "DEFERRABLE INITIALLY DEFERRED"
        for fk in keys
    )
    return f"CREATE TABLE {_q(_NEW + table)}{body[:close]}{clauses}\n        {body[close:]}"


def _rebuild(conn: sqlite3.Connection, table: str, keys: list[ForeignKey]) -> None:
    """SQLite's 12-step table rebuild (the caller has turned foreign keys off and holds the
    transaction): same rows, same rowids, same values, then the keys."""
    sql = conn.execute(
        "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", [table]
    ).fetchone()[0]
    others = conn.execute(
        "SELECT sql FROM main.sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') "
        "AND sql IS NOT NULL ORDER BY type, name",
        [table],
    ).fetchall()
    if not conn.execute(f"SELECT 1 FROM main.{_q(table)} LIMIT 1").fetchone():
        # empty (a new campaign): made again under its own name, no copy, no rename (a
        # rename reloads the whole schema: ten of them doubled the time `voyage init` took)
        conn.execute(f"DROP TABLE main.{_q(table)}")
        conn.execute(_with_keys(sql, table, keys).replace(_q(_NEW + table), _q(table), 1))
        for (statement,) in others:
            conn.execute(statement)
        return
    conn.execute(_with_keys(sql, table, keys))
    cols = _columns(conn, table)
    pks = [c for c in cols if c[2]]
    aliased = len(pks) == 1 and pks[0][1].upper() == "INTEGER"  # the rowid under a name
    names = ", ".join((["rowid"] if not aliased else []) + [_q(c[0]) for c in cols])
    conn.execute(
        f"INSERT INTO main.{_q(_NEW + table)} ({names}) SELECT {names} FROM main.{_q(table)}"
    )
    conn.execute(f"DROP TABLE main.{_q(table)}")
    conn.execute(f"ALTER TABLE main.{_q(_NEW + table)} RENAME TO {_q(table)}")
    for (statement,) in others:
        conn.execute(statement)


def _index_child_columns(conn: sqlite3.Connection, keys: list[ForeignKey]) -> None:
    """An index led by each key's column (in its parent's collation), so deleting a parent
    row finds its children without reading the whole child table."""
    for fk in keys:
        coll = "NOCASE" if (fk.parent, fk.key) in NOCASE_PARENTS else "BINARY"
        led = False
        for index in conn.execute(f"PRAGMA main.index_list({_q(fk.child)})").fetchall():
            first = conn.execute(f"PRAGMA main.index_xinfo({_q(index[1])})").fetchone()
            if first and first[2] == fk.column and str(first[4]).upper() == coll:
                led = True
        if not led:
            name = f"{fk.child}_{fk.column}"
            if conn.execute("SELECT 1 FROM main.sqlite_master WHERE name = ?", [name]).fetchone():
                name += "_key"  # the plain name is taken by an index led by something else
            conn.execute(f"CREATE INDEX {_q(name)} ON {_q(fk.child)} ({_q(fk.column)})")


def _wanted(conn: sqlite3.Connection) -> dict[str, list[ForeignKey]]:
    """The keys to declare now, by table: not declared yet, and no row pointing nowhere."""
    wanted: dict[str, list[ForeignKey]] = {}
    for fk in applicable(conn):
        if not declared(conn, fk) and orphans(conn, fk) == 0:
            wanted.setdefault(fk.child, []).append(fk)
    return wanted


def declare_foreign_keys(conn: sqlite3.Connection) -> dict[str, list[ForeignKey]]:
    """Declare every key of :data:`FOREIGN_KEYS` this campaign can hold, in one transaction;
    a key whose rows point at missing parents is left undeclared, the rows kept. Returns
    the keys declared, by table. Safe to run again (a key declared is left as it is)."""
    if not any(not declared(conn, fk) for fk in applicable(conn)):
        return {}
    if conn.in_transaction:
        raise sqlite3.OperationalError("foreign keys are declared outside a transaction")
    # PRAGMA foreign_keys takes effect only outside a transaction; with it off, dropping the
    # old tables deletes no child rows and checks nothing; the legacy rename leaves every
    # other table's REFERENCES and every view as they are written.
    was_on = conn.execute("PRAGMA foreign_keys").fetchone()[0]
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("PRAGMA legacy_alter_table = ON")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            wanted = _wanted(conn)  # read inside the transaction: no row moves meanwhile
            views = conn.execute(
                "SELECT name, sql FROM main.sqlite_master WHERE type = 'view' ORDER BY rowid"
            ).fetchall()
            # a view's triggers (the INSTEAD OF triggers of hours, m102) go with it
            on_views = conn.execute(
                "SELECT t.sql FROM main.sqlite_master AS t JOIN main.sqlite_master AS v "
                "ON v.type = 'view' AND v.name = t.tbl_name WHERE t.type = 'trigger' "
                "ORDER BY t.rowid"
            ).fetchall()
            for name, _ in views:
                conn.execute(f"DROP VIEW main.{_q(name)}")
            for table, keys in wanted.items():
                _rebuild(conn, table, keys)
            for _, sql in views:
                conn.execute(sql)
            for (sql,) in on_views:
                conn.execute(sql)
            _index_child_columns(conn, [fk for keys in wanted.values() for fk in keys])
            # only the tables rebuilt here: what other tables hold is not this step's business
            broken = [
                r for t in wanted for r in conn.execute(f"PRAGMA main.foreign_key_check({_q(t)})")
            ]
            if broken:
                raise sqlite3.IntegrityError(f"rows point nowhere after the rebuild: {broken[:3]}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.execute("PRAGMA legacy_alter_table = OFF")
        conn.execute(f"PRAGMA foreign_keys = {'ON' if was_on else 'OFF'}")
    return wanted


def m190_foreign_keys(db: Database) -> None:
    # The links between tables declared as foreign keys (see the module's docstring). Run
    # outside sqlite-utils' transaction (voyage.store.migrations.OUTSIDE_TRANSACTION):
    # foreign keys can only be turned off outside one; declare_foreign_keys holds its own,
    # and a second run does nothing.
    declare_foreign_keys(db.conn)
