"""The map and weather commands through click's CliRunner, on a temporary campaign."""

from __future__ import annotations

import json
import sqlite3
import textwrap

from PIL import Image

from voyage.base.paths import campaigns_dir
from voyage.cli import cli
from voyage.map import hexes as hexmap
from voyage.map.storms import group_storms, is_storm, storm_rows, storms_at

SALT_REACH = str(campaigns_dir() / "salt_reach")


def run(runner, *args):
    return runner.invoke(cli, list(args), catch_exceptions=False)


def loaded(runner, db):
    result = run(runner, "map", "load", SALT_REACH)
    assert result.exit_code == 0, result.output
    return db


def place_ship(db, name, hex_name):
    """Put a ship at a hex directly (the voyage commands that move ships live elsewhere)."""
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO ships (name, class, tier, engine_tier, traits, equipment, status, hex,"
            " created) VALUES (?, 'motorboat', 2, 3, '[]', '{}', 'in port', ?, 0)",
            [name, hex_name],
        )


def set_clock(db, hour):
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE campaign SET clock = ? WHERE id = 1", [hour])


# ----------------------------------------------------------------------------- map load


def test_load_campaign_folder(runner, db):
    result = run(runner, "map", "load", SALT_REACH, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["name"] == "The Salt Reach" and (data["width"], data["height"]) == (36, 24)
    assert {"hex": "0305", "port": "Gullhaven"} in data["ports"]


def test_load_bundled_campaign_by_name(runner, db):
    result = run(runner, "map", "load", "salt_reach")
    assert result.exit_code == 0, result.output
    assert "Loaded The Salt Reach: 36 x 24 hexes, 7 ports" in result.output


def test_bad_map_changes_nothing(runner, db, tmp_path):
    loaded(runner, db)
    bad = tmp_path / "bad.yaml"
    bad.write_text("rows: |\n  ~~~\n  ~~\n")
    result = run(runner, "map", "load", str(bad))
    assert result.exit_code == 1
    assert "line 3, column 5" in result.output and "ragged" in result.output
    assert result.output.count("\n") == 1  # one line, no traceback
    shown = run(runner, "map", "hex", "0305", "--json")
    assert json.loads(shown.output)["port"] == "Gullhaven"  # the old map is still there


def test_load_then_undo_removes_the_map(runner, db, tmp_path):
    small = tmp_path / "small.yaml"
    small.write_text(
        textwrap.dedent("""\
        name: Pond
        rows: |
          ~~#
          ~P#
        hexes:
          "0202": {port: Dock}
        """)
    )
    loaded(runner, db)
    assert run(runner, "map", "load", str(small)).exit_code == 0
    assert json.loads(run(runner, "map", "hex", "0202", "--json").output)["port"] == "Dock"
    assert run(runner, "undo").exit_code == 0
    back = json.loads(run(runner, "map", "hex", "0305", "--json").output)
    assert back["port"] == "Gullhaven"
    assert run(runner, "undo").exit_code == 0
    result = run(runner, "map", "show")
    assert result.exit_code == 1 and "no map loaded" in result.output


# ----------------------------------------------------------------------------- show, hex, render


def test_show_marks_ships_and_storms(runner, db):
    loaded(runner, db)
    place_ship(db, "Gull", "0406")
    run(runner, "weather", "storm", "0506", "--hours", "6")
    result = run(runner, "map", "show", "--around", "0305", "--radius", "2")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "The Salt Reach (Day 1, 00:00)"
    row6 = next(line for line in lines if line.startswith("06 "))
    # Columns 1-5 are shown (0305 +- 2); 0406 is the ship, 0506 the storm.
    assert row6[3 + 3] == "1" and row6[3 + 4] == "!"
    assert "  1  Gull (0406)" in lines and "  !  storm" in lines
    assert "  0305  Gullhaven, fuel 2/hlb (600 of 600 hlbs left)" in lines


def test_show_whole_map_has_every_row(runner, db):
    loaded(runner, db)
    lines = run(runner, "map", "show").output.splitlines()
    assert sum(1 for line in lines if line[:2].isdigit() and line[2] == " ") == 24
    assert lines[7].startswith("05 ##P~~~")


def test_hex_says_what_is_there(runner, db):
    loaded(runner, db)
    place_ship(db, "Gull", "0305")
    result = run(runner, "map", "hex", "0305")
    assert result.exit_code == 0, result.output
    assert "0305: port" in result.output
    assert "port: Gullhaven, fuel 2 per hlb (600 of 600 hlbs left)" in result.output
    assert "coastal: yes" in result.output and "ships here: Gull" in result.output
    needle = json.loads(run(runner, "map", "hex", "3118", "--json").output)
    assert needle["narrow_passage"] is True and needle["seabed"] == "rocky"
    assert needle["label"] == "The Needle" and needle["storm"] is False


def test_hex_errors_are_one_line(runner, db):
    loaded(runner, db)
    result = run(runner, "map", "hex", "12A4")
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: hex '12A4' is not a CCRR name: write 4 digits, column then row, e.g. 0812"
    )
    result = run(runner, "map", "hex", "4040")
    assert result.exit_code == 1 and "off the map" in result.output


def test_render_writes_only_the_given_path(runner, db, tmp_path):
    loaded(runner, db)
    place_ship(db, "Gull", "0305")
    out_dir = tmp_path / "pictures"
    out_dir.mkdir()
    out = out_dir / "reach.png"
    result = run(runner, "map", "render", "--out", str(out), "--labels")
    assert result.exit_code == 0, result.output
    assert out.is_file() and list(out_dir.iterdir()) == [out]
    with Image.open(out) as image:
        assert image.format == "PNG" and image.size[0] > 600
    part = out_dir / "part.png"
    result = run(runner, "map", "render", "--out", str(part), "--around", "1510", "--radius", "2")
    assert result.exit_code == 0, result.output
    with Image.open(part) as small, Image.open(out) as big:
        assert small.size[0] * small.size[1] < big.size[0] * big.size[1]
    result = run(runner, "map", "render", "--out", str(tmp_path / "nowhere" / "x.png"))
    assert result.exit_code == 1 and "does not exist" in result.output


# ----------------------------------------------------------------------------- weather


def test_storm_around_and_list(runner, db):
    loaded(runner, db)
    set_clock(db, 30)
    result = run(runner, "weather", "storm", "--around", "1010", "--radius", "2", "--hours", "24")
    assert result.exit_code == 0, result.output
    assert "Storm 1 (stormy seas) over" in result.output
    assert "from Day 2, 06:00 to Day 3, 06:00" in result.output
    data = json.loads(run(runner, "weather", "list", "--json").output)
    assert data["hour"] == 30
    (storm,) = data["storms"]
    assert set(storm["hexes"]) == set(hexmap.within("1010", 2))
    assert storm["source"] == "referee" and storm["status"] == "blowing"
    assert (storm["start_hour"], storm["end_hour"]) == (30, 54)


def test_storm_hexes_and_status_over_time(runner, db):
    loaded(runner, db)
    result = run(runner, "weather", "storm", "0304", "0305", "--hours", "12", "--note", "squall")
    assert result.exit_code == 0, result.output
    set_clock(db, 12)
    data = json.loads(run(runner, "weather", "list", "--json").output)
    assert data["storms"][0]["status"] == "over" and data["storms"][0]["note"] == "squall"
    assert json.loads(run(runner, "map", "hex", "0305", "--json").output)["storm"] is False
    set_clock(db, 11)
    assert json.loads(run(runner, "map", "hex", "0305", "--json").output)["storm"] is True


def test_storm_validation(runner, db):
    loaded(runner, db)
    result = run(runner, "weather", "storm", "9999", "--hours", "3")
    assert result.exit_code == 1 and "off the map" in result.output
    result = run(runner, "weather", "storm", "--hours", "3")
    assert result.exit_code == 2 and "name the hexes" in result.output
    result = run(runner, "weather", "storm", "--around", "1010", "--hours", "3")
    assert result.exit_code == 1 and "both" in result.output
    result = run(runner, "weather", "storm", "0101", "--hours", "0")
    assert result.exit_code == 2
    assert json.loads(run(runner, "weather", "list", "--json").output)["storms"] == []


def test_clear_one_all_and_undo(runner, db):
    loaded(runner, db)
    run(runner, "weather", "storm", "0404", "--hours", "5")
    run(runner, "weather", "storm", "1010", "1011", "--hours", "5")
    result = run(runner, "weather", "clear", "1")
    assert result.exit_code == 0 and "Cleared storm 1 (1 hex)" in result.output
    storms = json.loads(run(runner, "weather", "list", "--json").output)["storms"]
    assert [s["storm"] for s in storms] == [2]
    result = run(runner, "weather", "clear", "7")
    assert result.exit_code == 1 and "no storm 7 (storms: 2)" in result.output
    assert run(runner, "weather", "clear", "--all").exit_code == 0
    assert "No storms" in run(runner, "weather", "list").output
    assert run(runner, "undo").exit_code == 0  # the clear is undone: storm 2 is back
    storms = json.loads(run(runner, "weather", "list", "--json").output)["storms"]
    assert [s["storm"] for s in storms] == [2]
    result = run(runner, "weather", "clear")
    assert result.exit_code == 1 and "--all" in result.output


def test_storms_at_reads_a_campaign_db(runner, db):
    from voyage.store.campaign import open_campaign
    from voyage.store.mapstore import all_storm_rows, storm_rows_at

    loaded(runner, db)
    run(runner, "weather", "storm", "0404", "--hours", "5")
    camp = open_campaign(db)
    try:
        assert storms_at(storm_rows_at(camp, 0), 0) == {"0404"}
        assert storms_at(storm_rows_at(camp, 4), 4) == {"0404"}
        assert storms_at(storm_rows_at(camp, 5), 5) == set()
        assert storms_at(list(all_storm_rows(camp)), 5) == set()
        assert is_storm(list(all_storm_rows(camp)), "0404", 2)
        assert not is_storm(list(all_storm_rows(camp)), "0305", 2)
    finally:
        camp.close()


def test_storms_at_pure_rows():
    rows = storm_rows(1, ["0304", "0305"], 10, 6) + storm_rows(2, ["0101"], 14, 2)
    assert storms_at(rows, 9) == set()
    assert storms_at(rows, 10) == {"0304", "0305"}
    assert storms_at(rows, 15) == {"0304", "0305", "0101"}
    assert storms_at(rows, 16) == set()
    assert is_storm(rows, "0101", 14) and not is_storm(rows, "0101", 16)
    grouped = group_storms(rows)
    assert [(g["storm"], g["hexes"]) for g in grouped] == [(1, ["0304", "0305"]), (2, ["0101"])]


def test_help_of_every_map_and_weather_command_has_an_example(runner):
    for group in ("map", "weather"):
        top = run(runner, group, "--help")
        assert "Example" in top.output
        for name in cli.get_command(None, group).commands:  # type: ignore[union-attr]
            result = run(runner, group, name, "--help")
            assert result.exit_code == 0 and "Example" in result.output, (group, name)


def test_load_unknown_names_say_what_exists(runner, db):
    result = run(runner, "map", "load", "salt_rech")
    assert result.exit_code == 1
    assert "no bundled campaign 'salt_rech' (there are: salt_reach)" in result.output
    result = run(runner, "map", "load", "maps/nowhere.yaml")
    assert result.exit_code == 1 and "no such map file or campaign folder" in result.output


def test_show_area_errors_print_nothing_else(runner, db):
    loaded(runner, db)
    result = run(runner, "map", "show", "--radius", "2")
    assert result.exit_code == 1 and result.output == (
        "Error: give both --around HEX and --radius N, or neither\n"
    )
    result = run(runner, "map", "show", "--around", "9999", "--radius", "1")
    assert result.output == "Error: hex 9999 is off the map (0101 to 3624)\n"


def test_map_show_json_lists_ships_and_storms(tmp_path):
    from click.testing import CliRunner

    from voyage.cli import cli

    db = str(tmp_path / "c.db")
    runner = CliRunner()
    for args in (
        ["init", "--seed", "1"],
        ["map", "load", "salt_reach"],
        ["ship", "add", "Gull", "--class", "dinghy", "--tier", "1"],
        ["ship", "place", "Gull", "0305"],
        ["weather", "storm", "1510", "--hours", "5"],
    ):
        assert runner.invoke(cli, [*args, "--db", db]).exit_code == 0
    result = runner.invoke(cli, ["map", "show", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ships"] == [{"name": "Gull", "hex": "0305"}]
    assert data["storms"] == ["1510"] and data["width"] == 36 and data["height"] == 24
    assert len(data["lines"]) > 24


def test_map_render_draws_open_voyage_tracks(tmp_path):
    from click.testing import CliRunner

    from voyage.cli import cli
    from voyage.store.campaign import open_campaign
    from voyage.store.voyagelog import voyage_tracks

    db = str(tmp_path / "c.db")
    runner = CliRunner()
    for args in (
        ["init", "--seed", "1"],
        ["map", "load", "salt_reach"],
        ["ship", "add", "Gull", "--class", "motorboat", "--tier", "2", "--engine", "4"],
        ["ship", "load", "Gull", "--crew", "2", "--fuel", "30"],
        ["ship", "place", "Gull", "0305"],
        ["sail", "Gull", "--to", "0909"],
        ["advance", "--hours", "6"],
    ):
        result = runner.invoke(cli, [*args, "--db", db])
        assert result.exit_code == 0, (args, result.output)
    camp = open_campaign(db)
    tracks = voyage_tracks(camp)
    assert len(tracks) == 1 and tracks[0][0] == "voyage 1 of Gull"
    assert tracks[0][1][0] == "0305" and len(tracks[0][1]) >= 2
    assert voyage_tracks(camp, "none") == []
    out = tmp_path / "m.png"
    result = runner.invoke(cli, ["map", "render", "--db", db, "--out", str(out)])
    assert result.exit_code == 0 and out.stat().st_size > 0
