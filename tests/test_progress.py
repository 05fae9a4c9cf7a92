"""The CLI's one progress bar: on stderr, only on a terminal, not under CI, only
for work over a second; the engine, forecasts and pictures tell it their steps through a
callback (the core never imports click)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from voyage.cli import progress as bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """stderr as a terminal, outside CI, with the bar drawn at once (called in the test's
    body: pytest puts its own stderr back after a fixture's set-up)."""
    out = Terminal()
    monkeypatch.setattr(sys, "stderr", out)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(bar, "DELAY", 0.0)
    return out


def test_a_bar_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = terminal(monkeypatch)
    with bar.progress_bar(100, "Sailing") as tick:
        assert tick is not None
        tick(60)
        tick(40)
    assert "Sailing" in screen.getvalue() and "100%" in screen.getvalue()
    with bar.progress_bar(100, "Sailing", show=False) as tick:  # --json: never
        assert tick is None
    monkeypatch.setenv("CI", "true")
    with bar.progress_bar(100, "Sailing") as tick:  # under CI: never
        assert tick is None
    monkeypatch.delenv("CI")
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # piped: never
    with bar.progress_bar(100, "Sailing") as tick:
        assert tick is None


def test_quick_work_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = terminal(monkeypatch)
    monkeypatch.setattr(bar, "DELAY", 60.0)
    with bar.progress_bar(10, "Advancing") as tick:
        assert tick is not None
        tick(10)
    assert screen.getvalue() == ""


def test_work_without_a_known_end_counts_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = terminal(monkeypatch)
    with bar.progress_bar(None, "Advancing") as tick:
        assert tick is not None
        for _ in range(7):
            tick(1)
    assert "Advancing" in screen.getvalue() and "7" in screen.getvalue()


def test_an_advance_tells_each_hour(db: Path) -> None:
    from click.testing import CliRunner

    from voyage.actions.voyages import advance
    from voyage.cli import cli
    from voyage.store.campaign import open_campaign

    runner = CliRunner()
    for args in (
        ["map", "load", "salt_reach"],
        ["ship", "add", "Gull", "--class", "motorboat", "--tier", "2", "--engine", "4"],
        ["ship", "load", "Gull", "--crew", "2", "--fuel", "30"],
        ["ship", "place", "Gull", "0305"],
        ["sail", "Gull", "--to", "0909"],
    ):
        assert runner.invoke(cli, args).exit_code == 0
    told: list[int] = []
    camp = open_campaign(db)
    result = advance(camp, 5, progress=told.append)
    camp.close()
    assert told == [1] * result.hours_run and result.hours_run == 5


def test_a_picture_tells_its_steps(tmp_path: Path) -> None:
    from voyage.map.seamap import bundled_campaign, load_map
    from voyage.outputs.render import RENDER_STEPS, render_map

    told: list[int] = []
    render_map(load_map(bundled_campaign("salt_reach")), tmp_path / "m.png", progress=told.append)
    assert sum(told) == RENDER_STEPS


def test_the_engine_does_not_import_click() -> None:
    # (voyage.actions.voyages reaches click through sqlite-utils, which is a CLI too)
    code = (
        "import sys, voyage.engine.clock, voyage.outputs.render, voyage.outputs.exportpicture; "
        "print('click' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
