"""The season of a campaign day, for the weather (R61).

The campaign calendar (dates, months and their seasons as data) is its own piece of work;
the weather needs one question answered: which season is day N? :func:`season_for_day`
answers it for the default calendar, the Gregorian months from 1 January on day 1, with
meteorological seasons. :func:`season_of` is the one seam the weather calls, so pointing it
at the campaign calendar changes every caller at once.
"""

from __future__ import annotations

from voyage.tables.calendar import CampaignCalendar
from voyage.tables.calendar import season_of as calendar_season

#: Gregorian month lengths (a common year) and the season of each month.
MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
MONTH_SEASONS = (
    "winter",
    "winter",
    "spring",
    "spring",
    "spring",
    "summer",
    "summer",
    "summer",
    "autumn",
    "autumn",
    "autumn",
    "winter",
)
YEAR_DAYS = sum(MONTH_DAYS)


def season_for_day(day: int) -> str:
    """The season of campaign day ``day`` (day 1 = 1 January, common years)."""
    left = (day - 1) % YEAR_DAYS
    for length, season in zip(MONTH_DAYS, MONTH_SEASONS, strict=True):
        if left < length:
            return season
        left -= length
    raise AssertionError("unreachable: the months cover the year")


def season_of(calendar: CampaignCalendar | None, clock_hours: int) -> str:
    """The season at campaign hour ``clock_hours``: the weather's one call on the calendar
    (voyage.tables.calendar: the campaign's own calendar, else Gregorian from 1 January)."""
    if calendar is None:
        return season_for_day(clock_hours // 24 + 1)
    return calendar_season(calendar, clock_hours)
