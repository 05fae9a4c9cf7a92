"""The column of issue 11.3 (built boats sail): migration m120, registered on
voyage.store.campaign's
Migrations (imported at the end of voyage/store.py, so store.py stays small)."""

from __future__ import annotations

from voyage.store.campaign import migrations
from voyage.store.sqlitedb import Database


@migrations()
def m120_boat_charge(db: Database) -> None:
    # R82: a built boat's charge in power units, exactly (a fraction as text: a 12-mile hex
    # at 30 mph costs 14.4 units); NULL for rolled ships. ships.fuel keeps the whole units.
    db.execute("ALTER TABLE ships ADD COLUMN charge TEXT")
    db.execute(
        "UPDATE ships SET charge = CAST(fuel AS TEXT) WHERE design IS NOT NULL "
        "AND json_extract(design, '$.plant') IS NOT NULL"
    )
