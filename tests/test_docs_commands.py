"""Every `voyage ...` command shown in README.md and docs/*.md runs.

The commands are read out of the documents' fenced code blocks: `$ voyage ...` lines of a
transcript and bare `voyage ...` lines (a trailing `# comment` is dropped, as a shell would).
In docs/commands.md, which is generated from `--help`, only the commands' own "Example:" lines
run (the usage text around them is not a command); those examples live in the commands'
docstrings, so every command is covered.

Each document gets a scratch campaign, prepared with real commands into the state its text
assumes (SETUP below: the Salt Reach loaded, the Sea Witch rolled, laden and placed ...), in a
folder of its own under tmp_path, which is the current folder while its commands run, so
every file a command writes (exports, pictures, house tables) lands there and never in the
repository. The commands of a document run in document order against one copy of the
prepared campaign. A command must exit 0, unless the document shows it failing: then the
`Error:` line right after it must be what it prints (up to a `...` where the document trims).

docs/commands.md is a reference, not a story: its examples are in alphabetical order of
command, so each runs against its own fresh copy of the prepared campaign, after the few
commands in EXAMPLE_SETUP that put the ship into the state the example needs (aground before
`act refloat`, sinking before `act saved` ...).

Where a page lists alternatives for a ship in different states ("a ship in port: ...", "a ship
at sea: ..."), BEFORE puts her in the state the line names. The README's transcript shows
real output, and every line of it (but those trimmed with "...") must be printed
(REAL_OUTPUT). `forecast` and `plan` run with few runs (FEW_RUNS); `browse`, a server, is
skipped (SKIP). Pages added later need nothing here unless they assume more than the
Sea Witch laden in Gullhaven (DEFAULT_SETUP).
"""

from __future__ import annotations

import re
import shlex
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from voyage.cli import cli

ROOT = Path(__file__).parent.parent

#: Placeholders a document may show in place of a real value, and what the test uses.
#: (Files named by `--db` that a document takes for granted are made in FILES below.)
PLACEHOLDERS = {
    "SHIP": "Sea Witch",
    "CCRR": "0305",
    "FILE": "campaign.db",
    "DIR": "house",
}

#: Commands skipped, with the reason: a server that runs until Ctrl-C; stores actions that
#: need a campaign set up for them.
SKIP = {
    ("browse",): "serves Datasette until Ctrl-C; tests/test_browse.py drives it through "
    "Datasette's test client",
    # R101, R103: a ship whose stores are counted, and a second ship in her hex;
    # tests/test_stores.py drives both
    ("act", "Sea Witch", "rations"): "needs stores loaded first (tests/test_stores.py)",
    ("act", "Sea Witch", "transfer"): "needs a second ship (tests/test_stores.py)",
}

# The Salt Reach with the Sea Witch rolled (a trawler, as the README's tour rolls her) and laden.
_REACH = [
    'init --name "The Salt Reach" --seed 7 --start 1492-06-01',
    "map load salt_reach",
    'ship add "Sea Witch" --class trawler --tier IV --engine III',
    'ship load "Sea Witch" --crew 6 --cargo 200 --fuel 40',
]
_PLACED = [*_REACH, 'ship place "Sea Witch" 0305']
# Two voyages behind her: Gullhaven (0305) out to 0706 and back.
_TWO_VOYAGES = [
    *_PLACED,
    'sail "Sea Witch" --to 0706',
    "advance --until arrival",
    'sail "Sea Witch" --to 0305',
    "advance --until arrival",
]

_AT_SEA = ['sail "Sea Witch" --to 2812', "advance --hours 4"]  # a hex out (4 knots)
# The Gull: the Sea Witch's twin (same class, tiers and load, so the same speed), in Gullhaven.
_GULL = [
    "ship add Gull --class trawler --tier IV --engine III",
    "ship load Gull --crew 6 --cargo 200 --fuel 40",
    "ship place Gull 0305",
]
# The two twins sail together and are in the same hex, a hex out, four hours later.
_TWINS_OUT = [*_GULL, 'sail "Sea Witch" --to 2812', "sail Gull --to 2812", "advance --hours 4"]

_HARPY_OUT = [
    _GULL[0].replace("Gull", '"Iron Harpy"') + ' --weapon "Artillery Cannon"',
    *[s.replace("Gull", '"Iron Harpy"') for s in _TWINS_OUT[1:]],
]

#: A document not named in SETUP: the Sea Witch laden in Gullhaven.
DEFAULT_SETUP = _PLACED

#: Prepared campaigns a document's story can start again from (`@fresh NAME` in BEFORE).
FRESH = {"in port": _PLACED}

#: Where a document lists alternatives for ships in different states ("a ship in port: ...",
#: "a ship at sea: ..."), the steps that put her in the state its comment names, run just
#: before the command (by document and command words).
BEFORE: dict[tuple[str, str], list[str]] = {
    # the README's forecast section after the tour: the Sea Witch is aground at sea there
    ("README.md", 'plan "Sea Witch" --to 2812'): ["@fresh in port"],
    ("docs/forecast.md", 'forecast "Sea Witch"'): _AT_SEA,
    # the Mercy sails with the Gull, and is abandoned where they arrive (R71)
    ("docs/people.md", "sail Gull --to 1709"): ["sail Mercy --to 1809"],  # through 1709
    ("docs/people.md", "act Gull search"): ["act Mercy abandon"],
    # "rescue --all" is the referee's other way to the search: the search found everyone in
    # its first hour here, so the hours of searching are taken back first
    ("docs/people.md", "act Gull rescue --all"): ["undo"],
    ("docs/forecast.md", 'forecast "Sea Witch" --to 2812 --plan 3 --plot witch.png'): [
        "@fresh in port"
    ],
    # R85: the pumps' switch wants pumps aboard (loaded in port, as the page says)
    ("docs/boats.md", 'act "Sea Witch" pumps on'): ['ship load "Sea Witch" --pumps 2'],
    # the plan that cannot get there: the Moray in Keelhaul at 60 mph, as the page says
    ("docs/boats.md", "plan Moray --to 0305"): [
        "ship build Moray --design Moray",
        "ship place Moray 2906",
        "pace Moray 60mph",
    ],
}

#: A forecast sails the voyage thousands of times (10,000 by default); the test asks each
#: `forecast` and `plan` for a few runs on one worker: the same command, only fewer samples.
FEW_RUNS = {
    "forecast": ["--runs", "20", "--workers", "1"],
    "plan": ["--runs", "20", "--workers", "1"],
}

#: The state each document assumes before its first command, made with real commands.
SETUP: dict[str, list[str]] = {
    "README.md": [],  # the tour starts with `voyage init` in an empty folder
    "docs/calendar.md": [],  # starts with `voyage init` too
    # a referee's evening, from an empty folder to the players' handouts
    "docs/session.md": [],
    # A campaign with a house tiers table, as the page's `settings tables` shows: the
    # built-in tables written out by a scratch campaign, all but tiers.yaml dropped, and the
    # campaign made with that folder.
    "docs/campaigns.md": [
        "init --db scratch.db --seed 1",
        "tables export --db scratch.db ref-house --all",
        "@keep ref-house tiers.yaml",
        "@remove scratch.db",
        _REACH[0] + " --tables ref-house",
        *_REACH[1:],
        'ship add "Gull" --class trawler --tier III --engine III',
    ],
    "docs/exports.md": _TWO_VOYAGES,
    "docs/maps.md": [*_REACH, "map export -f wxx --out reach.wxx"],  # a .wxx to import
    "docs/voyages.md": _REACH,
    "docs/weather.md": [
        *_PLACED,
        # a storm placed before the page's own, so that `weather clear 2` has one to clear
        "weather storm 0404 --hours 6",
        # day 3's 06:00 has come, so `weather reroll 3` has a rolled day to roll again
        "advance --hours 60",
    ],
    "docs/rulings.md": _REACH,
    # the Iron Harpy, the Sea Witch's twin, sailing beside her, a hex out
    "docs/encounters.md": [
        *_REACH[:2],
        _REACH[2] + ' --weapon "Heavy Machine Gun"',
        *_PLACED[3:],
        *_HARPY_OUT,
    ],
    # the Mercy and the Gull, twins, side by side in Gullhaven
    "docs/people.md": [
        *_REACH[:2],
        *[s.replace("Gull", "Mercy") for s in _GULL],
        *_GULL,
    ],
    "docs/commands.md": _PLACED,
}

_NAUTILUS = [
    "ship build Nautilus --body speeder --plant large --with boat-top --submersible "
    "--dive-depth 300",
    "ship place Nautilus 2712",  # open sea off Ironport: R84 with R65 bounds a dive in port
]

#: docs/commands.md: what an example needs done first, by the command it runs (the longest
#: matching prefix of its words wins).
EXAMPLE_SETUP: dict[tuple[str, ...], list[str]] = {
    # a built boat (the seed's Moray) in Gullhaven, her charge part spent (R82)
    ("act", "Moray", "recharge"): [
        "ship build Moray --design Moray",
        "ship load Moray --fuel 120",
        "ship place Moray 0305",
    ],
    ("act",): ['sail "Sea Witch" --to 2812'],
    # a Worldographer file to import: the Reach itself, exported
    ("map", "import"): ["map export -f wxx --out reach.wxx"],
    # her two voyages, drawn as tracks
    ("map", "export", "-f", "wxx", "--out", "tracks.wxx"): _TWO_VOYAGES[len(_PLACED) :],
    # R87: a whaler (her harpoon cannon standard, R21) in Gullhaven
    ("ship", "load", "Moby"): [
        "ship add Moby --class whaler --tier IV --engine VI",
        "ship place Moby 0305",
    ],
    # R84: a submersible at sea (surfaced; `surface` after a dive); R83: a Cruiser aground
    # on the Silt banks (6 ft of sand) beside Silt Harbour
    ("act", "Nautilus"): [*_NAUTILUS, "sail Nautilus --to 1714"],
    ("act", "Nautilus", "surface"): [
        *_NAUTILUS,
        "sail Nautilus --to 1714",
        "act Nautilus dive 100",
    ],
    # R84 with track_armor: the Eel's armour worn by a dive past her rating, moored in
    # Ironport to have it made good
    ("act", "Eel", "repair"): [
        "settings track_armor true",
        "ship build Eel --body speeder --plant large --propellers 2 --with boat-top --crew 2 "
        "--armor F10,R7,L7,B3,T3,U10 --submersible --dive-depth 300",
        # dived past her rating in the open sea off Ironport (2712: an uncharted harbour
        # bounds a dive at an anchor's 150 ft, R65), then in to Ironport (2812)
        "ship place Eel 2712",
        "sail Eel --to 2812",
        "act Eel dive 420",
        "act Eel surface",
        "advance --hours 2",
    ],
    ("act", "Lucky", "salvage"): [
        'ship build Lucky --design "Lucky Catch"',
        "ship place Lucky 0804",
        "sail Lucky --route 0804,0805,0806",
        "advance --hours 1",
    ],
    ("act", "Sea Witch", "refuel"): [],  # in Gullhaven, which sells fuel
    ("act", "Sea Witch", "course"): ['sail "Sea Witch" --to 2812', "advance --hours 1"],
    ("act", "Sea Witch", "weigh"): ['sail "Sea Witch" --to 2812', 'act "Sea Witch" anchor'],
    ("act", "Sea Witch", "refloat"): [
        'sail "Sea Witch" --to 2812',
        'roll aground "Sea Witch" --seabed sandy --apply',
    ],
    ("act", "Sea Witch", "saved"): [
        'sail "Sea Witch" --to 2812',
        'roll sinking "Sea Witch" --apply',
    ],
    ("act", "Sea Witch", "abandon"): _AT_SEA,  # at sea, not in port (R71)
    # Anna Roe in the Sea Witch's raft, the Gull beside her (R71, R74)
    ("act", "Gull", "rescue"): [
        'crew add "Anna Roe" --ship "Sea Witch" --passenger --swimming 0',
        'ship load "Sea Witch" --rafts 1',
        *_TWINS_OUT,
        'act "Sea Witch" abandon',
    ],
    ("act", "Sea Witch", "search"): [*_TWINS_OUT, "act Gull abandon"],
    # a fight under way between the Sea Witch and the Iron Harpy (her twin, with a cannon)
    ("encounter",): [*_HARPY_OUT, 'encounter start "Sea Witch" "Iron Harpy" --range 400'],
    ("encounter", "start"): _HARPY_OUT,
    ("encounter", "start", "Sea Witch", "--leviathan"): _AT_SEA,
    ("encounter", "attack"): [
        *_AT_SEA,
        'encounter start "Sea Witch" --leviathan kraken',
        "encounter round",
    ],
    # the actions of a round need a round begun (R90)
    ("encounter", "ram"): [
        *_HARPY_OUT,
        'encounter start "Sea Witch" "Iron Harpy"',
        "encounter round",
    ],
    ("encounter", "shoot"): [
        *_HARPY_OUT,
        'encounter start "Sea Witch" "Iron Harpy"',
        "encounter round",
    ],
    # the Old Faithful beside the Sea Witch, at sea; cast-off needs her in tow first (R92)
    ("act", "Old Faithful"): [s.replace("Gull", '"Old Faithful"') for s in _TWINS_OUT],
    ("act", "Old Faithful", "cast-off"): [
        *[s.replace("Gull", '"Old Faithful"') for s in _TWINS_OUT],
        'act "Old Faithful" tow "Sea Witch"',
    ],
    ("crew", "move"): ['crew add "Tom Pike" --ship "Sea Witch" --swimming 4', *_GULL],
    ("crew", "remove"): ['crew add "Tom Pike" --ship "Sea Witch" --swimming 4'],
    ("act", "Sea Witch", "repair", "leak"): [
        'sail "Sea Witch" --to 2812',
        'roll hull-hit "Sea Witch" --apply',
    ],
    ("act", "Sea Witch", "repair", "engine"): [  # strained until the engine breaks (R14)
        'sail "Sea Witch" --to 2812 --pace strain 2',
        "advance --hours 12",
    ],
    ("act", "Sea Witch", "fight-fire"): [
        'sail "Sea Witch" --to 2812',
        'roll fire "Sea Witch" --apply',
    ],
    ("act", "Sea Witch", "pump"): [
        'sail "Sea Witch" --to 2812',
        'roll hull-hit "Sea Witch" --weapon-mod 20 --apply',
        "advance --hours 1",
    ],
    ("act", "--json", "Sea Witch", "pump"): [
        'sail "Sea Witch" --to 2812',
        'roll hull-hit "Sea Witch" --weapon-mod 20 --apply',
        "advance --hours 1",
    ],
    # R85: the bilge pumps' switch needs pumps aboard (`auto` needs the switch taken first)
    ("act", "Sea Witch", "pumps"): [
        'ship load "Sea Witch" --pumps 2',
        'sail "Sea Witch" --to 2812',
    ],
    ("act", "Sea Witch", "pumps", "auto"): [
        'ship load "Sea Witch" --pumps 2',
        'sail "Sea Witch" --to 2812',
        'act "Sea Witch" pumps on',
    ],
    ("roll",): ['sail "Sea Witch" --to 2812'],  # `roll ... --apply` changes a ship at sea
    ("pace", "Moray"): ["ship build Moray --design Moray"],  # a built boat's mph (R82)
    ("ship", "add"): ['ship remove "Sea Witch"'],
    ("tables", "export"): [  # a campaign with a house table to write out
        "tables export ref --all",
        "@keep ref tiers.yaml",
        "tables load ref",
    ],
    ("tables", "load"): ["tables export house --all"],
    ("weather", "clear"): ["weather storm 0404 --hours 6", "weather storm 0405 --hours 6"],
    ("weather", "reroll"): ["advance --hours 60"],
    ("advance",): ['sail "Sea Witch" --to 0706'],
    ("export",): [*_TWO_VOYAGES[len(_PLACED) :]],
    ("log",): ['sail "Sea Witch" --to 0706', "advance --until arrival"],
    ("pace",): [],
    ("forecast", "Sea Witch", "--runs"): _AT_SEA,  # "from where she is now"
    ("journal",): ['sail "Sea Witch" --to 2812', "advance --hours 30"],  # day 2 has come
    ("sail",): [],
    ("init",): ["@remove campaign.db"],
}

#: Files a document names with `--db` as if they were there, made from the prepared campaign.
#: damaged.db (docs/campaigns.md) is the one file the test writes into directly: damage cannot
#: be made with voyage's own commands, which is the point of `voyage doctor`.
FILES: dict[str, str] = {
    "old-campaign.db": "copy",
    "salt-reach.db": "copy",
    "damaged.db": "damage Gull's traits",
}

#: Documents whose transcripts show real output: every line shown after a `$ voyage ...`
#: (but those trimmed with "...") must be printed by it. Elsewhere the output shown is an
#: illustration (another campaign's figures, a referee's own paths).
REAL_OUTPUT = {"README.md"}

#: Documents whose commands run with the engine's encounter checks (R93) on, as a referee's
#: do (tests/conftest.py turns them off elsewhere): a transcript of real output must show the
#: advance stopping at an encounter where a referee's would (the README's tour once showed an
#: advance that a referee's stopped at an encounter hours before).
WITH_ENCOUNTERS = REAL_OUTPUT

#: Commands a document shows failing without an `Error:` line: `doctor` reports problems on
#: several lines and exits 1.
EXIT_CODES = {("doctor", "--db", "damaged.db"): 1}


@dataclass
class Shown:
    """One command shown in a document."""

    doc: str
    line: int
    args: list[str]
    error: str | None  # the `Error:` line shown right after it, without "Error: "
    example_of: bool  # a docs/commands.md example (runs on a fresh copy)
    output: list[str]  # the lines a `$ voyage ...` transcript shows it printing

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: voyage {shlex.join(self.args)}"


_COMMAND = re.compile(r"^\s*(?:\$ )?voyage\s+(.*)$")


def _words(text: str) -> list[str]:
    words = shlex.split(text, comments=True)
    if ">" in words:  # a shell redirection: the output is not needed here
        words = words[: words.index(">")]
    # a path in the home folder goes to a folder "home" in the scratch folder instead
    return [f"home/{w[2:]}" if w.startswith("~/") else PLACEHOLDERS.get(w, w) for w in words]


def shown_commands(doc: str) -> list[Shown]:
    """The `voyage ...` commands in the code blocks of ``doc`` (fenced, or indented four
    spaces), in document order; a line ending in a backslash goes on on the next line."""
    lines = (ROOT / doc).read_text().splitlines()
    reference = doc == "docs/commands.md"
    found: list[Shown] = []
    fenced = in_example = transcript = False
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if line.startswith("```"):
            fenced, in_example, transcript = not fenced, False, False
            continue
        if not fenced and not (line.startswith("    ") and not reference):
            continue
        if reference:
            # the help text of a command: only its Example(s): paragraph holds commands
            if re.match(r"^\s*Examples?:\s*$", line):
                in_example = True
            elif line and not line.startswith("    "):
                in_example = False
            if not in_example:
                continue
        match = _COMMAND.match(line)
        if match:
            first, text = number, match.group(1)
            while text.endswith("\\") and number < len(lines):
                text = text[:-1] + " " + lines[number].strip()
                number += 1
            error = None
            after = lines[number] if number < len(lines) else ""
            if after.startswith("Error: "):
                error = after[len("Error: ") :]
            found.append(Shown(doc, first, _words(text), error, reference, []))
            transcript = line.startswith("$ ")
        elif fenced and found and transcript and line.strip() and found[-1].line < number:
            found[-1].output.append(line)
    return found


DOCS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


def _run(runner: CliRunner, args: list[str]):
    if args and args[0] in FEW_RUNS:
        args = list(args)
        few = FEW_RUNS[args[0]]
        for option, value in zip(few[::2], few[1::2], strict=True):
            if option in args:
                args[args.index(option) + 1] = value
            else:
                args += [option, value]
    return runner.invoke(cli, args, catch_exceptions=True)


def _prepare(
    folder: Path, steps: list[str], runner: CliRunner, prepared: dict[str, Path] | None = None
) -> None:
    for step in steps:
        if step.startswith("@fresh "):  # the story starts again from a prepared campaign
            assert prepared is not None
            for suffix in ("", "-wal", "-shm"):  # SQLite's side files go with the file
                (folder / f"campaign.db{suffix}").unlink(missing_ok=True)
                source = prepared[step] / f"campaign.db{suffix}"
                if source.exists():
                    shutil.copy(source, folder / source.name)
            continue
        if step.startswith("@remove "):  # a file the preparation made and no longer needs
            (folder / step.split(" ", 1)[1]).unlink(missing_ok=True)
            continue
        if step.startswith("@keep "):  # @keep DIR NAME: only that file of a written folder
            _, where, keep = step.split(" ")
            for path in (folder / where).iterdir():
                if path.name != keep:
                    path.unlink()
            continue
        result = _run(runner, _words(step))
        assert result.exit_code == 0, (step, result.output, result.exception)


def _make_files(folder: Path, named: set[str]) -> None:
    """The FILES among ``named``, made from the folder's campaign."""
    if not (folder / "campaign.db").exists():
        return
    for name, how in FILES.items():
        if name not in named:
            continue
        # SQLite's backup reads through the -wal file a command may have left beside it
        source, copy = sqlite3.connect(folder / "campaign.db"), sqlite3.connect(folder / name)
        source.backup(copy)
        if how.startswith("damage"):
            with copy:
                hit = copy.execute("UPDATE ships SET traits = '[\"Thrifty' WHERE name = 'Gull'")
            assert hit.rowcount == 1, "the campaign has no Gull to damage"
        source.close()
        copy.close()


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One prepared campaign folder per distinct SETUP, made once for the module."""
    made: dict[tuple[str, ...], Path] = {}
    by_doc: dict[str, Path] = {}
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("VOYAGE_DB", raising=False)
        mp.setenv("NO_COLOR", "1")
        for doc in DOCS:
            steps = tuple(SETUP.get(doc, DEFAULT_SETUP))
            if steps not in made:
                folder = tmp_path_factory.mktemp("setup")
                mp.chdir(folder)
                _prepare(folder, list(steps), runner)
                made[steps] = folder
            by_doc[doc] = made[steps]
        for name, fresh in FRESH.items():
            steps = tuple(fresh)
            if steps not in made:
                folder = tmp_path_factory.mktemp("setup")
                mp.chdir(folder)
                _prepare(folder, list(steps), runner)
                made[steps] = folder
            by_doc[f"@fresh {name}"] = made[steps]
    return by_doc


def _check(shown: Shown, result) -> str | None:
    """What is wrong with the result of running ``shown``, or None."""
    if result.exception and not isinstance(result.exception, SystemExit):
        return f"{shown}: raised {result.exception!r}"
    expected_exit = EXIT_CODES.get(tuple(shown.args))
    if shown.error is None and expected_exit is None:
        if result.exit_code != 0:
            return f"{shown}: exit {result.exit_code}: {result.output.strip()[-400:]}"
        if shown.doc in REAL_OUTPUT:
            for line in shown.output:
                if "..." not in line and line.rstrip() not in result.output:
                    return f"{shown}: does not print {line!r}:\n{result.output}"
        return None
    if expected_exit is not None:
        if result.exit_code != expected_exit:
            return f"{shown}: exit {result.exit_code}, the document shows {expected_exit}"
        return None
    assert shown.error is not None
    if result.exit_code == 0:
        return f"{shown}: succeeded, but the document shows it failing: {shown.error}"
    wanted = shown.error.split("...")[0].strip()
    if wanted not in result.output:
        return f"{shown}: printed {result.output.strip()!r}, the document shows {shown.error!r}"
    return None


def _example_setup(args: list[str]) -> list[str]:
    best: tuple[str, ...] = ()
    for prefix in EXAMPLE_SETUP:
        if tuple(args[: len(prefix)]) == prefix and len(prefix) > len(best):
            best = prefix
    return EXAMPLE_SETUP.get(best, [])


@pytest.mark.parametrize(
    "doc",
    [pytest.param(d, marks=pytest.mark.encounters) if d in WITH_ENCOUNTERS else d for d in DOCS],
)
def test_every_command_a_document_shows_runs(doc, prepared, tmp_path, monkeypatch):
    commands = shown_commands(doc)
    monkeypatch.delenv("VOYAGE_DB", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    problems: list[str] = []
    ran = 0
    folder = tmp_path / "story"
    states: dict[tuple[str, ...], Path] = {}
    everything = [word for shown in commands for word in shown.args]
    before = {tuple(_words(line)): steps for (d, line), steps in BEFORE.items() if d == doc}
    for shown in commands:
        if any(tuple(shown.args[: len(k)]) == k for k in SKIP):
            continue
        if shown.example_of or ran == 0:
            # a fresh copy of the prepared campaign: for each example of the reference (in
            # the state its EXAMPLE_SETUP makes, prepared once per state), else once for the
            # whole document
            source = prepared[doc]
            if shown.example_of:
                steps = tuple(_example_setup(shown.args))
                if steps not in states:
                    states[steps] = tmp_path / f"state{len(states)}"
                    shutil.copytree(prepared[doc], states[steps])
                    monkeypatch.chdir(states[steps])
                    _prepare(states[steps], list(steps), runner)
                source = states[steps]
            shutil.rmtree(folder, ignore_errors=True)
            shutil.copytree(source, folder)
            monkeypatch.chdir(folder)
            _make_files(folder, set(shown.args if shown.example_of else everything))
        _prepare(folder, before.get(tuple(shown.args), []), runner, prepared)
        ran += 1
        problem = _check(shown, _run(runner, shown.args))
        if problem:
            problems.append(problem)
    assert not problems, "\n".join(problems)


def test_the_reference_examples_cover_every_command():
    """The docstrings' examples reach every command, so the test above runs each one."""
    import click

    from voyage.cli.docs import walk

    root = click.Context(cli, info_name="voyage", **cli.context_settings)
    names = {full.split(" ", 1)[1] for full, cmd, _ in walk(cli, root)}
    leaves = {
        full.split(" ", 1)[1]
        for full, cmd, _ in walk(cli, root)
        if not isinstance(cmd, click.Group)
    }
    examples = [" ".join(s.args) for s in shown_commands("docs/commands.md")]
    missing = []
    for name in sorted(leaves):
        words = name.split(" ")
        if words[0] == "act":  # act SHIP WHAT: the ship comes between the words
            pattern = re.compile(rf"^act .* {re.escape(words[1])}\b")
        else:
            pattern = re.compile(rf"^{re.escape(name)}\b")
        if not any(pattern.match(e) for e in examples):
            missing.append(name)
    assert names and not missing, f"commands no example runs: {missing}"


def test_no_reference_example_is_wrapped_onto_two_lines():
    """A help example longer than the reference's width would wrap, and only its first line
    would run: every line of an Example paragraph is a whole command (or the shell's `eval`
    of one)."""
    lines = (ROOT / "docs" / "commands.md").read_text().splitlines()
    in_example = False
    strays = []
    previous = ""
    for line in lines:
        if re.match(r"^\s*Examples?:\s*$", line):
            in_example = True
        elif line and not line.startswith("    "):
            in_example = False
        elif in_example and line.strip() and not _COMMAND.match(line):
            # a shell continuation line (after a backslash) belongs to the command above
            strays += [] if previous.endswith("\\") else [line.strip()]
        previous = line
    strays = [s for s in strays if not s.startswith('eval "$(voyage ')]
    assert not strays, strays


def test_the_extraction_finds_commands_errors_and_skips_usage_text():
    readme = shown_commands("README.md")
    assert readme[0].args[:2] == ["init", "--name"]
    assert any(s.args[:2] == ["roll", "capsize"] for s in readme)
    # the tour's transcript: output lines belong to the command above them
    assert sum(1 for s in readme if s.output) >= 10
    assert readme[0].output[0] == "Campaign 'The Salt Reach' made in campaign.db (seed 7)."
    calendar = shown_commands("docs/calendar.md")
    assert [s.error is not None for s in calendar] == [False, False, True, True]
    reference = shown_commands("docs/commands.md")
    # usage lines ("Usage: voyage ship add [OPTIONS] NAME") are not examples
    assert not any("[OPTIONS]" in s.args for s in reference)
    assert any(s.args == ["calendar"] for s in reference)
