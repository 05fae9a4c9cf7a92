"""Random sequences of a referee's commands on a small campaign, held to the composition
invariants after every step (tests/test_composition.py): no internal error, one-line
refusals that change nothing, every soul accounted for, `status`, `ship list` and `ship
show` agreeing, and every `undo` giving back exactly the campaign before the command it
takes back.

The campaign: the rolled whaler Dart and trawler Gull and the submersible Nautilus, all
laden in Gullhaven (0305). A few examples of a few steps each keep it to seconds; under CI
the examples are derandomized (conftest's "ci" profile), so a red run replays exactly.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from conftest import db_contents
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from test_composition import GULL, copy, readings_agree, run, souls, sound

ROLLED = ("Dart", "Gull")
SHIPS = (*ROLLED, "Nautilus")

SETUP = [
    "init --seed 11",
    "map load salt_reach",
    'ship add Dart --class whaler --tier V --engine VII --weapon "Heavy Machine Gun" '
    '--weapon "Artillery Cannon" --harpoons 4',
    "ship load Dart --crew 6 --fuel 80 --anchors 1 --jackets 6 --rafts 2 --pumps 1",
    *GULL,
    "ship build Nautilus --body speeder --plant large --with boat-top,life-raft --submersible "
    "--dive-depth 300 --crew 2",
    "ship load Nautilus --anchors 1 --jackets 2",
    *[f"ship place {name} 0305" for name in SHIPS],
]


def _commands() -> list[str]:
    every: list[str] = ["advance --hours 1", "advance --hours 3", "encounter round"]
    every += ["encounter end", "encounter start Dart Gull --range 300"]
    for ship in SHIPS:
        every += [
            f"sail {ship} --to 2812",
            f"sail {ship} --route 0305,0404,0504",
            f"act {ship} anchor",
            f"act {ship} weigh",
            f"act {ship} course --to 0305",
            f"act {ship} cast-off",
            f"act {ship} abandon",
            f"act {ship} search",
            f"act {ship} rescue --all",
            f"act {ship} pumps on",
            f"act {ship} repair engine",
            f"act {ship} refuel 10",
            f"roll sinking {ship} --apply",
            f"roll aground {ship} --seabed sandy --apply",
            f"encounter start {ship} Gull",
        ]
    every += ["pace Dart slow", "pace Gull strain 2", "pace Nautilus 30mph"]
    every += ["act Nautilus dive 100", "act Nautilus surface", "act Nautilus recharge"]
    # a built boat in tow is left out: its crash is known and being fixed elsewhere
    every += [f"act {a} tow {b}" for a in SHIPS for b in ROLLED if a != b]
    for kind in ("head-on", "t-bone", "shunt", "sideswipe"):
        every.append(f"encounter ram Dart Gull --kind {kind}")
    for weapon in ("artillery", "hmg", "harpoon", "rifle"):
        every.append(f"encounter shoot Dart --at Gull --weapon {weapon}")
    every.append("encounter shoot Gull --at Nautilus --weapon hmg")
    return every


COMMANDS = _commands()

_TEMPLATE: list[Path] = []


def _template() -> Path:
    """The campaign, made once per test process."""
    if not _TEMPLATE:
        db = Path(tempfile.mkdtemp(prefix="composition-")) / "campaign.db"
        for command in SETUP:
            assert sound(command, run(db, command)), command
        _TEMPLATE.append(db)
    return _TEMPLATE[0]


class Evening(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="evening-"))
        self.db = self.folder / "campaign.db"
        copy(_template(), self.db)
        self.total = souls(self.db)
        self.before: list[dict] = []  # the campaign before each command still to undo

    @rule(command=st.sampled_from(COMMANDS))
    def command(self, command: str) -> None:
        before = db_contents(self.db)
        if sound(command, run(self.db, command)):
            self.before.append(before)
        else:
            assert db_contents(self.db) == before, f"{command} refused, yet changed the campaign"

    @precondition(lambda self: self.before)  # the setup's own actions are not taken back
    @rule()
    def undo(self) -> None:
        assert sound("undo", run(self.db, "undo")), "undo refused with an action to take back"
        assert db_contents(self.db) == self.before.pop(), "undo did not restore the campaign"

    @invariant()
    def every_soul_accounted_for(self) -> None:
        assert souls(self.db) == self.total

    @invariant()
    def the_readings_agree(self) -> None:
        readings_agree(self.db, SHIPS)

    def teardown(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


Evening.TestCase.settings = settings(max_examples=12, stateful_step_count=12, deadline=None)
TestEvening = Evening.TestCase
