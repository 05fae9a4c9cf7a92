"""Undo by journal: each action records only what it changed.

SQLite's own undo/redo technique (https://www.sqlite.org/undoredo.html), with old values
instead of inverse SQL text so every value comes back exactly (a REAL keeps all its bits, a
BLOB stays a BLOB):

- TEMP triggers follow EVERY table of the campaign except the journal itself, ``actions``
  and the append-only log tables (whose rows carry ``action_id`` and are deleted by it). A
  table another part of voyage adds later is journaled with no registration. A campaign's
  connection makes a table's triggers just before an action first writes it
  (voyage.store.lazyjournal); :func:`install` makes all of them at once (other connections).
  TEMP triggers live only in that connection: a read-only command never creates them and
  nothing is written to the file.
- The triggers write into ``undo_journal`` only while ``temp.voyage_action`` holds the id
  of the action under way (the store fills it inside the action's transaction), so writes
  outside an action (creating a campaign, migrations) are not journaled.
- An INSERT journals the new row's rowid (op ``I``); an UPDATE journals the old value of
  each column that changed, and only those (op ``U``: a change to a ship's fuel never copies
  the map text or a voyage's route); a DELETE journals the whole old row (op ``D``: a marker
  with ``col`` NULL, then one entry per column).
- :func:`replay` applies an action's entries newest first, which puts every row back as it
  was: same rowid, same values, same storage types.

Limits (checked by :func:`install`): journaled tables must be rowid tables (no WITHOUT
ROWID); virtual tables are skipped. REPLACE conflicts fire the delete trigger because the
store turns ``recursive_triggers`` on.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from voyage.base.errors import CampaignError, VoyageError
from voyage.map.routetext import inshore_from_json, route_from_json

JOURNAL = "undo_journal"
#: The temp table holding the id of the action under way (empty outside actions).
ACTIVE = "voyage_action"
_PREFIX = "voyage_undo_"


def create_tables(conn: sqlite3.Connection) -> None:
    """Migration m030: the journal, and actions.undo."""
    # The default marks the actions already there without rewriting their rows (each holds
    # a snapshot: a campaign played long could have hundreds of MB of them).
    conn.execute("ALTER TABLE actions ADD COLUMN undo TEXT DEFAULT 'snapshot'")
    conn.execute("CREATE INDEX actions_undoable ON actions(id) WHERE undo IS NOT NULL")
    # value has no type, so each old value is kept exactly as it was stored
    conn.execute(
        f"""CREATE TABLE {JOURNAL} (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            tbl TEXT NOT NULL,
            op TEXT NOT NULL,
            rid INTEGER NOT NULL,
            col TEXT,
            value
        )"""
    )
    conn.execute(f"CREATE INDEX undo_journal_action ON {JOURNAL}(action_id)")


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _tables(conn: sqlite3.Connection, skip: Iterable[str]) -> dict[str, list[tuple[Any, ...]]]:
    """Every ordinary table undo must restore via the journal -> its columns (name, type,
    pk), read in one query (this runs on every command that writes)."""
    skipped = {s.lower() for s in skip} | {JOURNAL, "actions", "_sqlite_migrations"}
    rows = conn.execute(
        "SELECT m.name, m.sql, p.name, p.type, p.pk FROM main.sqlite_master AS m "
        "JOIN pragma_table_info(m.name, 'main') AS p WHERE m.type = 'table' "
        "AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.name, p.cid"
    ).fetchall()
    tables: dict[str, list[tuple[Any, ...]]] = {}
    for table, sql, *column in rows:
        head = (sql or "").upper()
        if table.lower() in skipped or head.startswith("CREATE VIRTUAL"):
            continue
        if re.search(r"\)\s*WITHOUT\s+ROWID", head):
            raise CampaignError(
                f"table {table} is WITHOUT ROWID, which the undo journal cannot follow: "
                "make it a rowid table"
            )
        tables.setdefault(table, []).append(tuple(column))
    return tables


def journaled_tables(conn: sqlite3.Connection, skip: Iterable[str]) -> list[str]:
    """Every ordinary table of the campaign that undo must restore via the journal."""
    return list(_tables(conn, skip))


def install(conn: sqlite3.Connection, skip: Iterable[str]) -> None:
    """Create the TEMP journal triggers on this connection (idempotent)."""
    # REPLACE (sqlite-utils' replace=True, INSERT OR REPLACE) deletes the rows it displaces;
    # SQLite fires delete triggers for them only with recursive triggers on.
    conn.execute("PRAGMA recursive_triggers = ON")
    have = {r[0] for r in conn.execute("SELECT name FROM temp.sqlite_master")}
    if not have and not conn.in_transaction:
        # the triggers and the one-row table are small: keep them in memory, not in a
        # temporary file (changing this later would drop every TEMP object; SQLite refuses
        # it within a transaction, as in a migration: voyage.store.oldanchors)
        conn.execute("PRAGMA temp_store = MEMORY")
    wanted = []
    if ACTIVE not in have:
        wanted.append(f"CREATE TEMP TABLE IF NOT EXISTS {ACTIVE} (id INTEGER NOT NULL)")
    for table, info in _tables(conn, skip).items():
        if f"{_PREFIX}{table}_d" in have:
            continue
        wanted.extend(table_triggers(table, info))
    run_together(conn, wanted)


def table_triggers(table: str, info: list[tuple[Any, ...]]) -> list[str]:
    """The triggers of one table from its columns (name, type, pk)."""
    pks = [c for c in info if c[2]]
    # INTEGER PRIMARY KEY: the rowid under another name
    alias = pks[0][0] if len(pks) == 1 and str(pks[0][1]).upper() == "INTEGER" else None
    return trigger_sql(table, [c[0] for c in info], alias)


def run_together(conn: sqlite3.Connection, statements: list[str]) -> None:
    """Run CREATE TRIGGER statements as one schema change (each CREATE alone would reload
    the temp schema), in the caller's transaction if there is one."""
    if not statements:
        return
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    for sql in statements:
        conn.execute(sql)
    if own:
        conn.execute("COMMIT")


def trigger_sql(table: str, columns: list[str], alias: str | None) -> list[str]:
    """The three CREATE TEMP TRIGGER statements for one table.

    Each runs only while an action is under way (``WHEN``). The column entries of one row
    come from one VALUES list (much quicker to compile than a UNION of SELECTs, and this
    runs on every command that writes); what must come first is a statement of its own,
    since a trigger's statements run in order."""
    t, lit = _ident(table), _literal(table)
    cols = [c for c in columns if c != alias]  # the alias moves with the rowid entry
    head = f"INSERT INTO {JOURNAL} (action_id, tbl, op, rid, col, value) "
    action = f"(SELECT id FROM temp.{ACTIVE})"
    when = f"WHEN EXISTS (SELECT 1 FROM temp.{ACTIVE})"

    def trigger(op: str, event: str, body: list[str]) -> str:
        name = _ident(f"{_PREFIX}{table}_{op}")
        return (
            f"CREATE TEMP TRIGGER IF NOT EXISTS {name} AFTER {event} ON main.{t} {when} "
            f"BEGIN {' '.join(s + ';' for s in body)} END"
        )

    insert = trigger("i", "INSERT", [f"{head}VALUES ({action}, {lit}, 'I', new.rowid, NULL, NULL)"])
    # A changed rowid is journaled first, so that replayed backwards it is put back last,
    # after the columns (keyed by the new rowid). Then only the columns whose value or
    # storage type changed, compared as bytes: a NOCASE column changing case counts too.
    update_body = [
        f"{head}SELECT {action}, {lit}, 'U', new.rowid, NULL, old.rowid "
        "WHERE old.rowid IS NOT new.rowid"
    ]
    changed = [
        (
            _literal(c),
            f"old.{_ident(c)}",
            f"old.{_ident(c)} IS NOT new.{_ident(c)} COLLATE BINARY "
            f"OR typeof(old.{_ident(c)}) <> typeof(new.{_ident(c)})",
        )
        for c in cols
    ]
    if changed:
        update_body.append(
            f"{head}SELECT {action}, {lit}, 'U', new.rowid, c, v FROM ({_rows(changed)}) WHERE w"
        )
    # A deleted row: a marker (col NULL) first, then every column.
    delete_body = [f"{head}VALUES ({action}, {lit}, 'D', old.rowid, NULL, NULL)"]
    if cols:
        whole = [(_literal(c), f"old.{_ident(c)}", "1") for c in cols]
        delete_body.append(
            f"{head}SELECT {action}, {lit}, 'D', old.rowid, c, v FROM ({_rows(whole)})"
        )
    return [insert, trigger("u", "UPDATE", update_body), trigger("d", "DELETE", delete_body)]


def _rows(rows: list[tuple[str, str, str]]) -> str:
    """A row source (c, v, w): the first row a SELECT naming the columns (a trigger cannot
    use WITH), the rest one VALUES list."""
    first = "SELECT {} AS c, {} AS v, {} AS w".format(*rows[0])
    rest = ", ".join(f"({c}, {v}, {w})" for c, v, w in rows[1:])
    return f"{first} UNION ALL VALUES {rest}" if rest else first


def begin(conn: sqlite3.Connection, action_id: int) -> None:
    """Journal what follows under ``action_id`` (inside the action's transaction)."""
    conn.execute(f"DELETE FROM temp.{ACTIVE}")
    conn.execute(f"INSERT INTO temp.{ACTIVE} (id) VALUES (?)", [action_id])


def end(conn: sqlite3.Connection) -> None:
    """Stop journaling (the action is over)."""
    conn.execute(f"DELETE FROM temp.{ACTIVE}")


def entries(conn: sqlite3.Connection, action_id: int) -> list[tuple[Any, ...]]:
    """The action's journal, newest first: (tbl, op, rid, col, value)."""
    return conn.execute(
        f"SELECT tbl, op, rid, col, value FROM main.{JOURNAL} WHERE action_id = ? ORDER BY id DESC",
        [action_id],
    ).fetchall()


def replay(conn: sqlite3.Connection, action_id: int) -> None:
    """Put back every row the action changed, newest change first; drop its journal.

    Runs inside the caller's transaction, with no action under way (so nothing is
    journaled while the journal is replayed)."""
    deleted: dict[str, Any] = {}
    for tbl, op, rid, col, value in entries(conn, action_id):
        t = f"main.{_ident(tbl)}"
        if op == "I":
            conn.execute(f"DELETE FROM {t} WHERE rowid = ?", [rid])
        elif op == "U" and col is None:
            conn.execute(f"UPDATE {t} SET rowid = ? WHERE rowid = ?", [value, rid])
        elif op == "U":
            conn.execute(f"UPDATE {t} SET {_ident(col)} = ? WHERE rowid = ?", [value, rid])
        elif op == "D" and col is not None:
            deleted[col] = value  # newest first: the columns come before their marker
        elif op == "D":
            names = ", ".join(["rowid", *(_ident(c) for c in deleted)])
            marks = ", ".join("?" for _ in range(len(deleted) + 1))
            conn.execute(f"INSERT INTO {t} ({names}) VALUES ({marks})", [rid, *deleted.values()])
            deleted = {}
        else:
            raise CampaignError(f"the undo journal has an entry it cannot read ({op!r})")
    conn.execute(f"DELETE FROM main.{JOURNAL} WHERE action_id = ?", [action_id])


def prune(conn: sqlite3.Connection, keep: int) -> None:
    """Forget how to undo actions older than the latest ``keep - 1`` (the action about to
    start makes ``keep``). Cheap: both statements are index ranges over the few actions
    that became too old since the last prune."""
    row = conn.execute(
        "SELECT id FROM actions ORDER BY id DESC LIMIT 1 OFFSET ?", [max(1, keep) - 1]
    ).fetchone()
    if row is None:
        return
    cut = row[0]
    oldest = conn.execute("SELECT min(id) FROM actions WHERE undo IS NOT NULL").fetchone()[0]
    if oldest is None or oldest > cut:
        return
    conn.execute(f"DELETE FROM {JOURNAL} WHERE action_id <= ?", [cut])
    conn.execute(
        "UPDATE actions SET undo = NULL, snapshot = '' WHERE id BETWEEN ? AND ? "
        "AND undo IS NOT NULL",
        [oldest, cut],
    )


def undo_last(
    conn: sqlite3.Connection, log_tables: Iterable[str], keep: Callable[[], int]
) -> dict[str, Any]:
    """Take back the latest action (inside the caller's transaction): delete its rows in
    the log tables, replay its journal (or restore its snapshot, for an action made before
    the journal), forget it. Returns its id, kind, summary, clock and time."""
    cur = conn.execute(
        "SELECT id, kind, summary, clock, at, undo, snapshot FROM actions ORDER BY id DESC LIMIT 1"
    )
    found = cur.fetchone()
    if found is None:
        raise VoyageError("nothing to undo: no action has been taken in this campaign")
    act = dict(zip([d[0] for d in cur.description], found, strict=True))
    if act["undo"] is None:
        raise VoyageError(
            f"cannot undo action {act['id']} ({act['kind']}: {act['summary']}): only the "
            f"latest {keep()} actions are kept for undo "
            "(`voyage settings undo_keep N` keeps more from now on)"
        )
    # The campaign's foreign keys (m190) are checked at COMMIT: the replay goes through
    # states where a row points nowhere (a parent deleted before the child that named it is
    # put back), which is whole again when it ends. Any key declared immediate is deferred
    # too (the pragma ends with the transaction).
    conn.execute("PRAGMA defer_foreign_keys = ON")
    for table in log_tables:
        conn.execute(f"DELETE FROM main.{_ident(table)} WHERE action_id = ?", [act["id"]])
    if act["undo"] == "snapshot":
        restore_snapshot(conn, json.loads(act["snapshot"]))
    else:
        replay(conn, act["id"])
    conn.execute("DELETE FROM actions WHERE id = ?", [act["id"]])
    return {k: act[k] for k in ("id", "kind", "summary", "clock", "at")}


def undo_count_to(conn: sqlite3.Connection, action_id: int) -> int:
    """How many actions ``voyage undo --to action_id`` takes back: every one after it."""
    if conn.execute("SELECT 1 FROM actions WHERE id = ?", [action_id]).fetchone() is None:
        raise VoyageError(
            f"no action #{action_id} in this campaign: `voyage history` lists the actions "
            "and their numbers"
        )
    count = conn.execute("SELECT count(*) FROM actions WHERE id > ?", [action_id]).fetchone()[0]
    if count == 0:
        raise VoyageError(
            f"action #{action_id} is the latest: nothing after it to undo "
            f"(`voyage undo` takes back action #{action_id} itself)"
        )
    return int(count)


def undo_many(
    conn: sqlite3.Connection,
    log_tables: Iterable[str],
    count: int,
    keep: Callable[[], int],
    after: int | None = None,
) -> list[dict[str, Any]]:
    """Take back the latest ``count`` actions (or, given ``after``, every action after that
    one), newest first, inside the caller's transaction: exactly ``count`` calls of
    :func:`undo_last`, so the campaign ends as after that many single undos. Refused
    before anything changes when fewer actions can be undone. Returns what
    :func:`undo_last` returns for each, newest first."""
    if after is not None:
        count = undo_count_to(conn, after)
    if count > 1:
        latest = conn.execute(
            "SELECT undo FROM actions ORDER BY id DESC LIMIT ?", [count]
        ).fetchall()
        undoable = next((i for i, (undo,) in enumerate(latest) if undo is None), len(latest))
        if undoable < count and latest:  # none at all: undo_last says so
            if undoable == len(latest):  # every action there is can be undone
                why = f"the campaign has only {_actions(undoable)}"
            else:
                which = "none" if undoable == 0 else f"only the latest {_actions(undoable)}"
                why = (
                    f"{which} can be undone (setting undo_keep is {keep()}: "
                    "`voyage settings undo_keep N` keeps more from now on)"
                )
            raise VoyageError(f"cannot undo {count} actions: {why}; nothing was undone")
    return [undo_last(conn, log_tables, keep) for _ in range(count)]


def _actions(n: int) -> str:
    return "1 action" if n == 1 else f"{n} actions"


def restore_snapshot(conn: sqlite3.Connection, snapshot: dict[str, list[dict[str, Any]]]) -> None:
    """Undo an action made before the journal (m030): put its tables back whole. A voyage
    row of such a snapshot still holds its route and inshore flags, which live in
    ``voyage_routes`` since m100 (voyage.store.migrations), as text since m106 (the snapshot's
    JSON is converted: voyage.map.routetext)."""

    routes = snapshot.get("voyages")
    if routes is not None and "voyage_routes" not in snapshot:
        snapshot = dict(
            snapshot,
            voyage_routes=[
                {
                    "voyage_id": r["id"],
                    "route": route_from_json(r.get("route", "[]")),
                    "inshore": inshore_from_json(r.get("inshore", "[]")),
                }
                for r in routes
            ],
        )
        snapshot["voyages"] = [
            {k: v for k, v in r.items() if k not in ("route", "inshore")} for r in routes
        ]
    for table, rows in snapshot.items():
        conn.execute(f"DELETE FROM main.{_ident(table)}")
        if rows:
            cols = list(rows[0])
            names = ", ".join(_ident(c) for c in cols)
            marks = ", ".join("?" for _ in cols)
            conn.executemany(
                f"INSERT INTO main.{_ident(table)} ({names}) VALUES ({marks})",
                [[r[c] for c in cols] for r in rows],
            )


def history(conn: sqlite3.Connection, limit: int | None = None) -> list[dict[str, Any]]:
    """The actions taken, newest first: id, kind, summary, clock, at, undoable."""
    sql = "SELECT id, kind, summary, clock, at, undo FROM actions ORDER BY id DESC"
    params: list[Any] = []
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [
        {"id": i, "kind": k, "summary": s, "clock": c, "at": at, "undoable": undo is not None}
        for i, k, s, c, at, undo in conn.execute(sql, params)
    ]


def row_before(
    conn: sqlite3.Connection, table: str, rowid: int, action_id: int
) -> dict[str, Any] | None:
    """The row ``rowid`` of ``table`` as it was before ``action_id`` ran, from the row as it
    is now and the journal of that action and every later one (None: it did not exist, or
    the journal no longer reaches back so far)."""
    undo = conn.execute("SELECT undo FROM actions WHERE id = ?", [action_id]).fetchone()
    if undo is None or undo[0] != "journal":
        return None
    cur = conn.execute(f"SELECT rowid, * FROM main.{_ident(table)} WHERE rowid = ?", [rowid])
    names = [d[0] for d in cur.description][1:]
    found = cur.fetchone()
    row: dict[str, Any] | None = dict(zip(names, found[1:], strict=True)) if found else None
    deleted: dict[str, Any] = {}
    for op, col, value in conn.execute(
        f"SELECT op, col, value FROM main.{JOURNAL} WHERE action_id >= ? AND tbl = ? "
        "AND rid = ? ORDER BY id DESC",
        [action_id, table, rowid],
    ):
        if op == "I":
            row = None
        elif op == "U" and col is not None and row is not None:
            row[col] = value
        elif op == "D" and col is not None:
            deleted[col] = value
        elif op == "D":
            row, deleted = dict(reversed(deleted.items())), {}
    return row
