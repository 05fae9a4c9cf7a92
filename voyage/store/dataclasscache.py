"""The methods :mod:`dataclasses` writes for voyage's classes, kept compiled (issue 14:
start-up).

``@dataclass`` writes each class's ``__init__``, ``__repr__`` and ``__eq__`` (and a frozen
one's ``__setattr__``, ``__delattr__`` and ``__hash__``) as Python source and compiles it
with :func:`exec` when the class is made, at import. ``voyage advance`` makes some 60
dataclasses, and compiling their methods was about half of what the command spends beyond
importing its libraries (~1 ms a class). ``dataclass_code.marshal`` (in the package, written
by ``python -m voyage.store.dataclasscache --write``, never at run time) keeps the compiled code of
that source, keyed by the source text itself, so it cannot go stale:

* a hit is the code object ``compile(text, "<string>", "exec")`` gives (no inherited
  ``__future__`` flags: dataclasses' own ``exec`` has none), run by the same ``exec`` in
  the same namespaces: the same functions, names, defaults and annotations;
* any other text (a class changed or added since the file was written, another Python's
  dataclasses) is a miss and is compiled as before; a file written by another Python
  (another marshal format) is not used at all.

:func:`install` puts this ``exec`` in the namespace of the :mod:`dataclasses` module (which
calls ``exec`` by that name to make the methods); the command line installs it before it
imports anything else of voyage (voyage.cli). Results cannot change: the code run is the
code a compile of the same text makes.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

CACHE_FILE = Path(__file__).resolve().parent / "dataclass_code.marshal"
FORMAT = 1

#: module -> its kept code, still marshalled (each module's unpacked on first use)
_sections: dict[str, bytes] | None = None
#: module -> source text -> code, unpacked
_codes: dict[str, dict[str, CodeType]] = {}
#: module -> source text -> code compiled by this process (for ``--write``)
_made: dict[str, dict[str, CodeType]] = {}
#: how many methods were taken from the file (hits) and compiled (misses)
counts = {"hit": 0, "miss": 0}


def python_tag() -> str:
    """Which Pythons can use the file: the same implementation and byte code (the magic
    number of its .pyc files: any 3.11.x reads a 3.11.y's), at the same optimization."""
    from importlib.util import MAGIC_NUMBER  # loaded with the import system itself

    return f"{sys.implementation.cache_tag} {MAGIC_NUMBER.hex()} O{sys.flags.optimize}"


def _kept(module: str) -> dict[str, CodeType]:
    """The kept code of ``module``'s classes (empty if none, or no usable file)."""
    global _sections
    if module in _codes:
        return _codes[module]
    if _sections is None:
        _sections = {}
        try:
            kept = marshal.loads(CACHE_FILE.read_bytes())
            if kept.get("format") == FORMAT and kept.get("python") == python_tag():
                _sections = dict(kept["modules"])
        except (OSError, ValueError, EOFError, TypeError, AttributeError, KeyError):
            pass
    found: dict[str, CodeType] = {}
    packed = _sections.get(module)
    if packed is not None:
        with contextlib.suppress(ValueError, EOFError, TypeError):
            found = dict(marshal.loads(packed))
    _codes[module] = found
    return found


def compiled(module: str, source: str) -> CodeType:
    """The code of ``source`` (a method of a class of ``module``) as dataclasses' ``exec``
    compiles it: from the file if kept."""
    code = _kept(module).get(source)
    if code is not None:
        counts["hit"] += 1
        return code
    counts["miss"] += 1
    code = compile(source, "<string>", "exec", dont_inherit=True)
    _made.setdefault(module, {})[source] = code
    return code


def _exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
    """:func:`exec` as dataclasses calls it, with the source's compiled code kept."""
    if globals is None:  # as a plain exec would: the caller's (dataclasses') namespace
        globals = vars(dataclasses)  # noqa: A001
    module = str(globals.get("__name__", ""))
    if type(source) is str and module.startswith("voyage."):
        source = compiled(module, source)
    builtins.exec(source, globals, globals if locals is None else locals)


def install() -> None:
    """Make dataclasses compile through the kept code (idempotent)."""
    dataclasses.exec = _exec  # type: ignore[attr-defined]


def write() -> int:
    """Import every voyage module, compiling every dataclass method afresh, and keep their
    code in :data:`CACHE_FILE`; the number kept."""
    import importlib
    import pkgutil

    import voyage

    global _sections
    _sections = {}  # compile everything: what the file held may be stale
    _codes.clear()
    _made.clear()
    install()
    for info in pkgutil.walk_packages(voyage.__path__, "voyage."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    modules = {m: marshal.dumps(dict(sorted(c.items()))) for m, c in sorted(_made.items())}
    kept = {"format": FORMAT, "python": python_tag(), "modules": modules}
    CACHE_FILE.write_bytes(marshal.dumps(kept))
    return sum(len(c) for c in _made.values())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["--write"]:
        print("usage: python -m voyage.store.dataclasscache --write", file=sys.stderr)
        return 2
    from voyage.store import dataclasscache  # the module every import uses, not this __main__

    count = dataclasscache.write()
    print(f"kept the code of {count} dataclass methods in {CACHE_FILE.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
