"""The `voyage` console script: Ctrl-C while the command line loads is one line too.

Loading click and the command group takes a good part of a second on a slow machine; a
Ctrl-C in that time would print Python's KeyboardInterrupt traceback. This module imports
nothing at module level, so the net is up before anything heavy loads.
SIGTERM and SIGHUP are caught from here on as Ctrl-C is (voyage.base.stopsignals), until the
command has ended.
"""

from __future__ import annotations

import sys


def main() -> None:
    before = _commits()
    try:
        try:
            from voyage.base.stopsignals import install

            install()
            from voyage.cli import main as run

            run()  # its own net catches what comes while a command runs: this one the rest
        finally:
            from voyage.base.stopsignals import uninstall

            uninstall()
    except Exception:
        # Python 3.11 wraps an interrupt raised while a class is being made (an import loading
        # ipaddress, say) in a RuntimeError: what became of a signal is still that signal
        received = getattr(sys.modules.get("voyage.base.stopsignals"), "received", None)
        if received is None:
            raise
        _stopped(received, before)
    except KeyboardInterrupt as exc:
        from voyage.base.stopsignals import signal_number

        _stopped(signal_number(exc), before)


def _stopped(signum: int, before: int) -> None:
    """Say in one line that a signal stopped the command and whether the campaign changed,
    and exit as a shell reports a command the signal stopped."""
    import contextlib

    from voyage.base.stopsignals import exit_status, interrupted_line

    # a signal may come just as a command that changed the campaign is ending
    saved = _commits() != before
    with contextlib.suppress(OSError):  # the terminal is gone (SIGHUP): nobody to tell
        sys.stderr.write(f"Error: {interrupted_line(signum, saved=saved)}\n")
    sys.exit(exit_status(signum))


def _commits() -> int:
    """The campaign commits this process made (voyage.base.stopsignals counts them; 0 before it
    loads)."""
    return getattr(sys.modules.get("voyage.base.stopsignals"), "commits", 0)
