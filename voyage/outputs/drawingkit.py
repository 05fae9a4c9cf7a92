"""matplotlib loaded for drawing a picture: its Agg canvas and ``Figure``, texts drawn as
their letters (voyage.base.escape.plain_pictures), and none of the help texts matplotlib
writes for itself as it is imported.

As each of its drawing classes (``Line2D``, ``Patch``, ``Text``, about a hundred of them) is
defined, matplotlib writes the help of that class's ``set()`` method: it inspects every
setter the class has and formats them all into a docstring, by its public function
``matplotlib.artist.kwdoc``. That is a quarter of importing matplotlib (about 0.1 s of a
voyage's HTML handout, with its picture) and nothing a picture or a command ever reads. While
:func:`figure_classes` imports the modules the pictures draw with, ``kwdoc`` returns a short
line instead; it is put back as soon as they are imported, so a class defined later gets its
full help as before. Every ``set()`` still takes the same properties (its signature is made
apart from the help); only ``help(Line2D.set)`` is shorter in a process that drew a picture.
"""

from __future__ import annotations

import sys
from typing import Any

from voyage.base.escape import plain_pictures

#: What a ``set()`` method's help says about its properties, in a process that drew.
SHORT_HELP = "Properties: see the class's set_* methods."

#: The matplotlib modules the pictures draw with, imported together (matplotlib.figure
#: brings in the artists: lines, patches, collections, texts, the legend, the axes).
_DRAWING_MODULES = ("matplotlib.figure", "matplotlib.backends.backend_agg")


def figure_classes() -> tuple[Any, Any]:
    """(``Figure``, ``FigureCanvasAgg``), matplotlib set to draw with Agg and to draw every
    text as its letters."""
    import matplotlib

    matplotlib.use("Agg")
    plain_pictures(matplotlib)
    if any(name not in sys.modules for name in _DRAWING_MODULES):
        _import_without_help()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    return Figure, FigureCanvasAgg


def _import_without_help() -> None:
    """Import :data:`_DRAWING_MODULES` with ``matplotlib.artist.kwdoc`` returning
    :data:`SHORT_HELP`, and put ``kwdoc`` back whatever happens."""
    import importlib

    import matplotlib.artist

    kwdoc = matplotlib.artist.kwdoc
    matplotlib.artist.kwdoc = _short_help
    try:
        for name in _DRAWING_MODULES:
            importlib.import_module(name)
    finally:
        matplotlib.artist.kwdoc = kwdoc


def _short_help(artist: Any) -> str:
    return SHORT_HELP
