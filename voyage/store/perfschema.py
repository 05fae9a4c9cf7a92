"""Storage that stays flat as a campaign grows (issue 14.5, 14): migrations m100-m109,
registered on voyage.store.campaign's Migrations (imported at the end of voyage/store.py).

A voyage's route and its inshore flags are the biggest values a voyage has (a year-long
route is tens of KB) and never change while she sails on, but the voyage row around them
changes every hour (position, miles, the engine's state). SQLite rewrites a whole row,
overflow pages and all, when any of its values changes size, so every advance rewrote every
long route into the WAL (about 1 MB per one-hour advance of ten ships on long voyages). The
route and the flags live in ``voyage_routes``, one row per voyage, written when the voyage
opens and when a new course changes them (voyage.actions.voyages.save_state), read with the voyage
(:data:`VOYAGE_SELECT`). Since m106 they are plain text, not JSON (voyage.map.routetext).
"""

from __future__ import annotations

from voyage.map.routetext import inshore_from_json, route_from_json
from voyage.store.campaign import migrations
from voyage.store.sqlitedb import Database

#: Every column of a voyage, its route and inshore flags included: what readers select
#: (``FROM voyages v`` joined to its route; add ``WHERE``/``ORDER BY`` on ``v.``).
VOYAGE_SELECT = (
    "SELECT v.*, r.route AS route, r.inshore AS inshore FROM voyages v "
    "JOIN voyage_routes r ON r.voyage_id = v.id"
)


@migrations()
def m100_voyage_routes(db: Database) -> None:
    # The route and inshore flags move out of the voyage row into their own row, so that the
    # hourly updates of a voyage no longer rewrite them (issue 14.5: bytes per action flat).
    # The foreign key is deferred: an undo of an action made before the journal (m030)
    # restores its snapshot table by table (voyage.store.undojournal.restore_snapshot).
    db.execute(
        """CREATE TABLE voyage_routes (
            voyage_id INTEGER PRIMARY KEY
                REFERENCES voyages(id) DEFERRABLE INITIALLY DEFERRED,
            route TEXT NOT NULL,
            inshore TEXT NOT NULL DEFAULT '[]'
        )"""
    )
    db.execute(
        "INSERT INTO voyage_routes (voyage_id, route, inshore) "
        "SELECT id, route, inshore FROM voyages ORDER BY id"
    )
    db.execute("ALTER TABLE voyages DROP COLUMN route")
    db.execute("ALTER TABLE voyages DROP COLUMN inshore")


@migrations()
def m101_dice_key(db: Database) -> None:
    # The dice state in two columns (voyage.dice.roller.Roller.split_state): rng_words, the
    # Mersenne Twister's key, changes once every 624 draws; rng_state keeps the rest. NULL
    # here means rng_state still holds a whole state (a campaign not yet played on).
    db.execute("ALTER TABLE campaign ADD COLUMN rng_words TEXT")


@migrations()
def m106_route_text(db: Database) -> None:
    # A route as its hex names separated by spaces and the inshore flags as one 0/1 per hex
    # (voyage.map.routetext), no longer JSON: decoding the JSON of every long voyage was most
    # of what a command spent outside the engine (issue 14: a year of daily advances). The
    # table is made again for inshore's default ('' now, '[]' was JSON). The undo journal's
    # old values of these columns are converted too, so an action made before this step
    # still undoes exactly (to the new spelling of the same route).
    db.execute(
        """CREATE TABLE voyage_routes_m106 (
            voyage_id INTEGER PRIMARY KEY
                REFERENCES voyages(id) DEFERRABLE INITIALLY DEFERRED,
            route TEXT NOT NULL,
            inshore TEXT NOT NULL DEFAULT ''
        )"""
    )
    rows = db.execute("SELECT voyage_id, route, inshore FROM voyage_routes ORDER BY voyage_id")
    converted = [(vid, route_from_json(r), inshore_from_json(i)) for vid, r, i in rows]
    if converted:  # (no INSERT at all on an empty table: doctor.expected_schema runs this
        # step on an empty database where m190 must find no transaction open)
        db.conn.executemany(
            "INSERT INTO voyage_routes_m106 (voyage_id, route, inshore) VALUES (?, ?, ?)",
            converted,
        )
    db.execute("DROP TABLE voyage_routes")
    db.execute("ALTER TABLE voyage_routes_m106 RENAME TO voyage_routes")
    if db["undo_journal"].exists():
        convert = {"route": route_from_json, "inshore": inshore_from_json}
        old = db.execute(
            "SELECT id, col, value FROM undo_journal WHERE tbl = 'voyage_routes' "
            "AND col IN ('route', 'inshore')"
        ).fetchall()
        if old:
            db.conn.executemany(
                "UPDATE undo_journal SET value = ? WHERE id = ?",
                [(convert[col](value), jid) for jid, col, value in old],
            )
