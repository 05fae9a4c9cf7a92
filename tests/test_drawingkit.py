"""matplotlib loaded for drawing (voyage.outputs.drawingkit): the Agg canvas, texts as their
letters, and no help texts written for its drawing classes while they are imported."""

from __future__ import annotations

import subprocess
import sys

#: A fresh process (this one may have imported matplotlib already) that loads the drawing
#: classes, then checks what they can do and what their help says.
CHECK = """
import inspect
import matplotlib
from voyage.outputs.drawingkit import SHORT_HELP, figure_classes

Figure, Canvas = figure_classes()
import matplotlib.artist
import matplotlib.lines

assert matplotlib.get_backend().lower() == "agg"
assert matplotlib.rcParams["text.parse_math"] is False
line = matplotlib.lines.Line2D([0, 1], [0, 1])
line.set(linewidth=3, color="red")  # set() takes every property, as before
assert line.get_linewidth() == 3
assert "linewidth" in inspect.signature(matplotlib.lines.Line2D.set).parameters
assert SHORT_HELP in matplotlib.lines.Line2D.set.__doc__
# kwdoc is matplotlib's own again: a class defined from now on gets its full help
assert "linewidth" in matplotlib.artist.kwdoc(matplotlib.lines.Line2D)
fig = Figure(figsize=(1, 1), dpi=50)
Canvas(fig)
fig.add_artist(line)
fig.canvas.draw()
assert fig.canvas.buffer_rgba().shape == (50, 50, 4)
print("ok")
"""


def test_the_drawing_classes_draw_and_take_every_property_without_their_help() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
