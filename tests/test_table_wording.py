"""What players read, what the table
prints, and the numbers a referee types back in."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import add_trawler, ok, refused, trawler_at

from voyage.outputs.chronicle import for_players, name_places


def test_players_read_no_command_the_tool_gives_the_referee() -> None:
    # the log tells the referee what to type next; the players' journal, Markdown, HTML and
    # CSV (all through for_players) printed those commands, backticks and all
    met = (
        "Encounter at 0506 (castaways): 6 people in the water. They are in the water at 0506 "
        "(6 crew of a lost ship, swimmers rank 1, jackets): `voyage act SHIP search` or "
        "`rescue` (R74)."
    )
    # the castaways' note (who they are, what to type) is the referee's alone (sig25c)
    assert for_players(met) == "Encounter at 0506 (castaways): 6 people in the water."
    adrift = (
        "Gull arrives at 0621 but cannot anchor there: Gull has no anchor aboard (R65). She "
        "lies adrift, hove to, and drifts with any current (R64); storms still act on her. "
        "Sail on with `voyage sail 'Gull' --to CCRR`; buy an anchor in a port "
        "(`voyage ship load 'Gull' --anchors 1`)."
    )
    assert for_players(adrift) == (
        "Gull arrives at 0621 but cannot anchor there: Gull has no anchor aboard. She lies "
        "adrift, hove to, and drifts with any current; storms still act on her."
    )
    assert for_players("She holds. Nothing to type.") == "She holds. Nothing to type."


def test_a_port_is_named_before_a_count_in_parentheses() -> None:
    # "changes course at 0506 for 2812 (23 hexes)": the count kept Ironport unnamed
    places = {"2812": "Ironport"}
    assert name_places("She changes course at 0506 for 2812 (23 hexes).", places) == (
        "She changes course at 0506 for Ironport (2812) (23 hexes)."
    )
    assert name_places("at 2812 (Ironport)", places) == "at 2812 (Ironport)"


def test_the_players_journal_of_an_arrival_adrift_has_no_commands(runner, db: Path) -> None:
    trawler_at(runner, "0305", anchors=0, crew=4, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "0506")
    ok(runner, "advance", "--until", "arrival")
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    players = ok(runner, "journal", "--since", "day 1")
    assert "`voyage sail 'Sea Witch' --to CCRR`" in referee
    assert "cannot anchor there" in players and "`" not in players and "voyage " not in players


def test_the_seed_a_forecast_prints_can_be_typed_back(runner, db: Path) -> None:
    # "seed 7025704134408260107 (the same seed gives the same forecast)": --seed refused it
    # (0 to 4294967295), so the forecast could not be repeated

    trawler_at(runner, "0305", crew=6, fuel=40)
    first = ok(runner, "forecast", "Sea Witch", "--to", "2812", "--runs", "200", "--workers", "1")
    seed = re.search(r"seed (\d+) \(the same seed", first)
    assert seed is not None and int(seed.group(1)) > 2**32
    again = ok(
        runner,
        "forecast",
        "Sea Witch",
        "--to",
        "2812",
        "--runs",
        "200",
        "--workers",
        "1",
        "--seed",
        seed.group(1),
    )
    assert again == first
    plan = ok(runner, "plan", "Sea Witch", "--to", "2812", "--runs", "50", "--workers", "1")
    shown = re.search(r"seed (\d+);", plan)
    assert shown is not None
    assert (
        ok(
            runner,
            "plan",
            "Sea Witch",
            "--to",
            "2812",
            "--runs",
            "50",
            "--workers",
            "1",
            "--seed",
            shown.group(1),
        )
        == plan
    )


def test_a_ram_and_an_attack_print_their_rolls(runner, db: Path) -> None:
    # R4: `encounter shoot` printed its dice; `ram` and `attack` printed only their words
    # ("The ship rams Nautilus without damage."), so a referee could not check the d12
    import json

    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    for name, cls, tier in (("Sea Witch", "trawler", "IV"), ("Iron Harpy", "warship", "VII")):
        ok(runner, "ship", "add", name, "--class", cls, "--tier", tier, "--engine", "IX")
        ok(runner, "ship", "load", name, "--crew", "6", "--fuel", "80")
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")
    started = ok(runner, "encounter", "start", "Sea Witch", "Iron Harpy", "--leviathan", "kraken")
    # Tiers are Roman numerals for people (the fight's table printed "4" and "7")
    rows = {r.split()[0]: re.split(r"\s{2,}", r) for r in started.splitlines()}
    assert rows["Sea"][2] == "IV" and rows["Iron"][2] == "VII"
    ok(runner, "encounter", "round")
    rammed = ok(runner, "encounter", "ram", "Sea Witch", "Iron Harpy", "--kind", "head-on")
    lines = rammed.splitlines()
    assert lines[0].startswith("  ramming Iron Harpy: d12=") and "(relative speed)" in lines[0]
    assert any(line.startswith("  ramming Sea Witch: d12=") for line in lines)
    assert lines[-1].startswith("Sea Witch rams Iron Harpy head-on")
    attacked = json.loads(
        ok(runner, "encounter", "attack", "kraken", "--at", "Sea Witch", "--json")
    )
    assert attacked["rolls"] and attacked["rolls"][0]["label"].startswith("dodge")
    assert all(r["line"] for r in attacked["rolls"])


def test_around_takes_a_port_as_every_other_place_does(runner, db: Path) -> None:
    # `weather storm --around Ironport` said "hex Ironport is off the map"
    import json

    ok(runner, "map", "load", "salt_reach")
    by_port = json.loads(
        ok(
            runner,
            "weather",
            "storm",
            "--around",
            "Ironport",
            "--radius",
            "1",
            "--hours",
            "5",
            "--json",
        )
    )
    assert "2812" in by_port["hexes"] and len(by_port["hexes"]) == 7
    by_name = json.loads(ok(runner, "weather", "storm", "Gullhaven", "--hours", "2", "--json"))
    assert by_name["hexes"] == ["0305"]
    assert ok(runner, "map", "show", "--around", "ironport", "--radius", "2") == ok(
        runner, "map", "show", "--around", "2812", "--radius", "2"
    )
    assert "neither a CCRR hex name nor a port" in refused(
        runner, "map", "show", "--around", "Ironprt"
    )


def test_a_ships_rafts_in_one_hex_are_one_mark_on_the_picture(runner, db: Path) -> None:
    # eight rafts were named one by one on the picture's mark and in its legend, which ran
    # off the picture's sides: the picture counts them; `map show` and `survivors` name each
    from voyage.actions.people import afloat_marks
    from voyage.cli.common import read_campaign

    trawler_at(runner, "0305", crew=10, fuel=40, rafts=3)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "4")
    ok(runner, "act", "Sea Witch", "abandon")
    camp = read_campaign(str(db))
    ((mark, where),) = afloat_marks(camp, compact=True)
    assert mark == "3 rafts of Sea Witch (10 aboard)"
    ((full, there),) = afloat_marks(camp)
    assert there == where and full.startswith("raft 1 of Sea Witch (4 aboard), raft 2 of")
    assert "raft 1 of Sea Witch" in ok(runner, "map", "show")
    picture = Path(str(db)).with_name("abandoned.png")
    ok(runner, "map", "render", "--out", str(picture), "--around", where, "--radius", "2")
    assert picture.stat().st_size > 0


def test_the_legend_cuts_a_long_name_at_a_word() -> None:
    from voyage.outputs.picturelegend import LEGEND_WORDS, legend_words

    assert legend_words("Sea Witch") == "Sea Witch"
    long = "7 rafts of Lucky Promise (26 aboard), 6 crew of a lost ship (in the water)"
    cut = legend_words(long)
    assert cut == "7 rafts of Lucky Promise (26 aboard)\u2026" and len(cut) <= LEGEND_WORDS


def test_advance_by_days_and_quietly_with_what_stopped_it(runner, db: Path) -> None:
    # `advance --days 2` was "No such option '--days'. Did you mean '--db'?"; `--quiet`
    # printed "Stopped: Sea Witch: aground." without the grounding and its rolls
    import json

    ok(runner, "map", "load", "salt_reach")
    day = json.loads(ok(runner, "advance", "--days", "1", "--json"))
    assert (day["start"], day["end"]) == (0, 24)
    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812", "--inshore")
    said = ok(runner, "advance", "--days", "3")
    ok(runner, "undo")
    quiet = ok(runner, "advance", "--days", "3", "--quiet")
    stop = [line for line in said.splitlines() if line.startswith("Stopped: ")]
    assert stop and stop == [line for line in quiet.splitlines() if line.startswith("Stopped: ")]
    told = [line for line in quiet.splitlines() if line[:1].isdigit() or line.startswith("   ")]
    assert told and all(line in said.splitlines() for line in told)
    assert len(quiet.splitlines()) < len(said.splitlines()) or "coastal hazard" in quiet


def test_a_plan_names_its_ports_and_rounds_its_means(runner, db: Path) -> None:
    # "from 0305 to 2812, best safest first" with hours 75 beside 75.23 and fuel 15.74
    trawler_at(runner, "0305", crew=6, fuel=40)
    out = ok(runner, "plan", "Sea Witch", "--to", "Ironport", "--runs", "60", "--workers", "1")
    head = out.splitlines()[0]
    assert head.startswith("Plans for Sea Witch from Gullhaven (0305) to Ironport (2812), safest")
    assert "best" not in head and "means of the runs" in head
    for row in out.splitlines()[3:]:
        if row[:1].isdigit():
            hours, fuel = re.split(r"\s{2,}", row)[4], re.split(r"\s{2,}", row)[-1]
            assert len(hours.partition(".")[2]) <= 1 and len(fuel.partition(".")[2]) <= 1
    fuel = ok(runner, "plan", "Sea Witch", "--to", "2812", "--runs", "20", "--objective", "fuel")
    assert ", most fuel left first (" in fuel.splitlines()[0]


def test_history_fits_a_terminal_and_its_json_keeps_everything(runner, db: Path) -> None:
    import json

    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "0506")
    ok(runner, "advance", "--until", "arrival")
    text = ok(runner, "history", "--limit", "3")
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["#", "kind", "campaign"] and lines[0].endswith("summary")
    assert all(len(line) < 150 for line in lines)
    whole = json.loads(ok(runner, "history", "--json"))
    assert len(whole[0]["at"]) > 16 and whole[0]["at"][:16].replace("T", " ") in text


def test_a_rescue_by_ruling_reads_well_for_both(runner, db: Path) -> None:
    from voyage.outputs.chronicle import for_players

    trawler_at(runner, "0305", crew=6, fuel=40)
    add_trawler(runner, "0305", "Gull", crew=4, fuel=40)
    for name in ("Sea Witch", "Gull"):
        ok(runner, "sail", name, "--to", "0506")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Sea Witch", "abandon")
    said = ok(runner, "act", "Gull", "rescue", "--all")
    assert said.startswith("Gull picks them up (the referee's ruling, R74): ")
    assert said.count("R74") == 1  # "(the referee's ruling, R74): ... (Sea Witch) (R74)."
    assert for_players(said).startswith("Gull picks them up: ")


def test_straining_one_knot_is_one_knot(runner, db: Path) -> None:
    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    said = ok(runner, "pace", "Sea Witch", "strain", "1")
    assert "straining 1 knot over her Speed (R14)." in said


def test_a_fight_left_open_over_an_advance_tells_only_the_fight(
    runner, db: Path, tmp_path, monkeypatch
):
    # the fight story put her arrival hours later (logged by the advance while the fight
    # lay open) in "Round 1"; an open fight now holds the clock (R94, voyage.actions.fightclock),
    # but a campaign from before that may hold such an advance
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    for name in ("Sea Witch", "Iron Harpy"):
        add_trawler(runner, "0305", name, crew=6, fuel=80)
        ok(runner, "sail", name, "--to", "0506")
    ok(runner, "encounter", "start", "Sea Witch", "Iron Harpy")
    ok(runner, "encounter", "round")
    ok(runner, "roll", "fire", "Sea Witch", "--apply")  # carried in mid-fight: in its round
    with monkeypatch.context() as m:
        m.setattr("voyage.actions.voyages.refuse_while_fighting", lambda camp: None)
        ok(runner, "advance", "--until", "arrival")
    ok(runner, "encounter", "end")
    out = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--out", str(out))
    fight = out.read_text(encoding="utf-8").split("## The fight at", 1)[1]
    assert "fire" in fight and "arrives" not in fight, fight


def test_an_hour_still_stuck_is_routine_for_players(runner, db: Path, tmp_path) -> None:
    # a day aground told players "The ship is still stuck." every hour, each numbered on
    # the picture; the referee's log keeps each try (R34)
    from voyage.rules.aground import STUCK_TEXT  # the one text: outputs.export reads it

    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "roll", "aground", "Sea Witch", "--seabed", "sandy", "--speed", "1", "--apply")
    ok(runner, "advance", "--hours", "12")
    referee = ok(runner, "journal", "--since", "day 1", "--for", "referee")
    assert STUCK_TEXT in referee
    players = ok(runner, "journal", "--since", "day 1")
    assert STUCK_TEXT not in players and "stuck" in players
    out = tmp_path / "witch.md"
    ok(runner, "export", "Sea Witch", "--out", str(out))
    assert STUCK_TEXT not in out.read_text(encoding="utf-8")


def test_a_new_course_says_it_keeps_to_the_coast(runner, db: Path) -> None:
    # `act SHIP course` has no --inshore: a voyage sailed inshore stays inshore, unsaid
    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "4")
    said = ok(runner, "act", "Sea Witch", "course", "--to", "0804")
    assert said.startswith("Sea Witch changes course at ") and ", inshore as she sailed)" in said


def test_status_numbers_each_leak_as_repair_takes_it(runner, db: Path) -> None:
    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    for _ in range(2):
        ok(runner, "roll", "hull-hit", "Sea Witch", "--weapon-mod", "1", "--apply")
    shown = ok(runner, "status")
    assert re.search(r"leak 1 at \d+ hlbs/h, leak 2 at \d+ hlbs/h", shown), shown


def test_the_log_says_what_an_hour_row_shows(runner, db: Path) -> None:
    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    first = ok(runner, "log", "Sea Witch").splitlines()[0]
    assert first.startswith("Sea Witch, hour by hour: ") and "the hex she ended it in" in first


def test_a_searching_ship_has_no_eta(runner, db: Path) -> None:
    # she lies stopped in her hex; the status gave her eta as if she sailed on at speed
    trawler_at(runner, "0305", crew=6, fuel=40)
    add_trawler(runner, "0305", "Gull", crew=4, fuel=40)
    for name in ("Sea Witch", "Gull"):
        ok(runner, "sail", name, "--to", "2812")
    ok(runner, "advance", "--hours", "4")
    ok(runner, "act", "Gull", "abandon")
    ok(runner, "act", "Sea Witch", "search")
    row = next(r for r in ok(runner, "status").splitlines() if r.startswith("Sea Witch"))
    cells = re.split(r"\s{2,}", row)
    assert cells[1] == "under way, searching" and cells[5] == "-", cells


def test_the_journal_names_no_lost_ship_as_a_ship() -> None:
    from voyage.outputs.chronicle import Entry, Journal, to_markdown

    lost = Entry(
        5,
        16,
        "Day 1, 05:16",
        "a lost ship",
        "water",
        "4 crew of a lost ship in a major storm at 0403; 4 drown.",
    )
    own = Entry(5, 0, "Day 1, 05:00", "Gull", "coast", "The shallows hide a reef.")
    text = to_markdown(Journal("Test", 0, 24, "players", [("Day 1", [lost, own])]))
    assert "- 05:16 4 crew of a lost ship in a major storm" in text
    assert "- 05:00 **Gull**: The shallows hide a reef." in text


def test_map_show_marks_a_wreck_as_one(runner, db: Path) -> None:
    trawler_at(runner, "0305", crew=6, fuel=40)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    ok(runner, "act", "Sea Witch", "abandon")
    shown = ok(runner, "map", "show", "--around", "0305", "--radius", "3")
    assert re.search(r"  \d  Sea Witch \(abandoned\) \(\d{4}\)", shown), shown
