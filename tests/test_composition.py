"""Every vessel kind in every state against every action that joins two ships or changes
one: a table of every pair, each run on its own copy of a campaign prepared by real
commands, each held to the same invariants.

The kinds: a rolled ship (the whaler Dart, armed with a Heavy Machine Gun, an Artillery
Cannon and harpoons), a built boat (the seed's Moray), and a submersible Speeder surfaced and
submerged. Her partner is always the rolled trawler Gull, Well-armed, in the same hex: the
other side of a tow, a fight, a search and a rescue. Rafts come in where they apply: the
crewless state leaves Dart's people in her rafts and the water, for the searches and rescues.

The invariants, for every command of every pair:
- no internal error (no traceback, no "a bug in voyage"): it succeeds or refuses;
- a refusal is one line, and changes nothing in the campaign file;
- a success is taken back exactly: after `undo` the file holds what it held before;
- every soul is accounted for: people aboard + in rafts + in the water + drowned + rescued is
  the starting total;
- `status`, `ship list` and `ship show` agree on each ship's hex, status and speed, and a
  ship at sea is in `status`.
Each prepared state is also advanced an hour and exported, where `log`, the JSON export and
`status` must agree on her hex (:func:`test_every_state_reads_the_same_everywhere`).

A state is made once per test process (session fixtures, as conftest's `fresh_campaign`)
and each pair runs on a copy of its file.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import db_contents

from voyage.cli import cli

# ------------------------------------------------------------------------------ the table

SHIP, PARTNER = "Dart", "Gull"
SEA = "0404"  # Gull Channel: coastal open sea by Gullhaven, sandy, uncharted (anchors hold)

#: The commands that make Dart, by kind (not yet placed).
KINDS: dict[str, list[str]] = {
    "rolled": [
        'ship add Dart --class whaler --tier V --engine VII --weapon "Heavy Machine Gun" '
        '--weapon "Artillery Cannon" --harpoons 4',
        "ship load Dart --crew 6 --fuel 80 --anchors 1 --jackets 6 --rafts 2 --pumps 1",
    ],
    "built": [
        "ship build Dart --design Moray",
        "ship load Dart --anchors 1 --jackets 2",
    ],
    "sub surfaced": [
        "ship build Dart --body speeder --plant large --with boat-top,life-raft --submersible "
        "--dive-depth 300 --crew 2",
        "ship load Dart --anchors 1 --jackets 2",
    ],
}
KINDS["sub submerged"] = KINDS["sub surfaced"]

#: The Gull, Dart's partner in every state.
GULL = [
    'ship add Gull --class trawler --tier IV --engine V --trait Well-armed --weapon "Heavy '
    'Machine Gun"',
    "ship load Gull --crew 5 --fuel 60 --anchors 1 --jackets 5 --rafts 2",
]

_PLACED_AT_SEA = [f"ship place Dart {SEA}", f"ship place Gull {SEA}"]
_UNDER_WAY = [*_PLACED_AT_SEA, "sail Dart --to 2812", "sail Gull --to 2812"]

#: The commands that put Dart (and Gull) into each state, after the kind's own.
STATES: dict[str, list[str]] = {
    "in port": ["ship place Dart 0305", "ship place Gull 0305"],
    "under way": _UNDER_WAY,
    "anchored": [*_UNDER_WAY, "act Dart anchor"],
    # open deep sea, where no anchor reaches the bottom (R65): she lies adrift; Gull sails
    "adrift": ["ship place Dart 2712", "ship place Gull 2712", "sail Gull --to 2812"],
    "aground": [*_UNDER_WAY, "roll aground Dart --seabed sandy --apply"],
    "crewless": [*_UNDER_WAY, "act Dart abandon"],
    "sinking": [*_UNDER_WAY, "roll sinking Dart --apply"],
    "sunk": [*_UNDER_WAY, "roll sinking Dart --apply", "advance --hours 3"],
    "in tow": [*_UNDER_WAY, "act Gull tow Dart"],
    "towing": [*_UNDER_WAY, "act Dart tow Gull"],
    "in a fight": [*_UNDER_WAY, "encounter start Dart Gull --range 300", "encounter round"],
}

#: A fight opened (or, in one already, the next round) before a ram or a shot.
_FIGHT = ["encounter start Dart Gull --range 300", "encounter round"]

#: Every action, as the commands a referee types; the last is the one tested, those before
#: it set it up (each held to the invariants too, refused or not).
ACTIONS: dict[str, list[str]] = {
    "tow": ["act Dart tow Gull"],
    "towed": ["act Gull tow Dart"],
    "cast off": ["act Dart cast-off"],
    "cast off by the tug": ["act Gull cast-off"],
    **{
        f"ram {kind}": [*_FIGHT, f"encounter ram Dart Gull --kind {kind}"]
        for kind in ("head-on", "t-bone", "shunt", "sideswipe")
    },
    "rammed": [*_FIGHT, "encounter ram Gull Dart --kind t-bone"],
    **{
        f"shoot {weapon}": [*_FIGHT, f"encounter shoot Dart --at Gull --weapon {weapon}"]
        for weapon in ("artillery", "hmg", "harpoon", "rifle")
    },
    "shot at": [*_FIGHT, "encounter shoot Gull --at Dart --weapon hmg --modifier 10"],
    "search": ["act Dart search"],
    "searched for": ["act Gull search"],
    "rescue": ["act Dart rescue --all"],
    "rescued": ["act Gull rescue --all"],
    "abandon": ["act Dart abandon"],
    "anchor": ["act Dart anchor"],
    "weigh": ["act Dart weigh"],
    "course": ["act Dart course --to 2812"],
    "pace": ["pace Dart slow"],  # a built boat's is in mph: PACE
    "dive": ["act Dart dive 100"],
    "surface": ["act Dart surface"],
    "pumps": ["act Dart pumps on"],
    "repair": ["act Dart repair engine"],
    "refuel": ["act Dart refuel 10"],
    "recharge": ["act Dart recharge"],
    "advance": ["advance --hours 1"],
    "undo": ["undo"],  # takes back the last command that made the state
}
PACE = {"built": "pace Dart 30mph", "sub surfaced": "pace Dart 30mph"}
PACE["sub submerged"] = PACE["sub surfaced"]

#: A submersible cannot lie submerged in a port (a dive is for a ship on a voyage, R84).
NOT_APPLICABLE = {("sub submerged", "in port")}


def _steps(kind: str, state: str) -> list[str]:
    steps = [*KINDS[kind], *GULL, *STATES[state]]
    if kind == "sub submerged":
        # she dives as soon as she sails; she anchors surfaced (R84), then dives; adrift
        # she dives where she lies
        at = len(KINDS[kind]) + len(GULL) + 3
        at = len(steps) if state in ("anchored", "adrift") else at
        steps.insert(at, "act Dart dive 100")
    return steps


def _action(kind: str, action: str) -> list[str]:
    if action == "pace" and kind in PACE:
        return [PACE[kind]]
    return ACTIONS[action]


PAIRS = [
    pytest.param(
        kind,
        state,
        action,
        id=f"{kind}-{state}-{action}",
    )
    for kind in KINDS
    for state in STATES
    for action in ACTIONS
    if (kind, state) not in NOT_APPLICABLE
]

# --------------------------------------------------------------------------- the running

_RUNNER = CliRunner()


def run(db: Path, command: str) -> Result:
    """One command on ``db``, as a referee types it; never raises."""
    return _RUNNER.invoke(cli, [*shlex.split(command), "--db", str(db)], catch_exceptions=True)


def sound(command: str, result: Result) -> bool:
    """Whether ``command`` succeeded (True) or refused in one clean line (False); anything
    else (a traceback, an internal error, a refusal over several lines) fails the test."""
    shown = f"voyage {command}: exit {result.exit_code}\n{result.output}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown}\nraised {result.exception!r}") from result.exception
    assert "a bug in voyage" not in result.output and "Traceback" not in result.output, shown
    if result.exit_code == 0:
        return True
    assert result.exit_code == 1, shown
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, shown
    return False


def copy(source: Path, target: Path) -> None:
    """A copy of a campaign file, with what its WAL holds (SQLite's backup reads through it)."""
    with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
        old.backup(new)
    old.close()
    new.close()


def souls(db: Path) -> int:
    """Everyone the campaign knows of: aboard every ship (sunk ones too: their dead), in
    rafts and the water, drowned or lost; those rescued are counted aboard their rescuer."""
    with sqlite3.connect(db) as conn:
        aboard = conn.execute("SELECT SUM(crew + passengers) FROM ships").fetchone()[0] or 0
        left = conn.execute(
            "SELECT SUM(count) FROM floaters WHERE kind != 'raft' AND state != 'rescued'"
        ).fetchone()[0]
    return int(aboard) + int(left or 0)


def readings_agree(db: Path, names: tuple[str, ...] = (SHIP, PARTNER)) -> None:
    """`status`, `ship list` and `ship show` tell each ship's hex, status and speed alike."""
    at_sea = {s["ship"]: s for s in json.loads(run(db, "status --json").output)["ships"]}
    listed = {s["name"]: s for s in json.loads(run(db, "ship list --json").output)}
    for name in names:
        shown = json.loads(run(db, f"ship show {name} --json").output)
        row = listed[name]
        assert shown["hex"] == row["hex"], (name, shown["hex"], row["hex"])
        now = (shown["status_now"], shown["speed_now"])
        assert now == (row["status_now"], row["speed_now"]), (name, now, row)
        if row["status"] == "at sea":
            assert name in at_sea, f"{name} is at sea but not in `status`"
        if name in at_sea:
            seen = at_sea[name]
            assert seen["hex"] == row["hex"], (name, seen["hex"], row["hex"])
            assert seen["speed"] == row["speed_now"], (name, seen, row["speed_now"])
            assert seen["status"] == row["status_now"], (name, seen, row["status_now"])


# ------------------------------------------------------------------------- the prepared


class Prepared:
    """A state's campaign file, made once; the file before its last step (for `undo`)."""

    def __init__(self, db: Path, before_last: dict, refused: str | None) -> None:
        self.db = db
        self.before_last = before_last
        self.refused = refused


@pytest.fixture(scope="session")
def prepared(
    tmp_path_factory: pytest.TempPathFactory, fresh_campaign: Path
) -> dict[tuple[str, str], Prepared]:
    """Every (kind, state) made by its commands, lazily, once per test process."""
    folder = tmp_path_factory.mktemp("composition")

    class Lazy(dict):
        def __missing__(self, key: tuple[str, str]) -> Prepared:
            kind, state = key
            db = folder / f"{kind}-{state}.db".replace(" ", "_")
            shutil.copyfile(fresh_campaign, db)
            assert sound("map load", run(db, "map load salt_reach"))
            steps = _steps(kind, state)
            before_last: dict = {}
            refused = None
            for number, step in enumerate(steps):
                if number == len(steps) - 1:
                    before_last = db_contents(db)
                result = run(db, step)
                try:
                    done = sound(step, result)
                except AssertionError as error:
                    refused = f"{step}: {error}"
                    break
                if not done:
                    refused = f"{step}: {result.output.strip()}"
                    break
            self[key] = Prepared(db, before_last, refused)
            return self[key]

    return Lazy()


@pytest.mark.parametrize(("kind", "state", "action"), PAIRS)
def test_every_action_on_every_vessel_in_every_state(
    kind: str, state: str, action: str, prepared: dict, tmp_path: Path
) -> None:
    ready = prepared[kind, state]
    assert ready.refused is None, f"the state cannot be made: {ready.refused}"
    db = tmp_path / "campaign.db"
    copy(ready.db, db)
    start = db_contents(db)
    total = souls(db)
    if action == "undo":
        assert sound("undo", run(db, "undo"))
        assert db_contents(db) == ready.before_last
        return
    done = 0
    for command in _action(kind, action):
        before = db_contents(db)
        if sound(command, run(db, command)):
            done += 1
            assert souls(db) == total, f"{command}: souls {souls(db)}, were {total}"
            readings_agree(db)
        else:
            assert db_contents(db) == before, f"{command} refused, yet changed the campaign"
    if done:
        assert sound("undo", run(db, f"undo {done}"))
        assert db_contents(db) == start, f"undo {done} did not restore the campaign"


#: States an hour's advance is refused in: a fight lies open (R94).
NO_ADVANCE = {"in a fight"}

STATE_PAIRS = [
    pytest.param(
        kind,
        state,
        id=f"{kind}-{state}",
    )
    for kind in KINDS
    for state in STATES
    if (kind, state) not in NOT_APPLICABLE
]


@pytest.mark.parametrize(("kind", "state"), STATE_PAIRS)
def test_every_state_reads_the_same_everywhere(
    kind: str, state: str, prepared: dict, tmp_path: Path
) -> None:
    """An hour on from each state, `advance`, `status`, `log` and the JSON export tell each
    ship at sea's status, hex and speed alike (the hour's row is the hour just sailed; the
    readings after it, where she is now)."""
    ready = prepared[kind, state]
    assert ready.refused is None, f"the state cannot be made: {ready.refused}"
    db = tmp_path / "campaign.db"
    copy(ready.db, db)
    readings_agree(db)
    result = run(db, "advance --hours 1 --json")
    if not sound("advance", result):
        assert state in NO_ADVANCE, result.output
        return
    rows = {r["ship"]: r for r in json.loads(result.output)["rows"]}
    readings_agree(db)
    at_sea = {s["ship"]: s for s in json.loads(run(db, "status --json").output)["ships"]}
    for name, row in rows.items():
        logged = json.loads(run(db, f"log {name} --json").output)["hours"][-1]
        exported = json.loads(run(db, f"export {name} -f json --out -").output)["hours"][-1]
        for key in ("hex", "speed", "status", "clock"):
            assert logged[key] == row[key] == exported[key], (name, key, logged, row, exported)
        if name in at_sea:
            now = at_sea[name]
            assert now["hex"] == row["hex"] or row["speed"] > 0, (name, now, row)
            # the hour's status opens with the words `status` gives her now, unless the
            # hour ended her voyage or changed her state
            if now["voyage"] == row["voyage_id"] and row["speed"] == now["speed"]:
                assert row["status"].startswith(now["status"].split(",")[0]), (name, now, row)


def _dart(db: Path) -> dict:
    ships = json.loads(run(db, "status --json").output)["ships"]
    return next(s for s in ships if s["ship"] == SHIP)


def _souls_afloat(db: Path) -> list[dict]:
    return list(json.loads(run(db, "status --json").output)["afloat"])


#: What an action must do, beyond the invariants: (kind, state, commands, what must hold
#: after them, or None).
EXPECTED = [
    *[
        ("rolled", "in a fight", [f"encounter ram Dart Gull --kind {kind}"], None)
        for kind in ("head-on", "t-bone", "shunt", "sideswipe")
    ],
    *[
        ("rolled", "in a fight", [f"encounter shoot Dart --at Gull --weapon {w}"], None)
        for w in ("artillery", "hmg", "harpoon", "rifle")
    ],
    ("rolled", "under way", ["act Dart tow Gull"], None),
    ("rolled", "under way", ["act Gull tow Dart"], None),
    ("built", "under way", ["act Dart tow Gull"], None),
    ("built", "under way", ["act Gull tow Dart"], None),
    (
        "rolled",
        "crewless",
        ["act Gull rescue --all"],
        lambda db: all(f["state"] != "afloat" or f["kind"] == "raft" for f in _souls_afloat(db)),
    ),
    (
        "rolled",
        "adrift",
        ["act Dart course --to 2812"],
        lambda db: _dart(db)["status"] == "under way",
    ),
    (
        "built",
        "in a fight",
        ["encounter shoot Dart --at Gull --weapon homing-torpedo"],
        None,
    ),
    (
        "built",
        "under way",
        ["act Dart abandon"],
        lambda db: any(f["kind"] == "raft" for f in _souls_afloat(db)),
    ),
    (
        "rolled",
        "in port",
        ["ship load Dart --harpoons 8"],
        lambda db: (
            json.loads(run(db, "ship show Dart --json").output)["equipment"]["harpoons"] == 8
        ),
    ),
]


@pytest.mark.parametrize(
    ("kind", "state", "commands", "holds"),
    [
        pytest.param(
            kind,
            state,
            commands,
            holds,
            id=f"{kind}-{state}-{commands[-1]}",
        )
        for kind, state, commands, holds in EXPECTED
    ],
)
def test_what_the_actions_do(kind, state, commands, holds, prepared, tmp_path: Path) -> None:
    """The joining actions go through where they should, and do what they say."""
    ready = prepared[kind, state]
    assert ready.refused is None, f"the state cannot be made: {ready.refused}"
    db = tmp_path / "campaign.db"
    copy(ready.db, db)
    for command in commands:
        result = run(db, command)
        assert sound(command, result), result.output
    assert holds is None or holds(db)
