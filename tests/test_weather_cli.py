"""The weather commands (R60-R63): forecast, show, reroll, storms by hand, pictures; and
bad input: one line, nothing changed."""

from __future__ import annotations

import json

import pytest
from conftest import add_trawler, db_contents, hurricane, ok, refused

from voyage.base.errors import MapError
from voyage.map.seamap import parse_map


@pytest.fixture
def reach(runner, db):
    ok(runner, "map", "load", "salt_reach")
    return db


def at_sea(runner) -> None:
    add_trawler(runner, "0305", "Gull", crew=6, fuel=60)
    ok(runner, "sail", "Gull", "--to", "2812")


def days_of(runner, n: int = 7) -> dict[int, list]:
    data = json.loads(ok(runner, "weather", "forecast", "--days", str(n), "--json"))
    return {d["day"]: d["regions"] for d in data["days"]}


def test_forecast_advance_and_undo_agree_in_any_order(runner, reach) -> None:
    # R63: the weather is a function of (seed, region, day, rerolls): looking ahead,
    # advancing and undoing all see the same week
    ahead = days_of(runner)
    assert [r["region"] for r in ahead[1]] == ["north", "south"]
    at_sea(runner)
    ok(runner, "advance", "--hours", "30")
    later = days_of(runner)
    for day, regions in later.items():
        if day in ahead:
            assert regions == ahead[day]
    ok(runner, "undo")
    assert days_of(runner) == ahead


def test_forecast_text_and_plot(runner, reach, tmp_path) -> None:
    out = ok(runner, "weather", "forecast", "--days", "3")
    assert out.splitlines()[1].split()[:3] == ["day", "season", "region"]
    assert "Day 1  " in out and "north" in out and "south" in out
    picture = tmp_path / "week.png"
    out = ok(runner, "weather", "forecast", "--days", "7", "--plot", str(picture))
    assert picture.stat().st_size > 1000 and f"Wrote {picture}" in out


def test_a_calendar_campaign_reads_dates_and_seasons(runner, tmp_path, monkeypatch) -> None:
    # the season comes from the campaign's calendar (R61); --at takes its dates
    path = tmp_path / "dated.db"
    monkeypatch.setenv("VOYAGE_DB", str(path))
    ok(runner, "init", "--name", "Dated", "--seed", "7", "--start", "1492-06-01")
    ok(runner, "map", "load", "salt_reach")
    data = json.loads(ok(runner, "weather", "forecast", "--days", "2", "--json"))
    assert [d["date"] for d in data["days"]] == ["1 Jun 1492", "2 Jun 1492"]
    assert data["days"][0]["season"] == "summer"
    assert data["days"][0]["regions"][1]["roll"]["season_row"] == "dry"  # the map's mapping
    # the text names the row the 2d6 is read on where the region reads the season so (R61)
    lines = ok(runner, "weather", "forecast", "--days", "1").splitlines()
    assert [line.split()[3:6] for line in lines if " north " in line] == [["summer", "north", "10"]]
    assert [line.split()[3:6] for line in lines if " south " in line] == [
        ["summer", "(dry)", "south"]
    ]
    shown = json.loads(ok(runner, "weather", "show", "--at", "3 Jun 1492, 14:00", "--json"))
    assert shown["hour"] == 2 * 24 + 14 and shown["at"] == "3 Jun 1492, 14:00"
    assert "before the campaign began (1 Jun 1492)" in refused(
        runner, "weather", "show", "--at", "31 May 1492"
    )
    assert "June 1492 has 30 days" in refused(runner, "weather", "show", "--at", "31 Jun 1492")
    assert "--since '3 Jun 1492, 14:60': a minute runs" in refused(
        runner, "journal", "--since", "3 Jun 1492, 14:60"
    )
    assert "--until '31 Jun 1492': June 1492 has 30 days" in refused(
        runner, "journal", "--until", "31 Jun 1492"
    )


def test_show_before_six_says_the_days_roll_is_still_to_come(runner, reach) -> None:
    """R61: a day's weather is rolled at 06:00; at 03:00 `show` named it "today's roll" as
    if it blew already (its cells form at 06:00)."""
    early = ok(runner, "weather", "show", "--at", "day 2, 03:00")
    assert "today's roll (at 06:00, to come): " in early
    late = ok(runner, "weather", "show", "--at", "day 2, 06:00")
    assert "today's roll: " in late and "to come" not in late


def test_reroll_is_logged_and_undone(runner, reach) -> None:
    assert "has not been rolled yet" in refused(runner, "weather", "reroll", "1")
    at_sea(runner)
    ok(runner, "advance", "--hours", "7")
    before = days_of(runner, 1)[1]
    done = json.loads(ok(runner, "weather", "reroll", "1", "--region", "south", "--json"))
    assert [(d["region"], d["reroll"]) for d in done] == [("south", 1)]
    after = days_of(runner, 1)[1]
    assert after[0] == before[0]  # the north was not rerolled
    assert after[1]["roll"]["reroll"] == 1
    assert after[1]["roll"]["rolls"] == done[0]["now"]["rolls"]
    ok(runner, "undo")
    assert days_of(runner, 1)[1] == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("weather", "reroll", "3"), "day 3 has not been rolled yet"),
        (("weather", "reroll", "0"), "must be from 1 to 100000, not 0"),
        (("weather", "show", "--at", "day 0"), "before the campaign began"),
        (("weather", "show", "--at", "yesterday"), "--at 'yesterday'"),
        (("weather", "show", "--at", "day 2, 25:00"), "00 to 23"),
        # a minute past 59 is a typo, not the hour (it used to read as day 2, 14:00)
        (("weather", "show", "--at", "day 2, 14:61"), "a minute runs from 00 to 59"),
        (("weather", "show", "--at", "14:75"), "a minute runs from 00 to 59"),
        (("journal", "--since", "day 1, 03:60"), "--since 'day 1, 03:60': a minute"),
        (("map", "render", "--out", "x.png", "--at", "day 0"), "before the campaign began"),
        (("weather", "storm", "0906", "--hours", "3", "--moving", "W"), "not 'W'"),
        (("weather", "storm", "0906", "--hours", "3", "--state", "gale"), "gale"),
    ],
)
def test_bad_weather_input_is_one_line_and_changes_nothing(runner, reach, args, message) -> None:
    before = db_contents(reach)
    result = runner.invoke(__import__("voyage.cli", fromlist=["cli"]).cli, list(args))
    assert result.exit_code in (1, 2), result.output
    assert message in result.output
    if result.exit_code == 1:
        assert result.output.count("\n") == 1
    assert db_contents(reach) == before


def test_unknown_region_in_a_reroll(runner, reach) -> None:
    at_sea(runner)
    ok(runner, "advance", "--hours", "7")
    before = db_contents(reach)
    assert "no region 'west'" in refused(runner, "weather", "reroll", "1", "--region", "west")
    assert db_contents(reach) == before


def test_a_moving_storm_of_a_given_state(runner, reach) -> None:
    ok(runner, "settings", "rolled_weather", "false")
    made = json.loads(
        ok(
            runner,
            "weather",
            "storm",
            "--around",
            "1510",
            "--radius",
            "1",
            "--hours",
            "12",
            "--state",
            "major",
            "--moving",
            "se",
            "--every",
            "2",
            "--json",
        )
    )
    assert made["state"] == "major" and made["moving"] == "SE" and made["every"] == 2
    now = json.loads(ok(runner, "weather", "show", "--json"))
    assert now["hexes"]["major"] and "1510" in now["hexes"]["major"]
    # four hours on: two hexes south-east (1510 -> 1611 -> 1711)
    later = json.loads(ok(runner, "weather", "show", "--at", "+4h", "--json"))
    assert "1711" in later["hexes"]["major"] and "1510" not in later["hexes"]["major"]
    assert later["storms"][0]["moving"] == "SE"
    gone = json.loads(ok(runner, "weather", "show", "--at", "+12h", "--json"))
    assert not any(gone["hexes"].values())
    text = ok(runner, "map", "hex", "1510")
    assert "sea now (Day 1, 00:00): major storm" in text and "region: north (temperate)" in text


def test_map_render_at_an_hour(runner, reach, tmp_path) -> None:
    out = tmp_path / "sea.png"
    hurricane(runner, "1714", radius=2, hours=6)
    ok(
        runner,
        "map",
        "render",
        "--out",
        str(out),
        "--at",
        "day 1, 02:00",
        "--around",
        "1714",
        "--radius",
        "4",
    )
    assert out.stat().st_size > 1000


# ----------------------------------------------------------------------------- regions

REGION_MAP = """\
rows: |
  ~~~~
  ~~#~
  ~~~~
{extra}
"""


def regions_of(extra: str):
    return parse_map(REGION_MAP.format(extra=extra), "r.yaml").weather_regions()


def test_regions_by_ranges_and_by_a_drawing() -> None:
    by_range = regions_of(
        'regions:\n  top: {climate: temperate, hexes: ["0101-0401"]}\n'
        '  rest: {climate: tropical, hexes: ["0102-0403"]}'
    )
    assert by_range["top"].hexes == {"0101", "0201", "0301", "0401"}
    assert by_range["rest"].climate == "tropical" and "0302" in by_range["rest"].hexes
    drawn = regions_of(
        "region_rows: |\n  NNSS\n  NN.S\n  NNSS\n"
        "regions:\n  n: {climate: temperate, char: N}\n  s: {climate: tropical, char: S}"
    )
    assert drawn["s"].hexes == {"0301", "0401", "0402", "0303", "0403"}
    assert drawn["n"].open_sea and set(drawn["n"].open_sea) <= drawn["n"].hexes


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            'regions:\n  a: {climate: temperate, hexes: ["0101-0403"]}\n'
            '  b: {climate: temperate, hexes: ["0101"]}',
            "in two regions",
        ),
        (
            'regions:\n  a: {climate: temperate, hexes: ["0101-0402"]}',
            "sea hex 0103 is in no region",
        ),
        ('regions:\n  a: {hexes: ["0101-0403"]}', "needs a climate"),
        ('regions:\n  a: {climate: temperate, hexes: ["0101-0505"]}', "off the map"),
        ('regions:\n  a: {climate: temperate, hexes: ["0403-0101"]}', "runs backwards"),
        (
            'regions:\n  a: {climate: temperate, hexes: ["0101-0403"], wind: N}',
            "unknown key 'wind'",
        ),
        (
            "region_rows: |\n  NNNN\n  NNNN\n  NNNX\nregions:\n  a: {climate: temperate, char: N}",
            "unknown character 'X'",
        ),
    ],
)
def test_bad_regions_are_one_line_with_the_place(extra, message) -> None:
    with pytest.raises(MapError) as err:
        regions_of(extra)
    assert (
        message in str(err.value)
        and str(err.value).startswith("r.yaml")
        and "\n" not in str(err.value)
    )


def test_a_map_with_an_unknown_climate_is_refused_and_nothing_changes(runner, db, tmp_path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(
        REGION_MAP.format(extra='regions:\n  a: {climate: arctic, hexes: ["0101-0403"]}')
    )
    before = db_contents(db)
    assert "unknown climate 'arctic'" in refused(runner, "map", "load", str(path))
    assert db_contents(db) == before


def test_a_campaign_may_bring_its_own_climates(runner, tmp_path, monkeypatch) -> None:
    # R61 overridable per campaign: a house climates.yaml (here: every temperate winter day
    # a hurricane) is copied into the campaign and rolled on
    from voyage.base.paths import tables_dir

    house = tmp_path / "house"
    house.mkdir()
    text = (tables_dir() / "climates.yaml").read_text()
    winter = text.index("      winter:")
    end = text.index("  tropical:")
    text = (
        text[:winter] + "      winter:\n        - {faces: [2, 12], value: hurricane}\n" + text[end:]
    )
    (house / "climates.yaml").write_text(text)
    monkeypatch.setenv("VOYAGE_DB", str(tmp_path / "house.db"))
    ok(runner, "init", "--name", "Stormy", "--seed", "3", "--tables", str(house))
    ok(runner, "map", "load", "salt_reach")
    data = json.loads(ok(runner, "weather", "forecast", "--days", "3", "--json"))
    north = [d["regions"][0]["roll"] for d in data["days"]]
    assert [r["weather"] for r in north] == ["hurricane"] * 3
    assert all(c["radius"] in (2, 3, 4) for c in data["cells"] if c["region"] == "north")
