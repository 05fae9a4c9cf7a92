"""Shared fixtures: a temporary campaign, the rule book, a CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from voyage.cli import cli
from voyage.tables import load_rulebook


@pytest.fixture
def book():
    return load_rulebook()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh campaign (seed 7), named by VOYAGE_DB as a referee would."""
    path = tmp_path / "campaign.db"
    monkeypatch.setenv("VOYAGE_DB", str(path))
    result = CliRunner().invoke(cli, ["init", "--name", "Test", "--seed", "7"])
    assert result.exit_code == 0, result.output
    return path


def invoke(runner: CliRunner, *args: str):
    """Run a voyage command; return the click Result."""
    return runner.invoke(cli, list(args), catch_exceptions=False)
