"""The map file's reader: it walks the YAML node tree PyYAML's safe loader composes, so that
every error is one line naming the file, the line and the column (voyage.map.seamap reads
the map with it, voyage.map.regions, currents and depths their blocks)."""

from __future__ import annotations

import difflib
from typing import Any, Protocol

import yaml

from voyage.base.errors import MapError
from voyage.base.readlimits import yaml_loader
from voyage.base.text import control_character

#: The largest number a map file may give (a depth, a price, a stock): beyond it, a typo.
MAX_MAP_NUMBER = 1_000_000_000


class MapHexes(Protocol):
    """What a block of the map file (currents, depths) asks of the map it is read into."""

    def in_bounds(self, name: str) -> bool: ...

    def is_sea(self, name: str) -> bool: ...

    def off_map_message(self, name: str) -> str: ...


class MapReader:
    """Walks the YAML node tree so every error can name its line and column."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.lines = text.splitlines()
        # The project's safe loader (voyage.base.readlimits: YAML's safe subset, no duplicate
        # key, no deep nesting, no overlong number); we keep the node tree it composes so
        # that errors can point at lines and columns, and construct values with it.
        self.loader = yaml_loader(text, source=source, error=MapError)

    def error(
        self,
        node: yaml.Node | None,
        message: str,
        line: int | None = None,
        column: int | None = None,
    ) -> MapError:
        if node is not None and line is None:
            line, column = node.start_mark.line + 1, node.start_mark.column + 1
        where = f", line {line}" if line else ""
        where += f", column {column}" if line and column else ""
        return MapError(f"{self.source}{where}: {message}")

    def root(self) -> yaml.MappingNode:
        try:
            node = self.loader.get_single_node()
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            if mark is not None:
                raise self.error(
                    None, f"not valid YAML: {problem}", mark.line + 1, mark.column + 1
                ) from None
            raise self.error(None, f"not valid YAML: {problem}") from None
        if node is None:
            raise self.error(None, "the file is empty: a map needs at least 'rows'")
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, "a map file is a mapping with keys like name, legend, rows")
        return node

    def value(self, node: yaml.Node) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise self.error(node, f"cannot read this value: {exc}") from None

    def mapping(
        self, node: yaml.Node, what: str, allowed: tuple[str, ...] | None
    ) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{what} must be a mapping (key: value lines)")
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.error(key_node, f"{what}: keys must be plain words")
            key = str(key_node.value)
            if allowed is not None and key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else "use " + ", ".join(allowed)
                raise self.error(key_node, f"unknown key {key!r} in {what}: {hint}")
            if key in out:
                raise self.error(key_node, f"{what}: {key!r} is given twice")
            out[key] = (key_node, value_node)
        return out

    def text_value(self, node: yaml.Node, what: str, *, multiline: bool = False) -> str:
        """Text: a name (one line) or, with ``multiline``, a note or a description."""
        value = self.value(node)
        if not isinstance(value, str) or not value.strip():
            raise self.error(node, f"{what} must be text, got {kind_of(value)}")
        bad = control_character(value.strip(), multiline=multiline)
        if bad:
            raise self.error(node, f"{what} holds a control character ({bad})")
        return value.strip()


def kind_of(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (yes/no)"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def row_positions(reader: MapReader, node: yaml.Node) -> list[tuple[str, int, int]]:
    """The drawn rows with the file line and column of each row's first character."""
    rows: list[tuple[str, int, int]] = []
    if isinstance(node, yaml.ScalarNode):
        if node.style != "|":
            raise reader.error(
                node, "rows: draw the map as a block starting 'rows: |', one line per row of hexes"
            )
        lines = node.value.split("\n")
        while lines and lines[-1] == "":
            lines.pop()
        first = node.start_mark.line + 1  # 0-based index of the first content line
        for i, text in enumerate(lines):
            raw = reader.lines[first + i] if first + i < len(reader.lines) else text
            offset = (
                len(raw) - len(text)
                if text and raw.endswith(text)
                else len(raw) - len(raw.lstrip(" "))
            )
            rows.append((text, first + i + 1, offset + 1))
        return rows
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode):
                raise reader.error(item, "rows: each row is one line of map characters")
            quote = 1 if item.style in ("'", '"') else 0
            rows.append(
                (str(item.value), item.start_mark.line + 1, item.start_mark.column + 1 + quote)
            )
        return rows
    raise reader.error(node, "rows: draw the map as a block starting 'rows: |'")


def map_number(reader: MapReader, node: yaml.Node, what: str, whole: bool = False) -> float:
    """A number from 0 to MAX_MAP_NUMBER (a whole one if ``whole``; NaN, .inf and runaway
    numbers refused); ``what`` starts the error line."""
    value = reader.value(node)
    kinds = int if whole else int | float
    if isinstance(value, bool) or not isinstance(value, kinds) or not 0 <= value <= MAX_MAP_NUMBER:
        raise reader.error(node, f"{what} {kind_of(value)}")  # NaN fails the range too
    return value
