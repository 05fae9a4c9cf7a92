"""The garbage collector's settings for a long advance (a year of ships), and held off
while a picture or a page is built.

An advance makes and keeps many small objects (an hour row per ship-hour, its events and
their rolls, R4) and frees almost all the others by reference counting. CPython's cyclic
collector does not know that: with its default thresholds it runs a young collection every
700 objects kept and, as the kept rows pile up, full collections that walk every object
made since the process began (the rule book, the map, the rows so far). A year of ten
ships spent a sixth of its engine time there and found next to nothing to free.

:func:`for_long_run` is called by ``voyage advance`` once its modules are imported and
before it opens the campaign (bench/bench_engine.py calls it at the same point): it freezes
what is loaded (:func:`gc.freeze`: the modules live until the process ends anyway, and are
left out of every later collection) and raises the young threshold so that collections
are rare. It does so only in a process that runs nothing but the one command (the console
script, :func:`voyage.cli.main`, sets :data:`whole_process`): a test that runs commands
in its own process keeps its collector as it was. Cycles are still collected (nothing is
switched off), only later; objects freed by reference counting, nearly all of them, are
freed as before. It changes no result: collection never draws dice or changes what the
engine computes.

:func:`collector_paused` holds the collector off while a picture is drawn: it makes
hundreds of thousands of small objects that all live until the work is done (matplotlib's
artists), and each batch of them set off full passes that walked every object the process
holds (a 1,000-day voyage's rows, matplotlib's modules) to find nothing to free: about a
tenth of a second of an HTML handout. It takes up again once the work is over and frees
whatever is garbage by then.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Objects kept between young collections (CPython's default is 700).
YOUNG = 50_000

#: True in a process that runs one command and ends (set by voyage.cli.main)
whole_process = False

_done = False


def for_long_run() -> None:
    """Freeze what is loaded and collect rarely, once per whole process (see
    :data:`whole_process`; later calls do nothing); the older generations keep CPython's
    own thresholds."""
    global _done
    if _done or not whole_process:
        return
    _done = True
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block; the collector is put back as it was after
    it (left off if it was off: a caller that turned it off keeps it off)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


__all__ = ["YOUNG", "collector_paused", "for_long_run", "whole_process"]
