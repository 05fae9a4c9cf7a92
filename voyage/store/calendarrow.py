"""The campaign's calendar as its file keeps it: table ``calendar``, one row (id 1) holding a
copy of the calendar's definition and the date of day 1 (voyage.tables.calendar does the
arithmetic on it). A campaign made without a start date has no row, and counts days.
"""

from __future__ import annotations

import json
import weakref
from typing import TYPE_CHECKING

from voyage.tables.calendar import CalendarDef, CampaignCalendar, format_time

if TYPE_CHECKING:
    from voyage.store.campaigndb import Campaign
    from voyage.store.sqlitedb import Database

#: Each open campaign's calendar, read once.
_BY_CAMPAIGN: weakref.WeakKeyDictionary[Campaign, CampaignCalendar | None] = (
    weakref.WeakKeyDictionary()
)


def campaign_calendar(camp: Campaign) -> CampaignCalendar | None:
    """The calendar of an open campaign (None when it was made without a start date)."""
    if camp in _BY_CAMPAIGN:
        return _BY_CAMPAIGN[camp]
    found: CampaignCalendar | None = None
    if camp.db["calendar"].exists():
        rows = list(camp.db.query("SELECT * FROM calendar WHERE id = 1"))
        if rows:
            row = rows[0]
            definition = CalendarDef.from_table(json.loads(row["definition"]))
            found = CampaignCalendar(definition, row["year"], row["month"], row["day"])
    _BY_CAMPAIGN[camp] = found
    return found


def clock_text(camp: Campaign, clock: int | None, minute: int = 0) -> str:
    """A campaign time as people read it, in the campaign's calendar (:func:`format_time`:
    ``12 Jun 1492, 14:00``, or ``Day 3, 14:00`` without a calendar)."""
    return format_time(campaign_calendar(camp), clock, minute)


def write_calendar(db: Database, calendar: CampaignCalendar) -> None:
    """Keep the calendar (a copy of its definition) and day 1's date in the campaign file
    (inside the caller's transaction: ``voyage init`` builds the file whole, R5)."""
    db.execute(
        "INSERT OR REPLACE INTO calendar (id, key, definition, year, month, day) "
        "VALUES (1, ?, ?, ?, ?, ?)",
        [
            calendar.definition.key,
            json.dumps(calendar.definition.to_table()),
            calendar.year,
            calendar.month,
            calendar.day,
        ],
    )
