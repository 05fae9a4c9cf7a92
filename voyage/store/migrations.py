"""Every schema step of a campaign file, in one list, applied in order as a campaign opens.

sqlite-utils' ``Migrations("voyage")`` keeps the name of each step a file has taken in its
``_sqlite_migrations`` table and applies the others, in the order of :data:`STEPS`:

- by number, the schema steps (:data:`SCHEMA_STEPS`), each written against the tables the
  steps before it made;
- then the steps that bring an older campaign's rows to what today's code would have written
  (:data:`UPGRADES`), whatever their number: they run today's code, so they need every
  schema step today's code writes, later-numbered ones included.

A step's name is kept by every file that has taken it: a released step is never renamed,
renumbered or changed; a new one is added to its list under a new number. A file from an
older voyage, or one upgraded part of the way, takes the steps it lacks in this order.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from voyage.base.errors import VoyageError
from voyage.map.routetext import inshore_from_json, route_from_json
from voyage.store import foreignkeys, hourdays, oldanchors, undojournal
from voyage.store.housetables import relabel_ships
from voyage.store.sqlitedb import Database, Migrations
from voyage.tables.rulebook import load_rulebook, rulebook_from_texts

Step = Callable[[Database], None]


# -- the campaign, its ships and their rolls, the map and the storms -----------------------
def m001_campaign(db: Database) -> None:
    db.execute(
        """CREATE TABLE campaign (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            seed INTEGER NOT NULL,
            rng_state TEXT NOT NULL,
            clock INTEGER NOT NULL DEFAULT 0,
            tables TEXT,
            created TEXT NOT NULL
        )"""
    )
    db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        """CREATE TABLE actions (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            summary TEXT NOT NULL,
            clock INTEGER NOT NULL,
            at TEXT NOT NULL,
            snapshot TEXT NOT NULL
        )"""
    )


def m002_ships(db: Database) -> None:
    db.execute(
        """CREATE TABLE ships (
            name TEXT PRIMARY KEY COLLATE NOCASE,
            class TEXT NOT NULL,
            tier INTEGER NOT NULL,
            engine_tier INTEGER,
            traits TEXT NOT NULL,
            equipment TEXT NOT NULL,
            crew INTEGER NOT NULL DEFAULT 0,
            passengers INTEGER NOT NULL DEFAULT 0,
            cargo INTEGER NOT NULL DEFAULT 0,
            fuel INTEGER NOT NULL DEFAULT 0,
            water INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'in port',
            hex TEXT,
            engine_broken INTEGER NOT NULL DEFAULT 0,
            pace TEXT NOT NULL DEFAULT 'normal',
            strain INTEGER NOT NULL DEFAULT 0,
            created INTEGER NOT NULL
        )"""
    )
    # Rolls made outside a voyage (ship generation, table rolls): R4, every roll is kept.
    db.execute(
        """CREATE TABLE rolls (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            clock INTEGER NOT NULL,
            ship TEXT,
            label TEXT NOT NULL,
            line TEXT NOT NULL,
            record TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX rolls_action ON rolls(action_id)")


def m010_map(db: Database) -> None:
    # The campaign's sea map (one), kept as the validated YAML text it was loaded from, so
    # it reads back exactly (voyage.store.mapstore); undo restores it (every table is journaled).
    db.execute(
        """CREATE TABLE sea_map (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            name TEXT NOT NULL,
            source TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            text TEXT NOT NULL,
            loaded_clock INTEGER NOT NULL,
            action_id INTEGER NOT NULL
        )"""
    )


def m011_storms(db: Database) -> None:
    # R32: storm-tossed hexes, one row per hex, live for start_hour <= hour < end_hour.
    # ``storm`` groups the hexes placed together; ``source`` is 'referee' for storms set by
    # hand, so generated weather can add rows of the same shape.
    db.execute(
        """CREATE TABLE storms (
            id INTEGER PRIMARY KEY,
            storm INTEGER NOT NULL,
            hex TEXT NOT NULL,
            start_hour INTEGER NOT NULL,
            end_hour INTEGER NOT NULL,
            source TEXT NOT NULL DEFAULT 'referee',
            note TEXT,
            action_id INTEGER NOT NULL
        )"""
    )
    db.execute("CREATE INDEX storms_hours ON storms(start_hour, end_hour)")


# -- voyages, their hours and events; fuel sold in port ------------------------------------
def m020_voyages(db: Database) -> None:
    db.execute(
        """CREATE TABLE voyages (
            id INTEGER PRIMARY KEY,
            ship TEXT NOT NULL COLLATE NOCASE,
            origin TEXT NOT NULL,
            destination TEXT NOT NULL,
            route TEXT NOT NULL,
            position INTEGER NOT NULL DEFAULT 0,
            progress_miles INTEGER NOT NULL DEFAULT 0,
            inshore TEXT NOT NULL DEFAULT '[]',
            pace TEXT NOT NULL DEFAULT 'normal',
            strain INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'under way',
            started INTEGER NOT NULL,
            ended INTEGER,
            state TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    db.execute("CREATE INDEX voyages_ship ON voyages(ship)")
    db.execute(
        """CREATE TABLE hours (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            voyage_id INTEGER,
            ship TEXT NOT NULL,
            clock INTEGER NOT NULL,
            day INTEGER NOT NULL,
            hour INTEGER NOT NULL,
            hex TEXT,
            miles INTEGER NOT NULL,
            speed INTEGER NOT NULL,
            pace TEXT NOT NULL,
            fuel INTEGER NOT NULL,
            load INTEGER NOT NULL,
            load_category TEXT NOT NULL,
            water INTEGER NOT NULL,
            leaks INTEGER NOT NULL,
            status TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX hours_action ON hours(action_id)")
    db.execute("CREATE INDEX hours_ship ON hours(ship, clock)")
    db.execute(
        """CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            action_id INTEGER NOT NULL,
            voyage_id INTEGER,
            ship TEXT,
            clock INTEGER NOT NULL,
            day INTEGER NOT NULL,
            hour INTEGER NOT NULL,
            minute INTEGER NOT NULL DEFAULT 0,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            rolls TEXT NOT NULL DEFAULT '[]',
            changes TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    db.execute("CREATE INDEX events_action ON events(action_id)")
    db.execute("CREATE INDEX events_ship ON events(ship, clock)")


def m021_port_fuel(db: Database) -> None:
    # Fuel sold at each port (a port's stock on the map, less what ships have bought).
    db.execute("CREATE TABLE port_fuel (hex TEXT PRIMARY KEY, sold INTEGER NOT NULL DEFAULT 0)")


# -- undo ----------------------------------------------------------------------------------
def m030_undo_journal(db: Database) -> None:
    # Undo by journal instead of a snapshot of the whole campaign per action. actions.undo
    # says how an action is taken back: 'journal' (undo_journal rows), 'snapshot' (an
    # action made before this migration: its snapshot is still restored), or NULL (pruned
    # by undo_keep: it can no longer be undone). New actions write snapshot = ''.
    undojournal.create_tables(db.conn)


# -- the file itself and the house tables it keeps -----------------------------------------
def m040_file_meta(db: Database) -> None:
    # What the file is and which voyage wrote it (voyage.store.campaignfile): a newer file is
    # refused, an older one upgraded. application_id marks the file as a campaign.
    db.execute("CREATE TABLE voyage_file (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("PRAGMA application_id = 1448691505")  # 0x56594731, "VYG1"


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


# -- weather and the calendar --------------------------------------------------------------
def m050_storm_states(db: Database) -> None:
    # R60: a referee's storm has a sea state (stormy seas unless given) and may move one hex
    # towards ``moving`` (a hex side) every ``every`` hours (R63: placed and moved by hand).
    db.execute("ALTER TABLE storms ADD COLUMN state TEXT NOT NULL DEFAULT 'stormy'")
    db.execute("ALTER TABLE storms ADD COLUMN moving TEXT")
    db.execute("ALTER TABLE storms ADD COLUMN every INTEGER")


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


def m055_calendar(db: Database) -> None:
    # The campaign's calendar (voyage.tables.calendar): a copy of its definition as it was when the
    # campaign was made (so editing tables/calendars.yaml later moves no dates) and the date
    # of day 1. No row: the campaign counts days (Day 3, 14:00).
    db.execute(
        """CREATE TABLE calendar (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            key TEXT NOT NULL,
            definition TEXT NOT NULL,
            year INTEGER NOT NULL,
            month INTEGER NOT NULL,
            day INTEGER NOT NULL
        )"""
    )


# -- the parsed map (derived), people in the water, fights, built boats --------------------
def m070_map_cache(db: Database) -> None:
    # The parsed sea map, keyed by the SHA-256 of sea_map.text (voyage.store.mapcache): a derived
    # cache keyed by hash, so it is safe to leave out of undo (DERIVED_TABLES).
    db.execute(
        """CREATE TABLE map_cache (
            hash TEXT PRIMARY KEY,
            format INTEGER NOT NULL,
            blob BLOB NOT NULL
        )"""
    )


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


def m080_boat_designs(db: Database) -> None:
    # R80: a built boat is a ship (class "built", R81's Tier) whose design spec is kept as
    # JSON (voyage.tables.boatdesigns); NULL for rolled ships; voyage.actions.doctor checks
    # it parses.
    db.execute("ALTER TABLE ships ADD COLUMN design TEXT")


# -- archived ships, and views for reading the campaign in any SQL tool --------------------
def m090_archived_ships(db: Database) -> None:
    # A ship removed with --force after she has sailed stays, archived, so her voyages keep
    # their ship (log and export still reach her); lists hide her unless asked.
    db.execute("ALTER TABLE ships ADD COLUMN archived INTEGER NOT NULL DEFAULT 0")


def m091_event_hex_and_views(db: Database) -> None:
    # An event carries its hex, and two views answer the common questions in
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


# -- storage that stays flat as a campaign grows -------------------------------------------
def m100_voyage_routes(db: Database) -> None:
    # The route and inshore flags move out of the voyage row into their own row, so that the
    # hourly updates of a voyage no longer rewrite them (SQLite rewrites a whole row, overflow
    # pages and all, when any of its values changes size): an advance writes as many bytes
    # whatever the length of the routes.
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


def m101_dice_key(db: Database) -> None:
    # The dice state in two columns (voyage.dice.roller.Roller.split_state): rng_words, the
    # Mersenne Twister's key, changes once every 624 draws; rng_state keeps the rest. NULL
    # here means rng_state still holds a whole state (a campaign not yet played on).
    db.execute("ALTER TABLE campaign ADD COLUMN rng_words TEXT")


# m102: voyage.store.hourdays.m102_hour_days (the hour rows packed a ship-day to a row)


def m106_route_text(db: Database) -> None:
    # A route as its hex names separated by spaces and the inshore flags as one 0/1 per hex
    # (voyage.map.routetext), no longer JSON: decoding the JSON of every long voyage was most
    # of what a command spent outside the engine on a year of daily advances. The
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


# -- built boats' charge, swimmers' hours --------------------------------------------------
def m120_boat_charge(db: Database) -> None:
    # R82: a built boat's charge in power units, exactly (a fraction as text: a 12-mile hex
    # at 30 mph costs 14.4 units); NULL for rolled ships. ships.fuel keeps the whole units.
    db.execute("ALTER TABLE ships ADD COLUMN charge TEXT")
    db.execute(
        "UPDATE ships SET charge = CAST(fuel AS TEXT) WHERE design IS NOT NULL "
        "AND json_extract(design, '$.plant') IS NOT NULL"
    )


# m130: voyage.store.oldanchors.m130_anchored_voyages (ships an older campaign left at anchor),
# applied after every schema step (UPGRADES)


def m140_swim_since(db: Database) -> None:
    # R72 (a quiet hour writes nothing): the hour a group's present swim is counted
    # from, NULL while they are not in the water; ``hours_swum`` then keeps the hours swum
    # before it. Hours swum at the campaign clock = hours_swum + (clock - swim_since)
    # (voyage.actions.people.floaters / save_floaters), so an hour in the water changes no row.
    db.execute("ALTER TABLE floaters ADD COLUMN swim_since INTEGER")


# -- foreign keys and ship class names -----------------------------------------------------
# m190: voyage.store.foreignkeys.m190_foreign_keys (run outside sqlite-utils' transaction)


def m191_class_label(db: Database) -> None:
    # Names explain themselves: beside each ship's class key, the class's name in
    # the campaign's rule book (built-in tables, or the house tables the campaign keeps);
    # written when a ship is made (Campaign.add_ship).
    db.execute("ALTER TABLE ships ADD COLUMN class_label TEXT")
    if not db.execute("SELECT 1 FROM ships LIMIT 1").fetchone():
        return  # a new campaign: no rule book to read
    book = load_rulebook()
    if db["house_tables"].exists():
        texts = {str(r[0]): str(r[1]) for r in db.execute("SELECT name, text FROM house_tables")}
        # a house table that no longer validates keeps the built-in names (doctor names it)
        with contextlib.suppress(VoyageError):
            book = rulebook_from_texts(texts, {n: f"house table {n}.yaml" for n in texts})
    relabel_ships(db, book)


def m200_ship_stores(db: Database) -> None:
    # R100: a ship's food and fresh water in person-days (JSON, fractions as text:
    # voyage.vessels.stores). NULL: untracked, as every ship made before stores were
    # counted, until the referee loads some; such a ship sails exactly as before.
    db.execute("ALTER TABLE ships ADD COLUMN stores TEXT")


def m201_port_stores(db: Database) -> None:
    # R103: the person-days of food and fresh water ships have taken from each port whose
    # stock the map limits (fractions as text), as port_fuel counts its fuel
    db.execute(
        "CREATE TABLE port_stores (hex TEXT PRIMARY KEY, food TEXT NOT NULL DEFAULT '0', "
        "fresh_water TEXT NOT NULL DEFAULT '0')"
    )


def m202_raft_stores(db: Database) -> None:
    # R100-R102: a launched raft's emergency stores (JSON as ships.stores: person-days of
    # food and fresh water, fractions as text, and its people's days without). NULL: a raft
    # off a ship whose stores are not counted, and every group of people.
    db.execute("ALTER TABLE floaters ADD COLUMN stores TEXT")


#: The schema steps, by number.
SCHEMA_STEPS: list[Step] = [
    m001_campaign, m002_ships, m010_map, m011_storms, m020_voyages, m021_port_fuel,
    m030_undo_journal, m040_file_meta, m041_house_tables, m050_storm_states,
    m051_weather_rerolls, m055_calendar, m070_map_cache, m071_people, m075_fights,
    m080_boat_designs, m090_archived_ships, m091_event_hex_and_views, m100_voyage_routes,
    m101_dice_key, hourdays.m102_hour_days, m106_route_text, m120_boat_charge,
    m140_swim_since, foreignkeys.m190_foreign_keys, m191_class_label,
    m200_ship_stores, m201_port_stores, m202_raft_stores,
]  # fmt: skip
#: Steps that settle an older campaign's rows with today's code, after every schema step:
#: m130 opens the voyage `voyage ship place` opens today (voyage.store.voyagerows), which
#: writes the ships, voyages, routes and events as the latest schema has them (m140's
#: swimmers, m190's keys, m191's class names included).
UPGRADES: list[Step] = [oldanchors.m130_anchored_voyages]
#: Every step, in the order applied.
STEPS: list[Step] = [*SCHEMA_STEPS, *UPGRADES]
#: Steps that run outside sqlite-utils' transaction: m190 turns foreign keys off, which
#: SQLite allows only outside one, and holds its own.
OUTSIDE_TRANSACTION: list[Step] = [foreignkeys.m190_foreign_keys]

migrations = Migrations("voyage")
for _step in STEPS:
    migrations(transactional=_step not in OUTSIDE_TRANSACTION)(_step)
