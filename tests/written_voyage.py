"""A voyage written into a campaign's tables as the engine would write it, without running
the engine: the Sea Witch's ten hours from Gullhaven, three events, for the export tests."""

from __future__ import annotations

import json
from typing import Any

from voyage.dice.roller import Modifier, Roller
from voyage.map.routetext import inshore_from_json, route_from_json
from voyage.store.campaigndb import Campaign

SHIP = "Sea Witch"

# The engine's log tables, exactly as the engine branch describes them. The fixture makes
# them only when the campaign's own migrations have not (before the engine is merged).
ENGINE_TABLES = {
    "voyages": """CREATE TABLE voyages (
        id INTEGER PRIMARY KEY, ship TEXT, origin TEXT, destination TEXT, route TEXT,
        position INTEGER, progress_miles REAL, inshore TEXT, pace TEXT, strain INTEGER,
        status TEXT, started INTEGER, ended INTEGER, state TEXT)""",
    "hours": """CREATE TABLE hours (
        id INTEGER PRIMARY KEY, action_id INTEGER, voyage_id INTEGER, ship TEXT,
        clock INTEGER, day INTEGER, hour INTEGER, hex TEXT, miles REAL, speed INTEGER,
        pace TEXT, fuel INTEGER, load INTEGER, load_category TEXT, water INTEGER,
        leaks INTEGER, status TEXT)""",
    "events": """CREATE TABLE events (
        id INTEGER PRIMARY KEY, action_id INTEGER, voyage_id INTEGER, ship TEXT,
        clock INTEGER, day INTEGER, hour INTEGER, minute INTEGER, kind TEXT, text TEXT,
        rolls TEXT, changes TEXT)""",
}

ROUTE = ["0305", "0405", "0506", "0606", "0707", "0807"]
START_CLOCK = 18  # day 1, 18:00: the voyage runs over midnight into day 2


def _insert(db: Any, table: str, row: dict[str, Any]) -> None:
    """Insert with only the columns the table has (the real tables may have more)."""
    cols = {c.name for c in db[table].columns}
    kept = {k: v for k, v in row.items() if k in cols}
    # plain SQL: hours is a view since m102 (voyage.store.hourdays), written through its triggers
    db.execute(
        f"INSERT INTO [{table}] ({', '.join(kept)}) VALUES ({', '.join('?' * len(kept))})",
        list(kept.values()),
    )


def insert_voyage(db: Any, row: dict[str, Any]) -> None:
    """A voyage row, and its route row where the route has its own table (m100)."""
    _insert(db, "voyages", row)
    if db["voyage_routes"].exists():
        vid = next(db.query("SELECT max(id) AS id FROM voyages"))["id"]
        # as text since m106 (voyage.map.routetext); the row gives them as JSON
        texts = {
            "route": route_from_json(row["route"]),
            "inshore": inshore_from_json(row["inshore"]),
        }
        _insert(db, "voyage_routes", {"voyage_id": vid, **row, **texts})


def make_voyage(camp: Campaign, status: str = "arrived") -> int:
    """A 10-hour voyage of the Sea Witch with three events, written as the engine would."""
    from voyage.vessels.ships import make_ship

    db = camp.db
    with camp.action("ship add", "add Sea Witch"):
        ship = make_ship(camp.rulebook, SHIP, "motorboat", 2, engine_tier=3)
        ship.crew, ship.fuel, ship.cargo = 3, 40, 20
        camp.add_ship(ship)
    for name, sql in ENGINE_TABLES.items():
        if not db[name].exists():
            db.execute(sql)
    roller = Roller(11)
    hexes = ["0305", "0405", "0405", "0506", "0506", "0606", "0606", "0707", "0707", "0807"]
    with camp.action("advance", "the Sea Witch sails") as act:
        insert_voyage(
            db,
            {
                "ship": SHIP,
                "origin": ROUTE[0],
                "destination": ROUTE[-1],
                "route": json.dumps(ROUTE),
                "position": len(ROUTE) - 1,
                "progress_miles": 0,
                "inshore": json.dumps([]),
                "pace": "normal",
                "strain": 0,
                "status": status,
                "started": START_CLOCK,
                "ended": START_CLOCK + 10,
                "state": json.dumps({"leaks": []}),
            },
        )
        vid = int(next(db.query("SELECT max(id) AS id FROM voyages"))["id"])
        fuel = 40
        for i, hex_name in enumerate(hexes):
            clock = START_CLOCK + i
            if i and hexes[i] != hexes[i - 1]:
                fuel -= 1
            _insert(
                db,
                "hours",
                {
                    "action_id": act.id,
                    "voyage_id": vid,
                    "ship": SHIP,
                    "clock": clock,
                    "day": clock // 24 + 1,
                    "hour": clock % 24,
                    "hex": hex_name,
                    "miles": 6,
                    "speed": 6,
                    "pace": "normal",
                    "fuel": fuel,
                    "load": 97,
                    "load_category": "half",
                    "water": 3 if i > 3 else 0,
                    "leaks": 0,
                    "status": "under way" if i < 9 else status,
                },
            )
        capsize = roller.check("capsize check", 16, [Modifier(2, "Tier II"), Modifier(2, "Half")])
        leak = roller.roll("hull leak", "d6", [Modifier(0, "wave")])
        hazard = roller.chance("underwater hazard", 1, success="a hazard!", failure="clear")
        events = [
            (
                START_CLOCK + 3,
                20,
                "storm",
                "The storm | breaks over the *Sea Witch*.",
                [capsize, leak],
            ),
            (
                START_CLOCK + 7,
                0,
                "hazard",
                "Close inshore <rocks> ahead; the lookout sees nothing.",
                [hazard],
            ),
            (START_CLOCK + 9, 45, "arrived", "The Sea Witch ties up in harbour.", []),
        ]
        for clock, minute, kind, text, rolls in events:
            _insert(
                db,
                "events",
                {
                    "action_id": act.id,
                    "voyage_id": vid,
                    "ship": SHIP,
                    "clock": clock,
                    "day": clock // 24 + 1,
                    "hour": clock % 24,
                    "minute": minute,
                    "kind": kind,
                    "text": text,
                    "rolls": json.dumps([r.to_dict() for r in rolls]),
                    "changes": json.dumps({"water": 3} if kind == "storm" else {}),
                },
            )
    return vid
