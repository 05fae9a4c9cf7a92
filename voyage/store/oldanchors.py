"""Ships an older voyage left "at anchor" with no voyage (migration m130; R65, R64, R60).

Today a ship that comes to rest outside a port - she arrives there, or `voyage ship place`
puts her there - lies on an open voyage of that one hex: anchored where an anchor reaches
the bottom and she has one, else adrift (voyage.rules.arrival.lie_at), so storms (R60), her
anchor cable (R65) and the current (R64) act on her. A campaign made before that has ships
whose status says "at anchor" with no open voyage, which every advance passes by until
they sail. m130 gives each such ship the voyage `voyage ship place` gives her today
(voyage.store.voyagerows.place_at_sea: the one code path), so she is anchored - or, with no anchor
aboard or in water too deep for her cable, adrift, as arrival.py has her (R65, R64) - and
says so in her log.

Ships in port, sunk, abandoned, archived, or on a voyage are left alone (a ship "at sea"
with no voyage is damage, not an older voyage's way: doctor names her); so is a
ship whose hex is no longer open non-port sea on the campaign's map, or a campaign whose
map or house tables cannot be read: `voyage doctor` names each ship left so, with the
command that settles her (voyage.actions.doctor_world).

Undo. The voyage belongs to the action that left her at anchor (the latest action whose
journal changed her row's status or hex): m130's changes are journaled under that action
and its event carries its id, so `voyage undo` takes back every later action as it always
did, and undoing that one takes the voyage away with it, leaving the campaign exactly as
before that action. An action undone by snapshot (made before the journal, m030) puts its
tables back whole, the voyage gone with them; the event then goes with the latest such
action. An action too old to undo gets the event and no journal.

m130 runs today's code on an older campaign: keep it after every schema step that changes
a table a voyage writes (ships, voyages, voyage_routes, events).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from voyage.base.errors import VoyageError
from voyage.dice.events import Event
from voyage.map.seamap import sea_hex
from voyage.store import undojournal
from voyage.store.campaign import DERIVED_TABLES, LOG_TABLES, Action, Campaign, migrations
from voyage.store.logrows import log_event
from voyage.store.mapstore import current_map
from voyage.store.sqlitedb import Database
from voyage.store.voyagerows import place_at_sea

#: Ship statuses that are not an older voyage's ship at rest outside a port ("at anchor"):
#: "at sea" with no open voyage is damage (a voyage row edited away), which doctor names.
_NOT_AT_REST = ("in port", "sunk", "abandoned", "at sea")

#: What a ship that needs m130 looks like (voyage.actions.doctor_world names those it left alone).
LYING_WITHOUT_VOYAGE = f"""
    SELECT rowid, name, hex, status FROM ships
    WHERE archived = 0 AND hex IS NOT NULL
      AND status NOT IN ({", ".join(repr(s) for s in _NOT_AT_REST)})
      AND NOT EXISTS (SELECT 1 FROM voyages v WHERE v.ship = ships.name
                      AND v.ended IS NULL AND v.status NOT IN ('sunk', 'abandoned'))
    ORDER BY rowid
"""


class _Upgrade(Campaign):
    """The campaign as m130 sees it: its clock is the hour the ship came to rest, so her
    voyage starts, and her event is logged, then rather than at the latest action's end."""

    rest_clock: int | None = None

    @property
    def clock(self) -> int:
        return self.rest_clock if self.rest_clock is not None else super().clock


def _path(db: Database) -> Path:
    row = db.execute("PRAGMA database_list").fetchone()
    return Path(row[2] if row and row[2] else ":memory:")


def resting_action(db: Database, ship_rowid: int) -> tuple[int, str | None] | None:
    """(id, undo) of the action the ship's voyage belongs to: the latest whose journal
    changed her row's status or hex (or made her), else the latest not undoable by
    journal (by snapshot, or too old), else None."""
    found = db.execute(
        "SELECT max(action_id) FROM undo_journal WHERE tbl = 'ships' AND rid = ? "
        "AND (op = 'I' OR (op = 'U' AND col IN ('status', 'hex')))",
        [ship_rowid],
    ).fetchone()[0]
    if found is None:
        found = db.execute(
            "SELECT max(id) FROM actions WHERE undo IS NULL OR undo <> 'journal'"
        ).fetchone()[0]
    if found is None:
        return None
    undo = db.execute("SELECT undo FROM actions WHERE id = ?", [found]).fetchone()
    return (int(found), undo[0]) if undo else None


def _rest_clock(db: Database, action_id: int) -> int:
    """The campaign's clock when the action ended: the next action's start, or now."""
    row = db.execute(
        "SELECT clock FROM actions WHERE id > ? ORDER BY id LIMIT 1", [action_id]
    ).fetchone()
    if row is None:
        row = db.execute("SELECT clock FROM campaign WHERE id = 1").fetchone()
    return int(row[0]) if row else 0


@migrations()
def m130_anchored_voyages(db: Database) -> None:
    # R65, R60: a ship an older voyage left "at anchor" with no voyage gets the open
    # one-hex voyage `voyage ship place` gives her today (see the module's docstring).
    rows = db.execute(LYING_WITHOUT_VOYAGE).fetchall()
    if not rows or not db.execute("SELECT 1 FROM campaign WHERE id = 1").fetchone():
        return
    camp = _Upgrade(_path(db), db)
    try:
        chart = current_map(camp)
    except VoyageError:
        return  # no map, or one that no longer reads: doctor names the ships
    for rowid, name, hex_name, _status in rows:
        # a ship that cannot be settled is left whole, as she was
        with contextlib.suppress(VoyageError), db.atomic():
            _settle(camp, chart, rowid, name, hex_name)


def _settle(camp: _Upgrade, chart: Any, rowid: int, name: str, hex_name: str) -> None:
    """One ship: her voyage, journaled under the action that left her at anchor."""
    key = sea_hex(chart, hex_name)  # VoyageRuleError: land or off the map now
    info = chart.hex(key)
    if info.port:
        return  # a port now (the map changed): doctor says `voyage ship place` moors her
    db, conn = camp.db, camp.db.conn
    owner = resting_action(db, rowid)
    journaled = owner is not None and owner[1] == "journal"
    if journaled:
        undojournal.install(conn, LOG_TABLES + DERIVED_TABLES)
    camp.rest_clock = _rest_clock(db, owner[0]) if owner else None
    try:
        if journaled and owner:
            undojournal.begin(conn, owner[0])
        ship = camp.get_ship(name)
        opening = f'{ship.name} lies at {key} (an older campaign\'s "at anchor", m130)'
        text = place_at_sea(camp, ship, info, opening)
        vid = db.execute(
            "SELECT max(id) FROM voyages WHERE ship = ? AND ended IS NULL", [ship.name]
        ).fetchone()[0]
        if owner is not None:
            log_event(
                camp, Action(owner[0], "upgrade", "m130"), ship.name, vid, Event("place", text)
            )
    finally:
        if journaled:
            undojournal.end(conn)
        camp.rest_clock = None
