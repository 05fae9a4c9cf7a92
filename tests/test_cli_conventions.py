"""CLI conventions (issue 15, item 2): -h everywhere, --db on the group or the command."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from voyage.cli import cli
from voyage.cli.docs import walk


def test_dash_h_is_help_for_every_command() -> None:
    runner = CliRunner()
    root = click.Context(cli, info_name="voyage", **cli.context_settings)
    names = [full.split()[1:] for full, _cmd, _ctx in walk(cli, root)]
    assert len(names) > 20
    for words in [[], *names]:
        result = runner.invoke(cli, [*words, "-h"])
        assert result.exit_code == 0, (words, result.output)
        assert result.output.startswith("Usage: "), words


@pytest.mark.parametrize("where", ["group", "command", "env"])
def test_the_campaign_file_can_be_named_on_the_group_the_command_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VOYAGE_DB", raising=False)
    runner = CliRunner()
    made = runner.invoke(cli, ["init", "--name", "Elsewhere", "--seed", "3", "--db", "camp.db"])
    assert made.exit_code == 0, made.output
    args = {"group": ["--db", "camp.db", "status"], "command": ["status", "--db", "camp.db"],
            "env": ["status"]}[where]
    env = {"VOYAGE_DB": "camp.db"} if where == "env" else {}
    result = runner.invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Elsewhere")


def test_the_command_s_own_db_wins_over_the_group_s(tmp_path: Path) -> None:
    runner = CliRunner()
    for name in ("one", "two"):
        made = runner.invoke(cli, ["init", "--name", name, "--db", str(tmp_path / f"{name}.db")])
        assert made.exit_code == 0, made.output
    result = runner.invoke(
        cli, ["--db", str(tmp_path / "one.db"), "status", "--db", str(tmp_path / "two.db")]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("two")
