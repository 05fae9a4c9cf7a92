"""What every importer reads a drawing tool's map into, before voyage's terrains are chosen.

An :class:`ImportedMap` is the drawing in voyage's layout (R30): ``terrain[row][col]`` is the
tool's own terrain name of hex ``(col + 1, row + 1)``, flat-topped with every even column
(1-based) half a hex lower. Towns, labels and notes are placed on hexes in the same
numbering. The importers convert each tool's geometry into this exactly, or refuse.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field

from voyage.base.errors import MapError
from voyage.map import hexes as hexmap

#: The largest map side voyage holds (R30: three-digit columns and rows).
MAX_SIDE = hexmap.MAX_INDEX
#: The largest drawing read at all (a window of it can be imported): checked before any grid
#: is built, so a file that only claims a huge size cannot fill the memory.
MAX_DRAWN_SIDE = 20_000
MAX_DRAWN_HEXES = 16_000_000
#: The terrain name of a hex the tool left empty (Hexfriend's blank hexes, Tiled's tile 0).
BLANK = "Blank"
#: The terrain name of the column added to turn a stagger round (always open sea).
ADDED_COLUMN = "(added column)"


def check_drawn_size(width: int, height: int, source: str, tool: str) -> None:
    """Refuse, in one line, a drawing too big to read before its grid is built."""
    if width > MAX_DRAWN_SIDE or height > MAX_DRAWN_SIDE or width * height > MAX_DRAWN_HEXES:
        raise MapError(
            f"{source}: the {tool} map says it is {width}x{height} hexes, more than voyage "
            f"reads ({MAX_DRAWN_SIDE} each way, {MAX_DRAWN_HEXES:,} in all): crop it in "
            f"{tool} and save again"
        )


@dataclass(frozen=True)
class Placed:
    """A town, a label or a note on one hex (0-based column and row)."""

    col: int
    row: int
    text: str
    gm_only: bool = False
    kind: str = ""  # a town's feature type, a note's title


@dataclass
class ImportedMap:
    """A drawing tool's map in voyage's hex layout, terrain still named as the tool names it."""

    tool: str  # "Worldographer", "Hexfriend", "Tiled"
    source: str
    name: str
    terrain: list[list[str]]
    towns: list[Placed] = field(default_factory=list)
    labels: list[Placed] = field(default_factory=list)
    notes: list[Placed] = field(default_factory=list)
    gm_only: set[tuple[int, int]] = field(default_factory=set)  #: hexes hidden from players
    report: list[str] = field(default_factory=list)  #: conversions made, things left out

    @property
    def width(self) -> int:
        return len(self.terrain[0]) if self.terrain else 0

    @property
    def height(self) -> int:
        return len(self.terrain)

    def check_size(self) -> None:
        """Refuse a map with no hexes, or one past voyage's 999 each way (with the way out)."""
        if not self.width or not self.height:
            raise MapError(f"{self.source}: the map has no hexes")
        if self.width > MAX_SIDE or self.height > MAX_SIDE:
            raise MapError(
                f"{self.source}: the map is {self.width}x{self.height} hexes, over voyage's "
                f"{MAX_SIDE} each way: import part of it with --window CCCRRR:CCCRRR "
                "(top-left and bottom-right hex)"
            )

    def shift_columns(self) -> None:
        """Add one column on the left, so that a drawing whose odd columns (1-based) sit
        lower keeps every hex beside the same neighbours in voyage's layout (its even
        columns lower). The new column is open sea, and the report says so."""
        self.terrain = [[ADDED_COLUMN, *row] for row in self.terrain]
        self.towns = [_moved(p) for p in self.towns]
        self.labels = [_moved(p) for p in self.labels]
        self.notes = [_moved(p) for p in self.notes]
        self.gm_only = {(c + 1, r) for c, r in self.gm_only}
        self.report.append(
            f"{self.tool} staggers the other columns (its first column sits lower): added one "
            "column of open sea on the left (column 01) so every hex keeps its neighbours; "
            "its hexes are one column further right in voyage's names"
        )

    def window(self, spec: str) -> None:
        """Keep only the hexes from one corner to the other (``CCRR:CCRR``, voyage's names of
        this map's hexes); an even first column keeps the layout by keeping one more column."""
        parts = spec.split(":")
        if len(parts) != 2:
            raise MapError(f"--window {spec!r}: give two corners, e.g. --window 0101:4030")
        try:
            (c1, r1), (c2, r2) = (hexmap.parse_hex(p) for p in parts)
        except MapError as exc:
            raise MapError(f"--window {spec!r}: {exc}") from None
        if c2 < c1 or r2 < r1:
            raise MapError(f"--window {spec!r}: the first corner is the top-left one")
        if c2 > self.width or r2 > self.height:
            last = hexmap.hex_name(min(self.width, MAX_SIDE), min(self.height, MAX_SIDE))
            raise MapError(
                f"--window {spec!r} runs off the map ({self.width}x{self.height} hexes"
                + (
                    f", last hex {last}"
                    if self.width <= MAX_SIDE and self.height <= MAX_SIDE
                    else ""
                )
                + ")"
            )
        if c1 % 2 == 0:
            c1 -= 1  # a window starting on a lower column would turn the stagger round
            self.report.append(
                f"the window starts one column earlier ({hexmap.hex_name(c1, r1)}) so that its "
                "first column is one of the higher ones, as in voyage's layout"
            )
        if c2 - c1 + 1 > MAX_SIDE or r2 - r1 + 1 > MAX_SIDE:
            raise MapError(
                f"--window {spec!r} is {c2 - c1 + 1}x{r2 - r1 + 1} hexes: "
                f"at most {MAX_SIDE} each way"
            )
        c0, r0 = c1 - 1, r1 - 1
        self.terrain = [row[c0:c2] for row in self.terrain[r0:r2]]

        def keep(items: list[Placed]) -> list[Placed]:
            return [
                Placed(p.col - c0, p.row - r0, p.text, p.gm_only, p.kind)
                for p in items
                if c0 <= p.col < c2 and r0 <= p.row < r2
            ]

        self.towns, self.labels, self.notes = keep(self.towns), keep(self.labels), keep(self.notes)
        self.gm_only = {(c - c0, r - r0) for c, r in self.gm_only if c0 <= c < c2 and r0 <= r < r2}
        self.report.append(
            f"imported the window {hexmap.hex_name(c1, r1)}-{hexmap.hex_name(c2, r2)}: "
            f"{c2 - c0}x{r2 - r0} hexes, renamed from 0101"
        )


def _moved(p: Placed) -> Placed:
    return Placed(p.col + 1, p.row, p.text, p.gm_only, p.kind)


_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<\s*(?:br|/p|/div|/li)\b[^>]*>", re.IGNORECASE)


def plain_text(text: str, *, multiline: bool = False) -> str:
    """A name or a note as voyage's map file holds it: tags of a tool's HTML notes taken out,
    entities read, control characters dropped, spaces squeezed (newlines kept in notes)."""
    if "<" in text:
        text = _BREAK.sub("\n", text)
        text = _TAG.sub("", text)
    text = html.unescape(text)
    kept = []
    for ch in text:
        if ch == "\n" and multiline:
            kept.append(ch)
        elif ch in "\t\r\n":
            kept.append(" ")
        elif unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            kept.append(ch)
    lines = [" ".join(line.split()) for line in "".join(kept).split("\n")]
    return "\n".join(line for line in lines if line).strip()
