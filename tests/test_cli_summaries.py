"""`voyage --help` lists the commands from voyage/cli/summaries.py without importing them;
the summaries must say what the commands' own help says."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from voyage.cli import COMMANDS, cli
from voyage.cli.summaries import SUMMARIES, current


def test_every_summary_is_the_first_paragraph_of_its_commands_help():
    now = current()
    stale = {name: text for name, text in SUMMARIES.items() if now.get(name) != text}
    assert not stale, "run: python -m voyage.cli.summaries --write"
    assert set(SUMMARIES) <= set(COMMANDS)


def test_help_lists_the_same_lines_as_click_would():
    import click

    for width in (60, 80, 120):
        ctx = click.Context(cli, info_name="voyage", **cli.context_settings)
        ours, clicks = click.HelpFormatter(width=width), click.HelpFormatter(width=width)
        cli.format_commands(ctx, ours)
        click.Group.format_commands(cli, ctx, clicks)  # click's own, importing every command
        assert ours.getvalue() == clicks.getvalue()
    assert "sail " in CliRunner().invoke(cli, ["--help"]).output


def test_help_imports_no_command_module_with_a_summary():
    code = (
        "import sys\n"
        "from voyage.cli import cli\n"
        "try:\n"
        "    cli(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "names = sorted(m for m in sys.modules if m.startswith('voyage.cli.'))\n"
        "print('LOADED:' + ','.join(names))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stdout.strip().splitlines()[-1].removeprefix("LOADED:").split(",")
    modules = {COMMANDS[name].split(":")[0] for name in SUMMARIES}
    assert not modules & set(loaded), loaded
