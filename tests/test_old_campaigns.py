"""Campaign files made by the release before the package was laid out by layers still open,
upgrade and read back exactly as that release printed them.

tests/fixtures/campaigns/*.db were made by voyage 0.1.0 at commit b576380 (schema version
27): ``tour.db`` is the README's quick tour (a trawler aground in a storm), ``world.db`` a
whaler abandoned at sea, a built cruiser adrift out of charge and a submersible in port.
Each ``*.expected.txt`` holds what that release printed for the commands in it, with
``COLUMNS=100``, but for the status words, which every command now takes from one place
(voyage.engine.standing: a cruiser out of charge is "adrift", not "under way" with
"adrift" as her trouble; `ship list` gives a ship at sea's status, not "at sea"). One
figure follows a ruling made since: R87 counts explosive harpoons in a ship's Load at 1 hlb
each, so the Grey Widow's 5 make her Load 78 hlbs in `ship list`. One word changed since:
the water in a ship's hull (R11) is named apart from her fresh water (R100), "water in her
hull" in `ship show` and "hull water" in the status table and `history`'s hour rows.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from voyage.cli import cli

FIXTURES = Path(__file__).parent / "fixtures" / "campaigns"


def _expected(name: str) -> list[tuple[str, str, int]]:
    """(command line, its output, its exit code) for each command of a fixture."""
    blocks: list[tuple[str, str, int]] = []
    command, lines = "", []
    for line in (FIXTURES / f"{name}.expected.txt").read_text().splitlines(keepends=True):
        if line.startswith("== "):
            command, lines = line[3:].rstrip("\n"), []
        elif line.startswith("-- exit "):
            blocks.append((command, "".join(lines), int(line[8:])))
        else:
            lines.append(line)
    return blocks


@pytest.mark.parametrize("name", ["tour", "world"])
def test_old_campaign_reads_back_as_its_release_printed_it(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"{name}.db"
    shutil.copy(FIXTURES / f"{name}.db", path)
    monkeypatch.setenv("VOYAGE_DB", str(path))
    monkeypatch.setenv("COLUMNS", "100")
    runner = CliRunner()
    blocks = _expected(name)
    assert len(blocks) >= 5
    for command, output, code in blocks:
        result = runner.invoke(cli, shlex.split(command))
        assert (result.output, result.exit_code) == (output, code), command


@pytest.mark.parametrize("name", ["tour", "world"])
def test_old_campaign_upgrades_and_stays_healthy(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"{name}.db"
    shutil.copy(FIXTURES / f"{name}.db", path)
    monkeypatch.setenv("VOYAGE_DB", str(path))
    runner = CliRunner()
    result = runner.invoke(cli, ["doctor"])
    assert result.exit_code == 0 and "healthy" in result.output, result.output
    # an action after the upgrade is written and taken back like any other
    result = runner.invoke(cli, ["advance", "--hours", "1"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["undo"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["doctor"])
    assert result.exit_code == 0 and "healthy" in result.output, result.output
