"""The one set of limits on every file voyage reads: maps, house tables, campaign.yaml,
settings, imported maps.

A file a referee names, or one that lies in a folder they name, may be anything: a pipe
that never ends, /dev/zero behind a symlink, a 30 MB table, a gzip bomb, YAML nested a
thousand deep, a 5000-digit number, a key written twice. Every reader goes through here:

- :func:`read_bytes` / :func:`read_text`: regular files only (a pipe, device or socket is
  refused from its ``stat`` before it is opened, and the open never blocks), at most
  ``limit`` bytes, checked before and while reading;
- :func:`unpack_bytes`: a gzipped (or zlib) file's content, its decompressed size capped
  while it streams;
- :func:`yaml_loader` / :func:`load_yaml`: PyYAML's safe loader (libyaml's when present)
  that also refuses a duplicate key, nesting deeper than :data:`MAX_DEPTH` and a number of
  more than :data:`MAX_NUMBER_DIGITS` digits;
- :func:`check_writable`: a file about to be replaced must be a regular file (or absent),
  so a pipe in the way cannot block a write.

Each refusal is one line of the caller's error type naming the file (and line) and the fix.
"""

from __future__ import annotations

import io
import os
import stat
import zlib
from pathlib import Path
from typing import Any

import yaml

from voyage.base.errors import VoyageError

#: Largest file voyage reads (bytes), and largest decompressed content of a gzipped one: a
#: map at the largest size (999 x 999 hexes) with a note on many hexes fits well inside it.
MAX_FILE_BYTES = 20 * 1024 * 1024
#: The first bytes of a gzip stream.
GZIP_MAGIC = b"\x1f\x8b"
#: Largest house table (bytes): the largest built-in table is 14 KB, and every command that
#: opens a campaign reads its house tables again, so one must stay quick to read (YAML reads
#: at a few hundred KB a second: this much costs a command well under a second).
TABLE_MAX_BYTES = 256 * 1024
#: Deepest nesting of mappings and lists in a YAML file: the deepest table or map block is
#: under ten levels.
MAX_DEPTH = 64
#: Most characters in a YAML number (digits, sign, point, exponent): every rule number is
#: far shorter, and Python refuses to read whole numbers of over 4300 digits.
MAX_NUMBER_DIGITS = 40

#: Read in pieces of this size, so a file that grows while read is caught at the limit.
_CHUNK = 1024 * 1024

_MERGE_TAG = "tag:yaml.org,2002:merge"


def _size(size: int) -> str:
    """``30 MB``, ``1.5 MB``, ``256 KB``: a size as a referee reads it."""
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / 1024 / 1024:.1f}".removesuffix(".0") + " MB"


def kind_of_file(mode: int) -> str:
    """What a non-regular file is, in a referee's words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(name: str, mode: int, what: str, error: type[VoyageError]) -> VoyageError:
    """The one-line refusal of a path that is not a regular file."""
    return error(f"{name} is {kind_of_file(mode)}, not a regular file: name a {what} that is one")


def file_mode(path: str | os.PathLike[str]) -> int | None:
    """The mode of ``path`` as it is reached (a symlink followed), or None if it is absent
    (or a symlink to nothing). Never opens it."""
    try:
        return os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None


def read_bytes(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int = MAX_FILE_BYTES,
    error: type[VoyageError] = VoyageError,
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or one ``error`` line naming
    the file as ``what`` ("table file", "map file").

    A folder, pipe, device or socket (a symlink to one too) is refused from its ``stat``,
    before it is opened; the file is then opened without blocking and checked again on the
    open descriptor, so one swapped in between is refused as well. The size is checked
    before reading and while reading (a file that grows is cut off at the limit).
    """
    name = str(path)
    try:
        mode = os.stat(name).st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise error(f"{name}: no such {what}") from None
    except OSError as exc:
        raise error(f"{name}: cannot read it ({exc.strerror})") from None
    if not stat.S_ISREG(mode):
        raise not_regular(name, mode, what, error)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error(f"{name}: no such {what}") from None
    except OSError as exc:
        raise error(f"{name}: cannot read it ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise not_regular(name, info.st_mode, what, error)
        if info.st_size > limit:
            raise too_big(name, info.st_size, limit, what, error)
        pieces: list[bytes] = []
        size = 0
        try:
            while True:
                piece = handle.read(min(_CHUNK, limit + 1 - size))
                if not piece:
                    break
                pieces.append(piece)
                size += len(piece)
                if size > limit:  # it grew while we read
                    raise too_big(name, size, limit, what, error, grew=True)
        except OSError as exc:
            raise error(f"{name}: cannot read it ({exc.strerror})") from None
    return b"".join(pieces)


def too_big(
    name: str, size: int, limit: int, what: str, error: type[VoyageError], grew: bool = False
) -> VoyageError:
    """The one-line refusal of a file over ``limit`` bytes."""
    said = f"over {_size(limit)}" if grew else _size(size)
    if said == _size(limit):  # 20.0 MB against a limit of 20 MB: say it exactly
        said = f"{size:,} bytes"
    return error(
        f"{name} is {said}: a {what} may be at most {_size(limit)}; "
        "split it or remove what it does not need"
    )


def read_text(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int = MAX_FILE_BYTES,
    error: type[VoyageError] = VoyageError,
) -> str:
    """The UTF-8 text of a regular file (:func:`read_bytes`'s limits), or one ``error`` line."""
    data = read_bytes(path, what=what, limit=limit, error=error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{path}: not UTF-8 text (at byte {exc.start}): save the {what} as UTF-8"
        ) from None


def unpack_bytes(
    data: bytes,
    *,
    what: str,
    kind: str = "gzip",
    limit: int = MAX_FILE_BYTES,
    error: type[VoyageError] = VoyageError,
) -> bytes:
    """The decompressed content of ``data`` (``kind`` gzip, all its members, or zlib; ``what``
    names it), refused in one line as soon as it passes ``limit`` bytes: decompression
    streams, so a small file that would unpack to gigabytes costs no more than ``limit``."""
    wbits = 16 + zlib.MAX_WBITS if kind == "gzip" else zlib.MAX_WBITS
    out = io.BytesIO()
    stream = data
    try:
        while True:
            member = zlib.decompressobj(wbits)
            while True:
                piece = member.decompress(stream, _CHUNK)
                out.write(piece)
                if out.tell() > limit:
                    raise error(
                        f"{what} unpacks to over {_size(limit)}: at most "
                        f"{_size(limit)} is read; split it or remove what it does not need"
                    )
                stream = member.unconsumed_tail
                if member.eof or (not piece and not stream):
                    break
            if not member.eof:
                raise error(f"{what}: the {kind} data is cut short (the file is truncated)")
            stream = member.unused_data if kind == "gzip" else b""
            if not stream.startswith(GZIP_MAGIC):
                break  # the last member (padding after it, as some writers leave, is ignored)
    except zlib.error as exc:
        raise error(f"{what}: not valid {kind} data ({exc}): save it again") from None
    return out.getvalue()


def check_writable(path: str | os.PathLike[str], what: str, error: type[VoyageError]) -> None:
    """Refuse in one line to write over anything but a regular file (a pipe would block the
    write for ever, a device would swallow it); an absent path is fine. Never opens it."""
    mode = file_mode(path)
    if mode is not None and not stat.S_ISREG(mode):
        raise error(
            f"{path} is {kind_of_file(mode)}: voyage writes a {what} only over a regular file; "
            "remove it or choose another folder"
        )


# ----------------------------------------------------------------------------------- YAML


class _Limits:
    """The checks voyage adds to PyYAML's safe loader; mixed into the C and the Python one.

    ``source`` names the file in errors and ``error`` is the caller's error type; both are
    set by :func:`yaml_loader`.
    """

    source: str = "YAML text"
    error: type[VoyageError] = VoyageError
    _depth: int = 0

    def _refuse(self, node: Any, problem: str) -> VoyageError:
        line = node.start_mark.line + 1 if node is not None else None
        where = f", line {line}" if line else ""
        return self.error(f"{self.source}{where}: {problem}")

    # The Python composer recurses once per level, so its depth is counted as it goes; the
    # C one (libyaml stops at 1000 levels by itself) is checked on the tree it returns.
    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise self._too_deep(self.peek_event())  # type: ignore[attr-defined]
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self._depth -= 1

    def _too_deep(self, node: Any) -> VoyageError:
        return self._refuse(
            node, f"nesting depth over {MAX_DEPTH}: flatten it (no table or map needs that)"
        )

    def get_single_node(self) -> Any:
        node = super().get_single_node()  # type: ignore[misc]
        if node is not None:
            stack = [(node, 1)]
            seen: set[int] = set()
            while stack:
                item, depth = stack.pop()
                if depth > MAX_DEPTH:
                    raise self._too_deep(item)
                if id(item) in seen or isinstance(item, yaml.ScalarNode):
                    continue
                seen.add(id(item))
                if isinstance(item, yaml.SequenceNode):
                    stack.extend((child, depth + 1) for child in item.value)
                else:
                    for key, value in item.value:
                        stack.append((key, depth + 1))
                        stack.append((value, depth + 1))
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                    continue
                key = self.construct_object(key_node)  # type: ignore[attr-defined]
                line = key_node.start_mark.line + 1
                if key in seen:
                    shown = repr(key) if len(repr(key)) <= 60 else repr(key)[:57] + "..."
                    raise self._refuse(
                        key_node,
                        f"the key {shown} is written twice (first on line {seen[key]}): keep one",
                    )
                seen[key] = line
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc]

    def _number_text(self, node: Any) -> None:
        text = str(node.value)
        if len(text) > MAX_NUMBER_DIGITS:
            raise self._refuse(
                node,
                f"a number of {len(text)} characters ({text[:20]}...): numbers here have "
                f"at most {MAX_NUMBER_DIGITS}; write a smaller one",
            )

    def construct_limited_int(self, node: Any) -> Any:
        self._number_text(node)
        return super().construct_yaml_int(node)  # type: ignore[misc]

    def construct_limited_float(self, node: Any) -> Any:
        self._number_text(node)
        return super().construct_yaml_float(node)  # type: ignore[misc]


class LimitedSafeLoader(_Limits, yaml.SafeLoader):
    """PyYAML's pure-Python safe loader with voyage's limits."""


def _limit_numbers(loader: Any) -> None:
    """Whole numbers and decimals read through :meth:`_Limits._number_text`."""
    loader.add_constructor("tag:yaml.org,2002:int", loader.construct_limited_int)
    loader.add_constructor("tag:yaml.org,2002:float", loader.construct_limited_float)


_limit_numbers(LimitedSafeLoader)
_CSafeLoader: Any = getattr(yaml, "CSafeLoader", None)
#: The loader every YAML read uses: libyaml's when PyYAML has it (the same safe subset of
#: YAML, about ten times faster, which matters because every command that opens a
#: campaign reads the tables), else the pure-Python one.
Loader: type[Any] = LimitedSafeLoader
if _CSafeLoader is not None:

    class LimitedCSafeLoader(_Limits, _CSafeLoader):  # type: ignore[misc, valid-type]
        """libyaml's safe loader with voyage's limits."""

    _limit_numbers(LimitedCSafeLoader)
    Loader = LimitedCSafeLoader


def yaml_loader(
    text: str,
    *,
    source: str,
    error: type[VoyageError] = VoyageError,
    limit: int = MAX_FILE_BYTES,
) -> Any:
    """A safe YAML loader over ``text`` with voyage's limits (see the module's docstring);
    ``source`` names the file in its errors, raised as ``error``; text over ``limit``
    characters is refused unread (a table kept in the campaign file, say). Call
    ``dispose()`` after."""
    if len(text) > limit:
        raise too_big(source, len(text), limit, "YAML text", error)
    loader = Loader(text)
    loader.source = source
    loader.error = error
    return loader


def yaml_problem(exc: yaml.YAMLError) -> tuple[str, str]:
    """(``, line L, column C`` or "", the problem) of a PyYAML error, for a one-line message."""
    mark = getattr(exc, "problem_mark", None)
    where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return where, problem


def load_yaml(
    text: str,
    *,
    source: str,
    error: type[VoyageError] = VoyageError,
    limit: int = MAX_FILE_BYTES,
) -> Any:
    """The data of YAML ``text`` read with voyage's limits; any problem is one ``error``
    line naming ``source`` and the line."""
    loader = yaml_loader(text, source=source, error=error, limit=limit)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        where, problem = yaml_problem(exc)
        raise error(f"{source}{where}: not valid YAML ({problem}): fix it there") from None
    finally:
        loader.dispose()


def read_yaml(
    path: str | os.PathLike[str],
    *,
    what: str,
    error: type[VoyageError] = VoyageError,
    limit: int = MAX_FILE_BYTES,
) -> Any:
    """A YAML file's data: :func:`read_text` then :func:`load_yaml`."""
    text = read_text(path, what=what, limit=limit, error=error)
    return load_yaml(text, source=str(Path(path)), error=error, limit=limit)
