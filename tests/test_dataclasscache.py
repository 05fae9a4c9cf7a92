"""voyage.store.dataclasscache: the kept code of dataclass methods is exactly what compiling their
source gives, classes made through it are the same classes, and anything else (a changed
class, a damaged file) is compiled as before (issue 14: start-up)."""

from __future__ import annotations

import dataclasses
import json
import marshal
import subprocess
import sys
import types
from pathlib import Path

import pytest

from voyage.store import dataclasscache

ALL_MODULES = """
import importlib, json, pkgutil, sys
import voyage
from voyage.store import dataclasscache
dataclasscache.install()
for info in pkgutil.walk_packages(voyage.__path__, "voyage."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
print(json.dumps(dataclasscache.counts))
"""


def test_committed_file_is_current() -> None:
    """If this fails: run `python -m voyage.store.dataclasscache --write` and commit the file."""
    kept = marshal.loads(dataclasscache.CACHE_FILE.read_bytes())
    if kept["python"] != dataclasscache.python_tag():
        pytest.skip(f"the file is for {kept['python']}: another Python compiles as ever")
    done = subprocess.run(
        [sys.executable, "-c", ALL_MODULES], capture_output=True, text=True, check=True
    )
    counts = json.loads(done.stdout.splitlines()[-1])
    assert counts["miss"] == 0
    assert counts["hit"] > 300


def test_kept_code_is_what_compiling_gives() -> None:
    kept = marshal.loads(dataclasscache.CACHE_FILE.read_bytes())
    assert kept["format"] == dataclasscache.FORMAT
    if kept["python"] != dataclasscache.python_tag():
        pytest.skip(f"the file is for {kept['python']}")
    for packed in kept["modules"].values():
        for source, code in marshal.loads(packed).items():
            assert code == compile(source, "<string>", "exec", dont_inherit=True)


CLASS = """
from __future__ import annotations
import dataclasses

@dataclasses.dataclass(frozen=True)
class Probe:
    name: str
    hexes: list[str] = dataclasses.field(default_factory=list)
    knots: int = 3
"""


def make_probe(module_name: str) -> type:
    module = types.ModuleType(module_name)
    sys.modules[module_name] = module  # dataclasses reads string annotations through it
    exec(CLASS, module.__dict__)  # noqa: S102 - a fixed class for the test
    del sys.modules[module_name]
    return module.Probe  # type: ignore[no-any-return]


def test_a_class_made_through_it_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = make_probe("voyage.probe_plain")  # before install: dataclasses' own exec
    monkeypatch.setattr(dataclasses, "exec", dataclasscache._exec, raising=False)
    monkeypatch.setattr(dataclasscache, "_sections", {})
    monkeypatch.setattr(dataclasscache, "_codes", {})
    monkeypatch.setattr(dataclasscache, "_made", {})
    before = dict(dataclasscache.counts)
    first = make_probe("voyage.probe")
    assert dataclasscache.counts["miss"] > before["miss"]  # not kept: compiled
    # a second class of the same source reuses the code compiled by the first
    monkeypatch.setattr(dataclasscache, "_codes", dict(dataclasscache._made))
    second = make_probe("voyage.probe")
    assert dataclasscache.counts["hit"] > before["hit"]
    for cls in (first, second):
        for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__"):
            ours, theirs = getattr(cls, name), getattr(plain, name)
            assert ours.__code__ == theirs.__code__
            assert ours.__annotations__ == theirs.__annotations__
            assert ours.__defaults__ == theirs.__defaults__
        made = cls("Gull")
        assert repr(made) == repr(plain("Gull")).replace("probe_plain", "probe")
        assert made == cls("Gull", [], 3) and made.hexes == []
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.knots = 4  # type: ignore[misc]


def test_a_bad_file_is_a_miss(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    source = "def __create_fn__():\n def f(self):\n  return 1\n return f"
    bad = tmp_path / "dataclass_code.marshal"
    bad.write_bytes(b"\x00not marshal")
    for path in (tmp_path / "gone.marshal", bad):
        monkeypatch.setattr(dataclasscache, "CACHE_FILE", path)
        monkeypatch.setattr(dataclasscache, "_sections", None)
        monkeypatch.setattr(dataclasscache, "_codes", {})
        code = dataclasscache.compiled("voyage.engine.clock", source)
        assert code == compile(source, "<string>", "exec", dont_inherit=True)
    # another Python's file is not read
    other = tmp_path / "other.marshal"
    other.write_bytes(
        marshal.dumps(
            {
                "format": dataclasscache.FORMAT,
                "python": "cpython-99 9.9",
                "modules": {
                    "voyage.engine.clock": marshal.dumps({source: compile("0", "", "eval")})
                },
            }
        )
    )
    monkeypatch.setattr(dataclasscache, "CACHE_FILE", other)
    monkeypatch.setattr(dataclasscache, "_sections", None)
    monkeypatch.setattr(dataclasscache, "_codes", {})
    assert dataclasscache.compiled("voyage.engine.clock", source) == compile(
        source, "<string>", "exec", dont_inherit=True
    )
