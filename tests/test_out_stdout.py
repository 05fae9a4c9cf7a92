"""`--out -` is standard output (it wrote a file called "-" in the current folder): the text
exports of `voyage export` and `voyage journal` print what the file would hold; a picture or
several files are refused in one line naming the fix; a pipe closed early (`| head -1`)
ends quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import db_contents, invoke, ok

#: the console script, as a referee runs it (voyage.entry:main)
VOYAGE = [sys.executable, "-c", "import sys; from voyage.entry import main; main()"]


@pytest.fixture
def here(sailed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sailed campaign, run from a folder of its own (where a file "-" would land)."""
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def printed(runner: CliRunner, *args: str) -> str:
    """A command's standard output alone (its notes on stderr apart)."""
    result = invoke(runner, *args)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("fmt", ["md", "html", "json", "csv"])
def test_each_text_export_prints_what_its_file_holds(runner, here: Path, fmt: str) -> None:
    before = db_contents(here.parent / "campaign.db")
    shown = printed(runner, "export", "Sea Witch", "-f", fmt, "--out", "-", "--for", "referee")
    ok(runner, "export", "Sea Witch", "-f", fmt, "--out", f"witch.{fmt}", "--for", "referee")
    written = (here / f"witch.{fmt}").read_bytes().decode()
    assert shown == written  # the whole export, nothing before or after it ("Wrote ...")
    assert sorted(p.name for p in here.iterdir()) == [f"witch.{fmt}"]  # no file called "-"
    assert db_contents(here.parent / "campaign.db") == before


def test_the_options_of_a_file_export_hold_when_printed(runner, here: Path) -> None:
    players = printed(runner, "export", "Sea Witch", "--out", "-")
    assert players.startswith("# Log of the Sea Witch") and "d20=" not in players
    folded = printed(
        runner, "export", "Sea Witch", "--out", "-", "--for", "referee", "--rolls", "folded"
    )
    assert "<details>" in folded
    checked = printed(runner, "export", "Sea Witch", "-f", "json", "--out", "-", "--validate")
    assert checked.startswith("{") and '"ship"' in checked
    # `-f md -f md` is one format: printed once
    assert printed(runner, "export", "Sea Witch", "-f", "md", "-f", "md", "--out", "-") == players
    assert list(here.iterdir()) == []


def test_a_file_called_dash_is_neither_read_nor_overwritten(runner, here: Path) -> None:
    (here / "-").write_text("the referee's own notes")
    assert printed(runner, "export", "Sea Witch", "--out", "-").startswith("# Log of")
    journal = printed(runner, "journal", "--since", "day 1", "--out", "-")
    assert journal == printed(runner, "journal", "--since", "day 1")  # as with no --out
    assert journal.startswith("# Test: the journal") and "Wrote" not in journal
    html = printed(runner, "journal", "--since", "day 1", "-f", "html", "--out", "-")
    assert html.startswith("<!DOCTYPE html>")
    assert (here / "-").read_text() == "the referee's own notes"  # no --force asked for


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ("export", "Sea Witch", "-f", "png", "--out", "-"),
            "Error: a PNG picture cannot go to standard output: give a file name, such as "
            "--out track.png",
        ),
        (
            ("export", "Sea Witch", "-f", "md", "-f", "csv", "--out", "-"),
            "Error: --out - prints one export, not 2 (md, csv): give one --format, or a file "
            "name with --out for several",
        ),
        (
            ("export", "Sea Witch", "--out", "-", "--json"),
            "Error: --json and --out - would both print: leave out --json, or give a file name "
            "with --out",
        ),
        (
            ("ship", "card", "Sea Witch", "--out", "-"),
            "Error: Invalid value for '--out': a ship card cannot go to standard output ('-'): "
            "give a file name, such as --out sea-witch.png",
        ),
        (
            ("map", "render", "--out", "-"),
            "Error: Invalid value for '--out': a picture cannot go to standard output ('-'): "
            "give a file name, such as --out map.png",
        ),
        (
            ("demo", "--out", "-"),
            "Error: Invalid value for '--out': the demo's files cannot go to standard output "
            "('-'): give a folder name, such as --out voyage-demo",
        ),
    ],
)
def test_a_picture_or_several_files_need_a_name(runner, here: Path, args, says: str) -> None:
    before = db_contents(here.parent / "campaign.db")
    result = invoke(runner, *args)
    assert result.exit_code in (1, 2), result.output
    assert result.output.splitlines()[-1] == says
    assert result.output.count("Error") == 1
    assert list(here.iterdir()) == [] and db_contents(here.parent / "campaign.db") == before


def test_the_help_says_dash_prints(runner) -> None:
    assert "or - to print one text format" in ok(runner, "export", "--help")
    assert "(default, or -: print it)" in ok(runner, "journal", "--help")


def _voyage(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONWARNINGS": "default"}  # a warning at exit would show too
    return subprocess.Popen(  # noqa: S603 - our own interpreter and fixed arguments
        [*VOYAGE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **kwargs
    )


def test_a_pipe_closed_before_the_export_ends_quietly(here: Path) -> None:
    # the reader is gone before a byte is written (`| true`): the export meets a broken
    # pipe for certain, and ends as every voyage command does on one, quietly with status 1
    proc = _voyage("export", "Sea Witch", "-f", "json", "--out", "-")
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert err == ""  # no traceback, no "Exception ignored", no error line
    assert list(here.iterdir()) == []


def test_head_takes_the_first_line_of_a_long_export(here: Path) -> None:
    # `voyage export SHIP --out - | head -1` with an export longer than the pipe holds
    env = {**os.environ, "PYTHONWARNINGS": "default"}
    command = " ".join(
        f"'{a}'"
        for a in [*VOYAGE, "export", "Sea Witch", "-f", "html", "--out", "-", "--for", "referee"]
    )
    done = subprocess.run(  # noqa: S602 - a fixed pipeline of our own interpreter
        f'{command} | head -1; echo "status ${{PIPESTATUS[0]}}" >&2',
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.stdout == "<!DOCTYPE html>\n"
    assert done.stderr in ("status 0\n", "status 1\n"), done.stderr  # 1: the pipe broke
    assert list(here.iterdir()) == []
