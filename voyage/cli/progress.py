"""The one progress bar of the CLI: click's bar on stderr, for work that takes
over a second, only on a terminal.

The core never imports click: a long piece of work (an advance, a forecast, a picture)
takes a ``progress`` callback and tells it how many steps each bit of work finished; the
command passes the callback :func:`progress_bar` yields. Nothing is drawn when stderr is
not a terminal (piped, redirected, a test's runner), under CI, or for work that ends within
:data:`DELAY` seconds: the bar appears only once the work has run that long.

Work that tells its pace (a forecast or plan, timed over its first chunk of runs) gets one
line on stderr before the rest of it runs, when it will take over :data:`ESTIMATE_FROM`
seconds (:func:`say_estimate`): how long, and that Ctrl-C stops it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

#: Seconds of work before the bar is drawn: quick work prints nothing at all.
DELAY = 1.0
#: Work estimated to take longer than this many seconds says so before it goes on.
ESTIMATE_FROM = 10.0


def duration_text(seconds: float) -> str:
    """A span of time for people, to the second under an hour: ``45 s``, ``2 min 30 s``,
    ``1 h 5 min``."""
    whole = max(1, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        minutes, secs = divmod(whole, 60)
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    hours, minutes = divmod(round(whole / 60), 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def estimate_line(seconds: float, what: str) -> str | None:
    """The line saying how long ``what`` will take (None when it is within
    :data:`ESTIMATE_FROM` seconds)."""
    if seconds <= ESTIMATE_FROM:
        return None
    return f"About {duration_text(seconds)} for {what} (Ctrl-C stops it)."


def say_estimate(seconds: float, what: str) -> None:
    """Print :func:`estimate_line` on stderr when there is one (above any bar to come)."""
    line = estimate_line(seconds, what)
    if line is not None:
        click.echo(line, err=True)


def bar_wanted(show: bool = True) -> bool:
    """Whether a bar may be drawn: asked for, stderr a terminal, and not under CI."""
    return show and sys.stderr.isatty() and not os.environ.get("CI")


class _LateBar:
    """Counts steps from the start and draws click's bar once :data:`DELAY` has passed."""

    def __init__(self, total: int | None, label: str) -> None:
        self.total, self.label = total, label
        self.started = time.monotonic()
        self.done = 0
        self.bar: Any = None

    def __call__(self, steps: int) -> None:
        self.update(steps)

    def update(self, steps: int) -> None:
        self.done += steps
        if self.bar is not None:
            self.bar.update(steps)
            return
        if time.monotonic() - self.started < DELAY:
            return
        if self.total is None:  # no end known (--until): a count of steps, no bar to fill
            self.bar = click.progressbar(
                iter(int, 1), label=self.label, file=sys.stderr, show_pos=True
            )
        else:
            self.bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr)
        self.bar.__enter__()
        self.bar.update(self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


@contextmanager
def progress_bar(total: int | None, label: str, show: bool = True) -> Iterator[_LateBar | None]:
    """A callback telling click's progress bar how many of ``total`` steps are done (None
    for work whose end is not known), or None where no bar is wanted (see the module).
    Its ``total`` may be set once the work knows it, before the bar is drawn."""
    if not bar_wanted(show):
        yield None
        return
    late = _LateBar(total, label)
    try:
        yield late
    finally:
        late.close()
