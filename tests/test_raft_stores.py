"""A life raft's emergency stores (R100-R102): loaded per raft in port, counted in the Load,
gone with the rafts when the ship is abandoned (R71), used hour by hour by the people in
them, missed when they run out (named people die by name), undone exactly."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import (
    FaceRoller,
    abandon_mercy,
    add_mercy,
    add_trawler,
    db_contents,
    invoke,
    ok,
    refused,
)

from voyage.dice.roller import Roller
from voyage.vessels.stores import Stores, stores_from_text
from voyage.world.raftstores import raft_stores_phase
from voyage.world.water import Floater


@pytest.fixture
def mercy(runner: CliRunner, db: Path) -> Path:
    """Mercy in Gullhaven: 12 crew, 6 passengers (Anna Roe named), 2 rafts, 18 jackets."""
    ok(runner, "map", "load", "salt_reach")
    add_mercy(runner, jackets=18)
    ok(runner, "crew", "add", "Anna Roe", "--ship", "Mercy", "--passenger", "--swimming", "0")
    ok(runner, "ship", "place", "Mercy", "0305")
    return db


def _show(runner: CliRunner) -> dict[str, Any]:
    return json.loads(ok(runner, "ship", "show", "Mercy", "--json"))


def _floaters(runner: CliRunner) -> list[dict[str, Any]]:
    return json.loads(ok(runner, "survivors", "--json"))["floaters"]


def test_raft_stores_count_in_the_load_and_show(runner, mercy):
    before = _show(runner)
    shown = json.loads(
        ok(
            runner,
            *("ship", "load", "Mercy", "--food", "20", "--fresh-water", "20"),
            *("--raft-stores", "4", "--json"),
        )
    )
    # R100: 4 person-days of food (0.8 hlb) and of water (3.2 hlbs) in each of 2 rafts
    assert shown["raft_stores"] == 4 and shown["load_parts"]["raft_stores"] == 8
    assert shown["load"] == before["load"] + 4 + 16 + 8
    card = ok(runner, "ship", "show", "Mercy")
    assert "each life raft 4 person-days of each" in card and "raft stores 8" in card


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--raft-stores", "5"), "0 to 4 person-days"),
        (("--rafts", "0", "--raft-stores", "2"), "no life rafts"),
        (("--raft-stores", "2"), "not counted"),  # untracked: no food or water loaded
    ],
)
def test_bad_raft_stores_are_one_line_and_change_nothing(runner, mercy, args, said):
    before = db_contents(mercy)
    assert said in refused(runner, "ship", "load", "Mercy", *args)
    assert db_contents(mercy) == before


def test_a_negative_count_is_refused_by_the_option_and_changes_nothing(runner, mercy):
    before = db_contents(mercy)
    result = invoke(runner, "ship", "load", "Mercy", "--raft-stores", "-1")
    assert result.exit_code == 2 and "Invalid value for '--raft-stores'" in result.output
    assert db_contents(mercy) == before


def test_raft_stores_are_loaded_in_port_only(runner, mercy):
    ok(runner, "ship", "load", "Mercy", "--food", "50", "--fresh-water", "50")
    ok(runner, "sail", "Mercy", "--to", "2812")
    ok(runner, "advance", "--hours", "2")
    before = db_contents(mercy)
    assert "in port" in refused(runner, "ship", "load", "Mercy", "--raft-stores", "3")
    assert db_contents(mercy) == before


def _abandoned(runner: CliRunner, raft_stores: str) -> None:
    ok(runner, "ship", "load", "Mercy", "--food", "50", "--fresh-water", "50")
    ok(runner, "ship", "load", "Mercy", "--raft-stores", raft_stores)
    abandon_mercy(runner)


def test_the_stores_go_with_the_rafts_and_are_used_hour_by_hour(runner, mercy):
    _abandoned(runner, "3")
    rafts = [f for f in _floaters(runner) if f["kind"] == "raft"]
    assert [r["stores"]["fresh_water_exact"] for r in rafts] == ["3", "3"]  # R71, R100
    after = _show(runner)
    assert after["raft_stores"] == 0 and "raft_stores" not in after["load_parts"]
    ok(runner, "advance", "--hours", "5")
    # R101: four in each raft use 4/24 of a person-day of each an hour
    rafts = [f for f in _floaters(runner) if f["kind"] == "raft"]
    assert [r["stores"]["food_exact"] for r in rafts] == [str(3 - Fraction(20, 24))] * 2


def test_a_raft_runs_out_and_undo_restores_every_person_day(runner, mercy):
    _abandoned(runner, "1")
    before = db_contents(mercy)
    out = ok(runner, "advance", "--hours", "12")
    # one person-day of each lasts four people 6 hours: out at the sixth hour (R101)
    assert "raft 1 of Mercy has run out of fresh water (R101)" in out
    rafts = [f for f in _floaters(runner) if f["kind"] == "raft"]
    assert all(r["stores"]["fresh_water"] == 0 for r in rafts)
    ok(runner, "undo")
    assert db_contents(mercy) == before


# -- the phase itself, on a raft of people laid out as the water phase lays them out --------


class _Phase:
    """What raft_stores_phase reads of the engine's water phase."""

    def __init__(self, rows: list[Floater], roller: Roller, clock: int, book: Any) -> None:
        self._rows = rows
        self._rafts = [f for f in rows if f.kind == "raft"]
        self.roller, self.clock, self.book = roller, clock, book
        self.stirring = False
        self.roster: dict[str, dict[str, Any]] = {"Anna Roe": {"ship": None}}
        self.logged: list[tuple[Any, Any]] = []

    def log_f(self, f: Floater, event: Any, halt: str | None = None) -> None:
        self.logged.append((event, halt))

    def split(self, group: Floater, count: int) -> Floater:
        part = replace(group, id=max(f.id for f in self._rows) + 1, count=count)
        group.count -= count
        self._rows.append(part)
        return part

    def invalidate(self) -> None:
        pass


def _raft(stores: Stores, people: list[Floater]) -> list[Floater]:
    raft = Floater(1, "raft", "Mercy", "raft 1 of Mercy", count=0, stores=stores.to_text())
    for p in people:
        p.raft = raft.id
    return [raft, *people]


def test_named_people_die_by_name_at_dawn(book):
    stores = Stores(Fraction(0), Fraction(0), dry_water=Fraction(2), dry_food=Fraction(2))
    anna = Floater(2, "people", "Mercy", "Anna Roe", role="passenger")
    crew = Floater(3, "people", "Mercy", role="crew", count=3)
    rows = _raft(stores, [anna, crew])
    # R102: the third dry day, 2d6 at or below 2: Anna and one crewman of three die
    phase = _Phase(rows, FaceRoller([1, 1, 6, 6, 1, 1, 3, 4]), 6, book)
    raft_stores_phase(phase)
    event, halt = phase.logged[0]
    assert event.text.endswith("2 of 4 die (Anna Roe, 1 more).") and halt == "people lost"
    assert event.changes["died"] == ["Anna Roe"] and event.changes["deaths"] == 2
    assert anna.state == "lost" and "died going without" in anna.note
    assert crew.count == 2 and crew.state == "afloat"
    assert [f.count for f in rows if f.state == "lost"] == [1, 1]
    assert phase.roster["Anna Roe"]["ship"] is None
    left = stores_from_text(rows[0].stores)
    assert left is not None and left.dry_water == 3


def test_a_capsized_raft_uses_nothing_and_an_uncounted_raft_is_as_before(book):
    stores = Stores(Fraction(2), Fraction(2))
    rows = _raft(stores, [Floater(2, "people", "Mercy", count=4)])
    rows[0].capsized = True  # R73: its people are in the water: they use none (R101)
    raft_stores_phase(_Phase(rows, Roller(1), 10, book))
    assert stores_from_text(rows[0].stores) == stores
    rows[0].capsized, rows[0].stores = False, None
    raft_stores_phase(_Phase(rows, Roller(1), 10, book))
    assert rows[0].stores is None


def test_dawn_deaths_in_rafts_match_the_exact_odds(book):
    # R102: on the third dry day each dies on 2d6 <= 2, 1 in 36; 3,600 people, seeded
    people, deaths = 3600, 0
    roller = Roller(20261206)
    for n in range(people // 4):
        stores = Stores(dry_water=Fraction(2))
        rows = _raft(stores, [Floater(2, "people", "Mercy", count=4)])
        phase = _Phase(rows, roller, 6 + 24 * n, book)
        raft_stores_phase(phase)
        deaths += sum(f.count for f in rows if f.state == "lost")
    p = Fraction(1, 36)
    mean, sd = people * p, math.sqrt(people * p * (1 - p))
    assert abs(deaths - mean) <= 4 * sd


# -- a rescued raft's stores come aboard with its people (R103 silent: our reading) --------


@pytest.fixture
def adrift(runner: CliRunner, db: Path) -> str:
    """Mercy (18 aboard, 2 rafts with 4 person-days of each) abandoned two hours out of
    Gullhaven; Gull (4 crew, her stores counted) lying in the same hex. Returns the hex."""
    ok(runner, "map", "load", "salt_reach")
    ok(runner, "settings", "encounter_interval", "0")
    add_mercy(runner, jackets=18)
    ok(runner, "ship", "place", "Mercy", "0305")
    ok(runner, "ship", "load", "Mercy", "--food", "50", "--fresh-water", "50", "--raft-stores", "4")
    add_trawler(runner, "0305", "Gull", tier="V", crew=4, fuel=80)
    ok(runner, "ship", "load", "Gull", "--food", "10", "--fresh-water", "6")
    where = abandon_mercy(runner)
    ok(runner, "sail", "Gull", "--to", where)
    ok(runner, "advance", "--until", "arrival")
    return where


def _stores(runner: CliRunner, ship: str) -> tuple[Fraction, Fraction]:
    shown = json.loads(ok(runner, "ship", "show", ship, "--json"))
    return Fraction(shown["food_exact"]), Fraction(shown["fresh_water_exact"])


def _raft_stores(runner: CliRunner, name: str) -> tuple[Fraction, Fraction]:
    raft = next(f for f in _floaters(runner) if f.get("name") == name)
    return Fraction(raft["stores"]["food_exact"]), Fraction(raft["stores"]["fresh_water_exact"])


def test_the_rescuers_take_a_rafts_stores_aboard_and_undo_gives_them_back(runner, adrift, db):
    food, water = _stores(runner, "Gull")
    in_raft = _raft_stores(runner, "raft 1 of Mercy")
    assert 0 < in_raft[0] < 4 and in_raft == (in_raft[0], in_raft[0])  # used since (R101)
    before = db_contents(db)
    out = ok(runner, "act", "Gull", "rescue", "raft 1 of Mercy")
    assert "The raft's stores come aboard with them (our reading of R103)" in out
    assert _stores(runner, "Gull") == (food + in_raft[0], water + in_raft[1])  # exact
    assert _raft_stores(runner, "raft 1 of Mercy") == (0, 0)
    ok(runner, "undo")
    assert db_contents(db) == before


def test_what_does_not_fit_stays_in_the_raft(runner, adrift, db):
    """Gull loaded to within her four rescued (40 hlbs, R74) and a person-day or two of
    fresh water of twice her Deadweight (R12)."""
    shown = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    spare = Fraction(shown["sinking_load"]) - Fraction(str(shown["load"]))
    more = math.floor((spare - 41) / Fraction(4, 5))
    ok(runner, "act", "Gull", "found", "--fresh-water", str(more))
    food, water = _stores(runner, "Gull")
    in_raft = _raft_stores(runner, "raft 1 of Mercy")
    out = ok(runner, "act", "Gull", "rescue", "raft 1 of Mercy")
    assert "stay in it: she has no room for more (R103)" in out
    got = _stores(runner, "Gull")
    left = _raft_stores(runner, "raft 1 of Mercy")
    assert got[0] + left[0] == food + in_raft[0] and got[1] + left[1] == water + in_raft[1]
    assert left != (0, 0)
    after = json.loads(ok(runner, "ship", "show", "Gull", "--json"))
    assert Fraction(str(after["load"])) <= after["sinking_load"]


def test_found_in_a_search_the_rafts_stores_come_aboard(runner, adrift):
    food, _ = _stores(runner, "Gull")
    ok(runner, "act", "Gull", "search")
    out = ok(runner, "advance", "--hours", "3")
    assert out.count("The raft's stores come aboard with them (our reading of R103)") >= 1
    assert _stores(runner, "Gull")[0] > food - 1  # she ate 22 aboard for 3 hours, gained more


def test_survivors_says_what_each_raft_has_left(runner, mercy):
    # The table said "no roll in a raft" and nothing of the stores the people in it live
    # on: only `--json` gave them.
    _abandoned(runner, "3")
    rows = [line for line in ok(runner, "survivors").splitlines() if "raft 1 of Mercy" in line]
    assert rows and all(
        "stores: food 3 person-days (0.75 days), fresh water 3 person-days (0.75 days)" in row
        for row in rows
    ), rows
