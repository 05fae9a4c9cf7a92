"""voyage.tables.cache: the bundled tables kept validated give exactly what parsing gives,
and anything else (an edited text, changed checking code) misses (issue 14: start-up)."""

from __future__ import annotations

import marshal
import sys
from pathlib import Path

import pytest

from voyage.base.paths import tables_dir
from voyage.tables import cache as tablecache
from voyage.tables import rulebook as tables

KEPT = [n for n in tables.TABLE_NAMES if n not in tablecache.NOT_KEPT]


def fresh(name: str, text: str) -> object:
    return tables.check_table(name, tables.parse_yaml(text, name), name)


def bundled(name: str) -> str:
    return (tables_dir() / f"{name}.yaml").read_text(encoding="utf-8")


def test_committed_file_is_current() -> None:
    """If this fails: run `python -m voyage.tables.cache --write` and commit the file."""
    kept = marshal.loads(tablecache.CACHE_FILE.read_bytes())
    assert kept["format"] == tablecache.FORMAT
    assert kept["code"] == tablecache.code_fingerprint()
    assert sorted(kept["tables"]) == sorted(KEPT)


@pytest.mark.parametrize("name", KEPT)
def test_hit_is_exactly_the_parsed_table(name: str) -> None:
    text = bundled(name)
    first = tablecache.checked(name, text)
    assert first is not None
    # same values, types (1 vs 1.0 vs True, tuple vs list) and key order
    assert repr(first) == repr(fresh(name, text))
    second = tablecache.checked(name, text)
    assert second == first and second is not first  # fresh objects every time


@pytest.mark.parametrize("name", KEPT)
def test_other_text_misses(name: str) -> None:
    assert tablecache.checked(name, bundled(name) + "\n# edited\n") is None
    assert tablecache.checked(name, "") is None


def test_changed_checking_code_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tablecache, "_loaded", None)
    monkeypatch.setattr(tablecache, "code_fingerprint", lambda: "0" * 64)
    assert tablecache.checked("tiers", bundled("tiers")) is None


def test_missing_or_bad_file_misses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bad = tmp_path / "checked_tables.marshal"
    bad.write_bytes(b"\x00not marshal")
    for path in (tmp_path / "gone.marshal", bad):
        monkeypatch.setattr(tablecache, "_loaded", None)
        monkeypatch.setattr(tablecache, "CACHE_FILE", path)
        assert tablecache.checked("tiers", bundled("tiers")) is None
    monkeypatch.setattr(tablecache, "_loaded", None)  # the real file again afterwards


def test_check_modules_cover_the_checks() -> None:
    """Every voyage module whose code runs while a kept table is validated is in
    CHECK_MODULES, so changing it changes the fingerprint (and the cache misses)."""
    import voyage.tables.boatdesigns  # noqa: F401  (imported first: only code that runs is traced)

    raw = {n: tables.parse_yaml(bundled(n), n) for n in KEPT}
    seen: set[str] = set()

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        if event == "call":
            seen.add(frame.f_code.co_filename)

    sys.setprofile(trace)
    try:
        for name in KEPT:
            tables.check_table(name, raw[name], name)
    finally:
        sys.setprofile(None)
    package = Path(tables.__file__).resolve().parent.parent
    ran = {
        Path(f).resolve().relative_to(package).with_suffix("").as_posix()
        for f in seen
        if f.endswith(".py") and package in Path(f).resolve().parents
    }
    assert ran and ran <= set(tablecache.CHECK_MODULES)


def test_house_table_equal_to_bundled_gives_same_book() -> None:
    texts = {n: bundled(n) for n in KEPT}
    book = tables.rulebook_from_texts(texts, {n: f"house table {n}.yaml" for n in texts})
    plain = tables.load_rulebook()
    for name in KEPT:
        assert repr(getattr(book, name)) == repr(getattr(plain, name))


def test_bad_house_table_still_one_error_line() -> None:
    with pytest.raises(tables.TableError, match="house table tiers.yaml"):
        tables.rulebook_from_texts({"tiers": "tiers: [1, 2"}, {"tiers": "house table tiers.yaml"})
