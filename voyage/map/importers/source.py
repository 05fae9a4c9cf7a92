"""Reading a drawing tool's file: the one place the importers touch the file system.

A file named by the referee is read only when it is a regular file of at most
:data:`MAX_SOURCE_BYTES` (a folder, a device, a pipe or a socket is refused before anything
is read), and a gzip container is unpacked with a streamed cap on what it holds, so neither a
huge file nor a small "gzip bomb" can fill the memory. Everything else in this package works
on the bytes this returns.
"""

from __future__ import annotations

import io
import os
import stat
import zlib
from pathlib import Path

from voyage.base.errors import MapError

#: The largest map file read (a 999 x 999 Worldographer map is a few MB gzipped).
MAX_SOURCE_BYTES = 64 * 1024 * 1024
#: The largest a compressed container (gzip, zlib) may unpack to.
MAX_UNPACKED_BYTES = 256 * 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"


def read_map_file(path: str | os.PathLike[str], *, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or one MapError line."""
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise MapError(f"{name}: no such map file") from None
    except IsADirectoryError:
        raise MapError(f"{name} is a folder, not a map file") from None
    except OSError as exc:
        raise MapError(f"{name}: cannot read it ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise MapError(f"{name} is a folder, not a map file")
        if not stat.S_ISREG(info.st_mode):
            raise MapError(f"{name} is not a regular file (a device, pipe or socket): name a file")
        if info.st_size > limit:
            raise MapError(
                f"{name} is {info.st_size:,} bytes, over the {limit:,}-byte limit for a map file"
            )
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise MapError(f"{name} grew past the {limit:,}-byte limit while it was read")
    return data


def unpack(
    data: bytes, source: str, *, kind: str = "gzip", limit: int = MAX_UNPACKED_BYTES
) -> bytes:
    """``data`` decompressed (``kind`` gzip or zlib), at most ``limit`` bytes of it, or one
    MapError line naming ``source``."""
    wbits = 16 + zlib.MAX_WBITS if kind == "gzip" else zlib.MAX_WBITS
    out = io.BytesIO()
    stream = data
    try:
        while True:
            member = zlib.decompressobj(wbits)
            while True:
                piece = member.decompress(stream, 1024 * 1024)
                out.write(piece)
                if out.tell() > limit:
                    raise MapError(
                        f"{source}: unpacks to more than {limit:,} bytes: not a map voyage reads"
                    )
                stream = member.unconsumed_tail
                if member.eof or (not piece and not stream):
                    break
            if not member.eof:
                raise MapError(f"{source}: the {kind} data is cut short (the file is truncated)")
            stream = member.unused_data if kind == "gzip" else b""
            if not stream.startswith(GZIP_MAGIC):
                break  # the last member (padding after it, as some writers leave, is ignored)
    except zlib.error as exc:
        raise MapError(f"{source}: not valid {kind} data ({exc}): save the map again") from None
    return out.getvalue()


def source_name(path: str | os.PathLike[str]) -> str:
    """How a file is named in messages and in the campaign: the path as given."""
    return str(Path(path))
