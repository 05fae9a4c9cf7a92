"""Documentation stays in step with the CLI; start-up stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click

from voyage.cli import cli
from voyage.cli.docs import reference, walk

ROOT = Path(__file__).parent.parent


def test_every_command_has_help_with_an_example():
    root = click.Context(cli, info_name="voyage", **cli.context_settings)
    missing = [name for name, cmd, _ in walk(cli, root) if "Example" not in (cmd.help or "")]
    assert not missing, f"commands without an example in their help: {missing}"


def test_command_reference_is_in_step_with_the_cli():
    committed = (ROOT / "docs" / "commands.md").read_text()
    assert committed == reference(), "run: python -m voyage.cli.docs > docs/commands.md"


def test_readme_names_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "<!-- test-command -->" in readme and "pytest" in readme
    assert "voyage demo" in readme


def test_help_does_not_import_heavy_modules():
    code = (
        "import sys\n"
        "from voyage.cli import cli\n"
        "try:\n"
        "    cli(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in ('matplotlib', 'hexalattice', 'numpy', 'sqlite_utils', 'yaml',\n"
        "         'jsonschema') if m in sys.modules]\n"
        "print('HEAVY:' + ','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "HEAVY:", out.stdout


# The README's tour (each `$ voyage ...` line, in order, printing what it shows) runs with
# every other command of README and docs/ in tests/test_docs_commands.py.
