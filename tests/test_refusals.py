"""Awkward values for every command, Ctrl-C and odd files: one clear line, nothing changes,
no traceback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import db_contents, ok, permissions_bind, trawler_at

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


# ------------------------------------------------------------------------- Ctrl-C (SIGINT)


@pytest.fixture
def at_sea(runner: CliRunner, db: Path) -> Path:
    """The Sea Witch at sea, bound from Gullhaven for 2812."""
    trawler_at(runner, "0305", crew=5, fuel=60)
    ok(runner, "sail", "Sea Witch", "--to", "2812")
    return db


def _interrupted(*_args: object, **_kwargs: object) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_in_the_middle_of_an_advance_is_one_line_and_changes_nothing(
    runner: CliRunner, at_sea: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the ship's hours are run, her state half saved, when the referee presses Ctrl-C
    import voyage.actions.voyages

    saving = voyage.actions.voyages.save_state

    def save_then_stop(*args: object, **kwargs: object) -> None:
        saving(*args, **kwargs)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    before = db_contents(at_sea)
    monkeypatch.setattr(voyage.actions.voyages, "save_state", save_then_stop)
    result = runner.invoke(cli, ["advance", "--hours", "3"])
    assert result.exit_code == 130, result.output
    assert result.output == "Error: interrupted (Ctrl-C): the campaign was not changed\n"
    assert db_contents(at_sea) == before


def test_ctrl_c_after_an_advance_was_saved_says_so(
    runner: CliRunner, at_sea: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import voyage.actions.weather

    with monkeypatch.context() as patch:
        patch.setattr(voyage.actions.weather, "weather_moments", _interrupted)
        result = runner.invoke(cli, ["advance", "--hours", "3"])
    assert result.exit_code == 130, result.output
    assert result.output.splitlines()[-1] == (
        "Error: interrupted (Ctrl-C) after the change was saved: `voyage history` shows it "
        "and `voyage undo` takes it back"
    )
    history = runner.invoke(cli, ["history", "--limit", "1"])
    assert "advance" in history.output


class _LoadingInterrupted:
    """Stands for voyage.cli while Ctrl-C arrives during its loading."""

    def __getattr__(self, name: str) -> object:
        raise KeyboardInterrupt


def test_ctrl_c_while_the_command_line_loads_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the console script is voyage.entry:main, which imports nothing before its net is up
    import sys

    from voyage import entry

    monkeypatch.setitem(sys.modules, "voyage.cli", _LoadingInterrupted())
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 130
    out, err = capsys.readouterr()
    assert (out, err) == ("", "Error: interrupted (Ctrl-C): the campaign was not changed\n")


def test_ctrl_c_outside_a_command_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import voyage.cli

    monkeypatch.setattr(voyage.cli, "cli", _interrupted)
    monkeypatch.delenv("VOYAGE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as stopped:
        voyage.cli.main()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == (
        "Error: interrupted (Ctrl-C): the campaign was not changed\n"
    )


def test_the_console_script_is_the_entry_module() -> None:
    import tomllib

    pyproject = Path(__file__).parent.parent / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text())["project"]["scripts"]
    assert scripts == {"voyage": "voyage.entry:main"}


@pytest.mark.parametrize("args", [["settings", "", "true"], ["settings", ""]])
def test_an_empty_setting_name_is_refused(runner: CliRunner, db: Path, args: list[str]) -> None:
    # `voyage settings "" true` once listed every setting and quietly dropped the value
    before = db_contents(db)
    _one_line(runner.invoke(cli, args), "unknown setting ''")
    assert db_contents(db) == before


@pytest.mark.skipif(not permissions_bind(), reason="this user writes through file permissions")
def test_reading_a_read_only_campaign_leaves_nothing_that_stops_it_later(
    runner: CliRunner, db: Path
) -> None:
    # SQLite made the WAL's side files with the campaign's mode (read-only) and left them:
    # once the referee made the campaign writable, as the error said, every change was
    # still refused as "read-only"
    import gc

    assert (
        runner.invoke(cli, ["ship", "add", "Gull", "--class", "dinghy", "--tier", "I"]).exit_code
        == 0
    )
    gc.collect()  # every connection closed: the WAL is folded in and its files are gone
    db.chmod(0o444)
    try:
        listed = runner.invoke(cli, ["ship", "list"])
        assert listed.exit_code == 0 and "Gull" in listed.output, listed.output
        checked = runner.invoke(cli, ["doctor"])
        assert checked.exit_code == 0 and "healthy" in checked.output, checked.output
        assert not Path(f"{db}-shm").exists() and not Path(f"{db}-wal").exists()
        _one_line(
            runner.invoke(cli, ["ship", "add", "Tern", "--class", "dinghy", "--tier", "I"]),
            "read-only",
        )
        gc.collect()
    finally:
        db.chmod(0o644)
    added = runner.invoke(cli, ["ship", "add", "Tern", "--class", "dinghy", "--tier", "I"])
    assert added.exit_code == 0, added.output


@pytest.mark.skipif(not permissions_bind(), reason="this user writes through file permissions")
def test_read_only_side_files_of_a_writable_campaign_are_mended(
    runner: CliRunner, db: Path
) -> None:
    # side files an older voyage left read-only beside a campaign since made writable
    import gc
    import sqlite3

    gc.collect()
    keep = sqlite3.connect(db)  # the WAL's files, as a reader makes them
    keep.execute("SELECT count(*) FROM campaign").fetchone()
    sides = {side: side.read_bytes() for side in (Path(f"{db}-wal"), Path(f"{db}-shm"))}
    keep.close()  # folds the WAL in and removes its files: put them back, read-only
    for side, data in sides.items():
        side.write_bytes(data)
        side.chmod(0o444)
    added = runner.invoke(cli, ["ship", "add", "Tern", "--class", "dinghy", "--tier", "I"])
    assert added.exit_code == 0, added.output


@pytest.mark.parametrize(
    "action", [["pump", "5"], ["jettison", "5"], ["tow", "Gull"], ["anchor"], ["refloat"]]
)
def test_an_action_for_an_abandoned_ship_names_that(
    runner: CliRunner, at_sea: Path, action: list[str]
) -> None:
    # it once said "Sea Witch is not at sea", or "carries only 0 hlbs of cargo"
    for args in (["advance", "--hours", "2"], ["act", "Sea Witch", "abandon"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
    before = db_contents(at_sea)
    refused = runner.invoke(cli, ["act", "Sea Witch", *action])
    _one_line(refused, f": nobody is aboard her to {action[0]} (her people are listed by")
    assert "Error: Sea Witch was abandoned at 0" in refused.output
    assert db_contents(at_sea) == before


def test_a_device_or_a_pipe_is_named_as_not_a_file(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # it said "no campaign at /dev/null: run `voyage init` there first", and init then
    # said it already exists
    import os

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for where in ("/dev/null", str(pipe)):
        monkeypatch.setenv("VOYAGE_DB", where)
        # forecast reads the campaign its own way (read-only, into memory): the same words
        for args in (["status"], ["ship", "roll"], ["forecast", "Sea Witch", "--to", "0405"]):
            _one_line(runner.invoke(cli, args), f"{where} is not a file (a device or a pipe)")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["journal", "--out", ""], "--out"),
        (["map", "render", "--out", ""], "--out"),
        (["export", "Sea Witch", "--out", ""], "--out"),
        (["ship", "card", "Sea Witch", "--out", " "], "--out"),
        (["status", "--db", ""], "--db"),
    ],
)
def test_an_empty_path_is_refused_by_name(
    runner: CliRunner, at_sea: Path, args: list[str], says: str
) -> None:
    # it said "Error:  already exists" (the empty name standing for the current folder)
    refused = runner.invoke(cli, args)
    _one_line(refused, f"Invalid value for '{says}': the path is empty")


def test_a_fighter_not_in_the_fight_is_named_in_quotes(runner: CliRunner, at_sea: Path) -> None:
    # an empty name, or one with a right-to-left override, once printed as nothing (or
    # turned the rest of the line around on a terminal)
    for args in (
        ["advance", "--hours", "1"],
        ["encounter", "start", "Sea Witch", "--leviathan", "kraken"],
        ["encounter", "round"],
    ):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (args, result.output)
    for target, shown in (("", "''"), ("\u202eGull", "'\\u202eGull'")):
        refused = runner.invoke(
            cli, ["encounter", "shoot", "Sea Witch", "--at", target, "--weapon", "hmg"]
        )
        _one_line(refused, f"Error: {shown} is not in Sea Witch's fight")


def test_a_long_unknown_name_is_not_said_back_whole(runner: CliRunner, db: Path) -> None:
    # an unknown 400-character ship name was repeated in full (voyage.base.errors.quoted)
    from voyage.base.errors import quoted

    long = "x" * 400
    assert runner.invoke(cli, ["map", "load", "salt_reach"]).exit_code == 0
    for args in (
        ["ship", "show", long],
        ["sail", "Witch", "--to", long],
        ["forecast", long, "--to", "0405"],
    ):
        result = runner.invoke(cli, args)
        _one_line(result, f"'{'x' * 60}...' (400 characters)")
        assert "x" * 61 not in result.output
    assert quoted("Sea Witch") == "'Sea Witch'" and quoted("y" * 100) == repr("y" * 100)
    assert quoted("it's" * 30) == f'"{("it" + chr(39) + "s") * 15}..." (120 characters)'


def test_a_long_time_is_not_said_back_whole(runner: CliRunner, db: Path) -> None:
    # a 400-character --at was repeated in full (voyage.actions.weather, voyage.base.errors.quoted)
    long = "9" * 400
    for args in (["weather", "show", "--at", long], ["journal", "--since", long]):
        result = runner.invoke(cli, args)
        _one_line(result, f"'{'9' * 60}...' (400 characters)")
        assert "9" * 61 not in result.output
