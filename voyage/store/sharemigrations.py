"""The tables and views of issue 15 (a newcomer's first hour, the players' share):
migrations m090-m099, registered on voyage.store.campaign's Migrations (imported at the end of
voyage/store.py, so store.py stays small)."""

from __future__ import annotations

from voyage.store.campaign import migrations
from voyage.store.sqlitedb import Database


@migrations()
def m090_archived_ships(db: Database) -> None:
    # A ship removed with --force after she has sailed stays, archived, so her voyages keep
    # their ship (log and export still reach her); lists hide her unless asked.
    db.execute("ALTER TABLE ships ADD COLUMN archived INTEGER NOT NULL DEFAULT 0")


@migrations()
def m091_event_hex_and_views(db: Database) -> None:
    # Issue 15: an event carries its hex, and two views answer the common questions in
    # Datasette or any SQL tool: a readable ship's log, and the ships at sea now.
    db.execute("ALTER TABLE events ADD COLUMN hex TEXT")
    db.execute(
        """UPDATE events SET hex = (SELECT h.hex FROM hours h WHERE h.ship = events.ship
           AND h.clock = events.clock ORDER BY h.id DESC LIMIT 1) WHERE hex IS NULL"""
    )
    db.execute(
        """CREATE VIEW ship_log AS SELECT e.id, e.ship, e.voyage_id AS voyage, e.day, e.hour,
           e.minute, e.hex, e.kind, e.text, v.origin, v.destination, v.status AS voyage_status
           FROM events e LEFT JOIN voyages v ON v.id = e.voyage_id"""
    )
    db.execute(
        """CREATE VIEW ships_at_sea AS SELECT v.ship, v.id AS voyage, s.hex, v.origin,
           v.destination, v.status, s.fuel, s.water, s.crew + s.passengers AS people
           FROM voyages v JOIN ships s ON s.name = v.ship WHERE v.ended IS NULL"""
    )
