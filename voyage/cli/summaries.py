"""The first paragraph of each lazy command's help, so ``voyage --help`` can list the
commands without importing their modules (generated; tests/test_cli_summaries.py checks every
entry against the command's own help). A command missing here is simply imported for its help.

Regenerate with ``python -m voyage.cli.summaries --write``.
"""

from __future__ import annotations

import sys

SUMMARIES: dict[str, str] = {
    "act": "A referee's action for a ship between advances (each one undoable, each logged).",
    "advance": "Advance the clock: every ship at sea moves together, hour by hour.",
    "browse": "Browse the campaign in Datasette, read-only, with tables that link to each other.",
    "calendar": "Show the campaign's date and time, season, dawn and dusk, and its calendar.",
    "completion": "Print the shell completion script for bash, zsh or fish.",
    "crew": "Name the people aboard: add, list, move and remove (R70; counts stay the default).",
    "demo": "Run a whole voyage from nothing: a campaign, a ship, a storm, a log and a picture.",
    "doctor": "Check a campaign file: integrity, schema, JSON, references, tables, calendar, map.",
    "encounter": "Encounters at sea: roll a check, list what ships have met (R93).",
    "export": "Write a ship's voyage log to a file: Markdown, HTML, JSON, CSV or PNG.",
    "forecast": "Forecast a voyage: sail it thousands of times in memory and count what happens.",
    "history": "List the campaign's actions, newest first: what `voyage undo` would take back.",
    "init": "Make a new campaign database, with a calendar if you give a start date.",
    "journal": "Every ship's story over a stretch of the campaign, day by day.",
    "log": "A ship's log: hour by hour, with every event and every roll (R4).",
    "map": "Load the campaign's sea map, look at it, draw it, ask about a hex.",
    "pace": "Change a ship's pace between advances: normal, slow, strain N, or a boat's mph.",
    "plan": "Plan a voyage: the sensible routes, each forecast, side by side.",
    "roll": "Roll a ship procedure at the table, with its exact odds first.",
    "sail": "Set sail: open a voyage from the ship's hex along a route of adjacent sea hexes.",
    "settings": 'Show the campaign\'s options (rulings marked "option"), or one, or change one.',
    "ship": "Roll, make, list, show, load and remove ships.",
    "status": "Every ship at sea at a glance: where, whither, how fast, and what is wrong.",
    "survivors": "Everyone who has left a ship: in rafts, in the water, drowned, lost or rescued.",
    "tables": "The campaign's house-rule tables: show, write out for editing, load new ones.",
    "undo": "Take back the last advance or referee action exactly, rolls and all.",
    "weather": "Weather: forecast, sea states, rerolls and storms placed by hand (R60-R63).",
}


def current() -> dict[str, str]:
    """The summaries as the commands' own help gives them now (imports every command)."""
    import inspect

    import click

    from voyage.cli import COMMANDS, cli

    ctx = click.Context(cli, info_name="voyage", **cli.context_settings)
    found = {}
    for name in sorted(COMMANDS):
        cmd = cli.get_command(ctx, name)
        if cmd is None or cmd.hidden or cmd.short_help or not cmd.help:
            continue
        found[name] = inspect.cleandoc(cmd.help).split("\n\n")[0].replace("\n", " ")
    return found


def generate() -> str:
    """The source of this module for the commands as they are now."""
    import inspect

    found = current()
    source = inspect.getsource(sys.modules[__name__])
    doc = source.split("SUMMARIES: dict")[0]
    rest = source.split("\n\n\ndef current", 1)[1]
    lines = [doc + "SUMMARIES: dict[str, str] = {"]
    lines += [f"    {name!r}: {text!r}," for name, text in found.items()]
    lines.append("}\n\n\ndef current" + rest)
    return "\n".join(lines)


if __name__ == "__main__":
    from pathlib import Path

    if "--write" in sys.argv:
        Path(__file__).write_text(generate(), encoding="utf-8")
    else:
        print(generate(), end="")
