"""Generate the command reference (docs/commands.md) from the CLI's own help.

``python -m voyage.cli.docs > docs/commands.md``; tests/test_docs.py fails when the file is out
of step with the commands, or a command has no example in its help.
"""

from __future__ import annotations

from collections.abc import Iterator

import click


def walk(
    group: click.Group, ctx: click.Context, prefix: str = "voyage"
) -> Iterator[tuple[str, click.Command, click.Context]]:
    """Every command under ``group`` with its full name, depth first, sorted."""
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is None:
            continue
        full = f"{prefix} {name}"
        sub = click.Context(cmd, info_name=name, parent=ctx)
        yield full, cmd, sub
        if isinstance(cmd, click.Group):
            yield from walk(cmd, sub, full)


def reference() -> str:
    """The whole command reference as Markdown."""
    from voyage.cli import cli

    root = click.Context(
        cli, info_name="voyage", terminal_width=100, max_content_width=100, **cli.context_settings
    )
    parts = [
        "# Command reference",
        "",
        "Generated from the commands' own `--help` by `python -m voyage.cli.docs`; "
        "tests/test_docs.py keeps it in step with the CLI.",
        "",
        "## voyage",
        "",
        "```",
        cli.get_help(root),
        "```",
        "",
    ]
    for full, cmd, ctx in walk(cli, root):
        parts += [f"## {full}", "", "```", cmd.get_help(ctx), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    click.echo(reference(), nl=False)
