"""Shared pieces of the commands: the campaign option, JSON output, error translation."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: Where the campaign file is named on the group (``voyage --db FILE status``).
GROUP_DB_KEY = "voyage.db"


def resolve_db(ctx: click.Context, _param: click.Parameter, value: str | None) -> str:
    """The campaign file: this command's --db, else the group's, else $VOYAGE_DB, else
    ./campaign.db, so ``voyage --db F status`` and ``voyage status --db F`` agree."""
    if value:
        return value
    group_value = ctx.meta.get(GROUP_DB_KEY)
    if group_value:
        return str(group_value)
    return os.environ.get("VOYAGE_DB") or "campaign.db"


db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default=None,
    callback=resolve_db,
    help="Campaign file (default: voyage --db, else $VOYAGE_DB, else ./campaign.db).",
)

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def colour_wanted() -> bool | None:
    """None lets click decide (colour on a terminal, plain when piped); False under NO_COLOR
    (https://no-color.org: any non-empty value)."""
    return False if os.environ.get("NO_COLOR") else None


def alert(text: str) -> str:
    """A line that needs the referee (a halt), bold yellow on a terminal."""
    return click.style(text, fg="yellow", bold=True)


def echo(text: str = "", err: bool = False) -> None:
    """click.echo with the project's colour rule (styles dropped when piped or NO_COLOR)."""
    click.echo(text, err=err, color=colour_wanted())


class VoyageClickError(click.ClickException):
    """A one-line error whose "Error:" is red on a terminal (not when piped, not NO_COLOR)."""

    def show(self, file: Any = None) -> None:
        stream = file if file is not None else sys.stderr
        label = click.style("Error:", fg="red", bold=True)
        click.echo(f"{label} {self.format_message()}", file=stream, color=colour_wanted())


@contextmanager
def core_errors() -> Iterator[None]:
    """Turn the core's errors into one-line click errors (no traceback, exit 1).

    So do failures of the campaign file or its disk (read-only, full, damaged): the core
    names them (voyage.campaignfile.explain); anything else is a bug and is not hidden.
    """
    from ..errors import VoyageError

    try:
        yield
    except VoyageError as exc:
        raise VoyageClickError(str(exc)) from None
    except click.ClickException:
        raise
    except Exception as exc:
        from ..campaignfile import explain, last_opened

        known = explain(exc, last_opened())
        if known is None:
            raise
        raise VoyageClickError(str(known)) from None


def handles_errors(func: F) -> F:
    """Decorator form of :func:`core_errors`."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with core_errors():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def open_campaign(db_path: str | None) -> Any:
    """Open the campaign named by --db / $VOYAGE_DB / ./campaign.db."""
    from ..store import open_campaign as _open

    return _open(db_path)


def read_campaign(db_path: str | None) -> Any:
    """Open the campaign for a command that only reads it: everything the command reads is
    one moment (one read transaction, ended with the command), even while another
    terminal advances the campaign."""
    from ..campaignfile import begin_reading, end_reading

    camp = open_campaign(db_path)
    begin_reading(camp)

    def finish() -> None:
        end_reading(camp)
        camp.close()

    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(finish)
    return camp


def emit_json(data: Any) -> None:
    """Print data as stable, indented JSON."""
    click.echo(json.dumps(data, indent=2, sort_keys=False, default=str))


def table(rows: list[list[Any]], headers: list[str]) -> str:
    """A plain text table for people."""
    cells = [[str(c) for c in headers]] + [[("" if c is None else str(c)) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hour``, ``2 hours`` (voyage.report.plural, imported when first used)."""
    from ..report import plural as _plural

    return _plural(count, word, many)
