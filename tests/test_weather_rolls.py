"""Rolled weather (R61), storm cells (R62) and their own dice stream (R63).

The exact odds here are written from the rulings' text, independently of tables/climates.yaml
and of voyage.dice.roller: a 2d6 total k has (6 - |k - 7|) chances in 36.
"""

from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction

import pytest
from conftest import within_binomial

from voyage.base.errors import TableError
from voyage.map.regions import Region
from voyage.map.seamap import parse_map
from voyage.tables.rulebook import load_rulebook
from voyage.world.cells import LEVEL, StormCell, footprint, roll_cell, roll_day, stream_seed
from voyage.world.seasons import season_for_day


def p2d6(first: int, last: int) -> Fraction:
    """Chance that 2d6 shows first..last (R61's ranges)."""
    return sum((Fraction(6 - abs(k - 7), 36) for k in range(first, last + 1)), Fraction(0))


# R61, as the ruling reads (not as the table file says)
TEMPERATE_WINTER = {
    "fair": p2d6(2, 8),
    "stormy": p2d6(9, 10),
    "major": p2d6(11, 11),
    "hurricane": p2d6(12, 12),
}
TROPICAL_WET = {
    "fair": p2d6(2, 7),
    "stormy": p2d6(8, 9),
    "major": p2d6(10, 11),
    "hurricane": p2d6(12, 12),
}
DAYS = 10_000
OPEN = tuple(f"{c:02d}{r:02d}" for c in range(5, 15) for r in range(5, 15))


def region(name: str, climate: str) -> Region:
    return Region(name, climate, frozenset(OPEN), OPEN)


@functools.lru_cache(maxsize=4)
def roll_many(climate: str, season: str, seed: int = 11) -> list:
    book = load_rulebook()
    r = region("test", climate)
    return [roll_day(seed, r, day, season, book) for day in range(1, DAYS + 1)]


def test_exact_odds_add_up() -> None:
    assert sum(TEMPERATE_WINTER.values()) == 1 == sum(TROPICAL_WET.values())
    assert TEMPERATE_WINTER["fair"] == Fraction(26, 36)


@pytest.mark.parametrize(
    ("climate", "season", "odds"),
    [("temperate", "winter", TEMPERATE_WINTER), ("tropical", "wet", TROPICAL_WET)],
)
def test_weather_over_10000_days_matches_the_table(climate, season, odds) -> None:
    # R61: each day's 2d6 on the season's row; 4 sigma on every outcome
    days = roll_many(climate, season)
    counts = Counter(d.weather for d in days)
    for outcome, p in odds.items():
        assert within_binomial(counts[outcome], DAYS, p, 4), (outcome, counts[outcome], p)
    # a storm day and only a storm day has a cell, of that day's sea state
    assert all((d.cell is None) == (d.weather == "fair") for d in days)
    assert all(d.cell.state == d.weather for d in days if d.cell)


def test_cells_radius_hours_drift_and_wind_follow_r62() -> None:
    days = roll_many("tropical", "wet")
    cells = [d.cell for d in days if d.cell]
    n = len(cells)
    assert n > 3000
    # R62 drift: every 6 h on 1-2, every 3 h on 3-5, stays put on 6
    drift = Counter(c.drift_every for c in cells)
    for every, p in ((6, Fraction(2, 6)), (3, Fraction(3, 6)), (0, Fraction(1, 6))):
        assert within_binomial(drift[every], n, p, 4), (every, drift)
    # R61 wind: each side 1 in 6
    wind = Counter(c.wind for c in cells)
    for side in ("N", "NE", "SE", "S", "SW", "NW"):
        assert within_binomial(wind[side], n, Fraction(1, 6), 4), wind
    # R62 radius: d3-1 stormy, d3 major, d3+1 hurricane; hours 4d6, hurricanes 8d6
    ranges = {"stormy": {0, 1, 2}, "major": {1, 2, 3}, "hurricane": {2, 3, 4}}
    for state, radii in ranges.items():
        mine = [c for c in cells if c.state == state]
        seen = Counter(c.radius for c in mine)
        assert set(seen) == radii
        for r in radii:
            assert within_binomial(seen[r], len(mine), Fraction(1, 3), 4), (state, seen)
        low, high = (8, 48) if state == "hurricane" else (4, 24)
        assert all(low <= c.hours <= high for c in mine)
    assert all(c.origin in OPEN and c.start_hour == (c.day - 1) * 24 + 6 for c in cells)


def test_a_day_is_a_pure_function_of_seed_region_day_and_reroll() -> None:
    # R63: same tuple, same day; any part changed, another stream
    book = load_rulebook()
    north, south = region("north", "temperate"), region("south", "temperate")
    first = [roll_day(3, north, d, "winter", book) for d in range(1, 40)]
    # rolled again, in another order, after other regions rolled in between
    for d in reversed(range(1, 40)):
        roll_day(3, south, d, "winter", book)
        assert roll_day(3, north, d, "winter", book) == first[d - 1]
    assert stream_seed(3, "weather", "north", 5, 0) == stream_seed(3, "weather", "north", 5, 0)
    seeds = {
        stream_seed(3, "weather", "north", 5, 0),
        stream_seed(3, "weather", "north", 5, 1),
        stream_seed(3, "weather", "south", 5, 0),
        stream_seed(4, "weather", "north", 5, 0),
        stream_seed(3, "weather", "north", 6, 0),
    }
    assert len(seeds) == 5
    # regions are independent: the same day in two regions is not the same roll
    totals_n = [roll_day(9, north, d, "winter", book).total for d in range(1, 200)]
    totals_s = [roll_day(9, south, d, "winter", book).total for d in range(1, 200)]
    assert totals_n != totals_s


def test_footprint_outer_ring_is_one_state_lower() -> None:
    # R62: a major storm or hurricane is one state lower on its outer ring
    from voyage.map import hexes as hexmap

    centre = hexmap.to_cube("1010")
    hurricane = footprint(centre, 2, LEVEL["hurricane"], 30, 30)
    assert len(hurricane) == 19
    assert hurricane["1010"] == 3 and hurricane["1009"] == 3  # ring 1
    assert hurricane["1008"] == 2  # ring 2, the outer ring
    stormy = footprint(centre, 1, LEVEL["stormy"], 30, 30)
    assert set(stormy.values()) == {1}
    # clipped at the map's edge
    assert len(footprint(hexmap.to_cube("0101"), 1, 2, 30, 30)) == 3


def test_a_cell_drifts_downwind_on_schedule_and_may_leave_the_map() -> None:
    from voyage.map import hexes as hexmap

    cell = StormCell(
        "r",
        1,
        "major",
        "0202",
        1,
        6,
        20,
        wind="N",
        drift_every=3,
        _origin_cube=hexmap.to_cube("0202"),
    )
    # wind from N: it drifts south one hex every 3 hours (R62)
    assert cell.centre_name(6, 10, 10) == "0202" and cell.centre_name(8, 10, 10) == "0202"
    assert cell.centre_name(9, 10, 10) == "0203" and cell.centre_name(12, 10, 10) == "0204"
    assert [p["centre"] for p in cell.track(10, 5)] == [
        "0202",
        "0203",
        "0204",
        "0205",
        None,
        None,
        None,
    ]
    assert cell.footprint(26, 10, 10) == {} and cell.footprint(25, 10, 10)


def test_gregorian_seasons_by_day() -> None:
    assert season_for_day(1) == "winter"  # 1 January
    assert season_for_day(60) == "spring"  # 1 March
    assert season_for_day(152) == "summer"  # 1 June
    assert season_for_day(244) == "autumn"  # 1 September
    assert season_for_day(335) == "winter"  # 1 December
    assert season_for_day(366) == "winter"  # the next 1 January


# ----------------------------------------------------------------------------- the table


def _write(tmp_path, text: str):
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "climates.yaml").write_text(text)
    return folder


def _climates_text(**replace: str) -> str:
    from voyage.base.paths import tables_dir

    text = (tables_dir() / "climates.yaml").read_text()
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new, 1)
    return text


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{faces: [2, 8], value: fair}", "{faces: [2, 7], value: fair}", "face 8 is missing"),
        (
            "{faces: [11, 11], value: major}",
            "{faces: [10, 11], value: major}",
            "face 10 is doubled",
        ),
        (
            "{faces: [12, 12], value: hurricane}",
            "{faces: [12, 13], value: hurricane}",
            "from 2 to 12",
        ),
        (
            "{faces: [2, 10], value: fair}",
            "{faces: [2, 10], value: sunny}",
            "unknown weather 'sunny'",
        ),
        ("stormy: {radius: d3-1", "stormy: {radius: d3-5", "never be below 0"),
        ("{faces: [6, 6], value: NW}", "{faces: [6, 6], value: W}", "unknown side 'W'"),
        ("season_names: {spring: dry", "season_names: {spring: damp", "no season row 'damp'"),
    ],
)
def test_a_bad_climates_table_is_one_line_naming_file_and_key(tmp_path, old, new, message) -> None:
    folder = _write(tmp_path, _climates_text(**{old: new}))
    with pytest.raises(TableError) as err:
        load_rulebook(folder)
    text = str(err.value)
    assert "climates.yaml at '" in text and message in text and "\n" not in text


def test_a_campaign_override_replaces_the_climates() -> None:
    book = load_rulebook()
    assert set(book.climates["climates"]) == {"temperate", "tropical"}
    assert book.climates["sea_states"]["hurricane"]["disadvantages"] == 2


def test_the_season_row_can_come_from_the_region() -> None:
    book = load_rulebook()
    wet = Region("s", "tropical", frozenset(OPEN), OPEN, season_names=(("winter", "wet"),))
    assert roll_day(1, wet, 3, "winter", book).row == "wet"
    plain = Region("s", "tropical", frozenset(OPEN), OPEN)
    assert roll_day(1, plain, 3, "winter", book).row == "dry"  # the climate's own mapping


def test_map_without_regions_is_one_temperate_region() -> None:
    sea = parse_map("rows: |\n  ~~~~\n  ~~#~\n")
    regions = sea.weather_regions()
    assert list(regions) == ["sea"] and regions["sea"].climate == "temperate"
    assert sea.region_of("0101").name == "sea"


@pytest.mark.parametrize(
    ("climate", "season"),
    [("temperate", "winter"), ("temperate", "summer"), ("tropical", "wet")],
)
def test_the_engines_cells_are_the_days_cells(climate, season) -> None:
    # R61-R63: roll_cell (the engine's sea: no records) draws the very dice of roll_day,
    # in a wide region, a one-hex region, and on rerolled days
    book = load_rulebook()
    wide, single = region("wide", climate), Region("one", climate, frozenset(["0707"]), ("0707",))
    formed = 0
    for seed in (1, 7):
        for where in (wide, single):
            for day in range(1, 301):
                for reroll in (0, 2):
                    expected = roll_day(seed, where, day, season, book, reroll).cell
                    got = roll_cell(seed, where, day, season, book, reroll)
                    assert got == expected, (seed, where.name, day, reroll)
                    if got is not None:
                        formed += 1
                        assert got._origin_cube == expected._origin_cube
    assert formed > 20  # the comparison saw cells, not only fair days (summer: 1 in 36)


def test_the_sea_of_every_hour_is_the_union_of_its_cells_whatever_the_order() -> None:
    # R60/R62: the worked-out (and reused) sea of each hour equals the cells' footprints
    # merged from scratch, highest state winning, land left out; asked in any order
    import random

    from voyage.base.paths import campaigns_dir
    from voyage.map.seamap import load_map
    from voyage.world.seastate import SeaStates

    book = load_rulebook()
    sea_map = load_map(campaigns_dir() / "salt_reach")
    hours = list(range(0, 24 * 40))
    shuffled = hours[:]
    random.Random(1).shuffle(shuffled)
    walked = SeaStates(3, sea_map, book)
    asked = SeaStates(3, sea_map, book)
    got_walked = {h: dict(walked.levels(h)) for h in hours}
    got_asked = {h: dict(asked.levels(h)) for h in shuffled}
    cells = [
        roll_day(3, region, day, season_for_day(day), book).cell
        for day in range(1, 41)
        for region in sea_map.weather_regions().values()
    ]
    cells = [c for c in cells if c is not None]
    assert len(cells) > 5
    for hour in hours:
        expected: dict[str, int] = {}
        for cell in cells:
            for name, level in cell.footprint(hour, sea_map.width, sea_map.height).items():
                if sea_map.is_sea(name):
                    expected[name] = max(level, expected.get(name, 0))
        assert got_walked[hour] == expected == got_asked[hour], hour


def test_the_sea_of_every_hour_with_moving_storms_is_worked_out_afresh() -> None:
    # R60/R62/R63: the sea kept for a span of hours (until a cell or a referee's storm
    # starts, ends or drifts) is each hour's sea worked out from scratch, walked in order
    # or asked in any order, with moving storms (every 1 and 4 hours) among the cells
    import random

    from voyage.base.paths import campaigns_dir
    from voyage.map import hexes as hexmap
    from voyage.map.seamap import load_map
    from voyage.world.seastate import RefereeStorm, SeaStates

    book = load_rulebook()
    sea_map = load_map(campaigns_dir() / "salt_reach")
    storms = [
        RefereeStorm(1, tuple(hexmap.cube_within(hexmap.to_cube("1510"), 2)), 30, 200, 2, "SW", 4),
        RefereeStorm(2, (hexmap.to_cube("0805"),), 100, 137, 3, "N", 1),
        RefereeStorm(3, (hexmap.to_cube("2012"),), 150, 400, 1),
    ]
    hours = list(range(0, 24 * 30))
    shuffled = hours[:]
    random.Random(2).shuffle(shuffled)
    walked = SeaStates(5, sea_map, book, storms=storms)
    asked = SeaStates(5, sea_map, book, storms=storms)
    got_walked = {h: dict(walked.levels(h)) for h in hours}
    got_asked = {h: dict(asked.levels(h)) for h in shuffled}
    cells = [
        roll_day(5, region, day, season_for_day(day), book).cell
        for day in range(1, 31)
        for region in sea_map.weather_regions().values()
    ]
    cells = [c for c in cells if c is not None]
    assert len([c for c in cells if c.drift_every]) > 3  # cells that drift, too
    for hour in hours:
        expected: dict[str, int] = {}
        for source in [*cells, *storms]:
            for name, level in source.footprint(hour, sea_map.width, sea_map.height).items():
                if sea_map.is_sea(name):
                    expected[name] = max(level, expected.get(name, 0))
        assert got_walked[hour] == expected == got_asked[hour], hour


def test_sea_states_never_list_every_hex_of_the_map(monkeypatch) -> None:
    # a 999x999 map has a million hexes; the sea state of an hour must come from
    # the cells' footprints and a scan of the terrain bytes, never from walking every name
    from voyage.base.paths import campaigns_dir
    from voyage.map.seamap import SeaMap, load_map
    from voyage.world.seastate import SeaStates

    book = load_rulebook()
    sea_map = load_map(campaigns_dir() / "salt_reach")  # a map with regions of its own
    ports = {p.name for p in sea_map.ports()}

    def refuse(self: SeaMap) -> list[str]:
        raise AssertionError("listed every hex of the map")

    monkeypatch.setattr(SeaMap, "names", refuse)
    states = SeaStates(3, sea_map, book)
    assert states._ports == frozenset(ports)
    assert any(states.levels(h) for h in range(0, 24 * 40))
    assert all(states.for_ship(p, h) == 0 for p in ports for h in range(0, 48))
