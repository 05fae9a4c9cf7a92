"""Reading a drawing tool's file: the one place the importers touch the file system.

A file named by the referee is read only when it is a regular file of at most
:data:`MAX_SOURCE_BYTES` (a folder, a device, a pipe or a socket is refused before anything
is read), and a gzip container is unpacked with a streamed cap on what it holds, so neither a
huge file nor a small "gzip bomb" can fill the memory. Everything else in this package works
on the bytes this returns.
"""

from __future__ import annotations

import os
from pathlib import Path

from voyage.base.errors import MapError
from voyage.base.readlimits import read_bytes, unpack_bytes

#: The largest map file read (a 999 x 999 Worldographer map is a few MB gzipped).
MAX_SOURCE_BYTES = 64 * 1024 * 1024
#: The largest a compressed container (gzip, zlib) may unpack to.
MAX_UNPACKED_BYTES = 256 * 1024 * 1024


def read_map_file(path: str | os.PathLike[str], *, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or one MapError line."""
    return read_bytes(path, what="map file", limit=limit, error=MapError)


def unpack(
    data: bytes, source: str, *, kind: str = "gzip", limit: int = MAX_UNPACKED_BYTES
) -> bytes:
    """``data`` decompressed (``kind`` gzip or zlib), at most ``limit`` bytes of it, or one
    MapError line naming ``source``."""
    return unpack_bytes(data, what=source, kind=kind, limit=limit, error=MapError)


def source_name(path: str | os.PathLike[str]) -> str:
    """How a file is named in messages and in the campaign: the path as given."""
    return str(Path(path))
