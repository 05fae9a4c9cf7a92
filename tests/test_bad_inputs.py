"""Every bad input gets one line: a table of bad inputs driven through the CLI.

Each row is a command a referee might mistype, against a scratch campaign with ships at sea,
in port and unplaced, a storm blowing and a voyage logged. For every row: exit status 1 or 2,
one error line (plus click's usage lines for a usage error) that names what is wrong, no
traceback, every row of the campaign's tables the same before and after, and no runaway:
under 5 seconds and 500 MB each.

``{files}`` in a row's arguments is a folder of prepared bad files (maps with NaN, a FIFO,
an oversized file, ...), ``{db}`` the scratch campaign, ``{tmp}`` the test's own folder.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SUBMERSIBLE, db_contents

from voyage.cli import cli

SECONDS = 5
MEGABYTES = 500


@dataclass(frozen=True)
class Bad:
    """A bad input: the arguments, and words the one error line must contain."""

    args: tuple[str, ...]
    says: str

    @property
    def id(self) -> str:
        return " ".join(self.args)[:80]


def bad(*args: str, says: str) -> Bad:
    return Bad(args, says)


W = "Sea Witch"  # at sea, bound for Ironport, in the open water west of the storm
I = "Old Iron"  # in port at Gullhaven  # noqa: E741
D = "Dory"  # a dinghy never placed on the map
E = "Eel"  # a built boat (the seed's Moray) at sea at 20 mph, bound for Ironport
ARABIC = "\u0660\u0663\u0660\u0665"  # 0305 in Arabic-Indic digits
HUGE = "9" * 30
N = "Nautilus"  # R84: a submersible at sea in 2811 (charted 15 ft)

ROWS: list[Bad] = [
    # ---------------------------------------------------------------- the campaign file
    bad("status", "--db", "{tmp}/nothing.db", says="no campaign"),
    bad("status", "--db", "{files}", says="is a directory"),
    bad("status", "--db", "{files}/text.txt", says="not a voyage campaign"),
    bad("status", "--db", "{files}/empty.db", says="not a voyage campaign"),
    bad("status", "--db", "{files}/other.sqlite", says="not a voyage campaign"),
    bad("undo", "--db", "{tmp}/nothing.db", says="no campaign"),
    bad("status", "--db", "{tmp}/" + "a" * 300, says="too long"),
    bad("status", "--db", "{tmp}/" + "a/" * 3000, says="too long"),
    bad("status", "--db", "{tmp}/x\x00y.db", says="control character (a NUL)"),
    bad("init", "--db", "{tmp}/new\x00.db", says="control character"),
    bad("log", W, "--db", "{tmp}/ne\nw.db", says="control character (a newline)"),
    # ---------------------------------------------------------------- init
    bad("init", says="already exists"),
    bad("init", "--db", "{tmp}/new.db", "--seed", "abc", says="seed"),
    bad("init", "--db", "{tmp}/new.db", "--seed", HUGE, says="0 to"),
    bad("init", "--db", "{tmp}/new.db", "--seed", "-1", says="0 to"),
    bad("init", "--db", "{tmp}/new.db", "--seed", "1.5", says="seed"),
    bad("init", "--db", "{tmp}/new.db", "--name", "", says="name"),
    bad("init", "--db", "{tmp}/new.db", "--name", "   ", says="name"),
    bad("init", "--db", "{tmp}/new.db", "--name", "Salt\nReach", says="control character"),
    bad("init", "--db", "{tmp}/new.db", "--name", "Salt\x00Reach", says="control character"),
    bad("init", "--db", "{tmp}/new.db", "--name", "Salt\x1b[31mReach", says="control character"),
    bad("init", "--db", "{tmp}/new.db", "--name", "x" * 5000, says="at most"),
    bad("init", "--db", "{tmp}/no/such/folder/new.db", says="does not exist"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{tmp}/nowhere", says="does not exist"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_nan", says="finite"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_inf", says="finite"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_bad_yaml", says="tiers.yaml"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_huge", says="out of range"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_fifo", says="pipe"),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_big", says="at most 256 KB"),
    bad("init", "--db", "{tmp}/new.db", "--start", "\u0661\u0664\u0669\u0662-06-01", says="date"),
    bad("init", "--db", "{tmp}/new.db", "--start", "1 June \u0661\u0664\u0669\u0662", says="date"),
    bad("init", "--db", "{tmp}/new.db", "--start", "1 \u0666 1492", says="month"),
    bad("init", "--db", "{tmp}/new.db", "--start", "1492-13-45", says="month 13"),
    bad(
        "init",
        "--db",
        "{tmp}/new.db",
        "--start",
        "1 Highsun 1042",
        "--calendar",
        "nope",
        says="nope",
    ),
    bad("init", "--db", "{tmp}/new.db", "--tables", "{files}/tables_dice", says="d20"),
    bad("init", "--db", "{files}", says="is a directory"),
    bad("init", "--db", "/dev/full", says="already exists"),
    # ---------------------------------------------------------------- settings, undo
    bad("settings", "no_such_setting", "true", says="unknown setting"),
    bad("settings", "natural_rolls", "perhaps", says="cannot be"),
    # a known key alone shows that setting; an unknown one alone is named as unknown (it
    # once got "give a value too")
    bad("settings", "no_such_setting", says="unknown setting 'no_such_setting'"),
    bad("settings", "natural_rolls\n", "true", says="unknown setting"),
    bad("settings", "advantage_mode", "3d20", says="cannot be"),
    # R70: a run of choices is named as a range, as `voyage settings` lists it (the error
    # once listed all 21 numbers)
    bad(
        "settings",
        "crew_swimming",
        "21",
        says="setting crew_swimming cannot be '21': use a whole number from 0 to 20",
    ),
    # ---------------------------------------------------------------- ship roll
    bad("ship", "roll", "--count", "0", says="1 to 500"),
    bad("ship", "roll", "--count", "501", says="1 to 500"),
    bad("ship", "roll", "--count", "-3", says="1 to 500"),
    bad("ship", "roll", "--count", "many", says="count"),
    bad("ship", "roll", "--count", HUGE, says="1 to 500"),
    bad("ship", "roll", "--class", "zeppelin", says="zeppelin"),
    bad("ship", "roll", "--class", "G", says="class"),
    bad("ship", "roll", "--class", "", says="must not be empty"),
    bad("ship", "roll", "--name", W, says="already"),
    bad("ship", "roll", "--name", "sea witch", says="already"),
    bad("ship", "roll", "--name", "", says="name"),
    bad("ship", "roll", "--name", "Gull\nWing", says="control character"),
    bad("ship", "roll", "--name", "Gull\tWing", says="control character"),
    bad("ship", "roll", "--name", "y" * 500, says="at most"),
    bad("ship", "roll", "--name", "Gull", "--count", "2", "--class", "zeppelin", says="zeppelin"),
    # ---------------------------------------------------------------- ship add
    bad("ship", "add", "Gull", "--class", "trawler", says="--tier"),
    bad("ship", "add", "Gull", "--tier", "IV", "--engine", "V", says="--class"),
    bad("ship", "add", "Gull", "--class", "trawler", "--tier", "XI", says="tier"),
    bad("ship", "add", "Gull", "--class", "trawler", "--tier", "0", says="I to X"),
    bad("ship", "add", "Gull", "--class", "trawler", "--tier", "11", says="I to X"),
    bad("ship", "add", "Gull", "--class", "trawler", "--tier", "\u0664", says="tier"),
    bad("ship", "add", "Gull", "--class", "trawler", "--tier", "\uff14", says="tier"),
    bad("ship", "add", "Gull", "--class", "trawler", "--tier", HUGE, says="tier"),
    bad(
        "ship", "add", "Gull", "--class", "trawler", "--tier", "IV", "--engine", "XX", says="engine"
    ),
    bad(
        "ship",
        "add",
        "Gull",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--trait",
        "Lucky",
        says="trait",
    ),
    bad(
        "ship",
        "add",
        "Gull",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--armor",
        "-1",
        says="--armor",
    ),
    bad(
        "ship",
        "add",
        "Gull",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--armor",
        HUGE,
        says="0 to",
    ),
    bad(
        "ship",
        "add",
        "Gull",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--harpoons",
        HUGE,
        says="0 to",
    ),
    bad("ship", "add", W, "--class", "trawler", "--tier", "IV", "--engine", "V", says="already"),
    bad("ship", "add", "", "--class", "trawler", "--tier", "IV", "--engine", "V", says="name"),
    bad(
        "ship",
        "add",
        "Gu\rll",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        says="control character",
    ),
    bad(
        "ship",
        "add",
        "Gull\u2028Wing",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        says="control character",
    ),
    bad(
        "ship", "add", "Gull", "--class", "airship", "--tier", "IV", "--engine", "V", says="airship"
    ),
    bad(
        "ship",
        "add",
        "Gull",
        "--class",
        "trawler",
        "--tier",
        "IV",
        "--engine",
        "V",
        "--light",
        "x\ny",
        says="control character",
    ),
    # ------------------------------------------------------- ship load, show, remove, place
    bad("ship", "load", I, says="say what to load"),
    bad("ship", "load", I, "--crew", "-1", says="--crew"),
    bad("ship", "load", I, "--crew", HUGE, says="0 to"),
    bad("ship", "load", I, "--fuel", HUGE, says="0 to"),
    bad("ship", "load", I, "--cargo", "1e3", says="cargo"),
    bad("ship", "load", I, "--cargo", "nan", says="cargo"),
    bad("ship", "load", I, "--water", "inf", says="water"),
    bad("ship", "load", I, "--cargo", "999999", says="would sink"),
    bad("ship", "load", "Nobody", "--crew", "1", says="no ship"),
    bad("ship", "load", W, "--cargo", "5000", says="would sink"),
    bad("ship", "show", "Nobody", says="no ship"),
    bad("ship", "show", "", says="no ship"),
    bad("ship", "remove", "Nobody", says="no ship"),
    bad("ship", "remove", W, says="at sea"),
    bad("ship", "place", I, ARABIC, says="CCRR"),
    bad("ship", "place", I, "0101", says="land"),
    bad("ship", "place", I, "9999", says="off the map"),
    bad("ship", "place", I, "03 05", says="CCRR"),
    bad("ship", "place", I, "", says="CCRR"),
    bad("ship", "place", I, "0000", says="0101"),
    bad("ship", "place", I, "-305", says="negative"),
    bad("ship", "place", W, "0305", says="at sea"),
    bad("ship", "place", "Nobody", "0305", says="no ship"),
    # ---------------------------------------------------------------- map load
    bad("map", "load", "{tmp}/nowhere.yaml", says="no such"),
    bad("map", "load", "{tmp}/map\x00.yaml", says="control character"),
    bad("map", "load", "{tmp}/" + "m" * 300 + ".yaml", says="too long"),
    bad("map", "load", "atlantis", says="no bundled campaign"),
    bad("map", "load", "{files}/empty_folder", says="no campaign.yaml or map.yaml"),
    bad("map", "load", "{files}/fifo.yaml", says="not a regular file"),
    bad("map", "load", "/dev/zero", says="not a regular file"),
    bad("map", "load", "/dev/null", says="not a regular file"),
    bad("map", "load", "{files}/big.yaml", says="20 MB"),
    bad("map", "load", "{files}/binary.yaml", says="UTF-8"),
    bad("map", "load", "{files}/empty.yaml", says="map"),
    bad("map", "load", "{files}/nan_price.yaml", says="price"),
    bad("map", "load", "{files}/inf_price.yaml", says="price"),
    bad("map", "load", "{files}/neg_inf_price.yaml", says="price"),
    bad("map", "load", "{files}/arabic_hex.yaml", says="CCRR"),
    bad("map", "load", "{files}/huge_price.yaml", says="from 0 to 1000000000"),
    bad("map", "load", "{files}/huge_stock.yaml", says="from 0 to 1000000000"),
    bad("map", "load", "{files}/nan_depth.yaml", says="depth"),
    bad("map", "load", "{files}/nan_current.yaml", says="knots must be a number from 0 to 100"),
    bad("map", "load", "{files}/inf_current.yaml", says="knots must be a number from 0 to 100"),
    bad("map", "load", "{files}/huge_current.yaml", says="knots must be a number from 0 to 100"),
    bad("map", "load", "{files}/laughs.yaml", says="notes must be text"),
    bad("map", "load", "{files}/deep.yaml", says="nesting depth"),
    bad("map", "load", "{files}/not_yaml.yaml", says="line"),
    bad("map", "load", "{files}/list.yaml", says="mapping"),
    bad("map", "load", "{files}/control_name.yaml", says="control character"),
    bad("map", "load", "{files}/small.yaml", says=W),
    bad("map", "load", "{files}/campaign_dev_zero", says="not a regular file"),
    bad("map", "load", "{files}/campaign_map_list", says="file name"),
    bad("map", "load", "{files}/long_number.yaml", says="at most 40"),
    bad("map", "load", "{files}/campaign_duplicate", says="'name' is written twice"),
    bad("map", "load", "{files}/campaign_fifo", says="pipe (FIFO), not a regular file"),
    bad("map", "load", "{files}/campaign_deep", says="nesting depth over 64"),
    # ---------------------------------------------------------------- map show, hex, render
    bad("map", "hex", ARABIC, says="CCRR"),
    bad("map", "hex", "\u0660\u0661\u0660\u0661", says="CCRR"),
    bad("map", "hex", "03.05", says="CCRR"),
    bad("map", "hex", "abcd", says="CCRR"),
    bad("map", "hex", "9999", says="off the map"),
    bad("map", "hex", "12345", says="CCRR"),
    bad("map", "hex", HUGE, says="CCRR"),
    bad("map", "show", "--radius", "-1", says="0 to"),
    bad("map", "show", "--around", "0305", "--radius", "1000", says="0 to"),
    bad("map", "show", "--around", "0305", "--radius", HUGE, says="0 to"),
    bad("map", "show", "--around", ARABIC, "--radius", "2", says="CCRR"),
    bad("map", "show", "--around", "9999", "--radius", "2", says="off the map"),
    bad("map", "show", "--radius", "2", says="--around"),
    bad("map", "render", "--out", "/dev/full", says="/dev/full"),
    bad("map", "render", "--out", "{tmp}/map.txt", says=".png"),
    bad("map", "render", "--out", "{tmp}/no/such/map.png", says="does not exist"),
    bad("map", "render", "--out", "{files}", says="is a directory"),
    bad("map", "render", "--out", "{tmp}/m.png", "--around", "0305", "--radius", HUGE, says="0 to"),
    bad("map", "render", "--out", "{tmp}/m.png", "--title", "a\nb", says="control character"),
    bad("map", "render", says="--out"),
    # ---------------------------------------------------------------- weather
    bad("weather", "storm", "--hours", "12", says="name the hexes"),
    bad("weather", "storm", "0305", "--hours", "0", says="1 to"),
    bad("weather", "storm", "0305", "--hours", HUGE, says="1 to"),
    bad("weather", "storm", "0305", "--hours", "100000", says="1 to"),
    bad("weather", "storm", "0305", says="--hours"),
    bad("weather", "storm", ARABIC, "--hours", "3", says="CCRR"),
    bad("weather", "storm", "9999", "--hours", "3", says="off the map"),
    bad("weather", "storm", "--around", "1510", "--radius", HUGE, "--hours", "3", says="0 to"),
    bad("weather", "storm", "--around", "1510", "--radius", "100000", "--hours", "3", says="0 to"),
    bad("weather", "storm", "--around", "1510", "--hours", "3", says="--radius"),
    bad(
        "weather", "storm", "--around", "9999", "--radius", "1", "--hours", "3", says="off the map"
    ),
    bad("weather", "storm", "0305", "--hours", "3", "--note", "a\x07b", says="control character"),
    bad("weather", "clear", says="say which storm"),
    bad("weather", "clear", "99", says="no storm 99"),
    bad("weather", "clear", "-1", says="negative"),
    bad("weather", "clear", HUGE, says="storm"),
    bad("weather", "clear", "1", "--all", says="not both"),
    # ---------------------------------------------------------------- sail
    bad("sail", "Nobody", "--to", "2812", says="no ship"),
    bad("sail", W, "--to", "2420", says="already at sea"),
    bad("sail", I, "--to", "0101", says="land"),
    bad("sail", I, "--to", "9999", says="off the map"),
    bad("sail", I, "--to", ARABIC, says="CCRR"),
    bad("sail", I, "--to", "0305", says="already at"),
    bad("sail", I, "--route", "0405,0606", says="not next to"),
    bad("sail", I, "--route", "0405,,0506,xx", says="CCRR"),
    bad("sail", I, "--to", "2812", "--route", "0405", says="not both"),
    bad("sail", I, "--to", "2812", "--via", "0101", says="land"),
    # the knots come after the pace, not after the ship (the message once said "SHIP N")
    bad(
        "sail",
        I,
        "--to",
        "2812",
        "--pace",
        "strain",
        says="how many knots to strain: --pace strain N, e.g. --pace strain 2",
    ),
    bad("sail", I, "--to", "2812", "--pace", "strain", "-2", says="negative"),
    bad("sail", I, "--to", "2812", "--pace", "strain", HUGE, says="strain"),
    bad("sail", I, "--to", "2812", "--pace", "strain", "99", says="may strain"),
    bad("sail", I, "--to", "2812", "--pace", "gallop", says="pace"),
    bad("sail", I, says="--to"),
    bad("sail", D, "--to", "2812", says="ship place"),
    # ---------------------------------------------------------------- advance
    bad("advance", "--hours", "0", says="1 to"),
    bad("advance", "--hours", "-5", says="1 to"),
    bad("advance", "--hours", HUGE, says="1 to"),
    bad("advance", "--hours", "9000", says="1 to"),
    bad("advance", "--hours", "two", says="hours"),
    bad("advance", "--hours", "\u0665", says="hours"),
    bad("advance", "--hours", "2", "--until", "arrival", says="not more than one"),
    bad("advance", "--days", "2", "--hours", "3", says="not more than one"),
    bad("advance", "--days", "0", says="1 to 366"),
    bad("advance", "--days", "367", says="1 to 366"),
    bad("advance", "--until", "teatime", says="until"),
    bad("advance", "--until", "arival", says="did you mean 'arrival'?"),
    bad("advance", "6", says="voyage advance --hours 6"),
    # ---------------------------------------------------------------- built boats sailing
    bad("pace", E, "70mph", says="above Eel's top speed of 60 mph"),  # R82
    bad("pace", E, "0mph", says="above 0 mph"),
    bad("pace", E, "slow", says="no slow pace"),
    bad("pace", E, "fastmph", says="not a pace"),
    bad("pace", I, "30mph", says="rolled ship"),
    bad("sail", I, "--to", "2812", "--pace", "30mph", says="rolled ship"),
    bad("act", E, "recharge", says="at sea"),
    bad("act", I, "recharge", says="rolled ship"),
    bad("act", E, "refuel", "10", says="charge"),
    bad("act", E, "repair", "propellers", says="lost no propeller"),
    bad("roll", "strain", E, "--extra", "2", says="built boat"),
    # ---------------------------------------------------------------- pace
    bad("pace", "Nobody", "slow", says="no ship"),
    bad("pace", W, "gallop", says="gallop"),
    bad("pace", W, "strain", says="how many knots"),
    bad("pace", W, "strain", "-1", says="negative"),
    bad("pace", W, "strain", HUGE, says="strain"),
    bad("pace", W, "strain", "99", says="may strain"),
    bad("pace", W, "strain", "0", says="1 to 99"),
    # ---------------------------------------------------------------- act
    bad("act", "Nobody", "pump", "5", says="no ship"),
    bad("act", W, "pump", "0", says="1 to"),
    bad("act", W, "pump", HUGE, says="1 to"),
    bad("act", W, "pump", "5", says="no water"),
    bad("act", W, "jettison", "0", says="1 to"),
    bad("act", W, "jettison", "-10", says="negative"),
    bad("act", W, "jettison", "100000", says="cargo"),
    bad("act", W, "refuel", "10", says="port"),
    bad("act", W, "refuel", HUGE, says="1 to"),
    bad("act", W, "repair", "leak", "3", says="leak"),
    bad("act", W, "repair", "leak", HUGE, says="1 to"),
    bad("act", W, "repair", "engine", says="engine"),
    bad("act", W, "repair", "sails", says="sails"),
    bad("act", W, "fight-fire", "--crew", "2", says="fire"),
    bad("act", W, "fight-fire", "--crew", "-1", says="--crew"),
    bad("act", W, "fight-fire", "--crew", HUGE, says="0 to"),
    bad("act", W, "saved", says="sinking"),
    bad("act", W, "refloat", says="stuck"),
    bad("act", W, "dive", "100", says="not a submersible"),  # R84
    bad("act", W, "dive", "-5", says="negative"),
    bad("act", W, "salvage", says="not aground"),  # R83
    bad("act", N, "dive", "20", says="below the charted seabed"),  # 2811: 15 ft
    bad("act", N, "dive", "0", says="how deep"),
    bad("act", N, "surface", says="surface already"),
    bad(
        "ship",
        "build",
        "Sub",
        "--body",
        "speeder",
        "--plant",
        "large",
        "--submersible",
        says="--dive-depth",
    ),
    bad("ship", "load", I, "--pumps", "-1", says="0 to"),
    bad("ship", "load", I, "--harpoons", "-1", says="0 to"),
    # R87, R21: `ship add` asks what `ship load` asks: a harpoon cannon, and R12's limit
    bad(
        "ship",
        "add",
        "Net",
        "--class",
        "trawler",
        "--tier",
        "III",
        "--engine",
        "V",
        "--harpoons",
        "5",
        says="no harpoon cannon",
    ),
    bad(
        "ship",
        "add",
        "Moby",
        "--class",
        "whaler",
        "--tier",
        "III",
        "--engine",
        "V",
        "--harpoons",
        "100000",
        says="would sink",
    ),
    bad("ship", "load", I, "--food", "-1", says="0 to"),  # R100
    bad("ship", "load", I, "--fresh-water", "many", says="whole number"),
    bad("ship", "load", I, "--raft-stores", "5", says="0 to 4 person-days"),
    bad("ship", "load", I, "--food", "999999", says="Old Iron has room for at most"),  # R103
    bad("ship", "load", I, "--fresh-water", "999999", says="--fresh-water 5822` at most"),
    bad("ship", "load", I, *("--food", "999999", "--fresh-water", "999999"), says="no room"),
    bad("ship", "load", E, "--food", "1", says="taken on in port (R103)"),  # a built boat at sea
    bad("ship", "load", I, "--food", "nan", says="whole number"),
    bad("ship", "load", I, "--fresh-water", "3.5", says="whole number"),
    bad("ship", "load", W, "--fresh-water", "10", says="taken on in port (R103)"),
    bad("act", D, "rations", "half", says="nobody is aboard Dory"),  # R101: no crew
    bad("act", I, "rations", "half", says="not counted"),
    bad("act", W, "rations", "quarter", says="half"),
    bad("act", W, "found", says="say how many person-days"),
    bad("act", W, "found", "--food", "-3", says="0 to"),
    bad("act", W, "found", "--fresh-water", "lots", says="whole number"),
    bad("act", I, "found", "--food", "999999", says="person-days more of food"),  # R103
    bad("act", W, "transfer", I, "--food", "-1", says="0 to"),
    bad("act", W, "transfer", I, "--fresh-water", "x", says="whole number"),
    bad("act", E, "rations", "half", "--water", says="not counted"),  # R101: untracked
    bad("act", I, "transfer", W, "--food", "1", says="only between ships in one hex"),
    bad("act", W, "transfer", W, "--food", "1", says="herself"),
    bad("act", W, "transfer", "Nobody", "--food", "1", says="no ship"),
    bad("map", "load", "{files}/negative_depth.yaml", says="0 or more"),
    bad("act", W, "weigh", says="anchor"),
    bad("act", W, "course", "--to", "0101", says="land"),
    bad("act", W, "course", "--to", ARABIC, says="CCRR"),
    bad("act", W, "course", "--to", "2812", "--route", "0405", says="not both"),
    bad("act", W, "teleport", says="teleport"),
    bad("act", I, "pump", "5", says="no water"),
    bad("act", D, "anchor", says="not at sea"),
    bad("act", W, "--db", "{tmp}/nothing.db", "pump", "5", says="no campaign"),
    # ---------------------------------------------------------------- encounters, towing (12)
    bad("act", W, "tow", I, says="not at sea"),
    bad("act", W, "tow", W, says="cannot tow herself"),
    bad("act", W, "tow", "Nobody", says="no ship"),
    bad("act", W, "cast-off", says="nothing in tow"),
    bad("encounter", "check", "Nobody", says="no ship"),
    bad("encounter", "check", D, says="nowhere on the map"),
    bad("encounter", "start", W, I, says="not at sea"),
    bad("encounter", "start", W, says="two sides"),
    bad("encounter", "start", W, "--leviathan", "mermaid", says="unknown leviathan"),
    bad("encounter", "round", says="no fight is under way"),
    bad("encounter", "end", says="no fight is under way"),
    bad("encounter", "status", "--fight", "9", says="no fight 9"),
    bad("encounter", "shoot", W, "--at", I, "--weapon", "hmg", says="not in a fight"),
    bad("encounter", "ram", W, I, "--kind", "broadside", says="unknown collision kind"),
    bad("encounter", "attack", "Kraken", "--at", W, says="no Kraken is in a fight"),
    bad("act", W, "pump", "5", "--db", "{tmp}/nothing.db", says="no campaign"),
    # ---------------------------------------------------------------- log, status
    bad("log", "Nobody", says="no ship"),
    bad("log", W, "--last", "0", says="1 to"),
    bad("log", W, "--last", HUGE, says="1 to"),
    bad("log", W, "--voyage", "0", says="1 to"),
    bad("log", W, "--voyage", HUGE, says="1 to"),
    bad("log", W, "--voyage", "7", says="voyage 7"),
    # ---------------------------------------------------------------- export
    bad("export", "Nobody", says="no ship"),
    bad("export", W, "--voyage", "0", says="1 to"),
    bad("export", W, "--voyage", HUGE, says="1 to"),
    bad("export", W, "--voyage", "9", says="voyage 9"),
    bad("export", I, says="no voyage"),
    bad("export", W, "--format", "docx", says="format"),
    bad("export", W, "--format", "csv", "--out", "{tmp}/log.md", says=".md"),
    bad("export", W, "--format", "json", "--out", "{tmp}/log.csv", says=".csv"),
    bad("export", W, "--out", "/dev/full", "--force", says="/dev/full"),
    bad("export", W, "--format", "json", "--out", "/dev/full", "--force", says="/dev/full"),
    bad("export", W, "--out", "/dev/full", says="exists"),
    bad("export", W, "--out", "{tmp}/no/such/log.md", says="does not exist"),
    bad("export", W, "--out", "{files}", says="is a directory"),
    # a file where the folder should be is not a folder to make (it said "does not exist:
    # make it first"); so for every command that writes where it is told
    bad("export", W, "--out", "{files}/text.txt/log.md", says="text.txt is a file, not a folder"),
    bad("journal", "--out", "{files}/text.txt/j.md", says="text.txt is a file, not a folder"),
    bad(
        "ship",
        "card",
        W,
        "--out",
        "{files}/text.txt/c.png",
        says="text.txt is a file, not a folder",
    ),
    bad(
        "map", "render", "--out", "{files}/text.txt/m.png", says="text.txt is a file, not a folder"
    ),
    bad("init", "--db", "{files}/text.txt/new.db", says="text.txt is a file, not a folder"),
    bad("demo", "--out", "{files}/text.txt/demo", says="text.txt is a file, not a folder"),
    # `--out -` is standard output for a text export; a picture or several files need a
    # name, and say so (it wrote a file called "-" in the current folder)
    bad("export", W, "-f", "png", "--out", "-", says="give a file name, such as --out track.png"),
    bad("export", W, "-f", "md", "-f", "png", "--out", "-", says="one export, not 2 (md, png)"),
    bad("export", W, "-f", "md", "-f", "json", "--out", "-", says="give one --format"),
    bad("export", W, "--out", "-", "--json", says="--json and --out - would both print"),
    bad("export", W, "-f", "md", "--out", "-", "--validate", says="add --format json"),
    bad("ship", "card", W, "--out", "-", says="a ship card cannot go to standard output"),
    bad("map", "render", "--out", "-", says="give a file name, such as --out map.png"),
    bad("weather", "forecast", "--plot", "-", says="a picture cannot go to standard output"),
    bad("forecast", W, "--plot", "-", says="such as --plot witch.png"),
    bad("demo", "--out", "-", says="give a folder name, such as --out voyage-demo"),
    bad(
        "tables",
        "export",
        "{files}/text.txt/house",
        "--all",
        says="text.txt is a file, not a folder",
    ),
    bad("export", W, "--rolls", "loud", says="rolls"),
    bad("export", W, "--out", "{tmp}/log\x00.md", says="control character"),
    bad(
        "export",
        W,
        "--format",
        "md",
        "--format",
        "csv",
        "--out",
        "{tmp}/no/such/log",
        says="does not exist",
    ),
    # ---------------------------------------------------------------- roll
    bad("roll", "capsize", says="--tier"),
    bad("roll", "capsize", "--tier", "XI", "--load", "half", says="tier"),
    bad("roll", "capsize", "--tier", "\u0664", "--load", "half", says="tier"),
    bad("roll", "capsize", "--tier", "4", "--load", "heavy", says="load"),
    bad("roll", "capsize", "--tier", "4", "--load", "half", "--seed", HUGE, says="0 to"),
    bad("roll", "capsize", "--tier", "4", "--load", "half", "--seed", "-1", says="0 to"),
    bad(
        "roll",
        "capsize",
        "--tier",
        "4",
        "--load",
        "half",
        "--advantage",
        "a\nb",
        says="control character",
    ),
    bad("roll", "capsize", W, "--seed", "3", says="--seed"),
    bad("roll", "capsize", "Nobody", says="no ship"),
    bad("roll", "dodge", "--tier", "4", "--zone", "middle", says="zone"),
    bad("roll", "hull-hit", "--tier", "4", "--weapon-mod", HUGE, says="to"),
    bad("roll", "hull-hit", "--tier", "4", "--weapon-mod", "nan", says="weapon-mod"),
    bad("roll", "ram", "--tier", "4", "--speed", HUGE, says="0 to"),
    bad("roll", "ram", "--tier", "4", "--speed", "-3", says="0 to"),
    bad("roll", "aground", "--tier", "4", "--speed", "3", says="--seabed"),
    bad("roll", "aground", "--tier", "4", "--speed", "3", "--seabed", "mud", says="seabed"),
    bad("roll", "fire", "--minute", "--severity", HUGE, "--crew", "3", says="to"),
    bad("roll", "fire", "--minute", "--severity", "0", "--crew", "3", says="to"),
    bad("roll", "fire", "--minute", "--severity", "2", "--crew", HUGE, says="0 to"),
    bad("roll", "sinking", "--tier", "4", "--load", "half", "--within", HUGE, says="0 to"),
    bad("roll", "strain", "--tier", "4", "--speed", "6", "--extra", HUGE, says="to"),
    bad("roll", "strain", "--tier", "4", "--speed", "6", "--extra", "-1", says="to"),
    bad("roll", "strain", "--tier", "4", "--speed", "6", "--extra", "9", says="strain"),
    bad("roll", "class", "zeppelin", says="zeppelin"),
    bad("roll", "class", "trawler", "--row", "sails", says="row"),
    bad("roll", "trait", "--seed", "x", says="seed"),
    bad("roll", "trait", "--tables", "{files}/tables_nan", "--seed", "1", says="finite"),
    bad("roll", "trait", "--tables", "{files}/tables_dev_zero", "--seed", "1", says="device"),
    bad("roll", "trait", "--tables", "{files}", "--seed", "1", says="not a rule table"),
    bad("roll", "trait", "--tables", "{tmp}/t\x1b", "--seed", "1", says="control character"),
    bad("roll", "escape", W, "--apply", says="stuck"),
    bad("roll", "hazard", I, "--seed", "2", says="--seed"),
    bad("roll", "teleport", says="teleport"),
    # ---------------------------------------------------------------- demo
    bad("demo", "--seed", HUGE, "--out", "{tmp}/demo", says="0 to"),
    bad("demo", "--out", "{files}/text.txt", says="is a file"),
    bad("demo", "--out", "/dev/full", says="is a file"),
    # ---------------------------------------------------------------- house tables
    bad("tables", "load", "{tmp}/nope", says="does not exist"),
    bad("tables", "load", "{files}/tables_nan", says="finite"),
    bad("tables", "load", "{files}/tables_huge", says="out of range"),
    bad("tables", "load", "{files}/tables_dice", says="d20"),
    bad("tables", "load", "{files}/tables_bad_yaml", says="tiers.yaml"),
    bad("tables", "load", "{files}", says="not a rule table"),
    bad("tables", "export", "{files}/text.txt", says="is a file"),
    bad("tables", "export", "{tmp}/no/such", says="does not exist"),
    bad("tables", "export", "{tmp}/t\x00", says="control character"),
    bad("tables", "show", "extra", says="unexpected extra argument"),
    bad("tables", "load", "{files}/tables_big", says="at most 256 KB"),
    bad("tables", "load", "{files}/tables_long_number", says="at most 40"),
    bad("tables", "load", "{files}/tables_duplicate", says="sink_multiple' is written twice"),
    bad("tables", "load", "{files}/tables_deep", says="nesting depth over 64"),
    bad("tables", "load", "{files}/tables_fifo", says="pipe (FIFO), not a regular file"),
    bad("tables", "load", "{files}/tables_dev_zero", says="a device, not a regular file"),
    bad("tables", "load", "{files}/tables_broken_link", says="no such table file"),
    bad("tables", "export", "{files}/export_fifo", "--all", "--force", says="pipe (FIFO)"),
    # ---------------------------------------------------------------- forecast, plan, weather
    bad("forecast", W, "--runs", "0", says="1 to 1000000"),
    bad("forecast", W, "--runs", HUGE, says="1 to 1000000"),
    bad("forecast", W, "--runs", "\u0661\u0660", says="digits 0-9"),
    bad("forecast", W, "--workers", "0", says="1 to 256"),
    bad("forecast", W, "--seed", "-4", says="0 to"),
    bad("forecast", W, "--seed", str(2**64), says="0 to 18446744073709551615"),
    bad("forecast", W, "--plan", "0", says="1 to"),
    bad("forecast", W, "--pace", "gallop", says="gallop"),
    bad("forecast", W, "--plot", "{tmp}/p\x00.png", says="control character"),
    bad("forecast", "Nobody", says="no ship"),
    bad("plan", I, says="--to"),
    bad("plan", I, "--to", "0101", says="land"),
    bad("plan", I, "--to", ARABIC, says="CCRR"),
    bad("plan", I, "--to", "2812", "--runs", "0", says="1 to 1000000"),
    bad("plan", I, "--to", "2812", "--objective", "prettiest", says="prettiest"),
    bad("sail", I, "--to", "2812", "--plan", "0", says="1 to"),
    bad("sail", I, "--to", "2812", "--plan", HUGE, says="1 to"),
    bad("weather", "forecast", "--days", "0", says="1 to 366"),
    bad("weather", "forecast", "--days", "400", says="1 to 366"),
    bad("weather", "forecast", "--plot", "{tmp}/w\nx.png", says="control character"),
    bad("weather", "reroll", "0", says="1 to 100000"),
    bad("weather", "reroll", HUGE, says="1 to 100000"),
    bad("weather", "storm", "0305", "--hours", "3", "--state", "typhoon", says="typhoon"),
    bad("weather", "storm", "0305", "--hours", "3", "--moving", "NE", "--every", "0", says="1 to"),
    bad("completion", says="choose from: bash, zsh, fish"),
    bad("history", "--limit", "0", says="1 to 1000000"),
    bad("history", "--limit", "\u0665", says="digits 0-9"),
    bad("settings", "undo_keep", "-3", says="negative"),
    bad("settings", "undo_keep", "\u0663", says="whole number from 1 to"),
    bad("settings", "undo_keep", "9" * 5000, says="whole number from 1 to"),
    bad("ship", "build", "Sk\niff", "--body", "Rowboat", says="control character"),
    bad("ship", "build", "Skiff", "--body", "Rowboat", "--propeller-armor", "11", says="0 to 10"),
    bad("ship", "build", "Skiff", "--body", "Rowboat", "--crew", HUGE, says="0 to 1000000"),
    bad("ship", "build", "Skiff", "--body", "Barge", says="Barge"),
    bad("ship", "build", "Skiff", "--body", "Rowboat", "--extra", "x:nan:1", says="whole number"),
    bad("ship", "build", "Skiff", "--body", "Rowboat", "--extra", "x:\u0663:1", says="0-9"),
    bad("ship", "build", "Skiff", "--body", "Rowboat", "--with", "oars:\u0662", says="0-9"),
    bad("ship", "build", "Skiff", "--body", "Rowboat", "--armor", "F\u0663", says="--armor"),
    bad("crew", "add", "Anna\nRoe", "--ship", W, says="control character (a newline)"),
    bad("crew", "add", "", "--ship", W, says="must not be empty"),
    bad("crew", "add", "Anna", "--ship", W, "--swimming", "21", says="0 to 20"),
    bad("crew", "add", "Anna", "--ship", W, "--swimming", "\u0663", says="digits 0-9"),
    bad("crew", "add", "Anna", "--ship", "Nobody", says="no ship"),
    bad("crew", "remove", "Nobody", says="no person"),
    bad("ship", "load", I, "--rafts", "-1", says="--rafts"),
    bad("ship", "load", I, "--jackets", HUGE, says="0 to 1000000"),
    bad("act", W, "rescue", says="say who to rescue"),
    bad("act", W, "search", says="nobody is afloat"),
    bad("act", W, "rescue", "Nobody", says="nobody named"),
    bad("act", W, "rescue", "--all", says="nobody is afloat"),
    bad("act", "Nobody", "search", says="no ship"),
    bad("act", I, "abandon", says="not at sea"),
    bad("crew", "move", "Nobody", "--ship", W, says="no person"),
    bad("crew", "list", "--ship", "Nobody", says="no ship"),
    bad("weather", "show", "--at", "day \u0663", says="write now"),
    bad("weather", "show", "--at", "day " + HUGE, says="is out of range"),
    bad("weather", "show", "--at", "+" + HUGE + "h", says="is out of range"),
    bad("weather", "show", "--at", "\u0660\u0663:00", says="write now"),
    bad("weather", "show", "--at", "day 0", says="before the campaign began"),
    bad("journal", "--since", "day \u0663", says="write now"),
    bad("journal", "--since", "day " + HUGE, says="is out of range"),
    bad("journal", "--for", "kids", says="kids"),
    bad("journal", "-f", "pdf", says="pdf"),
    bad("journal", "--ship", "Nobody", says="no ship named 'Nobody'"),
    bad("advance", "--until", "day \u0663", says="write now"),
    bad("advance", "--until", "+" + HUGE, says="is out of range"),
    bad("sail", "Old Iron", "--to", "Atlantis", says="neither a CCRR hex name nor a port"),
    bad("journal", "--out", "/dev/full", says="/dev/full"),
    bad("journal", "--out", "{tmp}/j\x00.md", says="control character"),
    bad("journal", "--out", "{tmp}/no/such.md", says="does not exist"),
    bad("journal", "-f", "json", "--out", "{tmp}/j.html", says="name it .json"),
    bad("journal", "--out", "{tmp}/j.csv", says="name it .md"),
    # ---------------------------------------------------------------- browse, completion, card
    bad("browse", "--port", "0", says="1 to 65535"),
    bad("browse", "--port", HUGE, says="1 to 65535"),
    bad("browse", "--port", "\u0668\u0660", says="digits 0-9"),
    bad("completion", "tcsh", says="tcsh"),
    bad("ship", "card", W, "--out", "{tmp}/card.txt", says=".png"),
    bad("ship", "card", W, "--out", "{tmp}/no/such/card.png", says="does not exist"),
    bad("ship", "card", "Nobody", says="no ship"),
    # ---------------------------------------------------------------- the group
    bad("sinkship", says="sinkship"),
    bad("export", W, "a\nb", says="unexpected extra argument (a\\nb)"),
    bad("act", W, "course", "--to", "2812", "x\ry", says="unexpected extra argument (x\\ry)"),
    bad("status", "--colour", says="--colour"),
    # ---------------------------------------------------------------- names: one rule
    bad("crew", "add", "\u200b", "--ship", W, says="needs at least one letter or digit"),
    bad("crew", "add", "...", "--ship", W, says="needs at least one letter or digit"),
    bad("ship", "add", "\u200b\u200c", "--class", "dinghy", "--tier", "1", says="letter or digit"),
    bad("init", "--db", "{tmp}/new.db", "--name", "\u2060", says="letter or digit"),
    bad("crew", "list", "--ship", "", says="a ship's name must not be empty"),
    bad("crew", "list", "--ship", "  ", says="a ship's name must not be empty"),
    bad("crew", "add", "Anna Roe", "--ship", "", says="a ship's name must not be empty"),
    bad("crew", "move", "Anna Roe", "--ship", "", says="a ship's name must not be empty"),
    bad("journal", "--ship", "", says="a ship's name must not be empty"),
    bad("encounter", "list", "--ship", "", says="a ship's name must not be empty"),
    bad("export", "", says="a ship's name must not be empty"),
    bad("log", "", says="a ship's name must not be empty"),
    bad("sail", "", "--to", "2812", says="a ship's name must not be empty"),
    bad("browse", "--host", "", says="--host must not be empty"),
    bad("browse", "--host", " ", says="--host must not be empty"),
    bad("settings", "encounter_interval", "abc", says="use one of 0, 1, 2"),
    bad("settings", "undo_keep", "1e9", says="whole number from 1 to"),
]


# ----------------------------------------------------------------------------- the world


def _write_bad_files(folder: Path) -> None:
    folder.mkdir()
    (folder / "text.txt").write_text("I am not a campaign.\n")
    (folder / "empty.db").write_bytes(b"")
    with sqlite3.connect(folder / "other.sqlite") as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    (folder / "empty_folder").mkdir()
    os.mkfifo(folder / "fifo.yaml")
    with open(folder / "big.yaml", "wb") as f:  # sparse: 21 MB that take no disk
        f.truncate(21 * 1024 * 1024)
    (folder / "binary.yaml").write_bytes(b"\xff\xfe\x00garbage\x80\x81")
    (folder / "empty.yaml").write_text("")
    small = "name: Small\nrows: |\n  #####\n  #P~~#\n  #~~~#\n  #####\nhexes:\n"
    port = '  "0202": {port: Home, fuel: {price: PRICE}}\n'
    prices = (("nan", ".nan"), ("inf", ".inf"), ("neg_inf", "-.inf"), ("huge", "1e300"))
    for name, price in prices:
        (folder / f"{name}_price.yaml").write_text(small + port.replace("PRICE", price))
    (folder / "small.yaml").write_text(small + port.replace("PRICE", "2"))
    (folder / "nan_depth.yaml").write_text(small + '  "0302": {depth: .nan}\n')
    depths = 'depths:\n  "0302": -12\n'  # R83
    (folder / "negative_depth.yaml").write_text(small + port.replace("PRICE", "2") + depths)
    for name, knots in (("nan", ".nan"), ("inf", ".inf"), ("huge", "1e300")):
        current = f'currents:\n  "0302": {{flows: S, knots: {knots}}}\n'
        water = small.replace("#P", "#~").replace("hexes:\n", "")
        (folder / f"{name}_current.yaml").write_text(water + current)
    stock = port.replace("PRICE", "2, stock: " + "9" * 25)
    (folder / "huge_stock.yaml").write_text(small + stock)
    arabic = port.replace('"0202"', '"\u0660\u0662\u0660\u0662"').replace("PRICE", "2")
    (folder / "arabic_hex.yaml").write_text(small + arabic)
    # a billion laughs: 12 levels of aliases, 9 * 5**11 strings if anything expanded them
    laughs = ["name: Laughs", "rows: |", "  ###", "notes:", "  - &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        prev, this = chr(ord("a") + i - 1), chr(ord("a") + i)
        laughs.append(f"  - &{this} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}]")
    (folder / "laughs.yaml").write_text("\n".join(laughs) + "\n")
    (folder / "deep.yaml").write_text("rows: " + "[" * 50000 + "]" * 50000 + "\n")
    (folder / "not_yaml.yaml").write_text("name: [unclosed\nrows: |\n  #\n")
    (folder / "list.yaml").write_text("- a\n- b\n")
    (folder / "control_name.yaml").write_text(
        'name: "Bad\\x1b[2Jname"\nrows: |\n  #####\n  #~~~#\n  #####\n'
    )
    dev_zero = folder / "campaign_dev_zero"
    dev_zero.mkdir()
    (dev_zero / "campaign.yaml").write_text("name: Zero\nmap: /dev/zero\n")
    map_list = folder / "campaign_map_list"
    map_list.mkdir()
    (map_list / "campaign.yaml").write_text("name: Listy\nmap: [a, b]\n")
    load = (Path(__file__).parent.parent / "tables" / "load.yaml").read_text()
    assert "sink_multiple: 2" in load, "load.yaml changed shape: update this test"
    for name, value in (("nan", ".nan"), ("inf", ".inf")):
        tables = folder / f"tables_{name}"
        tables.mkdir()
        (tables / "load.yaml").write_text(
            load.replace("sink_multiple: 2", f"sink_multiple: {value}")
        )
    huge = folder / "tables_huge"
    huge.mkdir()
    (huge / "load.yaml").write_text(load.replace("sink_multiple: 2", "sink_multiple: " + "9" * 40))
    procedures = (Path(__file__).parent.parent / "tables" / "procedures.yaml").read_text()
    assert "d12" in procedures, "procedures.yaml changed shape: update this test"
    dice = folder / "tables_dice"
    dice.mkdir()
    (dice / "procedures.yaml").write_text(procedures.replace("d12", "d\u0661\u0662", 1))
    bad_yaml = folder / "tables_bad_yaml"
    bad_yaml.mkdir()
    (bad_yaml / "tiers.yaml").write_text("tiers: [\n")
    # house tables no reader may swallow: each refused before anything is stored
    tables = {
        "long_number": load.replace("sink_multiple: 2", "sink_multiple: " + "9" * 5000),
        "duplicate": load.replace("sink_multiple: 2", "sink_multiple: 2\nsink_multiple: 3"),
        "deep": load.replace("sink_multiple: 2", "sink_multiple: " + "[" * 100 + "]" * 100),
    }
    for name, text in tables.items():
        (folder / f"tables_{name}").mkdir()
        (folder / f"tables_{name}" / "load.yaml").write_text(text)
    (folder / "tables_big").mkdir()
    with open(folder / "tables_big" / "names.yaml", "wb") as f:  # sparse: 30 MB, no disk
        f.truncate(30 * 1024 * 1024)
    for name in ("tables_fifo", "export_fifo"):
        (folder / name).mkdir()
        os.mkfifo(folder / name / "tiers.yaml")
    (folder / "tables_dev_zero").mkdir()
    (folder / "tables_dev_zero" / "tiers.yaml").symlink_to("/dev/zero")
    (folder / "tables_broken_link").mkdir()
    (folder / "tables_broken_link" / "tiers.yaml").symlink_to(folder / "nowhere.yaml")
    (folder / "long_number.yaml").write_text(small + port.replace("PRICE", "9" * 5000))
    for name, text in (
        ("duplicate", "name: One\nname: Two\n"),
        ("deep", "name: Deep\ndemo: " + "{a: " * 100 + "1" + "}" * 100 + "\n"),
    ):
        (folder / f"campaign_{name}").mkdir()
        (folder / f"campaign_{name}" / "campaign.yaml").write_text(text)
    (folder / "campaign_fifo").mkdir()
    os.mkfifo(folder / "campaign_fifo" / "campaign.yaml")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, list[tuple]]]:
    """A scratch campaign (the Sea Witch at sea, the Old Iron in port, the Dory unplaced, a
    storm blowing, three hours sailed) and the folder of bad files."""
    root = tmp_path_factory.mktemp("bad-inputs")
    files = root / "files"
    _write_bad_files(files)
    db = root / "campaign.db"
    runner = CliRunner()
    for args in (
        ["init", "--name", "Scratch", "--seed", "7"],
        ["map", "load", "salt_reach"],
        ["ship", "add", W, "--class", "trawler", "--tier", "IV", "--engine", "V"],
        ["ship", "load", W, "--crew", "5", "--cargo", "200", "--fuel", "60"],
        ["ship", "place", W, "0305"],
        ["ship", "add", I, "--class", "freighter", "--tier", "VIII", "--engine", "VIII"],
        ["ship", "load", I, "--crew", "10", "--fuel", "100"],
        ["ship", "place", I, "0305"],
        ["ship", "add", D, "--class", "dinghy", "--tier", "I"],
        ["sail", W, "--to", "2812"],
        ["ship", "build", E, "--design", "Moray"],  # a built boat at sea (R80-R82)
        ["ship", "place", E, "0305"],
        ["sail", E, "--to", "2812"],
        # R84: a submersible at 6 mph (4.5 surfaced) is in 2811, charted 15 ft, at hour 3
        ["ship", "build", N, *SUBMERSIBLE],
        ["ship", "place", N, "2812"],
        ["pace", N, "6mph"],
        ["sail", N, "--route", "2812,2811,2711"],
        ["weather", "storm", "--around", "1510", "--radius", "2", "--hours", "24"],
        ["advance", "--hours", "3"],
    ):
        result = runner.invoke(cli, [*args, "--db", str(db)])
        assert result.exit_code == 0, (args, result.output)
    with sqlite3.connect(db) as conn:  # one file to copy: no -wal beside it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db, files, db_contents(db)


class _TooSlow(BaseException):
    """Raised by the alarm: a BaseException so no handler in voyage swallows it."""


def _alarm(_signum: int, _frame: object) -> None:
    raise _TooSlow


def _virtual_bytes() -> int:
    """This process's virtual memory size now (Linux /proc), 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@contextmanager
def _limits() -> Iterator[None]:
    """At most SECONDS of wall time and MEGABYTES more memory for the command: past the
    alarm a _TooSlow is raised; past the memory limit an allocation fails (MemoryError),
    which the test then reports as an exception instead of the machine swapping."""
    old_handler = signal.signal(signal.SIGALRM, _alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    now = _virtual_bytes()
    if now:
        limit = now + MEGABYTES * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard < 0 else min(limit, hard), hard))
    signal.setitimer(signal.ITIMER_REAL, SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_a_bad_input_gets_one_line_and_changes_nothing(
    row: Bad,
    world: tuple[Path, Path, dict[str, list[tuple]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    template, files, before = world  # every copy starts with the template's rows
    db = tmp_path / "campaign.db"
    shutil.copyfile(template, db)
    monkeypatch.setenv("VOYAGE_DB", str(db))
    monkeypatch.chdir(tmp_path)
    args = [a.format(files=files, db=db, tmp=tmp_path) for a in row.args]
    started = time.perf_counter()
    try:
        with _limits():
            result = CliRunner().invoke(cli, args)
    except _TooSlow:
        pytest.fail(f"still running after {SECONDS} s")
    took = time.perf_counter() - started
    output = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__}: {result.exception}\n{output}"
    )
    assert "Traceback" not in output, output
    assert result.exit_code in (1, 2), output
    lines = output.splitlines()
    if result.exit_code == 2 and lines and lines[0].startswith("Usage: "):
        # click's usage error: "Usage: ...", "Try '... --help' for help.", "", "Error: ..."
        assert lines[1].startswith("Try ") and lines[2] == "", output
        lines = lines[3:]
    assert len(lines) == 1 and lines[0].startswith("Error: "), output
    assert row.says.lower() in lines[0].lower(), output
    assert db_contents(db) == before, "a refused command changed the campaign"
    assert took < SECONDS


def test_the_table_is_long_enough() -> None:
    assert len(ROWS) >= 150
    assert len({r.args for r in ROWS}) == len(ROWS), "a row is listed twice"


# ----------------------------------------------------------------------------- the last net


@pytest.mark.parametrize(
    ("error", "says"),
    [
        (RuntimeError("boom\nsecond line"), "unexpected RuntimeError: boom second line"),
        (OSError(28, "No space left on device", "/tmp/x.db"), "no space left on the disk"),
        (sqlite3.OperationalError("database or disk is full"), "is full: nothing was changed"),
        (PermissionError(13, "Permission denied", "/x"), "/x"),
        (MemoryError(), "out of memory"),
    ],
)
def test_main_turns_any_unexpected_error_into_one_line(
    error: BaseException,
    says: str,
    db: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the commands name the campaign file's troubles themselves (core_errors, via
    # voyage.store.campaignfile.explain); main() is the last net for what nobody foresaw
    import voyage.store.campaign
    from voyage.cli import main

    def fail(*_args: object, **_kwargs: object) -> None:
        raise error

    monkeypatch.setattr(voyage.store.campaign, "open_campaign", fail)
    monkeypatch.setattr("sys.argv", ["voyage", "status"])
    monkeypatch.delenv("VOYAGE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("Error: ") and says in err, err


def test_voyage_debug_shows_the_traceback(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import voyage.store.campaign
    from voyage.cli import main

    def fail(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(voyage.store.campaign, "open_campaign", fail)
    monkeypatch.setattr("sys.argv", ["voyage", "status"])
    monkeypatch.setenv("VOYAGE_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        main()


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # `voyage ... | head`: the reader goes away; no traceback, no "Exception ignored" noise
    import subprocess
    import sys

    script = "import sys; from voyage.cli import main; sys.argv = ['voyage', '--help']; main()"
    reader = subprocess.Popen(  # noqa: S603 - our own interpreter and a fixed script
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # before the command writes anything
    err = reader.stderr.read().decode()
    reader.wait(timeout=30)
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_a_full_disk_under_the_campaign_is_one_line_and_changes_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite's own "database or disk is full": the file may not grow by a page
    import voyage.store.campaign

    connect = voyage.store.campaign._connect

    def no_room(path: Path):  # type: ignore[no-untyped-def]
        found = connect(path)
        pages = found.conn.execute("PRAGMA page_count").fetchone()[0]
        found.conn.execute(f"PRAGMA max_page_count = {pages}")
        return found

    before = db_contents(db)
    monkeypatch.setattr(voyage.store.campaign, "_connect", no_room)
    result = CliRunner().invoke(cli, ["ship", "roll", "--count", "200", "--no-rolls"])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: the disk holding ")
    assert "is full: nothing was changed" in result.output
    assert result.output.count("\n") == 1
    monkeypatch.setattr(voyage.store.campaign, "_connect", connect)
    assert db_contents(db) == before


def test_map_load_with_ships_at_sea_on_water_in_the_new_map(runner: CliRunner, db: Path) -> None:
    # the refusal is only for hexes the new map lacks: the same sea again loads fine
    for args in (
        ["map", "load", "salt_reach"],
        ["ship", "add", W, "--class", "trawler", "--tier", "IV", "--engine", "V"],
        ["ship", "load", W, "--crew", "5", "--fuel", "60"],
        ["ship", "place", W, "0305"],
        ["sail", W, "--to", "2812"],
        ["advance", "--hours", "3"],
        ["map", "load", "salt_reach"],
    ):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (args, result.output)


@pytest.mark.parametrize(
    ("name", "refused_as"),
    [
        ("Sea Witch", None),
        ("Morgenr\u00f8de", None),
        ("\u0645\u06cc\u200c\u0631\u0648\u062f", None),  # Persian needs the zero-width non-joiner
        ("Gull\u00adwing", None),  # a soft hyphen is invisible formatting, not a line break
        ("Gull\nWing", "a newline"),
        ("Gull\u2029Wing", "U+2029"),  # the paragraph separator breaks lines in editors
        ("Gull\u202eWing", "U+202E"),  # a right-to-left override shows the name reversed
        ("Gull\x7fWing", "U+007F"),
    ],
)
def test_which_characters_a_name_may_hold(name: str, refused_as: str | None) -> None:
    from voyage.base.text import control_character

    assert control_character(name) == refused_as
