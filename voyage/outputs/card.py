"""A printable ship card: the ship's figures, her Load against her Deadweight, and
the odds of the rolls a referee makes most at the table, as one PNG or PDF page.

The figures are :func:`voyage.vessels.ships.figures` (the same as ``ship show``); the odds come from
the rules' own exact functions (R41 capsize, R51 dodge), so the card never disagrees with a
roll. matplotlib is imported only here, when a card is drawn.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from voyage.base.atomicfile import FileBatch
from voyage.base.errors import VoyageError
from voyage.base.escape import plain_pictures, visible
from voyage.base.paths import no_folder
from voyage.base.text import load_said
from voyage.base.tiers import roman
from voyage.outputs.report import LOAD_LABELS, equipment_text
from voyage.rules.capsize import capsize_odds
from voyage.rules.dodge import dodge_odds
from voyage.tables.rulebook import RuleBook
from voyage.vessels.ships import load_part_said
from voyage.vessels.stores import stores_line

#: Card size in inches (a landscape postcard, A6) and the formats written by suffix.
CARD_INCHES = (5.83, 4.13)
FORMATS = {".png": "png", ".pdf": "pdf"}
LOAD_COLOURS = {
    "cargo": "#8c6d31",
    "fuel": "#d62728",
    "people": "#1f77b4",
    "equipment": "#7f7f7f",
    "water": "#17becf",
    "stores": "#2ca02c",  # R100: food and fresh water
}


class CardError(VoyageError):
    """A ship card cannot be written where asked."""


def card_lines(fig: dict[str, Any], book: RuleBook) -> dict[str, list[str]]:
    """The card's text in three blocks: the heading, the figures and the odds."""
    engine = f"Engine {roman(fig['engine_tier'])}" if fig["engine_tier"] else "No engine (oars)"
    heading = [
        visible(fig["name"]),
        f"{fig['class']}, Tier {roman(fig['tier'])}, {engine}",
        "Traits: " + (", ".join(fig["traits"]) or "none"),
    ]
    category = LOAD_LABELS.get(fig["load_category"], fig["load_category"])
    figures = [
        f"Deadweight {fig['deadweight']} hlbs; sinks above {fig['sinking_load']}",
        f"Load {load_said(fig['load'])} hlbs ({category})",
        f"Speed {fig['speed']} knots; strain up to +{fig['max_strain']}",
        f"Fuel Use {fig['fuel_use']} hlb/hex; To-hit {fig['to_hit']:+d}",
        f"Aboard: crew {fig['crew']}, passengers {fig['passengers']}, cargo {fig['cargo']}, "
        f"fuel {fig['fuel']}",
    ]
    if fig.get("life_jackets") or fig.get("life_rafts"):
        figures.append(  # R70: ship's stores
            f"Life jackets {fig.get('life_jackets', 0)}; life rafts {fig.get('life_rafts', 0)} "
            f"({4 * int(fig.get('life_rafts', 0))} seats)"
        )
    figures += [line.strip() for line in stores_line(fig)]  # R100-R102: days they last
    if "built" in fig:  # R80-R82: a built boat's plant, speeds in mph and charge
        b = fig["built"]
        heading[1] = f"{fig['class']}, Tier {roman(fig['tier'])}, {b['plant'] or 'no'} plant"
        figures[2] = (
            f"Speed {fig['speed']} mph (pace {fig['pace_mph']}); Accel. "
            f"{b['acceleration']}, Top Speed {b['top_speed']}"
        )
        figures[3] = f"Power {fig['fuel_use']} units/hex; To-hit {fig['to_hit']:+d}"
        figures[4] = figures[4].replace(f"fuel {fig['fuel']}", f"charge {fig['fuel']}")
    figures += equipment_text(fig["equipment"]) + ([fig["pumps"]] if fig.get("pumps") else [])
    upright = capsize_odds(fig["tier"], fig["load_category"], book, fig["traits"])
    dodge = dodge_odds(fig["tier"], book, fig["traits"])
    odds = [
        f"Capsize Check (R41): stays upright {float(upright):.0%}",
        f"Dodge an Explosion (R51): {float(dodge):.0%}",
        f"Status: {fig['status']}" + (f" at {fig['hex']}" if fig.get("hex") else ""),
    ]
    return {"heading": heading, "figures": figures, "odds": odds}


#: Where the odds block starts (figure fraction from the bottom): the figures stop above it.
ODDS_TOP = 0.12


def figure_rows(lines: list[str], top: float, bottom: float) -> list[tuple[float, str, float]]:
    """The figures' rows, wrapped at 52 characters, as (y, text, font size) from ``top``
    down: a row 0.045 high at 8.5 points, rows and font shrunk alike when they would run
    into the odds below ``bottom`` (a ship with stores, raft stores and much gear wrapped
    her last equipment line over the Capsize Check)."""
    parts = [p for line in lines for p in textwrap.wrap(line, 52, subsequent_indent="  ")]
    step = min(0.045, (top - bottom - 0.01) / max(len(parts), 1))
    size = 8.5 * step / 0.045
    return [(top - i * step, part, size) for i, part in enumerate(parts)]


def draw_ship_card(
    fig: dict[str, Any], book: RuleBook, out: str | Path, force: bool = True
) -> Path:
    """Write the card to ``out`` (.png or .pdf), whole or not at all (voyage.base.atomicfile;
    without ``force`` a file that appeared meanwhile is kept); the path written."""
    path = Path(out)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise CardError(
            f"a ship card is written as .png or .pdf, not {path.suffix or 'no suffix'}"
            f": give --out {path.with_suffix('.png').name}"
        )
    if not path.parent.is_dir():
        raise CardError(no_folder(path.parent))
    text = card_lines(fig, book)

    import matplotlib

    matplotlib.use("Agg")
    plain_pictures(matplotlib)
    from matplotlib import pyplot as plt

    figure = plt.figure(figsize=CARD_INCHES)
    try:
        figure.text(
            0.05, 0.92, text["heading"][0], fontsize=16, weight="bold", va="top", parse_math=False
        )
        y = 0.83
        for line in text["heading"][1:]:
            figure.text(0.05, y, line, fontsize=9, va="top")
            y -= 0.05
        for y_part, part, size in figure_rows(text["figures"], y - 0.02, ODDS_TOP):
            figure.text(0.05, y_part, part, fontsize=size, va="top")
        _load_bar(figure, fig)
        y = ODDS_TOP
        for line in text["odds"]:
            figure.text(0.05, y, line, fontsize=8, va="top", style="italic")
            y -= 0.04

        with FileBatch(force=force) as batch:
            figure.savefig(batch.add(path), format=fmt, dpi=150)
    except OSError as exc:
        raise CardError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(figure)
    return path


def _load_bar(figure: Any, fig: dict[str, Any]) -> None:
    """Load against Deadweight: the parts stacked, the R12 thresholds marked."""
    ax = figure.add_axes((0.76, 0.34, 0.18, 0.5))
    dw = int(fig["deadweight"])
    bottom = 0
    for part, value in fig["load_parts"].items():
        if value:
            ax.bar(
                0,
                value,
                bottom=bottom,
                color=LOAD_COLOURS.get(part, "#bbbbbb"),
                label=load_part_said(part),
                width=0.6,
            )
            bottom += value
    for share, label in ((0.25, "DW/4"), (0.5, "DW/2"), (1.0, "DW")):
        ax.axhline(dw * share, color="black", lw=0.6, ls="--")
        ax.text(-0.45, dw * share, label, fontsize=6, va="bottom")
    ax.set_xlim(-0.5, 1.0)
    ax.set_ylim(0, max(dw * 1.1, bottom * 1.05))
    ax.set_xticks([])
    ax.set_ylabel("hlbs", fontsize=7)
    ax.tick_params(labelsize=6)
    ax.set_title("Load", fontsize=8)
    ax.legend(fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=2, frameon=False)
