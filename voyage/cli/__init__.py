"""The voyage command line: a click group whose commands load only when used.

Each entry of :data:`COMMANDS` names a module and a click command in it. Command modules
import only click and the standard library at module level, so ``voyage --help`` stays
fast (no sqlite-utils, YAML, matplotlib or hexalattice at start-up).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys

import click

from voyage import __version__
from voyage.cli.common import FilePath

#: command name -> "module:attribute", loaded on first use.
COMMANDS: dict[str, str] = {
    "init": "voyage.cli.campaign:init",
    "settings": "voyage.cli.campaign:settings",
    "undo": "voyage.cli.campaign:undo",
    "history": "voyage.cli.campaign:history",
    "calendar": "voyage.cli.calendar:calendar_command",
    "ship": "voyage.cli.ship:ship",
    "roll": "voyage.cli.roll:roll",
    "map": "voyage.cli.map:map_group",
    "weather": "voyage.cli.weather:weather",
    "sail": "voyage.cli.voyages:sail",
    "advance": "voyage.cli.voyages:advance",
    "pace": "voyage.cli.voyages:pace",
    "act": "voyage.cli.act:act",
    "log": "voyage.cli.voyages:log",
    "status": "voyage.cli.voyages:status",
    "crew": "voyage.cli.people:crew",
    "survivors": "voyage.cli.people:survivors",
    "export": "voyage.cli.export:export",
    "demo": "voyage.cli.demo:demo",
    "doctor": "voyage.cli.doctor:doctor",
    "tables": "voyage.cli.tables:tables",
    "completion": "voyage.cli.completion:completion",
    "browse": "voyage.cli.browse:browse",
    "encounter": "voyage.cli.encounter:encounter",
    "forecast": "voyage.cli.forecast:forecast",
    "plan": "voyage.cli.forecast:plan_command",
    "journal": "voyage.cli.journal:journal",
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is needed."""

    def __init__(self, *args: object, lazy: dict[str, str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attr = self.lazy[cmd_name].split(":")
            cmd: click.Command = getattr(importlib.import_module(module_name), attr)
            if ctx is not None and ctx.resilient_parsing:  # only while the shell completes
                from voyage.cli.completion import attach

                attach(cmd, (cmd_name,))
            return cmd
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; an interrupt (Ctrl-C, SIGTERM, SIGHUP) is one line saying
        whether the campaign changed; a negative number where none is allowed gets a clear
        line.

        click reads ``-10`` as the short options ``-1 -0``, so ``voyage act SHIP pump -10``
        would say "No such option '-1'", which does not tell the referee what is wrong.
        """
        saved = _commits()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            # Ctrl-C (or SIGTERM, SIGHUP: voyage.base.stopsignals): each change is one
            # transaction, rolled back unless it was committed (click alone would say
            # "Aborted!" on two lines, and not whether anything changed)
            raise Interrupted(_commits() - saved, exc) from None
        except Exception as exc:
            stopped = getattr(sys.modules.get("voyage.base.stopsignals"), "received", None)
            if stopped is not None:  # the error is what became of a signal's interrupt
                from voyage.base.stopsignals import interrupt

                raise Interrupted(_commits() - saved, interrupt(stopped)) from None
            if not isinstance(exc, click.UsageError):
                raise
            self._usage_error(exc)
            raise

    @staticmethod
    def _usage_error(exc: click.UsageError) -> None:
        """Raise a usage error in the words a referee needs, where click's are not."""
        if isinstance(exc, click.NoSuchOption) and exc.option_name[1:2].isdigit():
            raise click.UsageError(
                f"{exc.option_name}... looks like a negative number: none is accepted "
                "here (see --help for each number's range)",
                ctx=exc.ctx,
            ) from None
        # click quotes what was typed ("Got unexpected extra argument (a<newline>b)"):
        # escape control characters so the error stays one line
        text = exc.format_message()
        if _one_line(text) != text:
            raise click.UsageError(_one_line(text), ctx=exc.ctx) from None

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: object,
    ) -> click.Context:
        """The context, its arguments parsed (--help and --version are answered here): a
        Ctrl-C meanwhile is one line, not click's "Aborted!" on two."""
        try:
            return super().make_context(info_name, args, parent, **extra)  # type: ignore[arg-type]
        except KeyboardInterrupt as exc:
            raise Interrupted(0, exc) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list, as click writes it, but a lazy command whose summary is known
        (voyage/cli/summaries.py) is not imported just to show its first line."""
        from voyage.cli.summaries import SUMMARIES

        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.lazy and name in SUMMARIES:
                stand_in = click.Command(name, help=SUMMARIES[name])  # shortened as click does
                rows.append((name, stand_in.get_short_help_str(limit)))
                continue
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            rows.append((name, cmd.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _commits() -> int:
    """voyage.base.stopsignals.commits, 0 while it is not imported (not imported just
    for this: a command that needs no campaign starts without sqlite-utils)."""
    return getattr(sys.modules.get("voyage.base.stopsignals"), "commits", 0)


class Interrupted(click.ClickException):
    """Ctrl-C (SIGINT), SIGTERM or SIGHUP stopped the command: one line saying whether the
    campaign changed; exit status 128 + the signal's number, as a shell gives a command a
    signal stopped (130 for Ctrl-C)."""

    exit_code = 130

    def __init__(self, saved: int, cause: BaseException | None = None) -> None:
        from voyage.base.stopsignals import exit_status, interrupted_line, signal_number

        signum = signal_number(cause)
        self.exit_code = exit_status(signum)  # type: ignore[misc] # click: a class attribute
        super().__init__(interrupted_line(signum, saved=bool(saved)))

    def show(self, file: object = None) -> None:
        with contextlib.suppress(OSError):  # the terminal is gone (SIGHUP): nobody to tell
            super().show(file)  # type: ignore[arg-type]


def _one_line(text: str) -> str:
    """``text`` with control characters written as escapes (a newline as \\n)."""
    from voyage.base.text import control_character

    if not control_character(text):
        return text
    return "".join(ch if not control_character(ch) else repr(ch)[1:-1] for ch in text)


def _remember_db(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    # ctx.meta is shared by every context under this one: each command's --db falls back to it
    if value:
        ctx.meta["voyage.db"] = value


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="voyage")
@click.option(
    "--db",
    type=FilePath(dir_okay=False),
    expose_value=False,
    is_eager=True,
    callback=_remember_db,
    help="Campaign file for the command (or give --db to the command itself).",
)
def cli() -> None:
    """voyage: a hexcrawl campaign and voyage manager for "Our Mother, the Sea".

    Make a campaign, roll ships, load them, sail them across a hex map hour by hour
    and export the log. The campaign file is --db PATH, else $VOYAGE_DB, else
    ./campaign.db.

    Example:

        voyage init --name "The Salt March" --seed 7
    """


def main() -> None:
    """Console-script entry point: whatever goes wrong, a person sees one line.

    The commands turn every error the core raises into one line themselves (and click
    already ends quietly on a closed pipe); this is the last net, for what nobody foresaw
    (a full disk under the campaign file, a bug). ``VOYAGE_DEBUG=1`` shows the traceback.
    """
    from voyage.base import gctune

    gctune.whole_process = True  # this process runs one command and ends
    before = _commits()
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt as exc:  # Ctrl-C outside a command (LazyGroup.invoke names those)
        if os.environ.get("VOYAGE_DEBUG"):
            raise
        interrupted = Interrupted(_commits() - before, exc)
        interrupted.show()
        sys.exit(interrupted.exit_code)
    except Exception as exc:  # noqa: BLE001 - the one place every error is caught
        if os.environ.get("VOYAGE_DEBUG"):
            raise
        stopped = getattr(sys.modules.get("voyage.base.stopsignals"), "received", None)
        if stopped is not None:  # the error is what became of a signal's interrupt
            from voyage.base.stopsignals import interrupt

            interrupted = Interrupted(_commits() - before, interrupt(stopped))
            interrupted.show()
            sys.exit(interrupted.exit_code)
        click.echo(f"Error: {unexpected_error_line(exc)}", err=True)
        sys.exit(1)
    finally:
        gctune.whole_process = False


def unexpected_error_line(exc: BaseException) -> str:
    """One line for an error no command foresaw: what it was, and what to do."""
    import errno

    from voyage.store.campaignfile import says_disk_full

    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        if exc.errno == errno.ENOSPC:
            return f"the disk is full{where}: free some space and run the command again"
        return f"{exc.strerror or exc}{where}"
    if says_disk_full(exc):
        return "the disk is full: free some space and run the command again"
    if isinstance(exc, MemoryError):
        return "out of memory: the command asked for more than this machine has"
    text = " ".join(str(exc).split())[:200]
    return (
        f"unexpected {type(exc).__name__}{': ' + text if text else ''} - a bug in voyage: "
        "please report it with the command you ran (VOYAGE_DEBUG=1 shows the traceback)"
    )
