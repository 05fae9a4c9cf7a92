"""What the referee's read-outs say at the table is true to the clock: with several ships,
an export and a journal between advances."""

from __future__ import annotations

from pathlib import Path

from conftest import ok


def test_the_export_day_line_tells_her_state_at_the_clock_not_an_hour_before(
    runner, eight_hours_out: Path, tmp_path: Path
) -> None:
    # an hour row's hex, fuel and status are those at the end of its hour: after 8 hours
    # the clock reads Day 1, 08:00 and so must the day line (it said 07:00)
    out = tmp_path / "sw.md"
    ok(runner, "export", "Sea Witch", "-f", "md", "--out", str(out))
    day_line = next(line for line in out.read_text().splitlines() if " at sea, " in line)
    assert day_line.startswith("8 hours at sea, "), day_line
    assert day_line.endswith("under way at Day 1, 08:00."), day_line
    assert "Day 1, 08:00" in ok(runner, "status")


def test_rolls_none_with_json_says_it_keeps_every_roll(
    runner, eight_hours_out: Path, tmp_path: Path
) -> None:
    # the JSON export is the whole record (its schema, R4): --rolls shapes md and html only,
    # and a referee who asks for none with json is told so instead of silently ignored
    plain = tmp_path / "plain.json"
    asked = tmp_path / "asked.json"
    assert "Note" not in ok(runner, "export", "Sea Witch", "-f", "json", "--out", str(plain))
    said = ok(runner, "export", "Sea Witch", "-f", "json", "--rolls", "none", "--out", str(asked))
    assert (
        "Note: --rolls applies to md and html only; json is written whole, every roll kept (R4)."
        in said
    )
    assert plain.read_bytes() == asked.read_bytes()
    both = ok(
        runner,
        "export",
        "Sea Witch",
        "-f",
        "md",
        "-f",
        "csv",
        "--rolls",
        "none",
        "--out",
        str(tmp_path / "both"),
    )
    assert "Note: --rolls applies to md and html only; csv is written whole." in both
    assert "Note" not in ok(
        runner, "export", "Sea Witch", "--rolls", "none", "--out", str(tmp_path / "only.md")
    )


def test_a_word_read_as_a_ship_is_named_when_seed_is_refused(runner, db: Path) -> None:
    # `--storm major` (the sea state belongs to --sea): 'major' is the SHIP argument, and the
    # refusal only said "--seed is for rolls without a ship" to a referee who named none
    from conftest import invoke

    result = invoke(runner, "roll", "capsize", "--tier", "6", "--storm", "major", "--seed", "2")
    assert result.exit_code == 2
    assert "--seed is for rolls without a ship (and 'major' was read as a SHIP)" in (result.output)


def test_advance_prints_the_events_of_several_ships_in_the_order_they_happened(
    runner, db: Path
) -> None:
    # three ships in one storm (R32, R60): each ship's hour is stepped in turn, and the
    # printout read "13:42 A, 15:59 B, 15:59 C, 15:25 A" (A's 15:25 after B's 15:59)
    import re

    ok(runner, "map", "load", "salt_reach")
    for name, tier, engine in (("Ann", "4", "5"), ("Bea", "6", "7"), ("Cat", "9", "8")):
        ok(
            runner,
            "ship",
            "add",
            name,
            "--class",
            "warship" if name == "Cat" else "trawler",
            "--tier",
            tier,
            "--engine",
            engine,
        )
        ok(runner, "ship", "load", name, "--crew", "6", "--fuel", "60")
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812", "--inshore")
    ok(runner, "weather", "storm", "--around", "0907", "--radius", "3", "--hours", "24")
    out = ok(runner, "advance", "--hours", "14")
    stamps = re.findall(r"^Day (\d+), (\d\d):(\d\d)  ", out, flags=re.M)
    assert len({s[1] for s in stamps}) > 1, out  # events in several hours, of several ships
    assert len(set(re.findall(r"^Day \d+, \d\d:\d\d  (\w+):", out, flags=re.M))) > 1, out
    times = [(int(d), int(h), int(m)) for d, h, m in stamps]
    assert times == sorted(times), out


def _holed_three_times(runner) -> None:
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Big", "--class", "freighter", "--tier", "10", "--engine", "9")
    ok(runner, "ship", "load", "Big", "--crew", "10", "--fuel", "200")
    ok(runner, "ship", "place", "Big", "0305")
    ok(runner, "sail", "Big", "--to", "2812")
    for _ in range(3):
        ok(runner, "roll", "hull-hit", "Big", "--weapon-mod", "10", "--apply")


def _work(db: Path) -> dict | None:
    import json
    import sqlite3

    con = sqlite3.connect(db)
    (state,) = con.execute("SELECT state FROM voyages WHERE ship = 'Big'").fetchone()
    con.close()
    return json.loads(state).get("more", {}).get("repair")


def test_patching_another_leak_at_once_leaves_the_crew_at_their_work(runner, db: Path) -> None:
    # R86: the crew work on one leak at a time; the referee's `--now` on another leak
    # used to stop their work on theirs without a word
    _holed_three_times(runner)
    ok(runner, "act", "Big", "repair", "leak", "1")
    hlbs = _work(db)["hlbs"]
    assert "Leak 3 of Big" in ok(runner, "act", "Big", "repair", "leak", "3", "--now")
    assert _work(db) is not None and _work(db)["hlbs"] == hlbs
    assert "repairing a leak: 2d6=" in ok(runner, "advance")
    # patching the very leak they work on ends their work
    ok(runner, "undo")
    ok(runner, "act", "Big", "repair", "leak", "1", "--now")
    assert _work(db) is None


def test_turning_the_crew_to_another_leak_says_which_they_leave(runner, db: Path) -> None:
    _holed_three_times(runner)
    first = ok(runner, "act", "Big", "repair", "leak", "2")
    assert "They leave" not in first
    moved = ok(runner, "act", "Big", "repair", "leak", "1")
    assert moved.startswith("The crew of Big set to work on leak 1 (")
    assert "They leave leak 2 (" in moved and "hlbs an hour) as it is." in moved


def test_status_shows_a_ship_under_tow_at_her_towers_speed(runner, db: Path) -> None:
    # R92: "the two move together at the tower's speed"; status showed the towed freighter
    # at the 6 knots she would make by herself while her tower made 5
    import json

    ok(runner, "map", "load", "salt_reach")
    ok(runner, "ship", "add", "Tug", "--class", "warship", "--tier", "9", "--engine", "8")
    ok(runner, "ship", "add", "Hulk", "--class", "freighter", "--tier", "6", "--engine", "7")
    ok(runner, "ship", "load", "Tug", "--crew", "20", "--fuel", "100")
    ok(runner, "ship", "load", "Hulk", "--crew", "10", "--fuel", "100", "--cargo", "500")
    for name in ("Tug", "Hulk"):
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")
    ok(runner, "act", "Tug", "tow", "Hulk")
    rows = {r["ship"]: r for r in json.loads(ok(runner, "status", "--json"))["ships"]}
    assert rows["Hulk"]["status"] == "under tow"
    assert rows["Hulk"]["speed"] == rows["Tug"]["speed"] == 5, rows
    ok(runner, "advance")
    log = json.loads(ok(runner, "log", "Tug", "--json"))
    assert log["hours"][-1]["speed"] == 5


def test_a_sinking_ship_abandoned_still_goes_under(runner, eight_hours_out: Path) -> None:
    # R40: all hands leaving a sinking ship do not save her; she stayed "abandoned", afloat.
    # Nor do they sink her sooner: her clock runs on to the next advance
    # (tests/test_aground_and_abandoned.py)
    ok(runner, "roll", "sinking", "Sea Witch", "--apply")
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert "Nobody is aboard to save her: she goes under at Day 1, 08:" in said
    assert "Status: at sea, sinking at 0506" in ok(runner, "ship", "show", "Sea Witch")
    assert "in the water" in ok(runner, "survivors")
    ok(runner, "advance")
    assert "Status: sunk at 0506" in ok(runner, "ship", "show", "Sea Witch")
    ok(runner, "undo")
    ok(runner, "undo")
    # the advance and the abandon undone: still sinking from the roll applied (R40)
    assert "Status: at sea, sinking at 0506" in ok(runner, "ship", "show", "Sea Witch")


def test_a_sound_ship_abandoned_floats_on(runner, eight_hours_out: Path) -> None:
    said = ok(runner, "act", "Sea Witch", "abandon")
    assert "goes under" not in said
    assert "Status: abandoned at 0506" in ok(runner, "ship", "show", "Sea Witch")
