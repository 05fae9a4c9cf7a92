"""The bundled rule tables, already parsed and validated (issue 14: start-up).

Every command that opens a campaign builds its rule book, and parsing and validating the
YAML tables cost it about 25-30 ms of CPU each time. ``checked_tables.marshal`` (in the
package, written by ``python -m voyage.tables.cache --write``, never at run time) keeps each
bundled table's validated data as :mod:`marshal` bytes, keyed by

* the SHA-256 of the table's YAML text, and
* the SHA-256 of the source of the modules whose code validates the tables
  (:data:`CHECK_MODULES`),

so it cannot go stale: a table text that differs by one byte (a house table, an edited
bundled file) or changed checking code simply misses, and the table is parsed and checked
as before. A hit gives exactly what ``check_table(name, parse_yaml(text))`` gives (same
values, types and order; tests/test_tablecache.py compares them), as fresh objects each
time. Any trouble reading the file (missing, another Python's marshal) is a miss too.

The boats table is kept too (checked on first use, :attr:`voyage.tables.rulebook.RuleBook.boats`:
its check runs the boat rules' own code, voyage.vessels.boats, so that is fingerprinted as well).
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from pathlib import Path
from typing import Any

CACHE_FILE = Path(__file__).resolve().parent / "checked_tables.marshal"
FORMAT = 1
#: The voyage modules whose code runs when a kept table is validated (the test traces
#: the checks and fails if one is missing here).
CHECK_MODULES = (
    "tables/rulebook",
    "tables/encounters",
    "tables/world",
    "tables/boats",
    "tables/submersibles",
    "vessels/boats",
    "dice/roller",
    "base/text",
    "base/tiers",
)
#: Tables not kept (none at present).
NOT_KEPT: frozenset[str] = frozenset()

_loaded: dict[str, tuple[str, bytes]] | None = None


def code_fingerprint() -> str:
    """SHA-256 over the source of :data:`CHECK_MODULES` (raises OSError if one is gone)."""
    here = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in CHECK_MODULES:
        digest.update(name.encode() + b"\0" + (here / f"{name}.py").read_bytes() + b"\0")
    return digest.hexdigest()


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _entries() -> dict[str, tuple[str, bytes]]:
    """The kept tables, if the file is there and was made by the current checking code."""
    global _loaded
    if _loaded is None:
        _loaded = {}
        try:
            kept = marshal.loads(CACHE_FILE.read_bytes())
            if kept.get("format") == FORMAT and kept.get("code") == code_fingerprint():
                _loaded = dict(kept["tables"])
        except (OSError, ValueError, EOFError, TypeError, AttributeError, KeyError):
            pass
    return _loaded


def checked(name: str, text: str) -> Any | None:
    """The validated data of table ``name`` if ``text`` is the kept text, else None."""
    entry = _entries().get(name)
    if entry is None or entry[0] != text_key(text):
        return None
    try:
        return marshal.loads(entry[1])
    except (ValueError, EOFError, TypeError):
        return None


def build() -> bytes:
    """The cache file's bytes for the bundled tables as they are now."""
    from voyage.base.paths import tables_dir
    from voyage.tables.rulebook import TABLE_NAMES, check_table, parse_yaml

    kept: dict[str, tuple[str, bytes]] = {}
    for name in TABLE_NAMES:
        if name in NOT_KEPT:
            continue
        file = tables_dir() / f"{name}.yaml"
        text = file.read_text(encoding="utf-8")
        data = check_table(name, parse_yaml(text, file), file)
        kept[name] = (text_key(text), marshal.dumps(data))
    return marshal.dumps({"format": FORMAT, "code": code_fingerprint(), "tables": kept})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["--write"]:
        print("usage: python -m voyage.tables.cache --write", file=sys.stderr)
        return 2
    CACHE_FILE.write_bytes(build())
    print(f"wrote {CACHE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
