"""What a sweep of every command with awkward values found (issue 13.4: bad input gets one
clear line, nothing changes, no traceback), kept so it stays fixed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import db_contents

from voyage.cli import cli
from voyage.cli.common import Whole

HUGE = "9" * 30


def _leaves(
    cmd: click.Command, path: tuple[str, ...], ctx: click.Context
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None
            yield from _leaves(sub, (*path, name), click.Context(sub, parent=ctx, info_name=name))
    yield path, cmd


def test_every_number_a_person_types_is_bounded() -> None:
    # click's own int takes any size (an OverflowError in SQLite past 2**63) and reads '٣'
    # as 3: every number goes through Whole, with its range in --help
    loose = [
        f"{' '.join(path)} {param.name}"
        for path, cmd in _leaves(cli, (), click.Context(cli, info_name="voyage"))
        for param in cmd.params
        if isinstance(param.type, click.types.IntParamType | click.types.FloatParamType)
        and not isinstance(param.type, Whole)
    ]
    assert loose == []


def _one_line(result: object, says: str) -> None:
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code in (1, 2), output  # type: ignore[attr-defined]
    assert "Traceback" not in output
    lines = output.splitlines()
    if lines and lines[0].startswith("Usage: "):
        lines = lines[3:]
    assert len(lines) == 1 and lines[0].startswith("Error: "), output
    assert says in lines[0], output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["encounter", "status", "--fight", HUGE], "--fight"),
        (["encounter", "end", "--fight", HUGE], "--fight"),
        (["encounter", "round", "--fight", HUGE], "--fight"),
        (["encounter", "start", "A", "B", "--range", HUGE], "--range"),
        (["encounter", "start", "A", "B", "--range", "\u0663"], "--range"),
        (
            ["encounter", "shoot", "A", "--at", "B", "--weapon", "hmg", "--modifier", HUGE],
            "--modifier",
        ),
    ],
)
def test_a_huge_number_in_a_fight_is_one_line(
    runner: CliRunner, db: Path, args: list[str], says: str
) -> None:
    before = db_contents(db)
    _one_line(runner.invoke(cli, args), says)
    assert db_contents(db) == before


def test_searching_with_a_ship_not_on_the_map_names_that(runner: CliRunner, db: Path) -> None:
    # R74: it once said "nobody is afloat in Dory's hex None"
    result = runner.invoke(cli, ["ship", "add", "Dory", "--class", "dinghy", "--tier", "I"])
    assert result.exit_code == 0, result.output
    before = db_contents(db)
    _one_line(runner.invoke(cli, ["act", "Dory", "search"]), "Dory is nowhere on the map")
    assert db_contents(db) == before


@pytest.mark.parametrize(
    ("value", "says"),
    [("a\nb.db", "control character (a newline)"), ("x" * 300, "too long")],
)
def test_a_voyage_db_the_system_cannot_take_is_one_line(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    monkeypatch.setenv("VOYAGE_DB", value)
    for args in (["status"], ["init"], ["act", "Sea Witch", "pump", "3"]):
        _one_line(runner.invoke(cli, args), "$VOYAGE_DB")
        _one_line(runner.invoke(cli, args), says)
