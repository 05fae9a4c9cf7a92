"""Shared pieces of the commands: the campaign option, JSON output, error translation."""

from __future__ import annotations

import functools
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


class Whole(click.ParamType):
    """A whole number from ``low`` to ``high``, in ASCII digits; a bad one gets one line
    naming the option and the allowed range ("--count must be from 1 to 500, not 0").

    Use it for every number a person types (counts, hours, ids, seeds, radii, amounts):
    click's own INT also reads '٤' as 4, and an unbounded number can overflow SQLite or
    make a command run for ever.
    """

    name = "integer"

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        from voyage.base.errors import VoyageError
        from voyage.base.text import parse_whole

        try:
            return parse_whole(str(value), _param_name(param), self.low, self.high)
        except VoyageError as exc:
            self.fail(_without_name(str(exc), param), param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str | None:
        # an option shows its range in --help; an argument keeps its name (SHIP HLBS)
        return None if param.param_type_name == "argument" else f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Whole({self.low}, {self.high})"


class Text(click.ParamType):
    """Text a person types for a name, a note or a title: stripped, not empty (unless
    ``required`` is false), at most ``max_length`` characters, no control characters; a
    ``name`` holds a letter or digit too (voyage.base.text.check_name)."""

    name = "text"

    def __init__(self, max_length: int = 100, *, required: bool = True, name: bool = False) -> None:
        self.max_length, self.required, self.is_name = max_length, required, name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from voyage.base.errors import VoyageError
        from voyage.base.text import check_name, check_text

        try:
            if self.is_name:
                return check_name(str(value), _param_name(param), max_length=self.max_length)
            return check_text(
                str(value), _param_name(param), max_length=self.max_length, required=self.required
            )
        except VoyageError as exc:
            self.fail(_without_name(str(exc), param), param, ctx)


class ShipRef(click.ParamType):
    """A ship named on the command line (``--ship``, ``SHIP``): never empty, so ``--ship ""``
    (a shell variable left unset) is refused as it is everywhere, never read as "every
    ship". Otherwise taken as typed: the campaign says whether she is there."""

    name = "ship"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if not str(value).strip():
            self.fail("a ship's name must not be empty: name a ship (`voyage ship list`)")
        return str(value)


class FilePath(click.Path):
    """click's Path, but a name the system cannot take (a NUL or other control character,
    a component over 255 bytes, a path over 4096) is one line, not an OSError traceback."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        text = os.fsdecode(value) if isinstance(value, bytes | os.PathLike) else str(value)
        problem = path_problem(text)
        if problem:
            self.fail(problem, param, ctx)
        return super().convert(value, param, ctx)


#: ``--out -``: the text goes to standard output, not to a file called "-" (Unix usage)
STDOUT = "-"

#: ``--out`` of a command that writes text (`export`, `journal`): a file, or ``-`` to print
TEXT_OUT = FilePath(dir_okay=False, allow_dash=True)


class NamedFile(FilePath):
    """What a command writes that cannot go to standard output (a picture, a folder of
    files): ``-`` gets one line naming the fix, not a file called "-"."""

    def __init__(self, what: str, example: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.what, self.example = what, example

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value == STDOUT:
            self.fail(
                f"{self.what} cannot go to standard output ('-'): give a "
                f"{'folder' if not self.file_okay else 'file'} name, such as "
                f"{self.example}",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)


def whole_output(func: F) -> F:
    """A read command's stdout is printed whole when it ends, or not at all: a command that
    fails half-way (a stored map that no longer reads) shows its one error line and nothing
    before it. Put it under :func:`handles_errors`."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import contextlib

        held = _Held(sys.stdout)
        with contextlib.redirect_stdout(held):
            result = func(*args, **kwargs)
        text = held.getvalue()
        if text:
            click.echo(text, nl=False, color=True)  # colour was decided as it was held
        return result

    return wrapper  # type: ignore[return-value]


class _Held(io.StringIO):
    """Standard output held back: a terminal still for click's colour (it strips colour
    from a pipe as it would have)."""

    def __init__(self, real: Any) -> None:
        super().__init__()
        self._tty = bool(getattr(real, "isatty", lambda: False)())

    def isatty(self) -> bool:
        return self._tty


def path_problem(text: str) -> str | None:
    """Why the system cannot take ``text`` as a path (a control character, too long), or
    None."""
    from voyage.base.text import control_character

    if not text.strip():  # "" once meant "." here and the current folder there
        return "the path is empty: give a file or folder name"
    bad = control_character(text)
    if bad:
        return f"the path holds a control character ({bad})"
    raw = os.fsencode(text)
    if len(raw) > 4096 or any(len(part) > 255 for part in raw.split(b"/")):
        return "the path is too long: at most 255 bytes a name and 4096 in all"
    return None


class Choice(click.Choice):
    """click's Choice, but a missing choice is one line ("choose from: a, b, c")."""

    def get_missing_message(self, param: click.Parameter, ctx: click.Context | None) -> str:
        return "choose from: " + ", ".join(map(str, self.choices))


def _param_name(param: click.Parameter | None) -> str:
    if param is None:
        return "the value"
    if param.param_type_name == "argument":
        return (param.name or "the value").upper()
    return max(param.opts, key=len)


def _without_name(message: str, param: click.Parameter | None) -> str:
    """click prefixes "Invalid value for '--x': ": keep the message from repeating the name."""
    name = _param_name(param)
    return (
        message[len(name) + 1 :]
        if param is not None and message.startswith(name + " ")
        else message
    )


# The ranges every command shares, so the same thing has the same bounds everywhere.
#: a campaign's or a roll's seed (R5): what `voyage init` makes when none is given fits
SEED = Whole(0, 2**32 - 1)
#: a forecast's or plan's seed: the one it prints when none is given (a 64-bit hash of the
#: campaign seed and the clock, voyage.actions.forecast.default_seed) must be typed back in whole
RUN_SEED = Whole(0, 2**64 - 1)
#: a voyage, storm or leak number
NUMBER = Whole(1, 999_999)
#: hours of play: at most a year (366 days) in one go
HOURS = Whole(1, 24 * 366)
#: hexes from a centre: the largest map is 999 hexes each way
RADIUS = Whole(0, 999)
#: hlbs of cargo, fuel or water, and heads of crew: far more than any Tier X ship holds
AMOUNT = Whole(0, 1_000_000)
#: as AMOUNT, at least 1 (pumping, jettisoning, refuelling)
SOME = Whole(1, 1_000_000)
#: knots of speed or strain, roll modifiers
KNOTS = Whole(0, 99)
MODIFIER = Whole(-99, 99)
#: names of campaigns and ships; free notes, titles and reasons
NAME = Text(100, name=True)
NOTE = Text(500)
#: a ship named to act on, list or tell of
SHIP = ShipRef()

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
    env = os.environ.get("VOYAGE_DB")
    if env:
        problem = path_problem(env)
        if problem:  # checked as --db is, so the error stays one line
            raise click.ClickException(f"$VOYAGE_DB is not a usable campaign path: {problem}")
    return env or "campaign.db"


db_option = click.option(
    "--db",
    "db_path",
    type=FilePath(dir_okay=False),
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
    names them (voyage.store.campaignfile.explain); anything else is a bug and is not hidden.
    """
    from voyage.base.errors import VoyageError

    try:
        yield
    except VoyageError as exc:
        raise VoyageClickError(str(exc)) from None
    except click.ClickException:
        raise
    except Exception as exc:
        from voyage.store.campaignfile import explain, last_opened

        known = explain(exc, last_opened())
        if known is None:
            raise
        raise VoyageClickError(str(known)) from None


#: `--force` of a command that writes a file the referee names (`journal --out`, `ship card`,
#: `map render`), as `export` and `demo` have it: nothing is overwritten without it.
force_option = click.option(
    "--force", is_flag=True, help="Overwrite the file if it already exists."
)


def refuse_existing(path: str | Path, force: bool) -> None:
    """Stop with one line, before anything is drawn or written, when ``path`` exists and
    --force was not given (the same words as `voyage export`)."""
    if not force and Path(path).exists():
        raise VoyageClickError(
            f"{path} already exists: add --force to overwrite it, or choose another --out"
        )


def handles_errors(func: F) -> F:
    """Decorator form of :func:`core_errors`."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with core_errors():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def open_campaign(db_path: str | None) -> Any:
    """Open the campaign named by --db / $VOYAGE_DB / ./campaign.db."""
    from voyage.store.campaign import open_campaign as _open

    return _open(db_path)


def read_campaign(db_path: str | None) -> Any:
    """Open the campaign for a command that only reads it: everything the command reads is
    one moment (one read transaction, ended with the command), even while another
    terminal advances the campaign."""
    from voyage.store.campaigndb import begin_reading, end_reading

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
    """``1 hour``, ``2 hours`` (voyage.outputs.report.plural, imported when first used)."""
    from voyage.base.text import plural as _plural

    return _plural(count, word, many)


def hex_list(value: str | None) -> list[str]:
    """A ``--route`` option's hexes: ``CCRR,CCRR,...`` with blanks dropped."""
    return [h.strip() for h in value.split(",") if h.strip()] if value else []
