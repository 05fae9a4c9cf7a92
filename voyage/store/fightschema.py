"""The tables of fights (issue 12, R94): migrations m075-m079, registered on
voyage.store.campaign's Migrations (imported at the end of voyage/store.py, so store.py stays
small)."""

from __future__ import annotations

from voyage.store.campaign import SNAPSHOT_TABLES, migrations
from voyage.store.sqlitedb import Database

SNAPSHOT_TABLES.extend(["fights", "fighters"])  # an undo restores the fights too


@migrations()
def m075_fights(db: Database) -> None:
    # A fight between ships (voyage.actions.fight, R94): its hex, hour, round, range and the order
    # of
    # the round (R90, JSON); each side (ship or leviathan) with its speed, declared movement,
    # whether its crew are off balance (R51) and the damage so far (JSON). SNAPSHOT_TABLES.
    db.execute(
        """CREATE TABLE fights (
            id INTEGER PRIMARY KEY,
            clock INTEGER NOT NULL,
            hex TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            range_yards INTEGER,
            status TEXT NOT NULL DEFAULT 'open',
            turn_order TEXT NOT NULL DEFAULT '[]'
        )"""
    )
    db.execute(
        """CREATE TABLE fighters (
            fight INTEGER NOT NULL,  -- fights.id (no REFERENCES: undo restores table by table)
            name TEXT NOT NULL COLLATE NOCASE,
            kind TEXT NOT NULL,
            leviathan TEXT,
            tier INTEGER NOT NULL,
            speed INTEGER NOT NULL,
            declared INTEGER NOT NULL,
            off_balance INTEGER NOT NULL DEFAULT 0,
            damage TEXT NOT NULL DEFAULT '[]',
            seat INTEGER NOT NULL,
            PRIMARY KEY (fight, name)
        )"""
    )
