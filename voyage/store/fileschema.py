"""Schema steps of campaign files (issue 13: m040-m049) and of the weather (issue 8:
m050-m054), registered on voyage.store.campaign's Migrations right after store's own (imported at
the
end of voyage.store.campaign, before voyage.store.worldschema: the order the steps have always run
in)."""

from __future__ import annotations

from voyage.store.campaign import migrations
from voyage.store.sqlitedb import Database


# -- campaign files (issue 13: m040-m049) -----------------------------------------------
@migrations()
def m040_file_meta(db: Database) -> None:
    # What the file is and which voyage wrote it (voyage.store.campaignfile): a newer file is
    # refused, an older one upgraded. application_id marks the file as a campaign.
    db.execute("CREATE TABLE voyage_file (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("PRAGMA application_id = 1448691505")  # 0x56594731, "VYG1"


@migrations()
def m041_house_tables(db: Database) -> None:
    # House rules kept in the campaign (voyage.store.housetables): override table name -> the
    # validated YAML text, and the file it was read from. Undoable (journaled).
    db.execute(
        """CREATE TABLE house_tables (
            name TEXT PRIMARY KEY,
            text TEXT NOT NULL,
            source TEXT NOT NULL,
            loaded_clock INTEGER NOT NULL DEFAULT 0
        )"""
    )


# -- weather (issue 8: m050-m054) ---------------------------------------------------------
@migrations()
def m050_storm_states(db: Database) -> None:
    # R60: a referee's storm has a sea state (stormy seas unless given) and may move one hex
    # towards ``moving`` (a hex side) every ``every`` hours (R63: placed and moved by hand).
    db.execute("ALTER TABLE storms ADD COLUMN state TEXT NOT NULL DEFAULT 'stormy'")
    db.execute("ALTER TABLE storms ADD COLUMN moving TEXT")
    db.execute("ALTER TABLE storms ADD COLUMN every INTEGER")


@migrations()
def m051_weather_rerolls(db: Database) -> None:
    # R63: rolled weather is recomputed from its stream; only the referee's rerolls of a
    # region's day are kept (and undone with the action, like every table).
    db.execute(
        """CREATE TABLE weather_rerolls (
            region TEXT NOT NULL,
            day INTEGER NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (region, day)
        )"""
    )
