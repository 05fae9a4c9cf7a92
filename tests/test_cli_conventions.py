"""CLI conventions: -h everywhere, --db on the group or the command."""

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
    args = {
        "group": ["--db", "camp.db", "status"],
        "command": ["status", "--db", "camp.db"],
        "env": ["status"],
    }[where]
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


def _complete(args: list[str], incomplete: str, env: dict[str, str]) -> list[str]:
    """What the shell would be offered for ``voyage ARGS INCOMPLETE<TAB>`` (click's own
    completion machinery, as the printed script drives it)."""
    import os

    from click.shell_completion import ShellComplete

    old = dict(os.environ)
    os.environ.update(env)
    try:
        comp = ShellComplete(cli, {}, "voyage", "_VOYAGE_COMPLETE")
        return [item.value for item in comp.get_completions(args, incomplete)]
    finally:
        os.environ.clear()
        os.environ.update(old)


def test_completion_offers_ships_hexes_and_bundled_campaigns(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "c.db")
    for args in (
        ["init", "--name", "C", "--seed", "1"],
        ["map", "load", "salt_reach"],
        ["ship", "add", "Sea Witch", "--class", "trawler", "--tier", "4", "--engine", "3"],
        ["ship", "add", "Gull", "--class", "dinghy", "--tier", "1"],
    ):
        result = runner.invoke(cli, [*args, "--db", db])
        assert result.exit_code == 0, result.output
    before = (tmp_path / "c.db").read_bytes()
    env = {"VOYAGE_DB": db}
    assert _complete(["sail"], "se", env) == ["Sea Witch"]
    assert _complete(["ship", "show"], "", env) == ["Gull", "Sea Witch"]
    ports = _complete(["sail", "Gull", "--to"], "", env)
    assert "0305" in ports and len(ports) == 7  # the Salt Reach's seven ports
    assert _complete(["sail", "Gull", "--to"], "281", env)[:1] == ["2812"]
    assert "salt_reach" in _complete(["map", "load"], "sa", env)
    assert _complete(["ship", "roll", "--class"], "tr", env) == ["trawler"]
    assert (tmp_path / "c.db").read_bytes() == before  # completing never writes
    assert _complete(["sail"], "", {"VOYAGE_DB": str(tmp_path / "none.db")}) == []
    assert not (tmp_path / "none.db").exists()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script_for_each_shell(shell: str) -> None:
    result = CliRunner().invoke(cli, ["completion", shell])
    assert result.exit_code == 0, result.output
    assert "_VOYAGE_COMPLETE" in result.output


def test_errors_are_red_only_on_a_terminal_and_never_under_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from voyage.cli.common import VoyageClickError

    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    tty = Terminal()
    VoyageClickError("no ship named 'X'").show(tty)
    assert tty.text.startswith("\x1b[") and "no ship named 'X'" in tty.text
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Terminal()
    VoyageClickError("no ship named 'X'").show(plain)
    assert plain.text == "Error: no ship named 'X'\n"
    monkeypatch.delenv("NO_COLOR")
    result = CliRunner().invoke(cli, ["status", "--db", "/nonexistent/x.db"])
    assert result.output.startswith("Error: ") and "\x1b" not in result.output  # piped: plain


@pytest.mark.parametrize(
    "command",
    [
        ["journal", "--since", "day 1", "--out", "{out}"],
        ["ship", "card", "Sea Witch", "--out", "{out}"],
        ["map", "render", "--out", "{out}"],
    ],
    ids=["journal", "ship card", "map render"],
)
def test_a_file_the_referee_names_is_never_overwritten_without_force(
    command: list[str], db: Path, tmp_path: Path
) -> None:
    """README: "Nothing is overwritten without --force". `journal --out`, `ship card` and
    `map render` once replaced last session's file silently, where `export` refuses."""
    from voyage.cli import cli

    runner = CliRunner()
    for setup in (
        ["map", "load", "salt_reach"],
        ["ship", "add", "Sea Witch", "--class", "trawler", "--tier", "IV", "--engine", "III"],
    ):
        assert runner.invoke(cli, setup).exit_code == 0
    suffix = ".md" if command[0] == "journal" else ".png"
    out = tmp_path / f"last-session{suffix}"
    out.write_bytes(b"my notes")
    args = [out.as_posix() if a == "{out}" else a for a in command]
    refused = runner.invoke(cli, args)
    assert refused.exit_code == 1
    assert refused.output.strip() == (
        f"Error: {out.as_posix()} already exists: add --force to overwrite it, "
        "or choose another --out"
    )
    assert out.read_bytes() == b"my notes"
    forced = runner.invoke(cli, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    assert out.read_bytes() != b"my notes" and out.stat().st_size > 50
