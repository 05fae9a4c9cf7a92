"""Migrations m071 and m140 (people in the water, issue 9) and m080 (built boats, issue 11),
registered on voyage.store.campaign's Migrations right after store's own (imported at the end of
voyage/store.py, before the fight tables), so they run in the order they always did."""

from __future__ import annotations

from voyage.store.campaign import migrations
from voyage.store.sqlitedb import Database


# -- people in the water (issue 9: m070-m074; m070 went to the map cache) ----------
@migrations()
def m071_people(db: Database) -> None:
    # R70: the optional roster of named people (voyage.actions.people); ``ship`` is where they are
    # aboard, NULL once they have left her (their floater row says where they are then).
    db.execute(
        """CREATE TABLE people (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            ship TEXT,
            role TEXT NOT NULL DEFAULT 'crew',
            swimming INTEGER NOT NULL DEFAULT 1,
            jacket INTEGER NOT NULL DEFAULT 0
        )"""
    )
    # R71-R74: rafts and people off a ship ("floaters"): a raft, or a group of like people
    # (one row per named person), with a hex, where they are (a raft's id, or in the water),
    # their state (afloat, drowned, lost with the ship, rescued, ashore) and the clocks the
    # rules keep: hours swum (R72), the drift carried (R64), hours in the same hex (R73).
    db.execute(
        """CREATE TABLE floaters (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            ship TEXT NOT NULL,
            voyage_id INTEGER,
            name TEXT,
            role TEXT NOT NULL DEFAULT 'crew',
            count INTEGER NOT NULL DEFAULT 1,
            swimming INTEGER NOT NULL DEFAULT 0,
            jacket INTEGER NOT NULL DEFAULT 0,
            raft INTEGER,
            hex TEXT,
            state TEXT NOT NULL DEFAULT 'afloat',
            hours_swum INTEGER NOT NULL DEFAULT 0,
            carry TEXT NOT NULL DEFAULT '0',
            hours_in_hex INTEGER NOT NULL DEFAULT 0,
            capsized INTEGER NOT NULL DEFAULT 0,
            radio INTEGER NOT NULL DEFAULT 1,
            since INTEGER NOT NULL DEFAULT 0,
            ended INTEGER,
            note TEXT NOT NULL DEFAULT ''
        )"""
    )


# -- built boats (issue 11: m080-m089) ----------------------------------------------------
@migrations()
def m080_boat_designs(db: Database) -> None:
    # R80: a built boat is a ship (class "built", R81's Tier) whose design spec is kept as
    # JSON (voyage.tables.boatdesigns); NULL for rolled ships. voyage.actions.doctor checks it
    # parses.
    db.execute("ALTER TABLE ships ADD COLUMN design TEXT")


# -- people in the water, again (issue 9: m140-m149) -------------------------------------
@migrations()
def m140_swim_since(db: Database) -> None:
    # R72 (issue 9, a quiet hour writes nothing): the hour a group's present swim is counted
    # from, NULL while they are not in the water; ``hours_swum`` then keeps the hours swum
    # before it. Hours swum at the campaign clock = hours_swum + (clock - swim_since)
    # (voyage.actions.people.floaters / save_floaters), so an hour in the water changes no row.
    db.execute("ALTER TABLE floaters ADD COLUMN swim_since INTEGER")
