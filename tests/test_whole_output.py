"""A read command that fails prints its one error line and nothing before it: with a stored
map that no longer reads (edited by hand in SQLite), `voyage status` printed
"Test: Day 1, 00:00" and `voyage log` its header before the error. The error names the
stored map and the fix, and `voyage doctor` names the same fix."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import db_contents, invoke, ok, refused, trawler_at

from voyage.cli.common import handles_errors, whole_output

FIX = "load a corrected map with `voyage map load FILE`"


def _spoil_map(db: Path) -> None:
    """The referee's hand edit: the stored map's text is no longer a map."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sea_map SET text = ? WHERE id = 1", ("name: [unclosed\n",))
    conn.close()


@pytest.fixture
def spoiled(sailed: Path) -> Path:
    _spoil_map(sailed)
    return sailed


@pytest.fixture
def castaways(runner: CliRunner, db: Path) -> Path:
    """A ship abandoned at sea, her crew in the water: `voyage status` printed its first
    line ("Test: Day 1, 00:00") before it read the map for the people afloat (R71-R74)."""
    trawler_at(runner, "0305", crew=4, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    ok(runner, "advance", "--hours", "3")
    ok(runner, "act", "Sea Witch", "abandon")
    assert "No ship is at sea." in ok(runner, "status")  # and the people afloat beneath
    _spoil_map(db)
    return db


@pytest.mark.parametrize(
    "args",
    [
        ("status",),
        ("log", "Sea Witch"),
        ("journal", "--since", "day 1"),
        ("journal", "--since", "day 1", "--out", "-"),
        ("ship", "list"),
        ("map", "show"),
        ("survivors",),
        ("weather", "show"),
        ("export", "Sea Witch", "--out", "-"),
    ],
)
def test_a_read_command_fails_before_printing_anything(runner, spoiled: Path, args) -> None:
    before = db_contents(spoiled)
    line = refused(runner, *args)  # exit 1 and exactly one line: the error
    assert line == (
        "Error: the map stored in the campaign (loaded from map.yaml) no longer reads: "
        "line 2, column 1: not valid YAML: did not find expected ',' or ']'; "
        f"{FIX} (`voyage doctor` checks the rest)\n"
    )
    assert db_contents(spoiled) == before


def test_status_with_people_afloat_prints_nothing_first(runner, castaways: Path) -> None:
    result = invoke(runner, "status")
    assert result.exit_code == 1
    assert result.stdout == ""  # it printed "Test: Day 1, 03:00" first
    assert result.stderr.startswith("Error: the map stored in the campaign")


def test_doctor_names_the_same_fix(runner, spoiled: Path) -> None:
    result = invoke(runner, "doctor")
    assert result.exit_code == 1
    assert "not valid YAML" in result.output and "`voyage map load FILE`" in result.output


def test_loading_the_map_again_mends_it(runner, spoiled: Path) -> None:
    ok(runner, "map", "load", "salt_reach")
    assert ok(runner, "status").startswith("Test: Day 2, 06:00")


def test_what_a_command_printed_is_kept_back_until_it_ends() -> None:
    @click.command()
    @click.option("--fail", is_flag=True)
    @handles_errors
    @whole_output
    def talker(fail: bool) -> None:
        click.echo("first line")
        click.secho("in colour", fg="red")
        if fail:
            raise click.ClickException("it went wrong")
        click.echo("last line")

    runner = CliRunner()
    failed = runner.invoke(talker, ["--fail"])
    assert failed.exit_code == 1 and failed.stdout == ""
    assert failed.stderr == "Error: it went wrong\n"
    done = runner.invoke(talker, [])
    assert done.stdout == "first line\nin colour\nlast line\n"  # no colour into a pipe
    coloured = runner.invoke(talker, [], color=True)
    assert "\x1b[31min colour" in coloured.stdout
