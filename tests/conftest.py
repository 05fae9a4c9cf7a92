"""Shared fixtures: a temporary campaign, the rule book, a CLI runner; for the rule tests a
roller that shows chosen faces and a binomial bound."""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from voyage.cli import cli
from voyage.dice.roller import CheckOptions, Roller
from voyage.tables.rulebook import RuleBook, load_rulebook

# Machines here are small and noisy: no per-example deadline anywhere. On CI the examples
# are derandomized, so a red run is the code's fault and can be replayed exactly.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _no_encounter_checks(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's encounter checks (R93) stop an advance about once a day per ship; tests
    of the other rules advance for days and expect no such stops, so the phase is a no-op
    except in tests marked ``@pytest.mark.encounters`` (tests/test_encounters.py)."""
    if request.node.get_closest_marker("encounters") is None:
        from voyage.world.encounters import EncounterChecks

        monkeypatch.setattr(EncounterChecks, "phase", lambda self, engine, clock, out: None)


@pytest.fixture(scope="session")
def book() -> RuleBook:
    # session-scoped: load_rulebook caches per process anyway, and hypothesis tests refuse
    # function-scoped fixtures
    return load_rulebook()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="session")
def fresh_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A campaign made by `voyage init --name Test --seed 7`, once per test process: each
    test's :func:`db` is a copy of it (an init costs tens of milliseconds, a copy one).
    Never handed to a test itself: nothing may write to it."""
    path = tmp_path_factory.mktemp("fresh") / "campaign.db"
    result = CliRunner().invoke(cli, ["init", "--db", str(path), "--name", "Test", "--seed", "7"])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_campaign: Path) -> Path:
    """A fresh campaign (seed 7) of the test's own, named by VOYAGE_DB as a referee would."""
    path = tmp_path / "campaign.db"
    shutil.copyfile(fresh_campaign, path)
    monkeypatch.setenv("VOYAGE_DB", str(path))
    return path


@pytest.fixture
def reach(runner: CliRunner, db: Path) -> Path:
    """The fresh campaign with the Salt Reach loaded. (test_anchors and test_depth_routes
    give their own ``reach``: the Reach with their boats already in it.)"""
    ok(runner, "map", "load", "salt_reach")
    return db


def invoke(runner: CliRunner, *args: str):
    """Run a voyage command; return the click Result."""
    return runner.invoke(cli, list(args), catch_exceptions=False)


# ----------------------------------------------------------------------------- rule tests


class FaceRoller(Roller):
    """A Roller whose dice show the faces given, in order.

    Only :meth:`die` is replaced, so every roll goes through the real Roller code (records,
    modifiers, targets, odds). It also notes the sides of each die asked for, and refuses a
    face the die cannot show.
    """

    def __init__(self, faces: Iterable[int], options: CheckOptions | None = None) -> None:
        super().__init__(0, options)
        self.faces = list(faces)
        self.sides_asked: list[int] = []

    def die(self, sides: int) -> int:
        self.sides_asked.append(sides)
        if not self.faces:
            raise AssertionError(f"the test gave too few faces (a d{sides} was asked for)")
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise AssertionError(f"a d{sides} cannot show {face}")
        return face


@pytest.fixture
def faces():
    """``faces(3, 5)`` -> a FaceRoller showing 3 then 5."""

    def make(*shown: int, options: CheckOptions | None = None) -> FaceRoller:
        return FaceRoller(shown, options)

    return make


def within_binomial(successes: int, trials: int, p: Fraction, sigmas: float = 4.5) -> bool:
    """Whether ``successes`` in ``trials`` is within ``sigmas`` standard deviations of p.

    The rolls are seeded, so the test is deterministic; 4.5 sigma keeps a correct roller
    from ever failing by bad luck while still catching an off-by-one in a target (which
    moves a d20 chance by 5 points, many sigmas at 4000 trials).
    """
    mean = trials * float(p)
    sd = math.sqrt(trials * float(p) * (1 - float(p)))
    return abs(successes - mean) <= sigmas * max(sd, 0.5)


@pytest.fixture
def binomial():
    """The :func:`within_binomial` check, for statistical tests."""
    return within_binomial


def db_contents(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of a campaign file, sorted: to compare before and after
    (the file's bytes may change under WAL even when nothing in it did)."""
    import sqlite3

    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: sorted(conn.execute(f"SELECT * FROM [{n}]").fetchall(), key=repr) for n in names}


def ok(runner: CliRunner, *args: str) -> str:
    """Run a command that must succeed; its output."""
    result = invoke(runner, *args)
    assert result.exit_code == 0, result.output
    return result.output


def refused(runner: CliRunner, *args: str) -> str:
    """A refusal: exit 1 and one clean line."""
    result = invoke(runner, *args)
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    return result.output


def add_trawler(
    runner: CliRunner,
    hex_name: str,
    name: str = "Sea Witch",
    tier: str = "IV",
    engine: str = "V",
    **stores: int,
) -> None:
    """A trawler rolled into ``hex_name`` of the map already loaded: ``ship add``, ``ship
    load`` with ``stores`` (crew=5, fuel=60, cargo=... as its options), ``ship place``, as a
    referee sets a scene up."""
    ok(runner, "ship", "add", name, "--class", "trawler", "--tier", tier, "--engine", engine)
    load = [f"--{key}={value}" for key, value in stores.items()]
    ok(runner, "ship", "load", name, *load)
    ok(runner, "ship", "place", name, hex_name)


def trawler_at(
    runner: CliRunner,
    hex_name: str,
    name: str = "Sea Witch",
    tier: str = "IV",
    engine: str = "V",
    **stores: int,
) -> None:
    """The Salt Reach loaded and a trawler rolled into ``hex_name`` (:func:`add_trawler`)."""
    ok(runner, "map", "load", "salt_reach")
    add_trawler(runner, hex_name, name, tier, engine, **stores)


#: A home-made calendar (calendars.yaml in a house tables folder): two months, two seasons.
BRINE_CALENDARS = """\
calendars:
  brine:
    name: Brine Reckoning
    seasons:
      wet: {dawn: 7, dusk: 18}
      dry: {dawn: 5, dusk: 20}
    months:
      - {name: Saltmoon, short: Salt, days: 40, season: wet}
      - {name: Sunmoon, short: Sun, days: 45, season: dry}
"""


# ------------------------------------------------------------------- scenes at the table
# Ships and weather set up through the CLI as a referee would, shared by the tests of
# several features. The option tuples name a ship as `ship add` / `ship build` take it.

#: A Fishing Trawler, Tier IV, engine V: the ship most scenes start from.
TRAWLER = ("--class", "trawler", "--tier", "IV", "--engine", "V")

#: The whaler Old Faithful's figures: a tower (R92); tests add "--trait Strong" and the like.
WHALER = ("--class", "whaler", "--tier", "V", "--engine", "VII")

#: A submersible Speeder rated to 300 ft (R84), as `ship build` takes it.
SUBMERSIBLE = (
    "--body",
    "speeder",
    "--plant",
    "large",
    "--with",
    "boat-top",
    "--submersible",
    "--dive-depth",
    "300",
)


def build_sub(runner: CliRunner, name: str, *extra: str) -> None:
    """The submersible Speeder ``name`` (:data:`SUBMERSIBLE`) built, with ``extra`` options
    (``--crew 2``, ``--propellers 2``, ``--armor ...``); not yet placed."""
    ok(runner, "ship", "build", name, *SUBMERSIBLE, *extra)


def add_mercy(runner: CliRunner, jackets: int) -> None:
    """The freighter Mercy (Tier VIII, engine VIII) with 12 crew, 6 passengers, 200 hlbs of
    fuel, ``jackets`` life jackets and 2 rafts: people to go into the water (R70-R74); not
    yet placed."""
    ok(runner, "ship", "add", "Mercy", "--class", "freighter", "--tier", "VIII", "--engine", "VIII")
    load = ("--crew", "12", "--passengers", "6", "--fuel", "200")
    ok(runner, "ship", "load", "Mercy", *load, "--jackets", str(jackets), "--rafts", "2")


def abandon_mercy(runner: CliRunner) -> str:
    """Mercy (placed, loaded) sails for 2812 and is abandoned two hours out (R71): the hex
    of her people afloat."""
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    ok(runner, "act", "Mercy", "abandon")
    return str(json.loads(ok(runner, "survivors", "--json"))["floaters"][0]["hex"])


def hurricane(runner: CliRunner, around: str, radius: int, hours: int) -> None:
    """A hurricane placed by hand over ``around`` and the hexes within ``radius`` of it,
    for ``hours``."""
    ok(
        runner,
        "weather",
        "storm",
        "--around",
        around,
        "--radius",
        str(radius),
        "--hours",
        str(hours),
        "--state",
        "hurricane",
    )


def fight_ships(runner: CliRunner, *harpy: str) -> None:
    """The scene of a fight (R94): the Salt Reach with encounter checks off (interval 0),
    the Well-armed trawler Sea Witch (Tier IV, engine V, a Heavy Machine Gun) and the
    pirate warship Iron Harpy (Tier VII, engine IX, an Artillery Cannon and the ``harpy``
    options) added; neither loaded nor placed yet."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    witch = ("--trait", "Well-armed", "--weapon", "Heavy Machine Gun")
    ok(runner, "ship", "add", "Sea Witch", *TRAWLER, *witch)
    pirate = ("--class", "warship", "--tier", "VII", "--engine", "IX")
    ok(runner, "ship", "add", "Iron Harpy", *pirate, "--weapon", "Artillery Cannon", *harpy)


def fight_scene(runner: CliRunner) -> None:
    """:func:`fight_ships` (the Harpy with armour 2), both with 6 crew, 80 hlbs of fuel and
    100 of cargo, under way from Gullhaven (0305) for Ironport (2812)."""
    fight_ships(runner, "--armor", "2")
    for name in ("Sea Witch", "Iron Harpy"):
        ok(runner, "ship", "load", name, "--crew", "6", "--fuel", "80", "--cargo", "100")
        ok(runner, "ship", "place", name, "0305")
        ok(runner, "sail", name, "--to", "2812")


#: A fight in the :func:`fight_scene` (seed 12 in the tests that replay it): shots, a
#: dodge, a head-on ram, a fire, three rounds.
FIGHT_SCRIPT = [
    ("encounter", "start", "Iron Harpy", "Sea Witch", "--range", "300"),
    ("encounter", "round"),
    (
        "encounter",
        "shoot",
        "Sea Witch",
        "--at",
        "Iron Harpy",
        "--weapon",
        "hmg",
        "--modifier",
        "10",
    ),
    (
        "encounter",
        "shoot",
        "Iron Harpy",
        "--at",
        "Sea Witch",
        "--weapon",
        "artillery",
        "--modifier",
        "10",
    ),
    ("encounter", "round", "--move", "Sea Witch=4"),
    ("encounter", "ram", "Sea Witch", "Iron Harpy", "--kind", "head-on"),
    (
        "encounter",
        "shoot",
        "Iron Harpy",
        "--at",
        "Sea Witch",
        "--weapon",
        "artillery",
        "--no-dodge",
        "--modifier",
        "10",
    ),
    ("roll", "fire", "Iron Harpy", "--apply"),  # the referee rules a shell set her afire
    ("encounter", "round"),
    (
        "encounter",
        "shoot",
        "Iron Harpy",
        "--at",
        "Sea Witch",
        "--weapon",
        "artillery",
        "--no-dodge",
        "--modifier",
        "10",
    ),
    ("encounter", "end"),
]


@pytest.fixture
def harbour(runner: CliRunner, db: Path) -> Path:
    """A pirate warship and a Well-armed trawler under way from Gullhaven (0305)
    (:func:`fight_scene`)."""
    fight_scene(runner)
    return db


def old_campaign(path: Path, tables: str | None = None) -> None:
    """A campaign as voyage made them before m040: no version record, its house tables
    named by folder (``tables``), not kept in the file."""
    from sqlite_utils import Database

    from voyage.store.migrations import migrations

    db = Database(path)
    db.execute("PRAGMA journal_mode=WAL")
    migrations.apply(db, stop_before="m040_file_meta")
    db["campaign"].insert(  # type: ignore[union-attr]
        {
            "id": 1,
            "name": "Old",
            "seed": 5,
            "rng_state": Roller(5).get_state(),
            "clock": 0,
            "tables": tables,
            "created": "2026-01-01T00:00:00+00:00",
        }
    )
    db.close()


def without_steps(mp: pytest.MonkeyPatch, *names: str) -> None:
    """Through ``mp``, voyage as it was before the schema steps ``names``: they are left out
    of the migrations list, and the cached list of known steps is emptied."""
    from voyage.store import campaign as store
    from voyage.store.migrations import migrations

    kept = [m for m in migrations._migrations if m.name not in names]
    mp.setattr(migrations, "_migrations", kept)
    mp.setattr(store, "_KNOWN", [])


def permissions_bind() -> bool:
    """Whether this process is stopped by a read-only file (root usually is not)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe"
        probe.write_text("")
        probe.chmod(0o444)
        try:
            probe.open("a").close()
        except PermissionError:
            return True
        return False


@pytest.fixture
def eight_hours_out(runner: CliRunner, db: Path) -> Path:
    """The trawler Sea Witch (Tier IV, engine III, 6 crew, 40 hlbs of fuel, 100 of cargo)
    8 hours out of Gullhaven (0305), bound for 2812."""
    trawler_at(runner, "0305", tier="4", engine="3", crew=6, fuel=40, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "8")
    return db


@pytest.fixture
def sailed(runner: CliRunner, db: Path) -> Path:
    """The Sea Witch 30 hours along the Salt Reach's coast, inshore, bound from Gullhaven
    (0305) for 2812: routine coast checks logged."""
    trawler_at(runner, "0305", tier="4", engine="3", crew=6, fuel=40, cargo=100)
    ok(runner, "sail", "Sea Witch", "--to", "2812", "--inshore")
    ok(runner, "advance", "--hours", "30")
    return db


def fight_and_ram(run: Callable[..., str]) -> str:
    """Two hours after Red Jack and Grey Widow sail from 0305, a storm round 0706; the two
    exchange fire (artillery, HMG) and Red Jack rams Grey Widow t-bone (R90, R91): what
    the ram printed. ``run`` runs one command and returns its output."""
    run("advance", "--hours", "2")
    run("weather", "storm", "--around", "0706", "--radius", "1", "--hours", "12")
    run("encounter", "start", "Red Jack", "Grey Widow", "--range", "400")
    run("encounter", "round")
    run("encounter", "shoot", "Red Jack", "--at", "Grey Widow", "--weapon", "artillery")
    run("encounter", "shoot", "Grey Widow", "--at", "Red Jack", "--weapon", "hmg")
    run("encounter", "round")
    return run("encounter", "ram", "Red Jack", "Grey Widow", "--kind", "t-bone")
