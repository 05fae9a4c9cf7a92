"""Python's cyclic garbage collector held off while a picture or a page is built.

Drawing a picture and turning a long log into HTML each make hundreds of thousands of small
objects that all live until the work is done (matplotlib's artists, markdown-it-py's tokens).
Each batch of them sets off the collector, and its full passes walk every object the process
holds (a 1,000-day voyage's rows, matplotlib's modules) to find nothing to free: about a
tenth of a second of an HTML handout. Held off, it takes up again once the work is over and
frees whatever is garbage by then: nothing is kept that it would have freed.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
