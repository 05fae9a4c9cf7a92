"""A referee's own world, not the Salt Reach: a home-made map, calendar and tables (a
calendar whose seasons the climates do not know, a dive at an uncharted harbour, calendar
limits, a port's fuel left, a built boat's pace)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BRINE_CALENDARS, add_trawler, build_sub, db_contents, ok, refused

from voyage.store import campaign as store

MAP = """\
name: The Brine Isles
seabed: sandy
rows: |
  ##########
  ##P~~~~P##
  #~~~~~~~~#
  #~~~%~~~~#
  #~~~~~~~~#
  #~~~:~~~~#
  #~~~~~~~~#
  ##########
hexes:
  "0302":
    port: Northgate
    fuel: {price: 2, stock: 60}
  "0802":
    port: Easthaven
    fuel: {price: 3.5}
regions:
  north:
    climate: temperate
    hexes: ["0101-1008"]
depths:
  "0505": 40
"""


@pytest.fixture
def brine(tmp_path: Path) -> Path:
    path = tmp_path / "brine.yaml"
    path.write_text(MAP, encoding="utf-8")
    return path


def _init_brine(db: object, house: object, start: str = "1 Saltmoon 3") -> list[str]:
    """`voyage init` of a campaign on the house calendar "brine" from ``house``."""
    return [
        "init",
        "--db",
        str(db),
        "--tables",
        str(house),
        "--start",
        start,
        "--calendar",
        "brine",
    ]


def _house(tmp_path: Path, text: str = BRINE_CALENDARS) -> Path:
    folder = tmp_path / "house"
    folder.mkdir(exist_ok=True)
    (folder / "calendars.yaml").write_text(text, encoding="utf-8")
    return folder


# ------------------------------------------------------------- R61: the calendar's seasons


def test_a_calendar_season_the_climate_lacks_is_refused_at_map_load(runner, tmp_path, brine):
    """R61: the weather rolls each region's climate by the calendar's season. A house
    calendar of wet and dry seasons over a temperate region (rows winter ... autumn) was
    loaded; then every weather command, and an advance with every ship in port, failed."""
    db = tmp_path / "w.db"
    ok(runner, *_init_brine(db, _house(tmp_path)))
    before = db_contents(db)
    out = refused(runner, "map", "load", "--db", str(db), str(brine))
    assert "region north: the temperate climate has no row for the calendar's season 'wet'" in out
    assert "season_names: {wet: " in out
    assert db_contents(db) == before
    # mapped in the region, the same map loads and the weather rolls the mapped row
    brine.write_text(
        MAP.replace(
            "climate: temperate", "climate: temperate\n    season_names: {wet: winter, dry: summer}"
        ),
        encoding="utf-8",
    )
    ok(runner, "map", "load", "--db", str(db), str(brine))
    days = json.loads(ok(runner, "weather", "forecast", "--db", str(db), "--days", "1", "--json"))[
        "days"
    ]
    assert days[0]["regions"][0]["roll"]["season_row"] == "winter"


def test_an_advance_in_port_that_cannot_roll_the_weather_changes_nothing(runner, tmp_path, brine):
    """A campaign whose map was loaded before its climates lost a season's row (or made by
    an older voyage): the advance with every ship in port moved the clock and then failed
    on the weather lines (exit 1, clock moved). Now it is refused before anything changes."""
    db = tmp_path / "w.db"
    ok(runner, *_init_brine(db, _house(tmp_path)))
    brine.write_text(MAP.replace("climate: temperate", "climate: tropical"), encoding="utf-8")
    ok(runner, "map", "load", "--db", str(db), str(brine))
    camp = store.open_campaign(db)
    with camp.db.conn:  # the map as an older voyage let it in: a temperate region
        camp.db.execute(
            "UPDATE sea_map SET text = replace(text, 'climate: tropical', 'climate: temperate')"
        )
    camp.close()
    before = db_contents(db)
    out = refused(runner, "advance", "--db", str(db), "--hours", "10")
    assert "no row for the calendar's season 'wet'" in out
    assert db_contents(db) == before


# ------------------------------------------------------------- R84 with R65: an uncharted dive


def _sub(runner: CliRunner, at: str, name: str = "Eel", to: str = "0802") -> None:
    build_sub(runner, name, "--crew", "2", "--reinforced")
    ok(runner, "ship", "place", name, at)
    ok(runner, "sail", name, "--to", to)


def test_a_dive_at_an_uncharted_harbour_stops_at_an_anchors_reach(runner, db, brine):
    """R84: she cannot dive below the seabed. Northgate's harbour is uncharted: it was no
    bound at all, and `dive 100000` imploded her there. An uncharted port, coastal or
    shallow hex is anchorage water (R65: its bottom within the 150 ft cable): 150 ft less
    her 8 ft draft."""
    ok(runner, "map", "load", str(brine))
    _sub(runner, "0302")
    before = db_contents(db)
    out = refused(runner, "act", "Eel", "dive", "100000")
    assert "Eel cannot dive below 142 ft at 0302: the map charts no depth there" in out
    assert "(R65, R84; she draws 8 ft)" in out and "`depths:` in the map" in out
    assert refused(runner, "act", "Eel", "dive", "143") == out
    assert db_contents(db) == before
    assert "dives to 142 ft at 0302" in ok(runner, "act", "Eel", "dive", "142")


def test_the_bound_is_the_chart_where_there_is_one_and_her_hull_in_open_sea(runner, db, brine):
    """An uncharted reef (0504) is a shallow (R65) as a coast is; a charted hex keeps its
    depth (0505: 40 ft); uncharted open sea (0605, touching no land) has no known bottom:
    there only her hull bounds her (the Depth Damage Table)."""
    ok(runner, "map", "load", str(brine))
    _sub(runner, "0504", "Reef Eel")
    assert "cannot dive below 142 ft at 0504" in refused(runner, "act", "Reef Eel", "dive", "150")
    _sub(runner, "0505", "Charted Eel")
    assert "40 ft deep and she draws 8 ft, so 32 ft at most (R84)" in refused(
        runner, "act", "Charted Eel", "dive", "33"
    )
    _sub(runner, "0605", "Open Eel")
    assert "dives to 250 ft at 0605" in ok(runner, "act", "Open Eel", "dive", "250")


# ------------------------------------------------------------- calendar limits and years


@pytest.mark.parametrize("month", [True, False])
def test_a_calendar_beyond_its_limits_is_one_line_naming_the_key(runner, tmp_path, month):
    """A 100,000-day month was accepted (and a leap day every million years): each limit is
    refused in one line naming the file, the key and the most it takes."""
    text = (
        BRINE_CALENDARS.replace("days: 40,", "days: 100000,")
        if month
        else BRINE_CALENDARS + "    leap: {month: Saltmoon, every: 1000000}\n"
    )
    out = refused(runner, *_init_brine(tmp_path / "c.db", _house(tmp_path, text)))
    if month:
        assert (
            "at 'calendars.brine.months[0].days': month Saltmoon has 100,000 days: give it "
            "at most 1,000" in out
        )
    else:
        assert "at 'calendars.brine.leap.every': expected at most 100000" in out
    assert not (tmp_path / "c.db").exists()


def test_a_month_of_1000_days_and_100_months_are_taken(runner, tmp_path):
    months = "".join(f"      - {{name: M{i}, days: 1000, season: wet}}\n" for i in range(100))
    text = BRINE_CALENDARS.split("    months:\n")[0] + "    months:\n" + months
    # day 1000 of month 100
    ok(runner, *_init_brine(tmp_path / "c.db", _house(tmp_path, text), "1000 M99 3"))
    assert "day 1 was 1000 M99 3." in ok(runner, "calendar", "--db", str(tmp_path / "c.db"))


def test_a_seven_digit_year_the_campaign_shows_is_a_date_at_takes(runner, tmp_path, brine):
    """A campaign started in 999999 shows 1 Jan 1000000 two days on; `--at` refused it
    (six digits a year). A start year stays six digits, said in one line."""
    db = str(tmp_path / "y.db")
    out = refused(runner, "init", "--db", db, "--start", "1 January 1234567")
    assert out == "Error: year 1234567: a start year runs from 1 to 999999\n"
    ok(runner, "init", "--db", db, "--start", "999999-12-30")
    ok(runner, "map", "load", "--db", db, str(brine))
    assert "to 1 Jan 1000000, 00:00" in ok(runner, "advance", "--db", db, "--hours", "48")
    shown = ok(runner, "weather", "show", "--db", db, "--at", "1 Jan 1000000, 10:00")
    assert shown.startswith("1 Jan 1000000, 10:00")
    assert (
        "is out of range: it is day 730,485,368 of the campaign, which runs to day "
        "999,999 at most"
        in refused(runner, "weather", "show", "--db", db, "--at", "31 Dec 3000000")
    )
    assert "year 30000000: a year runs from 1 to 9999999" in refused(
        runner, "weather", "show", "--db", db, "--at", "31 Dec 30000000"
    )


@pytest.mark.parametrize("name", ["gregorian", "reckoning", "brine"])
def test_days_before_a_year_counts_the_leap_years_as_walking_them_did(book, name):
    from voyage.tables.calendar import CalendarDef, calendar_definition

    if name == "brine":
        definition = CalendarDef.from_table(
            {
                "key": "brine",
                "name": "Brine",
                "seasons": {"wet": {"dawn": 7, "dusk": 18}},
                "months": [{"name": "A", "short": "A", "days": 40, "season": "wet"}],
                "leap": {"month": "A", "every": 3, "skip_every": 10, "keep_every": 4},
            }
        )
    else:
        definition = calendar_definition(book, name)
    walked = 0
    for year in range(1, 2_500):
        assert definition.days_before(year) == walked, year
        walked += definition.year_days(year)


# ------------------------------------------------------------- a port's fuel, as it stands


def test_map_show_and_hex_tell_each_ports_fuel_and_what_is_left(runner, db, brine):
    """`map show` gave a port's price and not its stock; `map hex` gave the stock the map
    set, though ships had bought it down (the refuel refused what it still offered)."""
    ok(runner, "map", "load", str(brine))
    ok(runner, "ship", "add", "Tern", "--class", "trawler", "--tier", "IV", "--engine", "V")
    ok(runner, "ship", "place", "Tern", "0302")
    ok(runner, "act", "Tern", "refuel", "45")
    lines = ok(runner, "map", "show").splitlines()
    assert lines[-3:] == [
        "Ports:",
        "  0302  Northgate, fuel 2/hlb (15 of 60 hlbs left)",
        "  0802  Easthaven, fuel 3.5/hlb (no limit)",
    ]
    assert "  port: Northgate, fuel 2 per hlb (15 of 60 hlbs left)" in ok(
        runner, "map", "hex", "0302"
    )
    assert json.loads(ok(runner, "map", "hex", "0302", "--json"))["fuel"] == {
        "price": 2,
        "stock": 60,
        "left": 15,
    }
    assert json.loads(ok(runner, "map", "show", "--json"))["ports"] == [
        {"hex": "0302", "port": "Northgate", "fuel": {"price": 2, "stock": 60, "left": 15}},
        {"hex": "0802", "port": "Easthaven", "fuel": {"price": 3.5, "stock": None, "left": None}},
    ]
    assert "only 15 hlbs of fuel left" in refused(runner, "act", "Tern", "refuel", "16")


# ------------------------------------------------------------- a built boat's pace (R82)


def test_a_built_boats_forecast_status_and_advance_give_her_speed_not_a_pace(runner, db, brine):
    """R82: a built boat has no normal, slow or strain pace: she makes the speed her skipper
    sets (20 mph by default). The forecast said "pace normal", status "20 normal" and the
    advance "speed 20 (normal)"; a submersible's line says whether she is down (R84)."""
    ok(runner, "map", "load", str(brine))
    ok(runner, "settings", "encounter_interval", "0")
    _sub(runner, "0302")
    head = ok(runner, "forecast", "Eel", "--runs", "20").splitlines()[0]
    assert head == (
        "Forecast for Eel: Northgate (0302) to Easthaven (0802), 5 hexes, speed 20 mph "
        "(default), surfaced "
        "(R84: at most 3/4 of her top speed), from Day 1, 00:00."
    )
    ok(runner, "act", "Eel", "dive", "100")
    ok(runner, "pace", "Eel", "30mph")
    data = json.loads(ok(runner, "forecast", "Eel", "--runs", "20", "--json"))
    assert data["speed_text"] == "30 mph, 100 ft down (R84: full speed)"
    assert data["pace"] == "30mph"
    shown = ok(runner, "ship", "show", "Eel")
    assert "  Status: at sea at Northgate (0302), 100 ft down (R84)\n" in shown
    row = next(line for line in ok(runner, "status").splitlines() if line.startswith("Eel"))
    assert " 30 mph " in row and "normal" not in row
    assert "  Eel: 0502, under way, 100 ft down, speed 30 mph, charge" in ok(
        runner, "advance", "--hours", "1"
    )
    # a rolled ship keeps her pace words
    add_trawler(runner, "0802", "Tern", fuel=20, crew=2)
    head = ok(runner, "forecast", "Tern", "--to", "0302", "--runs", "20").splitlines()[0]
    assert ", pace normal, from " in head
    assert (
        json.loads(ok(runner, "forecast", "Tern", "--to", "0302", "--runs", "20", "--json"))[
            "speed_text"
        ]
        is None
    )


# ------------------------------------------------------------- --help examples


def test_no_help_example_is_rewrapped_round_its_line_continuation(runner):
    """`ship build --help` printed its submersible example rewrapped by click ("--with
    boat-top \\         --submersible"): a multi-line example needs its own \\b. Every
    command's --help: a backslash continuing an example ends its line."""
    import click

    from voyage.cli import cli
    from voyage.cli.docs import walk

    broken = []
    for full, _, _ in walk(cli, click.Context(cli, info_name="voyage")):
        for line in ok(runner, *full.split()[1:], "--help").splitlines():
            if "\\" in line and not line.rstrip().endswith("\\"):
                broken.append(f"{full}: {line.strip()}")
    assert broken == []


# ------------------------------------------------------------- house tables against the map


def test_house_tables_are_checked_against_the_map_as_a_map_is_against_the_tables(
    runner, db, brine, tmp_path
):
    """R61: house climates without a row for a season of the calendar were taken by
    `tables load` (then every weather command failed); R93: an encounter table naming a
    region the map has not (a typo) was silently never rolled."""
    from voyage.base.paths import tables_dir

    def bundled_table_text(name: str) -> str:
        return (tables_dir() / f"{name}.yaml").read_text(encoding="utf-8")

    ok(runner, "map", "load", str(brine))
    folder = tmp_path / "house"
    folder.mkdir()
    climates = bundled_table_text("climates").replace("      winter:", "      midwinter:", 1)
    (folder / "climates.yaml").write_text(climates, encoding="utf-8")
    before = db_contents(db)
    out = refused(runner, "tables", "load", str(folder))
    assert (
        "region north: the temperate climate has no row for the calendar's season 'winter'" in out
    )
    assert db_contents(db) == before
    (folder / "climates.yaml").unlink()
    encounters = bundled_table_text("encounters").replace(
        "regions:\n  all:",
        "regions:\n  nrth:\n    open sea:\n      results:\n"
        "        - {faces: [1, 6], value: {kind: sight}}\n  all:",
        1,
    )
    (folder / "encounters.yaml").write_text(encounters, encoding="utf-8")
    result = runner.invoke(cli_group(), ["tables", "load", str(folder)])
    assert result.exit_code == 0, result.output
    warning = (
        "Warning: the encounter table's region 'nrth' is not a region of The Brine "
        "Isles (north): it is never rolled (a region it does not list uses 'all', R93)"
    )
    assert result.stderr.strip() == warning
    result = runner.invoke(cli_group(), ["map", "load", str(brine)])
    assert result.exit_code == 0 and result.stderr.strip() == warning


def cli_group():
    from voyage.cli import cli

    return cli


def test_a_campaign_keeping_an_older_calendar_beyond_the_limits_still_opens(runner, tmp_path):
    """The limits are for new tables (init --tables, tables load): a campaign made before
    them, whose house calendars hold a 100,000-day month, opens and runs as it did; loading
    that table again is refused."""
    db = tmp_path / "c.db"
    house = _house(tmp_path)
    ok(runner, *_init_brine(db, house))
    huge = BRINE_CALENDARS.replace("days: 45,", "days: 100000,")
    camp = store.open_campaign(db)
    with camp.db.conn:
        camp.db.execute("UPDATE house_tables SET text = ? WHERE name = 'calendars'", [huge])
    camp.close()
    assert "1 Salt 3, 10:00" in ok(runner, "advance", "--db", str(db), "--hours", "10")
    (house / "calendars.yaml").write_text(huge, encoding="utf-8")
    assert "month Sunmoon has 100,000 days: give it at most 1,000" in refused(
        runner, "tables", "load", "--db", str(db), str(house)
    )


def test_a_sub_below_an_anchors_reach_meets_the_bottom_of_an_uncharted_coast(runner, db, brine):
    """As she cannot dive there, a sub sailing 250 ft down into an uncharted coastal hex
    meets its bottom (R84 with R65: 150 ft), as she would a charted bottom above her keel
    (R83: aground, stuck; a sandy bottom, so no ram). She sailed on through it, 250 ft under
    a harbour. At 100 ft she passes, as before."""
    ok(runner, "map", "load", str(brine))
    ok(runner, "settings", "encounter_interval", "0")
    _sub(runner, "0605", "Deep Eel", to="0802")
    _sub(runner, "0605", "Shallow Eel", to="0802")
    # the dive says where she will meet it, while she may still come up
    assert ok(runner, "act", "Deep Eel", "dive", "250").endswith(
        "(R84). Her route enters 0802, uncharted water within an anchor's 150 ft (R65), above "
        "her keel at 258 ft: she will meet the bottom there unless she comes up first (R83).\n"
    )
    assert "Her route" not in ok(runner, "act", "Shallow Eel", "dive", "100")
    out = ok(runner, "advance", "--hours", "3")
    assert (
        "Deep Eel: She meets the bottom in 150 ft of water over a sandy bottom; 250 ft down, "
        "her keel is at 258 ft (R83, R84): she runs aground and lies on it 142 ft down, stuck "
        "fast."
    ) in out
    # R84: she lies on the bottom, 150 ft less her 8 ft draft, never 250 ft down in 150 ft
    # stuck, she makes no way: speed 0, as `voyage status` gives it (not her 20 mph)
    assert "  Deep Eel: 0802, stuck, 142 ft down, speed 0 mph" in out
    assert "  Shallow Eel arrives at Easthaven (0802)." in out


# ------------------------------------------------------------- depths: an entry hidden whole


def test_a_depth_entry_a_later_one_hides_whole_is_refused_naming_both(runner, db, brine):
    """`"0504": 8` above a rectangle holding 0504 charted nothing: the later wins, and the
    8 ft were lost without a word. Partly overlapping sets, and the hex's own depth under
    hexes, stay as they were."""
    hidden = MAP.replace(
        'depths:\n  "0505": 40\n',
        'depths:\n  "0505": 40\n  the Shelf:\n    hexes: ["0404-0606"]\n    feet: 60\n',
    )
    brine.write_text(hidden, encoding="utf-8")
    out = refused(runner, "map", "load", str(brine))
    assert out == (
        f"Error: {brine}, line 24, column 3: depths '0505' (40 ft) is charted over by "
        "'the Shelf', listed after it (where entries overlap, the later wins): list it "
        "after, or give the hex its own depth under hexes (which wins over every entry)\n"
    )
    partly = hidden.replace('"0404-0606"', '"0404-0504", "0604-0606"')
    brine.write_text(partly, encoding="utf-8")
    ok(runner, "map", "load", str(brine))
    assert "depth: 40 ft" in ok(runner, "map", "hex", "0505")
    assert "depth: 60 ft" in ok(runner, "map", "hex", "0404")


def test_the_calendar_says_its_leap_rule_and_whether_this_year_has_it(runner, tmp_path):
    """`voyage calendar` listed Ashmoon's 45 days in year 3, a leap year of the house rule
    (every 3 years) in which it has 46, and said nothing of leap years."""
    leap = BRINE_CALENDARS + "    leap: {month: Sunmoon, every: 3}\n"
    db = str(tmp_path / "c.db")
    ok(runner, *_init_brine(db, _house(tmp_path, leap)))
    out = ok(runner, "calendar", "--db", db)
    assert out.endswith("Leap years: every 3 years, Sunmoon has a day more; year 3 is one.\n")
    assert json.loads(ok(runner, "calendar", "--db", db, "--json"))["calendar"]["leap"] == {
        "month": "Sunmoon",
        "every": 3,
        "skip_every": None,
        "keep_every": None,
        "this_year": True,
    }
    greg = str(tmp_path / "g.db")
    ok(runner, "init", "--db", greg, "--start", "1900-03-01")
    assert ok(runner, "calendar", "--db", greg).endswith(
        "Leap years: every 4 years (not every 100, but every 400), February has a day more; "
        "year 1900 is not.\n"
    )


def test_a_map_without_regions_is_told_how_to_map_the_calendars_seasons(runner, tmp_path, brine):
    db = str(tmp_path / "w.db")
    ok(runner, *_init_brine(db, _house(tmp_path)))
    brine.write_text(MAP.split("regions:")[0], encoding="utf-8")
    out = refused(runner, "map", "load", "--db", db, str(brine))
    assert "region sea: the temperate climate has no row for the calendar's season 'wet'" in out
    assert (
        "the map has no regions: block, so its whole sea is this one; give it one with "
        "season_names: {wet: spring, ...} (docs/maps.md)" in out
    )


def test_a_new_course_says_where_a_deep_sub_will_meet_the_bottom(runner, db, brine):
    ok(runner, "map", "load", str(brine))
    _sub(runner, "0605", to="0505")
    ok(runner, "act", "Eel", "dive", "250")
    out = ok(runner, "act", "Eel", "course", "--to", "0802")
    assert out.startswith(
        "Eel changes course at 0605 for 0802 (4 hexes). Her route enters "
        "0802, uncharted water within an anchor's 150 ft (R65), above her "
        "keel at 258 ft"
    )
    ok(runner, "act", "Eel", "surface")
    assert "Her route" not in ok(runner, "act", "Eel", "course", "--to", "0302")


def test_map_hex_gives_land_no_sea_state(runner, db, brine):
    ok(runner, "map", "load", str(brine))
    ok(runner, "weather", "storm", "0101", "0303", "--hours", "6")
    land = ok(runner, "map", "hex", "0101")
    assert land.startswith("0101: land\n") and "sea now" not in land
    assert "sea now (Day 1, 00:00): stormy seas" in ok(runner, "map", "hex", "0303")
