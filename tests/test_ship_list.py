"""``voyage ship list`` shows each ship's speed now (as ``voyage status``: 0 adrift, anchored,
stuck; 0 sunk or abandoned), a built boat's speed in mph and her fuel/hex in power units
(R82); ``voyage act surface --help`` says what R84 gives on the surface."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner
from conftest import ok

BOAT = ("ship", "build", "Sea Fox", "--body", "cruiser", "--plant", "large", "--propellers",
        "2", "--with", "deck", "--crew", "2")  # fmt: skip


def rows(runner: CliRunner) -> dict[str, list[str]]:
    lines = ok(runner, "ship", "list").splitlines()
    head = lines[0]
    cut = [head.index(h) for h in ("speed", "fuel/hex", "status")]
    return {
        line.split("  ")[0]: [line[cut[0] : cut[1]].strip(), line[cut[1] : cut[2]].strip()]
        for line in lines[2:]
    }


def test_speed_is_what_she_makes_now(db, runner):
    ok(runner, "map", "load", "salt_reach")
    for name in ("Gull", "Tern", "Skua"):
        ok(runner, "ship", "add", name, "--class", "trawler", "--tier", "IV", "--engine", "V")
        ok(runner, "ship", "load", name, "--crew", "4", "--fuel", "50")
    ok(runner, *BOAT)
    ok(runner, "ship", "place", "Gull", "2712")  # open deep sea: adrift (R65)
    ok(runner, "ship", "place", "Tern", "0305")  # Gullhaven: in port
    ok(runner, "ship", "place", "Skua", "0305")
    ok(runner, "sail", "Skua", "--to", "2812")  # under way
    ok(runner, "ship", "place", "Sea Fox", "2711")  # adrift
    shown = rows(runner)
    assert shown["Gull"] == ["0", "1"]  # adrift: no way of her own (status says 0 too)
    assert shown["Tern"] == ["7", "1"]  # in port: what she would make
    assert shown["Skua"] == ["7", "1"]
    assert shown["Sea Fox"] == ["0 mph", "12 units"]  # R82: power units a hex
    status = {r["ship"]: r["speed"] for r in json.loads(ok(runner, "status", "--json"))["ships"]}
    listed = {f["name"]: f for f in json.loads(ok(runner, "ship", "list", "--json"))}
    for name, speed in status.items():
        assert listed[name]["speed_now"] == speed
    assert listed["Gull"]["speed"] == 7  # her figure stays in the JSON
    with sqlite3.connect(db) as conn:  # as the engine leaves a ship that went down (R41)
        conn.execute("UPDATE ships SET status = 'sunk' WHERE name = 'Tern'")
    assert rows(runner)["Tern"] == ["0", "1"]


def test_surface_help_gives_r84s_three_quarters_of_top_speed(runner):
    text = ok(runner, "act", "Nautilus", "surface", "--help")
    assert "3/4 of her top speed" in " ".join(text.split())  # R84: surfaced −¼
