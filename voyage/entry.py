"""The `voyage` console script: Ctrl-C while the command line loads is one line too.

Loading click and the command group takes a good part of a second on a slow machine; a
Ctrl-C in that time would print Python's KeyboardInterrupt traceback. This module imports
nothing at module level, so the net is up before anything heavy loads (issue 13.4).
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("Error: interrupted (Ctrl-C): the campaign was not changed\n")
        sys.exit(130)
    run()
