"""What a referee shares with players:
the CSV export and the journal tell players only what the players' Markdown tells them."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from conftest import FIGHT_SCRIPT, db_contents, fight_scene, ok, refused


def _csv(runner, tmp_path: Path, name: str, *args: str) -> list[dict[str, str]]:
    out = tmp_path / name
    ok(runner, "export", "Sea Witch", "-f", "csv", "--out", str(out), *args)
    return list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))


def test_the_players_csv_tells_what_the_players_log_tells(
    runner, sailed: Path, tmp_path: Path
) -> None:
    # `--for players` is the default: the CSV wrote every routine check and ruling code
    # ("The shallows are clear.", "(R33)") whatever --for said
    players = _csv(runner, tmp_path, "players.csv")
    referee = _csv(runner, tmp_path, "referee.csv", "--for", "referee")
    assert len(players) == len(referee) == 30  # the same hours
    said = " ".join(r["event_text"] for r in players)
    told = " ".join(r["event_text"] for r in referee)
    assert "The shallows are clear." in told and "The shallows are clear." not in said
    assert "sets sail" in said
    assert not re.search(r"\bR\d+\b", said)
    assert sum(int(r["events"]) for r in players) < sum(int(r["events"]) for r in referee)
    assert all((r["events"] == "0") == (r["event_text"] == "") for r in players)
    # the same numbers as the hours: only the words differ
    keep = ("clock", "time", "hex", "fuel", "status")
    assert [[r[k] for k in keep] for r in players] == [[r[k] for k in keep] for r in referee]


def test_a_players_json_is_the_players_log_and_the_plain_json_the_referees(
    runner, sailed: Path, tmp_path: Path
) -> None:
    # asked for `--for players`, the JSON tells what the players' log tells (no rolls, no
    # rulings, no routine lines), valid by the schema; without it the JSON keeps every roll
    # (R4), the referee's whole record
    from click.testing import CliRunner

    from voyage.cli import cli
    from voyage.outputs.exportjson import validate

    out = tmp_path / "witch.json"
    result = CliRunner().invoke(
        cli,
        ["export", "Sea Witch", "-f", "json", "--for", "players", "--out", str(out)],
        env={"VOYAGE_DB": str(sailed)},
    )
    assert result.exit_code == 0, result.output
    told = json.loads(out.read_text(encoding="utf-8"))
    validate(told)
    assert told["events"] and not any(e["rolls"] for e in told["events"])
    assert told["summary"]["rolls"] == 0
    assert not any("(R" in e["text"] for e in told["events"])
    whole = tmp_path / "b.json"
    plain = CliRunner().invoke(
        cli,
        ["export", "Sea Witch", "-f", "json", "--out", str(whole)],
        env={"VOYAGE_DB": str(sailed)},
    )
    assert plain.exit_code == 0 and "Note" not in plain.stderr
    record = json.loads(whole.read_text(encoding="utf-8"))
    assert any(e["rolls"] for e in record["events"])
    assert len(record["events"]) > len(told["events"])


def test_a_journal_for_one_ships_players_tells_nothing_of_the_others(
    runner, sailed: Path, tmp_path: Path
) -> None:
    # the journal told every ship's story, with no way to leave out the ships the players
    # have not met (a rival's course, her troubles): --ship names the ships to tell
    ok(runner, "ship", "add", "Black Gull", "--class", "motorboat", "--tier", "3", "--engine", "4")
    ok(runner, "ship", "load", "Black Gull", "--crew", "3", "--fuel", "30")
    ok(runner, "ship", "place", "Black Gull", "2812")
    ok(runner, "sail", "Black Gull", "--to", "1510")
    ok(runner, "advance", "--hours", "3")
    before = db_contents(sailed)
    everyone = ok(runner, "journal", "--since", "day 1")
    assert "Black Gull" in everyone and "Sea Witch" in everyone
    ours = ok(runner, "journal", "--since", "day 1", "--ship", "sea witch")  # any case
    assert "Sea Witch sets sail" in ours and "Black Gull" not in ours
    data = json.loads(
        ok(
            runner,
            "journal",
            "--since",
            "day 1",
            "--ship",
            "Sea Witch",
            "--for",
            "referee",
            "-f",
            "json",
        )
    )
    assert {e["ship"] for day in data["days"] for e in day["entries"]} == {"Sea Witch"}
    both = ok(runner, "journal", "--since", "day 1", "--ship", "Sea Witch", "--ship", "Black Gull")
    assert both == everyone
    assert "no ship named 'Grey Lady'" in refused(runner, "journal", "--ship", "Grey Lady")
    assert db_contents(sailed) == before


def test_times_are_asked_for_in_the_campaigns_own_calendar(runner, tmp_path: Path) -> None:
    # a Reckoning campaign was told "a date like '12 Jun 1492, 14:00'", a date its calendar
    # refuses (no month 'Jun'): the example is now, in its own calendar
    grey = ("--db", str(tmp_path / "grey.db"))
    ok(
        runner,
        "init",
        *grey,
        "--name",
        "Grey Wake",
        "--seed",
        "11",
        "--start",
        "1 Highsun 1042",
        "--calendar",
        "reckoning",
    )
    ok(runner, "advance", *grey, "--hours", "30")
    line = refused(runner, "journal", *grey, "--since", "yesterday")
    assert "a date like '2 Highsun 1042, 06:00'" in line and "Jun" not in line
    # the example works as written
    ok(runner, "journal", *grey, "--since", "2 Highsun 1042, 06:00")


def test_a_journal_since_hours_back_from_now(runner, sailed: Path) -> None:
    # "the last 6 hours": '-6h' was refused though '+0h' (now) was taken
    assert ok(runner, "journal", "--since", "-6h") == ok(
        runner, "journal", "--since", "day 2, 00:00"
    )
    assert "*Day 1, 06:00 to Day 2, 06:00*" in ok(runner, "journal", "--since", "-1d")
    assert "before the campaign began" in refused(runner, "journal", "--since", "-2d")
    assert "before the campaign began" in refused(runner, "weather", "show", "--at", "-31h")


def test_the_logs_ship_card_says_it_is_as_she_set_sail(
    runner, sailed: Path, tmp_path: Path
) -> None:
    # the card under "The ship" is her figures as she set sail: its "Status: in port at
    # 0305" read as her state now in a log of a ship aground or sunk
    out = tmp_path / "log.md"
    ok(runner, "export", "Sea Witch", "--out", str(out))
    card = out.read_text(encoding="utf-8").split("## The ship")[1].split("## Summary")[0]
    assert "Status:" not in card and "in port" not in card
    assert "- As she set sail from Gullhaven (0305), Day 1, 00:00" in card


def test_history_and_undo_name_the_ships_rolled(runner, db: Path) -> None:
    # a newcomer rolling six ships read "roll 1 ship" six times in `voyage history`
    ok(runner, "ship", "roll", "--class", "trawler", "--name", "Sea Witch", "--no-rolls")
    ok(runner, "ship", "roll", "--class", "dinghy", "--count", "2", "--name", "Gull", "--no-rolls")
    rows = json.loads(ok(runner, "history", "--json"))
    assert [r["summary"] for r in rows[:2]] == [
        "roll 2 ships: Gull I (Dinghy), Gull II (Dinghy)",
        "roll 1 ship: Sea Witch (Fishing Trawler)",
    ]
    assert "Undone: ship roll: roll 2 ships: Gull I (Dinghy), Gull II (Dinghy)" in ok(
        runner, "undo"
    )


def test_a_roll_for_a_ship_says_where_it_is_kept(runner, sailed: Path) -> None:
    # "kept in its log" sent the referee to `voyage log`, where a roll without --apply is not
    said = ok(runner, "roll", "capsize", "Sea Witch", "--storm")
    assert "kept in its log" not in said and "`voyage history`" in said
    assert "capsize check (storm)" not in ok(runner, "log", "Sea Witch")
    assert "roll capsize for Sea Witch" in ok(runner, "history", "--limit", "1")


def test_a_port_is_named_where_a_hex_is_asked(runner, db: Path) -> None:
    # the map names its ports and a newcomer types them: "hex 'Ironport' is not a CCRR name"
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Sea Witch", "--class", "trawler", "--tier", "4", "--engine", "3")
    ok(runner, "ship", "load", "Sea Witch", "--crew", "6", "--fuel", "40", "--cargo", "100")
    assert ok(runner, "ship", "place", "Sea Witch", "gullhaven").strip() == (
        "Sea Witch is at Gullhaven (0305)."
    )
    assert json.loads(ok(runner, "map", "hex", "Ironport", "--json"))["hex"] == "2812"
    by_name = json.loads(ok(runner, "sail", "Sea Witch", "--to", "Ironport", "--json"))
    assert by_name["route"][-1] == "2812"
    ok(runner, "undo")
    by_hex = json.loads(ok(runner, "sail", "Sea Witch", "--to", "2812", "--json"))
    assert by_name["route"] == by_hex["route"]
    line = refused(runner, "act", "Sea Witch", "course", "--to", "Atlantis")
    assert "'Atlantis' is neither a CCRR hex name nor a port of The Salt Reach" in line
    assert "Ironport (2812)" in line and "e.g. 0812" in line
    ok(runner, "advance", "--hours", "2")
    assert "2812" in ok(runner, "act", "Sea Witch", "course", "--to", "IRONPORT")
    # a malformed hex is still refused in the hex's own words
    assert "is not a CCRR name" in refused(runner, "map", "hex", "28123")


def test_players_read_a_fight_in_the_sea_s_words_wherever_it_is_told(
    runner, db: Path, tmp_path: Path
) -> None:
    # R94: the export's fight story told players "takes the blow"; the days above it, the
    # journal and the CSV told them "hit by an Explosion (0/1/1 yd) with a modifier of +3,
    # in its lethal zone" and each round's order
    fight_scene(runner)
    for step in FIGHT_SCRIPT:
        ok(runner, *step)
    ok(runner, "advance", "--hours", "1")  # the fight's hour gets its row (the CSV's)
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    assert "with a modifier of" in referee and "Round 1: order" in referee
    log = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--out", str(log))
    days = log.read_text(encoding="utf-8").split("## The fight")[0]
    told = [
        ok(runner, "journal", "--since", "day 1"),
        days,
        " ".join(r["event_text"] for r in _csv(runner, tmp_path, "witch.csv")),
    ]
    for text in told:
        assert "takes the shock of" in text and " ram" in text
        for secret in (
            "Explosion",
            "modifier of",
            "lethal zone",
            "0/1/1 yd",
            "Round 1: order",
            "(R",
        ):
            assert secret not in text, (secret, text)
    assert "A fight begins at Gullhaven (0305)" in told[0]
    assert "A fight begins at Gullhaven (0305)" in told[1]


def test_a_journals_json_says_its_stretch_in_the_campaigns_time(runner, sailed: Path) -> None:
    # "since": 0, "until": 30 were campaign hours only; every other time is written out
    data = json.loads(ok(runner, "journal", "--since", "day 1", "-f", "json"))
    assert (data["since"], data["until"]) == (0, 30)
    assert (data["since_time"], data["until_time"]) == ("Day 1, 00:00", "Day 2, 06:00")


def test_completion_offers_ports_by_name_where_a_name_is_typed(tmp_path: Path) -> None:
    # a port's name is taken where a hex is asked: typing one completes it too
    from click.testing import CliRunner
    from test_cli_conventions import _complete

    from voyage.cli import cli

    db = str(tmp_path / "c.db")
    for args in (
        ["init", "--seed", "1"],
        ["map", "load", "salt_reach"],
        ["ship", "add", "Gull", "--class", "dinghy", "--tier", "1"],
    ):
        assert CliRunner().invoke(cli, [*args, "--db", db]).exit_code == 0
    env = {"VOYAGE_DB": db}
    assert _complete(["sail", "Gull", "--to"], "i", env) == ["Ironport"]
    assert _complete(["ship", "place", "Gull"], "S", env) == ["Silt Harbour", "Saltholm"]
    assert _complete(["journal", "--ship"], "g", env) == ["Gull"]


def test_the_players_log_does_not_send_them_to_the_rolls(
    runner, sailed: Path, tmp_path: Path
) -> None:
    # its last line read "Every roll is in the JSON export." for the players too
    ok(runner, "export", "Sea Witch", "--out", str(tmp_path / "p.md"))
    ok(
        runner,
        "export",
        "Sea Witch",
        "--for",
        "referee",
        "--rolls",
        "none",
        "--out",
        str(tmp_path / "r.md"),
    )
    assert "Every roll is in" not in (tmp_path / "p.md").read_text(encoding="utf-8")
    assert "Every roll is in the JSON export." in (tmp_path / "r.md").read_text(encoding="utf-8")


def test_advance_until_a_time(runner, tmp_path: Path) -> None:
    # a referee who plays "until 6 in the morning of the 3rd" had to count the hours
    cal = ("--db", str(tmp_path / "c.db"))
    ok(runner, "init", *cal, "--seed", "5", "--start", "1492-06-01")
    said = ok(runner, "advance", *cal, "--until", "3 Jun 1492, 06:00")
    assert "to 3 Jun 1492, 06:00." in said
    assert "to 3 Jun 1492, 18:00." in ok(runner, "advance", *cal, "--until", "+12h")
    assert "to 4 Jun 1492, 05:00" in ok(runner, "advance", *cal, "--until", "DAWN")
    before = db_contents(tmp_path / "c.db")
    assert "is not after now (4 Jun 1492, 05:00)" in refused(
        runner, "advance", *cal, "--until", "day 2"
    )
    assert "(--until takes arrival, event, dawn, dusk or a time)" in refused(
        runner, "advance", *cal, "--until", "teatime"
    )
    assert "at most a year" in refused(runner, "advance", *cal, "--until", "+400d")
    assert db_contents(tmp_path / "c.db") == before


def test_a_ship_just_rolled_is_on_no_hex_and_told_how_to_place_her(runner, db: Path) -> None:
    # "Status: in port" read as if she lay in some port; she is on no hex until placed
    card = ok(runner, "ship", "roll", "--class", "dinghy", "--name", "Gull", "--no-rolls")
    assert "Status: in port, not on the map yet (`voyage ship place` puts her in a port)" in card
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "place", "Gull", "0305")
    shown = ok(runner, "ship", "show", "Gull")
    assert "Status: in port at Gullhaven (0305)" in shown and "not on the map" not in shown


def test_a_weather_reroll_is_told_on_the_campaigns_date(runner, tmp_path: Path) -> None:
    # "Day 1, south: was ..." in a campaign whose every other time reads "1 Jun 1492"
    cal = ("--db", str(tmp_path / "c.db"))
    ok(runner, "init", *cal, "--seed", "5", "--start", "1492-06-01")
    ok(runner, "map", "load", *cal, "salt_reach")
    ok(runner, "advance", *cal, "--hours", "7")
    said = ok(runner, "weather", "reroll", *cal, "1", "--region", "south")
    assert said.startswith("1 Jun 1492, south: was ") and "Day 1" not in said


def test_players_read_ports_by_their_names(runner, sailed: Path, tmp_path: Path) -> None:
    # "sets sail from 0305 for 2812": players know Gullhaven and Ironport, not hex numbers
    from voyage.outputs.chronicle import name_places

    journal = ok(runner, "journal", "--since", "day 1")
    assert "sets sail from Gullhaven (0305) for Ironport (2812) inshore" in journal
    log = tmp_path / "p.md"
    ok(runner, "export", "Sea Witch", "--out", str(log))
    assert "from Gullhaven (0305) for Ironport (2812)" in log.read_text(encoding="utf-8")
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    # the referee's journal names them too (the stored event keeps the bare hexes:
    # tests/test_referee_port_names.py)
    assert "sets sail from Gullhaven (0305) for Ironport (2812) inshore" in referee
    places = {"0305": "Gullhaven", "1492": "Year Port"}
    assert name_places(
        "at 0305; arrives at Gullhaven (0305) on 3 Jun 1492, 06:00; Encounter at 0806", places
    ) == (
        "at Gullhaven (0305); arrives at Gullhaven (0305) on 3 Jun 1492, 06:00; Encounter at 0806"
    )


def test_players_do_not_read_the_referees_weather_rerolls(runner, tmp_path: Path) -> None:
    # R63: "Weather of day 1 in south rerolled: was ...; now ... (16 h, drifts NE every 6 h)"
    # told players of the referee's reroll and where the storm would go
    cal = ("--db", str(tmp_path / "c.db"))
    ok(runner, "init", *cal, "--seed", "5", "--start", "1492-06-01")
    ok(runner, "map", "load", *cal, "salt_reach")
    ok(runner, "advance", *cal, "--hours", "7")
    ok(runner, "weather", "reroll", *cal, "1", "--region", "south")
    referee = ok(runner, "journal", *cal, "--since", "day 1", "--for", "referee")
    assert "Weather of 1 Jun 1492 in south rerolled (R63): was " in referee
    assert "rerolled" not in ok(runner, "journal", *cal, "--since", "day 1")


def test_a_days_line_names_the_port_she_left(runner, sailed: Path, tmp_path: Path) -> None:
    # "24 hours at sea, 96 miles, from hex 0305 to hex 1108": hex 0305 is Gullhaven
    log = tmp_path / "p.md"
    ok(runner, "export", "Sea Witch", "--out", str(log))
    day1 = log.read_text(encoding="utf-8").split("## Day 1")[1]
    assert re.search(r"miles, from Gullhaven \(0305\) to hex \d{4};", day1)
